//! The network as the evaluator of every searcher: [`Evaluator`] (values:
//! alpha-beta, MCTS leaves), [`PolicyEvaluator`] (Gumbel, PUCT) and, through
//! [`PolicyEvaluator::evaluate_many`], [`BatchEvaluator`](game_traits::BatchEvaluator)
//! with whole batches in one forward pass.

use game_traits::{Batch, Evaluator, Game, PlaneEncoding, PolicyEvaluator};

use crate::Network;

impl<G: PlaneEncoding> Network<G> {
    /// Fills in every entry of `batch` in one forward pass. Positions
    /// whose planes do not fit the network (another board size), and every
    /// entry if the computation fails, get value 0 and equal logits: a
    /// search goes on uninformed rather than panicking.
    fn fill(&self, batch: &mut Batch<G>) {
        if batch.is_empty() {
            return;
        }
        let spec = self.spec();
        let (shape, policy_len) = (spec.planes, spec.policy_len);
        let per_position = shape.len();
        let mut planes = vec![0.0; batch.len() * per_position];
        let mut fits = vec![true; batch.len()];
        for ((state, planes), fits) in batch
            .states()
            .iter()
            .zip(planes.chunks_exact_mut(per_position))
            .zip(&mut fits)
        {
            if state.plane_shape() == shape && state.policy_len() == policy_len {
                state.encode_planes(planes);
            } else {
                *fits = false;
            }
        }
        let outputs = self.forward(planes, batch.len()).ok();
        for (index, entry) in batch.entries_mut().enumerate() {
            let Some((policy, values)) = outputs.as_ref().filter(|_| fits[index]) else {
                *entry.value = 0.0;
                entry.logits.fill(0.0);
                continue;
            };
            *entry.value = values[index];
            let row = &policy[index * policy_len..(index + 1) * policy_len];
            for (logit, &mv) in entry.logits.iter_mut().zip(entry.moves) {
                *logit = row
                    .get(entry.state.policy_index(mv))
                    .copied()
                    .unwrap_or(0.0);
            }
        }
    }
}

/// `state` rated as a batch of one by `fill`: what a batch evaluator's
/// [`PolicyEvaluator::evaluate`] does.
pub(crate) fn evaluate_alone<G: Game>(
    state: &G,
    moves: &[G::Move],
    logits: &mut [f32],
    fill: impl FnOnce(&mut Batch<G>),
) -> f32 {
    let mut batch = Batch::new();
    batch.push(state, moves);
    fill(&mut batch);
    logits.copy_from_slice(batch.logits(0));
    batch.value(0)
}

/// One position at a time is a batch of one; prefer a searcher that
/// batches (Gumbel and PUCT with `batch_size`, MCTS with
/// `with_batch_evaluator`, self-play with `search_together`).
impl<G: PlaneEncoding> PolicyEvaluator<G> for Network<G> {
    fn evaluate(&self, state: &G, moves: &[G::Move], logits: &mut [f32]) -> f32 {
        evaluate_alone(state, moves, logits, |batch| self.fill(batch))
    }

    fn evaluate_many(&self, batch: &mut Batch<G>) {
        self.fill(batch);
    }
}

/// The value head alone, for alpha-beta and MCTS with evaluator leaves.
impl<G: PlaneEncoding> Evaluator<G> for Network<G> {
    fn value(&self, state: &G) -> f32 {
        let mut batch = Batch::new();
        batch.push(state, &[]);
        self.fill(&mut batch);
        batch.value(0)
    }
}
