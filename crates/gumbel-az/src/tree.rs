//! The search tree both searchers share: an arena of nodes, each owning a
//! contiguous run of edges (one per legal move, sorted by action index).
//!
//! Statistics live on the edges: `visits` is the visit count of the child
//! (its own evaluation included, as in mctx) and `q` the running mean of
//! the values backed up through it, from the point of view of the player to
//! move at the parent. The root's own count and value are kept apart.

use std::ops::Range;

use game_traits::{ActionSpace, Player, PolicyEvaluator, contain_logits, contain_value};

/// Marks an edge whose child has not been created.
pub(crate) const NO_NODE: u32 = u32::MAX;

/// A position of the tree.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) first_edge: u32,
    pub(crate) num_edges: u32,
    /// The player to move here (at a finished position: who would move).
    pub(crate) player: Player,
    pub(crate) terminal: bool,
    /// The evaluator's value for `player`, or the exact reward at a
    /// finished position.
    pub(crate) raw_value: f64,
    /// Edges whose subtree is not known to be complete (an edge without a
    /// child counts). A node with none left is *complete*: every position
    /// below it is in the tree, down to finished games.
    pub(crate) open: u32,
}

impl Node {
    pub(crate) fn edges(&self) -> Range<usize> {
        self.first_edge as usize..(self.first_edge + self.num_edges) as usize
    }
}

/// A legal move of a node, with its prior and statistics.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Edge<M> {
    pub(crate) mv: M,
    /// The move's index in the game's action space.
    pub(crate) action: u32,
    /// The evaluator's logit, widened to f64.
    pub(crate) logit: f64,
    /// `softmax(logits)` at the node, floored at the smallest positive
    /// normal number (mctx does this to avoid 0/0 in the mixed value).
    pub(crate) prior: f64,
    pub(crate) child: u32,
    pub(crate) visits: u32,
    pub(crate) q: f64,
}

/// One edge of a simulation's path, and whether its child has the same
/// player to move as its parent (then values keep their sign).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) edge: u32,
    /// The node the edge leaves from.
    pub(crate) parent: u32,
    pub(crate) same_player: bool,
}

/// Buffers reused by every expansion and simulation, so the hot loop does
/// not allocate.
#[derive(Clone, Debug)]
pub(crate) struct Scratch<M> {
    pub(crate) moves: Vec<M>,
    pub(crate) logits: Vec<f32>,
    pub(crate) actions: Vec<u32>,
    pub(crate) path: Vec<Step>,
}

impl<M> Default for Scratch<M> {
    fn default() -> Self {
        Scratch {
            moves: Vec::new(),
            logits: Vec::new(),
            actions: Vec::new(),
            path: Vec::new(),
        }
    }
}

/// The arena. Node 0 is the root when the tree is not empty.
#[derive(Clone, Debug)]
pub(crate) struct Tree<M> {
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge<M>>,
    /// The root's visit count: 1 for its own evaluation plus one per
    /// simulation.
    pub(crate) root_visits: u32,
    /// Running mean of the root's evaluation and every simulation's value,
    /// for the player to move at the root.
    pub(crate) root_value: f64,
    /// The memory cap: nodes and edges together never reserve more bytes
    /// (the root aside). Positions that do not fit are evaluated without
    /// being kept.
    pub(crate) max_bytes: usize,
    /// Set when a position did not fit under the cap.
    pub(crate) full: bool,
    stack: Vec<(u32, u32)>,
}

impl<M> Default for Tree<M> {
    fn default() -> Self {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            root_visits: 0,
            root_value: 0.0,
            max_bytes: usize::MAX,
            full: false,
            stack: Vec::new(),
        }
    }
}

/// Watches a search that only a node limit bounds: it must also end once
/// its tree stops growing, which a small game's tree (or a search that
/// concentrates on a few lines) may do long before the limit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StallWatch {
    active: bool,
    size: usize,
    grown_at: u64,
}

impl StallWatch {
    /// Simulations without a new node after which the search counts as
    /// stalled (or as many as the tree has nodes, if more).
    const WINDOW: u64 = 10_000;

    pub(crate) fn new(limits: &game_traits::Limits, size: usize) -> Self {
        StallWatch {
            active: limits.nodes.is_some()
                && limits.time.is_none()
                && limits.iterations.is_none()
                && limits.stop.is_none(),
            size,
            grown_at: 0,
        }
    }

    /// Whether the tree, now of `size` nodes after `simulations`
    /// simulations, has stopped growing.
    pub(crate) fn stalled(&mut self, size: usize, simulations: u64) -> bool {
        if !self.active {
            return false;
        }
        if size > self.size {
            (self.size, self.grown_at) = (size, simulations);
            return false;
        }
        simulations - self.grown_at > Self::WINDOW.max(size as u64)
    }
}

