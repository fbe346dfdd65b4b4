//! The tree every thread of a tree-parallel search shares.
//!
//! The same layout as [`tree`](crate::tree) (an arena of nodes with `u32`
//! indices, the children of a node in one block), but every field a thread
//! may write while others read is an atomic (or behind a per-node mutex,
//! [`StatsSync::Mutex`](crate::StatsSync::Mutex)), and the arena grows in
//! chunks that never move, so that no thread ever waits for another to
//! reallocate it.
//!
//! * A node's **visit count and mean** are one 64-bit word updated by
//!   compare-and-swap (`visits` in the low half, the mean's `f32` bits in
//!   the high half), so they always agree; the update is the sequential
//!   one, `mean += (value - mean) / visits`, bit for bit.
//! * **In flight**: simulations that passed through a node and are not
//!   backed up yet; selection counts each as `virtual_loss` lost visits.
//! * **Arrivals**: simulations that entered a node while it was a leaf. The
//!   first values the leaf; every later one expands it (or waits for the
//!   thread expanding it) and goes on to a child. So a node's visits are
//!   exactly one more than its children's, whatever the interleaving, as
//!   in a sequential search.
//! * **Kind** moves from leaf to expanding (one thread wins the
//!   compare-and-swap) to expanded, after the children block is written:
//!   children are never lost or duplicated.
//! * **Proofs** (MCTS-Solver) are written once, by compare-and-swap from
//!   unknown, and derived only from children's proofs, which are final.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use game_traits::Player;

use crate::store::Snapshot;
use crate::tree::Proof;

/// A node of a shared tree whose visits do not add up, found by
/// [`Mcts::check_visit_counts`](crate::Mcts::check_visit_counts).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "node {node} at depth {depth}: {visits} visits, {children_visits} in its children, {in_flight} still in flight"
)]
#[non_exhaustive]
pub struct VisitCountError {
    /// Index of the node in the tree (0 is the root).
    pub node: u32,
    /// Plies from the root.
    pub depth: u32,
    /// The node's visits.
    pub visits: u64,
    /// Its children's visits together.
    pub children_visits: u64,
    /// Simulations counted as in flight through the node.
    pub in_flight: u32,
}

/// Nodes per chunk of the arena (the last chunk is cut at the cap).
const CHUNK_BITS: u32 = 14;
const CHUNK: usize = 1 << CHUNK_BITS;
const LOOKAHEAD: usize = CHUNK / 8;

/// Kinds of node, as stored in [`SharedNode::kind`].
pub(crate) const LEAF: u8 = 0;
pub(crate) const EXPANDING: u8 = 1;
pub(crate) const EXPANDED: u8 = 2;
pub(crate) const TERMINAL: u8 = 3;

/// Visit statistics a node keeps for concurrent readers and writers.
pub(crate) trait NodeStats: Send + Sync + 'static {
    fn new(visits: u32, mean: f32) -> Self;
    fn read(&self) -> Snapshot;
    /// A simulation enters the node.
    fn enter(&self);
    /// A simulation that entered the node is backed up with `value` for
    /// the node's mover.
    fn record(&self, value: f32);
}

/// AMAF statistics of a child for concurrent readers and writers. They
/// live in an arena of their own beside the nodes, same indices, so that
/// a block of siblings' statistics is a line or two: a backpropagation
/// updates many siblings at once, and on the nodes' own lines each update
/// would cost every other thread's selection a miss per sibling.
pub(crate) trait AmafStats: Send + Sync + 'static {
    fn new(visits: u32, sum: f32) -> Self;
    /// Visits and sum of values.
    fn read(&self) -> (u32, f32);
    fn add(&self, value: f32);
}

/// Which cells a shared tree uses.
pub(crate) trait Cells: Send + Sync + 'static {
    type Stats: NodeStats;
    type Amaf: AmafStats;
}

/// Atomics and compare-and-swap.
pub(crate) struct LockFree;

/// A mutex per cell.
pub(crate) struct Locked;

impl Cells for LockFree {
    type Stats = AtomicStats;
    type Amaf = AtomicAmaf;
}

impl Cells for Locked {
    type Stats = LockedStats;
    type Amaf = LockedAmaf;
}

fn pack(low: u32, high: f32) -> u64 {
    u64::from(low) | (u64::from(high.to_bits()) << 32)
}

