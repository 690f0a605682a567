//! The screenshot mutex: one capture at a time (a capture activates its tab, so two at once
//! would photograph the wrong tab), granted in arrival order.
//!
//! Pure state, driven by the background's async wrapper: a caller `request`s a ticket, waits
//! until it is granted (or gives up with [`CaptureLock::cancel`]), and `release`s it on every
//! path out. A waiter that sees the lock held longer than the busy limit gives up with
//! `MUTEX_BUSY`.

use std::collections::VecDeque;

use claudezilla_protocol::{AgentId, ErrorBody, ErrorCode};

pub type Ticket = u64;

#[derive(Debug, Clone, PartialEq)]
pub struct Holder {
    pub ticket: Ticket,
    pub agent: AgentId,
    /// When the lock was granted (ms).
    pub since: u64,
}

#[derive(Debug, Default)]
pub struct CaptureLock {
    holder: Option<Holder>,
    queue: VecDeque<(Ticket, AgentId)>,
    next: Ticket,
}

impl CaptureLock {
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks for the lock: the ticket is granted at once when the lock is free and nobody is
    /// queued, else queued.
    pub fn request(&mut self, agent: &AgentId, now: u64) -> Ticket {
        self.next += 1;
        let ticket = self.next;
        if self.holder.is_none() && self.queue.is_empty() {
            self.holder = Some(Holder {
                ticket,
                agent: agent.clone(),
                since: now,
            });
        } else {
            self.queue.push_back((ticket, agent.clone()));
        }
        ticket
    }

    pub fn is_granted(&self, ticket: Ticket) -> bool {
        self.holder.as_ref().is_some_and(|h| h.ticket == ticket)
    }

    pub fn holder(&self) -> Option<&Holder> {
        self.holder.as_ref()
    }

    pub fn waiting(&self) -> usize {
        self.queue.len()
    }

    /// Gives the lock back (or withdraws a queued ticket); the next in line is granted.
    /// Returns the newly granted ticket, if any. Unknown or stale tickets change nothing.
    pub fn release(&mut self, ticket: Ticket, now: u64) -> Option<Ticket> {
        if !self.is_granted(ticket) {
            self.queue.retain(|(t, _)| *t != ticket);
            return None;
        }
        self.holder = self.queue.pop_front().map(|(ticket, agent)| Holder {
            ticket,
            agent,
            since: now,
        });
        self.holder.as_ref().map(|h| h.ticket)
    }

    /// Same as [`release`](Self::release): for a waiter that gives up.
    pub fn cancel(&mut self, ticket: Ticket, now: u64) -> Option<Ticket> {
        self.release(ticket, now)
    }

    /// How long the current holder has held the lock, if anyone does.
    pub fn held_for(&self, now: u64) -> Option<u64> {
        self.holder.as_ref().map(|h| now.saturating_sub(h.since))
    }

    /// What a waiter holding `ticket` should do now: go ahead, give up because the holder has
    /// hogged the lock past `busy_ms` (MUTEX_BUSY) or because `deadline` passed, or wait —
    /// at most until one of those could change.
    pub fn verdict(&self, ticket: Ticket, now: u64, busy_ms: u64, deadline: u64) -> Verdict {
        if self.is_granted(ticket) {
            return Verdict::Go;
        }
        let Some(holder) = &self.holder else {
            // Only reachable through a stale ticket: a release always grants the next in line.
            return Verdict::Gone;
        };
        let held = now.saturating_sub(holder.since);
        if held >= busy_ms {
            return Verdict::Busy {
                holder: holder.agent.clone(),
                held_ms: held,
            };
        }
        if now >= deadline {
            return Verdict::TimedOut;
        }
        Verdict::Wait {
            ms: (busy_ms - held).min(deadline - now).max(1),
        }
    }
}

/// See [`CaptureLock::verdict`].
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Go,
    Wait {
        ms: u64,
    },
    Busy {
        holder: AgentId,
        held_ms: u64,
    },
    TimedOut,
    /// The ticket is neither held nor queued (it was cancelled).
    Gone,
}

