//! Node storage as the iteration engine sees it: one trait, [`Store`],
//! over the private tree of one thread ([`Tree`]) and a tree all threads
//! share ([`SharedTree`], lock-free or locked), so that selection,
//! expansion, backpropagation, MCTS-Solver proofs and the principal
//! variation are written once for both.
//!
//! Reads take `&self`; writes take `&mut self`, which for a shared tree is
//! a thread's own handle (`SharedStore`: the tree and the run of nodes it
//! reserved) while the tree itself is only ever written through its
//! atomics or locks.

use std::ops::Range;
use std::sync::atomic::Ordering;

use game_traits::Player;

use crate::shared_tree::{
    AmafStats, Cells, EXPANDED, EXPANDING, LEAF, NodeStats, SharedStore, SharedTree, TERMINAL,
};
use crate::tree::{Kind, Proof, Tree};

/// A node's visit statistics as one thread reads them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Snapshot {
    pub(crate) visits: u32,
    /// Mean value for the node's mover.
    pub(crate) mean: f32,
    /// Simulations that passed through the node and are not backed up.
    pub(crate) in_flight: u32,
}

/// A child as selection sees it: every simulation in flight through it
/// counted as `virtual_loss` visits lost by its mover.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Selection {
    pub(crate) visits: u32,
    pub(crate) mean: f32,
    /// `1 / sqrt(visits)`, 1 for an unvisited child.
    pub(crate) inv_sqrt_visits: f32,
    /// Whether the child is proven lost for its mover.
    pub(crate) lost: bool,
}

/// What an attempt to take over a leaf's expansion found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    /// This thread expands it.
    Mine,
    /// Another thread expanded it meanwhile.
    Expanded,
    /// Another thread found it finished.
    Terminal,
    /// Another thread found the tree full; it stays a leaf.
    Full,
}

/// Node storage for the iteration engine. Node 0 is the root; children of
/// a node are one block of consecutive indices.
pub(crate) trait Store<M: Copy + PartialEq>: Send {
    /// Nodes in use.
    fn len(&self) -> usize;
    /// Whether the tree has no root yet.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Whether AMAF statistics are kept.
    fn has_amaf(&self) -> bool;

    /// What is known of the node (a node another thread is expanding is a
    /// leaf).
    fn kind(&self, node: u32) -> Kind;
    /// The move into the node.
    fn mv(&self, node: u32) -> M;
    /// The player who made that move.
    fn mover(&self, node: u32) -> Player;
    /// The children block (empty unless expanded).
    fn children(&self, node: u32) -> Range<u32>;
    /// [`kind`](Store::kind) and the proof (without its length) at once,
    /// as every step of a descent asks.
    fn status(&self, node: u32) -> (Kind, Proof) {
        (self.kind(node), self.proof(node).0)
    }
    /// The proof for the node's mover and its length in plies.
    fn proof(&self, node: u32) -> (Proof, u16);
    /// Visit statistics.
    fn stats(&self, node: u32) -> Snapshot;
    /// A child as selection scores it.
    fn selection_stats(&self, node: u32, virtual_loss: u32) -> Selection;
    /// The node's AMAF key: `player index * num_actions + action index`.
    fn amaf_key(&self, node: u32) -> u32;
    /// AMAF visits and sum of values (zero without AMAF).
    fn amaf(&self, node: u32) -> (u32, f32);
    /// Whether an expansion failed for want of room in this search.
    fn is_full(&self) -> bool;

    /// A simulation enters the node (counted as in flight).
    fn enter(&mut self, node: u32);
    /// A simulation that entered the node is backed up: `value` for
    /// `player`, so its negation for the other player.
    fn record(&mut self, node: u32, value: f32, player: Player);
    /// Adds an AMAF result `value` for the child's mover.
    fn add_amaf(&mut self, node: u32, value: f32);
    /// Sets the proof if the node had none and `proof` is known; returns
    /// whether it did.
    fn prove(&mut self, node: u32, proof: Proof, plies: u16) -> bool;
    /// Marks the node as a finished game (its proof is set apart).
    fn set_terminal(&mut self, node: u32);
    /// A simulation reaches the node while it is a leaf; returns whether
    /// it is the first (which values the leaf; later ones expand it).
    fn arrive(&mut self, node: u32) -> bool;
    /// Takes over the expansion of leaf `node`, or says what another
    /// thread made of it (waiting for it if it is at work).
    fn claim_expansion(&mut self, node: u32) -> Claim;
    /// Gives claimed `node` one child per move, all by `mover`, with AMAF
    /// keys from `key`, if the tree stays within `cap` nodes; otherwise
    /// leaves it a leaf, marks the tree full and returns `false`.
    fn expand(
        &mut self,
        node: u32,
        moves: &[M],
        mover: Player,
        key: impl FnMut(M) -> u32,
        cap: usize,
    ) -> bool;
    /// Forgets a full tree of the last search: it may grow again.
    fn clear_full(&mut self);
    /// Starts the tree at a position where `mover` moved last. The tree
    /// must be empty.
    fn set_root(&mut self, placeholder: M, mover: Player);
}