fn unpack(word: u64) -> (u32, f32) {
    (word as u32, f32::from_bits((word >> 32) as u32))
}

/// The running mean after one more `value`: the sequential update.
#[inline]
fn updated(visits: u32, mean: f32, value: f32) -> (u32, f32) {
    let visits = visits + 1;
    (visits, mean + (value - mean) / visits as f32)
}

pub(crate) struct AtomicStats {
    /// Visits (low half) and mean (high half).
    word: AtomicU64,
    in_flight: AtomicU32,
}

impl NodeStats for AtomicStats {
    fn new(visits: u32, mean: f32) -> Self {
        AtomicStats {
            word: AtomicU64::new(pack(visits, mean)),
            in_flight: AtomicU32::new(0),
        }
    }

    #[inline]
    fn read(&self) -> Snapshot {
        let (visits, mean) = unpack(self.word.load(Ordering::Relaxed));
        Snapshot {
            visits,
            mean,
            in_flight: self.in_flight.load(Ordering::Relaxed),
        }
    }

    #[inline]
    fn enter(&self) {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn record(&self, value: f32) {
        let mut current = self.word.load(Ordering::Relaxed);
        loop {
            let (visits, mean) = unpack(current);
            let (visits, mean) = updated(visits, mean, value);
            match self.word.compare_exchange_weak(
                current,
                pack(visits, mean),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(seen) => current = seen,
            }
        }
        self.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

pub(crate) struct LockedStats(Mutex<Snapshot>);

impl LockedStats {
    fn lock(&self) -> std::sync::MutexGuard<'_, Snapshot> {
        // A panicking thread cannot leave a snapshot half written: every
        // update is a plain store of complete values.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl NodeStats for LockedStats {
    fn new(visits: u32, mean: f32) -> Self {
        LockedStats(Mutex::new(Snapshot {
            visits,
            mean,
            in_flight: 0,
        }))
    }

    #[inline]
    fn read(&self) -> Snapshot {
        *self.lock()
    }

    #[inline]
    fn enter(&self) {
        self.lock().in_flight += 1;
    }

    #[inline]
    fn record(&self, value: f32) {
        let mut stats = self.lock();
        (stats.visits, stats.mean) = updated(stats.visits, stats.mean, value);
        stats.in_flight -= 1;
    }
}

pub(crate) struct AtomicAmaf {
    /// Visits (low half) and sum (high half).
    word: AtomicU64,
}

impl AmafStats for AtomicAmaf {
    fn new(visits: u32, sum: f32) -> Self {
        AtomicAmaf {
            word: AtomicU64::new(pack(visits, sum)),
        }
    }

    #[inline]
    fn read(&self) -> (u32, f32) {
        unpack(self.word.load(Ordering::Relaxed))
    }

    /// A load and a store, not a read-modify-write: when two threads add to
    /// the same child at the same moment, one addition may be lost. AMAF
    /// statistics are an estimate that tolerates it (as lock-free MCTS
    /// programs do, Enzenberger & Müller 2009), and a backpropagation
    /// updates many children per node, so the saved atomic operations pay;
    /// with one thread nothing is ever lost.
    #[inline]
    fn add(&self, value: f32) {
        let (visits, sum) = unpack(self.word.load(Ordering::Relaxed));
        self.word
            .store(pack(visits + 1, sum + value), Ordering::Relaxed);
    }
}

pub(crate) struct LockedAmaf {
    stats: Mutex<(u32, f32)>,
}

impl AmafStats for LockedAmaf {
    fn new(visits: u32, sum: f32) -> Self {
        LockedAmaf {
            stats: Mutex::new((visits, sum)),
        }
    }

    #[inline]
    fn read(&self) -> (u32, f32) {
        *self.stats.lock().unwrap_or_else(PoisonError::into_inner)
    }

    #[inline]
    fn add(&self, value: f32) {
        let mut stats = self.stats.lock().unwrap_or_else(PoisonError::into_inner);
        stats.0 += 1;
        stats.1 += value;
    }
}

/// One node of a shared tree: the position after its move. Aligned to a
/// cache line: a node that straddled two would cost two misses when
/// another thread wrote it, and share a line with a sibling another
/// thread writes.
#[repr(align(64))]
pub(crate) struct SharedNode<M, S> {
    pub(crate) stats: S,
    /// `player index * num_actions + action index` of the move into the
    /// node (RAVE), written before the node is published.
    pub(crate) amaf_key: AtomicU32,
    /// Simulations that entered the node while it was not expanded.
    pub(crate) arrivals: AtomicU32,
    pub(crate) first_child: AtomicU32,
    pub(crate) num_children: AtomicU32,
    /// [`LEAF`], [`EXPANDING`], [`EXPANDED`] or [`TERMINAL`].
    pub(crate) kind: AtomicU8,
    /// The proof for the mover and its length, packed (see [`pack_proof`]).
    proof: AtomicU32,
    /// The move into the node and the player who made it, written when the
    /// parent is expanded.
    edge: OnceLock<(M, Player)>,
}

impl<M, S: NodeStats> SharedNode<M, S> {
    fn empty() -> Self {
        SharedNode {
            stats: S::new(0, 0.0),
            amaf_key: AtomicU32::new(0),
            arrivals: AtomicU32::new(0),
            first_child: AtomicU32::new(0),
            num_children: AtomicU32::new(0),
            kind: AtomicU8::new(LEAF),
            proof: AtomicU32::new(0),
            edge: OnceLock::new(),
        }
    }
}

impl<M: Copy, S> SharedNode<M, S> {
    /// The move into the node.
    #[inline]
    pub(crate) fn mv(&self) -> M {
        self.edge.get().expect("a published node has its move").0
    }

    /// The player who moved into the node.
    #[inline]
    pub(crate) fn mover(&self) -> Player {
        self.edge.get().expect("a published node has its move").1
    }

    /// The children block (empty unless expanded).
    #[inline]
    pub(crate) fn children(&self) -> std::ops::Range<u32> {
        if self.kind.load(Ordering::Acquire) != EXPANDED {
            return 0..0;
        }
        let first = self.first_child.load(Ordering::Relaxed);
        first..first + self.num_children.load(Ordering::Relaxed)
    }

    /// The proof for the mover, and its length in plies.
    #[inline]
    pub(crate) fn proof(&self) -> (Proof, u16) {
        unpack_proof(self.proof.load(Ordering::SeqCst))
    }

    /// Sets the proof if the node had none; returns whether it did.
    pub(crate) fn prove(&self, proof: Proof, plies: u16) -> bool {
        proof != Proof::Unknown
            && self
                .proof
                .compare_exchange(
                    0,
                    pack_proof(proof, plies),
                    Ordering::SeqCst,
                    Ordering::SeqCst,
                )
                .is_ok()
    }
}

fn pack_proof(proof: Proof, plies: u16) -> u32 {
    let code = match proof {
        Proof::Unknown => 0,
        Proof::Loss => 1,
        Proof::Draw => 2,
        Proof::Win => 3,
    };
    code | (u32::from(plies) << 8)
}

fn unpack_proof(word: u32) -> (Proof, u16) {
    let proof = match word & 0xff {
        1 => Proof::Loss,
        2 => Proof::Draw,
        3 => Proof::Win,
        _ => Proof::Unknown,
    };
    (proof, (word >> 8) as u16)
}

/// One entry of the chunk table, which every node access reads, on lines
/// of its own: the table must not share a line with anything a thread
/// writes as it searches (another thread's buffers, say). 128 bytes per
/// chunk of 16,384 nodes; entries in groups of four on one pair of lines
/// measured 2.5% slower at 2 threads.
#[repr(align(128))]
struct Slot<T>(OnceLock<Box<[T]>>);

/// Fixed chunks, allocated on first use and never moved.
struct Arena<T> {
    chunks: Box<[Slot<T>]>,
    capacity: usize,
}

impl<T> Arena<T> {
    fn new(capacity: usize) -> Self {
        Arena {
            chunks: (0..capacity.div_ceil(CHUNK))
                .map(|_| Slot(OnceLock::new()))
                .collect(),
            capacity,
        }
    }

    /// Allocates every chunk that holds an index of `range`.
    fn cover(&self, range: std::ops::Range<usize>, make: impl Fn() -> T) {
        if range.is_empty() {
            return;
        }
        for chunk in range.start >> CHUNK_BITS..=(range.end - 1) >> CHUNK_BITS {
            self.chunks[chunk].0.get_or_init(|| {
                let length = CHUNK.min(self.capacity - chunk * CHUNK);
                (0..length).map(|_| make()).collect()
            });
        }
    }

    /// An arena holding `items` from index 0, its chunks completed with
    /// `make`.
    fn filled(items: Vec<T>, capacity: usize, make: impl Fn() -> T) -> Self {
        let arena = Arena::new(capacity.max(items.len()));
        let mut items = items.into_iter();
        for (chunk, slot) in arena.chunks.iter().enumerate() {
            if items.len() == 0 {
                break;
            }
            let length = CHUNK.min(arena.capacity - chunk * CHUNK);
            let mut block: Vec<T> = items.by_ref().take(length).collect();
            block.resize_with(length, &make);
            let _ = slot.0.set(block.into_boxed_slice());
        }
        arena
    }

    #[inline]
    fn get(&self, index: u32) -> &T {
        let index = index as usize;
        let chunk = self.chunks[index >> CHUNK_BITS]
            .0
            .get()
            .expect("a published index has its chunk");
        &chunk[index & (CHUNK - 1)]
    }

    fn bytes(&self) -> usize {
        self.chunks
            .iter()
            .filter_map(|slot| slot.0.get())
            .map(|chunk| chunk.len() * size_of::<T>())
            .sum()
    }
}

/// What every expansion writes, on lines of its own: were it beside the
/// arena's chunk table, which every node access reads, each expansion by
/// one thread would cost the others a cache miss per node.
#[repr(align(128))]
struct Growth {
    /// Nodes in use: the next free index.
    len: AtomicU32,
    /// Set when an expansion did not fit under the node cap.
    full: AtomicBool,
}

impl Growth {
    fn new(len: u32) -> Self {
        Growth {
            len: AtomicU32::new(len),
            full: AtomicBool::new(false),
        }
    }
}

/// One thread's handle on a shared tree: the tree, and a run of node
/// indices the thread reserved for its own expansions, so that the tree's
/// size, which every expansion of every thread would otherwise write, is
/// written once per run. Indices left in a run when the search ends are
/// never used (at most a run per thread per search; a kept subtree is
/// copied without them).
pub(crate) struct SharedStore<'a, M, C: Cells> {
    tree: &'a SharedTree<M, C>,
    /// Reserved indices not used yet.
    reserved: std::ops::Range<u32>,
    /// Nodes reserved at a time; 0: every expansion takes its block from
    /// the tree itself, so that one thread grows the tree node for node as
    /// a private tree does.
    run: u32,
}

/// Nodes a thread reserves at a time when several share a tree.
pub(crate) const NODE_RUN: u32 = 256;

impl<'a, M: Copy + PartialEq, C: Cells> SharedStore<'a, M, C> {
    pub(crate) fn new(tree: &'a SharedTree<M, C>, run: u32) -> Self {
        SharedStore {
            tree,
            reserved: 0..0,
            run,
        }
    }

    /// `count` consecutive free nodes within `cap` nodes: from this
    /// thread's run if it holds that many, else from a new run, else (near
    /// the cap) straight from the tree.
    pub(crate) fn allocate(&mut self, count: usize, cap: usize) -> Option<u32> {
        if self.reserved.len() >= count {
            let first = self.reserved.start;
            self.reserved.start += count as u32;
            return Some(first);
        }
        if self.run as usize > count
            && let Some(first) = self.tree.allocate(self.run as usize, cap)
        {
            self.reserved = first + count as u32..first + self.run;
            return Some(first);
        }
        self.tree.allocate(count, cap)
    }
}

impl<M, C: Cells> std::ops::Deref for SharedStore<'_, M, C> {
    type Target = SharedTree<M, C>;

    fn deref(&self) -> &SharedTree<M, C> {
        self.tree
    }
}

/// A tree shared by the threads of a search. The root is node 0.
pub(crate) struct SharedTree<M, C: Cells> {
    nodes: Arena<SharedNode<M, C::Stats>>,
    /// AMAF statistics, same indices as `nodes` (empty without RAVE).
    amaf: Arena<C::Amaf>,
    /// Whether AMAF statistics are kept (RAVE).
    keeps_amaf: bool,
    /// Nodes in use and whether the tree is full.
    growth: Growth,
    /// The action-space size the AMAF keys were made with.
    pub(crate) num_actions: usize,
}

impl<M: Copy + PartialEq, C: Cells> SharedTree<M, C> {
    /// An empty tree for at most `capacity` nodes, keeping AMAF
    /// statistics if `keeps_amaf`.
    pub(crate) fn new(capacity: usize, num_actions: usize, keeps_amaf: bool) -> Self {
        SharedTree {
            nodes: Arena::new(capacity),
            amaf: Arena::new(if keeps_amaf { capacity } else { 0 }),
            keeps_amaf,
            growth: Growth::new(0),
            num_actions,
        }
    }

