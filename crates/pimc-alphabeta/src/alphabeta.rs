//! [`AlphaBeta`]: the searcher, its iterative deepening, threads and
//! report.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use game_traits::{
    Evaluator, Game, LimitKind, Limits, MoveInfo, PolicyEvaluator, PositionHash, SearchReport,
    SearchStats, Searcher, StopReason,
};

use crate::busy::Busy;
use crate::config::{AlphaBetaConfig, ConfigError, MAX_DEPTH, RootValues};
use crate::score::Score;
use crate::table::Table;
use crate::worker::{Context, HISTORY_SIZE, Iteration, RootMove, Worker};

/// Entries a search's table starts with before it grows.
const INITIAL_TABLE_ENTRIES: usize = 1 << 12;

/// Nodes a search with more threads searches on its main thread alone
/// before it starts the others: a small search would spend more on the
/// full-size table and the threads than they save.
pub(crate) const TOGETHER_FROM_NODES: u64 = 1 << 15;

/// Negamax alpha-beta for any [`Game`], valued by any [`Evaluator`].
///
/// Iterative deepening under [`Limits`] (time, nodes visited, depth and the
/// stop flag; iterations are ignored) with principal variation search,
/// aspiration windows, a transposition table for games with a hash, move
/// ordering by the table's move, killer moves, the history heuristic and an
/// optional [`PolicyEvaluator`], and lazy-SMP threads. Every setting of
/// [`AlphaBetaConfig`] returns exactly the value of plain negamax to the
/// depth searched.
///
/// Values are from the point of view of the player to move, read from
/// [`Game::to_move`] at every node: a pass or an extra turn that keeps the
/// same player to move keeps the sign. A proven win or loss is reported as
/// exactly `+1` or `-1` (faster wins and slower losses are still preferred:
/// see [`Score`] and [`AlphaBeta::analysis`]); heuristic values are the
/// evaluator's, after [`contain_value`](game_traits::contain_value).
///
/// See the [crate documentation](crate) for the algorithm and its sources.
pub struct AlphaBeta<G: Game, E> {
    evaluator: E,
    config: AlphaBetaConfig,
    hash: Option<fn(&G) -> u64>,
    policy: Option<Arc<dyn PolicyEvaluator<G>>>,
    /// Allocated at the first search.
    table: Option<Table>,
    history: Vec<u32>,
    analysis: Option<Analysis<G::Move>>,
    #[cfg(test)]
    pub(crate) broken_pruning: bool,
    #[cfg(test)]
    pub(crate) defer_all: bool,
    /// Tests: [`TOGETHER_FROM_NODES`] for this searcher (0: the threads
    /// join after the first iteration, however small the search).
    #[cfg(test)]
    pub(crate) together_from: u64,
}

/// What the last search of an [`AlphaBeta`] found, with the search's own
/// [`Score`]s (finer than the report's values: proven results keep their
/// distance).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Analysis<M> {
    /// The move chosen.
    pub best: M,
    /// Its score.
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The depth of the last completed iteration.
    pub depth: u32,
    /// Every root move with its score and whether that score is exact
    /// (otherwise an upper bound), best first.
    pub moves: Vec<AnalysedMove<M>>,
}

/// One root move in an [`Analysis`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct AnalysedMove<M> {
    /// The move.
    pub mv: M,
    /// Its score; `None` if no iteration reached it.
    pub score: Option<Score>,
    /// Whether the score is exact (otherwise an upper bound).
    pub exact: bool,
}

impl<G: PositionHash, E: Evaluator<G>> AlphaBeta<G, E> {
    /// Alpha-beta with `config`, using the game's [`PositionHash`] for the
    /// transposition table.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] if a setting is out of range (see
    /// [`AlphaBetaConfig::validate`]).
    pub fn new(evaluator: E, config: AlphaBetaConfig) -> Result<Self, ConfigError> {
        Ok(AlphaBeta::without_hash(evaluator, config)?.with_hash(G::position_hash))
    }
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    /// Alpha-beta for a game without a [`PositionHash`]: no transposition
    /// table (give one a hash with [`AlphaBeta::with_hash`]).
    ///
    /// # Errors
    ///
    /// [`ConfigError`] if a setting is out of range (see
    /// [`AlphaBetaConfig::validate`]).
    pub fn without_hash(evaluator: E, config: AlphaBetaConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(AlphaBeta {
            evaluator,
            config,
            hash: None,
            policy: None,
            table: None,
            history: vec![0; 2 * HISTORY_SIZE],
            analysis: None,
            #[cfg(test)]
            broken_pruning: false,
            #[cfg(test)]
            defer_all: false,
            #[cfg(test)]
            together_from: TOGETHER_FROM_NODES,
        })
    }

