//! Renju's forbidden moves for Black: overline, double four, double three,
//! with the recursive definition of a three.

use std::fmt;

use crate::shape::{EXACT_5, Shape};
use crate::{Gomoku, Move, Rule};

/// Why a Black move is forbidden under renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Forbidden {
    /// Six or more Black stones in a row.
    Overline,
    /// Two or more fours at once (on one line or on several).
    DoubleFour,
    /// Two or more threes at once, each able to become a straight four by
    /// a move that is not itself forbidden.
    DoubleThree,
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double four",
            Forbidden::DoubleThree => "double three",
        })
    }
}

impl Gomoku {
    /// Whether a Black stone on `mv` would be a forbidden move: always
    /// false except under [`Rule::Renju`] on an empty cell. See
    /// [`forbidden`](Gomoku::forbidden).
    #[must_use]
    pub fn is_forbidden(&self, mv: Move) -> bool {
        self.forbidden(mv).is_some()
    }

    /// Why a Black stone on `mv` would be forbidden under renju, if it
    /// would be (whoever is to move; `None` under the other rules and for
    /// occupied cells).
    ///
    /// Following the International Rules of Renju (RIF 1996, sections 3
    /// and 9): a move that makes a five (exactly five Black stones in a
    /// row) is never forbidden, even if it also makes an overline or
    /// several fours or threes elsewhere. Otherwise it is forbidden if it
    /// makes an overline; or two fours (two fours on one line, as in
    /// `X.XXX.X` around the middle stone, count as two); or two threes,
    /// where a three counts only if one of the moves that turn it into a
    /// straight four is itself not forbidden (checked recursively on the
    /// board with the stone placed). A four and a three at once is
    /// allowed.
    #[must_use]
    pub fn forbidden(&self, mv: Move) -> Option<Forbidden> {
        if self.rule() != Rule::Renju || mv.is_pass() || !mv.is_on_board(self.size()) {
            return None;
        }
        let index = mv.index(self.size());
        if self.occupied(index) {
            return None;
        }
        self.forbidden_at(index)
    }

    /// [`forbidden`](Gomoku::forbidden) for an empty cell by index, under
    /// renju.
    pub(crate) fn forbidden_at(&self, index: usize) -> Option<Forbidden> {
        debug_assert!(self.rule() == Rule::Renju && !self.occupied(index));
        let nibbles = self.nibbles(0, index);
        let summary = self.summary(0, index);
        if summary.five {
            return None;
        }
        if (0..4).any(|dir| (nibbles >> (4 * dir)) & 0xF == Shape::Overline as u32) {
            return Some(Forbidden::Overline);
        }
        if summary.fours >= 2 {
            return Some(Forbidden::DoubleFour);
        }
        if summary.threes < 2 {
            return None;
        }
        // Two or more threes by shape: count those that can really become
        // a straight four.
        let mut placed = self.clone();
        placed.place(0, index);
        let mut real = 0;
        for dir in 0..4 {
            let code = (nibbles >> (4 * dir)) & 0xF;
            if !Shape::from_code(code as u8).is_open_three() {
                continue;
            }
            if self.real_three(&placed, index, dir) {
                real += 1;
                if real >= 2 {
                    return Some(Forbidden::DoubleThree);
                }
            }
        }
        None
    }

    /// Whether the three Black makes at `index` on direction `dir` can
    /// become a straight four by a move that is not forbidden in `placed`
    /// (this position with the stone on `index`).
    fn real_three(&self, placed: &Gomoku, index: usize, dir: usize) -> bool {
        let (window, position, len) = self.window(0, index, dir);
        let size = self.size();
        let (dx, dy) = crate::shape::Direction::ALL[dir].step();
        let half = 5usize;
        let mut power = 1usize;
        for digit in 0..2 * half {
            let offset = if digit < half {
                digit as isize - half as isize
            } else {
                digit as isize - half as isize + 1
            };
            let this_power = power;
            power *= 3;
            // Only empty neighbours (digit 0) on the board can be played.
            if !(window / this_power).is_multiple_of(3) {
                continue;
            }
            let along = position as isize + offset;
            if along < 0 || along >= len as isize {
                continue;
            }
            if EXACT_5[window + this_power] != Shape::OpenFour as u8 {
                continue;
            }
            let x = (index % size) as isize + offset * dx as isize;
            let y = (index / size) as isize + offset * dy as isize;
            let straight_four_point = y as usize * size + x as usize;
            if placed.forbidden_at(straight_four_point).is_none() {
                return true;
            }
        }
        false
    }
}