    /// The most nodes it can hold.
    pub(crate) fn capacity(&self) -> usize {
        self.nodes.capacity
    }

    pub(crate) fn len(&self) -> usize {
        self.growth.len.load(Ordering::Relaxed) as usize
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether an expansion did not fit under the node cap.
    pub(crate) fn is_full(&self) -> bool {
        self.growth.full.load(Ordering::Relaxed)
    }

    /// Marks the tree full, or (between searches) lets it grow again.
    pub(crate) fn set_full(&self, full: bool) {
        self.growth.full.store(full, Ordering::Relaxed);
    }

    pub(crate) fn has_amaf(&self) -> bool {
        self.keeps_amaf
    }

    /// Bytes of the chunks allocated.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.nodes.bytes() + self.amaf.bytes()
    }

    #[inline]
    pub(crate) fn node(&self, index: u32) -> &SharedNode<M, C::Stats> {
        self.nodes.get(index)
    }

    /// AMAF statistics of the node (RAVE only).
    #[inline]
    pub(crate) fn amaf(&self, index: u32) -> &C::Amaf {
        self.amaf.get(index)
    }

    /// Reserves `count` consecutive nodes if the tree stays within `cap`
    /// nodes (and its capacity); returns the first.
    pub(crate) fn allocate(&self, count: usize, cap: usize) -> Option<u32> {
        let limit = cap.min(self.capacity());
        let mut first = self.growth.len.load(Ordering::Relaxed);
        loop {
            let end = first as usize + count;
            if end > limit {
                return None;
            }
            match self.growth.len.compare_exchange_weak(
                first,
                end as u32,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(seen) => first = seen,
            }
        }
        // Chunks are made a little ahead of need, so that a thread seldom
        // waits for another to make the one it needs.
        let ahead = first as usize..(first as usize + count + LOOKAHEAD).min(self.capacity());
        self.nodes.cover(ahead.clone(), SharedNode::empty);
        if self.keeps_amaf {
            self.amaf.cover(ahead, || C::Amaf::new(0, 0.0));
        }
        Some(first)
    }

