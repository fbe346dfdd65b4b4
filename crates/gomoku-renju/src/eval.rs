//! A pattern evaluator and a policy evaluator from the cached line shapes.

use game_traits::{Evaluator, Player, PolicyEvaluator};

use crate::board::Summary;
use crate::playout::GomokuGame;
use crate::{Gomoku, Move, Rule};

/// Value of a position where the player to move completes a five next.
const WIN_NEXT: f32 = 0.95;
/// Value where the player to move makes an unstoppable four next.
const WIN_SOON: f32 = 0.9;
/// Value where the player to move makes a double threat next and the
/// opponent has no four to answer with.
const DOUBLE_THREAT: f32 = 0.8;

/// Points a cell is worth to a player, by the shape it makes on one line.
const SHAPE_POINTS: [u32; 16] = [
    0,   // none
    1,   // two
    4,   // open two
    6,   // three
    14,  // broken three
    18,  // open three
    24,  // four
    120, // open four
    120, // double four
    400, // five
    0,   // overline (no win here)
    0, 0, 0, 0, 0,
];

/// `ln(1 + points)` for the points a cell can have, by table (the policy
/// takes a few dozen per position).
static LN_1P: [f32; 2048] = {
    // ln(1 + x) by a series on the mantissa: accurate to about 1e-6, which
    // is plenty for logits. Computed at compile time (no `ln` in const).
    let mut table = [0.0f32; 2048];
    let mut x = 0;
    while x < 2048 {
        table[x] = ln_const(1.0 + x as f64) as f32;
        x += 1;
    }
    table
};

/// `ln(v)` for `v >= 1` in a constant context: `v = m * 2^k` with `m` in
/// `[1, 2)`, `ln v = k ln 2 + 2 atanh((m - 1) / (m + 1))`.
const fn ln_const(value: f64) -> f64 {
    let mut m = value;
    let mut k = 0.0;
    while m >= 2.0 {
        m /= 2.0;
        k += 1.0;
    }
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let mut term = t;
    let mut sum = 0.0;
    let mut n = 1.0;
    while n < 60.0 {
        sum += term / n;
        term *= t2;
        n += 2.0;
    }
    k * std::f64::consts::LN_2 + 2.0 * sum
}

/// `ln(1 + points)`.
#[inline]
fn ln_1p(points: u32) -> f32 {
    LN_1P[(points as usize).min(LN_1P.len() - 1)]
}

/// The static evaluation: threats first, then a weighted count of shapes.
///
/// For the player to move ("we") and the opponent:
///
/// * a game that is over scores its exact result;
/// * if we can complete a five: `+0.95`; if the opponent has two five
///   cells (or one we may not take, a forbidden cell for Black under
///   renju): `-0.95`; if the opponent has one, we must take it: the value
///   is that of the position after the block (followed up to three
///   times); if the opponent has none and we can make a straight four or
///   two fours: `+0.9`; if we can make a four and a three, or two threes,
///   at once and the opponent has no four to answer with: `+0.8`;
/// * otherwise every empty cell adds, for each player, the points of the
///   shapes that player would make there ([`Shape`](crate::Shape): two 1,
///   open two 4, three 6, broken three 14, open three 18, four 24, open
///   or double four 120), plus 60 for a four and a three at once and 40
///   for two threes (not for Black under renju, where those are often
///   forbidden). The value is `tanh((tempo * ours - theirs) / scale)`,
///   kept inside `[-0.75, 0.75]`: the factor gives the move to the player
///   who has it, except when the opponent has an open three or a double
///   threat to answer and we have no four to answer with, when the move
///   must go to the answer and the factor goes to the opponent
///   (`tanh((ours - tempo * theirs) / scale)`).
///
/// Both players are scored alike, so under freestyle and standard a
/// position and its colour flip get the same value. The weights were set
/// by hand and checked against the greedy pattern player (see
/// `docs/results.md`).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PatternEvaluator {
    /// The score difference that makes a value of `tanh(1) = 0.76`.
    /// Default 250.
    pub scale: f32,
    /// How much the player to move's points count against the
    /// opponent's. Default 1.25.
    pub tempo: f32,
}

