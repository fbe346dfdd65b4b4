//! Information Set MCTS (single observer, Cowling, Powley & Whitehouse,
//! IEEE TCIAIG 2012) for games with hidden information: one tree over the
//! searching player's information sets instead of one search per world.

use std::fmt;

use game_traits::hidden::{InfoSetSearcher, WorldMove, finished_report};
use game_traits::{
    Evaluator, Game, InformationSet, LimitKind, Limits, OutcomeEvaluator, Player, Playout,
    SearchReport, UniformPlayout,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::config::{ConfigError, LeafEvaluation, MctsConfig, Parallelism};
use crate::driver::{
    Ended, Iterating, Plan, RootMove, Rules, Share, Valued, drive, evaluated, exact, root_report,
    run_workers, search_stats, thread_seed,
};
use crate::knowledge::MctsKnowledge;
use crate::policy::Uct;
use crate::tree::Proof;

/// No node: the end of a sibling list, or a node without children.
const NONE: u32 = u32::MAX;

/// Single-observer Information Set MCTS over any [`InformationSet`].
///
/// Each iteration
///
/// 1. **samples a world** consistent with the information set (seeded);
/// 2. **selects** from the root down, among the children whose move is
///    legal in that world only: a child's exploration term counts the
///    times it was *available* (its move legal when its parent was
///    visited), not the parent's visits: `q + c sqrt(ln(available) /
///    visits)`;
/// 3. **expands** one move of the world not in the tree yet;
/// 4. **plays out** the world with the [`Playout`] policy (or values it with
///    the [`Evaluator`], as [`MctsConfig::leaf`] says);
/// 5. **backs up** the result along the path, each node for the player who
///    made its move.
///
/// Nodes stand for moves as the searching player sees them: its own moves
/// as they are, the opponent's through [`InformationSet::observed_move`],
/// so opponent moves that look the same share one node (when one is
/// selected, the world plays one of the moves it stands for, drawn at
/// random). A node is thus the set of positions the searching player cannot
/// tell apart after those moves, and its statistics are shared by every
/// world that reaches it: the search must choose one move for all of them,
/// which is what removes PIMC's *strategy fusion*. The opponent is modelled
/// as seeing no more than the searching player does (single observer); what
/// an attack reveals is not part of a move, so a node after an attack holds
/// every outcome of it.
///
/// The settings are those of [`Mcts`](crate::Mcts) ([`MctsConfig`]): the
/// exploration constant, threads (root parallelism: one tree per thread,
/// root statistics summed), seed, leaf evaluation, node cap, default
/// budget and playout length. `reuse_tree` keeps the subtree reached
/// through [`Ismcts::advance`] for the next search. There is no
/// MCTS-Solver: a result proven in one world is not proven in the others.
///
/// ```
/// use game_traits::hidden::{Arbiter, InfoSetSearcher};
/// use game_traits::testing::{ShellMove, ShellTable};
/// use game_traits::{Limits, Player};
/// use mcts_rave::{Ismcts, MctsConfig, MctsKnowledge};
///
/// // One pea under three cups: folding (a draw) is the best move; PIMC,
/// // which searches every world as if it saw the pea, delays instead.
/// let table = ShellTable::strategy_fusion();
/// let info = table.information_set(Player::First);
/// let mut search = Ismcts::new(MctsKnowledge::uct(), MctsConfig::default().with_seed(1))?;
/// let report = search.search(&info, &Limits::iterations(5_000));
/// assert_eq!(report.best, Some(ShellMove::Fold));
/// # Ok::<(), mcts_rave::ConfigError>(())
/// ```
pub struct Ismcts<I: InformationSet, P = UniformPlayout, E = OutcomeEvaluator> {
    config: MctsConfig,
    playout: P,
    evaluator: E,
    /// One per thread, each in its own allocation.
    workers: Vec<Box<IsWorker<WorldMove<I>, P>>>,
    /// Whether the kept trees stand for the next information set searched
    /// (set by a search and kept by [`Ismcts::advance`]).
    kept: bool,
}

impl<I, P, E> Ismcts<I, P, E>
where
    I: InformationSet,
    P: Playout<I::World> + Clone + Send,
    E: Evaluator<I::World>,
{
    /// A search with the playout and evaluator of `knowledge` (ISMCTS
    /// selects by UCT, so its tree policy is [`Uct`]) and the settings of
    /// `config`.
    ///
    /// # Errors
    ///
    /// Returns [`ConfigError`] if a setting is out of range, or if it asks
    /// for tree parallelism or batches of leaves (ISMCTS runs one tree per
    /// thread and evaluates one leaf at a time).
    pub fn new(
        knowledge: MctsKnowledge<Uct, P, E>,
        config: MctsConfig,
    ) -> Result<Self, ConfigError> {
        let MctsKnowledge {
            playout, evaluator, ..
        } = knowledge;
        config.validate()?;
        if config.parallelism != Parallelism::Root {
            return Err(ConfigError::Unsupported {
                name: "parallelism",
                value: 1.0,
                reason: "ISMCTS keeps one tree per thread (Parallelism::Root)",
            });
        }
        if config.batch_size != 1 {
            return Err(ConfigError::Unsupported {
                name: "batch_size",
                value: config.batch_size as f64,
                reason: "ISMCTS evaluates one leaf at a time",
            });
        }
        Ok(Ismcts {
            config,
            playout,
            evaluator,
            workers: Vec::new(),
            kept: false,
        })
    }

    /// The settings.
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }

    /// Nodes currently kept, all threads together.
    pub fn tree_nodes(&self) -> usize {
        self.workers.iter().map(|worker| worker.tree.len()).sum()
    }

    /// Visits of the kept roots, all threads together (0 without a tree).
    pub fn root_visits(&self) -> u64 {
        self.workers
            .iter()
            .filter(|worker| !worker.tree.is_empty())
            .map(|worker| u64::from(worker.tree.nodes[0].visits))
            .sum()
    }

    /// Moves the roots of the kept trees to the child of the move `seen`,
    /// as the searching player saw it: its own move as played, an
    /// opponent's move as [`InformationSet::observed_move`] gives it (in
    /// Hidden Jungle, the move itself). The next search keeps that
    /// subtree, whose statistics come from worlds consistent with every
    /// move seen so far (what else was learnt, such as a revealed animal,
    /// only rules out some of the worlds they were drawn from). Call it
    /// once per move played since the last search; a move the trees do not
    /// know drops them. Does nothing unless [`MctsConfig::reuse_tree`].
    pub fn advance(&mut self, seen: WorldMove<I>) {
        if !self.config.reuse_tree || !self.kept {
            return;
        }
        let mut known = true;
        for worker in &mut self.workers {
            known &= worker.tree.advance(seen);
        }
        if !known {
            self.clear_trees();
        }
    }

    fn clear_trees(&mut self) {
        for worker in &mut self.workers {
            worker.tree.clear();
        }
        self.kept = false;
    }

    /// Keeps the trees only if they may stand for `info` (whose legal moves
    /// are `moves`): kept by the last search and [`Ismcts::advance`], with
    /// root children for the player to move in `info` and only moves of
    /// `moves`.
    fn sync_root(&mut self, info: &I, moves: &[WorldMove<I>]) {
        let keep = self.config.reuse_tree
            && self.kept
            && self.workers.iter().all(|worker| {
                let tree = &worker.tree;
                !tree.is_empty()
                    && tree.children(0).all(|child| {
                        let node = &tree.nodes[child];
                        node.mover == info.to_move() && moves.contains(&node.mv)
                    })
            });
        if !keep {
            self.clear_trees();
        }
        self.kept = false;
        while self.workers.len() < self.config.threads {
            let seed = thread_seed(self.config.seed, self.workers.len());
            self.workers
                .push(Box::new(IsWorker::new(self.playout.clone(), seed)));
        }
        self.workers.truncate(self.config.threads);
        for worker in &mut self.workers {
            if worker.tree.is_empty() {
                // The root's move stands for nothing; any move will do.
                worker.tree.set_root(moves[0], info.to_move().opponent());
            }
        }
    }

    /// Runs the threads, each on its own tree; returns the iterations each
    /// ran and why it stopped.
    fn run(
        &mut self,
        info: &I,
        limits: &Limits,
        budget: &game_traits::Budget<'_>,
    ) -> Vec<(u64, Ended)> {
        let threads = self.workers.len();
        let context = IsContext {
            evaluator: &self.evaluator,
            exploration: self.config.exploration,
            leaf: self.config.leaf,
            max_playout_plies: self.config.max_playout_plies,
        };
        let plan = Plan::new(limits, &self.config);
        let rules = Rules {
            // A small game's tree may never reach a node budget (worlds
            // share nodes); a budget it stops growing toward ends the
            // search, whatever else limits it.
            stop_when_stalled: limits.nodes.is_some(),
            ..plan.rules(((plan.node_cap / threads as u64) as usize).max(1))
        };
        run_workers(&mut self.workers, |index, worker| {
            worker.full = false;
            worker.max_depth = 0;
            let share = Share::new(plan.iterations_of(index, threads));
            let mut job = IsJob {
                worker: &mut **worker,
                info,
                ctx: &context,
                node_cap: rules.node_cap,
            };
            drive(&mut job, share, &rules, budget)
        })
    }

    /// Visits and value sums of the root moves `moves`, all trees together.
    fn merged_root(&self, moves: &[WorldMove<I>]) -> Vec<RootMove<WorldMove<I>>> {
        let mut merged: Vec<_> = moves.iter().map(|&mv| RootMove::new(mv)).collect();
        for worker in &self.workers {
            let tree = &worker.tree;
            for child in tree.children(0) {
                let node = &tree.nodes[child];
                if let Some(slot) = merged.iter_mut().find(|slot| slot.mv == node.mv) {
                    slot.visits += u64::from(node.visits);
                    slot.value_sum += f64::from(node.mean) * f64::from(node.visits);
                }
            }
        }
        merged
    }

    /// The most visited line from the root move `best`, in the tree that
    /// visited it most.
    fn principal_variation(&self, best: WorldMove<I>) -> Vec<WorldMove<I>> {
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
            while let Some(child) = tree
                .children(node)
                .max_by_key(|&child| tree.nodes[child].visits)
                .filter(|&child| tree.nodes[child].visits > 0)
            {
                pv.push(tree.nodes[child].mv);
                node = child;
            }
        }
        pv
    }
}

