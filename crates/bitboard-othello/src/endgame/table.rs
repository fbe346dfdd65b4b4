//! The transposition table of the endgame solver, shared by its threads.
//!
//! An entry is three 64-bit words: the player's discs and the opponent's
//! discs, each XORed with the data word, and the data word itself (score
//! bounds, best move, empty count). Words are read and written with relaxed
//! atomics (plain loads and stores on x86-64), so threads share the table
//! without locks; a reader accepts an entry only if both keys match once
//! the data word is XORed back out. An entry torn by two concurrent writes
//! therefore reads as a miss, except for a coincidence of 64-bit words
//! that no test has ever produced. Positions are stored whole, so a hit is
//! never a different position.

use std::sync::atomic::{AtomicU64, Ordering};

use game_traits::zobrist::mix64;

use crate::ConfigError;

/// "No move" in the table.
pub(crate) const NO_MOVE: u8 = 64;

/// Words per entry.
const WORDS: usize = 3;

/// What an entry says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The score is at least this.
    pub(crate) lower: i8,
    /// The score is at most this.
    pub(crate) upper: i8,
    /// The best move found, or [`NO_MOVE`].
    pub(crate) best: u8,
    /// Empty squares of the position.
    pub(crate) empties: u8,
}

impl Entry {
    /// The data word; bit 63 marks a used entry, so it is never 0.
    fn pack(self) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best) << 16
            | u64::from(self.empties) << 24
            | 1 << 63
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            lower: data as u8 as i8,
            upper: (data >> 8) as u8 as i8,
            best: (data >> 16) as u8,
            empties: (data >> 24) as u8,
        }
    }
}

/// Buckets of two entries: the first keeps the deeper position, the second
/// takes whatever comes.
#[derive(Debug)]
pub(crate) struct Table {
    words: Vec<AtomicU64>,
    /// Mask of the first entry index of a bucket.
    mask: usize,
    /// Whether [`Table::prefetch`] asks for the bucket ahead of a probe
    /// (switched off only to measure what it brings).
    pub(crate) prefetch: bool,
}

impl Clone for Table {
    fn clone(&self) -> Table {
        Table {
            words: self
                .words
                .iter()
                .map(|word| AtomicU64::new(word.load(Ordering::Relaxed)))
                .collect(),
            mask: self.mask,
            prefetch: self.prefetch,
        }
    }
}

impl Table {
    /// A table of `2^bits` entries.
    pub(crate) fn new(bits: u32) -> Result<Table, ConfigError> {
        let entries = 1usize << bits;
        let size = entries * WORDS;
        let mut words = Vec::new();
        words
            .try_reserve_exact(size)
            .map_err(|_| ConfigError::OutOfMemory {
                what: "transposition table",
                bytes: size.saturating_mul(size_of::<AtomicU64>()),
            })?;
        words.resize_with(size, || AtomicU64::new(0));
        Ok(Table {
            words,
            mask: (entries - 1) & !1,
            prefetch: true,
        })
    }

    pub(crate) fn clear(&mut self) {
        for word in &mut self.words {
            *word.get_mut() = 0;
        }
    }

    /// The index of the first entry of the position's bucket.
    #[inline(always)]
    fn bucket(&self, player: u64, opponent: u64) -> usize {
        (mix64(player ^ mix64(opponent)) as usize) & self.mask
    }

    /// The data word of entry `index` if it holds the position.
    #[inline(always)]
    fn read(&self, index: usize, player: u64, opponent: u64) -> Option<u64> {
        let words = &self.words[index * WORDS..index * WORDS + WORDS];
        let data = words[2].load(Ordering::Relaxed);
        let matches = data != 0
            && words[0].load(Ordering::Relaxed) ^ data == player
            && words[1].load(Ordering::Relaxed) ^ data == opponent;
        matches.then_some(data)
    }

    #[inline(always)]
    fn write(&self, index: usize, player: u64, opponent: u64, data: u64) {
        let words = &self.words[index * WORDS..index * WORDS + WORDS];
        words[2].store(data, Ordering::Relaxed);
        words[0].store(player ^ data, Ordering::Relaxed);
        words[1].store(opponent ^ data, Ordering::Relaxed);
    }

