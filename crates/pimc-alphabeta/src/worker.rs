//! One thread's search: negamax with alpha-beta, principal variation
//! search, the transposition table and move ordering, and the root loop of
//! iterative deepening.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use game_traits::{Evaluator, Game, Limits, PolicyEvaluator, StopReason, contain_logits};

use crate::busy::Busy;
use crate::config::{AlphaBetaConfig, RootValues};
use crate::score::Score;
use crate::table::{Bound, Entry, Table};

/// History table entries per player (indexed by a hash of the move).
pub(crate) const HISTORY_SIZE: usize = 4096;

/// Nodes between two looks at the clock and the stop flags.
const CHECK_EVERY: u64 = 1024;

/// Nodes a helper thread counts before adding them to the shared total.
const FLUSH_EVERY: u64 = 64;

/// Depth from which a node being searched is marked in the [`Busy`] table
/// (with more than one thread), so that other threads defer it. Shallower
/// subtrees are too cheap to be worth the look-ups.
const BUSY_MIN_DEPTH: u32 = 3;

/// What every thread of one search shares.
pub(crate) struct Context<'a, G: Game, E> {
    pub(crate) evaluator: &'a E,
    pub(crate) policy: Option<&'a dyn PolicyEvaluator<G>>,
    pub(crate) hash: Option<fn(&G) -> u64>,
    pub(crate) table: Option<&'a Table>,
    pub(crate) config: &'a AlphaBetaConfig,
    pub(crate) limits: &'a Limits,
    pub(crate) deadline: Option<Instant>,
    /// The node budget and the reason to give when it runs out (the node
    /// limit, or the default budget).
    pub(crate) node_cap: Option<(u64, StopReason)>,
    /// Nodes of all threads (used with more than one thread).
    pub(crate) nodes: &'a AtomicU64,
    pub(crate) threads: usize,
    /// Set when the main thread is done, to stop the helpers.
    pub(crate) done: &'a AtomicBool,
    /// The positions threads are searching (with more than one thread and
    /// a hash).
    pub(crate) busy: Option<&'a Busy>,
    #[cfg(test)]
    pub(crate) broken_pruning: bool,
    /// Tests: treat every move as busy, so that each eligible one is put
    /// off.
    #[cfg(test)]
    pub(crate) defer_all: bool,
}

impl<G: Game, E> Context<'_, G, E> {
    /// Whether the test switch that puts off every eligible move is on.
    #[inline]
    fn defers_all(&self) -> bool {
        #[cfg(test)]
        return self.defer_all;
        #[cfg(not(test))]
        false
    }
}

/// A root move and what the last search said of it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove<M> {
    pub(crate) mv: M,
    /// Its index in the root's `legal_moves` order.
    pub(crate) index: u16,
    pub(crate) score: Score,
    /// Whether `score` is exact (otherwise an upper bound).
    pub(crate) exact: bool,
    /// Whether `score` is known at all.
    pub(crate) searched: bool,
}

/// A completed (or soundly usable partial) iteration.
#[derive(Clone, Debug)]
pub(crate) struct Iteration<M> {
    pub(crate) depth: u32,
    pub(crate) best: usize,
    pub(crate) score: Score,
    pub(crate) pv: Vec<M>,
    pub(crate) root: Vec<RootMove<M>>,
    /// Whether no leaf was cut off by the depth: the score is then the
    /// game's true value.
    pub(crate) cut: bool,
}

/// Search state of one thread: the position stack, move buffers, killer
/// moves, history and principal variation.
pub(crate) struct Worker<G: Game> {
    /// `stack[ply]` is the position `ply` plies below the root.
    stack: Vec<G>,
    moves: Vec<Vec<G::Move>>,
    orders: Vec<Vec<(i64, u16)>>,
    logits: Vec<f32>,
    killers: Vec<[Option<G::Move>; 2]>,
    /// Per ply, the moves put off because another thread was searching
    /// them.
    deferred: Vec<Vec<u16>>,
    pub(crate) history: Vec<u32>,
    pv: Vec<Vec<G::Move>>,
    pub(crate) nodes: u64,
    unflushed: u64,
    pub(crate) stopped: Option<StopReason>,
    /// 0 for the main thread; helpers order their root moves differently.
    helper: usize,
}

