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

    /// Whether this searcher stops on the `kind` field of [`Limits`]. A
    /// field it does not honour is ignored (see the table on [`Limits`]);
    /// the stop flag is always honoured. The default claims every field,
    /// and the testing kit's `check_limits_contract` holds a searcher to
    /// what it claims.
    fn honours(&self, kind: LimitKind) -> bool {
        let _ = kind;
        true
    }

    /// Why the last search returned no move in an unfinished position, for
    /// searchers that can fail (an engine in another process that crashed,
    /// hung or answered nonsense); `None` (the default) if it did not fail.
    /// Match runners record it with the loss.
    fn failure(&self) -> Option<String> {
        None
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

    fn honours(&self, kind: LimitKind) -> bool {
        (**self).honours(kind)
    }

    fn failure(&self) -> Option<String> {
        (**self).failure()
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

    fn honours(&self, kind: LimitKind) -> bool {
        (**self).honours(kind)
    }

    fn failure(&self) -> Option<String> {
        (**self).failure()
    }
}

/// A search budget: the search stops at whichever limit runs out first.
///
/// Build one with the constructors and chain the `with_*` methods:
///
/// ```
/// use std::time::Duration;
/// use game_traits::Limits;
///
/// let limits = Limits::iterations(10_000).with_time(Duration::from_millis(200));
/// assert_eq!(limits.iterations, Some(10_000));
/// ```
///
/// # The contract every searcher keeps
///
/// 1. **Each field means one thing.** `time` is wall-clock time for the
///    whole search (all threads); `iterations` counts simulations
///    (playouts, Gumbel or PUCT simulations), all threads together;
///    `nodes` counts the nodes a search visits (depth-first searchers) or
///    keeps in memory (tree searchers: a tree that reaches it stops the
///    search); `depth` is the nominal depth of a depth-first search in
///    plies. A searcher that has no use for a field ignores it and says so
///    through [`Searcher::honours`]; the workspace's searchers:
///
///    | searcher | time | iterations | nodes | depth |
///    |---|---|---|---|---|
///    | MCTS (`mcts-rave`) | yes | yes | tree nodes | ignored |
///    | Gumbel AlphaZero, PUCT (`gumbel-az`) | yes | yes | tree nodes | ignored |
///    | alpha-beta (`pimc-alphabeta`) | yes | ignored | nodes visited | yes |
///    | endgame solver (`bitboard-othello`) | yes | ignored | nodes visited | ignored |
///    | `RandomSearcher`, `GreedySearcher` | ignored | ignored | ignored | ignored |
///
/// 2. **The stop flag** is always honoured: setting it ends the search
///    within a few milliseconds with the best move found so far.
/// 3. **A search always ends.** When no field the searcher honours is set
///    and there is no stop flag, it runs its own *default budget*,
///    documented per searcher and never unbounded. It also ends when the
///    root is solved, when there is nothing left to search, and when it
///    reaches its memory cap. [`SearchStats::stop`] says which.
/// 4. **Memory is capped.** Every searcher that grows a tree or a table has
///    a documented cap that no combination of limits can exceed.
/// 5. **Time saturates.** A time limit too large for the clock (such as
///    [`Duration::MAX`]) means "no time limit", never an overflow.
/// 6. **The report means one thing.** [`SearchReport::value`] is the value
///    of the move returned for the player to move at the root, in `[-1,
///    1]` and never NaN; at a finished position there is no move and the
///    value is the outcome's reward.
///
/// The testing kit's `check_limits_contract` runs every single-field limit
/// on a position with one move, a finished one and a whole small game, and
/// checks all of this.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Limits {
    /// Wall-clock time for the whole search.
    pub time: Option<Duration>,
    /// Iterations (MCTS playouts, Gumbel and PUCT simulations), all threads
    /// together.
    pub iterations: Option<u64>,
    /// Nodes visited (depth-first searchers) or tree nodes kept (tree
    /// searchers).
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

    /// The value of one field, if set (`depth` widened to `u64`, `time` in
    /// whole nanoseconds, saturating).
    pub fn get(&self, kind: LimitKind) -> Option<u64> {
        match kind {
            LimitKind::Time => self
                .time
                .map(|time| u64::try_from(time.as_nanos()).unwrap_or(u64::MAX)),
            LimitKind::Iterations => self.iterations,
            LimitKind::Nodes => self.nodes,
            LimitKind::Depth => self.depth.map(u64::from),
        }
    }

    /// Whether no limit is set (the external stop flag does not count).
    pub fn is_unbounded(&self) -> bool {
        LimitKind::ALL.iter().all(|&kind| self.get(kind).is_none())
    }

    /// Whether a searcher that honours the fields for which `honours` holds
    /// has nothing to stop it but its default budget: none of those fields
    /// is set and there is no stop flag.
    ///
    /// ```
    /// use game_traits::{LimitKind, Limits};
    ///
    /// let no_depth = |kind| kind != LimitKind::Depth;
    /// assert!(Limits::depth(6).uses_default_budget(no_depth));
    /// assert!(!Limits::iterations(100).uses_default_budget(no_depth));
    /// ```
    pub fn uses_default_budget(&self, honours: impl Fn(LimitKind) -> bool) -> bool {
        self.stop.is_none()
            && LimitKind::ALL
                .iter()
                .all(|&kind| !honours(kind) || self.get(kind).is_none())
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

/// One field of [`Limits`] (the stop flag aside, which every searcher
/// honours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LimitKind {
    /// [`Limits::time`].
    Time,
    /// [`Limits::iterations`].
    Iterations,
    /// [`Limits::nodes`].
    Nodes,
    /// [`Limits::depth`].
    Depth,
}

impl LimitKind {
    /// Every field.
    pub const ALL: [LimitKind; 4] = [
        LimitKind::Time,
        LimitKind::Iterations,
        LimitKind::Nodes,
        LimitKind::Depth,
    ];

    /// The reason a search gives when this limit stopped it.
    pub fn stop_reason(self) -> StopReason {
        match self {
            LimitKind::Time => StopReason::Time,
            LimitKind::Iterations => StopReason::Iterations,
            LimitKind::Nodes => StopReason::Nodes,
            LimitKind::Depth => StopReason::Depth,
        }
    }
}

impl std::fmt::Display for LimitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitKind::Time => "time",
            LimitKind::Iterations => "iterations",
            LimitKind::Nodes => "nodes",
            LimitKind::Depth => "depth",
        })
    }
}

