//! Heuristic evaluators: positional weights, mobility, corners; a policy
//! evaluator giving move logits.
//!
//! Every value is in `[-1, 1]` for the player to move. Finished games
//! score exactly: the final disc difference (empties to the winner) divided
//! by 64, which has the outcome's sign.

use game_traits::{Evaluator, PolicyEvaluator};

use crate::config::check_finite;
use crate::movegen::{flips, mobility};
use crate::{Board, ConfigError, Move};

/// The classic positional weight of each square (index `8 * row + col`):
/// corners are worth most, the squares next to them (C-squares, and most of
/// all the diagonal X-squares) give corners away. The table is symmetric
/// under all eight board symmetries.
pub const SQUARE_WEIGHTS: [i32; 64] = [
    100, -20, 10, 5, 5, 10, -20, 100, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    5, -2, -1, -1, -1, -1, -2, 5, //
    10, -2, -1, -1, -1, -1, -2, 10, //
    -20, -50, -2, -2, -2, -2, -50, -20, //
    100, -20, 10, 5, 5, 10, -20, 100, //
];

/// The four corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The X-squares `b2`, `g2`, `b7`, `g7`, diagonally next to the corners.
pub const X_SQUARES: u64 = 0x0042_0000_0000_4200;

/// The distinct weights of [`SQUARE_WEIGHTS`] with the squares that carry
/// each, so a weighted sum is a few popcounts instead of a loop over
/// squares.
const WEIGHT_CLASSES: [(i32, u64); 7] = weight_classes();

const fn weight_classes() -> [(i32, u64); 7] {
    let values = [100, -20, 10, 5, -50, -2, -1];
    let mut classes = [(0, 0u64); 7];
    let mut class = 0;
    while class < 7 {
        let mut mask = 0u64;
        let mut square = 0;
        while square < 64 {
            if SQUARE_WEIGHTS[square] == values[class] {
                mask |= 1 << square;
            }
            square += 1;
        }
        classes[class] = (values[class], mask);
        class += 1;
    }
    classes
}

/// The positional score of `player` against `opponent`: the sum of the
/// weights of the player's squares minus those of the opponent's.
///
/// One popcount per weight class and side: the form for code compiled
/// with the `popcnt` instruction (the endgame solver's hot loops); without
/// it, [`positional_score_by_rows`] gives the same value sooner.
#[inline]
#[must_use]
pub fn positional_score(player: u64, opponent: u64) -> i32 {
    let mut score = 0;
    for (weight, mask) in WEIGHT_CLASSES {
        score +=
            weight * ((player & mask).count_ones() as i32 - (opponent & mask).count_ones() as i32);
    }
    score
}

/// The weight sum of each occupancy of a row, for rows 1 to 4 (rows 5 to
/// 8 mirror them): `ROW_SCORES[row][byte]`.
const ROW_SCORES: [[i16; 256]; 4] = row_scores();

const fn row_scores() -> [[i16; 256]; 4] {
    let mut table = [[0i16; 256]; 4];
    let mut row = 0;
    while row < 4 {
        let mut byte = 0;
        while byte < 256 {
            let mut sum = 0;
            let mut col = 0;
            while col < 8 {
                if byte & (1 << col) != 0 {
                    sum += SQUARE_WEIGHTS[8 * row + col];
                }
                col += 1;
            }
            table[row][byte] = sum as i16;
            byte += 1;
        }
        row += 1;
    }
    table
}

/// [`positional_score`] by a table look-up per row and side: the same
/// value in fewer instructions where `count_ones` is a dozen of them (the
/// x86-64 baseline a plain build targets), as in [`HeuristicEvaluator`].
#[inline]
#[must_use]
pub fn positional_score_by_rows(player: u64, opponent: u64) -> i32 {
    let mut score = 0;
    for row in 0..8 {
        let scores = &ROW_SCORES[if row < 4 { row } else { 7 - row }];
        let shift = 8 * row;
        score += i32::from(scores[((player >> shift) & 0xFF) as usize])
            - i32::from(scores[((opponent >> shift) & 0xFF) as usize]);
    }
    score
}

/// The number of corners in `bits`, without a popcount: the two bottom
/// corners are added onto the two top ones, then the two sums.
#[inline]
fn corner_count(bits: u64) -> i32 {
    let pairs = (bits & 0x81) + ((bits >> 56) & 0x81);
    ((pairs & 0x7F) + (pairs >> 7)) as i32
}

/// The exact value of a finished game: the final disc difference for the
/// player to move (empties to the winner) over 64.
#[inline]
#[must_use]
pub fn exact_value(board: &Board) -> f32 {
    board.final_score() as f32 / 64.0
}