    /// Starts the tree at a position where `mover` moved last (by
    /// convention, the opponent of the player to move). The tree must be
    /// empty.
    pub(crate) fn set_root(&self, placeholder: M, mover: Player) {
        let root = self.allocate(1, usize::MAX);
        debug_assert_eq!(root, Some(0));
        let _ = self.node(0).edge.set((placeholder, mover));
    }

    /// Gives `node` the children block starting at `first` (reserved with
    /// [`allocate`](SharedTree::allocate)), one child per move, all by
    /// `mover`, with AMAF keys from `key`. The caller holds the node's
    /// expansion (it moved the kind to [`EXPANDING`]).
    pub(crate) fn expand(
        &self,
        node: u32,
        first: u32,
        moves: &[M],
        mover: Player,
        mut key: impl FnMut(M) -> u32,
    ) {
        for (offset, &mv) in moves.iter().enumerate() {
            let child = first + offset as u32;
            let _ = self.node(child).edge.set((mv, mover));
            if self.keeps_amaf {
                self.node(child).amaf_key.store(key(mv), Ordering::Relaxed);
            }
        }
        let parent = self.node(node);
        parent.first_child.store(first, Ordering::Relaxed);
        parent
            .num_children
            .store(moves.len() as u32, Ordering::Relaxed);
        // Publishes the block: a thread that reads EXPANDED sees it whole.
        parent.kind.store(EXPANDED, Ordering::Release);
    }

