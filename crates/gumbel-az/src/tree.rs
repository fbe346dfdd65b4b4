//! The search tree both searchers share: an arena of nodes, each owning a
//! contiguous run of edges (one per legal move, sorted by action index).
//!
//! Statistics live on the edges: `visits` is the visit count of the child
//! (its own evaluation included, as in mctx) and `q` the running mean of
//! the values backed up through it, from the point of view of the player to
//! move at the parent. The root's own count and value are kept apart.

use std::ops::Range;

use game_traits::{ActionSpace, Player, PolicyEvaluator};

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
    spare_nodes: Vec<Node>,
    spare_edges: Vec<Edge<M>>,
    stack: Vec<(u32, u32)>,
}

impl<M> Default for Tree<M> {
    fn default() -> Self {
        Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            root_visits: 0,
            root_value: 0.0,
            spare_nodes: Vec::new(),
            spare_edges: Vec::new(),
            stack: Vec::new(),
        }
    }
}

impl<M: Copy + PartialEq + std::fmt::Debug> Tree<M> {
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.root_visits = 0;
        self.root_value = 0.0;
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

    /// Creates the node for `state` (evaluating it, or scoring it exactly
    /// if the game is over) and returns its index.
    pub(crate) fn add_node<G, E>(
        &mut self,
        state: &G,
        evaluator: &E,
        scratch: &mut Scratch<M>,
    ) -> u32
    where
        G: ActionSpace<Move = M>,
        E: PolicyEvaluator<G> + ?Sized,
    {
        let index = self.nodes.len() as u32;
        let first_edge = self.edges.len();
        let player = state.to_move();
        state.legal_moves(&mut scratch.moves);
        if scratch.moves.is_empty() {
            let value = state
                .outcome()
                .map_or(0.0, |outcome| outcome.reward(player));
            self.nodes.push(Node {
                first_edge: first_edge as u32,
                num_edges: 0,
                player,
                terminal: true,
                raw_value: f64::from(value),
            });
            return index;
        }
        scratch.logits.clear();
        scratch.logits.resize(scratch.moves.len(), 0.0);
        let value = evaluator.evaluate(state, &scratch.moves, &mut scratch.logits);
        debug_assert!(value.is_finite(), "evaluator value {value}");
        let max_logit = f64::from(scratch.logits.iter().copied().fold(f32::MIN, f32::max));
        let mut sum = 0.0;
        for (&mv, &logit) in scratch.moves.iter().zip(&scratch.logits) {
            debug_assert!(logit.is_finite(), "evaluator logit {logit} for {mv:?}");
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
        });
        index
    }

    /// Makes `state` the root of an empty tree; its count and value become
    /// its own evaluation's.
    pub(crate) fn new_root<G, E>(&mut self, state: &G, evaluator: &E, scratch: &mut Scratch<M>)
    where
        G: ActionSpace<Move = M>,
        E: PolicyEvaluator<G> + ?Sized,
    {
        self.clear();
        self.add_node(state, evaluator, scratch);
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
        let mut parent_player = self.nodes[0].player;
        let mut edge_index = first_edge as usize;
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
                let child = self.add_node(state, evaluator, scratch);
                self.edges[edge_index].child = child;
                child
            } else {
                child
            };
            let node = self.nodes[child as usize];
            let same_player = node.player == parent_player;
            scratch.path.push(Step {
                edge: edge_index as u32,
                same_player,
            });
            if visits == 0 || node.terminal {
                break node.raw_value;
            }
            let node_value = if same_player { q } else { -q };
            edge_index = select(self, child, node_value) as usize;
            parent_player = node.player;
        };
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
        self.spare_nodes.clear();
        self.spare_edges.clear();
        self.spare_nodes.push(self.nodes[child as usize]);
        self.stack.clear();
        self.stack.push((child, 0));
        while let Some((old, new)) = self.stack.pop() {
            let first_edge = self.spare_edges.len() as u32;
            for index in self.nodes[old as usize].edges() {
                let mut edge = self.edges[index];
                if edge.child != NO_NODE {
                    let new_child = self.spare_nodes.len() as u32;
                    self.spare_nodes.push(self.nodes[edge.child as usize]);
                    self.stack.push((edge.child, new_child));
                    edge.child = new_child;
                }
                self.spare_edges.push(edge);
            }
            self.spare_nodes[new as usize].first_edge = first_edge;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare_nodes);
        std::mem::swap(&mut self.edges, &mut self.spare_edges);
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
