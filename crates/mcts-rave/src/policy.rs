//! Tree policies: how a node's children are scored during selection.
//!
//! [`Uct`] needs nothing but the rules; [`Rave`] also keeps
//! all-moves-as-first (AMAF) statistics and therefore needs a dense move
//! index, [`ActionSpace`].

use std::fmt::Debug;

use game_traits::{ActionSpace, Game};

/// What selection knows of one child when it scores it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ChildStats {
    /// Visits (in a shared tree, with the virtual loss of simulations in
    /// flight through it).
    pub visits: u32,
    /// Mean value for the player who moves into the child (virtual losses
    /// counted).
    pub mean: f32,
    /// `1 / sqrt(visits)`, 1 for an unvisited child.
    pub inv_sqrt_visits: f32,
    /// AMAF visits (0 unless [`TreePolicy::AMAF`]).
    pub amaf_visits: u32,
    /// Sum of the AMAF values, for the child's mover.
    pub amaf_sum: f32,
}

impl ChildStats {
    /// The AMAF mean, 0 without AMAF visits.
    #[inline]
    pub fn amaf_mean(&self) -> f32 {
        if self.amaf_visits == 0 {
            0.0
        } else {
            self.amaf_sum / self.amaf_visits as f32
        }
    }
}

/// The exploration factor `c * sqrt(ln N)` of one selection step, `N` the
/// parent's visits: computed when a score first asks for it, since a
/// node whose first child is untried needs none.
#[derive(Clone, Copy, Debug)]
pub struct ExplorationScale {
    exploration: f32,
    parent_visits: u32,
    value: Option<f32>,
}

impl ExplorationScale {
    /// The factor for exploration constant `exploration` below a parent of
    /// `parent_visits` visits (taken as at least 1).
    pub fn new(exploration: f32, parent_visits: u32) -> Self {
        ExplorationScale {
            exploration,
            parent_visits,
            value: None,
        }
    }

    /// `c * sqrt(ln N)`.
    #[inline]
    pub fn get(&mut self) -> f32 {
        *self.value.get_or_insert_with(|| {
            self.exploration * (self.parent_visits.max(1) as f32).ln().sqrt()
        })
    }
}

/// The statistics a search keeps and how it scores a child with them. The
/// search itself is generic over this trait, so plain UCT compiles for any
/// [`Game`] while RAVE asks for [`ActionSpace`].
///
/// By default ([`score`](TreePolicy::score)) every child is scored as
///
/// ```text
/// score = q + beta * (q_amaf - q) + c * sqrt(ln N) / sqrt(n)
/// ```
///
/// with `q` the child's mean value for the player who moves into it, `n`
/// its visits, `N` the parent's visits, `c` the exploration constant,
/// `q_amaf` the child's AMAF mean and `beta` from
/// [`beta`](TreePolicy::beta). Unvisited children come first; among them the
/// one with the highest `beta * q_amaf` (the first one when that is equal).
/// Selection descends to the first untried child, else to the first child
/// of highest score among those not proven lost.
pub trait TreePolicy<G: Game>: Clone + Debug + Send + Sync {
    /// Whether AMAF statistics are kept (and [`beta`](TreePolicy::beta) is
    /// consulted). When `false`, the action-index methods are never called.
    const AMAF: bool;

    /// The number of actions of `state`'s action space (AMAF tables are
    /// this large, per player).
    fn num_actions(&self, state: &G) -> usize;

    /// The dense index of `mv`, in `0..num_actions`.
    fn action_index(&self, state: &G, mv: G::Move) -> usize;

    /// The weight of the AMAF value for a child with `visits` visits and
    /// `amaf_visits` AMAF visits, in `[0, 1]`. Must be `0` when
    /// `amaf_visits` is `0`.
    fn beta(&self, visits: u32, amaf_visits: u32) -> f32;

    /// A short name for reports (`"uct"`, `"rave"`).
    fn name(&self) -> &'static str;

