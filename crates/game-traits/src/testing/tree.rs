//! Explicit game trees given as data, with per-node priors and values, for
//! exact tests of searchers.

use std::fmt;
use std::sync::Arc;

use rand::{Rng, RngExt};

use crate::{ActionSpace, Evaluator, Game, Outcome, Player, PolicyEvaluator};

/// One node of an [`ExplicitTree`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TreeNode {
    /// The player to move here (at a terminal node: who would move next).
    pub player: Player,
    /// At a terminal node, the outcome for `player`: `-1.0`, `0.0` or
    /// `1.0`. `None` at inner nodes.
    pub outcome: Option<f32>,
    /// The evaluator's value of this node for `player`, in `[-1, 1]`
    /// (ignored at terminal nodes, whose value is the outcome).
    pub value: f32,
    /// One entry per action of the tree's action space: the child reached
    /// by that action, or `None` where the action is illegal. Empty at
    /// terminal nodes.
    pub children: Vec<Option<u32>>,
    /// One prior logit per action (same length as `children`); entries of
    /// illegal actions are ignored.
    pub logits: Vec<f32>,
}

impl TreeNode {
    /// A terminal node: `outcome` is the result for `player`, the player who
    /// would move next.
    pub fn terminal(player: Player, outcome: f32) -> Self {
        TreeNode {
            player,
            outcome: Some(outcome),
            value: outcome,
            children: Vec::new(),
            logits: Vec::new(),
        }
    }

    /// An inner node.
    pub fn inner(player: Player, value: f32, children: Vec<Option<u32>>, logits: Vec<f32>) -> Self {
        TreeNode {
            player,
            outcome: None,
            value,
            children,
            logits,
        }
    }
}

/// Why an [`ExplicitTree`] was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TreeError {
    /// The tree has no nodes.
    #[error("the tree has no nodes")]
    Empty,
    /// An inner node's `children` or `logits` do not have one entry per
    /// action.
    #[error("node {node}: expected {expected} children and logits, got {children} and {logits}")]
    ActionCount {
        /// The node.
        node: usize,
        /// The size of the action space.
        expected: usize,
        /// Length of `children`.
        children: usize,
        /// Length of `logits`.
        logits: usize,
    },
    /// An inner node without a legal action.
    #[error("node {0} is not terminal but has no children")]
    NoChildren(usize),
    /// A child index past the end of the node list.
    #[error("node {node}: child {child} does not exist")]
    MissingChild {
        /// The node.
        node: usize,
        /// The bad child index.
        child: u32,
    },
    /// An outcome other than -1, 0 or 1, a value outside [-1, 1], or a
    /// logit of a legal action that is not finite.
    #[error("node {node}: {what} {number} is out of range")]
    OutOfRange {
        /// The node.
        node: usize,
        /// "outcome", "value" or "logit".
        what: &'static str,
        /// The offending number.
        number: f32,
    },
    /// A node that is its own descendant.
    #[error("node {0} is on a cycle")]
    Cycle(usize),
    /// A terminal node that lists children (a finished game has no moves).
    #[error("node {0} is terminal but has children")]
    TerminalWithChildren(usize),
    /// A [`RandomTree`] setting outside its range.
    #[error("random tree shape: {name} = {value} is out of range: expected {expected}")]
    Shape {
        /// The setting, as named in [`RandomTree`].
        name: &'static str,
        /// The value given.
        value: f64,
        /// What the setting accepts.
        expected: &'static str,
    },
}

/// A game tree given as data: node 0 is the root; every leaf is terminal.
///
/// It has a fixed action space of [`num_actions`](ExplicitTree::num_actions)
/// actions; each inner node lists which are legal. Players are stored per
/// node, so turns need not alternate. Play it through [`TreeGame`]; evaluate
/// it with [`TreeEvaluator`], which reads the stored values and logits.
///
/// With the `serde` feature a tree deserializes through
/// [`ExplicitTree::new`], so a tree that `new` refuses is refused.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "ExplicitTreeRaw")
)]
pub struct ExplicitTree {
    num_actions: usize,
    nodes: Vec<TreeNode>,
}