    /// Uses `hash` as the position's key in the transposition table. Two
    /// positions the rules treat alike must get the same key; positions
    /// that differ should get different ones (a collision can at worst
    /// give a wrong score, never an illegal move: table moves are checked).
    #[must_use]
    pub fn with_hash(mut self, hash: fn(&G) -> u64) -> Self {
        self.hash = Some(hash);
        self.table = None;
        self
    }

    /// Orders moves at nodes with at least
    /// [`policy_depth`](AlphaBetaConfig::policy_depth) plies left by the
    /// logits of `policy` (after the table's move and the killers).
    #[must_use]
    pub fn with_policy<P: PolicyEvaluator<G> + 'static>(mut self, policy: P) -> Self {
        self.policy = Some(Arc::new(policy));
        self
    }

    /// Sets how the root moves' values are reported (a shortcut for the
    /// setting of [`AlphaBetaConfig`] that cannot fail: a
    /// [`RootValues::Near`] margin of zero or less means
    /// [`RootValues::Bounds`], an infinite or NaN one
    /// [`RootValues::Exact`]).
    #[must_use]
    pub fn with_root_values(mut self, root_values: RootValues) -> Self {
        self.config.root_values = match root_values {
            RootValues::Near(margin) if margin.is_nan() || margin == f32::INFINITY => {
                RootValues::Exact
            }
            RootValues::Near(margin) if margin <= 0.0 => RootValues::Bounds,
            other => other,
        };
        self
    }

    /// The settings.
    pub fn config(&self) -> &AlphaBetaConfig {
        &self.config
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// What the last search found, with exact [`Score`]s; `None` before the
    /// first search and after a search of a finished position.
    pub fn analysis(&self) -> Option<&Analysis<G::Move>> {
        self.analysis.as_ref()
    }

    /// Nodes searched alone before the other threads join.
    fn together_from_nodes(&self) -> u64 {
        #[cfg(test)]
        return self.together_from;
        #[cfg(not(test))]
        TOGETHER_FROM_NODES
    }

    /// Gets the table ready for a search.
    fn prepare_table(&mut self) {
        let wanted = self.config.table_entries;
        if self.hash.is_none() || wanted == 0 {
            self.table = None;
            return;
        }
        // Every search starts alone, and small: the table grows with it
        // (to full size when other threads join).
        let start = wanted.min(INITIAL_TABLE_ENTRIES);
        match &mut self.table {
            Some(table) if table.capacity() >= start => table.new_search(),
            _ => self.table = Some(Table::new(start)),
        }
    }

    /// Grows a one-thread search's table once the search has visited more
    /// than twice as many nodes as it holds.
    fn grow_table(&mut self, nodes: u64) {
        let limit = self.config.table_entries;
        if let Some(table) = &mut self.table {
            let capacity = table.capacity();
            if nodes > 2 * capacity as u64 && capacity < limit {
                let entries = (capacity * 8).min(limit);
                *table = table.resized(entries);
            }
        }
    }
}

impl<G: Game, E: Clone> Clone for AlphaBeta<G, E> {
    /// The same searcher with fresh tables (nothing learned is copied).
    fn clone(&self) -> Self {
        AlphaBeta {
            evaluator: self.evaluator.clone(),
            config: self.config.clone(),
            hash: self.hash,
            policy: self.policy.clone(),
            table: None,
            history: vec![0; 2 * HISTORY_SIZE],
            analysis: None,
            #[cfg(test)]
            broken_pruning: self.broken_pruning,
            #[cfg(test)]
            defer_all: self.defer_all,
            #[cfg(test)]
            together_from: self.together_from,
        }
    }
}

