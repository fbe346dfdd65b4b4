//! The [`Searcher`] trait, its budget ([`Limits`]) and its answer
//! ([`SearchReport`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::Game;

/// An algorithm that picks a move.
///
/// Searchers are plain generic structs in the hot path; `Box<dyn
/// Searcher<G>>` works too (the trait is object safe), which tournaments use
/// to mix searchers of different types.
pub trait Searcher<G: Game> {
    /// Searches `state` within `limits` and reports the best move found.
    ///
    /// At a finished position the report has no best move. A search with
    /// every limit unset uses the searcher's own default budget, documented
    /// by each searcher.
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move>;

    /// Tells the searcher that `played` was played in the position it last
    /// searched (or last advanced to), by either player. Searchers that keep
    /// a tree move their root to the matching subtree so the next search
    /// starts warm; the default does nothing.
    fn advance(&mut self, _played: G::Move) {}

    /// Forgets everything kept from earlier searches (trees, tables), as
    /// before a new game.
    fn reset(&mut self) {}

    /// A short name for match records and tables.
    fn name(&self) -> String {
        "searcher".to_string()
    }
}

impl<G: Game, S: Searcher<G> + ?Sized> Searcher<G> for Box<S> {
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        (**self).search(state, limits)
    }

    fn advance(&mut self, played: G::Move) {
        (**self).advance(played);
    }

    fn reset(&mut self) {
        (**self).reset();
    }

    fn name(&self) -> String {
        (**self).name()
    }
}

impl<G: Game, S: Searcher<G> + ?Sized> Searcher<G> for &mut S {
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        (**self).search(state, limits)
    }

    fn advance(&mut self, played: G::Move) {
        (**self).advance(played);
    }

    fn reset(&mut self) {
        (**self).reset();
    }

    fn name(&self) -> String {
        (**self).name()
    }
}

/// A search budget: the search stops at whichever limit runs out first.
///
/// Unset fields do not limit. Build one with the constructors and chain the
/// `with_*` methods:
///
/// ```
/// use std::time::Duration;
/// use game_traits::Limits;
///
/// let limits = Limits::iterations(10_000).with_time(Duration::from_millis(200));
/// assert_eq!(limits.iterations, Some(10_000));
/// ```
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Limits {
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Iterations (MCTS playouts, Gumbel simulations).
    pub iterations: Option<u64>,
    /// Nodes visited (alpha-beta) or tree nodes allocated (MCTS memory cap).
    pub nodes: Option<u64>,
    /// Search depth in plies (alpha-beta, iterative deepening).
    pub depth: Option<u32>,
    /// Set from another thread to stop the search early; the search returns
    /// its best move so far.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub stop: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// No limit at all: each searcher applies its own default budget.
    pub fn none() -> Self {
        Limits::default()
    }

    /// At most `time` of wall-clock time.
    pub fn time(time: Duration) -> Self {
        Limits::default().with_time(time)
    }

    /// At most `iterations` iterations.
    pub fn iterations(iterations: u64) -> Self {
        Limits::default().with_iterations(iterations)
    }

    /// At most `nodes` nodes.
    pub fn nodes(nodes: u64) -> Self {
        Limits::default().with_nodes(nodes)
    }

    /// At most `depth` plies deep.
    pub fn depth(depth: u32) -> Self {
        Limits::default().with_depth(depth)
    }

    /// Also limits the wall-clock time.
    #[must_use]
    pub fn with_time(mut self, time: Duration) -> Self {
        self.time = Some(time);
        self
    }

    /// Also limits the number of iterations.
    #[must_use]
    pub fn with_iterations(mut self, iterations: u64) -> Self {
        self.iterations = Some(iterations);
        self
    }

    /// Also limits the number of nodes.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Self {
        self.nodes = Some(nodes);
        self
    }

    /// Also limits the depth.
    #[must_use]
    pub fn with_depth(mut self, depth: u32) -> Self {
        self.depth = Some(depth);
        self
    }

    /// Also stops when `stop` becomes `true`.
    #[must_use]
    pub fn with_stop(mut self, stop: Arc<AtomicBool>) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Whether no limit is set (the external stop flag does not count).
    pub fn is_unbounded(&self) -> bool {
        self.time.is_none()
            && self.iterations.is_none()
            && self.nodes.is_none()
            && self.depth.is_none()
    }

    /// Whether the external stop flag is set.
    #[inline]
    pub fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// Starts the clock on these limits.
    pub fn start(&self) -> Budget<'_> {
        Budget {
            limits: self,
            started: Instant::now(),
        }
    }
}

