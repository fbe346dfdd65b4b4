//! One search thread: its tree, random generator and scratch buffers, and
//! the four steps of an iteration (selection, expansion, leaf evaluation,
//! backpropagation).

use game_traits::{Budget, Evaluator, Game, Player, Playout, StopReason, contain_value};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::LeafEvaluation;
use crate::policy::TreePolicy;
use crate::tree::{Kind, Proof, Tree};

/// Reading the clock costs about as much as a few hundred tree steps of a
/// small game; once every this many iterations keeps it negligible while
/// overshooting a time budget by microseconds only.
pub(crate) const TIME_CHECK_STRIDE: u64 = 8;

/// Iterations without a new node after which a search that only a node
/// budget bounds, or that only looks for a shorter proven win, ends (or as
/// many as the tree has nodes, if more).
pub(crate) const STALL_WINDOW: u64 = 10_000;

/// What every thread of one search shares (read only).
pub(crate) struct Context<'a, T, E> {
    pub(crate) policy: &'a T,
    pub(crate) evaluator: &'a E,
    pub(crate) exploration: f32,
    pub(crate) leaf: LeafEvaluation,
    pub(crate) max_playout_plies: u32,
    pub(crate) num_actions: usize,
}

/// This thread's part of the budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Share {
    pub(crate) iterations: u64,
    pub(crate) nodes: usize,
    /// Stop once the tree is full (a `Limits::nodes` budget); otherwise
    /// iterations go on without growing the tree (the memory cap).
    pub(crate) stop_when_full: bool,
    /// Stop once the tree has not grown for [`STALL_WINDOW`] iterations
    /// (or as many as it has nodes, if more): set when a node budget is the
    /// only limit, which a tree that stops growing would never reach.
    pub(crate) stop_when_stalled: bool,
}

/// Why a thread stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    /// Its share of the iterations is done.
    Iterations,
    /// Its tree reached its share of a `Limits::nodes` budget.
    Full,
    /// The root is proven.
    Solved,
    /// The tree stopped growing under a node budget it cannot reach.
    Stalled,
    /// The clock or the stop flag.
    Interrupted(StopReason),
}

/// A value and the player it is for.
pub(crate) type Valued = (f32, Player);

pub(crate) struct Worker<G: Game, P> {
    pub(crate) tree: Tree<G::Move>,
    playout: P,
    rng: Pcg64Mcg,
    /// Node indices from the root to the current leaf.
    path: Vec<u32>,
    moves: Vec<G::Move>,
    /// AMAF keys of the moves of the current simulation, tree part first.
    trace: Vec<u32>,
    /// `marks[key] == epoch`: the move was played later in this simulation
    /// by that player.
    marks: Vec<u32>,
    epoch: u32,
    /// Set when an expansion did not fit under the node cap: the leaf is
    /// played out again instead.
    full: bool,
    pub(crate) max_depth: u32,
}

impl<G: Game, P: Playout<G>> Worker<G, P> {
    pub(crate) fn new(playout: P, seed: u64) -> Self {
        Worker {
            tree: Tree::new(),
            playout,
            rng: Pcg64Mcg::seed_from_u64(seed),
            path: Vec::new(),
            moves: Vec::new(),
            trace: Vec::new(),
            marks: Vec::new(),
            epoch: 0,
            full: false,
            max_depth: 0,
        }
    }

    pub(crate) fn reseed(&mut self, seed: u64) {
        self.rng = Pcg64Mcg::seed_from_u64(seed);
    }

    /// Makes sure the tree has an expanded root for `root`, which must not
    /// be finished; `moves` are its legal moves.
    pub(crate) fn prepare_root<T: TreePolicy<G>>(
        &mut self,
        root: &G,
        moves: &[G::Move],
        ctx: &Context<'_, T, impl Evaluator<G>>,
    ) {
        if T::AMAF && self.tree.num_actions != ctx.num_actions {
            self.tree.clear();
        }
        self.tree.num_actions = ctx.num_actions;
        if self.tree.is_empty() {
            self.tree
                .set_root(moves[0], root.to_move().opponent(), T::AMAF);
        }
        if self.tree.nodes[0].kind != Kind::Expanded {
            // The root's children always get their block, whatever the cap.
            self.expand(0, root, moves, ctx, 0);
        }
        if self.tree.nodes[0].proof == Proof::Unknown {
            self.settle_root_children(root);
        }
        if T::AMAF {
            self.marks.clear();
            self.marks.resize(2 * ctx.num_actions, 0);
            self.epoch = 0;
        }
    }