impl<G: Game, E: std::fmt::Debug> std::fmt::Debug for AlphaBeta<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlphaBeta")
            .field("evaluator", &self.evaluator)
            .field("config", &self.config)
            .field("hashed", &self.hash.is_some())
            .field("policy", &self.policy.is_some())
            .field("table", &self.table)
            .finish()
    }
}

/// The outcome of the main thread's iterative deepening.
struct Deepening<M> {
    result: Option<Iteration<M>>,
    stop: StopReason,
}

/// The limits and depths of the threads' deepening together.
struct Together<'a> {
    limits: &'a Limits,
    deadline: Option<Instant>,
    node_cap: Option<(u64, StopReason)>,
    threads: usize,
    first_depth: u32,
    max_depth: u32,
}

/// How the main thread's deepening alone ended.
enum Alone<M> {
    /// The search is over.
    Done(Deepening<M>),
    /// The search is big enough for the other threads to join from
    /// `next_depth` on.
    Together {
        result: Option<Iteration<M>>,
        next_depth: u32,
    },
}

impl<G: Game, E: Evaluator<G>> Searcher<G> for AlphaBeta<G, E> {
    /// Iterative deepening from depth 1 to `limits.depth` (at most
    /// [`MAX_DEPTH`]), or until the time, the node limit (nodes visited,
    /// all threads together) or the stop flag ends it, or the root is
    /// solved (a proven result, or no leaf cut off by the depth).
    /// `limits.iterations` is ignored. Without any honoured limit it visits
    /// at most [`AlphaBetaConfig::default_nodes`] positions.
    ///
    /// A search cut short returns the last completed iteration's move,
    /// unless the interrupted iteration had already proven another move
    /// better at its depth (or the same move's deeper value). With
    /// `limits.depth` 0, or if not even depth 1 completes, the move is the
    /// first in the search's order, valued by the evaluator one ply down.
    ///
    /// The report has the principal variation, the completed depth, the
    /// nodes of all threads, and a value per root move: exact for the best,
    /// an upper bound for the others, unless
    /// [`RootValues::Near`](crate::RootValues::Near) or
    /// [`RootValues::Exact`](crate::RootValues::Exact) asks for more.
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        let started = Instant::now();
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        if legal.is_empty() {
            self.analysis = None;
            return SearchReport::game_over(state, started.elapsed());
        }
        let threads = self.config.threads.max(1);
        self.prepare_table();
        for value in &mut self.history {
            *value /= 4;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        let node_cap = match limits.nodes {
            Some(nodes) => Some((nodes, StopReason::Nodes)),
            None if limits.uses_default_budget(|kind| self.honours(kind)) => {
                Some((self.config.default_nodes, StopReason::DefaultBudget))
            }
            None => None,
        };
        let deadline = limits.time.and_then(|time| started.checked_add(time));
        let shared_nodes = AtomicU64::new(0);
        let done = AtomicBool::new(false);
        let history = std::mem::take(&mut self.history);
        let mut main = Worker::new(state, history, 0);
        let together_from = (threads > 1).then_some(self.together_from_nodes());
        let (alone, mut root) = self.deepen_alone(
            &mut main,
            limits,
            deadline,
            node_cap,
            max_depth,
            together_from,
            &shared_nodes,
            &done,
        );
        let deepening = match alone {
            Alone::Done(deepening) => {
                shared_nodes.store(main.nodes, Ordering::Relaxed);
                deepening
            }
            Alone::Together { result, next_depth } => {
                shared_nodes.store(main.start_shared_count(), Ordering::Relaxed);
                self.deepen_together(
                    state,
                    &mut main,
                    &mut root,
                    Together {
                        limits,
                        deadline,
                        node_cap,
                        threads,
                        first_depth: next_depth,
                        max_depth,
                    },
                    result,
                    &shared_nodes,
                    &done,
                )
            }
        };
        let nodes = shared_nodes.load(Ordering::Relaxed);
        self.history = std::mem::take(&mut main.history);
        self.report(state, deepening, &root, nodes, limits, started)
    }