/// [`Limits`] with a running clock: asks whether a search must stop.
#[derive(Clone, Debug)]
pub struct Budget<'a> {
    limits: &'a Limits,
    started: Instant,
}

impl Budget<'_> {
    /// The limits being tracked.
    pub fn limits(&self) -> &Limits {
        self.limits
    }

    /// When the clock started.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// Time since the clock started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The instant the time limit runs out, if there is one.
    pub fn deadline(&self) -> Option<Instant> {
        self.limits.time.map(|time| self.started + time)
    }

    /// Whether the time limit has run out or a stop was requested. Reads the
    /// clock: call it every so many nodes, not at every node, in fast loops.
    #[inline]
    pub fn time_up(&self) -> bool {
        self.limits.stop_requested()
            || self
                .limits
                .time
                .is_some_and(|time| self.started.elapsed() >= time)
    }

    /// Whether a search that has done `iterations` iterations and visited
    /// `nodes` nodes must stop now (any limit but depth, which the search
    /// itself applies).
    #[inline]
    pub fn exhausted(&self, iterations: u64, nodes: u64) -> bool {
        self.limits.iterations.is_some_and(|max| iterations >= max)
            || self.limits.nodes.is_some_and(|max| nodes >= max)
            || self.time_up()
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SearchReport<M> {
    /// The move to play; `None` only when the position is finished.
    pub best: Option<M>,
    /// The value of the searched position for the player to move there, in
    /// `[-1, 1]`.
    pub value: f32,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// What the search learned about each root move (order is the
    /// searcher's; empty if it keeps no per-move statistics).
    pub moves: Vec<MoveInfo<M>>,
    /// Effort spent.
    pub stats: SearchStats,
}

impl<M> SearchReport<M> {
    /// A report with `best` and `value` and nothing else.
    pub fn new(best: Option<M>, value: f32) -> Self {
        SearchReport {
            best,
            value,
            pv: Vec::new(),
            moves: Vec::new(),
            stats: SearchStats::default(),
        }
    }

    /// Sets the principal variation.
    #[must_use]
    pub fn with_pv(mut self, pv: Vec<M>) -> Self {
        self.pv = pv;
        self
    }

    /// Sets the per-move statistics.
    #[must_use]
    pub fn with_moves(mut self, moves: Vec<MoveInfo<M>>) -> Self {
        self.moves = moves;
        self
    }

    /// Sets the statistics.
    #[must_use]
    pub fn with_stats(mut self, stats: SearchStats) -> Self {
        self.stats = stats;
        self
    }
}

/// What a search learned about one root move. Searchers fill the fields
/// that mean something to them and leave the others `None`/zero.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MoveInfo<M> {
    /// The move.
    pub mv: M,
    /// Visits (MCTS, Gumbel) or 0.
    pub visits: u64,
    /// Value of the move for the player to move at the root (mean backed-up
    /// value, or an alpha-beta score), if known.
    pub value: Option<f32>,
    /// Prior probability from a policy evaluator, if any.
    pub prior: Option<f32>,
    /// Improved policy (a training target, as Gumbel AlphaZero gives), if
    /// any.
    pub policy: Option<f32>,
    /// AMAF (all-moves-as-first) value for the player to move at the root,
    /// if the searcher keeps one.
    pub amaf_value: Option<f32>,
}

impl<M> MoveInfo<M> {
    /// Information on `mv` with every statistic empty.
    pub fn new(mv: M) -> Self {
        MoveInfo {
            mv,
            visits: 0,
            value: None,
            prior: None,
            policy: None,
            amaf_value: None,
        }
    }

