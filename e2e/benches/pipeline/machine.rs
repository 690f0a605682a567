//! What the machine is and does while measuring: CPU, load, memory and idle CPU of processes.

use super::*;

pub(crate) fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// utime + stime of a process, in clock ticks.
pub(crate) fn cpu_ticks(pid: i32) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 2..]) else {
        return 0;
    };
    let fields: Vec<&str> = rest.split(' ').collect();
    fields
        .get(11)
        .and_then(|u| u.parse::<u64>().ok())
        .unwrap_or(0)
        + fields
            .get(12)
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(0)
}

/// Firefox's whole process group's CPU use over 10 s of quiet, in % of one core.
pub(crate) async fn idle_cpu(browser: &Browser) -> f64 {
    tokio::time::sleep(Duration::from_secs(2)).await;
    let group: Vec<i32> = browser.group_processes().iter().map(|(p, _)| *p).collect();
    let before: u64 = group.iter().map(|p| cpu_ticks(*p)).sum();
    let window = Duration::from_secs(10);
    tokio::time::sleep(window).await;
    let after: u64 = group.iter().map(|p| cpu_ticks(*p)).sum();
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (after - before) as f64 / hz / window.as_secs_f64() * 100.0
}

/// What the machine was and did while the benchmark ran: its processor, the load average,
/// and the time the hypervisor gave to others (steal), which moves every figure on a shared VM.
pub(crate) struct Machine {
    load: String,
    /// The first line of /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal.
    cpu: Vec<u64>,
}

impl Machine {
    pub(crate) fn now() -> Self {
        let load = std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ");
        let cpu = std::fs::read_to_string("/proc/stat")
            .unwrap_or_default()
            .lines()
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .skip(1)
            .take(8)
            .filter_map(|v| v.parse().ok())
            .collect();
        Self { load, cpu }
    }

    pub(crate) fn describe(&self, after: &Machine) -> String {
        let model = std::fs::read_to_string("/proc/cpuinfo")
            .unwrap_or_default()
            .lines()
            .find_map(|l| l.strip_prefix("model name")?.split(':').nth(1))
            .unwrap_or("unknown processor")
            .trim()
            .to_owned();
        let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
        let delta: Vec<u64> = after
            .cpu
            .iter()
            .zip(&self.cpu)
            .map(|(a, b)| a.saturating_sub(*b))
            .collect();
        let total: u64 = delta.iter().sum();
        let share =
            |k: usize| delta.get(k).copied().unwrap_or(0) as f64 * 100.0 / total.max(1) as f64;
        format!(
            "Machine: {model}, {cores} cores. Load average (1/5/15 min) {} before, {} after. \
             While it ran: CPU busy {:.0} %, stolen by the hypervisor {:.1} %.",
            self.load,
            after.load,
            100.0 - share(3) - share(4),
            share(7),
        )
    }
}
