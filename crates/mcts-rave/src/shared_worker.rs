//! One thread of a search on a shared tree (tree parallelism, or batches
//! of leaves): the steps of an iteration as in [`worker`](crate::worker),
//! with virtual loss on the path of every simulation in flight, expansion
//! by one thread at a time, and leaves that need the evaluator collected
//! into a batch.
//!
//! With one thread and batches of one, every step happens in the order of
//! the sequential worker and computes the same numbers: the search is the
//! same, bit for bit (tested).

use std::sync::atomic::{AtomicU64, Ordering};

use game_traits::{Batch, Budget, Evaluator, Game, Player, Playout, contain_value};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::LeafEvaluation;
use crate::policy::TreePolicy;
use crate::shared_tree::{
    AmafStats, Cells, EXPANDED, EXPANDING, LEAF, NodeStats, SharedTree, Snapshot, TERMINAL,
};
use crate::tree::Proof;
use crate::worker::{Context, Ended, STALL_WINDOW, TIME_CHECK_STRIDE, Valued, exact};

/// What the threads of one search share besides the tree.
pub(crate) struct Shared {
    /// Simulations claimed against the iteration budget (may pass it by
    /// the number of threads: a claim past the budget is not run).
    pub(crate) claimed: AtomicU64,
    /// Simulations started, all threads together.
    pub(crate) started: AtomicU64,
    /// The iteration budget, all threads together.
    pub(crate) limit: u64,
    /// The most nodes the tree may hold in this search.
    pub(crate) node_cap: usize,
    /// Stop once the tree is full (a `Limits::nodes` budget).
    pub(crate) stop_when_full: bool,
    /// Stop once the tree stops growing (a node budget alone).
    pub(crate) stop_when_stalled: bool,
    pub(crate) virtual_loss: u32,
    /// Leaves collected before the evaluator is called.
    pub(crate) batch_size: usize,
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

pub(crate) struct SharedWorker<G: Game, P> {
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

impl<G: Game, P: Playout<G>> SharedWorker<G, P> {
    pub(crate) fn new(playout: P, seed: u64) -> Self {
        SharedWorker {
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

    /// Clears the AMAF marks for an action space of `num_actions`.
    pub(crate) fn prepare(&mut self, amaf: bool, num_actions: usize) {
        if amaf {
            self.marks.clear();
            self.marks.resize(2 * num_actions, 0);
            self.epoch = 0;
        }
    }

    /// Runs iterations until a limit, a proof or a full tree ends the
    /// search; returns how many this thread ran and why it stopped.
    pub(crate) fn run<T, E, C>(
        &mut self,
        root: &G,
        ctx: &Context<'_, T, E>,
        tree: &SharedTree<G::Move, C>,
        shared: &Shared,
        values: fn(&E, &mut Batch<G>),
        budget: &Budget<'_>,
    ) -> (u64, Ended)
    where
        T: TreePolicy<G>,
        E: Evaluator<G>,
        C: Cells,
    {
        self.max_depth = 0;
        let mut done = 0;
        let (mut size, mut grown_at) = (tree.len(), shared.started.load(Ordering::Relaxed));
        let ended = loop {
            // As in the sequential worker: a proven root ends the search,
            // except a proven win longer than one ply, searched on until
            // the tree stops growing.
            let top = tree.node(0);
            let (proof, plies) = top.proof();
            let for_player = if top.mover() == root.to_move() {
                proof
            } else {
                proof.flipped()
            };
            let proven_win = for_player == Proof::Win;
            if for_player != Proof::Unknown && (!proven_win || plies <= 1) {
                break Ended::Solved;
            }
            if shared.claimed.load(Ordering::Relaxed) >= shared.limit {
                break Ended::Iterations;
            }
            if shared.stop_when_full
                && (tree.full.load(Ordering::Relaxed) || tree.len() >= shared.node_cap)
            {
                break Ended::Full;
            }
            let started = shared.started.load(Ordering::Relaxed);
            if tree.len() > size {
                (size, grown_at) = (tree.len(), started);
            } else if (shared.stop_when_stalled || proven_win)
                && started - grown_at > STALL_WINDOW.max(size as u64)
            {
                break if proven_win {
                    Ended::Solved
                } else {
                    Ended::Stalled
                };
            }
            if done % TIME_CHECK_STRIDE == 0
                && let Some(reason) = budget.interrupted()
            {
                break Ended::Interrupted(reason);
            }
            if shared.claimed.fetch_add(1, Ordering::Relaxed) >= shared.limit {
                break Ended::Iterations;
            }
            shared.started.fetch_add(1, Ordering::Relaxed);
            self.simulate(root, ctx, tree, shared);
            done += 1;
            if self.waiting.len() >= shared.batch_size {
                self.flush(ctx, tree, values);
            }
        };
        self.flush(ctx, tree, values);
        (done, ended)
    }

    /// Evaluates the leaves waiting in the batch and backs them up, in the
    /// order they were reached.
    fn flush<T, E, C>(
        &mut self,
        ctx: &Context<'_, T, E>,
        tree: &SharedTree<G::Move, C>,
        values: fn(&E, &mut Batch<G>),
    ) where
        T: TreePolicy<G>,
        E: Evaluator<G>,
        C: Cells,
    {
        if self.waiting.is_empty() {
            return;
        }
        values(ctx.evaluator, &mut self.batch);
        let waiting = std::mem::take(&mut self.waiting);
        let paths = std::mem::take(&mut self.waiting_paths);
        let traces = std::mem::take(&mut self.waiting_traces);
        for (entry, sim) in waiting.iter().enumerate() {
            let value = contain_value(self.batch.value(entry));
            self.backpropagate(
                tree,
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

    /// One simulation: selection with virtual loss, expansion, the leaf's
    /// value (now, or later from the batch), backpropagation.
    fn simulate<T, E, C>(
        &mut self,
        root: &G,
        ctx: &Context<'_, T, E>,
        tree: &SharedTree<G::Move, C>,
        shared: &Shared,
    ) where
        T: TreePolicy<G>,
        E: Evaluator<G>,
        C: Cells,
    {
        let mut state = root.clone();
        self.path.clear();
        self.trace.clear();
        self.path.push(0);
        tree.node(0).stats.enter();
        let mut node = 0u32;
        let leaf = loop {
            let current = tree.node(node);
            if node != 0
                && let Some(value) = current.proof().0.value()
            {
                // Solved: the exact value, no playout needed.
                break Leaf::Now((value, current.mover()), false);
            }
            let kind = current.kind.load(Ordering::Acquire);
            if kind == TERMINAL {
                break Leaf::Now(exact(&state), false);
            }
            if kind != EXPANDED {
                if current.arrivals.fetch_add(1, Ordering::Relaxed) == 0 {
                    // The first simulation to reach a leaf values it.
                    break match self.value_leaf(root, &mut state, ctx) {
                        Leaf::Now(leaf, true) => Leaf::Now(leaf, mark_terminal(tree, node, leaf)),
                        other => other,
                    };
                }
                // Every later one goes on to a child.
                match self.expand(tree, node, &state, ctx, shared) {
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
            let child = self.select(tree, node, ctx, shared.virtual_loss);
            if T::AMAF {
                self.trace
                    .push(tree.amaf(child).key.load(Ordering::Relaxed));
            }
            let child_node = tree.node(child);
            state.play(child_node.mv());
            self.path.push(child);
            child_node.stats.enter();
            node = child;
        };
        self.max_depth = self.max_depth.max(self.path.len() as u32 - 1);
        match leaf {
            Leaf::Now(valued, proven) => {
                let path = std::mem::take(&mut self.path);
                let trace = std::mem::take(&mut self.trace);
                self.backpropagate(tree, &path, &trace, valued, proven);
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

    /// Gives `node` its children, unless another thread does (then waits
    /// for it) or the tree is full.
    fn expand<T, E, C>(
        &mut self,
        tree: &SharedTree<G::Move, C>,
        node: u32,
        state: &G,
        ctx: &Context<'_, T, E>,
        shared: &Shared,
    ) -> Expansion
    where
        T: TreePolicy<G>,
        C: Cells,
    {
        let current = tree.node(node);
        if current
            .kind
            .compare_exchange(LEAF, EXPANDING, Ordering::Acquire, Ordering::Acquire)
            .is_ok()
        {
            let mut moves = std::mem::take(&mut self.moves);
            state.legal_moves(&mut moves);
            let result = if moves.is_empty() {
                let leaf = exact(state);
                Expansion::Finished(leaf, mark_terminal(tree, node, leaf))
            } else if let Some(first) = tree.allocate(moves.len(), shared.node_cap) {
                let mover = state.to_move();
                let base = mover.index() * ctx.num_actions;
                tree.expand(node, first, &moves, mover, |mv| {
                    (base + ctx.policy.action_index(state, mv)) as u32
                });
                Expansion::Expanded
            } else {
                tree.full.store(true, Ordering::Relaxed);
                current.kind.store(LEAF, Ordering::Release);
                Expansion::Full
            };
            self.moves = moves;
            return result;
        }
        // Another thread holds the expansion: it only writes the block, so
        // waiting for it is short.
        let mut spins = 0u32;
        loop {
            match current.kind.load(Ordering::Acquire) {
                EXPANDING => {
                    spins += 1;
                    if spins < 64 {
                        std::hint::spin_loop();
                    } else {
                        std::thread::yield_now();
                    }
                }
                EXPANDED => return Expansion::Expanded,
                TERMINAL => return Expansion::Finished(exact(state), false),
                // That thread found the tree full.
                _ => return Expansion::Full,
            }
        }
    }

    /// The child of expanded `node` to descend to: as the sequential
    /// worker scores children, with each simulation in flight through a
    /// node counted as `virtual_loss` visits lost by its mover.
    #[inline]
    fn select<T, E, C>(
        &self,
        tree: &SharedTree<G::Move, C>,
        node: u32,
        ctx: &Context<'_, T, E>,
        virtual_loss: u32,
    ) -> u32
    where
        T: TreePolicy<G>,
        C: Cells,
    {
        let parent = tree.node(node);
        let children = parent.children();
        let first = children.start;
        let stats = parent.stats.read();
        // The simulations in flight through the parent but this one.
        let parent_visits = stats.visits + virtual_loss * stats.in_flight.saturating_sub(1);
        let scale = || ctx.exploration * (parent_visits.max(1) as f32).ln().sqrt();
        let mut scale_value = f32::NAN;
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        for child in children {
            let candidate = tree.node(child);
            let stats = candidate.stats.read();
            let visits = stats.visits + virtual_loss * stats.in_flight;
            let (amaf_visits, amaf_sum) = if T::AMAF {
                tree.amaf(child).stats.read()
            } else {
                (0, 0.0)
            };
            let beta = if T::AMAF {
                ctx.policy.beta(visits, amaf_visits)
            } else {
                0.0
            };
            if visits == 0 && beta == 0.0 {
                // Nothing known of this move: try it first.
                return child;
            }
            // Proven losses are never worth a visit.
            if candidate.proof().0 == Proof::Loss {
                continue;
            }
            if scale_value.is_nan() {
                scale_value = scale();
            }
            let (q, inv_sqrt_visits) = effective(stats, visits, virtual_loss);
            let value = if T::AMAF {
                let amaf_mean = if amaf_visits == 0 {
                    0.0
                } else {
                    amaf_sum / amaf_visits as f32
                };
                q + beta * (amaf_mean - q)
            } else {
                q
            };
            let score = value + scale_value * inv_sqrt_visits;
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    /// Values the position `state` reached at a leaf: a playout (to the
    /// end or to a cut-off), then, unless the game ended, the evaluator
    /// through the batch.
    fn value_leaf<T, E>(&mut self, root: &G, state: &mut G, ctx: &Context<'_, T, E>) -> Leaf
    where
        T: TreePolicy<G>,
    {
        let plies = match ctx.leaf {
            LeafEvaluation::Evaluator => {
                if state.outcome().is_some() {
                    return Leaf::Now(exact(state), true);
                }
                self.batch.push(state, &[]);
                return Leaf::Later(state.to_move());
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
        let player = state.to_move();
        match outcome {
            Some(outcome) => Leaf::Now((outcome.reward(player), player), played == 0),
            None => {
                self.batch.push(state, &[]);
                Leaf::Later(player)
            }
        }
    }

    fn backpropagate<C: Cells>(
        &mut self,
        tree: &SharedTree<G::Move, C>,
        path: &[u32],
        trace: &[u32],
        (value, player): Valued,
        mut proven: bool,
    ) {
        let amaf = tree.has_amaf();
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
            let node = tree.node(index);
            node.stats.record(for_player(node.mover()));
            if proven && depth + 1 < path.len() {
                // A child was just proven: maybe this node is too.
                let (proof, plies) = tree.solve(index);
                proven = node.prove(proof, plies);
            }
            if !amaf {
                continue;
            }
            if depth < tree_moves
                && let Some(mark) = self.marks.get_mut(trace[depth] as usize)
            {
                *mark = self.epoch;
            }
            let children = node.children();
            if children.is_empty() {
                continue;
            }
            // Every child of a node is played by the player to move there.
            let child_value = for_player(tree.node(children.start).mover());
            for child in children {
                let entry = tree.amaf(child);
                if self.marks.get(entry.key.load(Ordering::Relaxed) as usize) == Some(&self.epoch) {
                    entry.stats.add(child_value);
                }
            }
        }
    }
}

/// A child's mean and `1 / sqrt(visits)` as selection uses them: its own
/// when no simulation is in flight through it, else with `virtual_loss`
/// lost visits per simulation in flight (`visits` counts them).
#[inline]
fn effective(stats: Snapshot, visits: u32, virtual_loss: u32) -> (f32, f32) {
    if stats.in_flight == 0 || virtual_loss == 0 {
        let inv_sqrt_visits = if stats.visits == 0 {
            1.0
        } else {
            (stats.visits as f32).sqrt().recip()
        };
        return (stats.mean, inv_sqrt_visits);
    }
    let lost = (virtual_loss * stats.in_flight) as f32;
    let visits_f = visits as f32;
    (
        (stats.mean * stats.visits as f32 - lost) / visits_f,
        visits_f.sqrt().recip(),
    )
}

/// Marks `node` as a finished game with result `leaf`; returns whether
/// this proved it (it was not proven before).
pub(crate) fn mark_terminal<M: Copy + PartialEq, C: Cells>(
    tree: &SharedTree<M, C>,
    node: u32,
    (value, player): Valued,
) -> bool {
    let current = tree.node(node);
    current.kind.store(TERMINAL, Ordering::Release);
    let for_mover = if current.mover() == player {
        value
    } else {
        -value
    };
    current.prove(Proof::from_value(for_mover), 0)
}