/// Positional weights, mobility and corners, squashed into `(-1, 1)` by
/// `tanh`; the exact score at finished games.
///
/// For the player to move, with `m`, `m'` the two sides' mobilities (legal
/// square counts) and `c`, `c'` their corners:
///
/// `value = tanh(positional * Σ weights + mobility * (m - m') / (m + m' + 2)
/// + corners * (c - c'))`.
///
/// Every term is invariant under the eight board symmetries and under
/// [`ColorFlip`](game_traits::ColorFlip).
///
/// The weights must be finite ([`HeuristicEvaluator::validate`]); with the
/// `serde` feature, deserialization checks them.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "HeuristicEvaluatorRaw")
)]
pub struct HeuristicEvaluator {
    /// Multiplies the positional score ([`positional_score`]).
    pub positional: f32,
    /// Multiplies the relative mobility, in `[-1, 1]`.
    pub mobility: f32,
    /// Multiplies the corner difference, in `-4..=4`.
    pub corners: f32,
}

impl Default for HeuristicEvaluator {
    /// Positional `0.01`, mobility `1.0`, corners `0.25`.
    fn default() -> Self {
        HeuristicEvaluator {
            positional: 0.01,
            mobility: 1.0,
            corners: 0.25,
        }
    }
}

impl HeuristicEvaluator {
    /// Checks the weights.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] naming the first weight that is NaN or
    /// infinite (it would make values NaN).
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_finite(&[
            ("positional", self.positional),
            ("mobility", self.mobility),
            ("corners", self.corners),
        ])
    }

    /// The unsquashed score of a position that is not over.
    #[inline]
    fn raw(&self, player: u64, opponent: u64, own_moves: u64, their_moves: u64) -> f32 {
        let own = own_moves.count_ones() as f32;
        let their = their_moves.count_ones() as f32;
        let corner_diff = (corner_count(player) - corner_count(opponent)) as f32;
        self.positional * positional_score_by_rows(player, opponent) as f32
            + self.mobility * (own - their) / (own + their + 2.0)
            + self.corners * corner_diff
    }
}

impl Evaluator<Board> for HeuristicEvaluator {
    #[inline]
    fn value(&self, board: &Board) -> f32 {
        let own_moves = board.mobility();
        let their_moves = board.opponent_mobility();
        if own_moves | their_moves == 0 {
            return exact_value(board);
        }
        self.raw(board.player(), board.opponent(), own_moves, their_moves)
            .tanh()
            .clamp(-1.0, 1.0)
    }
}

/// Positional weights only (no mobility): the evaluator of the classic
/// "greedy positional player" baseline, to be used with
/// [`GreedySearcher`](game_traits::GreedySearcher). Exact score at finished
/// games.
///
/// `value = tanh(Σ weights / 100)`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PositionalEvaluator;

impl Evaluator<Board> for PositionalEvaluator {
    fn value(&self, board: &Board) -> f32 {
        if board.is_game_over() {
            return exact_value(board);
        }
        (positional_score_by_rows(board.player(), board.opponent()) as f32 / 100.0)
            .tanh()
            .clamp(-1.0, 1.0)
    }
}

/// A policy evaluator from Othello knowledge alone: a move's logit is its
/// square's positional weight minus a penalty for every move it leaves the
/// opponent; the value is that of a [`HeuristicEvaluator`].
///
/// ```text
/// logit(square) = weight_scale * SQUARE_WEIGHTS[square]
///               - mobility_penalty * (opponent's legal squares after the move)
/// ```
///
/// A pass (always the only move) gets 0. This is the hand-made prior used
/// to run Gumbel AlphaZero on Othello without a network: good squares up,
/// moves that free the opponent down.
///
/// Every weight must be finite ([`HeuristicPolicy::validate`]); with the
/// `serde` feature, deserialization checks them.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "HeuristicPolicyRaw")
)]
pub struct HeuristicPolicy {
    /// The value part.
    pub evaluator: HeuristicEvaluator,
    /// Logit per unit of square weight.
    pub weight_scale: f32,
    /// Logit lost per legal square left to the opponent.
    pub mobility_penalty: f32,
}

impl Default for HeuristicPolicy {
    /// Default evaluator, weight scale `0.02` (a corner `+2`, an X-square
    /// `-1`), mobility penalty `0.15`.
    fn default() -> Self {
        HeuristicPolicy {
            evaluator: HeuristicEvaluator::default(),
            weight_scale: 0.02,
            mobility_penalty: 0.15,
        }
    }
}