impl ExplicitTree {
    /// Checks and wraps `nodes`.
    ///
    /// # Errors
    ///
    /// Returns [`TreeError`] if a node has the wrong number of actions, an
    /// inner node has no child, a terminal node has children, a child does
    /// not exist, an outcome or value is out of range, a legal action's
    /// logit is not finite, or the nodes form a cycle.
    pub fn new(num_actions: usize, nodes: Vec<TreeNode>) -> Result<Self, TreeError> {
        if nodes.is_empty() {
            return Err(TreeError::Empty);
        }
        for (index, node) in nodes.iter().enumerate() {
            if let Some(outcome) = node.outcome {
                if ![-1.0, 0.0, 1.0].contains(&outcome) {
                    return Err(TreeError::OutOfRange {
                        node: index,
                        what: "outcome",
                        number: outcome,
                    });
                }
                if node.children.iter().any(Option::is_some) {
                    return Err(TreeError::TerminalWithChildren(index));
                }
                continue;
            }
            if !(-1.0..=1.0).contains(&node.value) {
                return Err(TreeError::OutOfRange {
                    node: index,
                    what: "value",
                    number: node.value,
                });
            }
            if node.children.len() != num_actions || node.logits.len() != num_actions {
                return Err(TreeError::ActionCount {
                    node: index,
                    expected: num_actions,
                    children: node.children.len(),
                    logits: node.logits.len(),
                });
            }
            if node.children.iter().all(Option::is_none) {
                return Err(TreeError::NoChildren(index));
            }
            if let Some(&child) = node
                .children
                .iter()
                .flatten()
                .find(|&&c| c as usize >= nodes.len())
            {
                return Err(TreeError::MissingChild { node: index, child });
            }
            if let Some((_, &logit)) = node
                .children
                .iter()
                .zip(&node.logits)
                .find(|(child, logit)| child.is_some() && !logit.is_finite())
            {
                return Err(TreeError::OutOfRange {
                    node: index,
                    what: "logit",
                    number: logit,
                });
            }
        }
        let tree = ExplicitTree { num_actions, nodes };
        tree.check_acyclic()?;
        Ok(tree)
    }