    /// The child of the root reached by `mv`, if the root is expanded and
    /// has one.
    fn root_child(&self, mv: M) -> Option<u32> {
        self.node(0)
            .children()
            .find(|&child| self.node(child).mv() == mv)
    }

    /// Checks, between searches, that the visits add up: no simulation is
    /// left in flight, and every expanded node has exactly one visit more
    /// than its children together (the visit that valued it as a leaf),
    /// or, once proven, at least that (simulations that reach a proven
    /// node stop there); a root expanded before the search may have as
    /// many visits as its children.
    pub(crate) fn check_visits(&self) -> Result<(), VisitCountError> {
        if self.is_empty() {
            return Ok(());
        }
        let mut stack = vec![(0u32, 0u32)];
        while let Some((index, depth)) = stack.pop() {
            let node = self.node(index);
            let stats = node.stats.read();
            let children = node.children();
            let children_visits: u64 = children
                .clone()
                .map(|child| u64::from(self.node(child).stats.read().visits))
                .sum();
            let visits = u64::from(stats.visits);
            let proven = node.proof().0 != Proof::Unknown;
            // A root expanded before its first simulation has no visit of
            // its own; one kept from an earlier search (a child then) has.
            let adds_up = children.is_empty()
                || children_visits + 1 == visits
                || (index == 0 && children_visits == visits)
                || (proven && children_visits < visits);
            if stats.in_flight != 0 || !adds_up {
                return Err(VisitCountError {
                    node: index,
                    depth,
                    visits,
                    children_visits,
                    in_flight: stats.in_flight,
                });
            }
            stack.extend(children.map(|child| (child, depth + 1)));
        }
        Ok(())
    }