    /// Starts loading the position's bucket into the cache, so that a
    /// probe of it a little later does not wait for memory. The
    /// enhanced transposition cutoffs probe every child of a node one
    /// after the other, nearly all of them cache misses; fetching them
    /// while the moves are still being ordered makes FFO #40-#44 about 6%
    /// faster (`cargo bench -p bitboard-othello --bench endgame --
    /// prefetch`: 9.00 s on, 9.58 s off).
    #[inline(always)]
    pub(crate) fn prefetch(&self, player: u64, opponent: u64) {
        if self.prefetch {
            // A bucket of 48 bytes lies on one or two cache lines.
            let first = self.bucket(player, opponent) * WORDS;
            fetch_line(&self.words[first]);
            fetch_line(&self.words[first + 2 * WORDS - 1]);
        }
    }

    #[inline(always)]
    pub(crate) fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let bucket = self.bucket(player, opponent);
        self.read(bucket, player, opponent)
            .or_else(|| self.read(bucket + 1, player, opponent))
            .map(Entry::unpack)
    }

    /// Records a fail-soft result `score` of a search of window
    /// `(alpha, beta)`, merged with what is known already.
    pub(crate) fn store(
        &self,
        player: u64,
        opponent: u64,
        score: i32,
        alpha: i32,
        beta: i32,
        best: u8,
    ) {
        let bucket = self.bucket(player, opponent);
        let empties = (!(player | opponent)).count_ones() as u8;
        let (mut lower, mut upper) = (-64i8, 64i8);
        if score > alpha {
            lower = score as i8;
        }
        if score < beta {
            upper = score as i8;
        }
        let mut best = best;
        let found = [bucket, bucket + 1]
            .into_iter()
            .find_map(|index| Some((index, self.read(index, player, opponent)?)));
        let index = if let Some((index, data)) = found {
            let known = Entry::unpack(data);
            lower = lower.max(known.lower);
            upper = upper.min(known.upper);
            if best == NO_MOVE {
                best = known.best;
            }
            index
        } else {
            let first = self.words[bucket * WORDS + 2].load(Ordering::Relaxed);
            if first == 0 || Entry::unpack(first).empties <= empties {
                // The deeper position keeps the first slot; the one it
                // displaces moves to the second.
                if first != 0 {
                    let player_word = self.words[bucket * WORDS].load(Ordering::Relaxed);
                    let opponent_word = self.words[bucket * WORDS + 1].load(Ordering::Relaxed);
                    self.write(
                        bucket + 1,
                        player_word ^ first,
                        opponent_word ^ first,
                        first,
                    );
                }
                bucket
            } else {
                bucket + 1
            }
        };
        let entry = Entry {
            lower,
            upper,
            best,
            empties,
        };
        self.write(index, player, opponent, entry.pack());
    }
}

/// Asks the processor to load the cache line holding `word`.
#[inline(always)]
fn fetch_line(word: &AtomicU64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which is part of the x86-64
    // baseline, so every processor this code runs on has it; a prefetch
    // never faults and changes no memory, whatever the address (this one
    // is a word of the table). Stable Rust has no safe prefetch.
    #[allow(unsafe_code)]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            word.as_ptr().cast_const().cast(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_merge() {
        let table = Table::new(4).unwrap();
        assert_eq!(table.probe(1, 2), None);
        table.store(1, 2, 10, -64, 64, 5);
        assert_eq!(
            table.probe(1, 2),
            Some(Entry {
                lower: 10,
                upper: 10,
                best: 5,
                empties: 62
            })
        );
        assert_eq!(table.probe(2, 1), None);
        // Bounds from searches of different windows merge; a result without
        // a move keeps the stored one.
        table.store(3, 4, 20, 30, 40, NO_MOVE);
        table.store(3, 4, 8, 0, 6, 9);
        table.store(3, 4, 12, 12, 14, NO_MOVE);
        let entry = table.probe(3, 4).unwrap();
        assert_eq!((entry.lower, entry.upper, entry.best), (8, 12, 9));
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let table = Table::new(4).unwrap();
        table.store(1, 2, 10, -64, 64, 5);
        let bucket = table.bucket(1, 2);
        // Half of another write: the data word of a different entry.
        let other = Entry {
            lower: -2,
            upper: 4,
            best: 1,
            empties: 62,
        }
        .pack();
        table.words[bucket * WORDS + 2].store(other, Ordering::Relaxed);
        assert_eq!(table.probe(1, 2), None);
    }
}