    /// Marks the root's children that end the game at once as proven, and
    /// the root with them if that decides it: an immediate win is then
    /// found before any iteration (a search stops at a proven root, so
    /// without this a longer proven win could end it first).
    fn settle_root_children(&mut self, root: &G) {
        let mut child_state = root.clone();
        for child in self.tree.nodes[0].children() {
            let node = self.tree.nodes[child];
            if node.kind != Kind::Leaf || node.proof != Proof::Unknown {
                continue;
            }
            child_state.clone_from(root);
            child_state.play(node.mv);
            if child_state.outcome().is_some() {
                self.mark_terminal(child, exact(&child_state));
            }
        }
        let (proof, plies) = self.tree.solve(0);
        if proof != Proof::Unknown {
            let root_node = &mut self.tree.nodes[0];
            root_node.proof = proof;
            root_node.proof_plies = plies;
        }
    }

    /// Gives `node` its children, never reserving memory for more than
    /// `node_cap` nodes (or the nodes needed now, if more).
    fn expand<T: TreePolicy<G>>(
        &mut self,
        node: usize,
        state: &G,
        moves: &[G::Move],
        ctx: &Context<'_, T, impl Evaluator<G>>,
        node_cap: usize,
    ) {
        let mover = state.to_move();
        let base = mover.index() * ctx.num_actions;
        self.tree.expand(
            node,
            moves,
            mover,
            |mv| (base + ctx.policy.action_index(state, mv)) as u32,
            T::AMAF,
            node_cap,
        );
    }

    /// Runs iterations until this thread's share or the clock runs out, or
    /// the root is proven; returns how many it ran and why it stopped.
    pub(crate) fn run<T: TreePolicy<G>, E: Evaluator<G>>(
        &mut self,
        root: &G,
        ctx: &Context<'_, T, E>,
        share: Share,
        budget: &Budget<'_>,
    ) -> (u64, Ended) {
        self.full = false;
        self.max_depth = 0;
        let mut done = 0;
        let (mut size, mut grown_at) = (self.tree.len(), 0);
        let ended = loop {
            // A proven root's value cannot change. Only a proven win that
            // takes more than one ply may still get shorter, so that search
            // goes on within its limits, until the tree stops growing.
            // (The root's proof is for its mover: the opponent of the
            // player to move in a new tree, anyone in a kept subtree.)
            let top = &self.tree.nodes[0];
            let for_player = if top.mover == root.to_move() {
                top.proof
            } else {
                top.proof.flipped()
            };
            let proven_win = for_player == Proof::Win;
            if for_player != Proof::Unknown && (!proven_win || top.proof_plies <= 1) {
                break Ended::Solved;
            }
            if done >= share.iterations {
                break Ended::Iterations;
            }
            if share.stop_when_full && (self.full || self.tree.len() >= share.nodes) {
                break Ended::Full;
            }
            if self.tree.len() > size {
                (size, grown_at) = (self.tree.len(), done);
            } else if (share.stop_when_stalled || proven_win)
                && done - grown_at > STALL_WINDOW.max(size as u64)
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
            self.iterate(root, ctx, share.nodes);
            done += 1;
        };
        (done, ended)
    }

