//! The search tree: an arena of nodes with `u32` indices, children of a
//! node in one contiguous block.

use game_traits::Player;

/// What is known of a node's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Children not generated yet.
    Leaf,
    /// Children are the block `first_child .. first_child + num_children`.
    Expanded,
    /// The game is over here.
    Terminal,
}

/// A game-theoretic value proven by the search (MCTS-Solver), from the
/// point of view of a node's mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Proof {
    Loss,
    Draw,
    Win,
    Unknown,
}

impl Proof {
    /// The proof of a finished position whose result is `value` for the
    /// mover.
    pub(crate) fn from_value(value: f32) -> Proof {
        if value > 0.0 {
            Proof::Win
        } else if value < 0.0 {
            Proof::Loss
        } else {
            Proof::Draw
        }
    }

    /// The same proof for the other player.
    pub(crate) fn flipped(self) -> Proof {
        match self {
            Proof::Loss => Proof::Win,
            Proof::Win => Proof::Loss,
            other => other,
        }
    }

    /// The exact value, if proven.
    pub(crate) fn value(self) -> Option<f32> {
        match self {
            Proof::Loss => Some(-1.0),
            Proof::Draw => Some(0.0),
            Proof::Win => Some(1.0),
            Proof::Unknown => None,
        }
    }
}

/// One node: the position after `mv`. Statistics are from the point of
/// view of `mover`, the player who played `mv` (read from `to_move()` of
/// the parent position, never assumed to alternate).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<M> {
    /// Mean backed-up value for `mover`.
    pub(crate) mean: f32,
    /// `1 / sqrt(visits)`, kept so that selection needs no square root per
    /// child.
    pub(crate) inv_sqrt_visits: f32,
    pub(crate) visits: u32,
    pub(crate) first_child: u32,
    pub(crate) num_children: u32,
    pub(crate) mover: Player,
    pub(crate) kind: Kind,
    /// Proven value for `mover`.
    pub(crate) proof: Proof,
    /// Plies to the end of the game along the proof (a win as fast, a loss
    /// as slow as the proof found).
    pub(crate) proof_plies: u16,
    pub(crate) mv: M,
}

impl<M> Node<M> {
    fn new(mv: M, mover: Player) -> Self {
        Node {
            mean: 0.0,
            inv_sqrt_visits: 0.0,
            visits: 0,
            first_child: 0,
            num_children: 0,
            mover,
            kind: Kind::Leaf,
            proof: Proof::Unknown,
            proof_plies: 0,
            mv,
        }
    }

    /// Adds one result, `value` for `mover`.
    #[inline]
    pub(crate) fn update(&mut self, value: f32) {
        self.visits += 1;
        let visits = self.visits as f32;
        self.mean += (value - self.mean) / visits;
        self.inv_sqrt_visits = visits.sqrt().recip();
    }

    /// The range of the children block in the arena.
    #[inline]
    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.num_children as usize
    }
}

/// AMAF statistics of one child, kept in an array beside the nodes (only
/// RAVE fills it).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Amaf {
    /// `player index * num_actions + action index` of the child's move: the
    /// slot of the per-player "played later" marks to look at.
    pub(crate) key: u32,
    pub(crate) visits: u32,
    /// Sum of values for the child's mover.
    pub(crate) sum: f32,
}

/// A tree of one search thread. The root is node 0.
#[derive(Clone, Debug)]
pub(crate) struct Tree<M> {
    pub(crate) nodes: Vec<Node<M>>,
    /// Empty, or one entry per node (RAVE).
    pub(crate) amaf: Vec<Amaf>,
    /// The action-space size the AMAF keys were made with.
    pub(crate) num_actions: usize,
    /// Whether AMAF statistics are kept (RAVE).
    pub(crate) keeps_amaf: bool,
    /// Set when an expansion did not fit under the node cap in this
    /// search: the leaf is played out again instead.
    pub(crate) full: bool,
}

