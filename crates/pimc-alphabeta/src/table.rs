//! The transposition table: fixed size, buckets of four entries, bounds
//! (exact, lower, upper), depth-preferred replacement with aging, and no
//! locks: threads share it through atomics, and an entry torn by two
//! threads writing at once is detected and ignored (Hyatt & Mann, *A
//! lockless transposition-table implementation for parallel search*, ICGA
//! Journal 25(1), 2002: the key is stored XORed with the data).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::score::Score;

/// What a stored score says about the true one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Relative to the node (see [`Score::root_to_node`]).
    pub(crate) score: Score,
    /// The index of the best move in the node's `legal_moves` order.
    pub(crate) move_index: Option<u16>,
    /// The depth searched below the node.
    pub(crate) depth: u8,
    pub(crate) bound: Bound,
    /// Whether a leaf below was cut off by the depth (the score is then a
    /// heuristic one; without a cut it is the game's true value).
    pub(crate) cut: bool,
}

/// Bytes per entry.
#[cfg(test)]
pub(crate) const ENTRY_BYTES: usize = 16;

/// Entries per bucket: four entries fill one 64-byte cache line.
const BUCKET: usize = 4;

#[derive(Default)]
struct Slot {
    /// The position's key XOR `data`.
    key: AtomicU64,
    /// The packed entry (see [`pack`]); 0 for an empty slot.
    data: AtomicU64,
}

/// The table. Shared by reference between the threads of one search.
pub(crate) struct Table {
    slots: Vec<Slot>,
    /// Buckets minus one (a power of two minus one).
    mask: usize,
    generation: u8,
}

const GENERATIONS: u8 = 32;

impl Table {
    /// A table of about `entries` entries (rounded down to a power of two,
    /// at least one bucket).
    pub(crate) fn new(entries: usize) -> Table {
        let buckets = (entries / BUCKET).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        Table {
            slots: (0..buckets * BUCKET).map(|_| Slot::default()).collect(),
            mask: buckets - 1,
            generation: 0,
        }
    }

    /// The number of entries.
    pub(crate) fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Starts a new search: older entries age and are replaced first.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) % GENERATIONS;
    }

    /// Empties the table.
    pub(crate) fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot.key.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        self.generation = 0;
    }

    /// The same entries in a table of `entries` entries (for growing a
    /// table between iterations).
    pub(crate) fn resized(&self, entries: usize) -> Table {
        let mut table = Table::new(entries);
        table.generation = self.generation;
        for slot in &self.slots {
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 {
                let key = slot.key.load(Ordering::Relaxed) ^ data;
                table.store_packed(key, data);
            }
        }
        table
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // The high bits pick the bucket; games often vary the low bits
        // least.
        ((key >> 32) as usize ^ key as usize) & self.mask
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let first = self.bucket(key) * BUCKET;
        for slot in &self.slots[first..first + BUCKET] {
            let data = slot.data.load(Ordering::Relaxed);
            if data != 0 && slot.key.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores `entry` for `key`: over the same key if it is there, else over
    /// the entry least worth keeping (empty first, then the shallowest,
    /// counting each search of age as four plies of depth).
    #[inline]
    pub(crate) fn store(&self, key: u64, entry: Entry) {
        self.store_packed(key, pack(entry, self.generation));
    }

    fn store_packed(&self, key: u64, data: u64) {
        let first = self.bucket(key) * BUCKET;
        let bucket = &self.slots[first..first + BUCKET];
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (index, slot) in bucket.iter().enumerate() {
            let old = slot.data.load(Ordering::Relaxed);
            if old == 0 || slot.key.load(Ordering::Relaxed) ^ old == key {
                victim = index;
                break;
            }
            let age = i32::from((self.generation + GENERATIONS - generation_of(old)) % GENERATIONS);
            let worth = i32::from(depth_of(old)) - 4 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = index;
            }
        }
        let slot = &bucket[victim];
        slot.key.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("entries", &self.slots.len())
            .field("generation", &self.generation)
            .finish()
    }
}

// Layout of the packed data: score in bits 0..32, move index + 1 in
// 32..48 (0: none), depth in 48..56, bound in 56..58 (1 upper, 2 lower,
// 3 exact; 0 never occurs), the cut flag in bit 58, the generation in
// 59..64.

fn pack(entry: Entry, generation: u8) -> u64 {
    let bound = match entry.bound {
        Bound::Upper => 1u64,
        Bound::Lower => 2,
        Bound::Exact => 3,
    };
    u64::from(entry.score.raw() as u32)
        | u64::from(entry.move_index.map_or(0, |index| index.saturating_add(1))) << 32
        | u64::from(entry.depth) << 48
        | bound << 56
        | u64::from(entry.cut) << 58
        | u64::from(generation) << 59
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let move_index = ((data >> 32) & 0xffff) as u16;
    Some(Entry {
        score: Score::from_raw(data as u32 as i32),
        move_index: move_index.checked_sub(1),
        depth: depth_of(data),
        bound,
        cut: (data >> 58) & 1 == 1,
    })
}

fn depth_of(data: u64) -> u8 {
    (data >> 48) as u8
}

fn generation_of(data: u64) -> u8 {
    (data >> 59) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(depth: u8, score: Score) -> Entry {
        Entry {
            score,
            move_index: Some(3),
            depth,
            bound: Bound::Lower,
            cut: true,
        }
    }

    #[test]
    fn entries_take_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Slot>(), ENTRY_BYTES);
    }

    #[test]
    fn entries_round_trip() {
        let table = Table::new(64);
        assert_eq!(table.capacity(), 64);
        for score in [Score::win_in(3), Score::loss_in(10), Score::heuristic(-0.4)] {
            let stored = Entry {
                score,
                move_index: None,
                depth: 200,
                bound: Bound::Exact,
                cut: false,
            };
            table.store(42, stored);
            assert_eq!(table.probe(42), Some(stored));
        }
        assert_eq!(table.probe(43), None);
        // Key 0 with an empty table is not a hit.
        assert_eq!(Table::new(8).probe(0), None);
    }

    #[test]
    fn replacement_prefers_deep_and_recent_entries() {
        let mut table = Table::new(4);
        // One bucket: four keys fill it; a fifth replaces the shallowest.
        for (key, depth) in [(1, 5), (2, 1), (3, 7), (4, 6)] {
            table.store(key, entry(depth, Score::DRAW));
        }
        table.store(5, entry(3, Score::DRAW));
        assert_eq!(table.probe(2), None);
        assert!(table.probe(5).is_some());
        // Entries of old searches go before deeper entries of this one.
        for _ in 0..2 {
            table.new_search();
        }
        table.store(6, entry(4, Score::DRAW));
        assert!(table.probe(6).is_some());
        assert_eq!(table.probe(5), None, "shallowest after aging");
        let grown = table.resized(64);
        assert_eq!(grown.capacity(), 64);
        for key in [1, 3, 4, 6] {
            assert_eq!(grown.probe(key), table.probe(key));
        }
        table.clear();
        assert_eq!(table.probe(1), None);
    }
}