/// Bytes of one node, its edges not counted.
pub(crate) const NODE_BYTES: usize = size_of::<Node>();

/// Grows `vec` to hold `needed` items, doubling as usual but never
/// reserving more than `allowed` (or `needed`, if more).
fn grow_within<T>(vec: &mut Vec<T>, needed: usize, allowed: usize) {
    if needed > vec.capacity() {
        let target = (2 * vec.capacity()).clamp(needed, allowed.max(needed));
        vec.reserve_exact(target - vec.len());
    }
}

impl<M: Copy + PartialEq + std::fmt::Debug> Tree<M> {
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.root_visits = 0;
        self.root_value = 0.0;
        self.full = false;
    }

    /// Whether every position below the root is in the tree.
    pub(crate) fn is_complete(&self) -> bool {
        self.nodes.first().is_some_and(|root| root.open == 0)
    }

    pub(crate) fn root(&self) -> &Node {
        &self.nodes[0]
    }

    pub(crate) fn node_edges(&self, node: u32) -> &[Edge<M>] {
        &self.edges[self.nodes[node as usize].edges()]
    }

    pub(crate) fn root_edges(&self) -> &[Edge<M>] {
        self.node_edges(0)
    }

    /// Bytes of one edge.
    pub(crate) const fn edge_bytes() -> usize {
        size_of::<Edge<M>>()
    }

    /// Bytes the tree holds reserved.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * NODE_BYTES + self.edges.capacity() * Self::edge_bytes()
    }

    /// Whether a node with `edges` edges fits under the memory cap, with
    /// what both arrays hold reserved (not just what they use).
    fn fits(&self, edges: usize) -> bool {
        let nodes = self.nodes.capacity().max(self.nodes.len() + 1);
        let edges = self.edges.capacity().max(self.edges.len() + edges);
        nodes
            .saturating_mul(NODE_BYTES)
            .saturating_add(edges.saturating_mul(Self::edge_bytes()))
            <= self.max_bytes
    }

    /// Makes room for one more node with `edges` edges, reserving within
    /// the memory cap.
    fn reserve(&mut self, edges: usize) {
        let edge_bytes = Self::edge_bytes();
        let node_room = self
            .max_bytes
            .saturating_sub(self.edges.capacity().max(self.edges.len() + edges) * edge_bytes);
        let nodes_needed = self.nodes.len() + 1;
        grow_within(&mut self.nodes, nodes_needed, node_room / NODE_BYTES);
        let edge_room = self
            .max_bytes
            .saturating_sub(self.nodes.capacity() * NODE_BYTES);
        let edges_needed = self.edges.len() + edges;
        grow_within(&mut self.edges, edges_needed, edge_room / edge_bytes);
    }

    /// Creates the node for `state` (evaluating it, or scoring it exactly
    /// if the game is over) and returns its index; or, if it does not fit
    /// under the memory cap (and `keep_anyway` is false), returns its value
    /// for the player to move there without keeping it.
    ///
    /// The evaluator's value and logits are contained
    /// ([`contain_value`], [`contain_logits`]), so a faulty evaluator cannot
    /// put NaN into the tree.
    pub(crate) fn add_node<G, E>(
        &mut self,
        state: &G,
        evaluator: &E,
        scratch: &mut Scratch<M>,
        keep_anyway: bool,
    ) -> Result<u32, f64>
    where
        G: ActionSpace<Move = M>,
        E: PolicyEvaluator<G> + ?Sized,
    {
        let index = self.nodes.len() as u32;
        let first_edge = self.edges.len();
        let player = state.to_move();
        state.legal_moves(&mut scratch.moves);
        if scratch.moves.is_empty() {
            let value = f64::from(
                state
                    .outcome()
                    .map_or(0.0, |outcome| outcome.reward(player)),
            );
            if !keep_anyway && !self.fits(0) {
                self.full = true;
                return Err(value);
            }
            self.reserve(0);
            self.nodes.push(Node {
                first_edge: first_edge as u32,
                num_edges: 0,
                player,
                terminal: true,
                raw_value: value,
                open: 0,
            });
            return Ok(index);
        }
        scratch.logits.clear();
        scratch.logits.resize(scratch.moves.len(), 0.0);
        let value = contain_value(evaluator.evaluate(state, &scratch.moves, &mut scratch.logits));
        if !keep_anyway && !self.fits(scratch.moves.len()) {
            self.full = true;
            return Err(f64::from(value));
        }
        contain_logits(&mut scratch.logits);
        self.reserve(scratch.moves.len());
        let max_logit = f64::from(scratch.logits.iter().copied().fold(f32::MIN, f32::max));
        let mut sum = 0.0;
        for (&mv, &logit) in scratch.moves.iter().zip(&scratch.logits) {
            let logit = f64::from(logit);
            let weight = (logit - max_logit).exp();
            sum += weight;
            let action = state.action_index(mv);
            debug_assert!(
                action < state.num_actions(),
                "action index {action} out of range"
            );
            self.edges.push(Edge {
                mv,
                action: action as u32,
                logit,
                prior: weight,
                child: NO_NODE,
                visits: 0,
                q: 0.0,
            });
        }
        let edges = &mut self.edges[first_edge..];
        for edge in edges.iter_mut() {
            edge.prior = (edge.prior / sum).max(f64::MIN_POSITIVE);
        }
        // Ties go to the lowest action index everywhere, as in the reference.
        if !edges.is_sorted_by_key(|edge| edge.action) {
            edges.sort_unstable_by_key(|edge| edge.action);
        }
        self.nodes.push(Node {
            first_edge: first_edge as u32,
            num_edges: scratch.moves.len() as u32,
            player,
            terminal: false,
            raw_value: f64::from(value),
            open: scratch.moves.len() as u32,
        });
        Ok(index)
    }

    /// Makes `state` the root of an empty tree; its count and value become
    /// its own evaluation's.
    pub(crate) fn new_root<G, E>(&mut self, state: &G, evaluator: &E, scratch: &mut Scratch<M>)
    where
        G: ActionSpace<Move = M>,
        E: PolicyEvaluator<G> + ?Sized,
    {
        self.clear();
        // The root is kept whatever the cap.
        let _root = self.add_node(state, evaluator, scratch, true);
        self.root_visits = 1;
        self.root_value = self.nodes[0].raw_value;
    }

    /// Whether the root stands for `state`, as far as the player to move
    /// and the set of legal actions tell.
    pub(crate) fn root_matches<G>(&self, state: &G, scratch: &mut Scratch<M>) -> bool
    where
        G: ActionSpace<Move = M>,
    {
        let Some(root) = self.nodes.first() else {
            return false;
        };
        if root.terminal || root.player != state.to_move() {
            return false;
        }
        state.legal_moves(&mut scratch.moves);
        if scratch.moves.len() != root.num_edges as usize {
            return false;
        }
        scratch.actions.clear();
        scratch.actions.extend(
            scratch
                .moves
                .iter()
                .map(|&mv| state.action_index(mv) as u32),
        );
        scratch.actions.sort_unstable();
        self.root_edges()
            .iter()
            .zip(&scratch.actions)
            .all(|(edge, &action)| edge.action == action)
    }

    /// Sets every statistic to that of a tree whose nodes were evaluated
    /// but never visited: the root counts its evaluation only.
    pub(crate) fn clear_statistics(&mut self) {
        for edge in &mut self.edges {
            edge.visits = 0;
            edge.q = 0.0;
        }
        self.root_visits = 1;
        self.root_value = self.nodes.first().map_or(0.0, |root| root.raw_value);
    }

    /// Runs one simulation: plays `first_edge` at the root, then lets
    /// `select(tree, node, node_value)` pick an edge at every node already
    /// visited, until it reaches a node visited for the first time (created
    /// and evaluated now, or evaluated in an earlier search) or a finished
    /// position; then backs the value up. `node_value` is the node's mean
    /// value for its player to move. Returns the path length.
    pub(crate) fn simulate<G, E, F>(
        &mut self,
        root_state: &G,
        state: &mut G,
        first_edge: u32,
        evaluator: &E,
        scratch: &mut Scratch<M>,
        mut select: F,
    ) -> usize
    where
        G: ActionSpace<Move = M>,
        E: PolicyEvaluator<G> + ?Sized,
        F: FnMut(&Self, u32, f64) -> u32,
    {
        scratch.path.clear();
        state.clone_from(root_state);
        let mut parent = 0_u32;
        let mut parent_player = self.nodes[0].player;
        let mut edge_index = first_edge as usize;
        let mut completed = false;
        let leaf_value = loop {
            let Edge {
                mv,
                child,
                visits,
                q,
                ..
            } = self.edges[edge_index];
            state.play(mv);
            let child = if child == NO_NODE {
                match self.add_node(state, evaluator, scratch, false) {
                    Ok(child) => {
                        self.edges[edge_index].child = child;
                        completed = self.nodes[child as usize].open == 0;
                        child
                    }
                    Err(value) => {
                        // Over the memory cap: valued, not kept.
                        scratch.path.push(Step {
                            edge: edge_index as u32,
                            parent,
                            same_player: state.to_move() == parent_player,
                        });
                        break value;
                    }
                }
            } else {
                child
            };
            let node = self.nodes[child as usize];
            let same_player = node.player == parent_player;
            scratch.path.push(Step {
                edge: edge_index as u32,
                parent,
                same_player,
            });
            if visits == 0 || node.terminal {
                break node.raw_value;
            }
            let node_value = if same_player { q } else { -q };
            edge_index = select(self, child, node_value) as usize;
            parent = child;
            parent_player = node.player;
        };
        if completed {
            // A finished game was added: close its edge, and every node
            // above whose last open edge that was.
            for step in scratch.path.iter().rev() {
                let node = &mut self.nodes[step.parent as usize];
                node.open -= 1;
                if node.open > 0 {
                    break;
                }
            }
        }
        self.backup(&scratch.path, leaf_value);
        scratch.path.len()
    }

    /// Adds `leaf_value` (for the player to move at the end of `path`) to
    /// every edge of `path` and to the root, as running means (mctx's
    /// `(V * N + G) / (N + 1)`).
    fn backup(&mut self, path: &[Step], leaf_value: f64) {
        let mut value = leaf_value;
        for step in path.iter().rev() {
            if !step.same_player {
                value = -value;
            }
            let edge = &mut self.edges[step.edge as usize];
            edge.q = (edge.q * f64::from(edge.visits) + value) / f64::from(edge.visits + 1);
            edge.visits += 1;
        }
        self.root_value = (self.root_value * f64::from(self.root_visits) + value)
            / f64::from(self.root_visits + 1);
        self.root_visits += 1;
    }

    /// The root edge of `mv`, if the root has one.
    pub(crate) fn root_edge_of(&self, mv: M) -> Option<usize> {
        let root = self.nodes.first()?;
        root.edges().find(|&edge| self.edges[edge].mv == mv)
    }

    /// Keeps only the subtree below the root move `mv` (compacted to the
    /// front of fresh buffers), with its statistics. Empties the tree if
    /// that child was never created.
    pub(crate) fn reroot(&mut self, mv: M) {
        let Some(edge) = self.root_edge_of(mv) else {
            self.clear();
            return;
        };
        let Edge {
            child, visits, q, ..
        } = self.edges[edge];
        if child == NO_NODE {
            self.clear();
            return;
        }
        let same_player = self.nodes[child as usize].player == self.nodes[0].player;
        // Fresh buffers, so that the old ones are freed: the memory cap
        // holds across moves too.
        let mut kept_nodes = Vec::new();
        let mut kept_edges = Vec::new();
        kept_nodes.push(self.nodes[child as usize]);
        self.stack.clear();
        self.stack.push((child, 0));
        while let Some((old, new)) = self.stack.pop() {
            let first_edge = kept_edges.len() as u32;
            for index in self.nodes[old as usize].edges() {
                let mut edge = self.edges[index];
                if edge.child != NO_NODE {
                    let new_child = kept_nodes.len() as u32;
                    kept_nodes.push(self.nodes[edge.child as usize]);
                    self.stack.push((edge.child, new_child));
                    edge.child = new_child;
                }
                kept_edges.push(edge);
            }
            kept_nodes[new as usize].first_edge = first_edge;
        }
        kept_nodes.shrink_to_fit();
        kept_edges.shrink_to_fit();
        self.nodes = kept_nodes;
        self.edges = kept_edges;
        self.full = false;
        // An unvisited child (possible only after a cleared search) counts
        // its evaluation.
        self.root_visits = visits.max(1);
        self.root_value = match visits {
            0 => self.nodes[0].raw_value,
            _ if same_player => q,
            _ => -q,
        };
    }

    /// The most visited root edge's move, then the most visited edge below
    /// it, and so on while edges have visits (ties: lowest action index).
    pub(crate) fn principal_variation(&self, first: Option<usize>) -> Vec<M> {
        let mut pv = Vec::new();
        let mut edge = first;
        while let Some(index) = edge {
            let Edge { mv, child, .. } = self.edges[index];
            pv.push(mv);
            if child == NO_NODE {
                break;
            }
            let node = self.nodes[child as usize];
            edge = node.edges().filter(|&e| self.edges[e].visits > 0).fold(
                None,
                |best: Option<usize>, e| match best {
                    Some(b) if self.edges[b].visits >= self.edges[e].visits => Some(b),
                    _ => Some(e),
                },
            );
        }
        pv
    }
}