impl Default for PatternEvaluator {
    fn default() -> Self {
        PatternEvaluator {
            scale: 250.0,
            tempo: 1.25,
        }
    }
}

/// The points of a cell for `player` from its four shape codes.
#[inline]
fn cell_points(nibbles: u32, combos: bool) -> u32 {
    let mut points = SHAPE_POINTS[(nibbles & 0xF) as usize]
        + SHAPE_POINTS[((nibbles >> 4) & 0xF) as usize]
        + SHAPE_POINTS[((nibbles >> 8) & 0xF) as usize]
        + SHAPE_POINTS[((nibbles >> 12) & 0xF) as usize];
    if combos {
        let summary = Summary::of(nibbles);
        if summary.fours >= 1 && summary.threes >= 1 {
            points += 60;
        } else if summary.threes >= 2 {
            points += 40;
        }
    }
    points
}

impl PatternEvaluator {
    /// The total points of both players (by player index).
    fn points(game: &Gomoku) -> [f32; 2] {
        let mut totals = [0u32; 2];
        // Black's combinations are often forbidden under renju.
        let combos = [game.rule() != Rule::Renju, true];
        for index in game.empty_bits().iter() {
            for (player, total) in totals.iter_mut().enumerate() {
                let nibbles = game.nibbles(player, index);
                if nibbles != 0 {
                    *total += cell_points(nibbles, combos[player]);
                }
            }
        }
        totals.map(|total| total as f32)
    }

    /// The value of `game` for the player to move, as described above.
    #[must_use]
    pub fn evaluate(&self, game: &Gomoku) -> f32 {
        if let Some(outcome) = game.result() {
            return outcome.reward(game.side());
        }
        if let Some(value) = tactical_value(game) {
            return value;
        }
        // A single five cell of the opponent must be taken: value the
        // position after the block (a few times at most).
        let mut blocked;
        let mut game = game;
        let mut sign = 1.0;
        for _ in 0..3 {
            let threats = game.five_bits(1 - game.side().index());
            let Some(block) = threats.first_index() else {
                break;
            };
            blocked = game.clone();
            blocked.play_index(block);
            sign = -sign;
            if let Some(outcome) = blocked.result() {
                return sign * outcome.reward(blocked.side());
            }
            if let Some(value) = tactical_value(&blocked) {
                return sign * value;
            }
            game = &blocked;
        }
        let me = game.side().index();
        let points = PatternEvaluator::points(game);
        // The tempo belongs to the player to move, unless the opponent has
        // an open three to answer and the player to move no four to
        // answer it with: then the move goes to the answer.
        let forced = game.four_bits(me).is_empty()
            && (!game.open_four_bits(1 - me).is_empty() || has_double_threat(game, 1 - me));
        let score = if forced {
            points[me] - self.tempo * points[1 - me]
        } else {
            self.tempo * points[me] - points[1 - me]
        };
        sign * (score / self.scale).tanh().clamp(-0.75, 0.75)
    }
}

/// Whether `player` has a cell making a four and a three, or two threes
/// (forbidden cells of Black under renju not counted).
fn has_double_threat(game: &Gomoku, player: usize) -> bool {
    let restricted = game.rule() == crate::Rule::Renju && player == 0;
    game.four_bits(player)
        .or(&game.three_bits(player))
        .iter()
        .any(|index| {
            let summary = game.summary(player, index);
            ((summary.fours >= 1 && summary.threes >= 1) || summary.threes >= 2)
                && !(restricted && game.forbidden_at(index).is_some())
        })
}

