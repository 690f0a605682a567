//! The runtime folder and the pipe's peers on Windows. The folder under `%LOCALAPPDATA%`
//! inherits the profile's access list (the user, SYSTEM and administrators), so what is checked
//! here is that it is a real folder, not a link elsewhere; a pipe's other end is checked to run
//! as this user, by its process's token.

use std::fs;
use std::io;
use std::os::windows::io::AsRawHandle;
use std::path::Path;
use std::ptr::null_mut;

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, LocalFree};
use windows_sys::Win32::Security::Authorization::ConvertSidToStringSidW;
use windows_sys::Win32::Security::{
    GetLengthSid, GetTokenInformation, PSID, TOKEN_QUERY, TOKEN_USER, TokenUser,
};
use windows_sys::Win32::System::Pipes::{GetNamedPipeClientProcessId, GetNamedPipeServerProcessId};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, OpenProcess, OpenProcessToken, PROCESS_QUERY_LIMITED_INFORMATION,
};

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
        return Err(PathError::NotPrivate {
            path: dir.to_owned(),
            mode: 0,
        });
    }
    Ok(())
}

/// Files take the folder's access list.
pub(super) fn owner_only(_options: &mut fs::OpenOptions) {}

/// For clients: the pipe's server process runs as this user.
pub fn check_peer(pipe: &impl AsRawHandle) -> Result<(), PathError> {
    let mut pid = 0;
    // SAFETY: a pipe handle we hold, and an out-parameter.
    let known = unsafe { GetNamedPipeServerProcessId(pipe.as_raw_handle(), &mut pid) } != 0;
    check_process(known, pid)
}

/// For the host: the pipe's client process runs as this user (the pipe's access list already
/// admits no one else; this holds if it was loosened).
pub fn check_pipe_client(pipe: &impl AsRawHandle) -> Result<(), PathError> {
    let mut pid = 0;
    // SAFETY: a pipe handle we hold, and an out-parameter.
    let known = unsafe { GetNamedPipeClientProcessId(pipe.as_raw_handle(), &mut pid) } != 0;
    check_process(known, pid)
}

fn check_process(known: bool, pid: u32) -> Result<(), PathError> {
    match known && process_is_ours(pid).unwrap_or(false) {
        true => Ok(()),
        false => Err(PathError::ForeignProcess { pid }),
    }
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

fn process_is_ours(pid: u32) -> io::Result<bool> {
    // SAFETY: as above.
    let ours = with_user_sid(unsafe { GetCurrentProcess() }, sid_bytes)?;
    // SAFETY: plain call; a null handle is an error.
    let process = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
    if process.is_null() {
        return Err(io::Error::last_os_error());
    }
    let process = Handle(process);
    Ok(with_user_sid(process.0, sid_bytes)? == ours)
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