    /// Checks the policy's own parameters; [`Mcts::new`](crate::Mcts::new)
    /// refuses a policy that fails. The default accepts every policy.
    ///
    /// # Errors
    ///
    /// [`ConfigError`](crate::ConfigError) naming the parameter out of
    /// range.
    fn validate(&self) -> Result<(), crate::ConfigError> {
        Ok(())
    }

    /// The selection score of a child, or `None` for a child nothing is
    /// known of, which selection tries at once. `scale` gives the
    /// exploration factor `c * sqrt(ln N)`. The default is the blend above;
    /// an unvisited child with AMAF statistics (`beta = 1`) is scored by
    /// them alone, its exploration term as after one visit.
    #[inline]
    fn score(&self, child: &ChildStats, scale: &mut ExplorationScale) -> Option<f32> {
        let beta = if Self::AMAF {
            self.beta(child.visits, child.amaf_visits)
        } else {
            0.0
        };
        if child.visits == 0 && beta == 0.0 {
            return None;
        }
        let q = child.mean;
        let value = if Self::AMAF {
            q + beta * (child.amaf_mean() - q)
        } else {
            q
        };
        Some(value + scale.get() * child.inv_sqrt_visits)
    }
}

/// Plain UCT (Kocsis & Szepesvári 2006, "Bandit based Monte-Carlo
/// planning", ECML): the child maximising `q + c * sqrt(ln N / n)`. Works for
/// every [`Game`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Uct;

impl<G: Game> TreePolicy<G> for Uct {
    const AMAF: bool = false;

    fn num_actions(&self, _state: &G) -> usize {
        0
    }

    fn action_index(&self, _state: &G, _mv: G::Move) -> usize {
        0
    }

    #[inline]
    fn beta(&self, _visits: u32, _amaf_visits: u32) -> f32 {
        0.0
    }

    fn name(&self) -> &'static str {
        "uct"
    }
}

/// How [`Rave`] weighs the AMAF value against the child's own mean.
///
/// Its parameter must be a number `>= 0` ([`RaveSchedule::validate`]); with
/// the `serde` feature, deserialization checks it. (JSON has no infinity:
/// serde_json writes an infinite parameter as `null`, which does not read
/// back. Use [`Uct`] for the `b = +inf` case.)
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "RaveScheduleRaw")
)]
#[non_exhaustive]
pub enum RaveSchedule {
    /// The minimum-MSE schedule of Gelly & Silver (2011, "Monte-Carlo tree
    /// search and rapid action value estimation in computer Go", Artificial
    /// Intelligence 175, section 5.3):
    ///
    /// ```text
    /// beta = r / (r + v + 4 r v b^2)
    /// ```
    ///
    /// with `r` the AMAF visits, `v` the visits and `b` the *RAVE bias*, the
    /// assumed difference between AMAF and true values (on this crate's
    /// `[-1, 1]` value scale). `b = +inf` gives `beta = 0` everywhere: plain
    /// UCT.
    MinimumMse {
        /// The RAVE bias `b` (`>= 0`, may be infinite).
        bias: f32,
    },
    /// The hand-tuned schedule of Gelly & Silver (2007, "Combining online
    /// and offline knowledge in UCT", ICML, section 5), used by MoGo:
    ///
    /// ```text
    /// beta = sqrt(k / (3 v + k))
    /// ```
    ///
    /// The *equivalence parameter* `k` is the number of visits at which the
    /// two estimates get equal weight (beta = 1/2 at `v = k`). `k = 0` is
    /// plain UCT.
    Equivalence {
        /// The equivalence parameter `k` (`>= 0`).
        k: f32,
    },
}