impl HeuristicPolicy {
    /// Checks every weight.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] naming the first weight that is NaN or
    /// infinite.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.evaluator.validate()?;
        check_finite(&[
            ("weight_scale", self.weight_scale),
            ("mobility_penalty", self.mobility_penalty),
        ])
    }

    /// The logit of one move (see the type's documentation).
    #[must_use]
    pub fn logit(&self, board: &Board, mv: Move) -> f32 {
        match mv {
            Move::Pass => 0.0,
            Move::Place(square) => {
                let (player, opponent) = (board.player(), board.opponent());
                let flipped = flips(square.index(), player, opponent);
                let their_moves = mobility(opponent ^ flipped, player ^ flipped ^ square.bit());
                self.weight_scale * SQUARE_WEIGHTS[square.index()] as f32
                    - self.mobility_penalty * their_moves.count_ones() as f32
            }
        }
    }
}

impl PolicyEvaluator<Board> for HeuristicPolicy {
    fn evaluate(&self, board: &Board, moves: &[Move], logits: &mut [f32]) -> f32 {
        debug_assert_eq!(moves.len(), logits.len());
        for (&mv, logit) in moves.iter().zip(logits.iter_mut()) {
            *logit = self.logit(board, mv);
        }
        self.evaluator.value(board)
    }
}

impl Evaluator<Board> for HeuristicPolicy {
    fn value(&self, board: &Board) -> f32 {
        self.evaluator.value(board)
    }
}

/// A serialized [`HeuristicEvaluator`] before its weights are checked.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "HeuristicEvaluator")]
struct HeuristicEvaluatorRaw {
    positional: f32,
    mobility: f32,
    corners: f32,
}

#[cfg(feature = "serde")]
impl TryFrom<HeuristicEvaluatorRaw> for HeuristicEvaluator {
    type Error = ConfigError;

    fn try_from(raw: HeuristicEvaluatorRaw) -> Result<Self, ConfigError> {
        let evaluator = HeuristicEvaluator {
            positional: raw.positional,
            mobility: raw.mobility,
            corners: raw.corners,
        };
        evaluator.validate()?;
        Ok(evaluator)
    }
}

/// A serialized [`HeuristicPolicy`] before its weights are checked (the
/// evaluator part checks itself).
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "HeuristicPolicy")]
struct HeuristicPolicyRaw {
    evaluator: HeuristicEvaluator,
    weight_scale: f32,
    mobility_penalty: f32,
}

#[cfg(feature = "serde")]
impl TryFrom<HeuristicPolicyRaw> for HeuristicPolicy {
    type Error = ConfigError;

    fn try_from(raw: HeuristicPolicyRaw) -> Result<Self, ConfigError> {
        let policy = HeuristicPolicy {
            evaluator: raw.evaluator,
            weight_scale: raw.weight_scale,
            mobility_penalty: raw.mobility_penalty,
        };
        policy.validate()?;
        Ok(policy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Symmetry;

    #[test]
    fn weight_classes_cover_the_board_once() {
        let mut seen = 0u64;
        for (_, mask) in WEIGHT_CLASSES {
            assert_eq!(seen & mask, 0);
            seen |= mask;
        }
        assert_eq!(seen, u64::MAX);
        for symmetry in Symmetry::ALL {
            for (_, mask) in WEIGHT_CLASSES {
                assert_eq!(symmetry.apply_bitboard(mask), mask);
            }
        }
        assert_eq!(positional_score(CORNERS, X_SQUARES), 400 + 200);
    }

    /// Both forms of the positional score against a plain sum over the
    /// squares, and the corner count against a popcount.
    #[test]
    fn positional_scores_and_corner_counts_agree_with_plain_sums() {
        let plain = |bits: u64| -> i32 {
            (0..64)
                .filter(|square| bits >> square & 1 == 1)
                .map(|square| SQUARE_WEIGHTS[square])
                .sum()
        };
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for case in 0..20_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let occupied = state;
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // Sparse, dense and every-square boards.
            let occupied = match case % 3 {
                0 => occupied & state,
                1 => occupied | state,
                _ => occupied,
            };
            let (player, opponent) = (occupied & state, occupied & !state);
            let expected = plain(player) - plain(opponent);
            assert_eq!(positional_score(player, opponent), expected);
            assert_eq!(positional_score_by_rows(player, opponent), expected);
            assert_eq!(corner_count(player), (player & CORNERS).count_ones() as i32);
        }
        for bits in [0, u64::MAX, CORNERS, X_SQUARES, !CORNERS] {
            assert_eq!(
                positional_score_by_rows(bits, !bits),
                plain(bits) - plain(!bits)
            );
            assert_eq!(corner_count(bits), (bits & CORNERS).count_ones() as i32);
        }
    }

    #[test]
    fn start_position_is_level() {
        assert_eq!(HeuristicEvaluator::default().value(&Board::start()), 0.0);
        assert_eq!(PositionalEvaluator.value(&Board::start()), 0.0);
    }
}
