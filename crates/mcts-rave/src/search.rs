//! The searcher: configuration, tree reuse between moves, threads and the
//! report. The iterations themselves are the engine's
//! ([`engine`](crate::engine)), on private trees (root parallelism: one
//! store and one worker per thread) or on one tree all threads share.

use std::fmt;

use game_traits::{
    Budget, Evaluator, Game, LimitKind, Limits, OutcomeEvaluator, Playout, PositionHash,
    SearchReport, Searcher, UniformPlayout,
};

use crate::config::{ConfigError, MctsConfig, StatsSync};
use crate::driver::{
    Ended, Plan, Quota, RootMove, Rules, Share, drive, root_report, run_workers, search_stats,
    thread_seed,
};
use crate::engine::{Context, Job, Worker, prepare_root};
use crate::knowledge::MctsKnowledge;
use crate::policy::{TreePolicy, Uct};
use crate::shared_tree::{
    LockFree, Locked, NODE_RUN, NodeStats, SharedStore, SharedTree, VisitCountError,
};
use crate::store::{Store, child, principal_variation};
use crate::tree::{Proof, Tree};

/// Monte-Carlo tree search over any [`Game`].
///
/// * `T`: the [`TreePolicy`], [`Uct`] (any game) or [`Rave`](crate::Rave) (games with an
///   [`ActionSpace`](game_traits::ActionSpace)).
/// * `P`: the [`Playout`] policy that plays out new leaves
///   ([`UniformPlayout`] by default), through [`Playout::play_out`], so a
///   game's specialised playout loop is used where it has one. Each thread
///   gets its own clone.
/// * `E`: the [`Evaluator`] used where playouts stop early
///   ([`LeafEvaluation`](crate::LeafEvaluation)); [`OutcomeEvaluator`] (0
///   for unfinished positions) by default. A [`BatchEvaluator`](game_traits::BatchEvaluator) such as a
///   network goes in through [`BatchValues`](crate::BatchValues)
///   ([`MctsKnowledge::with_batch_evaluator`]).
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
    /// Root parallelism: one tree per thread, likewise boxed: a tree's
    /// header changes with every node added.
    #[allow(
        clippy::vec_box,
        reason = "each thread's tree header in its own cache lines"
    )]
    private: Vec<Box<Tree<G::Move>>>,
    /// The tree all threads share ([`MctsConfig::shares_tree`]).
    shared: Option<SharedTrees<G::Move>>,
    /// The position at the roots of the kept trees, if any.
    root: Option<G>,
    /// Whether a searched position is the kept root.
    same_position: fn(&G, &G) -> bool,
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