impl<G: Game> Worker<G> {
    pub(crate) fn new(root: &G, history: Vec<u32>, helper: usize) -> Worker<G> {
        Worker {
            stack: vec![root.clone()],
            moves: Vec::new(),
            orders: Vec::new(),
            logits: Vec::new(),
            killers: Vec::new(),
            deferred: Vec::new(),
            history,
            pv: Vec::new(),
            nodes: 0,
            unflushed: 0,
            stopped: None,
            helper,
        }
    }

    fn ensure_ply(&mut self, ply: usize) {
        while self.stack.len() < ply + 2 {
            let top = self.stack[self.stack.len() - 1].clone();
            self.stack.push(top);
        }
        while self.moves.len() <= ply {
            self.moves.push(Vec::new());
            self.orders.push(Vec::new());
            self.killers.push([None, None]);
            self.deferred.push(Vec::new());
            self.pv.push(Vec::new());
        }
    }

    /// Counts a node; `true` when the search must stop.
    #[inline]
    fn tick<E>(&mut self, context: &Context<'_, G, E>) -> bool {
        if self.stopped.is_some() {
            return true;
        }
        let counted = if context.threads > 1 {
            if self.unflushed >= FLUSH_EVERY {
                context.nodes.fetch_add(self.unflushed, Ordering::Relaxed);
                self.unflushed = 0;
            }
            context.nodes.load(Ordering::Relaxed) + self.unflushed
        } else {
            self.nodes
        };
        if let Some((cap, reason)) = context.node_cap
            && counted >= cap
        {
            self.stopped = Some(reason);
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if context.limits.stop_requested() {
                self.stopped = Some(StopReason::Stopped);
                return true;
            }
            if context
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
            {
                self.stopped = Some(StopReason::Time);
                return true;
            }
            if self.helper > 0 && context.done.load(Ordering::Relaxed) {
                self.stopped = Some(StopReason::Stopped);
                return true;
            }
        }
        self.nodes += 1;
        self.unflushed += 1;
        false
    }

    /// Before other threads join a search this worker began alone: its
    /// nodes so far become the start of the shared total, which it returns.
    pub(crate) fn start_shared_count(&mut self) -> u64 {
        self.unflushed = 0;
        self.nodes
    }

    /// Adds the nodes not yet counted to the shared total.
    pub(crate) fn flush<E>(&mut self, context: &Context<'_, G, E>) {
        if context.threads > 1 {
            context.nodes.fetch_add(self.unflushed, Ordering::Relaxed);
        }
        self.unflushed = 0;
    }

    /// Puts the position after `mv` at `ply + 1`.
    #[inline]
    fn make_child(&mut self, ply: usize, mv: G::Move) {
        let (parents, children) = self.stack.split_at_mut(ply + 1);
        let child = &mut children[0];
        child.clone_from(&parents[ply]);
        child.play(mv);
    }

    /// The value of the child at `ply + 1` for the player to move at `ply`,
    /// searched within `(alpha, beta)` (from the parent's point of view).
    #[inline]
    fn child<E: Evaluator<G>>(
        &mut self,
        context: &Context<'_, G, E>,
        ply: usize,
        depth: u32,
        same_player: bool,
        alpha: Score,
        beta: Score,
    ) -> Option<(Score, bool)> {
        if same_player {
            self.negamax(context, ply + 1, depth - 1, alpha, beta)
        } else {
            self.negamax(context, ply + 1, depth - 1, -beta, -alpha)
                .map(|(score, cut)| (-score, cut))
        }
    }

