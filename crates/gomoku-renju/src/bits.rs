//! Sets of cells as bitsets over the dense cell index `y * size + x`.

use std::fmt;

use crate::{MAX_CELLS, Move};

/// Words of a bitset over the largest board.
pub(crate) const WORDS: usize = MAX_CELLS.div_ceil(64);

/// A set of cells by dense index. Bits beyond the board are always clear.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bits(pub(crate) [u64; WORDS]);

impl Bits {
    #[inline]
    pub(crate) const fn new() -> Bits {
        Bits([0; WORDS])
    }

    /// The first `cells` indices.
    pub(crate) fn first(cells: usize) -> Bits {
        let mut bits = Bits::new();
        for (word, chunk) in bits.0.iter_mut().enumerate() {
            let start = word * 64;
            if cells >= start + 64 {
                *chunk = u64::MAX;
            } else if cells > start {
                *chunk = (1u64 << (cells - start)) - 1;
            }
        }
        bits
    }

    #[inline]
    pub(crate) fn insert(&mut self, index: usize) {
        self.0[index / 64] |= 1 << (index % 64);
    }

    #[inline]
    pub(crate) fn remove(&mut self, index: usize) {
        self.0[index / 64] &= !(1 << (index % 64));
    }

    #[inline]
    pub(crate) fn set(&mut self, index: usize, value: bool) {
        if value {
            self.insert(index);
        } else {
            self.remove(index);
        }
    }

    #[inline]
    pub(crate) const fn contains(&self, index: usize) -> bool {
        self.0[index / 64] & (1 << (index % 64)) != 0
    }

    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.0.iter().map(|word| word.count_ones() as usize).sum()
    }

    /// Sets the `count` bits from `start` (they may cross a word).
    #[inline]
    pub(crate) fn insert_range(&mut self, start: usize, count: usize) {
        let mask = (1u128 << count) - 1;
        let word = start / 64;
        let shifted = mask << (start % 64);
        self.0[word] |= shifted as u64;
        if word + 1 < WORDS {
            self.0[word + 1] |= (shifted >> 64) as u64;
        }
    }

    #[inline]
    pub(crate) fn and(&self, other: &Bits) -> Bits {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(&other.0) {
            *a &= b;
        }
        out
    }

    #[inline]
    pub(crate) fn or(&self, other: &Bits) -> Bits {
        let mut out = *self;
        for (a, b) in out.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
        out
    }

    /// The index of the `n`-th set bit (from 0), if there are that many.
    #[inline]
    pub(crate) fn nth(&self, mut n: usize) -> Option<usize> {
        for (word_index, &word) in self.0.iter().enumerate() {
            let count = word.count_ones() as usize;
            if n < count {
                let mut word = word;
                for _ in 0..n {
                    word &= word - 1;
                }
                return Some(word_index * 64 + word.trailing_zeros() as usize);
            }
            n -= count;
        }
        None
    }

    /// The lowest set index.
    #[inline]
    pub(crate) fn first_index(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, word)| **word != 0)
            .map(|(index, word)| index * 64 + word.trailing_zeros() as usize)
    }

    #[inline]
    pub(crate) fn iter(&self) -> BitsIter {
        BitsIter {
            words: self.0,
            word: 0,
        }
    }
}

/// The set indices of a [`Bits`], in increasing order.
#[derive(Clone, Debug)]
pub(crate) struct BitsIter {
    words: [u64; WORDS],
    word: usize,
}

impl Iterator for BitsIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < WORDS {
            let bits = &mut self.words[self.word];
            if *bits != 0 {
                let index = self.word * 64 + bits.trailing_zeros() as usize;
                *bits &= *bits - 1;
                return Some(index);
            }
            self.word += 1;
        }
        None
    }
}

/// A set of cells of one board, such as the cells where a player can make
/// a four ([`Gomoku::threat_moves`](crate::Gomoku::threat_moves)).
///
/// Iterates over its cells as [`Move`]s, bottom row first, left to right.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveSet {
    bits: Bits,
    size: u8,
}

impl MoveSet {
    #[inline]
    pub(crate) fn new(bits: Bits, size: usize) -> MoveSet {
        MoveSet {
            bits,
            size: size as u8,
        }
    }

    /// The empty set for a `size` x `size` board.
    #[must_use]
    pub fn empty(size: usize) -> MoveSet {
        MoveSet::new(Bits::new(), size)
    }

    /// The number of cells.
    #[must_use]
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// Whether `mv` is a cell of the set.
    #[must_use]
    pub fn contains(&self, mv: Move) -> bool {
        mv.is_on_board(self.size as usize) && self.bits.contains(mv.index(self.size as usize))
    }

    /// The cells, bottom row first, left to right.
    #[must_use]
    pub fn iter(&self) -> MoveSetIter {
        MoveSetIter {
            inner: self.bits.iter(),
            size: self.size as usize,
        }
    }

    /// The cells in both sets.
    #[must_use]
    pub fn intersection(&self, other: &MoveSet) -> MoveSet {
        MoveSet::new(self.bits.and(&other.bits), self.size as usize)
    }

    /// The cells in either set.
    #[must_use]
    pub fn union(&self, other: &MoveSet) -> MoveSet {
        MoveSet::new(self.bits.or(&other.bits), self.size as usize)
    }
}

impl fmt::Debug for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl IntoIterator for &MoveSet {
    type Item = Move;
    type IntoIter = MoveSetIter;
    fn into_iter(self) -> MoveSetIter {
        self.iter()
    }
}

/// The cells of a [`MoveSet`], bottom row first, left to right.
#[derive(Clone, Debug)]
pub struct MoveSetIter {
    inner: BitsIter,
    size: usize,
}

impl Iterator for MoveSetIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        self.inner
            .next()
            .map(|index| Move::from_index(index, self.size))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_cross_words_and_nth_finds_bits() {
        let mut bits = Bits::new();
        bits.insert_range(62, 5);
        assert_eq!(bits.iter().collect::<Vec<_>>(), vec![62, 63, 64, 65, 66]);
        assert_eq!(bits.nth(0), Some(62));
        assert_eq!(bits.nth(4), Some(66));
        assert_eq!(bits.nth(5), None);
        assert_eq!(bits.len(), 5);
        bits.remove(64);
        assert!(!bits.contains(64));
        assert_eq!(bits.first_index(), Some(62));
        assert_eq!(Bits::first(225).len(), 225);
        assert_eq!(Bits::first(MAX_CELLS).len(), MAX_CELLS);
        let mut last = Bits::new();
        last.insert_range(MAX_CELLS - 3, 3);
        assert_eq!(last.len(), 3);
    }
}