/// Marks `node` as a finished game with result `value` for `player`;
/// with the MCTS-Solver on (`solver`), also proves it, and returns whether
/// this is news (it was not proven before).
pub(crate) fn mark_terminal<M: Copy + PartialEq, S: Store<M>>(
    store: &mut S,
    node: u32,
    (value, player): (f32, Player),
    solver: bool,
) -> bool {
    store.set_terminal(node);
    if !solver {
        return false;
    }
    let for_mover = if store.mover(node) == player {
        value
    } else {
        -value
    };
    store.prove(node, Proof::from_value(for_mover), 0)
}

/// The proof of expanded `node` for its mover and its length in plies,
/// from its children's proofs: a win if one child wins for the player to
/// move there (the shortest such win), the best child's proof once all
/// children are proven (a loss as long as possible), else unknown.
pub(crate) fn solve<M: Copy + PartialEq, S: Store<M>>(store: &S, node: u32) -> (Proof, u16) {
    let children = store.children(node);
    if children.is_empty() {
        return (Proof::Unknown, 0);
    }
    let children_mover = store.mover(children.start);
    let mut best = Proof::Loss;
    let mut plies = 0u16;
    let mut unknown = false;
    let mut fastest_win = None::<u16>;
    for child in children {
        match store.proof(child) {
            (Proof::Unknown, _) => unknown = true,
            (Proof::Win, length) => {
                fastest_win = Some(fastest_win.map_or(length, |fastest| fastest.min(length)));
            }
            (proof, length) => {
                if proof > best {
                    best = proof;
                    plies = length;
                } else if proof == best {
                    plies = plies.max(length);
                }
            }
        }
    }
    let (best, plies) = match fastest_win {
        Some(fastest) => (Proof::Win, fastest),
        None if unknown => return (Proof::Unknown, 0),
        None => (best, plies),
    };
    let plies = plies.saturating_add(1);
    // Children are played by the player to move at `node`.
    if children_mover == store.mover(node) {
        (best, plies)
    } else {
        (best.flipped(), plies)
    }
}

/// The child of `node` reached by `mv`, if `node` is expanded and has one.
pub(crate) fn child<M: Copy + PartialEq, S: Store<M>>(store: &S, node: u32, mv: M) -> Option<u32> {
    store.children(node).find(|&child| store.mv(child) == mv)
}

/// The child of `node` with the most visits (ties: higher mean, then
/// first), if it has a visited child.
pub(crate) fn most_visited_child<M: Copy + PartialEq, S: Store<M>>(
    store: &S,
    node: u32,
) -> Option<u32> {
    let mut best: Option<(u32, Snapshot)> = None;
    for child in store.children(node) {
        let candidate = store.stats(child);
        if candidate.visits == 0 {
            continue;
        }
        if best
            .is_none_or(|(_, best)| (candidate.visits, candidate.mean) > (best.visits, best.mean))
        {
            best = Some((child, candidate));
        }
    }
    best.map(|(child, _)| child)
}

/// `first`, then the most visited child below the root's child reached by
/// it, and so on.
pub(crate) fn principal_variation<M: Copy + PartialEq, S: Store<M>>(store: &S, first: M) -> Vec<M> {
    let mut pv = vec![first];
    if let Some(mut node) = child(store, 0, first) {
        while let Some(next) = most_visited_child(store, node) {
            pv.push(store.mv(next));
            node = next;
        }
    }
    pv
}

impl<M: Copy + PartialEq + Send> Store<M> for Tree<M> {
    #[inline]
    fn len(&self) -> usize {
        self.nodes.len()
    }