impl Verdict {
    /// How long to wait before asking again, or the error a screenshot ends with.
    pub fn wait_ms(self) -> Result<Option<u64>, ErrorBody> {
        match self {
            Verdict::Go => Ok(None),
            Verdict::Wait { ms } => Ok(Some(ms)),
            Verdict::Busy { holder, held_ms } => Err(ErrorBody::new(
                ErrorCode::MutexBusy,
                format!("another screenshot ({holder}) has held the capture lock for {held_ms} ms"),
            )
            .with_hint("retry in a second or two")),
            Verdict::TimedOut | Verdict::Gone => Err(ErrorBody::new(
                ErrorCode::Timeout,
                "waited too long for the capture lock",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(n: u8) -> AgentId {
        AgentId::new([n; 16], n.into())
    }

    #[test]
    fn granted_in_arrival_order() {
        let mut lock = CaptureLock::new();
        let a = lock.request(&agent(1), 0);
        let b = lock.request(&agent(2), 1);
        let c = lock.request(&agent(3), 2);
        assert!(lock.is_granted(a) && !lock.is_granted(b));
        assert_eq!(lock.waiting(), 2);
        assert_eq!(lock.release(a, 10), Some(b));
        assert_eq!(lock.held_for(15), Some(5));
        assert_eq!(lock.release(b, 20), Some(c));
        assert_eq!(lock.release(c, 30), None);
        assert!(lock.holder().is_none());
    }

    #[test]
    fn a_waiter_that_gives_up_leaves_the_queue() {
        let mut lock = CaptureLock::new();
        let a = lock.request(&agent(1), 0);
        let b = lock.request(&agent(2), 0);
        let c = lock.request(&agent(3), 0);
        assert_eq!(lock.cancel(b, 1), None);
        assert_eq!(lock.release(a, 2), Some(c));
        assert_eq!(lock.release(c, 3), None);
        assert_eq!((lock.holder(), lock.waiting()), (None, 0));
    }

    #[test]
    fn a_waiter_waits_until_the_holder_hogs_the_lock_or_the_deadline() {
        let mut lock = CaptureLock::new();
        let a = lock.request(&agent(1), 100);
        let b = lock.request(&agent(2), 100);
        assert_eq!(lock.verdict(a, 150, 1_000, 5_000), Verdict::Go);
        // Wakes when the holder would count as hogging, or at the deadline if sooner.
        assert_eq!(
            lock.verdict(b, 150, 1_000, 5_000),
            Verdict::Wait { ms: 950 }
        );
        assert_eq!(lock.verdict(b, 150, 1_000, 400), Verdict::Wait { ms: 250 });
        assert_eq!(lock.verdict(b, 400, 1_000, 400), Verdict::TimedOut);
        assert_eq!(
            lock.verdict(b, 1_100, 1_000, 5_000),
            Verdict::Busy {
                holder: agent(1),
                held_ms: 1_000
            }
        );
        lock.cancel(b, 1_100);
        lock.release(a, 1_100);
        assert_eq!(lock.verdict(b, 1_100, 1_000, 5_000), Verdict::Gone);
    }

    #[test]
    fn stale_releases_change_nothing() {
        let mut lock = CaptureLock::new();
        let a = lock.request(&agent(1), 0);
        assert_eq!(lock.release(a, 1), None);
        let b = lock.request(&agent(2), 2);
        assert_eq!(lock.release(a, 3), None);
        assert!(lock.is_granted(b));
    }

    #[test]
    fn a_verdict_is_a_wait_or_the_error_a_screenshot_ends_with() {
        assert_eq!(Verdict::Go.wait_ms().unwrap(), None);
        assert_eq!(Verdict::Wait { ms: 40 }.wait_ms().unwrap(), Some(40));
        let busy = Verdict::Busy {
            holder: agent(2),
            held_ms: 9_000,
        };
        let e = busy.wait_ms().unwrap_err();
        assert_eq!(e.code, ErrorCode::MutexBusy);
        assert!(
            e.message.ends_with("held the capture lock for 9000 ms"),
            "{}",
            e.message
        );
        assert_eq!(
            Verdict::Gone.wait_ms().unwrap_err().code,
            ErrorCode::Timeout
        );
    }
}