impl RaveSchedule {
    /// Checks the schedule's parameter.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`](crate::ConfigError::Range) for a
    /// parameter that is NaN or negative (`+inf` is allowed).
    pub fn validate(&self) -> Result<(), crate::ConfigError> {
        let (name, value) = match *self {
            RaveSchedule::MinimumMse { bias } => ("bias", bias),
            RaveSchedule::Equivalence { k } => ("k", k),
        };
        game_traits::Range::AtLeastOrInfinity(0.0).check(name, f64::from(value))?;
        Ok(())
    }
}

/// A serialized [`RaveSchedule`] before its parameter is checked.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "RaveSchedule")]
enum RaveScheduleRaw {
    MinimumMse { bias: f32 },
    Equivalence { k: f32 },
}

#[cfg(feature = "serde")]
impl TryFrom<RaveScheduleRaw> for RaveSchedule {
    type Error = crate::ConfigError;

    fn try_from(raw: RaveScheduleRaw) -> Result<Self, crate::ConfigError> {
        let schedule = match raw {
            RaveScheduleRaw::MinimumMse { bias } => RaveSchedule::MinimumMse { bias },
            RaveScheduleRaw::Equivalence { k } => RaveSchedule::Equivalence { k },
        };
        schedule.validate()?;
        Ok(schedule)
    }
}

/// UCT with Rapid Action Value Estimation: every child also keeps AMAF
/// statistics (the results of simulations in which its move was played
/// later by the same player), blended into its value by a
/// [`RaveSchedule`]. Needs [`ActionSpace`].
///
/// With the `serde` feature its schedule deserializes through
/// [`RaveSchedule::validate`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rave {
    schedule: RaveSchedule,
}

impl Rave {
    /// The default RAVE bias `b` of the minimum-MSE schedule (on the
    /// `[-1, 1]` value scale).
    pub const DEFAULT_BIAS: f32 = 0.2;

    /// The exploration constant ([`MctsConfig::exploration`](crate::MctsConfig::exploration))
    /// for RAVE **on Othello**, where it was tuned: lower than UCT's default
    /// of 1, since AMAF statistics already spread the visits. On Othello at
    /// 1,000 playouts per move, RAVE with `c = 0.25` scored 59.9% (95% CI
    /// 55.0%-64.6%, 400 games) against UCT with `c = 1`, while UCT itself
    /// loses with so little exploration (37.5% at `c = 0.3` against `c =
    /// 1`).
    ///
    /// It does not carry over to every game. In Connect Four, on 40
    /// positions from random games with a forced win within five plies,
    /// RAVE with `c = 0.25` missed 5 at 2,000, 20,000 and 100,000
    /// iterations alike, and `c = 1` missed 2, 1 and 1 (wins within three
    /// plies: neither missed any; `cargo test -p mcts-rave --release --test
    /// connect_four -- --ignored --nocapture`). Elsewhere start from
    /// [`Rave::NEUTRAL_EXPLORATION`] and tune.
    pub const OTHELLO_EXPLORATION: f32 = 0.25;

    /// The game-neutral exploration constant for RAVE: UCT's default, 1
    /// (the [`MctsConfig`](crate::MctsConfig) default). Safe on every game;
    /// a tuned value such as [`Rave::OTHELLO_EXPLORATION`] plays better on
    /// the game it was tuned on.
    pub const NEUTRAL_EXPLORATION: f32 = 1.0;