impl<I, P, E> InfoSetSearcher<I> for Ismcts<I, P, E>
where
    I: InformationSet,
    P: Playout<I::World> + Clone + Send,
    E: Evaluator<I::World>,
{
    /// Searches within `limits`: iterations (all threads together), time,
    /// nodes (tree nodes kept: the search stops when its trees are full)
    /// and the stop flag; `limits.depth` is ignored. Without any of these
    /// it runs [`MctsConfig::default_iterations`] iterations. With a node
    /// budget it also ends once the trees stop growing short of it (no new
    /// node for 10,000 iterations or as many as the tree has nodes,
    /// [`StopReason::Exhausted`](game_traits::StopReason::Exhausted)): a small game's tree may never reach it.
    ///
    /// Memory: a tree that reaches [`MctsConfig::max_nodes`] (shared out
    /// between the threads) stops growing, and the search goes on playing
    /// out from its leaves until a limit ends it.
    ///
    /// The best move is the root move of `info.legal_moves` with the most
    /// visits (ties to the higher mean, then the earlier move); the value
    /// is its mean; the report gives every root move's visits and mean.
    fn search(&mut self, info: &I, limits: &Limits) -> SearchReport<WorldMove<I>> {
        let budget = limits.start();
        let mut moves = Vec::new();
        info.legal_moves(&mut moves);
        if moves.is_empty() {
            self.clear_trees();
            return finished_report(info, budget.elapsed());
        }
        self.sync_root(info, &moves);
        let results = self.run(info, limits, &budget);
        let stats = search_stats(
            &results,
            limits,
            self.tree_nodes(),
            self.workers.iter().map(|worker| worker.max_depth),
            budget.elapsed(),
        );
        self.kept = true;
        root_report(&self.merged_root(&moves), stats, |best| {
            self.principal_variation(best)
        })
    }

    /// Drops the trees and restarts every random generator from the seed.
    fn reset(&mut self) {
        self.clear_trees();
        for thread in 0..self.workers.len() {
            let seed = thread_seed(self.config.seed, thread);
            self.workers[thread].rng = Pcg64Mcg::seed_from_u64(seed);
        }
    }

    fn name(&self) -> String {
        "ismcts".to_string()
    }

    /// Every field but depth.
    fn honours(&self, kind: LimitKind) -> bool {
        kind != LimitKind::Depth
    }
}

