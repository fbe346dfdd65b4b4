//! A pattern evaluator and a policy evaluator from the cached line shapes.

use game_traits::{Evaluator, Player, PolicyEvaluator};

use crate::board::Summary;
use crate::playout::GomokuGame;
use crate::{Gomoku, Move, Rule};

/// Value of a position where the player to move completes a five next.
const WIN_NEXT: f32 = 0.95;
/// Value where the player to move makes an unstoppable four next.
const WIN_SOON: f32 = 0.9;

/// Points a cell is worth to a player, by the shape it makes on one line.
const SHAPE_POINTS: [f32; 11] = [
    0.0,   // none
    1.0,   // two
    4.0,   // open two
    6.0,   // three
    14.0,  // broken three
    18.0,  // open three
    24.0,  // four
    120.0, // open four
    120.0, // double four
    400.0, // five
    0.0,   // overline (no win here)
];

/// The static evaluation: threats first, then a weighted count of shapes.
///
/// For the player to move ("we") and the opponent:
///
/// * a game that is over scores its exact result;
/// * if we can complete a five: `+0.95`; if the opponent has two five
///   cells (or one we may not take, a forbidden cell for Black under
///   renju): `-0.95`; if the opponent has none and we can make a straight
///   four or two fours: `+0.9`;
/// * otherwise every empty cell adds, for each player, the points of the
///   shapes that player would make there ([`Shape`]: two 1, open two 4,
///   three 6, broken three 14, open three 18, four 24, open or double
///   four 120), plus 60 for a four and a three at once and 40 for two
///   threes (not for Black under renju, where those are often forbidden);
///   the value is `tanh((1.25 * ours - theirs) / scale)` kept inside
///   `[-0.85, 0.85]`, the factor giving the move to the player who has it.
///
/// Both players are scored alike, so under freestyle and standard a
/// position and its colour flip get the same value.
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
fn cell_points(nibbles: u32, combos: bool) -> f32 {
    let mut points = 0.0;
    for dir in 0..4 {
        points += SHAPE_POINTS[((nibbles >> (4 * dir)) & 0xF) as usize];
    }
    if combos {
        let summary = Summary::of(nibbles);
        if summary.fours >= 1 && summary.threes >= 1 {
            points += 60.0;
        } else if summary.threes >= 2 {
            points += 40.0;
        }
    }
    points
}

impl PatternEvaluator {
    /// The total points of both players (by player index).
    fn points(game: &Gomoku) -> [f32; 2] {
        let mut totals = [0.0f32; 2];
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
        totals
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
        let me = game.side().index();
        let points = PatternEvaluator::points(game);
        let score = self.tempo * points[me] - points[1 - me];
        (score / self.scale).tanh().clamp(-0.85, 0.85)
    }
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
    (!open_fours.is_empty()).then_some(WIN_SOON)
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
        bonus + (1.0 + attack).ln() + 0.8 * (1.0 + defence).ln()
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