    /// Sets the visit count.
    #[must_use]
    pub fn with_visits(mut self, visits: u64) -> Self {
        self.visits = visits;
        self
    }

    /// Sets the value.
    #[must_use]
    pub fn with_value(mut self, value: f32) -> Self {
        self.value = Some(value);
        self
    }

    /// Sets the prior probability.
    #[must_use]
    pub fn with_prior(mut self, prior: f32) -> Self {
        self.prior = Some(prior);
        self
    }

    /// Sets the improved policy.
    #[must_use]
    pub fn with_policy(mut self, policy: f32) -> Self {
        self.policy = Some(policy);
        self
    }

    /// Sets the AMAF value.
    #[must_use]
    pub fn with_amaf_value(mut self, amaf_value: f32) -> Self {
        self.amaf_value = Some(amaf_value);
        self
    }
}

/// Effort a search spent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SearchStats {
    /// Iterations (playouts, simulations); 0 for depth-first searchers.
    pub iterations: u64,
    /// Nodes visited or allocated.
    pub nodes: u64,
    /// Depth reached (completed iteration of iterative deepening, or the
    /// deepest tree node).
    pub depth: u32,
    /// Wall-clock time spent.
    pub elapsed: Duration,
}

impl SearchStats {
    /// Statistics with the given counts.
    pub fn new(iterations: u64, nodes: u64, depth: u32, elapsed: Duration) -> Self {
        SearchStats {
            iterations,
            nodes,
            depth,
            elapsed,
        }
    }
}

/// Hands a position to one of two searchers by a predicate: `late` where
/// `use_late(state)` holds, `early` elsewhere. For example an exact endgame
/// solver for the last 20 empty squares and MCTS before.
///
/// Both searchers hear every [`advance`](Searcher::advance), so either can
/// keep its tree.
#[derive(Clone, Debug)]
pub struct Handover<A, B, F> {
    early: A,
    late: B,
    use_late: F,
}

impl<A, B, F> Handover<A, B, F> {
    /// Uses `late` where `use_late(state)` is true and `early` elsewhere.
    pub fn new(early: A, late: B, use_late: F) -> Self {
        Handover {
            early,
            late,
            use_late,
        }
    }

    /// The searcher used where the predicate is false.
    pub fn early(&mut self) -> &mut A {
        &mut self.early
    }

    /// The searcher used where the predicate is true.
    pub fn late(&mut self) -> &mut B {
        &mut self.late
    }
}

impl<G, A, B, F> Searcher<G> for Handover<A, B, F>
where
    G: Game,
    A: Searcher<G>,
    B: Searcher<G>,
    F: FnMut(&G) -> bool,
{
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        if (self.use_late)(state) {
            self.late.search(state, limits)
        } else {
            self.early.search(state, limits)
        }
    }

    fn advance(&mut self, played: G::Move) {
        self.early.advance(played);
        self.late.advance(played);
    }

    fn reset(&mut self) {
        self.early.reset();
        self.late.reset();
    }

    fn name(&self) -> String {
        format!("{}+{}", self.early.name(), self.late.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_stops_at_the_first_limit() {
        let limits = Limits::iterations(10).with_nodes(100);
        let budget = limits.start();
        assert!(!budget.exhausted(9, 99));
        assert!(budget.exhausted(10, 0));
        assert!(budget.exhausted(0, 100));
        assert!(!Limits::none().start().exhausted(u64::MAX, u64::MAX));
        assert!(Limits::none().is_unbounded());
        assert!(!Limits::depth(3).is_unbounded());
    }

    #[test]
    fn budget_honours_time_and_stop_flag() {
        let limits = Limits::time(Duration::ZERO);
        assert!(limits.start().time_up());
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits::iterations(1_000).with_stop(stop.clone());
        let budget = limits.start();
        assert!(!budget.time_up());
        stop.store(true, Ordering::Relaxed);
        assert!(budget.time_up());
        assert!(budget.exhausted(0, 0));
    }
}