impl<M: Copy + PartialEq + Send + Sync> SharedTrees<M> {
    fn new(sync: StatsSync, capacity: usize, amaf: bool, num_actions: usize) -> Self {
        match sync {
            StatsSync::Mutex => SharedTrees::Locked(SharedTree::new(capacity, num_actions, amaf)),
            _ => SharedTrees::LockFree(SharedTree::new(capacity, num_actions, amaf)),
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
}

/// What a search on some stores found: iterations, stop, root moves,
/// principal variation of the best move is read later.
struct Outcome<M> {
    results: Vec<(u64, Ended)>,
    root: Vec<RootMove<M>>,
}

/// Runs `workers`, worker `i` on `stores[i]`, each within its own quota of
/// `plan` (`shared_quota`: one quota for all, as on a shared tree), and
/// returns the threads' results and the root moves merged over `stores`
/// (`distinct` of them: a shared tree is one store for every worker).
#[allow(clippy::too_many_arguments)]
fn run_on<G, P, S, T, E>(
    workers: &mut [Box<Worker<G, P>>],
    stores: &mut [&mut S],
    distinct: usize,
    state: &G,
    moves: &[G::Move],
    ctx: &Context<'_, T, E>,
    plan: &Plan,
    rules: &Rules,
    budget: &Budget<'_>,
) -> Outcome<G::Move>
where
    G: Game,
    P: Playout<G> + Send,
    S: Store<G::Move>,
    T: TreePolicy<G>,
    E: Evaluator<G>,
{
    let threads = workers.len();
    let quota = Quota::new(plan.iterations.unwrap_or(u64::MAX));
    for worker in workers.iter_mut() {
        worker.prepare(T::AMAF, ctx.num_actions);
    }
    let mut pairs: Vec<(&mut Worker<G, P>, &mut S)> = workers
        .iter_mut()
        .zip(stores.iter_mut())
        .map(|(worker, store)| (&mut **worker, &mut **store))
        .collect();
    let results = run_workers(&mut pairs, |index, (worker, store)| {
        let mut job = Job {
            worker: &mut **worker,
            store: &mut **store,
            root: state,
            ctx,
        };
        // Threads on one tree draw on one quota; private trees have each
        // their share.
        if distinct < threads {
            drive(&mut job, quota.share(), rules, budget)
        } else {
            drive(
                &mut job,
                Share::new(plan.iterations_of(index, threads)),
                rules,
                budget,
            )
        }
    });
    let root = merged_root(&stores[..distinct], moves);
    Outcome { results, root }
}

impl<G, T, P, E> Mcts<G, T, P, E>
where
    G: Game,
    T: TreePolicy<G>,
    P: Playout<G> + Clone + Send,
    E: Evaluator<G>,
{
    /// A search with the tree policy, playout and evaluator of `knowledge`
    /// and the settings of `config`.
    ///
    /// ```
    /// use game_traits::testing::TicTacToe;
    /// use game_traits::{Limits, Searcher};
    /// use mcts_rave::{Mcts, MctsConfig, MctsKnowledge};
    ///
    /// let mut search = Mcts::new(MctsKnowledge::uct(), MctsConfig::default().with_seed(7))?;
    /// let report = search.search(&TicTacToe::new(), &Limits::iterations(2_000));
    /// assert_eq!(report.stats.iterations, 2_000);
    /// # Ok::<(), mcts_rave::ConfigError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Returns [`ConfigError`] if a setting of `config` or of the tree
    /// policy (the RAVE schedule, say) is out of range.
    pub fn new(knowledge: MctsKnowledge<T, P, E>, config: MctsConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        knowledge.policy.validate()?;
        let MctsKnowledge {
            policy,
            playout,
            evaluator,
        } = knowledge;
        Ok(Mcts {
            config,
            policy,
            playout,
            evaluator,
            workers: Vec::new(),
            private: Vec::new(),
            shared: None,
            root: None,
            same_position: same_position::<G>,
        })
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
        self.private.iter().map(|tree| tree.len()).sum::<usize>()
            + self.shared.as_ref().map_or(0, SharedTrees::len)
    }

    /// Bytes the kept trees hold reserved (nodes and AMAF statistics, all
    /// threads): never more than [`MctsConfig::max_nodes`] nodes' worth,
    /// or a root's children if those alone are more.
    pub fn memory_bytes(&self) -> usize {
        self.private
            .iter()
            .map(|tree| {
                tree.nodes.capacity() * crate::node_bytes::<G::Move>()
                    + tree.amaf.capacity() * crate::AMAF_BYTES
            })
            .sum::<usize>()
            + self.shared.as_ref().map_or(0, SharedTrees::memory_bytes)
    }

    /// Visits of the root of the kept trees, all threads together (0
    /// without a tree). After [`advance`](Searcher::advance) this shows how
    /// much of the earlier search was kept.
    pub fn root_visits(&self) -> u64 {
        self.private
            .iter()
            .filter(|tree| !tree.is_empty())
            .map(|tree| u64::from(tree.nodes[0].visits))
            .sum::<u64>()
            + self.shared.as_ref().map_or(0, SharedTrees::root_visits)
    }

    /// Checks that the visits of the shared tree add up, as after every
    /// search they must whatever the threads' interleaving: nothing left
    /// in flight, and each expanded node one visit more than its children
    /// together (at least that once proven, since simulations stop at a
    /// proven node; a root expanded before its first simulation has
    /// exactly its children's visits). Trees of root parallelism are not
    /// shared and are not checked.
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

    /// Drops the trees (the random generators go on).
    fn clear_trees(&mut self) {
        for tree in &mut self.private {
            tree.clear();
        }
        self.shared = None;
        self.root = None;
    }

    /// Keeps the trees only if they were grown from `state`, and makes one
    /// worker per thread (and one private tree per thread, unless the tree
    /// is shared).
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
        let threads = self.config.threads;
        while self.workers.len() < threads {
            let seed = thread_seed(self.config.seed, self.workers.len());
            self.workers
                .push(Box::new(Worker::new(self.playout.clone(), seed)));
        }
        self.workers.truncate(threads);
        if self.config.shares_tree() {
            self.private.clear();
            return;
        }
        self.shared = None;
        while self.private.len() < threads {
            self.private.push(Box::new(Tree::new(T::AMAF)));
        }
        self.private.truncate(threads);
    }

    /// The context of a search from `state` whose store holds at most
    /// `node_cap` nodes.
    fn context(&self, state: &G, node_cap: usize) -> Context<'_, T, E> {
        Context {
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
            virtual_loss: self.config.virtual_loss,
            batch_size: self.config.batch_size,
            node_cap,
            solver: self.config.solver,
        }
    }

