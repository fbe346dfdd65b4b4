//! [`Score`]: the alpha-beta search's own score, finer than the value it
//! reports: heuristic values exactly as the evaluator gave them, and proven
//! wins and losses with their distance.

use std::fmt;
use std::ops::Neg;

use game_traits::contain_value;

/// A search score for the player to move: either a heuristic value in
/// `[-1, 1]` (kept bit for bit as the evaluator returned it, after
/// [`contain_value`]) or a proven result: a win or a loss in so many plies
/// from the root, or a draw (which scores like the heuristic value 0).
///
/// Scores compare as the search prefers them: every proven win above every
/// heuristic value, faster wins above slower ones, slower losses above
/// faster ones, every proven loss below every heuristic value. Negation
/// swaps the point of view.
///
/// ```
/// use pimc_alphabeta::Score;
///
/// let win_in_3 = Score::win_in(3);
/// let win_in_5 = Score::win_in(5);
/// assert!(win_in_3 > win_in_5 && win_in_5 > Score::heuristic(0.99));
/// assert!(Score::loss_in(5) > Score::loss_in(3));
/// assert_eq!(-win_in_3, Score::loss_in(3));
/// // The value a report shows: exactly +1 / -1 for proofs.
/// assert_eq!(win_in_5.value(), 1.0);
/// assert_eq!(Score::heuristic(0.25).value(), 0.25);
/// assert_eq!(win_in_3.plies_to_win(), Some(3));
/// ```
///
/// Internally an `i32`: heuristic values map to their IEEE-754 bits with the
/// sign folded (a map that keeps order and commutes with negation), and
/// proven results sit far above and below them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Score(i32);

/// The internal score of a win at the root itself; a win in `n` plies is
/// `WIN - n`.
const WIN: i32 = 0x7000_0000;

/// Plies a proven result can be away; farther ones are clamped.
const MAX_PLIES: u32 = 1 << 20;

/// The largest heuristic score: the bits of `1.0f32`.
const HEURISTIC_MAX: i32 = 0x3f80_0000;

impl Score {
    /// A draw (the same as the heuristic value 0).
    pub const DRAW: Score = Score(0);

    /// Above every score: the open end of a search window.
    pub(crate) const INFINITE: Score = Score(i32::MAX);

    /// A heuristic value: `value` after [`contain_value`] (NaN as 0,
    /// clamped to `[-1, 1]`).
    #[inline]
    pub fn heuristic(value: f32) -> Score {
        let value = contain_value(value);
        if value == 0.0 {
            return Score::DRAW;
        }
        let bits = value.abs().to_bits() as i32;
        Score(if value < 0.0 { -bits } else { bits })
    }

    /// A proven win for the player to move, `plies` plies from the root.
    #[inline]
    pub fn win_in(plies: u32) -> Score {
        Score(WIN - plies.min(MAX_PLIES) as i32)
    }

    /// A proven loss for the player to move, `plies` plies from the root.
    #[inline]
    pub fn loss_in(plies: u32) -> Score {
        -Score::win_in(plies)
    }

    /// The score of a finished position `ply` plies from the root whose
    /// reward for the player to move is `reward` (`1`, `0` or `-1`).
    #[inline]
    pub(crate) fn terminal(reward: f32, ply: u32) -> Score {
        if reward > 0.0 {
            Score::win_in(ply)
        } else if reward < 0.0 {
            Score::loss_in(ply)
        } else {
            Score::DRAW
        }
    }

    /// The value a report shows: `+1` for a proven win, `-1` for a proven
    /// loss, the heuristic value otherwise (0 for a draw).
    #[inline]
    pub fn value(self) -> f32 {
        if self.0 > HEURISTIC_MAX {
            1.0
        } else if self.0 < -HEURISTIC_MAX {
            -1.0
        } else if self.0 < 0 {
            -f32::from_bits((-self.0) as u32)
        } else {
            f32::from_bits(self.0 as u32)
        }
    }

    /// Whether this is a proven win or loss.
    #[inline]
    pub fn is_proven(self) -> bool {
        self.0.abs() > HEURISTIC_MAX
    }

    /// Plies to the proven win, if this is one.
    pub fn plies_to_win(self) -> Option<u32> {
        (self.0 > HEURISTIC_MAX && self.0 <= WIN).then(|| (WIN - self.0) as u32)
    }

    /// Plies to the proven loss, if this is one.
    pub fn plies_to_loss(self) -> Option<u32> {
        (-self).plies_to_win()
    }

    /// The raw internal number.
    #[inline]
    pub(crate) fn raw(self) -> i32 {
        self.0
    }

    /// The score with this raw number.
    #[inline]
    pub(crate) fn from_raw(raw: i32) -> Score {
        Score(raw)
    }

