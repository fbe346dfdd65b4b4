//! What a search knows of the game beside its settings: the tree policy,
//! the playout policy and the evaluator.

use game_traits::{OutcomeEvaluator, UniformPlayout};

use crate::leaf::BatchValues;
use crate::policy::{Rave, Uct};

/// The game knowledge of an [`Mcts`](crate::Mcts) (or
/// [`Ismcts`](crate::Ismcts)) search, given to its `new` beside the
/// settings: which [`TreePolicy`](crate::TreePolicy) selects children,
/// which [`Playout`](game_traits::Playout) plays new leaves out, and which
/// [`Evaluator`](game_traits::Evaluator) values positions where playouts
/// stop.
///
/// Start from [`MctsKnowledge::uct`] (any game) or [`MctsKnowledge::rave`]
/// (games with an [`ActionSpace`](game_traits::ActionSpace)) and replace
/// parts with the `with_*` methods:
///
/// ```
/// use bitboard_othello::{CornerFirstPlayout, HeuristicEvaluator};
/// use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Rave};
///
/// let knowledge = MctsKnowledge::rave(Rave::default())
///     .with_playout(CornerFirstPlayout::default())
///     .with_evaluator(HeuristicEvaluator::default());
/// // The evaluator values what the settings say it values: here the
/// // position 20 plies into each playout.
/// let config = MctsConfig::default().with_leaf(LeafEvaluation::PlayoutCutoff { depth: 20 });
/// let search: Mcts<bitboard_othello::Board, _, _, _> = Mcts::new(knowledge, config)?;
/// # Ok::<(), mcts_rave::ConfigError>(())
/// ```
///
/// The evaluator is used exactly where
/// [`MctsConfig::leaf`](crate::MctsConfig::leaf) says: with the default,
/// [`LeafEvaluation::Playout`](crate::LeafEvaluation::Playout), only at
/// [`MctsConfig::max_playout_plies`](crate::MctsConfig::max_playout_plies);
/// choose [`LeafEvaluation::Evaluator`](crate::LeafEvaluation::Evaluator)
/// or [`LeafEvaluation::PlayoutCutoff`](crate::LeafEvaluation::PlayoutCutoff)
/// to value leaves by it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct MctsKnowledge<T = Uct, P = UniformPlayout, E = OutcomeEvaluator> {
    /// Selects the child to descend to.
    pub policy: T,
    /// Plays new leaves out (each thread has its own clone).
    pub playout: P,
    /// Values positions where playouts stop.
    pub evaluator: E,
}

impl MctsKnowledge {
    /// Plain UCT, uniformly random playouts, and the outcome (0 for
    /// unfinished positions) where a playout stops early: for every game.
    pub fn uct() -> Self {
        MctsKnowledge::default()
    }
}

impl MctsKnowledge<Rave> {
    /// UCT with RAVE, uniformly random playouts and the outcome where a
    /// playout stops early, for games with an
    /// [`ActionSpace`](game_traits::ActionSpace).
    pub fn rave(rave: Rave) -> Self {
        MctsKnowledge::uct().with_policy(rave)
    }
}

impl<T, P, E> MctsKnowledge<T, P, E> {
    /// The same knowledge with another tree policy.
    pub fn with_policy<U>(self, policy: U) -> MctsKnowledge<U, P, E> {
        MctsKnowledge {
            policy,
            playout: self.playout,
            evaluator: self.evaluator,
        }
    }

    /// The same knowledge with another playout policy.
    pub fn with_playout<Q>(self, playout: Q) -> MctsKnowledge<T, Q, E> {
        MctsKnowledge {
            policy: self.policy,
            playout,
            evaluator: self.evaluator,
        }
    }

    /// The same knowledge with another evaluator, used where
    /// [`MctsConfig::leaf`](crate::MctsConfig::leaf) says.
    pub fn with_evaluator<F>(self, evaluator: F) -> MctsKnowledge<T, P, F> {
        MctsKnowledge {
            policy: self.policy,
            playout: self.playout,
            evaluator,
        }
    }

    /// The same knowledge with a [`BatchEvaluator`](game_traits::BatchEvaluator) (a network, say) as
    /// the evaluator, through [`BatchValues`]: with
    /// [`MctsConfig::batch_size`](crate::MctsConfig::batch_size) above 1
    /// each thread collects that many leaves, with virtual loss, and values
    /// them in one call.
    pub fn with_batch_evaluator<B>(self, evaluator: B) -> MctsKnowledge<T, P, BatchValues<B>> {
        self.with_evaluator(BatchValues(evaluator))
    }
}
