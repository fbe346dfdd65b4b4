//! The searcher: configuration, tree reuse between moves, threads and the
//! report.

use std::fmt;

use game_traits::{
    ActionSpace, BatchEvaluator, Budget, Evaluator, Game, LimitKind, Limits, MoveInfo,
    OutcomeEvaluator, Playout, PositionHash, SearchReport, SearchStats, Searcher, StopReason,
    UniformPlayout, zobrist,
};

use crate::config::{ConfigError, LeafEvaluation, MctsConfig, StatsSync};
use crate::leaf::{BatchValues, one_by_one, whole};
use crate::policy::{Rave, TreePolicy, Uct};
use crate::shared_tree::{
    AmafStats, Cells, EXPANDED, EXPANDING, LEAF, LockFree, Locked, NodeStats, SharedTree,
    VisitCountError,
};
use crate::shared_worker::{Shared, SharedWorker, mark_terminal};
use crate::tree::Proof;
use crate::worker::{Context, Ended, Share, Worker, exact, run_workers};

/// Monte-Carlo tree search over any [`Game`].
///
/// * `T`: the [`TreePolicy`], [`Uct`] (any game) or [`Rave`] (games with an
///   [`ActionSpace`]).
/// * `P`: the [`Playout`] policy that plays out new leaves
///   ([`UniformPlayout`] by default), through [`Playout::play_out`], so a
///   game's specialised playout loop is used where it has one. Each thread
///   gets its own clone.
/// * `E`: the [`Evaluator`] used where playouts stop early
///   ([`LeafEvaluation`](crate::LeafEvaluation)); [`OutcomeEvaluator`] (0
///   for unfinished positions) by default. A [`BatchEvaluator`] such as a
///   network goes in through [`BatchValues`] ([`Mcts::with_batch_evaluator`]).
///
/// See the [crate documentation](crate) for the algorithm.
pub struct Mcts<G: Game, T = Uct, P = UniformPlayout, E = OutcomeEvaluator> {
    config: MctsConfig,
    policy: T,
    playout: P,
    evaluator: E,
    /// One per thread, each in its own allocation so that threads do not
    /// write to the same cache lines.
    workers: Vec<Box<Worker<G, P>>>,
    /// The position at the roots of the kept trees, if any.
    root: Option<G>,
    /// Whether a searched position is the kept root.
    same_position: fn(&G, &G) -> bool,
    /// The tree all threads share ([`MctsConfig::shares_tree`]).
    shared: Option<SharedTrees<G::Move>>,
    /// The threads working on it.
    shared_workers: Vec<Box<SharedWorker<G, P>>>,
    /// How a batch of leaves is valued: one at a time, or in one call
    /// ([`Mcts::with_batch_evaluator`]).
    batch_values: fn(&E, &mut game_traits::Batch<G>),
}

/// A shared tree with either kind of synchronisation.
enum SharedTrees<M> {
    LockFree(SharedTree<M, LockFree>),
    Locked(SharedTree<M, Locked>),
}

/// Runs `$body` with `$tree` bound to the shared tree, whichever its kind.
macro_rules! with_tree {
    ($trees:expr, $tree:ident => $body:expr) => {
        match $trees {
            SharedTrees::LockFree($tree) => $body,
            SharedTrees::Locked($tree) => $body,
        }
    };
}

impl<M: Copy + PartialEq> SharedTrees<M> {
    fn new(sync: StatsSync, capacity: usize, amaf: bool, num_actions: usize) -> Self {
        match sync {
            StatsSync::Mutex => SharedTrees::Locked(SharedTree::new(capacity, amaf, num_actions)),
            _ => SharedTrees::LockFree(SharedTree::new(capacity, amaf, num_actions)),
        }
    }

    fn len(&self) -> usize {
        with_tree!(self, tree => tree.len())
    }

    fn memory_bytes(&self) -> usize {
        with_tree!(self, tree => tree.memory_bytes())
    }

    fn num_actions(&self) -> usize {
        with_tree!(self, tree => tree.num_actions)
    }