    /// Depth-first search from every node, so that nodes unreachable from
    /// the root are checked too ([`ExplicitTree::minimax_value`] takes any
    /// node).
    fn check_acyclic(&self) -> Result<(), TreeError> {
        // 0 = unseen, 1 = on the current path, 2 = done.
        let mut state = vec![0u8; self.nodes.len()];
        let mut stack = Vec::new();
        for start in 0..self.nodes.len() {
            if state[start] != 0 {
                continue;
            }
            state[start] = 1;
            stack.push((start, 0usize));
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                let children = &self.nodes[node].children;
                if let Some(child) = children[*next..].iter().position(Option::is_some) {
                    let slot = *next + child;
                    *next = slot + 1;
                    let child = children[slot].unwrap_or_default() as usize;
                    match state[child] {
                        0 => {
                            state[child] = 1;
                            stack.push((child, 0));
                        }
                        1 => return Err(TreeError::Cycle(child)),
                        _ => {}
                    }
                } else {
                    state[node] = 2;
                    stack.pop();
                }
            }
        }
        Ok(())
    }

    /// The size of the action space.
    pub fn num_actions(&self) -> usize {
        self.num_actions
    }

    /// The nodes; node 0 is the root.
    pub fn nodes(&self) -> &[TreeNode] {
        &self.nodes
    }

    /// The game at the root.
    pub fn root(self: &Arc<Self>) -> TreeGame {
        TreeGame {
            tree: Arc::clone(self),
            node: 0,
        }
    }

    /// The exact value of node `node` for the player to move there, with
    /// perfect play by both sides (full-depth minimax over the outcomes).
    pub fn minimax_value(&self, node: u32) -> f32 {
        let mut memo = vec![None; self.nodes.len()];
        self.solve(node as usize, &mut memo)
    }

    fn solve(&self, index: usize, memo: &mut [Option<f32>]) -> f32 {
        if let Some(value) = memo[index] {
            return value;
        }
        let node = &self.nodes[index];
        let value = node.outcome.unwrap_or_else(|| {
            node.children
                .iter()
                .flatten()
                .map(|&child| {
                    let value = self.solve(child as usize, memo);
                    if self.nodes[child as usize].player == node.player {
                        value
                    } else {
                        -value
                    }
                })
                .fold(f32::NEG_INFINITY, f32::max)
        });
        memo[index] = Some(value);
        value
    }

    /// A random tree shaped by `shape`; see [`RandomTree`].
    ///
    /// # Panics
    ///
    /// If `shape` is invalid (see [`RandomTree::validate`]);
    /// [`ExplicitTree::try_random`] returns the error instead.
    pub fn random<R: Rng + ?Sized>(shape: &RandomTree, rng: &mut R) -> Self {
        match ExplicitTree::try_random(shape, rng) {
            Ok(tree) => tree,
            Err(error) => panic!("{error}"),
        }
    }

    /// A random tree shaped by `shape`; see [`RandomTree`].
    ///
    /// # Errors
    ///
    /// [`TreeError::Shape`] if `shape` is invalid (see
    /// [`RandomTree::validate`]).
    pub fn try_random<R: Rng + ?Sized>(shape: &RandomTree, rng: &mut R) -> Result<Self, TreeError> {
        shape.validate()?;
        let mut nodes = vec![TreeNode::terminal(Player::First, 0.0)];
        let mut frontier = vec![(0usize, 0u32, Player::First)];
        while let Some((index, depth, player)) = frontier.pop() {
            let leaf = depth >= shape.max_depth
                || (depth > 0 && rng.random_bool(shape.terminal_probability));
            if leaf {
                let outcome = [-1.0, 0.0, 1.0][rng.random_range(0..3)];
                nodes[index] = TreeNode::terminal(player, outcome);
                continue;
            }
            let branching = rng.random_range(shape.min_branching..=shape.max_branching);
            let branching = branching.clamp(1, shape.num_actions);
            let mut actions: Vec<usize> = (0..shape.num_actions).collect();
            for i in 0..branching {
                let j = rng.random_range(i..actions.len());
                actions.swap(i, j);
            }
            let mut children = vec![None; shape.num_actions];
            let mut logits = vec![0.0; shape.num_actions];
            for &action in &actions[..branching] {
                let child = nodes.len();
                let child_player = if rng.random_bool(shape.same_player_probability) {
                    player
                } else {
                    player.opponent()
                };
                nodes.push(TreeNode::terminal(child_player, 0.0));
                children[action] = Some(child as u32);
                logits[action] = rng.random_range(-2.0f32..2.0);
                frontier.push((child, depth + 1, child_player));
            }
            nodes[index] = TreeNode::inner(player, 0.0, children, logits);
        }
        let mut tree = ExplicitTree {
            num_actions: shape.num_actions,
            nodes,
        };
        // Values: the exact value blurred by noise, so evaluators are
        // informative but not perfect.
        let mut memo = vec![None; tree.nodes.len()];
        for index in 0..tree.nodes.len() {
            let exact = tree.solve(index, &mut memo);
            let node = &mut tree.nodes[index];
            if node.outcome.is_none() {
                let noise = rng.random_range(-shape.value_noise..=shape.value_noise);
                node.value = (exact * (1.0 - shape.value_noise) + noise).clamp(-1.0, 1.0);
            }
        }
        Ok(tree)
    }
}

/// What a serialized [`ExplicitTree`] holds, before [`ExplicitTree::new`]
/// checks it.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "ExplicitTree")]
struct ExplicitTreeRaw {
    num_actions: usize,
    nodes: Vec<TreeNode>,
}

#[cfg(feature = "serde")]
impl TryFrom<ExplicitTreeRaw> for ExplicitTree {
    type Error = TreeError;

    fn try_from(raw: ExplicitTreeRaw) -> Result<Self, TreeError> {
        ExplicitTree::new(raw.num_actions, raw.nodes)
    }
}