impl<I: InformationSet, P: fmt::Debug, E> fmt::Debug for Ismcts<I, P, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ismcts")
            .field("config", &self.config)
            .field("playout", &self.playout)
            .field(
                "tree_nodes",
                &self
                    .workers
                    .iter()
                    .map(|worker| worker.tree.len())
                    .sum::<usize>(),
            )
            .finish_non_exhaustive()
    }
}

/// One node: the moves, as the searching player sees them, that lead to it
/// from its parent. Statistics are for `mover`, who made the move.
#[derive(Clone, Copy, Debug)]
struct IsNode<M> {
    /// The move, or the representative of the moves that look like it.
    mv: M,
    mover: Player,
    visits: u32,
    /// Visits of the parent in which this move was legal (in the world of
    /// that iteration).
    available: u32,
    /// Mean backed-up value for `mover`.
    mean: f32,
    first_child: u32,
    next_sibling: u32,
}

impl<M> IsNode<M> {
    fn new(mv: M, mover: Player) -> Self {
        IsNode {
            mv,
            mover,
            visits: 0,
            available: 0,
            mean: 0.0,
            first_child: NONE,
            next_sibling: NONE,
        }
    }
}

/// An arena of nodes; the root is node 0, children are a linked list.
#[derive(Clone, Debug)]
struct IsTree<M> {
    nodes: Vec<IsNode<M>>,
}