    fn root_visits(&self) -> u64 {
        with_tree!(self, tree => if tree.is_empty() { 0 } else { u64::from(tree.node(0).stats.read().visits) })
    }

    fn subtree(&self, mv: M) -> Option<Self> {
        match self {
            SharedTrees::LockFree(tree) => tree.subtree(mv).map(SharedTrees::LockFree),
            SharedTrees::Locked(tree) => tree.subtree(mv).map(SharedTrees::Locked),
        }
    }

    /// The root's children as the report needs them.
    fn root_moves(&self) -> Vec<RootMove<M>> {
        with_tree!(self, tree => shared_root_moves(tree))
    }

    /// `best`, then the most visited child below it, and so on.
    fn principal_variation(&self, best: M) -> Vec<M> {
        with_tree!(self, tree => {
            let mut pv = vec![best];
            if let Some(mut node) = tree.child(0, best) {
                while let Some(child) = tree.most_visited_child(node) {
                    pv.push(tree.node(child).mv());
                    node = child;
                }
            }
            pv
        })
    }
}

fn shared_root_moves<M: Copy + PartialEq, C: Cells>(tree: &SharedTree<M, C>) -> Vec<RootMove<M>> {
    tree.node(0)
        .children()
        .map(|child| {
            let node = tree.node(child);
            let stats = node.stats.read();
            let (proof, proof_plies) = node.proof();
            let (amaf_visits, amaf_sum) = if tree.has_amaf() {
                tree.amaf(child).stats.read()
            } else {
                (0, 0.0)
            };
            RootMove {
                mv: node.mv(),
                visits: u64::from(stats.visits),
                value_sum: f64::from(stats.mean) * f64::from(stats.visits),
                amaf_visits: u64::from(amaf_visits),
                amaf_sum: f64::from(amaf_sum),
                proof,
                proof_plies,
            }
        })
        .collect()
}

/// Makes sure the shared tree has an expanded root for `root`, which has
/// `moves`; returns `false` if its children do not fit (a kept tree that
/// is full).
fn prepare_shared_root<G, T, E, C>(
    tree: &SharedTree<G::Move, C>,
    root: &G,
    moves: &[G::Move],
    ctx: &Context<'_, T, E>,
) -> bool
where
    G: Game,
    T: TreePolicy<G>,
    C: Cells,
{
    if tree.is_empty() {
        tree.set_root(moves[0], root.to_move().opponent());
    }
    let top = tree.node(0);
    if top.kind.load(std::sync::atomic::Ordering::Acquire) != EXPANDED {
        // No other thread runs yet.
        top.kind
            .store(EXPANDING, std::sync::atomic::Ordering::Relaxed);
        // The root's children always get their block, whatever the cap.
        let Some(first) = tree.allocate(moves.len(), usize::MAX) else {
            top.kind.store(LEAF, std::sync::atomic::Ordering::Relaxed);
            return false;
        };
        let mover = root.to_move();
        let base = mover.index() * ctx.num_actions;
        tree.expand(0, first, moves, mover, |mv| {
            (base + ctx.policy.action_index(root, mv)) as u32
        });
    }
    if top.proof().0 == Proof::Unknown {
        // The root's children that end the game at once are proven now, so
        // that an immediate win is found before any iteration.
        let mut child_state = root.clone();
        for child in top.children() {
            let node = tree.node(child);
            if node.kind.load(std::sync::atomic::Ordering::Relaxed) != LEAF
                || node.proof().0 != Proof::Unknown
            {
                continue;
            }
            child_state.clone_from(root);
            child_state.play(node.mv());
            if child_state.outcome().is_some() {
                mark_terminal(tree, child, exact(&child_state));
            }
        }
        let (proof, plies) = tree.solve(0);
        top.prove(proof, plies);
    }
    true
}