    /// The Othello-tuned constant under its old name.
    #[deprecated(
        since = "0.1.0",
        note = "tuned on Othello only: use `Rave::OTHELLO_EXPLORATION` for Othello and `Rave::NEUTRAL_EXPLORATION` elsewhere"
    )]
    pub const RECOMMENDED_EXPLORATION: f32 = Rave::OTHELLO_EXPLORATION;

    /// The minimum-MSE schedule with [`Rave::DEFAULT_BIAS`].
    pub fn new() -> Self {
        Rave::minimum_mse(Rave::DEFAULT_BIAS)
    }

    /// The minimum-MSE schedule with RAVE bias `bias` (see
    /// [`RaveSchedule::MinimumMse`]); `f32::INFINITY` turns AMAF off.
    pub fn minimum_mse(bias: f32) -> Self {
        Rave {
            schedule: RaveSchedule::MinimumMse { bias },
        }
    }

    /// The equivalence-parameter schedule (see
    /// [`RaveSchedule::Equivalence`]).
    pub fn equivalence(k: f32) -> Self {
        Rave {
            schedule: RaveSchedule::Equivalence { k },
        }
    }

    /// The schedule.
    pub fn schedule(&self) -> RaveSchedule {
        self.schedule
    }

    /// Checks the schedule's parameter (see [`RaveSchedule::validate`]).
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`](crate::ConfigError::Range) for a
    /// parameter that is NaN or negative.
    pub fn validate(&self) -> Result<(), crate::ConfigError> {
        self.schedule.validate()
    }
}

impl Default for Rave {
    fn default() -> Self {
        Rave::new()
    }
}

impl<G: ActionSpace> TreePolicy<G> for Rave {
    const AMAF: bool = true;

    fn validate(&self) -> Result<(), crate::ConfigError> {
        Rave::validate(self)
    }

    fn num_actions(&self, state: &G) -> usize {
        state.num_actions()
    }

    #[inline]
    fn action_index(&self, state: &G, mv: G::Move) -> usize {
        state.action_index(mv)
    }

    #[inline]
    fn beta(&self, visits: u32, amaf_visits: u32) -> f32 {
        if amaf_visits == 0 {
            return 0.0;
        }
        match self.schedule {
            RaveSchedule::MinimumMse { bias } => {
                if bias.is_infinite() {
                    return 0.0;
                }
                let r = amaf_visits as f32;
                let v = visits as f32;
                r / (r + v + 4.0 * r * v * bias * bias)
            }
            RaveSchedule::Equivalence { k } => {
                if k == 0.0 {
                    return 0.0;
                }
                if k.is_infinite() {
                    return 1.0;
                }
                (k / (3.0 * visits as f32 + k)).sqrt()
            }
        }
    }

    fn name(&self) -> &'static str {
        "rave"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_traits::testing::TicTacToe;

    fn beta(rave: Rave, v: u32, r: u32) -> f32 {
        <Rave as TreePolicy<TicTacToe>>::beta(&rave, v, r)
    }

    #[test]
    fn minimum_mse_matches_the_formula() {
        let rave = Rave::minimum_mse(0.5);
        // r / (r + v + 4 r v b^2) = 10 / (10 + 20 + 4*10*20*0.25) = 10 / 230
        assert!((beta(rave, 20, 10) - 10.0 / 230.0).abs() < 1e-7);
        assert_eq!(beta(rave, 0, 5), 1.0);
        assert_eq!(beta(rave, 5, 0), 0.0);
        assert_eq!(beta(Rave::minimum_mse(f32::INFINITY), 0, 5), 0.0);
        assert_eq!(beta(Rave::minimum_mse(f32::INFINITY), 7, 5), 0.0);
        // More visits, less AMAF.
        assert!(beta(rave, 100, 100) < beta(rave, 10, 100));
    }

    #[test]
    fn equivalence_gives_half_weight_at_k() {
        let rave = Rave::equivalence(300.0);
        assert!((beta(rave, 300, 50) - 0.5).abs() < 1e-6);
        assert_eq!(beta(rave, 0, 1), 1.0);
        assert_eq!(beta(Rave::equivalence(0.0), 10, 10), 0.0);
        assert_eq!(beta(Rave::equivalence(0.0), 0, 10), 0.0);
    }

    #[test]
    fn bad_parameters_are_refused() {
        assert!(Rave::minimum_mse(-1.0).validate().is_err());
        assert!(Rave::equivalence(f32::NAN).validate().is_err());
        assert!(Rave::minimum_mse(f32::INFINITY).validate().is_ok());
    }
}