    fn reset(&mut self) {
        if let Some(table) = &mut self.table {
            table.clear();
        }
        self.history.fill(0);
        self.analysis = None;
    }

    fn name(&self) -> String {
        "alpha-beta".to_string()
    }

    /// Time, nodes (visited) and depth; not iterations.
    fn honours(&self, kind: LimitKind) -> bool {
        kind != LimitKind::Iterations
    }
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    /// Iterative deepening on the main thread alone, growing the table
    /// between iterations; with `together_from`, it hands over to all
    /// threads once the search has visited that many nodes.
    #[allow(clippy::too_many_arguments)]
    fn deepen_alone(
        &mut self,
        main: &mut Worker<G>,
        limits: &Limits,
        deadline: Option<Instant>,
        node_cap: Option<(u64, StopReason)>,
        max_depth: u32,
        together_from: Option<u64>,
        shared_nodes: &AtomicU64,
        done: &AtomicBool,
    ) -> (Alone<G::Move>, Vec<RootMove<G::Move>>) {
        let mut root = {
            let context = self.context(limits, deadline, node_cap, shared_nodes, done);
            main.root_moves(&context)
        };
        let mut result = None;
        for depth in 1..=max_depth {
            let stop = {
                let context = self.context(limits, deadline, node_cap, shared_nodes, done);
                deepen_step(main, &context, &mut root, depth, &mut result)
            };
            if let Some(stop) = stop {
                return (Alone::Done(Deepening { result, stop }), root);
            }
            self.grow_table(main.nodes);
            if depth < max_depth && together_from.is_some_and(|nodes| main.nodes >= nodes) {
                return (
                    Alone::Together {
                        result,
                        next_depth: depth + 1,
                    },
                    root,
                );
            }
        }
        (
            Alone::Done(Deepening {
                result,
                stop: depth_stop(limits),
            }),
            root,
        )
    }