/// Runs `workers` on the shared `tree`, the first on this thread.
fn run_shared_threads<G, P, T, E, C>(
    workers: &mut [Box<SharedWorker<G, P>>],
    state: &G,
    context: &Context<'_, T, E>,
    tree: &SharedTree<G::Move, C>,
    shared: &Shared,
    values: fn(&E, &mut game_traits::Batch<G>),
    budget: &Budget<'_>,
) -> Vec<(u64, Ended)>
where
    G: Game,
    P: Playout<G> + Send,
    T: TreePolicy<G>,
    E: Evaluator<G>,
    C: Cells,
{
    run_workers(workers, |_, worker| {
        worker.run(state, context, tree, shared, values, budget)
    })
}

impl<G: Game> Mcts<G> {
    /// Plain UCT with uniformly random playouts: works for every game.
    ///
    /// # Errors
    ///
    /// Returns [`ConfigError`] if a setting is out of range.
    pub fn uct(config: MctsConfig) -> Result<Self, ConfigError> {
        Mcts::with_parts(config, Uct, UniformPlayout, OutcomeEvaluator)
    }
}

impl<G: ActionSpace> Mcts<G, Rave> {
    /// UCT with RAVE (uniformly random playouts).
    ///
    /// # Errors
    ///
    /// Returns [`ConfigError`] if a setting or the RAVE parameter is out of
    /// range.
    pub fn rave(config: MctsConfig, rave: Rave) -> Result<Self, ConfigError> {
        rave.validate()?;
        Mcts::with_parts(config, rave, UniformPlayout, OutcomeEvaluator)
    }
}