    #[inline]
    fn has_amaf(&self) -> bool {
        self.keeps_amaf
    }

    #[inline]
    fn kind(&self, node: u32) -> Kind {
        self.nodes[node as usize].kind
    }

    #[inline]
    fn mv(&self, node: u32) -> M {
        self.nodes[node as usize].mv
    }

    #[inline]
    fn mover(&self, node: u32) -> Player {
        self.nodes[node as usize].mover
    }

    #[inline]
    fn children(&self, node: u32) -> Range<u32> {
        let node = &self.nodes[node as usize];
        node.first_child..node.first_child + node.num_children
    }

    #[inline]
    fn proof(&self, node: u32) -> (Proof, u16) {
        let node = &self.nodes[node as usize];
        (node.proof, node.proof_plies)
    }

    #[inline]
    fn status(&self, node: u32) -> (Kind, Proof) {
        let node = &self.nodes[node as usize];
        (node.kind, node.proof)
    }

    #[inline]
    fn stats(&self, node: u32) -> Snapshot {
        let node = &self.nodes[node as usize];
        Snapshot {
            visits: node.visits,
            mean: node.mean,
            in_flight: 0,
        }
    }

    #[inline]
    fn selection_stats(&self, node: u32, _virtual_loss: u32) -> Selection {
        let node = &self.nodes[node as usize];
        let inv_sqrt_visits = if node.visits == 0 {
            1.0
        } else {
            node.inv_sqrt_visits
        };
        Selection {
            visits: node.visits,
            mean: node.mean,
            inv_sqrt_visits,
            lost: node.proof == Proof::Loss,
        }
    }

    #[inline]
    fn amaf_key(&self, node: u32) -> u32 {
        self.amaf[node as usize].key
    }

    #[inline]
    fn amaf(&self, node: u32) -> (u32, f32) {
        self.amaf
            .get(node as usize)
            .map_or((0, 0.0), |stats| (stats.visits, stats.sum))
    }

    #[inline]
    fn is_full(&self) -> bool {
        self.full
    }

    #[inline]
    fn enter(&mut self, _node: u32) {}

    #[inline]
    fn record(&mut self, node: u32, value: f32, player: Player) {
        let node = &mut self.nodes[node as usize];
        node.update(if node.mover == player { value } else { -value });
    }

    #[inline]
    fn add_amaf(&mut self, node: u32, value: f32) {
        let stats = &mut self.amaf[node as usize];
        stats.visits += 1;
        stats.sum += value;
    }

    #[inline]
    fn prove(&mut self, node: u32, proof: Proof, plies: u16) -> bool {
        let node = &mut self.nodes[node as usize];
        let news = proof != Proof::Unknown && node.proof == Proof::Unknown;
        if news {
            node.proof = proof;
            node.proof_plies = plies;
        }
        news
    }

    #[inline]
    fn set_terminal(&mut self, node: u32) {
        self.nodes[node as usize].kind = Kind::Terminal;
    }

    #[inline]
    fn arrive(&mut self, node: u32) -> bool {
        // One thread: a leaf's first arrival is the one before its first
        // visit is backed up.
        self.nodes[node as usize].visits == 0
    }

    #[inline]
    fn claim_expansion(&mut self, _node: u32) -> Claim {
        Claim::Mine
    }

    fn expand(
        &mut self,
        node: u32,
        moves: &[M],
        mover: Player,
        key: impl FnMut(M) -> u32,
        cap: usize,
    ) -> bool {
        if self.nodes.len() + moves.len() > cap {
            self.full = true;
            return false;
        }
        let amaf = self.keeps_amaf;
        self.add_children(node as usize, moves, mover, key, amaf, cap);
        true
    }

    fn clear_full(&mut self) {
        self.full = false;
    }

    fn set_root(&mut self, placeholder: M, mover: Player) {
        let amaf = self.keeps_amaf;
        Tree::set_root(self, placeholder, mover, amaf);
    }
}