    /// Iterative deepening on all threads from `settings.first_depth`, the
    /// main thread going on from its deepening alone (`result`, `root`),
    /// with the table at full size and the busy positions shared.
    #[allow(clippy::too_many_arguments)]
    fn deepen_together(
        &mut self,
        state: &G,
        main: &mut Worker<G>,
        root: &mut Vec<RootMove<G::Move>>,
        settings: Together<'_>,
        result: Option<Iteration<G::Move>>,
        shared_nodes: &AtomicU64,
        done: &AtomicBool,
    ) -> Deepening<G::Move> {
        let wanted = self.config.table_entries;
        if let Some(table) = &mut self.table
            && table.capacity() < wanted
        {
            *table = table.resized(wanted);
        }
        let busy = self.hash.map(|_| Busy::new());
        let context = Context {
            threads: settings.threads,
            busy: busy.as_ref(),
            ..self.context(
                settings.limits,
                settings.deadline,
                settings.node_cap,
                shared_nodes,
                done,
            )
        };
        let (first, last) = (settings.first_depth, settings.max_depth);
        std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..settings.threads)
                .map(|helper| {
                    let context = &context;
                    scope.spawn(move || {
                        let mut worker = Worker::new(state, vec![0; 2 * HISTORY_SIZE], helper);
                        let mut root = worker.root_moves(context);
                        deepen(&mut worker, context, &mut root, first, last, None);
                        worker.flush(context);
                    })
                })
                .collect();
            let deepening = deepen(main, &context, root, first, last, result);
            main.flush(&context);
            done.store(true, Ordering::Relaxed);
            for helper in helpers {
                // A helper that panicked only cost its share of work.
                let _ = helper.join();
            }
            deepening
        })
    }

    /// What one thread of a search needs; with more threads, the caller
    /// sets `threads` and `busy`.
    fn context<'a>(
        &'a self,
        limits: &'a Limits,
        deadline: Option<Instant>,
        node_cap: Option<(u64, StopReason)>,
        nodes: &'a AtomicU64,
        done: &'a AtomicBool,
    ) -> Context<'a, G, E> {
        Context {
            evaluator: &self.evaluator,
            policy: self.policy.as_deref(),
            hash: self.hash,
            table: self.table.as_ref(),
            config: &self.config,
            limits,
            deadline,
            node_cap,
            nodes,
            threads: 1,
            done,
            busy: None,
            #[cfg(test)]
            broken_pruning: self.broken_pruning,
            #[cfg(test)]
            defer_all: self.defer_all,
        }
    }

    /// Builds the report (and the analysis) from the deepening's result.
    fn report(
        &mut self,
        state: &G,
        deepening: Deepening<G::Move>,
        root: &[RootMove<G::Move>],
        nodes: u64,
        limits: &Limits,
        started: Instant,
    ) -> SearchReport<G::Move> {
        let mut stop = deepening.stop;
        let iteration = match deepening.result {
            Some(iteration) => iteration,
            None => {
                if limits.depth == Some(0) {
                    stop = StopReason::Depth;
                }
                self.one_ply(state, root)
            }
        };
        let best = iteration.root[iteration.best].mv;
        let value = iteration.score.value();
        let mut moves: Vec<MoveInfo<G::Move>> = Vec::with_capacity(iteration.root.len());
        let mut analysed = Vec::with_capacity(iteration.root.len());
        // Best first, then the others in the order of the last iteration.
        let ordered = std::iter::once(&iteration.root[iteration.best]).chain(
            iteration
                .root
                .iter()
                .enumerate()
                .filter(|&(index, _)| index != iteration.best)
                .map(|(_, root_move)| root_move),
        );
        for root_move in ordered {
            let mut info = MoveInfo::new(root_move.mv);
            let known = root_move.score > -Score::INFINITE;
            if root_move.mv == best {
                info = info.with_value(value);
            } else if known {
                info = info.with_value(root_move.score.value());
            }
            moves.push(info);
            analysed.push(AnalysedMove {
                mv: root_move.mv,
                score: known.then_some(root_move.score),
                exact: known && root_move.exact,
            });
        }
        let mut pv = iteration.pv.clone();
        if pv.first() != Some(&best) {
            pv = vec![best];
        }
        self.analysis = Some(Analysis {
            best,
            score: iteration.score,
            pv: pv.clone(),
            depth: iteration.depth,
            moves: analysed,
        });
        SearchReport::new(Some(best), value)
            .with_pv(pv)
            .with_moves(moves)
            .with_stats(
                SearchStats::new(0, nodes, iteration.depth, started.elapsed()).with_stop(stop),
            )
    }

    /// The first move of the search's order, valued by the evaluator one
    /// ply down: the answer when not even depth 1 completed.
    fn one_ply(&self, state: &G, root: &[RootMove<G::Move>]) -> Iteration<G::Move> {
        let mv = root[0].mv;
        let mut child = state.clone();
        child.play(mv);
        let score = match child.outcome() {
            Some(outcome) => Score::terminal(outcome.reward(child.to_move()), 1),
            None => Score::heuristic(self.evaluator.value(&child)),
        };
        let score = if child.to_move() == state.to_move() {
            score
        } else {
            -score
        };
        let mut root = root.to_vec();
        for root_move in &mut root {
            root_move.score = -Score::INFINITE;
            root_move.exact = false;
        }
        root[0].score = score;
        root[0].exact = true;
        Iteration {
            depth: 0,
            best: 0,
            score,
            pv: vec![mv],
            root,
            cut: true,
        }
    }
}

/// What one iteration came to.
enum Step<M> {
    Completed(Iteration<M>),
    /// Stopped; holds the partial result when it soundly improves on the
    /// previous iteration.
    Stopped(Option<Iteration<M>>),
}