    fn iterate<T: TreePolicy<G>, E: Evaluator<G>>(
        &mut self,
        root: &G,
        ctx: &Context<'_, T, E>,
        node_cap: usize,
    ) {
        let mut state = root.clone();
        self.path.clear();
        self.trace.clear();
        self.path.push(0);
        let mut node = 0usize;
        // Whether the leaf's value became proven in this iteration.
        let mut proven = false;
        let leaf = loop {
            let current = &self.tree.nodes[node];
            if node != 0
                && let Some(value) = current.proof.value()
            {
                // Solved: the exact value, no playout needed.
                break (value, current.mover);
            }
            match current.kind {
                Kind::Expanded => {}
                Kind::Terminal => break exact(&state),
                Kind::Leaf => {
                    if current.visits == 0 {
                        let (leaf, finished) = self.evaluate_leaf(root, &mut state, ctx);
                        if finished {
                            proven = self.mark_terminal(node, leaf);
                        }
                        break leaf;
                    }
                    // Second visit: the children get their block now.
                    let mut moves = std::mem::take(&mut self.moves);
                    state.legal_moves(&mut moves);
                    let fits = self.tree.len() + moves.len() <= node_cap;
                    let leaf = if moves.is_empty() {
                        let leaf = exact(&state);
                        proven = self.mark_terminal(node, leaf);
                        Some(leaf)
                    } else if fits {
                        self.expand(node, &state, &moves, ctx, node_cap);
                        None
                    } else {
                        self.full = true;
                        None
                    };
                    self.moves = moves;
                    if let Some(leaf) = leaf {
                        break leaf;
                    }
                    if self.tree.nodes[node].kind == Kind::Leaf {
                        break self.evaluate_leaf(root, &mut state, ctx).0;
                    }
                }
            }
            let child = self.select(node, ctx);
            if T::AMAF {
                self.trace.push(self.tree.amaf[child].key);
            }
            state.play(self.tree.nodes[child].mv);
            self.path.push(child as u32);
            node = child;
        };
        self.max_depth = self.max_depth.max(self.path.len() as u32 - 1);
        self.backpropagate(leaf, proven);
    }

    /// Marks `node` as a finished game with result `leaf`; returns whether
    /// this is news (the node was not proven before).
    fn mark_terminal(&mut self, node: usize, (value, player): Valued) -> bool {
        let current = &mut self.tree.nodes[node];
        current.kind = Kind::Terminal;
        let for_mover = if current.mover == player {
            value
        } else {
            -value
        };
        let news = current.proof == Proof::Unknown;
        current.proof = Proof::from_value(for_mover);
        news
    }

    /// The child of `node` (expanded) to descend to.
    #[inline]
    fn select<T: TreePolicy<G>, E>(&self, node: usize, ctx: &Context<'_, T, E>) -> usize {
        let parent = &self.tree.nodes[node];
        let range = parent.children();
        let first = range.start;
        let children = &self.tree.nodes[range.clone()];
        // Computed only once a visited child needs it: every child visited
        // implies parent visits >= 1, so the logarithm is finite.
        let scale = || ctx.exploration * (parent.visits as f32).ln().sqrt();
        if !T::AMAF {
            let mut scale_value = f32::NAN;
            let mut best = first;
            let mut best_score = f32::NEG_INFINITY;
            for (offset, child) in children.iter().enumerate() {
                if child.visits == 0 {
                    return first + offset;
                }
                // Proven losses are never worth a visit. (A node with a
                // proven win is itself proven and not entered, except the
                // root, which goes on exploring to find shorter wins.)
                if child.proof == Proof::Loss {
                    continue;
                }
                if scale_value.is_nan() {
                    scale_value = scale();
                }
                let score = child.mean + scale_value * child.inv_sqrt_visits;
                if score > best_score {
                    best_score = score;
                    best = first + offset;
                }
            }
            return best;
        }
        let amaf = &self.tree.amaf[range];
        let mut scale_value = f32::NAN;
        let mut best = first;
        let mut best_score = f32::NEG_INFINITY;
        for (offset, (child, stats)) in children.iter().zip(amaf).enumerate() {
            let beta = ctx.policy.beta(child.visits, stats.visits);
            if child.visits == 0 && beta == 0.0 {
                // Nothing known of this move: try it first, as UCT does.
                return first + offset;
            }
            if child.proof == Proof::Loss {
                continue;
            }
            if scale_value.is_nan() {
                scale_value = scale();
            }
            let q = child.mean;
            let value = q + beta * (stats.mean() - q);
            // An unvisited child with AMAF statistics (beta = 1) is scored
            // by them alone, its exploration term as after one visit.
            let inv_sqrt_visits = if child.visits == 0 {
                1.0
            } else {
                child.inv_sqrt_visits
            };
            let score = value + scale_value * inv_sqrt_visits;
            if score > best_score {
                best_score = score;
                best = first + offset;
            }
        }
        best
    }