    /// Runs the threads, each on its own tree.
    fn run_private(
        &mut self,
        state: &G,
        moves: &[G::Move],
        plan: &Plan,
        budget: &Budget<'_>,
    ) -> Outcome<G::Move> {
        let threads = self.workers.len();
        let node_cap = (plan.node_cap / threads as u64) as usize;
        let rules = plan.rules(node_cap);
        let mut private = std::mem::take(&mut self.private);
        let mut workers = std::mem::take(&mut self.workers);
        let outcome = {
            let context = self.context(state, node_cap);
            let mut stores: Vec<&mut Tree<G::Move>> = private
                .iter_mut()
                .map(|tree| {
                    if T::AMAF && tree.num_actions != context.num_actions {
                        tree.clear();
                    }
                    tree.num_actions = context.num_actions;
                    let ready = prepare_root(&mut **tree, state, moves, &context);
                    debug_assert!(ready, "a private tree always holds the root's children");
                    &mut **tree
                })
                .collect();
            run_on(
                &mut workers,
                &mut stores,
                threads,
                state,
                moves,
                &context,
                plan,
                &rules,
                budget,
            )
        };
        self.private = private;
        self.workers = workers;
        outcome
    }

    /// Runs the threads on the shared tree.
    fn run_shared(
        &mut self,
        state: &G,
        moves: &[G::Move],
        plan: &Plan,
        budget: &Budget<'_>,
    ) -> Outcome<G::Move> {
        let node_cap = plan.node_cap as usize;
        let rules = plan.rules(node_cap);
        let num_actions = self.context(state, node_cap).num_actions;
        if T::AMAF
            && self
                .shared
                .as_ref()
                .is_some_and(|tree| tree.num_actions() != num_actions)
        {
            self.shared = None;
        }
        // The root's children always fit, whatever the cap.
        let capacity = (self.config.max_nodes as usize).max(1 + moves.len());
        let sync = self.config.stats_sync;
        let mut shared = self.shared.take();
        let mut workers = std::mem::take(&mut self.workers);
        let outcome = {
            let context = self.context(state, node_cap);
            let mut ready = false;
            for _attempt in 0..2 {
                let tree = shared
                    .get_or_insert_with(|| SharedTrees::new(sync, capacity, T::AMAF, num_actions));
                ready = with_tree!(&*tree, tree => prepare_root(&mut SharedStore::new(tree, 0), state, moves, &context));
                if ready {
                    break;
                }
                // A kept tree too full for the root's children: start afresh.
                shared = None;
            }
            debug_assert!(ready, "a fresh tree holds the root's children");
            let trees = shared.as_ref().expect("the shared tree was just made");
            with_tree!(trees, tree => {
                // One thread takes each block from the tree, as a private
                // tree grows; more reserve runs of nodes.
                let run = if workers.len() > 1 { NODE_RUN } else { 0 };
                let mut handles: Vec<SharedStore<'_, _, _>> =
                    workers.iter().map(|_| SharedStore::new(tree, run)).collect();
                let mut stores: Vec<&mut SharedStore<'_, _, _>> = handles.iter_mut().collect();
                run_on(
                    &mut workers,
                    &mut stores,
                    1,
                    state,
                    moves,
                    &context,
                    plan,
                    &rules,
                    budget,
                )
            })
        };
        self.shared = shared;
        self.workers = workers;
        outcome
    }