/// The value of positions decided within a few plies by fours.
fn tactical_value(game: &Gomoku) -> Option<f32> {
    let me = game.side().index();
    let opponent = 1 - me;
    if !game.five_bits(me).is_empty() {
        return Some(WIN_NEXT);
    }
    let threats = game.five_bits(opponent);
    let count = threats.len();
    if count >= 2 {
        return Some(-WIN_NEXT);
    }
    if count == 1 {
        let block = threats.first_index().unwrap_or_default();
        if !game.may_place(block) {
            return Some(-WIN_NEXT);
        }
        return None;
    }
    let open_fours = game.without_forbidden(game.side(), *game.open_four_bits(me));
    if !open_fours.is_empty() {
        return Some(WIN_SOON);
    }
    // A four and a three, or two threes, at once, against an opponent
    // with no four to answer with: most often a win.
    if game.four_bits(opponent).is_empty() && has_double_threat(game, me) {
        return Some(DOUBLE_THREAT);
    }
    None
}

impl<G: GomokuGame> Evaluator<G> for PatternEvaluator {
    fn value(&self, state: &G) -> f32 {
        self.evaluate(state.as_ref())
    }
}

/// A policy evaluator from the same shapes: [`PatternEvaluator`]'s value,
/// and for each move a logit from what it makes for the player to move
/// (attack) and what it takes from the opponent (defence):
///
/// * completing a five: 12; taking the opponent's five cell: 10; making
///   a straight four or two fours: 8; taking a cell where the opponent
///   would: 6; a four and a three: 5;
/// * plus `ln(1 + attack points) + 0.8 ln(1 + defence points)`, with the
///   points of [`PatternEvaluator`].
///
/// Forbidden cells (Black under renju) and the pass get no bonus.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PatternPolicy {
    /// The value part.
    pub evaluator: PatternEvaluator,
}

impl PatternPolicy {
    /// The logit of `mv` in `game` (see [`PatternPolicy`]).
    #[must_use]
    pub fn logit(&self, game: &Gomoku, mv: Move) -> f32 {
        if mv.is_pass() || !mv.is_on_board(game.size()) {
            return 0.0;
        }
        let index = mv.index(game.size());
        if game.occupied(index) {
            return 0.0;
        }
        let me = game.side().index();
        let opponent = 1 - me;
        let combos = |player: usize| !(game.rule() == Rule::Renju && player == 0);
        let mine = game.nibbles(me, index);
        let theirs = game.nibbles(opponent, index);
        let attack = cell_points(mine, combos(me));
        let defence = cell_points(theirs, combos(opponent));
        let ours = Summary::of(mine);
        let other = Summary::of(theirs);
        let bonus = if ours.five {
            12.0
        } else if other.five {
            10.0
        } else if ours.open_four {
            8.0
        } else if other.open_four {
            6.0
        } else if ours.fours >= 1 && ours.threes >= 1 {
            5.0
        } else {
            0.0
        };
        let forbidden = game.rule() == Rule::Renju
            && game.side() == Player::First
            && game.forbidden_at(index).is_some();
        let bonus = if forbidden { 0.0 } else { bonus };
        bonus + ln_1p(attack) + 0.8 * ln_1p(defence)
    }
}

impl<G: GomokuGame> PolicyEvaluator<G> for PatternPolicy {
    fn evaluate(&self, state: &G, moves: &[Move], logits: &mut [f32]) -> f32 {
        debug_assert_eq!(moves.len(), logits.len());
        let game = state.as_ref();
        for (logit, &mv) in logits.iter_mut().zip(moves) {
            *logit = self.logit(game, mv);
        }
        self.evaluator.evaluate(game)
    }
}

impl<G: GomokuGame> Evaluator<G> for PatternPolicy {
    fn value(&self, state: &G) -> f32 {
        self.evaluator.evaluate(state.as_ref())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_logarithm_table_is_accurate() {
        for x in [0u32, 1, 2, 7, 100, 500, 2047, 5000] {
            let exact = (1.0 + x.min(2047) as f64).ln() as f32;
            assert!((ln_1p(x) - exact).abs() < 1e-5, "{x}: {} {exact}", ln_1p(x));
        }
    }
}
