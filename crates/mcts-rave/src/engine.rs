//! The iteration engine: one search thread's random generator and
//! scratch buffers, and the four steps of an iteration (selection,
//! expansion, leaf evaluation, backpropagation), generic over the node
//! [`Store`]. The same code grows a private tree (root parallelism, one
//! store per thread) and a tree shared by every thread (tree parallelism,
//! or batches of leaves), where a simulation in flight counts as virtual
//! loss and leaves that need the evaluator may wait in a batch. With one
//! thread and batches of one both stores give the same search, bit for bit
//! (tested).

use game_traits::{Batch, Evaluator, Game, Player, Playout, contain_value};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::LeafEvaluation;
use crate::driver::{Iterating, Valued, evaluated, exact};
use crate::policy::{ChildStats, ExplorationScale, TreePolicy};
use crate::store::{Claim, Store, mark_terminal, solve};
use crate::tree::{Kind, Proof};

/// What every thread of one search shares (read only).
pub(crate) struct Context<'a, T, E> {
    pub(crate) policy: &'a T,
    pub(crate) evaluator: &'a E,
    pub(crate) exploration: f32,
    pub(crate) leaf: LeafEvaluation,
    pub(crate) max_playout_plies: u32,
    pub(crate) num_actions: usize,
    /// Lost visits per simulation in flight (only a shared store has any
    /// in flight).
    pub(crate) virtual_loss: u32,
    /// Leaves collected before the evaluator is asked (1: at once).
    pub(crate) batch_size: usize,
    /// The most nodes the store may hold in this search.
    pub(crate) node_cap: usize,
    /// Whether finished games are proven and proofs backed up
    /// (MCTS-Solver).
    pub(crate) solver: bool,
}

/// How a leaf was valued.
enum Leaf {
    /// Now: the value, and whether it proved the leaf (a finished game
    /// seen for the first time).
    Now(Valued, bool),
    /// By the evaluator, in the batch: the player to move at the position
    /// pushed.
    Later(Player),
}

/// What an attempt to expand a node came to.
enum Expansion {
    Expanded,
    /// The position is finished: its value, and whether this proved it.
    Finished(Valued, bool),
    /// The tree is full: the node stays a leaf.
    Full,
}

/// A simulation waiting for its leaf's value.
#[derive(Clone, Copy, Debug)]
struct Waiting {
    path: (usize, usize),
    trace: (usize, usize),
    player: Player,
}

/// One search thread. Aligned to a pair of cache lines so that the
/// generator and counters it writes every ply never share a line with
/// another thread's worker.
#[repr(align(128))]
pub(crate) struct Worker<G: Game, P> {
    playout: P,
    rng: Pcg64Mcg,
    /// Node indices from the root to the current leaf.
    path: Vec<u32>,
    /// AMAF keys of the moves of the current simulation, tree part first.
    trace: Vec<u32>,
    moves: Vec<G::Move>,
    /// `marks[key] == epoch`: the move was played later in this simulation
    /// by that player.
    marks: Vec<u32>,
    epoch: u32,
    /// Simulations waiting for the batch, their paths and traces.
    waiting: Vec<Waiting>,
    waiting_paths: Vec<u32>,
    waiting_traces: Vec<u32>,
    batch: Batch<G>,
    pub(crate) max_depth: u32,
}

impl<G: Game, P: Playout<G>> Worker<G, P> {
    pub(crate) fn new(playout: P, seed: u64) -> Self {
        Worker {
            playout,
            rng: Pcg64Mcg::seed_from_u64(seed),
            path: Vec::new(),
            trace: Vec::new(),
            moves: Vec::new(),
            marks: Vec::new(),
            epoch: 0,
            waiting: Vec::new(),
            waiting_paths: Vec::new(),
            waiting_traces: Vec::new(),
            batch: Batch::new(),
            max_depth: 0,
        }
    }

