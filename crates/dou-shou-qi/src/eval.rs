//! A hand-made evaluator: material by rank, advancement toward the enemy
//! den, den and trap threats.

use game_traits::{Evaluator, Player, Range};

use crate::animal::{Animal, Piece};
use crate::board::{DEN, STEPS, TRAPS, squares_of};
use crate::config::ConfigError;
use crate::position::Jungle;

/// Values a position by material (by rank), advancement toward the enemy
/// den, and den and trap threats, squashed by `tanh` into `(-1, 1)` for the
/// player to move; finished games get their exact reward.
///
/// Everything is computed relative to each side (its own direction of
/// travel, its own enemy den), and summed in animal order, so a position and
/// its color flip get bit-identical values.
///
/// ```
/// use game_traits::Evaluator;
/// use dou_shou_qi::{Jungle, JungleEvaluator};
///
/// let evaluator = JungleEvaluator::default();
/// assert_eq!(evaluator.value(&Jungle::new()), 0.0);
/// // The first player's wolf on e9 enters the den next move.
/// let winning: Jungle = "4W2/7/r6/7/7/7/7/7/7 w 0 1".parse()?;
/// assert!(evaluator.value(&winning) > 0.9);
/// # Ok::<(), dou_shou_qi::PositionError>(())
/// ```
///
/// Every weight must be finite and the scale positive
/// ([`JungleEvaluator::validate`]); with the `serde` feature,
/// deserialization checks them.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "JungleEvaluatorRaw")
)]
pub struct JungleEvaluator {
    /// Material value of a piece by its rank (index `rank - 1`). The rat's
    /// entry is raised above the cat's: it swims and takes the elephant.
    pub material_by_rank: [f32; 8],
    /// Bonus per piece for closeness to the enemy den, scaled by
    /// `1 - distance / 11` (Manhattan distance; 11 is the farthest).
    pub advancement: f32,
    /// Bonus per piece standing next to the enemy den (a den entry threat).
    pub den_threat: f32,
    /// Bonus per piece standing on an enemy trap (next to the enemy den).
    pub trap_threat: f32,
    /// The score difference that maps to `tanh(1) ≈ 0.76`.
    pub scale: f32,
}

impl Default for JungleEvaluator {
    fn default() -> Self {
        JungleEvaluator {
            material_by_rank: [3.0, 2.0, 3.0, 4.0, 5.0, 7.0, 8.0, 9.0],
            advancement: 0.5,
            den_threat: 4.0,
            trap_threat: 1.0,
            scale: 12.0,
        }
    }
}

/// Value for the side to move when it can enter the enemy den right away.
const DEN_ENTRY_VALUE: f32 = 0.99;

impl JungleEvaluator {
    /// Checks the settings.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] naming the first weight that is NaN or
    /// infinite, or a `scale` that is not a finite number above 0 (values
    /// would be NaN or every position would look won or lost).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let weights = self
            .material_by_rank
            .iter()
            .map(|&weight| ("material_by_rank", weight))
            .chain([
                ("advancement", self.advancement),
                ("den_threat", self.den_threat),
                ("trap_threat", self.trap_threat),
            ]);
        for (name, value) in weights {
            Range::Finite.check(name, f64::from(value))?;
        }
        Range::Above(0.0).check("scale", f64::from(self.scale))?;
        Ok(())
    }

    /// The score of `side`'s pieces: one term per animal, added up in
    /// animal order.
    fn side_score(&self, state: &Jungle, side: Player) -> f32 {
        let enemy_den = DEN[side.opponent().index()];
        let den_col = i32::from(enemy_den % 7);
        let den_row = i32::from(enemy_den / 7);
        let mut terms = [0.0f32; 8];
        for square in squares_of(state.occupied[side.index()]) {
            let animal = Piece::from_code(state.board[square as usize]).animal;
            let rank = state.rules.rank(animal);
            let col = i32::from(square % 7);
            let row = i32::from(square / 7);
            let distance = (col - den_col).abs() + (row - den_row).abs();
            let mut term = self.material_by_rank[usize::from(rank - 1)]
                + self.advancement * (1.0 - distance as f32 / 11.0);
            if STEPS[enemy_den as usize] & (1 << square) != 0 {
                term += self.den_threat;
            }
            if TRAPS[side.opponent().index()] & (1 << square) != 0 {
                term += self.trap_threat;
            }
            terms[animal.index()] = term;
        }
        terms.iter().sum()
    }
}

impl Evaluator<Jungle> for JungleEvaluator {
    fn value(&self, state: &Jungle) -> f32 {
        let mover = state.to_move;
        if let Some(outcome) = game_traits::Game::outcome(state) {
            return outcome.reward(mover);
        }
        // Any piece next to the enemy den can step in: a win in one.
        let enemy_den = DEN[mover.opponent().index()];
        if STEPS[enemy_den as usize] & state.occupied[mover.index()] != 0 {
            return DEN_ENTRY_VALUE;
        }
        let score = self.side_score(state, mover) - self.side_score(state, mover.opponent());
        (score / self.scale)
            .tanh()
            .clamp(-DEN_ENTRY_VALUE, DEN_ENTRY_VALUE)
    }
}

/// A serialized [`JungleEvaluator`] before its settings are checked.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "JungleEvaluator")]
struct JungleEvaluatorRaw {
    material_by_rank: [f32; 8],
    advancement: f32,
    den_threat: f32,
    trap_threat: f32,
    scale: f32,
}

#[cfg(feature = "serde")]
impl TryFrom<JungleEvaluatorRaw> for JungleEvaluator {
    type Error = ConfigError;

    fn try_from(raw: JungleEvaluatorRaw) -> Result<Self, ConfigError> {
        let evaluator = JungleEvaluator {
            material_by_rank: raw.material_by_rank,
            advancement: raw.advancement,
            den_threat: raw.den_threat,
            trap_threat: raw.trap_threat,
            scale: raw.scale,
        };
        evaluator.validate()?;
        Ok(evaluator)
    }
}

/// The default material value of `animal` under the standard ranks, for
/// move ordering and playouts.
pub(crate) fn default_material(animal: Animal) -> f32 {
    JungleEvaluator::default().material_by_rank[animal.index()]
}
