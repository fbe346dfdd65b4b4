//! A playout policy: take a den entry or a winning capture when there is
//! one, otherwise a random move biased forward.

use game_traits::{Game, Playout, Range};
use rand::{Rng, RngExt};

use crate::board::Square;
use crate::config::ConfigError;
use crate::eval::default_material;
use crate::moves::Move;
use crate::position::Jungle;
use crate::rules::Fight;

/// The playout policy of the crate.
///
/// 1. A move into the enemy den (it wins at once) if there is one.
/// 2. Otherwise the capture that takes the most valuable piece and keeps
///    the attacker alive, if there is one.
/// 3. Otherwise a uniformly random move, drawn again (once) with probability
///    `redraw` when it goes backward or is an attack that fails.
///
/// ```
/// use game_traits::{Game, Playout};
/// use dou_shou_qi::{Jungle, JunglePlayout};
/// use rand::SeedableRng;
///
/// let game: Jungle = "4W2/7/r6/7/7/7/7/7/7 w 0 1".parse()?;
/// let mut moves = Vec::new();
/// game.legal_moves(&mut moves);
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// let choice = JunglePlayout::default().choose(&game, &moves, &mut rng);
/// assert_eq!(choice.to_string(), "e9d9");
/// # Ok::<(), dou_shou_qi::PositionError>(())
/// ```
///
/// `redraw` must be a probability: [`JunglePlayout::new`],
/// [`JunglePlayout::validate`] and deserialization (feature `serde`)
/// refuse anything else. A value set directly in the public field is
/// clamped into `[0, 1]` when playing (NaN counts as 0), so a playout never
/// panics.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "JunglePlayoutRaw")
)]
pub struct JunglePlayout {
    /// Probability of drawing again when the random move goes backward or
    /// attacks and fails, in `[0, 1]`.
    pub redraw: f64,
}

impl Default for JunglePlayout {
    fn default() -> Self {
        JunglePlayout { redraw: 0.5 }
    }
}

impl JunglePlayout {
    /// The policy with redraw probability `redraw`.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] unless `redraw` is in `[0, 1]` (NaN is
    /// refused).
    pub fn new(redraw: f64) -> Result<JunglePlayout, ConfigError> {
        let playout = JunglePlayout { redraw };
        playout.validate()?;
        Ok(playout)
    }

    /// Checks that `redraw` is a probability.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] unless `redraw` is in `[0, 1]` (NaN is
    /// refused).
    pub fn validate(&self) -> Result<(), ConfigError> {
        Range::PROBABILITY.check("redraw", self.redraw)?;
        Ok(())
    }

    /// `redraw` clamped into `[0, 1]`, NaN as 0: the same random draws as
    /// `redraw` itself whenever it is valid.
    fn redraw_probability(&self) -> f64 {
        if self.redraw.is_nan() {
            0.0
        } else {
            self.redraw.clamp(0.0, 1.0)
        }
    }

    /// Whether `mv` by the side to move goes away from the enemy den or is
    /// a failed attack.
    fn is_poor(state: &Jungle, mv: Move) -> bool {
        if state.piece_at(mv.to()).is_some() {
            return state.attack_result(mv) == Some(Fight::DefenderWins);
        }
        let den = Square::den(state.to_move().opponent());
        let distance =
            |square: Square| square.col().abs_diff(den.col()) + square.row().abs_diff(den.row());
        distance(mv.to()) > distance(mv.from())
    }
}

impl Playout<Jungle> for JunglePlayout {
    fn choose<R: Rng + ?Sized>(&mut self, state: &Jungle, moves: &[Move], rng: &mut R) -> Move {
        debug_assert!(!moves.is_empty());
        let side = state.to_move();
        let den = Square::den(side.opponent());
        let enemy = state.occupied[side.opponent().index()];
        let mut best_capture: Option<(Move, f32)> = None;
        for &mv in moves {
            if mv.to() == den {
                return mv;
            }
            if enemy & mv.to().bit() != 0 && state.attack_result(mv) == Some(Fight::AttackerWins) {
                let value = state
                    .piece_at(mv.to())
                    .map_or(0.0, |piece| default_material(piece.animal));
                if best_capture.is_none_or(|(_, best)| value > best) {
                    best_capture = Some((mv, value));
                }
            }
        }
        if let Some((mv, _)) = best_capture {
            return mv;
        }
        let mv = moves[rng.random_range(..moves.len())];
        if Self::is_poor(state, mv) && rng.random_bool(self.redraw_probability()) {
            moves[rng.random_range(..moves.len())]
        } else {
            mv
        }
    }
}

/// A serialized [`JunglePlayout`] before its probability is checked.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "JunglePlayout")]
struct JunglePlayoutRaw {
    redraw: f64,
}

#[cfg(feature = "serde")]
impl TryFrom<JunglePlayoutRaw> for JunglePlayout {
    type Error = ConfigError;

    fn try_from(raw: JunglePlayoutRaw) -> Result<Self, ConfigError> {
        JunglePlayout::new(raw.redraw)
    }
}