impl<M: Copy + PartialEq + Send + Sync, C: Cells> Store<M> for SharedStore<'_, M, C> {
    #[inline]
    fn len(&self) -> usize {
        SharedTree::len(self)
    }

    #[inline]
    fn has_amaf(&self) -> bool {
        SharedTree::has_amaf(self)
    }

    #[inline]
    fn kind(&self, node: u32) -> Kind {
        match self.node(node).kind.load(Ordering::Acquire) {
            EXPANDED => Kind::Expanded,
            TERMINAL => Kind::Terminal,
            _ => Kind::Leaf,
        }
    }

    #[inline]
    fn mv(&self, node: u32) -> M {
        self.node(node).mv()
    }

    #[inline]
    fn mover(&self, node: u32) -> Player {
        self.node(node).mover()
    }

    #[inline]
    fn children(&self, node: u32) -> Range<u32> {
        self.node(node).children()
    }

    #[inline]
    fn proof(&self, node: u32) -> (Proof, u16) {
        self.node(node).proof()
    }

    #[inline]
    fn stats(&self, node: u32) -> Snapshot {
        self.node(node).stats.read()
    }

    #[inline]
    fn selection_stats(&self, node: u32, virtual_loss: u32) -> Selection {
        let current = self.node(node);
        let stats = current.stats.read();
        let visits = stats.visits + virtual_loss * stats.in_flight;
        let lost = current.proof().0 == Proof::Loss;
        if stats.in_flight == 0 || virtual_loss == 0 {
            let inv_sqrt_visits = if stats.visits == 0 {
                1.0
            } else {
                (stats.visits as f32).sqrt().recip()
            };
            return Selection {
                visits,
                mean: stats.mean,
                inv_sqrt_visits,
                lost,
            };
        }
        let lost_visits = (virtual_loss * stats.in_flight) as f32;
        let visits_f = visits as f32;
        Selection {
            visits,
            mean: (stats.mean * stats.visits as f32 - lost_visits) / visits_f,
            inv_sqrt_visits: visits_f.sqrt().recip(),
            lost,
        }
    }

    #[inline]
    fn amaf_key(&self, node: u32) -> u32 {
        self.node(node).amaf_key.load(Ordering::Relaxed)
    }

    #[inline]
    fn amaf(&self, node: u32) -> (u32, f32) {
        if !SharedTree::has_amaf(self) {
            return (0, 0.0);
        }
        SharedTree::amaf(self, node).read()
    }

    #[inline]
    fn is_full(&self) -> bool {
        SharedTree::is_full(self)
    }

    #[inline]
    fn enter(&mut self, node: u32) {
        self.node(node).stats.enter();
    }

    #[inline]
    fn record(&mut self, node: u32, value: f32, player: Player) {
        let node = self.node(node);
        node.stats.record(if node.mover() == player {
            value
        } else {
            -value
        });
    }

    #[inline]
    fn add_amaf(&mut self, node: u32, value: f32) {
        SharedTree::amaf(self, node).add(value);
    }

    #[inline]
    fn prove(&mut self, node: u32, proof: Proof, plies: u16) -> bool {
        self.node(node).prove(proof, plies)
    }

    #[inline]
    fn set_terminal(&mut self, node: u32) {
        self.node(node).kind.store(TERMINAL, Ordering::Release);
    }

    #[inline]
    fn arrive(&mut self, node: u32) -> bool {
        self.node(node).arrivals.fetch_add(1, Ordering::Relaxed) == 0
    }

    fn claim_expansion(&mut self, node: u32) -> Claim {
        let current = self.node(node);
        if current
            .kind
            .compare_exchange(LEAF, EXPANDING, Ordering::Acquire, Ordering::Acquire)
            .is_ok()
        {
            return Claim::Mine;
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
                EXPANDED => return Claim::Expanded,
                TERMINAL => return Claim::Terminal,
                // That thread found the tree full.
                _ => return Claim::Full,
            }
        }
    }

    fn expand(
        &mut self,
        node: u32,
        moves: &[M],
        mover: Player,
        key: impl FnMut(M) -> u32,
        cap: usize,
    ) -> bool {
        match self.allocate(moves.len(), cap) {
            Some(first) => {
                SharedTree::expand(self, node, first, moves, mover, key);
                true
            }
            None => {
                self.set_full(true);
                self.node(node).kind.store(LEAF, Ordering::Release);
                false
            }
        }
    }

    fn clear_full(&mut self) {
        self.set_full(false);
    }

    fn set_root(&mut self, placeholder: M, mover: Player) {
        SharedTree::set_root(self, placeholder, mover);
    }
}
