//! Leaves valued a batch at a time, for evaluators that want batches.

use game_traits::{Batch, BatchEvaluator, Evaluator, Game};

/// A [`BatchEvaluator`] (a neural network, say) as the source of MCTS leaf
/// values; its logits are not used. Build the search with
/// [`MctsKnowledge::with_batch_evaluator`](crate::MctsKnowledge::with_batch_evaluator): with
/// [`MctsConfig::batch_size`](crate::MctsConfig::batch_size) above 1, each
/// thread then collects that many leaves, with virtual loss, and values
/// them in one call. Where a single position is asked for (the search
/// without batches), it is a batch of one.
///
/// ```
/// use game_traits::testing::TicTacToe;
/// use game_traits::{Limits, OutcomeEvaluator, Searcher, UniformPrior};
/// use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge};
///
/// // Any policy evaluator is a batch evaluator; a network would be too.
/// let network = UniformPrior(OutcomeEvaluator);
/// let knowledge = MctsKnowledge::uct().with_batch_evaluator(network);
/// let config = MctsConfig::default()
///     .with_leaf(LeafEvaluation::Evaluator)
///     .with_batch_size(8);
/// let mut search = Mcts::new(knowledge, config)?;
/// let report = search.search(&TicTacToe::new(), &Limits::iterations(800));
/// assert_eq!(report.stats.iterations, 800);
/// # Ok::<(), mcts_rave::ConfigError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BatchValues<B>(pub B);

impl<G: Game, B: BatchEvaluator<G>> Evaluator<G> for BatchValues<B> {
    fn value(&self, state: &G) -> f32 {
        let mut batch = Batch::new();
        batch.push(state, &[]);
        self.0.evaluate_batch(&mut batch);
        batch.value(0)
    }

    fn value_many(&self, batch: &mut Batch<G>) {
        self.0.evaluate_batch(batch);
    }
}