/// The shape of a random [`ExplicitTree`]. With the `serde` feature it
/// deserializes through [`RandomTree::validate`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "RandomTreeRaw")
)]
pub struct RandomTree {
    /// Size of the action space.
    pub num_actions: usize,
    /// Nodes at this depth are terminal.
    pub max_depth: u32,
    /// Fewest legal actions at an inner node.
    pub min_branching: usize,
    /// Most legal actions at an inner node.
    pub max_branching: usize,
    /// Chance that a non-root node above `max_depth` is terminal.
    pub terminal_probability: f64,
    /// Chance that a child has the same player to move as its parent.
    pub same_player_probability: f64,
    /// Evaluator values are `exact * (1 - noise) + uniform(-noise, noise)`.
    pub value_noise: f32,
}

impl Default for RandomTree {
    /// Up to 5 actions, depth 6, one child in ten keeps the same player.
    fn default() -> Self {
        RandomTree {
            num_actions: 5,
            max_depth: 6,
            min_branching: 1,
            max_branching: 4,
            terminal_probability: 0.15,
            same_player_probability: 0.1,
            value_noise: 0.5,
        }
    }
}

impl RandomTree {
    /// Checks every setting.
    ///
    /// # Errors
    ///
    /// [`TreeError::Shape`] naming the first setting out of range:
    /// `num_actions` must be at least 1, `min_branching` at most
    /// `max_branching`, both probabilities in `[0, 1]` and `value_noise` in
    /// `[0, 1]` (NaN is refused everywhere).
    pub fn validate(&self) -> Result<(), TreeError> {
        let shape = |name, value, expected| {
            Err(TreeError::Shape {
                name,
                value,
                expected,
            })
        };
        if self.num_actions == 0 {
            return shape("num_actions", 0.0, "at least 1");
        }
        if self.min_branching > self.max_branching {
            return shape(
                "min_branching",
                self.min_branching as f64,
                "at most max_branching",
            );
        }
        for (name, value) in [
            ("terminal_probability", self.terminal_probability),
            ("same_player_probability", self.same_player_probability),
            ("value_noise", f64::from(self.value_noise)),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return shape(name, value, "a number in [0, 1]");
            }
        }
        Ok(())
    }
}

/// What a serialized [`RandomTree`] holds, before
/// [`RandomTree::validate`] checks it.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "RandomTree")]
struct RandomTreeRaw {
    num_actions: usize,
    max_depth: u32,
    min_branching: usize,
    max_branching: usize,
    terminal_probability: f64,
    same_player_probability: f64,
    value_noise: f32,
}

#[cfg(feature = "serde")]
impl TryFrom<RandomTreeRaw> for RandomTree {
    type Error = TreeError;

    fn try_from(raw: RandomTreeRaw) -> Result<Self, TreeError> {
        let shape = RandomTree {
            num_actions: raw.num_actions,
            max_depth: raw.max_depth,
            min_branching: raw.min_branching,
            max_branching: raw.max_branching,
            terminal_probability: raw.terminal_probability,
            same_player_probability: raw.same_player_probability,
            value_noise: raw.value_noise,
        };
        shape.validate()?;
        Ok(shape)
    }
}

/// A position of an [`ExplicitTree`]: a node. Moves are action indices.
#[derive(Clone)]
pub struct TreeGame {
    tree: Arc<ExplicitTree>,
    node: u32,
}

impl TreeGame {
    /// The current node's index.
    pub fn node_index(&self) -> u32 {
        self.node
    }

    /// The current node.
    pub fn node(&self) -> &TreeNode {
        &self.tree.nodes[self.node as usize]
    }

    /// The tree.
    pub fn tree(&self) -> &Arc<ExplicitTree> {
        &self.tree
    }

    /// The exact minimax value of the current node for the player to move.
    pub fn minimax_value(&self) -> f32 {
        self.tree.minimax_value(self.node)
    }
}

impl fmt::Debug for TreeGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TreeGame(node {})", self.node)
    }
}

impl Game for TreeGame {
    type Move = usize;

    fn to_move(&self) -> Player {
        self.node().player
    }

    fn legal_moves(&self, out: &mut Vec<usize>) {
        out.clear();
        out.extend(
            self.node()
                .children
                .iter()
                .enumerate()
                .filter_map(|(action, child)| child.map(|_| action)),
        );
    }

    fn play(&mut self, action: usize) {
        debug_assert!(self.is_legal(action), "illegal action {action} at {self:?}");
        self.node = self.node().children[action].unwrap_or(self.node);
    }