    /// A new tree of the subtree below the root's child reached by `mv`,
    /// with its statistics, laid out breadth first as `Tree::advance` does;
    /// `None` if that child is missing or was never visited. Call it
    /// between searches, when no thread works on the tree.
    pub(crate) fn subtree(&self, mv: M) -> Option<Self> {
        let root = self.root_child(mv)?;
        if self.node(root).stats.read().visits == 0 {
            return None;
        }
        let copy = |from: u32| {
            let node = self.node(from);
            let stats = node.stats.read();
            SharedNode {
                stats: C::Stats::new(stats.visits, stats.mean),
                amaf_key: AtomicU32::new(node.amaf_key.load(Ordering::Relaxed)),
                arrivals: AtomicU32::new(node.arrivals.load(Ordering::Relaxed)),
                first_child: AtomicU32::new(0),
                num_children: AtomicU32::new(0),
                kind: AtomicU8::new(match node.kind.load(Ordering::Relaxed) {
                    EXPANDING => LEAF,
                    kind => kind,
                }),
                proof: AtomicU32::new(node.proof.load(Ordering::Relaxed)),
                edge: node
                    .edge
                    .get()
                    .copied()
                    .map_or_else(OnceLock::new, OnceLock::from),
            }
        };
        let mut nodes = vec![copy(root)];
        let mut sources = vec![root];
        let copy_amaf = |from: u32| {
            let (visits, sum) = self.amaf(from).read();
            C::Amaf::new(visits, sum)
        };
        let mut next = 0;
        while next < nodes.len() {
            let children = self.node(sources[next]).children();
            if !children.is_empty() {
                let kept = &nodes[next];
                kept.first_child
                    .store(nodes.len() as u32, Ordering::Relaxed);
                kept.num_children
                    .store(children.len() as u32, Ordering::Relaxed);
                for child in children {
                    nodes.push(copy(child));
                    sources.push(child);
                }
            }
            next += 1;
        }
        let len = nodes.len();
        let amaf = if self.keeps_amaf {
            sources.iter().map(|&from| copy_amaf(from)).collect()
        } else {
            Vec::new()
        };
        Some(SharedTree {
            nodes: Arena::filled(nodes, self.capacity(), SharedNode::empty),
            amaf: Arena::filled(amaf, self.amaf.capacity, || C::Amaf::new(0, 0.0)),
            keeps_amaf: self.keeps_amaf,
            growth: Growth::new(len as u32),
            num_actions: self.num_actions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_hand_out_disjoint_blocks_within_the_cap() {
        let cap = 2_000;
        let tree = SharedTree::<u8, LockFree>::new(10_000, 4, true);
        tree.set_root(0, Player::First);
        let mut stores = [
            SharedStore::new(&tree, NODE_RUN),
            SharedStore::new(&tree, NODE_RUN),
        ];
        let mut taken = vec![false; cap];
        taken[0] = true;
        let mut sizes = [3usize, 10, 7, 1, 12].into_iter().cycle();
        let mut failures = 0;
        while failures < 20 {
            for store in &mut stores {
                let size = sizes.next().unwrap();
                let Some(first) = store.allocate(size, cap) else {
                    failures += 1;
                    continue;
                };
                let block = &mut taken[first as usize..first as usize + size];
                assert!(!block.iter().any(|&taken| taken), "a node handed out twice");
                block.fill(true);
            }
        }
        assert!(tree.len() <= cap);
        // Only what is left in each store's run is lost.
        let used = taken.iter().filter(|&&taken| taken).count();
        assert!(used + 2 * NODE_RUN as usize >= cap, "{used} of {cap} used");
        // Without runs, blocks come from the tree one after another.
        let tree = SharedTree::<u8, LockFree>::new(100, 4, true);
        tree.set_root(0, Player::First);
        let mut one = SharedStore::new(&tree, 0);
        assert_eq!(one.allocate(5, 100), Some(1));
        assert_eq!(one.allocate(5, 100), Some(6));
        assert_eq!(tree.len(), 11);
        assert_eq!(one.allocate(90, 100), None);
    }

    #[test]
    fn nodes_and_the_chunk_table_sit_on_lines_of_their_own() {
        assert_eq!(align_of::<SharedNode<u8, AtomicStats>>(), 64);
        assert_eq!(size_of::<SharedNode<u8, AtomicStats>>(), 64);
        assert_eq!(size_of::<SharedNode<[u8; 8], LockedStats>>(), 64);
        assert_eq!(size_of::<AtomicAmaf>(), 8);
        assert_eq!(align_of::<Slot<u8>>(), 128);
        assert_eq!(align_of::<Growth>(), 128);
        let tree = SharedTree::<u8, LockFree>::new(3 * CHUNK, 4, true);
        tree.set_root(0, Player::First);
        let first = tree.allocate(CHUNK + 7, usize::MAX).unwrap();
        for index in [0, first, first + CHUNK as u32] {
            assert_eq!(std::ptr::from_ref(tree.node(index)).addr() % 64, 0);
        }
    }

    /// Root (4 visits) with children A (3) and B (1); A with children of
    /// one visit each: the visits add up.
    fn small_tree<C: Cells>() -> SharedTree<u8, C> {
        let tree = SharedTree::<u8, C>::new(16, 0, false);
        tree.set_root(0, Player::Second);
        let expand = |node: u32, moves: &[u8], mover: Player| {
            let first = tree.allocate(moves.len(), usize::MAX).unwrap();
            tree.expand(node, first, moves, mover, |_| 0);
            first
        };
        let a = expand(0, &[1, 2], Player::First);
        let c = expand(a, &[3, 4], Player::Second);
        visit(&tree, 0, 4);
        visit(&tree, a, 3);
        visit(&tree, a + 1, 1);
        visit(&tree, c, 1);
        visit(&tree, c + 1, 1);
        tree
    }

    fn visit<C: Cells>(tree: &SharedTree<u8, C>, node: u32, times: usize) {
        for _ in 0..times {
            tree.node(node).stats.enter();
            tree.node(node).stats.record(0.5);
        }
    }

    fn check_catches_broken_counts<C: Cells>() {
        small_tree::<C>().check_visits().unwrap();
        // A visit too many below A.
        let tree = small_tree::<C>();
        visit(&tree, 3, 1);
        let error = tree.check_visits().unwrap_err();
        assert_eq!((error.node, error.depth, error.visits), (1, 1, 3));
        assert_eq!(error.children_visits, 3);
        // A simulation left in flight.
        let tree = small_tree::<C>();
        tree.node(4).stats.enter();
        assert_eq!(tree.check_visits().unwrap_err().in_flight, 1);
        // A visit lost at the root.
        let tree = small_tree::<C>();
        visit(&tree, 2, 2);
        assert_eq!(tree.check_visits().unwrap_err().node, 0);
        // Once A is proven, later simulations may stop there.
        let tree = small_tree::<C>();
        visit(&tree, 1, 1);
        visit(&tree, 0, 1);
        assert!(tree.check_visits().is_err());
        assert!(tree.node(1).prove(Proof::Win, 1));
        tree.check_visits().unwrap();
    }

    #[test]
    fn the_visit_check_finds_counts_that_do_not_add_up() {
        check_catches_broken_counts::<LockFree>();
        check_catches_broken_counts::<Locked>();
    }
}
