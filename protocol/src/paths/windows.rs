//! The runtime folder and the pipe's owner on Windows. The folder under `%LOCALAPPDATA%`
//! inherits the profile's access list (the user, SYSTEM and administrators), so what is checked
//! here is that it is a real folder, not a link elsewhere; clients check that the host's pipe is
//! owned by this user. (The pipe's access list keeps other users' clients out: the host needs
//! no check of its own.)

use std::fs;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::path::Path;
use std::ptr::null_mut;

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, LocalFree};
use windows_sys::Win32::Security::Authorization::{
    ConvertSidToStringSidW, GetSecurityInfo, SE_KERNEL_OBJECT,
};
use windows_sys::Win32::Security::{
    GetLengthSid, GetTokenInformation, OWNER_SECURITY_INFORMATION, PSID, TOKEN_QUERY, TOKEN_USER,
    TokenUser,
};
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

use super::{Kind, PathError, RuntimeDir, kind_of};

pub(super) fn ensure(rt: &RuntimeDir) -> Result<(), PathError> {
    fs::create_dir_all(rt.path()).map_err(|source| PathError::Io {
        path: rt.path().to_owned(),
        source,
    })?;
    verify(rt.path())
}

/// A junction or symlink in place of the folder could lead the token elsewhere.
pub(super) fn verify(dir: &Path) -> Result<(), PathError> {
    let meta = fs::symlink_metadata(dir).map_err(|source| PathError::Io {
        path: dir.to_owned(),
        source,
    })?;
    if kind_of(&meta) != Kind::Dir {
        return Err(PathError::NotAFolder {
            path: dir.to_owned(),
        });
    }
    Ok(())
}

/// Files take the folder's access list.
pub(super) fn owner_only(_options: &mut fs::OpenOptions) {}

/// For clients: the pipe is owned by this user. The host makes itself the owner; no one else
/// can give us a pipe (that takes the restore privilege, an administrator's), so a pipe that
/// took a dead host's name is refused before the token goes out.
pub fn check_peer(pipe: &impl AsRawHandle) -> Result<(), PathError> {
    match owned_by_us(pipe.as_raw_handle()) {
        Ok(true) => Ok(()),
        _ => Err(PathError::ForeignPipe),
    }
}

fn owned_by_us(object: HANDLE) -> io::Result<bool> {
    // SAFETY: the pseudo-handle of this process needs no closing.
    let ours = with_user_sid(unsafe { GetCurrentProcess() }, sid_bytes)?;
    let (mut owner, mut descriptor) = (null_mut(), null_mut());
    // SAFETY: a handle we hold; the owner points into `descriptor`, freed below.
    let status = unsafe {
        GetSecurityInfo(
            object,
            SE_KERNEL_OBJECT,
            OWNER_SECURITY_INFORMATION,
            &mut owner,
            null_mut(),
            null_mut(),
            null_mut(),
            &mut descriptor,
        )
    };
    if status != 0 {
        return Err(io::Error::from_raw_os_error(status as i32));
    }
    let theirs = sid_bytes(owner);
    // SAFETY: allocated by GetSecurityInfo.
    unsafe { LocalFree(descriptor) };
    Ok(theirs? == ours)
}

/// This user's SID as text (`S-1-5-21-…`), for the pipe's access list.
pub fn current_user_sid() -> io::Result<String> {
    // SAFETY: the pseudo-handle of this process needs no closing.
    with_user_sid(unsafe { GetCurrentProcess() }, |sid| {
        let mut wide = null_mut();
        // SAFETY: a valid SID, and an out-parameter freed below with LocalFree.
        if unsafe { ConvertSidToStringSidW(sid, &mut wide) } == 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: the string is NUL-terminated.
        let len = (0..).take_while(|&i| unsafe { *wide.add(i) } != 0).count();
        // SAFETY: `len` units were just read.
        let text = String::from_utf16_lossy(unsafe { std::slice::from_raw_parts(wide, len) });
        // SAFETY: allocated by ConvertSidToStringSidW.
        unsafe { LocalFree(wide.cast()) };
        Ok(text)
    })
}

