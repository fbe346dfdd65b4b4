//! The repetition history: the hashes of the positions since the last
//! removal, each with its occurrence count, and a small filter that lets
//! most plies skip the search for an earlier occurrence.

/// Hashes of the positions since the last removal, the current one last.
///
/// `counts[i]` is how often `hashes[i]` has occurred up to entry `i` (same
/// side to move, so every second entry), capped at 3: a new entry looks
/// back only to the latest earlier occurrence. The 256-bit filter has the
/// bit numbered by the top 8 bits of every stored hash set; a clear bit
/// means no earlier occurrence, and no search at all.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct History {
    hashes: Vec<u64>,
    counts: Vec<u8>,
    filter: [u64; 4],
}

impl Clone for History {
    fn clone(&self) -> History {
        History {
            hashes: self.hashes.clone(),
            counts: self.counts.clone(),
            filter: self.filter,
        }
    }

    /// Keeps this history's buffers (and their spare room).
    fn clone_from(&mut self, source: &History) {
        self.hashes.clone_from(&source.hashes);
        self.counts.clone_from(&source.counts);
        self.filter = source.filter;
    }
}

/// The filter word and bit of a hash: its top 8 bits pick one of 256.
#[inline]
const fn filter_bit(hash: u64) -> (usize, u64) {
    ((hash >> 62) as usize, 1 << ((hash >> 56) & 63))
}

impl History {
    pub(crate) fn from_hashes(hashes: Vec<u64>) -> History {
        let mut history = History {
            hashes: Vec::with_capacity(hashes.len()),
            counts: Vec::with_capacity(hashes.len()),
            filter: [0; 4],
        };
        for hash in hashes {
            history.push(hash);
        }
        history
    }

    pub(crate) fn hashes(&self) -> &[u64] {
        &self.hashes
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.hashes.clear();
        self.counts.clear();
        self.filter = [0; 4];
    }

    /// Appends a position's hash; returns how often it now occurs with the
    /// same side to move, up to 3.
    #[inline]
    pub(crate) fn push(&mut self, hash: u64) -> usize {
        let (word, bit) = filter_bit(hash);
        let mut count = 1;
        if self.filter[word] & bit != 0 {
            // The latest earlier occurrence with the same side to move.
            let mut index = self.hashes.len();
            while index >= 2 {
                index -= 2;
                if self.hashes[index] == hash {
                    count = (self.counts[index] + 1).min(3);
                    break;
                }
            }
        }
        self.filter[word] |= bit;
        if self.hashes.len() == self.hashes.capacity() {
            // A clone has no spare room; grow once to a typical game's
            // needs (the no-capture limit) instead of doubling from 1.
            let room = self.hashes.len().max(127);
            self.hashes.reserve(room);
            self.counts.reserve(room);
        }
        self.hashes.push(hash);
        self.counts.push(count);
        usize::from(count)
    }

    /// How often the last position occurs (same side to move), up to 3.
    pub(crate) fn occurrences(&self) -> usize {
        self.counts.last().map_or(0, |&count| usize::from(count))
    }

    /// The history with every hash mapped (for the color flip).
    pub(crate) fn map(&self, map: impl Fn(u64) -> u64) -> History {
        History::from_hashes(self.hashes.iter().map(|&hash| map(hash)).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_occurrences_with_the_same_side_to_move() {
        let mut history = History::default();
        let cycle = [1u64 << 63, 2, 3 << 62, 4];
        let mut counts = Vec::new();
        for _ in 0..4 {
            for hash in cycle {
                counts.push(history.push(hash));
            }
        }
        assert_eq!(counts, [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3]);
        // The same hash an odd number of plies apart does not count.
        let mut odd = History::default();
        let counts: Vec<usize> = [5, 6, 6, 5, 5]
            .into_iter()
            .map(|hash| odd.push(hash))
            .collect();
        assert_eq!(counts, [1, 1, 1, 1, 2]);
        assert_eq!(History::from_hashes(odd.hashes().to_vec()), odd);
        assert_eq!(odd.occurrences(), 2);
    }
}