    /// Values the position `state` reached at a new leaf; also says
    /// whether the leaf itself is a finished game.
    fn evaluate_leaf<T: TreePolicy<G>, E: Evaluator<G>>(
        &mut self,
        root: &G,
        state: &mut G,
        ctx: &Context<'_, T, E>,
    ) -> (Valued, bool) {
        let plies = match ctx.leaf {
            LeafEvaluation::Evaluator => {
                return (evaluated(state, ctx.evaluator), state.outcome().is_some());
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
        let valued = match outcome {
            Some(outcome) => (outcome.reward(player), player),
            None => evaluated(state, ctx.evaluator),
        };
        (valued, played == 0 && outcome.is_some())
    }

    fn backpropagate(&mut self, (value, player): Valued, mut proven: bool) {
        let amaf = !self.tree.amaf.is_empty();
        let tree_moves = self.path.len() - 1;
        if amaf {
            self.epoch = self.epoch.wrapping_add(1);
            if self.epoch == 0 {
                self.marks.fill(0);
                self.epoch = 1;
            }
            for &key in &self.trace[tree_moves..] {
                if let Some(mark) = self.marks.get_mut(key as usize) {
                    *mark = self.epoch;
                }
            }
        }
        let for_player = |mover: Player| if mover == player { value } else { -value };
        for depth in (0..self.path.len()).rev() {
            let index = self.path[depth] as usize;
            let node = &mut self.tree.nodes[index];
            node.update(for_player(node.mover));
            if proven && depth + 1 < self.path.len() {
                // A child was just proven: maybe this node is too.
                let (proof, plies) = self.tree.solve(index);
                let node = &mut self.tree.nodes[index];
                proven = proof != Proof::Unknown && node.proof == Proof::Unknown;
                if proven {
                    node.proof = proof;
                    node.proof_plies = plies;
                }
            }
            if !amaf {
                continue;
            }
            if depth < tree_moves
                && let Some(mark) = self.marks.get_mut(self.trace[depth] as usize)
            {
                *mark = self.epoch;
            }
            let node = self.tree.nodes[index];
            if node.kind != Kind::Expanded {
                continue;
            }
            // Every child of a node is played by the player to move there.
            let child_value = for_player(self.tree.nodes[node.first_child as usize].mover);
            for stats in &mut self.tree.amaf[node.children()] {
                if self.marks.get(stats.key as usize) == Some(&self.epoch) {
                    stats.visits += 1;
                    stats.sum += child_value;
                }
            }
        }
    }
}

/// Runs `run(index, worker)` for every worker, the first on this thread and
/// the others on scoped threads, and returns the results in worker order.
/// A panic on a helper thread is resumed here.
pub(crate) fn run_workers<W: Send, R: Send>(
    workers: &mut [W],
    run: impl Fn(usize, &mut W) -> R + Sync,
) -> Vec<R> {
    let Some((main, helpers)) = workers.split_first_mut() else {
        return Vec::new();
    };
    if helpers.is_empty() {
        return vec![run(0, main)];
    }
    std::thread::scope(|scope| {
        let run = &run;
        let handles: Vec<_> = helpers
            .iter_mut()
            .enumerate()
            .map(|(index, worker)| scope.spawn(move || run(index + 1, worker)))
            .collect();
        let mut results = vec![run(0, main)];
        for handle in handles {
            results.push(
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        results
    })
}

/// The exact result of a finished position, for the player to move there.
#[inline]
pub(crate) fn exact<G: Game>(state: &G) -> Valued {
    let player = state.to_move();
    (
        state
            .outcome()
            .map_or(0.0, |outcome| outcome.reward(player)),
        player,
    )
}

/// The exact result if the game is over, the evaluator's value otherwise.
pub(crate) fn evaluated<G: Game, E: Evaluator<G>>(state: &G, evaluator: &E) -> Valued {
    let player = state.to_move();
    let value = match state.outcome() {
        Some(outcome) => outcome.reward(player),
        None => contain_value(evaluator.value(state)),
    };
    (value, player)
}