impl<G, T, P, E> Mcts<G, T, P, E>
where
    G: Game,
    T: TreePolicy<G>,
    P: Playout<G> + Clone + Send,
    E: Evaluator<G>,
{
    /// A search from all its parts.
    ///
    /// # Errors
    ///
    /// Returns [`ConfigError`] if a setting is out of range.
    pub fn with_parts(
        config: MctsConfig,
        policy: T,
        playout: P,
        evaluator: E,
    ) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Mcts {
            config,
            policy,
            playout,
            evaluator,
            workers: Vec::new(),
            root: None,
            same_position: same_position::<G>,
            shared: None,
            shared_workers: Vec::new(),
            batch_values: one_by_one::<G, E>,
        })
    }

    /// The same search with another playout policy (trees are dropped).
    pub fn with_playout<Q: Playout<G> + Clone + Send>(self, playout: Q) -> Mcts<G, T, Q, E> {
        Mcts {
            config: self.config,
            policy: self.policy,
            playout,
            evaluator: self.evaluator,
            workers: Vec::new(),
            root: None,
            same_position: self.same_position,
            shared: None,
            shared_workers: Vec::new(),
            batch_values: self.batch_values,
        }
    }

    /// The same search with another evaluator (trees are dropped).
    ///
    /// An evaluator given is an evaluator used: if leaves were valued by
    /// playouts alone ([`LeafEvaluation::Playout`], the default), they are
    /// now valued by the evaluator ([`LeafEvaluation::Evaluator`]). A
    /// [`LeafEvaluation::PlayoutCutoff`] is kept. For playouts to the end
    /// that only fall back on the evaluator at
    /// [`MctsConfig::max_playout_plies`], use [`Mcts::with_parts`].
    pub fn with_evaluator<F: Evaluator<G>>(self, evaluator: F) -> Mcts<G, T, P, F> {
        let mut config = self.config;
        if config.leaf == LeafEvaluation::Playout {
            config.leaf = LeafEvaluation::Evaluator;
        }
        Mcts {
            config,
            policy: self.policy,
            playout: self.playout,
            evaluator,
            workers: Vec::new(),
            root: None,
            same_position: self.same_position,
            shared: None,
            shared_workers: Vec::new(),
            batch_values: one_by_one::<G, F>,
        }
    }

    /// The same search with a [`BatchEvaluator`] (a network, say) valuing
    /// its leaves (trees are dropped). As with
    /// [`with_evaluator`](Mcts::with_evaluator), leaves valued by playouts
    /// alone are now valued by the evaluator. With
    /// [`MctsConfig::batch_size`] above 1, each thread collects that many
    /// leaves (with virtual loss) and evaluates them in one call.
    pub fn with_batch_evaluator<B: BatchEvaluator<G>>(
        self,
        evaluator: B,
    ) -> Mcts<G, T, P, BatchValues<B>> {
        let mut config = self.config;
        if config.leaf == LeafEvaluation::Playout {
            config.leaf = LeafEvaluation::Evaluator;
        }
        Mcts {
            config,
            policy: self.policy,
            playout: self.playout,
            evaluator: BatchValues(evaluator),
            workers: Vec::new(),
            root: None,
            same_position: self.same_position,
            shared: None,
            shared_workers: Vec::new(),
            batch_values: whole::<G, B>,
        }
    }

    /// Replaces the test that decides whether the position given to
    /// [`search`](Searcher::search) is the root of the kept trees (by
    /// default: same player to move, same legal moves, same `Debug` form).
    /// Games whose `Debug` form does not tell positions apart need a
    /// stronger one, such as [`same_hash`](crate::same_hash) for games with
    /// a [`PositionHash`](game_traits::PositionHash).
    #[must_use]
    pub fn with_root_check(mut self, same_position: fn(&G, &G) -> bool) -> Self {
        self.same_position = same_position;
        self
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// The tree policy.
    pub fn policy(&self) -> &T {
        &self.policy
    }

    /// Nodes currently kept, all threads together.
    pub fn tree_nodes(&self) -> usize {
        self.workers
            .iter()
            .map(|worker| worker.tree.len())
            .sum::<usize>()
            + self.shared.as_ref().map_or(0, SharedTrees::len)
    }

    /// Bytes the kept trees hold reserved (nodes and AMAF statistics, all
    /// threads): never more than [`MctsConfig::max_nodes`] nodes' worth,
    /// or a root's children if those alone are more.
    pub fn memory_bytes(&self) -> usize {
        self.workers
            .iter()
            .map(|worker| {
                worker.tree.nodes.capacity() * crate::node_bytes::<G::Move>()
                    + worker.tree.amaf.capacity() * crate::AMAF_BYTES
            })
            .sum::<usize>()
            + self.shared.as_ref().map_or(0, SharedTrees::memory_bytes)
    }

    /// Visits of the root of the kept trees, all threads together (0
    /// without a tree). After [`advance`](Searcher::advance) this shows how
    /// much of the earlier search was kept.
    pub fn root_visits(&self) -> u64 {
        self.workers
            .iter()
            .filter(|worker| !worker.tree.is_empty())
            .map(|worker| u64::from(worker.tree.nodes[0].visits))
            .sum::<u64>()
            + self.shared.as_ref().map_or(0, SharedTrees::root_visits)
    }

    /// Checks that the visits of the shared tree add up, as after every
    /// search they must whatever the threads' interleaving: nothing left
    /// in flight, and each expanded node one visit more than its children
    /// together (at least that once proven, since simulations stop at a
    /// proven node; a root expanded before its first simulation has
    /// exactly its children's visits). Trees of root parallelism are not shared and are not
    /// checked.
    ///
    /// # Errors
    ///
    /// Returns the first node found whose visits do not add up.
    pub fn check_visit_counts(&self) -> Result<(), VisitCountError> {
        self.shared.as_ref().map_or(
            Ok(()),
            |trees| with_tree!(trees, tree => tree.check_visits()),
        )
    }

    fn thread_seed(&self, thread: usize) -> u64 {
        if thread == 0 {
            self.config.seed
        } else {
            zobrist::mix64(self.config.seed ^ (thread as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        }
    }

    /// Drops the trees (the random generators go on).
    fn clear_trees(&mut self) {
        for worker in &mut self.workers {
            worker.tree.clear();
        }
        self.shared = None;
        self.root = None;
    }

    /// Keeps the trees only if they were grown from `state`.
    fn sync_root(&mut self, state: &G) {
        let same = self.config.reuse_tree
            && self
                .root
                .as_ref()
                .is_some_and(|root| (self.same_position)(root, state));
        if !same {
            self.clear_trees();
            self.root = Some(state.clone());
        }
        if self.config.shares_tree() {
            while self.shared_workers.len() < self.config.threads {
                let seed = self.thread_seed(self.shared_workers.len());
                self.shared_workers
                    .push(Box::new(SharedWorker::new(self.playout.clone(), seed)));
            }
            self.shared_workers.truncate(self.config.threads);
            return;
        }
        while self.workers.len() < self.config.threads {
            let seed = self.thread_seed(self.workers.len());
            self.workers
                .push(Box::new(Worker::new(self.playout.clone(), seed)));
        }
        self.workers.truncate(self.config.threads);
    }

    /// Runs the threads on the shared tree; returns the iterations done and
    /// why the search ended.
    fn run_shared(
        &mut self,
        state: &G,
        moves: &[G::Move],
        limits: &Limits,
        budget: &Budget<'_>,
    ) -> (u64, StopReason) {
        let context = Context {
            policy: &self.policy,
            evaluator: &self.evaluator,
            exploration: self.config.exploration,
            leaf: self.config.leaf,
            max_playout_plies: self.config.max_playout_plies,
            num_actions: if T::AMAF {
                self.policy.num_actions(state)
            } else {
                0
            },
        };
        let default_budget = limits.uses_default_budget(|kind| kind != LimitKind::Depth);
        let iterations = limits
            .iterations
            .or(default_budget.then_some(self.config.default_iterations));
        let node_cap = limits.nodes.map_or(self.config.max_nodes, |nodes| {
            nodes.min(self.config.max_nodes)
        });
        let shared = Shared {
            claimed: 0.into(),
            started: 0.into(),
            limit: iterations.unwrap_or(u64::MAX),
            node_cap: node_cap as usize,
            stop_when_full: limits
                .nodes
                .is_some_and(|nodes| nodes <= self.config.max_nodes),
            // A node budget alone ends only when the tree reaches it.
            stop_when_stalled: limits.nodes.is_some()
                && limits.time.is_none()
                && limits.iterations.is_none()
                && limits.stop.is_none(),
            virtual_loss: self.config.virtual_loss,
            batch_size: self.config.batch_size,
        };
        if T::AMAF
            && self
                .shared
                .as_ref()
                .is_some_and(|tree| tree.num_actions() != context.num_actions)
        {
            self.shared = None;
        }
        // The root's children always fit, whatever the cap.
        let capacity = (self.config.max_nodes as usize).max(1 + moves.len());
        let (sync, amaf, num_actions) = (self.config.stats_sync, T::AMAF, context.num_actions);
        let mut ready = false;
        for _attempt in 0..2 {
            let tree = self
                .shared
                .get_or_insert_with(|| SharedTrees::new(sync, capacity, amaf, num_actions));
            ready = with_tree!(&*tree, tree => prepare_shared_root(tree, state, moves, &context));
            if ready {
                break;
            }
            // A kept tree too full for the root's children: start afresh.
            self.shared = None;
        }
        debug_assert!(ready, "a fresh tree holds the root's children");
        for worker in &mut self.shared_workers {
            worker.prepare(amaf, num_actions);
        }
        let results = match &self.shared {
            Some(trees) => with_tree!(trees, tree => run_shared_threads(
                &mut self.shared_workers,
                state,
                &context,
                tree,
                &shared,
                self.batch_values,
                budget,
            )),
            None => Vec::new(),
        };
        let total = results.iter().map(|&(done, _)| done).sum();
        let ended = if results.iter().any(|&(_, ended)| ended == Ended::Solved) {
            Ended::Solved
        } else {
            results
                .first()
                .map_or(Ended::Iterations, |&(_, ended)| ended)
        };
        (total, stop_reason(ended, limits))
    }

    /// Runs the threads; returns the iterations done and why the search
    /// ended.
    fn run(
        &mut self,
        state: &G,
        moves: &[G::Move],
        limits: &Limits,
        budget: &Budget<'_>,
    ) -> (u64, StopReason) {
        let threads = self.workers.len();
        let context = Context {
            policy: &self.policy,
            evaluator: &self.evaluator,
            exploration: self.config.exploration,
            leaf: self.config.leaf,
            max_playout_plies: self.config.max_playout_plies,
            num_actions: if T::AMAF {
                self.policy.num_actions(state)
            } else {
                0
            },
        };
        let default_budget = limits.uses_default_budget(|kind| self.honours(kind));
        let iterations = limits
            .iterations
            .or(default_budget.then_some(self.config.default_iterations));
        let node_cap = limits.nodes.map_or(self.config.max_nodes, |nodes| {
            nodes.min(self.config.max_nodes)
        });
        let stop_when_full = limits
            .nodes
            .is_some_and(|nodes| nodes <= self.config.max_nodes);
        // A node budget alone ends only when the tree reaches it, which a
        // small game's tree (or UCT's ever slower growth) may never do.
        let nodes_only = limits.nodes.is_some()
            && limits.time.is_none()
            && limits.iterations.is_none()
            && limits.stop.is_none();
        let shares: Vec<Share> = (0..threads)
            .map(|thread| Share {
                iterations: iterations.map_or(u64::MAX, |total| {
                    total / threads as u64 + u64::from((thread as u64) < total % threads as u64)
                }),
                nodes: (node_cap / threads as u64) as usize,
                stop_when_full,
                stop_when_stalled: nodes_only,
            })
            .collect();
        for worker in &mut self.workers {
            worker.prepare_root(state, moves, &context);
        }
        let results = run_workers(&mut self.workers, |index, worker| {
            worker.run(state, &context, shares[index], budget)
        });
        let total = results.iter().map(|&(done, _)| done).sum();
        // A proof in any tree holds for all; otherwise the main thread's
        // reason (the threads share one clock and even shares).
        let ended = if results.iter().any(|&(_, ended)| ended == Ended::Solved) {
            Ended::Solved
        } else {
            results[0].1
        };
        (total, stop_reason(ended, limits))
    }

    /// Root statistics summed over the threads, in root move order.
    fn merged_root(&self) -> Vec<RootMove<G::Move>> {
        let main = &self.workers[0].tree;
        let mut merged: Vec<RootMove<G::Move>> = main.nodes[0]
            .children()
            .map(|child| RootMove {
                mv: main.nodes[child].mv,
                visits: 0,
                value_sum: 0.0,
                amaf_visits: 0,
                amaf_sum: 0.0,
                proof: Proof::Unknown,
                proof_plies: 0,
            })
            .collect();
        for worker in &self.workers {
            let tree = &worker.tree;
            for (offset, child) in tree.nodes[0].children().enumerate() {
                let node = &tree.nodes[child];
                // Every tree expands the root from the same move list, so
                // the blocks line up; look the move up if they ever do not.
                let slot = if merged.get(offset).is_some_and(|slot| slot.mv == node.mv) {
                    offset
                } else if let Some(slot) = merged.iter().position(|slot| slot.mv == node.mv) {
                    slot
                } else {
                    continue;
                };
                let entry = &mut merged[slot];
                // Proofs are exact, so any thread's proof holds for all.
                // Keep the shortest win and the longest loss found.
                if node.proof != Proof::Unknown {
                    let plies = node.proof_plies;
                    entry.proof_plies = if entry.proof == Proof::Unknown {
                        plies
                    } else if node.proof == Proof::Win {
                        entry.proof_plies.min(plies)
                    } else {
                        entry.proof_plies.max(plies)
                    };
                    entry.proof = node.proof;
                }
                entry.visits += u64::from(node.visits);
                entry.value_sum += f64::from(node.mean) * f64::from(node.visits);
                if let Some(stats) = tree.amaf.get(child) {
                    entry.amaf_visits += u64::from(stats.visits);
                    entry.amaf_sum += f64::from(stats.sum);
                }
            }
        }
        merged
    }

    /// The principal variation starting with `best`, followed in the tree
    /// that visited `best` most.
    fn principal_variation(&self, best: G::Move) -> Vec<G::Move> {
        let mut pv = vec![best];
        let best_tree = self
            .workers
            .iter()
            .filter_map(|worker| {
                let child = worker.tree.child(0, best)?;
                Some((worker.tree.nodes[child].visits, &worker.tree, child))
            })
            .max_by_key(|(visits, _, _)| *visits);
        if let Some((_, tree, mut node)) = best_tree {
            while let Some(child) = tree.most_visited_child(node) {
                pv.push(tree.nodes[child].mv);
                node = child;
            }
        }
        pv
    }
}

/// The stop reason of a search whose main thread ended for `ended`.
fn stop_reason(ended: Ended, limits: &Limits) -> StopReason {
    match ended {
        Ended::Solved => StopReason::Solved,
        Ended::Stalled => StopReason::Exhausted,
        Ended::Full => StopReason::Nodes,
        Ended::Interrupted(reason) => reason,
        Ended::Iterations if limits.iterations.is_some() => StopReason::Iterations,
        Ended::Iterations => StopReason::DefaultBudget,
    }
}

/// Whether two positions are the same, judged by what [`Game`] offers:
/// the player to move, the legal moves and the `Debug` form.
pub fn same_position<G: Game>(a: &G, b: &G) -> bool {
    if a.to_move() != b.to_move() {
        return false;
    }
    let (mut moves_a, mut moves_b) = (Vec::new(), Vec::new());
    a.legal_moves(&mut moves_a);
    b.legal_moves(&mut moves_b);
    moves_a == moves_b && format!("{a:?}") == format!("{b:?}")
}

/// Whether two positions have the same [`PositionHash`] and player to move
/// (a root check for [`Mcts::with_root_check`]).
pub fn same_hash<G: PositionHash>(a: &G, b: &G) -> bool {
    a.position_hash() == b.position_hash() && a.to_move() == b.to_move()
}

struct RootMove<M> {
    mv: M,
    visits: u64,
    value_sum: f64,
    amaf_visits: u64,
    amaf_sum: f64,
    /// Proven value for the player to move at the root.
    proof: Proof,
    /// Plies from the child to the end of the game along the proof.
    proof_plies: u16,
}

impl<M> RootMove<M> {
    /// The exact value if proven, the mean value otherwise.
    fn value(&self) -> f32 {
        match self.proof.value() {
            Some(value) => value,
            None if self.visits == 0 => 0.0,
            None => (self.value_sum / self.visits as f64) as f32,
        }
    }

    /// How the final choice ranks the move: proven wins (shortest first),
    /// then moves not proven lost, then proven losses (longest first); by
    /// visits, then value, within each.
    fn rank(&self) -> (u8, i32, u64, f32) {
        let plies = i32::from(self.proof_plies);
        let (class, length) = match self.proof {
            Proof::Win => (2, -plies),
            Proof::Loss => (0, plies),
            Proof::Draw | Proof::Unknown => (1, 0),
        };
        (class, length, self.visits, self.value())
    }
}

impl<G, T, P, E> Searcher<G> for Mcts<G, T, P, E>
where
    G: Game,
    T: TreePolicy<G>,
    P: Playout<G> + Clone + Send,
    E: Evaluator<G>,
{
    /// Searches within `limits`: iterations (all threads together), time,
    /// nodes (tree nodes kept: the search stops when its trees are full)
    /// and the stop flag. `limits.depth` is ignored. Without any of these
    /// (and no stop flag) it runs [`MctsConfig::default_iterations`]
    /// iterations. It also stops as soon as the root is proven (the
    /// MCTS-Solver has solved the position; a win that takes more than one
    /// ply is searched on within the limits for a shorter one, until the
    /// tree stops growing as below), and, when a node budget is the
    /// only limit, once the tree has stopped growing: no new node for
    /// 10,000 iterations or as many as the tree has nodes, whichever is
    /// more ([`StopReason::Exhausted`]). A small game's tree may never
    /// reach the budget, and UCT's growth slows down as it concentrates on
    /// the best lines.
    ///
    /// Memory: a tree that reaches [`MctsConfig::max_nodes`] stops growing
    /// (and never reserves room for more) but the search goes on, playing
    /// out its leaves again, until a limit ends it.
    ///
    /// The best move is a proven win if there is one (the shortest), else
    /// the root move with the most visits among those not proven lost; the
    /// value is its mean value (exact when proven).
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        let budget = limits.start();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return SearchReport::game_over(state, budget.elapsed());
        }
        self.sync_root(state);
        let shares_tree = self.config.shares_tree();
        let (iterations, stop) = if shares_tree {
            self.run_shared(state, &moves, limits, &budget)
        } else {
            self.run(state, &moves, limits, &budget)
        };
        let merged = match &self.shared {
            Some(tree) if shares_tree => tree.root_moves(),
            _ => self.merged_root(),
        };
        let best = merged
            .iter()
            .enumerate()
            .max_by(|(index_a, a), (index_b, b)| {
                a.rank()
                    .partial_cmp(&b.rank())
                    .unwrap_or(std::cmp::Ordering::Equal)
                    // Ties go to the earlier move.
                    .then(index_b.cmp(index_a))
            })
            .map(|(_, entry)| entry);
        let (best_move, value) = best.map_or((moves[0], 0.0), |entry| (entry.mv, entry.value()));
        let infos = merged
            .iter()
            .map(|entry| {
                let mut info = MoveInfo::new(entry.mv).with_visits(entry.visits);
                if entry.visits > 0 || entry.proof != Proof::Unknown {
                    info = info.with_value(entry.value());
                }
                if T::AMAF && entry.amaf_visits > 0 {
                    info = info.with_amaf_value((entry.amaf_sum / entry.amaf_visits as f64) as f32);
                }
                info
            })
            .collect();
        let depth = if shares_tree {
            self.shared_workers
                .iter()
                .map(|worker| worker.max_depth)
                .max()
                .unwrap_or(0)
        } else {
            self.workers
                .iter()
                .map(|worker| worker.max_depth)
                .max()
                .unwrap_or(0)
        };
        let pv = match &self.shared {
            Some(tree) if shares_tree => tree.principal_variation(best_move),
            _ => self.principal_variation(best_move),
        };
        let stats = SearchStats::new(
            iterations,
            self.tree_nodes() as u64,
            depth,
            budget.elapsed(),
        )
        .with_stop(stop);
        SearchReport::new(Some(best_move), value)
            .with_pv(pv)
            .with_moves(infos)
            .with_stats(stats)
    }

    /// Moves the roots of the kept trees to the child reached by `played`,
    /// keeping its subtree (a second call keeps the subtree of the reply).
    /// An illegal move drops the trees.
    fn advance(&mut self, played: G::Move) {
        if !self.config.reuse_tree {
            return;
        }
        let Some(root) = self.root.as_mut() else {
            return;
        };
        if root.try_play(played).is_err() {
            self.clear_trees();
            return;
        }
        for worker in &mut self.workers {
            worker.tree.advance(played);
        }
        self.shared = self.shared.take().and_then(|tree| tree.subtree(played));
    }

    /// Drops the trees and restarts every random generator from the seed.
    fn reset(&mut self) {
        self.clear_trees();
        for thread in 0..self.workers.len() {
            let seed = self.thread_seed(thread);
            self.workers[thread].reseed(seed);
        }
        for thread in 0..self.shared_workers.len() {
            let seed = self.thread_seed(thread);
            self.shared_workers[thread].reseed(seed);
        }
    }

    fn name(&self) -> String {
        self.policy.name().to_string()
    }

    /// Every field but depth.
    fn honours(&self, kind: LimitKind) -> bool {
        kind != LimitKind::Depth
    }
}

impl<G: Game, T: fmt::Debug, P: fmt::Debug, E> fmt::Debug for Mcts<G, T, P, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mcts")
            .field("config", &self.config)
            .field("policy", &self.policy)
            .field("playout", &self.playout)
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}
