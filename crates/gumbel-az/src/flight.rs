//! Simulations in flight: started, their leaf's position handed to the
//! evaluator in a batch, waiting to be backed up.
//!
//! With one simulation per batch this is the plain loop of select, evaluate
//! and back up, number for number. With more, each simulation counts as a
//! virtual visit on every edge of its path until it is backed up (see
//! [`Tree::mark_in_flight`]), which steers the next ones elsewhere; two
//! that reach the same new position share its evaluation.

use std::time::Instant;

use game_traits::{ActionSpace, Batch, Limits, StopReason};

use crate::tree::{Descent, Edge, Scratch, Step, Tree};

/// A simulation waiting for an evaluation.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    /// Its steps in [`InFlight::steps`].
    start: usize,
    end: usize,
    /// The entry it waits for, counted from the searcher's first entry.
    request: usize,
    /// Whether it asked for the entry (else another simulation did).
    asked: bool,
    /// The caller's tag, handed back when it is done.
    tag: usize,
}

/// The simulations of one search that wait for evaluations.
#[derive(Clone, Debug, Default)]
pub(crate) struct InFlight {
    steps: Vec<Step>,
    waiting: Vec<Waiting>,
    /// Entries pushed since the last completion.
    requests: usize,
    /// The leaf value each entry gave, once added to the tree.
    resolved: Vec<f64>,
    logits: Vec<f32>,
}

impl InFlight {
    /// Whether no simulation waits.
    pub(crate) fn is_empty(&self) -> bool {
        self.waiting.is_empty()
    }

    /// Forgets every simulation (the tree is being dropped).
    pub(crate) fn clear(&mut self) {
        self.steps.clear();
        self.waiting.clear();
        self.requests = 0;
    }

    /// Starts one simulation from root edge `first_edge` (see
    /// [`Tree::descend`]). If its leaf needs no evaluation, it is backed up
    /// at once and its path returned; otherwise its position goes into
    /// `batch` (unless another simulation in flight already asked for it)
    /// and it waits, under `tag`, for [`complete`](InFlight::complete).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start<G, F>(
        &mut self,
        tree: &mut Tree<G::Move>,
        root_state: &G,
        state: &mut G,
        first_edge: u32,
        scratch: &mut Scratch<G::Move>,
        batch: &mut Batch<G>,
        tag: usize,
        select: F,
    ) -> Option<&[Step]>
    where
        G: ActionSpace,
        F: FnMut(&Tree<G::Move>, u32, f64) -> u32,
    {
        let start = self.waiting.last().map_or(0, |waiting| waiting.end);
        self.steps.truncate(start);
        let descent = tree.descend(
            root_state,
            state,
            first_edge,
            scratch,
            &mut self.steps,
            select,
        );
        let end = self.steps.len();
        let request = match descent {
            Descent::Known { value, completed } => {
                tree.back_up(&self.steps[start..], value, completed);
                return Some(&self.steps[start..]);
            }
            Descent::Evaluate => {
                batch.push(state, &scratch.moves);
                self.requests += 1;
                self.requests - 1
            }
            Descent::Joins(edge) => self
                .waiting
                .iter()
                .find(|waiting| waiting.asked && self.steps[waiting.end - 1].edge == edge)
                .map_or(0, |waiting| waiting.request),
        };
        tree.mark_in_flight(&self.steps[start..], 1);
        self.waiting.push(Waiting {
            start,
            end,
            request,
            asked: matches!(descent, Descent::Evaluate),
            tag,
        });
        None
    }

    /// Backs up every waiting simulation, in the order they started, with
    /// the evaluations in `batch` from entry `first` on; calls `done(tree,
    /// path, tag)` after each.
    pub(crate) fn complete<G>(
        &mut self,
        tree: &mut Tree<G::Move>,
        batch: &Batch<G>,
        first: usize,
        mut done: impl FnMut(&Tree<G::Move>, &[Step], usize),
    ) where
        G: ActionSpace,
    {
        self.resolved.clear();
        self.resolved.resize(self.requests, 0.0);
        for waiting in &self.waiting {
            let path = &self.steps[waiting.start..waiting.end];
            tree.mark_in_flight(path, -1);
            let value = if waiting.asked {
                let entry = first + waiting.request;
                self.logits.clear();
                self.logits.extend_from_slice(batch.logits(entry));
                let value = tree.add_leaf(
                    path,
                    batch.state(entry),
                    batch.moves(entry),
                    &mut self.logits,
                    batch.value(entry),
                );
                self.resolved[waiting.request] = value;
                value
            } else {
                self.resolved[waiting.request]
            };
            tree.back_up(path, value, false);
            done(tree, path, waiting.tag);
        }
        self.clear();
    }
}

/// Which limit, if any, stops a search that started at `started` and has
/// done `iterations` simulations with `nodes` tree nodes: the stop flag
/// first, then iterations, nodes and time (as
/// [`Budget::stop_reason`](game_traits::Budget::stop_reason), for a search
/// that runs step by step).
pub(crate) fn stop_reason(
    limits: &Limits,
    started: Instant,
    iterations: u64,
    nodes: u64,
) -> Option<StopReason> {
    if limits.stop_requested() {
        Some(StopReason::Stopped)
    } else if limits.iterations.is_some_and(|max| iterations >= max) {
        Some(StopReason::Iterations)
    } else if limits.nodes.is_some_and(|max| nodes >= max) {
        Some(StopReason::Nodes)
    } else if limits.time.is_some_and(|time| started.elapsed() >= time) {
        Some(StopReason::Time)
    } else {
        None
    }
}

/// `edge` as selection sees it while `count` simulations are in flight
/// through it: each adds `virtual_loss` visits that lost (a value of `-1`
/// for the player choosing the edge).
pub(crate) fn with_virtual_loss<M: Copy>(edge: &Edge<M>, count: u16, virtual_loss: u32) -> Edge<M> {
    let extra = u32::from(count) * virtual_loss;
    if extra == 0 {
        return *edge;
    }
    let visits = edge.visits + extra;
    let q = (edge.q * f64::from(edge.visits) - f64::from(extra)) / f64::from(visits);
    Edge { visits, q, ..*edge }
}