impl<M: Copy + PartialEq> IsTree<M> {
    fn new() -> Self {
        IsTree { nodes: Vec::new() }
    }

    fn len(&self) -> usize {
        self.nodes.len()
    }

    fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    fn clear(&mut self) {
        self.nodes.clear();
    }

    /// A fresh root, as if reached by `mv` of `mover`.
    fn set_root(&mut self, mv: M, mover: Player) {
        self.nodes.clear();
        self.nodes.push(IsNode::new(mv, mover));
    }

    /// Adds a child for `mv` of `mover` to `parent`; returns its index.
    fn add_child(&mut self, parent: usize, mv: M, mover: Player) -> usize {
        let index = self.nodes.len();
        let mut node = IsNode::new(mv, mover);
        node.next_sibling = self.nodes[parent].first_child;
        self.nodes.push(node);
        self.nodes[parent].first_child = index as u32;
        index
    }

    /// Makes the child for `mv` of the root the new root, keeping its
    /// subtree only; returns whether there was such a child.
    fn advance(&mut self, mv: M) -> bool {
        let Some(child) = self.child(0, mv) else {
            self.clear();
            return false;
        };
        let mut kept = Vec::new();
        // Copy the subtree in depth-first order, renumbering as we go.
        let mut stack = vec![(child, NONE)];
        while let Some((old, parent)) = stack.pop() {
            let index = kept.len() as u32;
            let mut node = self.nodes[old];
            node.first_child = NONE;
            node.next_sibling = NONE;
            if parent != NONE {
                let parent_node: &mut IsNode<M> = &mut kept[parent as usize];
                node.next_sibling = parent_node.first_child;
                parent_node.first_child = index;
            }
            kept.push(node);
            stack.extend(self.children(old).map(|grandchild| (grandchild, index)));
        }
        self.nodes = kept;
        true
    }

