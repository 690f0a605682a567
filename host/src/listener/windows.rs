//! The named pipe: a fresh random name each start, created as the first instance, owned by
//! this user with an access list that admits this user alone, and no remote clients; the name
//! goes into the runtime folder for clients to find. The access list is the check of who
//! connects (Windows enforces it at open). Each accepted client gets the instance it connected to,
//! and a new instance takes its place at once, so the name never lapses.

// Removes the pipe's name file: one of the host's named file I/O modules.
#![allow(clippy::disallowed_methods)]

use std::ffi::c_void;
use std::io;
use std::path::PathBuf;
use std::ptr::null_mut;

use claudezilla_protocol::paths::{self, RuntimeDir};
use claudezilla_protocol::pipe::{PipeName, user_only_sddl};
use tokio::net::windows::named_pipe::{NamedPipeServer, ServerOptions};
use windows_sys::Win32::Foundation::LocalFree;
use windows_sys::Win32::Security::Authorization::{
    ConvertStringSecurityDescriptorToSecurityDescriptorW, SDDL_REVISION_1,
};
use windows_sys::Win32::Security::{PSECURITY_DESCRIPTOR, SECURITY_ATTRIBUTES};

use super::{Accepted, ListenError};

pub type ReadHalf = tokio::io::ReadHalf<NamedPipeServer>;
pub type WriteHalf = tokio::io::WriteHalf<NamedPipeServer>;

pub struct Listener {
    name: PipeName,
    access: UserOnly,
    next: NamedPipeServer,
}

impl Listener {
    pub fn bind(rt: &RuntimeDir) -> Result<(Self, Claim), ListenError> {
        let mut random = [0u8; 16];
        getrandom::fill(&mut random).map_err(|e| ListenError {
            at: "a new pipe".into(),
            source: io::Error::other(e),
        })?;
        let name = PipeName::from_random(random);
        let err = |source| ListenError {
            at: name.to_string(),
            source,
        };
        let access = UserOnly::new().map_err(err)?;
        let next = create(&name, &access, true).map_err(err)?;
        rt.write_pipe_name(&name).map_err(err)?;
        tracing::info!(pipe = %name, "listening");
        let claim = Claim {
            file: rt.pipe_file(),
            name: name.clone(),
        };
        Ok((Self { name, access, next }, claim))
    }

    pub async fn accept(&mut self) -> io::Result<Accepted> {
        let connected = self.next.connect().await;
        // After a failed connect the instance is spent: the next accept needs a new one.
        let fresh = create(&self.name, &self.access, false)?;
        if let Err(e) = connected {
            self.next = fresh;
            return Err(e);
        }
        let connected = std::mem::replace(&mut self.next, fresh);
        let (rd, wr) = tokio::io::split(connected);
        Ok(Accepted::Client(rd, wr))
    }
}

fn create(name: &PipeName, access: &UserOnly, first: bool) -> io::Result<NamedPipeServer> {
    let mut attributes = SECURITY_ATTRIBUTES {
        nLength: std::mem::size_of::<SECURITY_ATTRIBUTES>() as u32,
        lpSecurityDescriptor: access.0,
        bInheritHandle: 0,
    };
    // SAFETY: `attributes` is a valid SECURITY_ATTRIBUTES whose descriptor outlives the call.
    unsafe {
        ServerOptions::new()
            .first_pipe_instance(first)
            .reject_remote_clients(true)
            .create_with_security_attributes_raw(
                name.as_str(),
                (&mut attributes as *mut SECURITY_ATTRIBUTES).cast::<c_void>(),
            )
    }
}

/// A security descriptor granting this user everything and no one else anything.
struct UserOnly(PSECURITY_DESCRIPTOR);

// SAFETY: the descriptor is memory owned by this value, never written after it is made.
unsafe impl Send for UserOnly {}
// SAFETY: as above; it is only read.
unsafe impl Sync for UserOnly {}

impl UserOnly {
    fn new() -> io::Result<Self> {
        let sid = paths::current_user_sid()?;
        let sddl = user_only_sddl(&sid)
            .ok_or_else(|| io::Error::other(format!("unexpected user SID {sid}")))?;
        let wide: Vec<u16> = sddl.encode_utf16().chain(Some(0)).collect();
        let mut descriptor = null_mut();
        // SAFETY: a NUL-terminated string and an out-parameter freed by Drop.
        let made = unsafe {
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                wide.as_ptr(),
                SDDL_REVISION_1,
                &mut descriptor,
                null_mut(),
            )
        };
        if made == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Self(descriptor))
    }
}

impl Drop for UserOnly {
    fn drop(&mut self) {
        // SAFETY: allocated by ConvertStringSecurityDescriptorToSecurityDescriptorW.
        unsafe { LocalFree(self.0) };
    }
}

/// The pipe-name file this host wrote; removed on drop unless a newer host replaced it.
pub struct Claim {
    file: PathBuf,
    name: PipeName,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let ours = std::fs::read_to_string(&self.file)
            .ok()
            .and_then(|t| PipeName::parse(&t).ok())
            .is_some_and(|n| n == self.name);
        if ours {
            let _ = std::fs::remove_file(&self.file);
        }
    }
}