    pub(crate) fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }

    /// Gets ready for a search: AMAF marks for an action space of
    /// `num_actions`, depth statistics from zero.
    pub(crate) fn prepare(&mut self, amaf: bool, num_actions: usize) {
        self.max_depth = 0;
        if amaf {
            self.marks.clear();
            self.marks.resize(2 * num_actions, 0);
            self.epoch = 0;
        }
    }

    /// Evaluates the leaves waiting in the batch and backs them up, in the
    /// order they were reached.
    pub(crate) fn flush<T, E, S>(&mut self, ctx: &Context<'_, T, E>, store: &mut S)
    where
        T: TreePolicy<G>,
        E: Evaluator<G>,
        S: Store<G::Move>,
    {
        if self.waiting.is_empty() {
            return;
        }
        ctx.evaluator.value_many(&mut self.batch);
        let waiting = std::mem::take(&mut self.waiting);
        let paths = std::mem::take(&mut self.waiting_paths);
        let traces = std::mem::take(&mut self.waiting_traces);
        for (entry, sim) in waiting.iter().enumerate() {
            let value = contain_value(self.batch.value(entry));
            self.backpropagate(
                store,
                &paths[sim.path.0..sim.path.1],
                &traces[sim.trace.0..sim.trace.1],
                (value, sim.player),
                false,
            );
        }
        self.batch.clear();
        self.waiting = waiting;
        self.waiting.clear();
        self.waiting_paths = paths;
        self.waiting_paths.clear();
        self.waiting_traces = traces;
        self.waiting_traces.clear();
    }

    /// One simulation: selection (with virtual loss in a shared store),
    /// expansion, the leaf's value (now, or later from the batch),
    /// backpropagation.
    fn simulate<T, E, S>(&mut self, root: &G, ctx: &Context<'_, T, E>, store: &mut S)
    where
        T: TreePolicy<G>,
        E: Evaluator<G>,
        S: Store<G::Move>,
    {
        let mut state = root.clone();
        self.path.clear();
        self.trace.clear();
        self.path.push(0);
        store.enter(0);
        let mut node = 0u32;
        let leaf = loop {
            let (kind, proof) = store.status(node);
            if node != 0
                && let Some(value) = proof.value()
            {
                // Solved: the exact value, no playout needed.
                break Leaf::Now((value, store.mover(node)), false);
            }
            match kind {
                Kind::Expanded => {}
                Kind::Terminal => break Leaf::Now(exact(&state), false),
                Kind::Leaf => {
                    if store.arrive(node) {
                        // The first simulation to reach a leaf values it.
                        break match self.value_leaf(root, &mut state, ctx) {
                            Leaf::Now(leaf, true) => {
                                Leaf::Now(leaf, mark_terminal(store, node, leaf, ctx.solver))
                            }
                            other => other,
                        };
                    }
                    // Every later one expands it and goes on to a child.
                    match self.expand(store, node, &state, ctx) {
                        Expansion::Expanded => {}
                        Expansion::Finished(leaf, news) => break Leaf::Now(leaf, news),
                        Expansion::Full => {
                            break match self.value_leaf(root, &mut state, ctx) {
                                Leaf::Now(leaf, _) => Leaf::Now(leaf, false),
                                later => later,
                            };
                        }
                    }
                }
            }
            let child = self.select(store, node, ctx);
            if T::AMAF {
                self.trace.push(store.amaf_key(child));
            }
            state.play(store.mv(child));
            self.path.push(child);
            store.enter(child);
            node = child;
        };
        self.max_depth = self.max_depth.max(self.path.len() as u32 - 1);
        match leaf {
            Leaf::Now(valued, proven) => {
                let path = std::mem::take(&mut self.path);
                let trace = std::mem::take(&mut self.trace);
                self.backpropagate(store, &path, &trace, valued, proven);
                self.path = path;
                self.trace = trace;
            }
            Leaf::Later(player) => {
                let path_start = self.waiting_paths.len();
                self.waiting_paths.extend_from_slice(&self.path);
                let trace_start = self.waiting_traces.len();
                self.waiting_traces.extend_from_slice(&self.trace);
                self.waiting.push(Waiting {
                    path: (path_start, self.waiting_paths.len()),
                    trace: (trace_start, self.waiting_traces.len()),
                    player,
                });
            }
        }
    }

    /// Gives leaf `node` its children, unless another thread does (then
    /// takes what it made) or the tree is full.
    fn expand<T, E, S>(
        &mut self,
        store: &mut S,
        node: u32,
        state: &G,
        ctx: &Context<'_, T, E>,
    ) -> Expansion
    where
        T: TreePolicy<G>,
        S: Store<G::Move>,
    {
        match store.claim_expansion(node) {
            Claim::Mine => {}
            Claim::Expanded => return Expansion::Expanded,
            Claim::Terminal => return Expansion::Finished(exact(state), false),
            Claim::Full => return Expansion::Full,
        }
        let mut moves = std::mem::take(&mut self.moves);
        state.legal_moves(&mut moves);
        let result = if moves.is_empty() {
            let leaf = exact(state);
            Expansion::Finished(leaf, mark_terminal(store, node, leaf, ctx.solver))
        } else if expand_with_keys(store, node, state, &moves, ctx, ctx.node_cap) {
            Expansion::Expanded
        } else {
            Expansion::Full
        };
        self.moves = moves;
        result
    }

    /// The child of expanded `node` to descend to, scored by the tree
    /// policy; proven losses are never worth a visit.
    #[inline(always)]
    fn select<T, E, S>(&self, store: &S, node: u32, ctx: &Context<'_, T, E>) -> u32
    where
        T: TreePolicy<G>,
        S: Store<G::Move>,
    {
        let parent = store.stats(node);
        // The simulations in flight through the parent but this one.
        let parent_visits = parent.visits + ctx.virtual_loss * parent.in_flight.saturating_sub(1);
        let mut scale = ExplorationScale::new(ctx.exploration, parent_visits);
        let children = store.children(node);
        let mut best = children.start;
        let mut best_score = f32::NEG_INFINITY;
        for child in children {
            let view = store.selection_stats(child, ctx.virtual_loss);
            let (amaf_visits, amaf_sum) = if T::AMAF { store.amaf(child) } else { (0, 0.0) };
            let stats = ChildStats {
                visits: view.visits,
                mean: view.mean,
                inv_sqrt_visits: view.inv_sqrt_visits,
                amaf_visits,
                amaf_sum,
            };
            let Some(score) = ctx.policy.score(&stats, &mut scale) else {
                // Nothing known of this move: try it first.
                return child;
            };
            // (A node with a proven win is itself proven and not entered,
            // except the root, which goes on exploring for shorter wins.)
            if view.lost {
                continue;
            }
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    /// Values the position `state` reached at a leaf: a playout (to the
    /// end or to a cut-off), then, unless the game ended, the evaluator (at
    /// once, or through the batch).
    fn value_leaf<T, E>(&mut self, root: &G, state: &mut G, ctx: &Context<'_, T, E>) -> Leaf
    where
        T: TreePolicy<G>,
        E: Evaluator<G>,
    {
        let plies = match ctx.leaf {
            LeafEvaluation::Evaluator => {
                if state.outcome().is_some() {
                    return Leaf::Now(exact(state), true);
                }
                return self.evaluate(state, ctx);
            }
            LeafEvaluation::Playout => ctx.max_playout_plies,
            LeafEvaluation::PlayoutCutoff { depth } => depth.min(ctx.max_playout_plies),
        };
        let trace = &mut self.trace;
        let num_actions = ctx.num_actions;
        let (outcome, played) = self.playout.play_out(
            state,
            &mut self.rng,
            &mut self.moves,
            plies as usize,
            |player: Player, mv: G::Move| {
                if T::AMAF {
                    // Action indices do not depend on the position.
                    let key = player.index() * num_actions + ctx.policy.action_index(root, mv);
                    trace.push(key as u32);
                }
            },
        );
        match outcome {
            Some(outcome) => {
                let player = state.to_move();
                Leaf::Now((outcome.reward(player), player), played == 0)
            }
            None => self.evaluate(state, ctx),
        }
    }

    /// The evaluator's value of unfinished `state`: at once with batches
    /// of one, else pushed into the batch.
    fn evaluate<T, E: Evaluator<G>>(&mut self, state: &G, ctx: &Context<'_, T, E>) -> Leaf {
        if ctx.batch_size <= 1 {
            return Leaf::Now(evaluated(state, ctx.evaluator), false);
        }
        self.batch.push(state, &[]);
        Leaf::Later(state.to_move())
    }

    fn backpropagate<S: Store<G::Move>>(
        &mut self,
        store: &mut S,
        path: &[u32],
        trace: &[u32],
        (value, player): Valued,
        mut proven: bool,
    ) {
        let amaf = store.has_amaf();
        let tree_moves = path.len() - 1;
        if amaf {
            self.epoch = self.epoch.wrapping_add(1);
            if self.epoch == 0 {
                self.marks.fill(0);
                self.epoch = 1;
            }
            for &key in &trace[tree_moves..] {
                if let Some(mark) = self.marks.get_mut(key as usize) {
                    *mark = self.epoch;
                }
            }
        }
        let for_player = |mover: Player| if mover == player { value } else { -value };
        for depth in (0..path.len()).rev() {
            let index = path[depth];
            store.record(index, value, player);
            if proven && depth + 1 < path.len() {
                // A child was just proven: maybe this node is too.
                let (proof, plies) = solve(store, index);
                proven = store.prove(index, proof, plies);
            }
            if !amaf {
                continue;
            }
            if depth < tree_moves
                && let Some(mark) = self.marks.get_mut(trace[depth] as usize)
            {
                *mark = self.epoch;
            }
            let children = store.children(index);
            if children.is_empty() {
                continue;
            }
            // Every child of a node is played by the player to move there.
            let child_value = for_player(store.mover(children.start));
            for child in children {
                if self.marks.get(store.amaf_key(child) as usize) == Some(&self.epoch) {
                    store.add_amaf(child, child_value);
                }
            }
        }
    }
}

/// Gives claimed `node` (at `state`) one child per move within `cap`
/// nodes, with the AMAF keys of the tree policy.
fn expand_with_keys<G, T, E, S>(
    store: &mut S,
    node: u32,
    state: &G,
    moves: &[G::Move],
    ctx: &Context<'_, T, E>,
    cap: usize,
) -> bool
where
    G: Game,
    T: TreePolicy<G>,
    S: Store<G::Move>,
{
    let mover = state.to_move();
    let base = mover.index() * ctx.num_actions;
    store.expand(
        node,
        moves,
        mover,
        |mv| (base + ctx.policy.action_index(state, mv)) as u32,
        cap,
    )
}

/// Makes sure `store` has an expanded root for `root`, which must not be
/// finished and has `moves`; returns `false` if its children do not fit
/// (a kept shared tree that is full). No search thread may run.
///
/// With the MCTS-Solver on, the root's children that end the game at once
/// are proven here, and the root with them if that decides it: an immediate win is then found
/// before any iteration (a search stops at a proven root, so without this
/// a longer proven win could end it first).
pub(crate) fn prepare_root<G, T, E, S>(
    store: &mut S,
    root: &G,
    moves: &[G::Move],
    ctx: &Context<'_, T, E>,
) -> bool
where
    G: Game,
    T: TreePolicy<G>,
    S: Store<G::Move>,
{
    if store.is_empty() {
        store.set_root(moves[0], root.to_move().opponent());
    }
    store.clear_full();
    if store.kind(0) != Kind::Expanded {
        let claimed = store.claim_expansion(0);
        debug_assert_eq!(claimed, Claim::Mine, "no other thread runs yet");
        // The root's children always get their block, whatever the cap.
        let cap = store.len() + moves.len();
        if !expand_with_keys(store, 0, root, moves, ctx, cap) {
            return false;
        }
    }
    if ctx.solver && store.proof(0).0 == Proof::Unknown {
        let mut child_state = root.clone();
        for child in store.children(0) {
            if store.kind(child) != Kind::Leaf || store.proof(child).0 != Proof::Unknown {
                continue;
            }
            child_state.clone_from(root);
            child_state.play(store.mv(child));
            if child_state.outcome().is_some() {
                mark_terminal(store, child, exact(&child_state), true);
            }
        }
        let (proof, plies) = solve(store, 0);
        store.prove(0, proof, plies);
    }
    true
}

/// One thread's search on one store, as the driver runs it.
pub(crate) struct Job<'a, G: Game, P, S, T, E> {
    pub(crate) worker: &'a mut Worker<G, P>,
    pub(crate) store: &'a mut S,
    pub(crate) root: &'a G,
    pub(crate) ctx: &'a Context<'a, T, E>,
}

impl<G, P, S, T, E> Iterating for Job<'_, G, P, S, T, E>
where
    G: Game,
    P: Playout<G>,
    S: Store<G::Move>,
    T: TreePolicy<G>,
    E: Evaluator<G>,
{
    #[inline]
    fn root_proof(&self) -> (Proof, u16) {
        // The root's proof is for its mover: the opponent of the player to
        // move in a new tree, anyone in a kept subtree.
        let (proof, plies) = self.store.proof(0);
        if self.store.mover(0) == self.root.to_move() {
            (proof, plies)
        } else {
            (proof.flipped(), plies)
        }
    }

    #[inline]
    fn tree_len(&self) -> usize {
        self.store.len()
    }

    #[inline]
    fn tree_full(&self) -> bool {
        self.store.is_full()
    }

    #[inline]
    fn iterate(&mut self) {
        self.worker.simulate(self.root, self.ctx, self.store);
        if self.worker.waiting.len() >= self.ctx.batch_size {
            self.worker.flush(self.ctx, self.store);
        }
    }

    fn finish(&mut self) {
        self.worker.flush(self.ctx, self.store);
    }
}