    /// The next score up (the upper end of a null window above `self`).
    #[inline]
    pub(crate) fn next_up(self) -> Score {
        Score(self.0.saturating_add(1))
    }

    /// This score made relative to a node `ply` plies from the root (for
    /// the transposition table, which must not depend on the path).
    #[inline]
    pub(crate) fn root_to_node(self, ply: u32) -> Score {
        self.shift(ply as i32)
    }

    /// A node-relative score made relative to the root again.
    #[inline]
    pub(crate) fn node_to_root(self, ply: u32) -> Score {
        self.shift(-(ply as i32))
    }

    fn shift(self, plies: i32) -> Score {
        if self.0 > HEURISTIC_MAX {
            Score((self.0 + plies).clamp(HEURISTIC_MAX + 1, WIN))
        } else if self.0 < -HEURISTIC_MAX {
            Score((self.0 - plies).clamp(-WIN, -HEURISTIC_MAX - 1))
        } else {
            self
        }
    }

    /// The heuristic value `value` moved by `delta`, for aspiration
    /// windows; proven scores and the ends of the range open the window
    /// fully.
    pub(crate) fn widened(self, delta: f32, up: bool) -> Score {
        if self.is_proven() {
            return if up {
                Score::INFINITE
            } else {
                -Score::INFINITE
            };
        }
        let moved = if up {
            self.value() + delta
        } else {
            self.value() - delta
        };
        if moved >= 1.0 {
            Score::INFINITE
        } else if moved <= -1.0 {
            -Score::INFINITE
        } else {
            Score::heuristic(moved)
        }
    }
}

impl Neg for Score {
    type Output = Score;

    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Debug for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for Score {
    /// `win in 3`, `loss in 4`, or the heuristic value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Score::INFINITE {
            f.write_str("+inf")
        } else if *self == -Score::INFINITE {
            f.write_str("-inf")
        } else if let Some(plies) = self.plies_to_win() {
            write!(f, "win in {plies}")
        } else if let Some(plies) = self.plies_to_loss() {
            write!(f, "loss in {plies}")
        } else {
            write!(f, "{}", self.value())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heuristic_scores_keep_order_sign_and_bits() {
        let values = [-1.0, -0.75, -1e-30, 0.0, 1e-30, 0.1, 0.5, 0.999, 1.0];
        for pair in values.windows(2) {
            assert!(Score::heuristic(pair[0]) < Score::heuristic(pair[1]));
        }
        for value in values {
            let score = Score::heuristic(value);
            assert_eq!(score.value().to_bits(), value.to_bits());
            assert_eq!(-score, Score::heuristic(-value));
            assert!(!score.is_proven());
        }
        assert_eq!(Score::heuristic(-0.0), Score::DRAW);
        assert_eq!(Score::heuristic(f32::NAN), Score::DRAW);
        assert_eq!(Score::heuristic(7.0).value(), 1.0);
        assert!(!Score::heuristic(f32::INFINITY).is_proven());
    }

    #[test]
    fn proven_scores_prefer_fast_wins_and_slow_losses() {
        assert!(Score::win_in(1) > Score::win_in(2));
        assert!(Score::win_in(500) > Score::heuristic(1.0));
        assert!(Score::loss_in(500) < Score::heuristic(-1.0));
        assert!(Score::loss_in(2) > Score::loss_in(1));
        assert_eq!(Score::win_in(4).value(), 1.0);
        assert_eq!(Score::loss_in(4).value(), -1.0);
        assert_eq!(Score::loss_in(4).plies_to_loss(), Some(4));
        assert_eq!(Score::terminal(1.0, 3), Score::win_in(3));
        assert_eq!(Score::terminal(0.0, 3), Score::DRAW);
        assert!(Score::INFINITE > Score::win_in(0));
        assert_eq!(Score::win_in(3).to_string(), "win in 3");
    }

    #[test]
    fn node_relative_scores_round_trip() {
        for score in [Score::win_in(7), Score::loss_in(9), Score::heuristic(0.3)] {
            for ply in [0, 1, 5] {
                assert_eq!(score.root_to_node(ply).node_to_root(ply), score);
            }
        }
        // A win in 7 from the root is a win in 4 from a node 3 plies down.
        assert_eq!(Score::win_in(7).root_to_node(3), Score::win_in(4));
    }

    #[test]
    fn widening_opens_at_the_ends() {
        assert_eq!(Score::heuristic(0.98).widened(0.05, true), Score::INFINITE);
        assert_eq!(
            Score::heuristic(0.5).widened(0.25, false),
            Score::heuristic(0.25)
        );
        assert_eq!(Score::win_in(3).widened(0.05, false), -Score::INFINITE);
    }
}