    fn children(&self, node: usize) -> impl Iterator<Item = usize> + '_ {
        let mut next = self.nodes.get(node).map_or(NONE, |node| node.first_child);
        std::iter::from_fn(move || {
            if next == NONE {
                return None;
            }
            let current = next as usize;
            next = self.nodes[current].next_sibling;
            Some(current)
        })
    }

    fn child(&self, node: usize, mv: M) -> Option<usize> {
        self.children(node)
            .find(|&child| self.nodes[child].mv == mv)
    }
}

/// What every thread of one search shares (read only).
struct IsContext<'a, E> {
    evaluator: &'a E,
    exploration: f32,
    leaf: LeafEvaluation,
    max_playout_plies: u32,
}

/// One thread's search, as the driver runs it.
struct IsJob<'a, I: InformationSet, P, E> {
    worker: &'a mut IsWorker<WorldMove<I>, P>,
    info: &'a I,
    ctx: &'a IsContext<'a, E>,
    node_cap: usize,
}

impl<I, P, E> Iterating for IsJob<'_, I, P, E>
where
    I: InformationSet,
    P: Playout<I::World>,
    E: Evaluator<I::World>,
{
    /// No MCTS-Solver: a result proven in one world is not proven in the
    /// others.
    fn root_proof(&self) -> (Proof, u16) {
        (Proof::Unknown, 0)
    }

    fn tree_len(&self) -> usize {
        self.worker.tree.len()
    }

    fn tree_full(&self) -> bool {
        self.worker.full
    }

    fn iterate(&mut self) {
        self.worker.iterate(self.info, self.ctx, self.node_cap);
    }
}

/// One search thread: its tree, random generator and scratch buffers.
struct IsWorker<M, P> {
    tree: IsTree<M>,
    playout: P,
    rng: Pcg64Mcg,
    /// Node indices from the root to the current leaf.
    path: Vec<u32>,
    moves: Vec<M>,
    /// How the searching player sees each of `moves`.
    seen: Vec<M>,
    /// Children of the current node whose move is legal in this world.
    available: Vec<u32>,
    /// Seen moves of the current node that have no child yet.
    untried: Vec<M>,
    /// The leaf's tree could not grow: the node cap is reached.
    full: bool,
    max_depth: u32,
}

impl<M: Copy + PartialEq, P> IsWorker<M, P> {
    fn new(playout: P, seed: u64) -> Self {
        IsWorker {
            tree: IsTree::new(),
            playout,
            rng: Pcg64Mcg::seed_from_u64(seed),
            path: Vec::new(),
            moves: Vec::new(),
            seen: Vec::new(),
            available: Vec::new(),
            untried: Vec::new(),
            full: false,
            max_depth: 0,
        }
    }
}

