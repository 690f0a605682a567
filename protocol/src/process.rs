//! Process ancestry: the MCP server names its parent (the Claude Code session) when a focus
//! loop starts, and the Stop hook finds that session among its own ancestors.

use std::collections::HashMap;

/// This process's parent.
pub fn parent_id() -> u32 {
    #[cfg(unix)]
    return std::os::unix::process::parent_id();
    #[cfg(windows)]
    return snapshot().get(&std::process::id()).copied().unwrap_or(0);
}

/// The ancestors of `pid`, nearest first.
pub fn ancestors(pid: u32) -> Vec<u32> {
    #[cfg(unix)]
    return walk(pid, parent_of);
    #[cfg(windows)]
    return walk_table(pid, &snapshot());
}

/// Follows `parent_of` up from `pid`, stopping at the system's first processes, at a loop (a
/// reused pid can make one) or after 64 steps.
pub fn walk(pid: u32, mut parent_of: impl FnMut(u32) -> Option<u32>) -> Vec<u32> {
    let mut out = Vec::new();
    let mut at = pid;
    while let Some(parent) = parent_of(at) {
        if parent <= 1 || parent == pid || out.contains(&parent) || out.len() >= 64 {
            break;
        }
        out.push(parent);
        at = parent;
    }
    out
}

/// Linux: /proc; other Unix systems: `ps`.
#[cfg(unix)]
fn parent_of(pid: u32) -> Option<u32> {
    if let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        return ppid_from_stat(&stat);
    }
    let out = std::process::Command::new("ps")
        .args(["-o", "ppid=", "-p", &pid.to_string()])
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout).trim().parse().ok()
}

/// The parent pid in `/proc/<pid>/stat` (the command name may hold spaces and parentheses).
pub fn ppid_from_stat(stat: &str) -> Option<u32> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

/// Every process's parent, from one Toolhelp snapshot (empty if it cannot be taken).
#[cfg(windows)]
fn snapshot() -> HashMap<u32, u32> {
    use windows_sys::Win32::Foundation::{CloseHandle, INVALID_HANDLE_VALUE};
    use windows_sys::Win32::System::Diagnostics::ToolHelp::{
        CreateToolhelp32Snapshot, PROCESSENTRY32W, Process32FirstW, Process32NextW,
        TH32CS_SNAPPROCESS,
    };
    let mut parents = HashMap::new();
    // SAFETY: plain call; the handle is closed below.
    let snap = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0) };
    if snap == INVALID_HANDLE_VALUE {
        return parents;
    }
    // SAFETY: PROCESSENTRY32W is plain data; all zeroes is a valid value.
    let mut entry: PROCESSENTRY32W = unsafe { std::mem::zeroed() };
    entry.dwSize = std::mem::size_of::<PROCESSENTRY32W>() as u32;
    // SAFETY: a snapshot handle and an entry whose size is set, as both calls require.
    let mut more = unsafe { Process32FirstW(snap, &mut entry) } != 0;
    while more {
        parents.insert(entry.th32ProcessID, entry.th32ParentProcessID);
        // SAFETY: as above.
        more = unsafe { Process32NextW(snap, &mut entry) } != 0;
    }
    // SAFETY: the snapshot handle opened above.
    unsafe { CloseHandle(snap) };
    parents
}

/// The walk over a table, as Windows gives it.
pub fn walk_table(pid: u32, parents: &HashMap<u32, u32>) -> Vec<u32> {
    walk(pid, |p| parents.get(&p).copied())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_pids_survive_odd_command_names() {
        assert_eq!(ppid_from_stat("42 (a b) c) S 17 42 42 0"), Some(17));
        assert_eq!(ppid_from_stat("garbage"), None);
    }

    #[test]
    fn our_own_ancestry_starts_at_our_parent() {
        let mine = ancestors(std::process::id());
        match parent_id() {
            // Started by the system (or, under Wine, by a Unix process).
            0 | 1 => assert_eq!(mine, Vec::<u32>::new()),
            parent => assert_eq!(mine.first(), Some(&parent)),
        }
        #[cfg(unix)]
        assert_eq!(parent_id(), std::os::unix::process::parent_id());
    }

    #[test]
    fn a_table_with_reused_pids_still_ends() {
        // 50 → 40 → 30 → 40: a parent that died and whose pid came back as a child.
        let table: HashMap<u32, u32> = [(50, 40), (40, 30), (30, 40), (7, 7)].into();
        assert_eq!(walk_table(50, &table), [40, 30]);
        assert_eq!(walk_table(7, &table), Vec::<u32>::new());
        assert_eq!(walk_table(99, &table), Vec::<u32>::new());
        let deep: HashMap<u32, u32> = (2..500).map(|p| (p + 1, p)).collect();
        assert_eq!(walk_table(400, &deep).len(), 64);
    }
}