    /// The principal variation starting with `best`, followed in the tree
    /// that visited `best` most.
    fn principal_variation(&self, best: G::Move) -> Vec<G::Move> {
        if let Some(trees) = &self.shared {
            return with_tree!(trees, tree => principal_variation(&SharedStore::new(tree, 0), best));
        }
        let best_tree = self
            .private
            .iter()
            .filter_map(|tree| {
                let node = child(&**tree, 0, best)?;
                Some((tree.nodes[node as usize].visits, tree))
            })
            .max_by_key(|(visits, _)| *visits);
        match best_tree {
            Some((_, tree)) => principal_variation(&**tree, best),
            None => vec![best],
        }
    }
}

/// Root statistics summed over `stores`, in the order of `moves` (every
/// tree expands the root from that move list; a move a tree lacks counts
/// nothing there).
fn merged_root<M: Copy + PartialEq, S: Store<M>>(
    stores: &[&mut S],
    moves: &[M],
) -> Vec<RootMove<M>> {
    let mut merged: Vec<RootMove<M>> = moves.iter().map(|&mv| RootMove::new(mv)).collect();
    for store in stores {
        let store: &S = store;
        for (offset, node) in store.children(0).enumerate() {
            let mv = store.mv(node);
            // The blocks line up with `moves`; look the move up if they
            // ever do not.
            let slot = if merged.get(offset).is_some_and(|slot| slot.mv == mv) {
                offset
            } else if let Some(slot) = merged.iter().position(|slot| slot.mv == mv) {
                slot
            } else {
                continue;
            };
            let entry = &mut merged[slot];
            // Proofs are exact, so any thread's proof holds for all.
            // Keep the shortest win and the longest loss found.
            let (proof, plies) = store.proof(node);
            if proof != Proof::Unknown {
                entry.proof_plies = if entry.proof == Proof::Unknown {
                    plies
                } else if proof == Proof::Win {
                    entry.proof_plies.min(plies)
                } else {
                    entry.proof_plies.max(plies)
                };
                entry.proof = proof;
            }
            let stats = store.stats(node);
            entry.visits += u64::from(stats.visits);
            entry.value_sum += f64::from(stats.mean) * f64::from(stats.visits);
            let (amaf_visits, amaf_sum) = store.amaf(node);
            entry.amaf_visits += u64::from(amaf_visits);
            entry.amaf_sum += f64::from(amaf_sum);
        }
    }
    merged
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
    /// more ([`StopReason::Exhausted`](game_traits::StopReason::Exhausted)). A small game's tree may never
    /// reach the budget, and UCT's growth slows down as it concentrates on
    /// the best lines.
    ///
    /// Memory: a tree that reaches [`MctsConfig::max_nodes`] stops growing
    /// (and never reserves room for more) but the search goes on, playing
    /// out its leaves again, until a limit ends it.
    ///
    /// The best move is a proven win if there is one (the shortest), else
    /// the root move with the most visits among those not proven lost (ties
    /// to the higher value, then the earlier move); the value is its mean,
    /// or its exact value once proven; the report gives every root move's
    /// visits, value and, with RAVE, AMAF value.
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        let budget = limits.start();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return SearchReport::game_over(state, budget.elapsed());
        }
        self.sync_root(state);
        let plan = Plan::new(limits, &self.config);
        let outcome = if self.config.shares_tree() {
            self.run_shared(state, &moves, &plan, &budget)
        } else {
            self.run_private(state, &moves, &plan, &budget)
        };
        let stats = search_stats(
            &outcome.results,
            limits,
            self.tree_nodes(),
            self.workers.iter().map(|worker| worker.max_depth),
            budget.elapsed(),
        );
        root_report(&outcome.root, stats, |best| self.principal_variation(best))
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
        for tree in &mut self.private {
            tree.advance(played);
        }
        self.shared = self.shared.take().and_then(|tree| tree.subtree(played));
    }

    /// Drops the trees and restarts every random generator from the seed.
    fn reset(&mut self) {
        self.clear_trees();
        for (thread, worker) in self.workers.iter_mut().enumerate() {
            worker.reseed(thread_seed(self.config.seed, thread));
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