/// One iteration of depth `depth` at the root, with aspiration windows
/// around the previous iteration's score.
fn iterate<G: Game, E: Evaluator<G>>(
    worker: &mut Worker<G>,
    context: &Context<'_, G, E>,
    root: &mut Vec<RootMove<G::Move>>,
    depth: u32,
    previous: Option<&Iteration<G::Move>>,
) -> Step<G::Move> {
    let exact_values = context.config.root_values == RootValues::Exact;
    let mut width = context.config.aspiration_window.unwrap_or(0.0);
    let (mut alpha, mut beta) = match previous {
        Some(previous) if width > 0.0 && !exact_values => (
            previous.score.widened(width, false),
            previous.score.widened(width, true),
        ),
        _ => (-Score::INFINITE, Score::INFINITE),
    };
    loop {
        let mut partial = None;
        let searched = worker.search_root(context, root, depth, alpha, beta, &mut partial);
        let Some((score, cut, best)) = searched else {
            let partial = partial.map(|(best, score, pv)| Iteration {
                depth: previous.map_or(0, |previous| previous.depth),
                best,
                score,
                pv,
                root: merged_root(root, previous),
                cut: true,
            });
            return Step::Stopped(partial);
        };
        if score <= alpha && alpha > -Score::INFINITE {
            width *= 4.0;
            alpha = score.widened(width, false);
            continue;
        }
        if score >= beta && beta < Score::INFINITE {
            width *= 4.0;
            beta = score.widened(width, true);
            continue;
        }
        // The next iteration tries the best move first, then the others by
        // their scores (stable, so ties keep their order).
        let best_move = root.remove(best);
        root.insert(0, best_move);
        root[1..].sort_by_key(|root_move| std::cmp::Reverse(root_move.score));
        return Step::Completed(Iteration {
            depth,
            best: 0,
            score,
            pv: worker.root_pv().to_vec(),
            root: root.clone(),
            cut,
        });
    }
}

/// The root moves with the scores of the interrupted iteration where it
/// reached them and those of the previous iteration elsewhere.
fn merged_root<M: Copy + PartialEq>(
    root: &[RootMove<M>],
    previous: Option<&Iteration<M>>,
) -> Vec<RootMove<M>> {
    root.iter()
        .map(|root_move| {
            if root_move.searched {
                root_move.clone()
            } else {
                previous
                    .and_then(|previous| previous.root.iter().find(|old| old.mv == root_move.mv))
                    .cloned()
                    .unwrap_or_else(|| RootMove {
                        score: -Score::INFINITE,
                        exact: false,
                        ..root_move.clone()
                    })
            }
        })
        .collect()
}

/// Iterative deepening for a thread of a multi-threaded search, from
/// `first_depth` on, after the iterations that gave `result` (the main
/// thread's result is the search's).
fn deepen<G: Game, E: Evaluator<G>>(
    worker: &mut Worker<G>,
    context: &Context<'_, G, E>,
    root: &mut Vec<RootMove<G::Move>>,
    first_depth: u32,
    max_depth: u32,
    mut result: Option<Iteration<G::Move>>,
) -> Deepening<G::Move> {
    for depth in first_depth..=max_depth {
        if let Some(stop) = deepen_step(worker, context, root, depth, &mut result) {
            return Deepening { result, stop };
        }
    }
    Deepening {
        result,
        stop: depth_stop(context.limits),
    }
}

/// Runs the iteration of depth `depth` and keeps its result; returns why
/// the deepening ends, if it does (solved, or stopped by a limit).
fn deepen_step<G: Game, E: Evaluator<G>>(
    worker: &mut Worker<G>,
    context: &Context<'_, G, E>,
    root: &mut Vec<RootMove<G::Move>>,
    depth: u32,
    result: &mut Option<Iteration<G::Move>>,
) -> Option<StopReason> {
    match iterate(worker, context, root, depth, result.as_ref()) {
        Step::Completed(iteration) => {
            // With exact root values, every root move must be proven, not
            // only the best.
            let proven = if context.config.root_values == RootValues::Exact {
                iteration
                    .root
                    .iter()
                    .all(|root_move| root_move.score.is_proven())
            } else {
                iteration.score.is_proven()
            };
            let solved = proven || !iteration.cut;
            *result = Some(iteration);
            solved.then_some(StopReason::Solved)
        }
        Step::Stopped(partial) => {
            if partial.is_some() {
                *result = partial;
            }
            Some(worker.stopped.unwrap_or(StopReason::Stopped))
        }
    }
}

/// Why a deepening that went through every depth ended.
fn depth_stop(limits: &Limits) -> StopReason {
    if limits.depth.is_some() {
        StopReason::Depth
    } else {
        StopReason::Exhausted
    }
}