impl<M: Copy + PartialEq, P> IsWorker<M, P> {
    /// One iteration on a freshly sampled world.
    fn iterate<I, E>(&mut self, info: &I, ctx: &IsContext<'_, E>, node_cap: usize)
    where
        I: InformationSet,
        I::World: Game<Move = M>,
        P: Playout<I::World>,
        E: Evaluator<I::World>,
    {
        let mut world = info.sample_world(&mut self.rng);
        let observer = info.player();
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        let leaf = loop {
            world.legal_moves(&mut self.moves);
            if self.moves.is_empty() {
                break exact(&world);
            }
            let mover = world.to_move();
            self.seen.clear();
            if mover == observer {
                self.seen.extend_from_slice(&self.moves);
            } else {
                self.seen
                    .extend(self.moves.iter().map(|&mv| info.observed_move(&world, mv)));
            }
            // The children this world allows, and the seen moves without one.
            self.available.clear();
            self.untried.clear();
            for &seen in &self.seen {
                match self.tree.child(node, seen) {
                    Some(child) => {
                        if !self.available.contains(&(child as u32)) {
                            self.available.push(child as u32);
                        }
                    }
                    None => {
                        if !self.untried.contains(&seen) {
                            self.untried.push(seen);
                        }
                    }
                }
            }
            for &child in &self.available {
                self.tree.nodes[child as usize].available += 1;
            }
            let grow = !self.untried.is_empty() && self.tree.len() < node_cap;
            if !self.untried.is_empty() && !grow {
                self.full = true;
            }
            let child = if grow {
                let seen = self.untried[self.rng.random_range(..self.untried.len())];
                let child = self.tree.add_child(node, seen, mover);
                self.tree.nodes[child].available = 1;
                child
            } else if self.available.is_empty() {
                // Full tree, and nothing here yet: play out from here.
                break self.evaluate_leaf(&mut world, ctx);
            } else {
                self.select(ctx)
            };
            let mv = self.world_move(child);
            world.play(mv);
            self.path.push(child as u32);
            node = child;
            if grow {
                break self.evaluate_leaf(&mut world, ctx);
            }
        };
        self.max_depth = self.max_depth.max(self.path.len() as u32 - 1);
        self.backpropagate(leaf);
    }

    /// The child of the available ones with the best UCB score, its
    /// exploration term counting the times it was available.
    fn select<E>(&self, ctx: &IsContext<'_, E>) -> usize {
        let mut best = self.available[0] as usize;
        let mut best_score = f32::NEG_INFINITY;
        for &child in &self.available {
            let node = &self.tree.nodes[child as usize];
            if node.visits == 0 {
                return child as usize;
            }
            let explore = ((node.available as f32).ln() / node.visits as f32).sqrt();
            let score = node.mean + ctx.exploration * explore;
            if score > best_score {
                best_score = score;
                best = child as usize;
            }
        }
        best
    }

    /// A move of this world that `child` stands for (drawn at random when
    /// several look the same).
    fn world_move(&mut self, child: usize) -> M {
        let seen = self.tree.nodes[child].mv;
        let matching = self.seen.iter().filter(|&&mv| mv == seen).count();
        let mut pick = if matching > 1 {
            self.rng.random_range(..matching)
        } else {
            0
        };
        for (index, &mv) in self.seen.iter().enumerate() {
            if mv == seen {
                if pick == 0 {
                    return self.moves[index];
                }
                pick -= 1;
            }
        }
        unreachable!("a child stands for a move of the world")
    }

    /// Values the world reached at a new leaf.
    fn evaluate_leaf<G, E>(&mut self, world: &mut G, ctx: &IsContext<'_, E>) -> Valued
    where
        G: Game<Move = M>,
        P: Playout<G>,
        E: Evaluator<G>,
    {
        let plies = match ctx.leaf {
            LeafEvaluation::Evaluator => return evaluated(world, ctx.evaluator),
            LeafEvaluation::Playout => ctx.max_playout_plies,
            LeafEvaluation::PlayoutCutoff { depth } => depth.min(ctx.max_playout_plies),
        };
        let (outcome, _) = self.playout.play_out(
            world,
            &mut self.rng,
            &mut self.moves,
            plies as usize,
            |_, _| {},
        );
        match outcome {
            Some(outcome) => {
                let player = world.to_move();
                (outcome.reward(player), player)
            }
            None => evaluated(world, ctx.evaluator),
        }
    }

    fn backpropagate(&mut self, (value, player): Valued) {
        for &index in &self.path {
            let node = &mut self.tree.nodes[index as usize];
            let value = if node.mover == player { value } else { -value };
            node.visits = node.visits.saturating_add(1);
            node.mean += (value - node.mean) / node.visits as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use game_traits::hidden::Arbiter;
    use game_traits::testing::{ShellGame, ShellInfo, ShellMove, ShellTable};
    use rand::Rng;

    use super::*;

    /// The shell game's guesser, blindfolded while the hider answers: it
    /// cannot tell which cup was shown.
    #[derive(Clone, Debug)]
    struct Blindfolded(ShellInfo);

    impl InformationSet for Blindfolded {
        type World = ShellGame;
        fn player(&self) -> Player {
            self.0.player()
        }
        fn to_move(&self) -> Player {
            self.0.to_move()
        }
        fn legal_moves(&self, out: &mut Vec<ShellMove>) {
            self.0.legal_moves(out);
        }
        fn sample_world<R: Rng + ?Sized>(&self, rng: &mut R) -> ShellGame {
            self.0.sample_world(rng)
        }
        fn observed_move(&self, _world: &ShellGame, mv: ShellMove) -> ShellMove {
            match mv {
                ShellMove::Show(_) => ShellMove::Show(0),
                other => other,
            }
        }
    }

    /// The seen moves under the root's child `mv`, in tree order.
    fn seen_after<I: InformationSet<World = ShellGame>>(
        search: &Ismcts<I>,
        mv: ShellMove,
    ) -> Vec<ShellMove> {
        let tree = &search.workers[0].tree;
        let delay = tree.child(0, mv).unwrap();
        let mut seen: Vec<ShellMove> = tree.children(delay).map(|c| tree.nodes[c].mv).collect();
        seen.sort();
        seen
    }

    #[test]
    fn opponent_moves_that_look_the_same_share_a_node() {
        let table = ShellTable::new(ShellGame::new(5, 0b00100, 0).unwrap());
        let info = table.information_set(Player::First);
        let limits = Limits::iterations(3_000);
        let mut sighted = Ismcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
        sighted.search(&info, &limits);
        // Four empty cups in every world, all five cups empty in some.
        let shows: Vec<ShellMove> = (0..5).map(ShellMove::Show).collect();
        let mut expected = shows.clone();
        expected.push(ShellMove::Wait);
        assert_eq!(seen_after(&sighted, ShellMove::Delay), expected);
        let mut blind = Ismcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
        blind.search(&Blindfolded(info), &limits);
        assert_eq!(
            seen_after(&blind, ShellMove::Delay),
            vec![ShellMove::Show(0), ShellMove::Wait]
        );
        // The merged node is available in every world (some cup is empty
        // in each), as waiting is (counted from the visit that created
        // each).
        let tree = &blind.workers[0].tree;
        let delay = tree.child(0, ShellMove::Delay).unwrap();
        let show = tree.child(delay, ShellMove::Show(0)).unwrap();
        let wait = tree.child(delay, ShellMove::Wait).unwrap();
        assert!(
            tree.nodes[show]
                .available
                .abs_diff(tree.nodes[wait].available)
                <= 1
        );
    }

    #[test]
    fn advancing_keeps_the_subtree_of_the_move() {
        let table = ShellTable::deal(5, 2, 1);
        let info = table.information_set(Player::First);
        let mut search = Ismcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
        search.search(&info, &Limits::iterations(2_000));
        let tree = &search.workers[0].tree;
        let delay = tree.child(0, ShellMove::Delay).unwrap();
        let (visits, children) = (tree.nodes[delay].visits, tree.children(delay).count());
        search.advance(ShellMove::Delay);
        let tree = &search.workers[0].tree;
        assert_eq!(tree.nodes[0].visits, visits);
        assert_eq!(tree.children(0).count(), children);
        // Every kept node's children are kept with it.
        let total: u32 = tree.children(0).map(|c| tree.nodes[c].visits).sum();
        assert!(total + 1 >= visits && total <= visits);
        // A move the tree never tried drops it.
        search.advance(ShellMove::Fold);
        assert_eq!(search.tree_nodes(), 0);
    }
}