    /// Fail-soft negamax of the position at `ply`, `depth` plies deep,
    /// within `(alpha, beta)`. Returns the score and whether a leaf below
    /// was cut off by the depth; `None` once the search must stop.
    fn negamax<E: Evaluator<G>>(
        &mut self,
        context: &Context<'_, G, E>,
        ply: usize,
        depth: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Option<(Score, bool)> {
        if self.tick(context) {
            return None;
        }
        self.ensure_ply(ply);
        self.pv[ply].clear();
        let state = &self.stack[ply];
        if depth == 0 {
            return Some(leaf(context, state, ply));
        }
        // The table is looked at before the moves are generated: its line
        // is then on its way from memory while they are, and a usable entry
        // saves generating them. (Only positions with moves are stored, so
        // a finished game is never answered from the table.)
        let key = context.hash.map(|hash| hash(state));
        let table = context
            .table
            .filter(|_| depth >= context.config.table_from_depth);
        let mut table_move = None;
        if let (Some(table), Some(key)) = (table, key)
            && let Some(entry) = table.probe(key)
        {
            table_move = entry.move_index;
            if u32::from(entry.depth) == depth {
                let score = entry.score.node_to_root(ply as u32);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return Some((score, entry.cut));
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            let state = &self.stack[ply];
            let reward = state
                .outcome()
                .map_or(0.0, |outcome| outcome.reward(state.to_move()));
            return Some((Score::terminal(reward, ply as u32), false));
        }
        let to_move = state.to_move();
        // The table's move is tried before the others are ordered: when it
        // cuts off, as it mostly does, ordering them is not needed.
        let table_move = table_move.filter(|&index| usize::from(index) < moves.len());
        let mut order = std::mem::take(&mut self.orders[ply]);
        order.clear();
        let mut ordered = false;
        match table_move {
            Some(index) => order.push((i64::MAX, index)),
            None => {
                self.order_moves(context, ply, depth, &moves, None, &mut order);
                ordered = true;
            }
        }
        let alpha_start = alpha;
        let mut best = -Score::INFINITE;
        let mut best_index = order[0].1;
        let mut cut = false;
        let pvs = context.config.principal_variation_search;
        let mut result = Some(());
        let mut tried = 0;
        // With more threads, this node is marked while it is searched, and
        // its moves after the first that another thread is searching are
        // put off to the end (they are often refuted or in the table by
        // then).
        let busy = context.busy.filter(|_| depth >= BUSY_MIN_DEPTH);
        let marked = match (busy, key) {
            (Some(busy), Some(key)) => busy.enter(key).then_some(key),
            _ => None,
        };
        let mut deferring = busy.is_some() && depth > BUSY_MIN_DEPTH;
        let mut deferred = std::mem::take(&mut self.deferred[ply]);
        deferred.clear();
        loop {
            if tried == order.len() {
                if !ordered {
                    self.order_moves(context, ply, depth, &moves, table_move, &mut order);
                    ordered = true;
                } else if !deferred.is_empty() {
                    order.extend(deferred.drain(..).map(|index| (0, index)));
                    deferring = false;
                }
                if tried == order.len() {
                    break;
                }
            }
            let index = order[tried].1;
            tried += 1;
            let mv = moves[usize::from(index)];
            self.make_child(ply, mv);
            if deferring
                && tried > 1
                && let (Some(busy), Some(hash)) = (busy, context.hash)
                && (context.defers_all() || busy.contains(hash(&self.stack[ply + 1])))
            {
                deferred.push(index);
                continue;
            }
            let same = self.stack[ply + 1].to_move() == to_move;
            let searched = if depth == 1 {
                // The children are leaves: value each at once, without a
                // null window (a leaf's value is exact) or a call.
                if self.tick(context) {
                    None
                } else {
                    let (value, leaf_cut) = leaf(context, &self.stack[ply + 1], ply + 1);
                    Some((if same { value } else { -value }, leaf_cut))
                }
            } else if tried == 1 || !pvs {
                self.child(context, ply, depth, same, alpha, beta)
            } else {
                let reduction = late_move_reduction(context.config, depth, tried);
                let null_beta = alpha.next_up();
                let reduced = (reduction > 0)
                    .then(|| self.child(context, ply, depth - reduction, same, alpha, null_beta));
                match reduced {
                    // Stopped, or the shallower search stays below alpha.
                    Some(None) => None,
                    Some(Some((scout, cut))) if scout <= alpha => Some((scout, cut)),
                    _ => match self.child(context, ply, depth, same, alpha, null_beta) {
                        Some((scout, _)) if scout > alpha && scout < beta => {
                            self.child(context, ply, depth, same, alpha, beta)
                        }
                        other => other,
                    },
                }
            };
            let Some((value, child_cut)) = searched else {
                result = None;
                break;
            };
            cut |= child_cut;
            if value > best {
                best = value;
                best_index = index;
            }
            if value > alpha {
                alpha = value;
                self.update_pv(ply, mv, depth == 1);
            }
            #[cfg(test)]
            let cutoff = alpha >= beta || (context.broken_pruning && value >= alpha_start);
            #[cfg(not(test))]
            let cutoff = alpha >= beta;
            if cutoff {
                self.reward_cutoff(context, ply, depth, to_move, mv);
                break;
            }
        }
        if let (Some(busy), Some(key)) = (busy, marked) {
            busy.leave(key);
        }
        self.moves[ply] = moves;
        self.orders[ply] = order;
        self.deferred[ply] = deferred;
        result?;
        if let (Some(table), Some(key)) = (table, key) {
            let bound = if best <= alpha_start {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            table.store(
                key,
                Entry {
                    score: best.root_to_node(ply as u32),
                    move_index: Some(best_index),
                    depth: depth.min(255) as u8,
                    bound,
                    cut,
                },
            );
        }
        Some((best, cut))
    }

    fn update_pv(&mut self, ply: usize, mv: G::Move, leaf_child: bool) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        if !leaf_child && let Some(rest) = tail.first() {
            line.extend_from_slice(rest);
        }
    }

    fn reward_cutoff<E>(
        &mut self,
        context: &Context<'_, G, E>,
        ply: usize,
        depth: u32,
        to_move: game_traits::Player,
        mv: G::Move,
    ) {
        if context.config.killer_moves {
            let killers = &mut self.killers[ply];
            if killers[0] != Some(mv) {
                killers[1] = killers[0];
                killers[0] = Some(mv);
            }
        }
        if context.config.history_heuristic {
            let slot = &mut self.history[history_index(to_move, mv)];
            *slot = slot.saturating_add(depth * depth);
            if *slot >= 1 << 30 {
                for value in &mut self.history {
                    *value /= 2;
                }
            }
        }
    }

    /// Appends to `order` a `(key, index)` for every move but `skip` (the
    /// table's move, already tried), best first: the killers, then by
    /// policy logit (at nodes deep enough) and history.
    fn order_moves<E>(
        &mut self,
        context: &Context<'_, G, E>,
        ply: usize,
        depth: u32,
        moves: &[G::Move],
        skip: Option<u16>,
        order: &mut Vec<(i64, u16)>,
    ) {
        let start = order.len();
        // Every index, then the skipped one taken out: an extend of known
        // length is a plain loop, where a filtered one checks capacity at
        // every move.
        order.extend((0..moves.len() as u16).map(|index| (0i64, index)));
        if let Some(skipped) = skip.map(usize::from)
            && skipped < moves.len()
        {
            for slot in start + skipped..order.len() - 1 {
                order[slot] = order[slot + 1];
            }
            order.pop();
        }
        if order.len() - start <= 1 {
            return;
        }
        let state = &self.stack[ply];
        let to_move = state.to_move();
        let use_policy = context.policy.is_some() && depth >= context.config.policy_depth;
        if let (true, Some(policy)) = (use_policy, context.policy) {
            self.logits.clear();
            self.logits.resize(moves.len(), 0.0);
            policy.evaluate(state, moves, &mut self.logits);
            contain_logits(&mut self.logits);
        }
        let killers = if context.config.killer_moves {
            self.killers[ply]
        } else {
            [None, None]
        };
        // At the last ply before the leaves, a cutoff saves little: the
        // table's move and the killers are enough there.
        let history = context.config.history_heuristic && depth >= 2;
        if !use_policy && !history {
            // Only the killers have keys: bring them to the front and leave
            // the rest in generation order (what the stable sort below would
            // do, without keying and sorting every move).
            let mut front = start;
            for killer in killers.into_iter().flatten() {
                let found = order[front..]
                    .iter()
                    .position(|&(_, index)| moves[usize::from(index)] == killer);
                if let Some(offset) = found {
                    let item = order[front + offset];
                    for slot in (front..front + offset).rev() {
                        order[slot + 1] = order[slot];
                    }
                    order[front] = item;
                    front += 1;
                }
            }
            return;
        }
        for slot in &mut order[start..] {
            let index = slot.1;
            let mv = moves[usize::from(index)];
            slot.0 = if killers[0] == Some(mv) {
                i64::MAX - 1
            } else if killers[1] == Some(mv) {
                i64::MAX - 2
            } else {
                let logit = if use_policy {
                    (self.logits[usize::from(index)] * 1024.0) as i64
                } else {
                    0
                };
                let history = if history {
                    i64::from(self.history[history_index(to_move, mv)])
                } else {
                    0
                };
                (logit << 32) + history
            };
        }
        // A stable insertion sort, best first: move lists are short.
        let order = &mut order[start..];
        for i in 1..order.len() {
            let item = order[i];
            let mut j = i;
            while j > 0 && order[j - 1].0 < item.0 {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = item;
        }
    }

    /// The root moves in the order the first iteration tries them.
    pub(crate) fn root_moves<E>(&mut self, context: &Context<'_, G, E>) -> Vec<RootMove<G::Move>> {
        self.ensure_ply(0);
        let mut moves = std::mem::take(&mut self.moves[0]);
        self.stack[0].legal_moves(&mut moves);
        let table_move = match (context.table, context.hash) {
            (Some(table), Some(hash)) => table
                .probe(hash(&self.stack[0]))
                .and_then(|entry| entry.move_index),
            _ => None,
        };
        let table_move = table_move.filter(|&index| usize::from(index) < moves.len());
        let mut order: Vec<(i64, u16)> = table_move
            .map(|index| (i64::MAX, index))
            .into_iter()
            .collect();
        let depth = context.config.policy_depth.max(2);
        self.order_moves(context, 0, depth, &moves, table_move, &mut order);
        let root = order
            .iter()
            .map(|&(_, index)| RootMove {
                mv: moves[usize::from(index)],
                index,
                score: -Score::INFINITE,
                exact: false,
                searched: false,
            })
            .collect();
        self.moves[0] = moves;
        root
    }

    /// Searches the root `depth` plies deep within `(alpha, beta)`,
    /// updating each root move's score. Returns the best score, whether a
    /// leaf was cut off by the depth and the best move's place in `root`,
    /// or `None` if the search had to
    /// stop; `partial` then holds the best move whose score was proven
    /// inside the window (a sound improvement on the previous iteration).
    pub(crate) fn search_root<E: Evaluator<G>>(
        &mut self,
        context: &Context<'_, G, E>,
        root: &mut [RootMove<G::Move>],
        depth: u32,
        alpha: Score,
        beta: Score,
        partial: &mut Option<(usize, Score, Vec<G::Move>)>,
    ) -> Option<(Score, bool, usize)> {
        *partial = None;
        for root_move in root.iter_mut() {
            root_move.searched = false;
        }
        if self.tick(context) {
            return None;
        }
        self.ensure_ply(0);
        let to_move = self.stack[0].to_move();
        let exact_values = context.config.root_values == RootValues::Exact;
        let near = match context.config.root_values {
            RootValues::Near(margin) => Some(margin),
            _ => None,
        };
        let pvs = context.config.principal_variation_search;
        let mut alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut best_index = 0;
        let mut cut = false;
        let mut best_pv = Vec::new();
        for position in 0..root.len() {
            // Helpers try the moves after the first in a rotated order, so
            // that the threads spread over the tree.
            let which = if self.helper > 0 && position > 0 && root.len() > 2 {
                1 + (position - 1 + self.helper) % (root.len() - 1)
            } else {
                position
            };
            let mv = root[which].mv;
            self.make_child(0, mv);
            let same = self.stack[1].to_move() == to_move;
            let (value, child_cut, exact) = if exact_values {
                let (value, child_cut) =
                    self.exact_root_move(context, &root[which], depth, same)?;
                (value, child_cut, true)
            } else {
                // Below the best so far, a move is searched with a null
                // window (its value is then an upper bound), or with
                // `RootValues::Near` a window reaching `margin` lower, inside
                // which its value is exact.
                let low = match near {
                    Some(margin) if position > 0 => alpha.widened(margin, false).min(alpha),
                    _ => alpha,
                };
                let searched = if position == 0 || (!pvs && near.is_none()) {
                    self.child(context, 0, depth, same, alpha, beta)
                } else {
                    match self.child(context, 0, depth, same, low, alpha.next_up())? {
                        (scout, _) if scout > alpha && scout < beta => {
                            self.child(context, 0, depth, same, alpha, beta)
                        }
                        other => Some(other),
                    }
                };
                let (value, child_cut) = searched?;
                (value, child_cut, value > low && value < beta)
            };
            cut |= child_cut;
            let root_move = &mut root[which];
            root_move.score = value;
            root_move.exact = exact;
            root_move.searched = true;
            if value > best {
                best = value;
                best_index = which;
                self.pv[0].clear();
                self.pv[0].push(mv);
                if let Some(rest) = self.pv.get(1) {
                    let rest = rest.clone();
                    self.pv[0].extend_from_slice(&rest);
                }
                best_pv.clone_from(&self.pv[0]);
                if exact && partial.as_ref().is_none_or(|&(_, score, _)| value > score) {
                    *partial = Some((which, value, best_pv.clone()));
                }
            }
            if value > alpha {
                alpha = value;
            }
            if alpha >= beta && !exact_values {
                break;
            }
        }
        self.pv[0] = best_pv;
        if let (Some(table), Some(hash)) = (context.table, context.hash) {
            table.store(
                hash(&self.stack[0]),
                Entry {
                    score: best,
                    move_index: Some(root[best_index].index),
                    depth: depth.min(255) as u8,
                    bound: if exact_values || (best > -Score::INFINITE && best < beta) {
                        Bound::Exact
                    } else {
                        Bound::Lower
                    },
                    cut,
                },
            );
        }
        Some((best, cut, best_index))
    }

    /// The exact value of one root move (whose child is at ply 1): an
    /// aspiration window around its last value, widened until the value
    /// falls inside.
    fn exact_root_move<E: Evaluator<G>>(
        &mut self,
        context: &Context<'_, G, E>,
        root_move: &RootMove<G::Move>,
        depth: u32,
        same: bool,
    ) -> Option<(Score, bool)> {
        let mut width = context.config.aspiration_window.unwrap_or(0.0);
        let previous = root_move.score;
        let (mut low, mut high) = if width > 0.0 && previous > -Score::INFINITE {
            (
                previous.widened(width, false),
                previous.widened(width, true),
            )
        } else {
            (-Score::INFINITE, Score::INFINITE)
        };
        loop {
            let (value, cut) = self.child(context, 0, depth, same, low, high)?;
            if value <= low && low > -Score::INFINITE {
                width *= 4.0;
                low = value.widened(width, false);
            } else if value >= high && high < Score::INFINITE {
                width *= 4.0;
                high = value.widened(width, true);
            } else {
                return Some((value, cut));
            }
        }
    }

    /// The principal variation of the last root search.
    pub(crate) fn root_pv(&self) -> &[G::Move] {
        self.pv.first().map_or(&[], Vec::as_slice)
    }
}

/// Plies taken off the search of the `tried`th move (from 1) of a node
/// `depth` plies deep: none unless late move reductions are on (see
/// [`AlphaBetaConfig::late_move_reductions`]).
fn late_move_reduction(config: &AlphaBetaConfig, depth: u32, tried: usize) -> u32 {
    if !config.late_move_reductions || depth < 3 || tried <= 3 {
        0
    } else if depth >= 5 && tried > 10 {
        2
    } else {
        1
    }
}

/// The score of a leaf (a position at the depth limit) at `ply`: the
/// exact reward if the game is over there, the evaluator's value
/// otherwise; and whether it was cut off by the depth.
#[inline]
fn leaf<G: Game, E: Evaluator<G>>(
    context: &Context<'_, G, E>,
    state: &G,
    ply: usize,
) -> (Score, bool) {
    match state.outcome() {
        Some(outcome) => (
            Score::terminal(outcome.reward(state.to_move()), ply as u32),
            false,
        ),
        None => (Score::heuristic(context.evaluator.value(state)), true),
    }
}

/// The history table slot of `mv` played by `player`.
#[inline]
fn history_index<M: Hash>(player: game_traits::Player, mv: M) -> usize {
    let mut hasher = MoveHasher(0);
    mv.hash(&mut hasher);
    // The top bits of a multiplicative hash are its best mixed.
    player.index() * HISTORY_SIZE + (hasher.finish() >> (64 - HISTORY_BITS)) as usize
}

/// Bits of a history table index.
const HISTORY_BITS: u32 = HISTORY_SIZE.trailing_zeros();

/// A small, fast hasher for moves (a rotate-multiply mix, as FxHash).
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    #[inline]
    fn write_u8(&mut self, value: u8) {
        self.write_u64(u64::from(value));
    }

    #[inline]
    fn write_u16(&mut self, value: u16) {
        self.write_u64(u64::from(value));
    }

    #[inline]
    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }

    #[inline]
    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_usize(&mut self, value: usize) {
        self.write_u64(value as u64);
    }
}