    fn outcome(&self) -> Option<Outcome> {
        let node = self.node();
        node.outcome
            .map(|outcome| Outcome::from_reward(node.player, outcome))
    }

    fn is_legal(&self, action: usize) -> bool {
        self.node()
            .children
            .get(action)
            .is_some_and(Option::is_some)
    }
}

impl ActionSpace for TreeGame {
    fn num_actions(&self) -> usize {
        self.tree.num_actions
    }

    fn action_index(&self, action: usize) -> usize {
        action
    }

    fn action(&self, index: usize) -> Option<usize> {
        (index < self.tree.num_actions).then_some(index)
    }
}

/// Reads the values and prior logits stored in an [`ExplicitTree`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeEvaluator;

impl Evaluator<TreeGame> for TreeEvaluator {
    fn value(&self, state: &TreeGame) -> f32 {
        state.node().value
    }
}

impl PolicyEvaluator<TreeGame> for TreeEvaluator {
    fn evaluate(&self, state: &TreeGame, moves: &[usize], logits: &mut [f32]) -> f32 {
        let node = state.node();
        for (logit, &action) in logits.iter_mut().zip(moves) {
            *logit = node.logits.get(action).copied().unwrap_or(0.0);
        }
        node.value
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn small() -> ExplicitTree {
        // Root (First) chooses between a loss and a node where Second must
        // pick between giving First the win and a draw.
        ExplicitTree::new(
            2,
            vec![
                TreeNode::inner(Player::First, 0.0, vec![Some(1), Some(2)], vec![0.0, 0.0]),
                TreeNode::terminal(Player::Second, 1.0),
                TreeNode::inner(Player::Second, 0.0, vec![Some(3), Some(4)], vec![0.0, 0.0]),
                TreeNode::terminal(Player::First, 1.0),
                TreeNode::terminal(Player::First, 0.0),
            ],
        )
        .unwrap()
    }

    #[test]
    fn minimax_respects_perspective() {
        let tree = Arc::new(small());
        // Action 0 hands Second a won terminal: a loss for First.
        assert_eq!(tree.minimax_value(1), 1.0);
        assert_eq!(tree.minimax_value(2), 0.0);
        assert_eq!(tree.minimax_value(0), 0.0);
        let mut game = tree.root();
        game.play(0);
        assert_eq!(game.outcome(), Some(Outcome::Win(Player::Second)));
    }

    #[test]
    fn bad_trees_are_refused() {
        let cycle = ExplicitTree::new(
            1,
            vec![
                TreeNode::inner(Player::First, 0.0, vec![Some(1)], vec![0.0]),
                TreeNode::inner(Player::Second, 0.0, vec![Some(0)], vec![0.0]),
            ],
        );
        assert_eq!(cycle, Err(TreeError::Cycle(0)));
        let missing = ExplicitTree::new(
            1,
            vec![TreeNode::inner(
                Player::First,
                0.0,
                vec![Some(5)],
                vec![0.0],
            )],
        );
        assert_eq!(missing, Err(TreeError::MissingChild { node: 0, child: 5 }));
        let wide = ExplicitTree::new(
            2,
            vec![TreeNode::inner(
                Player::First,
                0.0,
                vec![Some(1)],
                vec![0.0],
            )],
        );
        assert!(matches!(wide, Err(TreeError::ActionCount { node: 0, .. })));
        let outcome = ExplicitTree::new(1, vec![TreeNode::terminal(Player::First, 0.5)]);
        assert!(matches!(
            outcome,
            Err(TreeError::OutOfRange {
                what: "outcome",
                ..
            })
        ));
    }

    #[test]
    fn random_trees_are_valid_and_seeded() {
        let shape = RandomTree::default();
        for seed in 0..20 {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            let tree = ExplicitTree::random(&shape, &mut rng);
            let again = ExplicitTree::random(&shape, &mut rand_pcg::Pcg64Mcg::seed_from_u64(seed));
            assert_eq!(tree, again);
            let checked = ExplicitTree::new(tree.num_actions(), tree.nodes().to_vec()).unwrap();
            assert_eq!(checked, tree);
        }
    }
}