/// Why a search ended, reported in [`SearchStats::stop`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum StopReason {
    /// The searcher did not say (the default of [`SearchStats`]; no
    /// searcher of the workspace reports it).
    #[default]
    Unknown,
    /// The position is finished: nothing to search.
    GameOver,
    /// [`Limits::time`] ran out.
    Time,
    /// [`Limits::iterations`] were done.
    Iterations,
    /// [`Limits::nodes`] were reached.
    Nodes,
    /// [`Limits::depth`] was searched completely.
    Depth,
    /// The stop flag was set.
    Stopped,
    /// No honoured limit was set and the searcher's default budget ran out.
    DefaultBudget,
    /// The searcher's own memory cap (tree nodes, table size) was reached.
    MemoryCap,
    /// The root's value is proven exactly; more search cannot change it.
    Solved,
    /// Nothing is left to search: the whole reachable tree has been
    /// explored (without a proof), or a schedule fixed by the searcher was
    /// completed.
    Exhausted,
}

impl StopReason {
    /// Whether the search ended for a reason of its own (finished game,
    /// solved root, nothing left, memory cap) rather than a limit.
    pub fn is_natural(self) -> bool {
        matches!(
            self,
            StopReason::GameOver
                | StopReason::Solved
                | StopReason::Exhausted
                | StopReason::MemoryCap
        )
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            StopReason::Unknown => "unknown",
            StopReason::GameOver => "game over",
            StopReason::Time => "time limit",
            StopReason::Iterations => "iteration limit",
            StopReason::Nodes => "node limit",
            StopReason::Depth => "depth limit",
            StopReason::Stopped => "stop flag",
            StopReason::DefaultBudget => "default budget",
            StopReason::MemoryCap => "memory cap",
            StopReason::Solved => "solved",
            StopReason::Exhausted => "nothing left to search",
        })
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

    /// The instant the time limit runs out, if there is one the clock can
    /// represent (a limit too large to add to the start means no deadline).
    pub fn deadline(&self) -> Option<Instant> {
        self.limits
            .time
            .and_then(|time| self.started.checked_add(time))
    }

    /// Time left before the time limit, if there is one (zero once it has
    /// run out).
    pub fn remaining(&self) -> Option<Duration> {
        self.limits
            .time
            .map(|time| time.saturating_sub(self.started.elapsed()))
    }

    /// The one stop question: which limit, if any, stops a search that
    /// has done `iterations` iterations and counted `nodes` nodes. The
    /// stop flag first, then iterations, nodes and time (depth is the
    /// search's own business). It reads the clock, so fast loops ask it
    /// every so many nodes, not at every node; a search whose threads
    /// apply the counts themselves passes zeros and hears only of the flag
    /// and the clock (and of a limit of zero).
    #[inline]
    pub fn stop_reason(&self, iterations: u64, nodes: u64) -> Option<StopReason> {
        if self.limits.stop_requested() {
            Some(StopReason::Stopped)
        } else if self.limits.iterations.is_some_and(|max| iterations >= max) {
            Some(StopReason::Iterations)
        } else if self.limits.nodes.is_some_and(|max| nodes >= max) {
            Some(StopReason::Nodes)
        } else if self
            .limits
            .time
            .is_some_and(|time| self.started.elapsed() >= time)
        {
            Some(StopReason::Time)
        } else {
            None
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SearchReport<M> {
    /// The move to play; `None` only when the position is finished.
    pub best: Option<M>,
    /// The value of the move returned (`best`) for the player to move at
    /// the root, in `[-1, 1]` and never NaN; at a finished position, the
    /// outcome's reward for the player to move there.
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

    /// The report for a finished position: no move, the outcome's reward
    /// for the player to move as the value (0 if the game gives no
    /// outcome), and [`StopReason::GameOver`].
    pub fn game_over<G: Game<Move = M>>(state: &G, elapsed: Duration) -> Self {
        let value = state
            .outcome()
            .map_or(0.0, |outcome| outcome.reward(state.to_move()));
        SearchReport::new(None, value)
            .with_stats(SearchStats::new(0, 0, 0, elapsed).with_stop(StopReason::GameOver))
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
    /// Why the search ended.
    pub stop: StopReason,
}

impl SearchStats {
    /// Statistics with the given counts (and an [`Unknown`](StopReason::Unknown)
    /// stop reason; set it with [`with_stop`](SearchStats::with_stop)).
    pub fn new(iterations: u64, nodes: u64, depth: u32, elapsed: Duration) -> Self {
        SearchStats {
            iterations,
            nodes,
            depth,
            elapsed,
            stop: StopReason::Unknown,
        }
    }

    /// Sets why the search ended.
    #[must_use]
    pub fn with_stop(mut self, stop: StopReason) -> Self {
        self.stop = stop;
        self
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

    /// A field counts as honoured only if both searchers honour it.
    fn honours(&self, kind: LimitKind) -> bool {
        self.early.honours(kind) && self.late.honours(kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_stops_at_the_first_limit() {
        let limits = Limits::iterations(10).with_nodes(100);
        let budget = limits.start();
        assert_eq!(budget.stop_reason(9, 99), None);
        assert_eq!(budget.stop_reason(10, 0), Some(StopReason::Iterations));
        assert_eq!(budget.stop_reason(0, 100), Some(StopReason::Nodes));
        assert_eq!(budget.stop_reason(10, 100), Some(StopReason::Iterations));
        assert_eq!(Limits::none().start().stop_reason(u64::MAX, u64::MAX), None);
        assert!(Limits::none().is_unbounded());
        assert!(!Limits::depth(3).is_unbounded());
    }

    #[test]
    fn budget_honours_time_and_stop_flag() {
        let limits = Limits::time(Duration::ZERO);
        assert_eq!(limits.start().stop_reason(0, 0), Some(StopReason::Time));
        let limits = Limits::time(Duration::from_secs(3_600));
        assert_eq!(limits.start().stop_reason(u64::MAX, u64::MAX), None);
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits::iterations(1_000).with_stop(stop.clone());
        let budget = limits.start();
        assert_eq!(budget.stop_reason(0, 0), None);
        stop.store(true, Ordering::Relaxed);
        assert_eq!(budget.stop_reason(0, 0), Some(StopReason::Stopped));
        // The flag wins over every other limit.
        assert_eq!(budget.stop_reason(1_000, 0), Some(StopReason::Stopped));
    }
}
