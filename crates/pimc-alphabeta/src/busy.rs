//! The positions some thread is searching right now, so that the other
//! threads try other moves first and come back to these later (simplified
//! ABDADA: J.-C. Weill, *The ABDADA Distributed Minimax Search Algorithm*,
//! 1996, as simplified by T. Kerrigan).
//!
//! A slot holds a position's key while one thread searches it. Collisions
//! only reorder moves: a position wrongly seen as busy is searched later,
//! one wrongly seen as free is searched twice at once, as without the
//! table. Neither changes a value.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots of the table (a power of two): far more than the nodes deep
/// enough to be marked that all threads search at once.
const SLOTS: usize = 1 << 14;

/// The positions being searched by some thread.
pub(crate) struct Busy {
    slots: Vec<AtomicU64>,
}

impl Busy {
    /// An empty table.
    pub(crate) fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[((key >> 32) as usize ^ key as usize) & (SLOTS - 1)]
    }

    /// Marks `key` as being searched; `true` if this call marked it (and
    /// must [`leave`](Busy::leave) it), `false` if the slot was taken.
    #[inline]
    pub(crate) fn enter(&self, key: u64) -> bool {
        key != 0
            && self
                .slot(key)
                .compare_exchange(0, key, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Unmarks `key`, which this thread's [`enter`](Busy::enter) marked.
    #[inline]
    pub(crate) fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether some thread is searching `key`.
    #[inline]
    pub(crate) fn contains(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Ordering::Relaxed) == key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_busy_between_enter_and_leave() {
        let busy = Busy::new();
        let key = 0x1234_5678_9abc_def0;
        assert!(!busy.contains(key));
        assert!(busy.enter(key));
        assert!(busy.contains(key));
        // A second thread entering the same position does not own it.
        assert!(!busy.enter(key));
        busy.leave(key);
        assert!(!busy.contains(key));
        // Key 0 (an empty slot) is never marked.
        assert!(!busy.enter(0));
        assert!(!busy.contains(0));
    }

    #[test]
    fn leaving_a_key_keeps_another_in_the_same_slot() {
        let busy = Busy::new();
        let first = 5u64;
        let second = first + SLOTS as u64; // same slot, other key
        assert!(busy.enter(first));
        assert!(!busy.enter(second));
        assert!(!busy.contains(second));
        busy.leave(second);
        assert!(busy.contains(first));
    }
}