/// Calls `f` with the SID of the user `process` runs as.
fn with_user_sid<R>(process: HANDLE, f: impl FnOnce(PSID) -> io::Result<R>) -> io::Result<R> {
    let mut token = null_mut();
    // SAFETY: a process handle, and an out-parameter closed by `Handle`.
    if unsafe { OpenProcessToken(process, TOKEN_QUERY, &mut token) } == 0 {
        return Err(io::Error::last_os_error());
    }
    let token = Handle(token);
    let mut len = 0;
    // SAFETY: asks for the size only.
    unsafe { GetTokenInformation(token.0, TokenUser, null_mut(), 0, &mut len) };
    if len == 0 {
        return Err(io::Error::last_os_error());
    }
    // u64s: a TOKEN_USER holds pointers and must be aligned for them.
    let mut buf = vec![0u64; (len as usize).div_ceil(8)];
    // SAFETY: `buf` holds at least `len` bytes.
    if unsafe { GetTokenInformation(token.0, TokenUser, buf.as_mut_ptr().cast(), len, &mut len) }
        == 0
    {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: the call wrote a TOKEN_USER at the start of `buf`; its SID points into `buf`.
    let sid = unsafe { (*buf.as_ptr().cast::<TOKEN_USER>()).User.Sid };
    f(sid)
}

fn sid_bytes(sid: PSID) -> io::Result<Vec<u8>> {
    // SAFETY: a valid SID is `GetLengthSid` bytes long.
    let len = unsafe { GetLengthSid(sid) } as usize;
    Ok(unsafe { std::slice::from_raw_parts(sid.cast::<u8>(), len) }.to_vec())
}

/// A kernel handle closed on drop.
struct Handle(HANDLE);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: a handle this module opened and no one else closes.
        unsafe { CloseHandle(self.0) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipe::{PipeName, user_only_sddl};
    use windows_sys::Win32::Foundation::{ERROR_INVALID_OWNER, INVALID_HANDLE_VALUE};
    use windows_sys::Win32::Security::Authorization::{
        ConvertStringSecurityDescriptorToSecurityDescriptorW, SDDL_REVISION_1,
    };
    use windows_sys::Win32::Security::SECURITY_ATTRIBUTES;
    use windows_sys::Win32::Storage::FileSystem::PIPE_ACCESS_DUPLEX;
    use windows_sys::Win32::System::Pipes::{CreateNamedPipeW, PIPE_TYPE_BYTE};

    fn fresh(tag: u8) -> PipeName {
        let mut random = [tag; 16];
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        random[..4].copy_from_slice(&std::process::id().to_le_bytes());
        random[4..12].copy_from_slice(&nanos.to_le_bytes()[..8]);
        PipeName::from_random(random)
    }

    fn wide(text: &str) -> Vec<u16> {
        text.encode_utf16().chain(Some(0)).collect()
    }

    /// One server instance of `name` with the descriptor `sddl`, or why it cannot be made.
    fn pipe_with(name: &PipeName, sddl: &str) -> io::Result<Handle> {
        let mut descriptor = null_mut();
        // SAFETY: a NUL-terminated string and an out-parameter freed below.
        let made = unsafe {
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                wide(sddl).as_ptr(),
                SDDL_REVISION_1,
                &mut descriptor,
                null_mut(),
            )
        };
        if made == 0 {
            return Err(io::Error::last_os_error());
        }
        let attributes = SECURITY_ATTRIBUTES {
            nLength: std::mem::size_of::<SECURITY_ATTRIBUTES>() as u32,
            lpSecurityDescriptor: descriptor,
            bInheritHandle: 0,
        };
        // SAFETY: a NUL-terminated name and attributes that outlive the call.
        let pipe = unsafe {
            CreateNamedPipeW(
                wide(name.as_str()).as_ptr(),
                PIPE_ACCESS_DUPLEX,
                PIPE_TYPE_BYTE,
                1,
                4096,
                4096,
                0,
                &attributes,
            )
        };
        let pipe = match pipe == INVALID_HANDLE_VALUE {
            true => Err(io::Error::last_os_error()),
            false => Ok(Handle(pipe)),
        };
        // SAFETY: allocated by the conversion above.
        unsafe { LocalFree(descriptor) };
        pipe
    }

    fn open(name: &PipeName) -> io::Result<fs::File> {
        fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(name.as_str())
    }

    #[test]
    fn a_pipe_we_own_passes_and_one_owned_by_another_is_refused() {
        let sid = current_user_sid().unwrap();
        let ours = fresh(1);
        let _server = pipe_with(&ours, &user_only_sddl(&sid).unwrap()).unwrap();
        check_peer(&open(&ours).unwrap()).unwrap();

        let theirs = fresh(2);
        match pipe_with(&theirs, "O:SYD:P(A;;GA;;;WD)") {
            // Windows: no one may make a pipe owned by another (what the check rests on).
            Err(e) => assert_eq!(e.raw_os_error(), Some(ERROR_INVALID_OWNER as i32), "{e}"),
            // Wine lets it be made: then the client must refuse it.
            Ok(_server) => assert!(matches!(
                check_peer(&open(&theirs).unwrap()),
                Err(PathError::ForeignPipe)
            )),
        }
    }

    #[test]
    fn a_link_in_place_of_the_folder_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let rt = RuntimeDir::at(tmp.path().join("rt"));
        rt.ensure().unwrap();
        rt.verify().unwrap();
        let file = tmp.path().join("f");
        fs::write(&file, "").unwrap();
        assert!(matches!(
            RuntimeDir::at(&file).verify(),
            Err(PathError::NotAFolder { .. })
        ));
    }
}