impl<M: Copy + PartialEq> Tree<M> {
    /// An empty tree, keeping AMAF statistics if `keeps_amaf`.
    pub(crate) fn new(keeps_amaf: bool) -> Self {
        Tree {
            nodes: Vec::new(),
            amaf: Vec::new(),
            num_actions: 0,
            keeps_amaf,
            full: false,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.amaf.clear();
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Starts a tree at a position where `mover` moved last (by
    /// convention, the opponent of the player to move). `placeholder` is
    /// any move: the root's move is never read.
    pub(crate) fn set_root(&mut self, placeholder: M, mover: Player, amaf: bool) {
        self.clear();
        self.nodes.push(Node::new(placeholder, mover));
        if amaf {
            self.amaf.push(Amaf::default());
        }
    }

    /// Gives `node` one child per move, all by `mover`. `keys` yields the
    /// AMAF key of each move when AMAF is kept. The arrays grow by
    /// doubling, but never reserve room for more than `cap` nodes (or the
    /// nodes needed now, if more), so the memory cap holds for the
    /// allocation and not just for the count.
    pub(crate) fn add_children(
        &mut self,
        node: usize,
        moves: &[M],
        mover: Player,
        mut key: impl FnMut(M) -> u32,
        amaf: bool,
        cap: usize,
    ) {
        let first = self.nodes.len();
        let needed = first + moves.len();
        if needed > self.nodes.capacity() {
            let target = (2 * self.nodes.capacity()).clamp(needed, cap.max(needed));
            self.nodes.reserve_exact(target - first);
            if amaf {
                self.amaf.reserve_exact(target - self.amaf.len());
            }
        }
        self.nodes
            .extend(moves.iter().map(|&mv| Node::new(mv, mover)));
        if amaf {
            self.amaf.extend(moves.iter().map(|&mv| Amaf {
                key: key(mv),
                visits: 0,
                sum: 0.0,
            }));
        }
        let parent = &mut self.nodes[node];
        parent.first_child = first as u32;
        parent.num_children = moves.len() as u32;
        parent.kind = Kind::Expanded;
    }

    /// The child of the root reached by `mv`, if the root is expanded and
    /// has one.
    fn root_child(&self, mv: M) -> Option<usize> {
        let root = self.nodes.first()?;
        if root.kind != Kind::Expanded {
            return None;
        }
        root.children().find(|&child| self.nodes[child].mv == mv)
    }

    /// Makes the child of the root reached by `mv` the new root, keeping its
    /// subtree and dropping everything else. Returns `false` (and empties
    /// the tree) when that child is missing or has never been visited.
    pub(crate) fn advance(&mut self, mv: M) -> bool {
        if self.is_empty() {
            return false;
        }
        match self.root_child(mv) {
            Some(child) if self.nodes[child].visits > 0 => {
                self.keep_subtree(child);
                true
            }
            _ => {
                self.clear();
                false
            }
        }
    }

    /// Copies the subtree of `root` into fresh arrays, breadth first, so
    /// that children blocks stay contiguous and the root is node 0.
    fn keep_subtree(&mut self, root: usize) {
        let amaf = !self.amaf.is_empty();
        let mut nodes = Vec::with_capacity(self.nodes.len());
        let mut stats = Vec::with_capacity(if amaf { self.nodes.len() } else { 0 });
        nodes.push(self.nodes[root]);
        if amaf {
            stats.push(self.amaf[root]);
        }
        let mut next = 0;
        while next < nodes.len() {
            let node: Node<M> = nodes[next];
            if node.kind == Kind::Expanded {
                let range = node.children();
                nodes[next].first_child = nodes.len() as u32;
                nodes.extend_from_slice(&self.nodes[range.clone()]);
                if amaf {
                    stats.extend_from_slice(&self.amaf[range]);
                }
            }
            next += 1;
        }
        self.nodes = nodes;
        self.amaf = stats;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_stay_small() {
        // The documented memory bound: at most 64 bytes per node for moves
        // of up to 16 bytes, plus 12 bytes of AMAF statistics with RAVE.
        assert!(size_of::<Node<u8>>() <= 28, "{}", size_of::<Node<u8>>());
        assert!(size_of::<Node<u16>>() <= 32);
        assert!(size_of::<Node<usize>>() <= 40);
        assert!(size_of::<Node<[u64; 2]>>() <= 48);
        assert!(size_of::<Node<[u8; 16]>>() <= 64);
        assert_eq!(size_of::<Amaf>(), 12);
    }

    #[test]
    fn updates_keep_a_running_mean() {
        let mut node = Node::new(0u8, Player::First);
        for value in [1.0, -1.0, 0.0, 1.0] {
            node.update(value);
        }
        assert_eq!(node.visits, 4);
        assert!((node.mean - 0.25).abs() < 1e-7);
        assert!((node.inv_sqrt_visits - 0.5).abs() < 1e-7);
    }

    #[test]
    fn advance_keeps_the_subtree_contiguous() {
        let mut tree = Tree::new(true);
        tree.set_root(0u8, Player::Second, true);
        tree.add_children(0, &[1, 2, 3], Player::First, u32::from, true, usize::MAX);
        tree.nodes[0].update(0.0);
        for child in 1..4 {
            tree.nodes[child].update(0.5);
        }
        tree.add_children(2, &[7, 8], Player::Second, u32::from, true, usize::MAX);
        tree.nodes[5].update(1.0);
        tree.amaf[5].visits = 3;
        assert!(tree.advance(2));
        assert_eq!(tree.len(), 3);
        assert_eq!(tree.nodes[0].mv, 2);
        assert_eq!(tree.nodes[0].children(), 1..3);
        assert_eq!(tree.nodes[2].mv, 8);
        assert_eq!(tree.amaf[2].visits, 3);
        assert_eq!(tree.amaf[2].key, 8);
        // A child never visited is not kept.
        assert!(!tree.advance(7));
        assert!(tree.is_empty());
    }
}
