//! Search settings and their validation.

use game_traits::{Range, RangeError};

/// How a new leaf of the tree is valued.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum LeafEvaluation {
    /// Play the game out to the end with the playout policy and back up
    /// the result.
    #[default]
    Playout,
    /// Play out at most `depth` plies, then back up the evaluator's value
    /// of the position reached (the exact result if the game ended first).
    PlayoutCutoff {
        /// Plies played from the leaf before the evaluator is asked.
        depth: u32,
    },
    /// No playout: back up the evaluator's value of the leaf itself (the
    /// exact result at finished positions).
    Evaluator,
}

/// How several threads share the work of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Parallelism {
    /// Root parallelism: each thread grows its own tree from its own seed,
    /// and the root statistics are summed (Chaslot, Winands & van den
    /// Herik, *Parallel Monte-Carlo tree search*, CG 2008). No shared
    /// writes; with an iteration budget, the same seed gives the same
    /// search at any fixed number of threads.
    #[default]
    Root,
    /// Tree parallelism: every thread works on one shared tree, whose
    /// statistics are updated in place (see [`StatsSync`]); a simulation in
    /// flight adds [`MctsConfig::virtual_loss`] lost visits to every node
    /// of its path, so that the other threads look elsewhere. With one
    /// thread and batches of one it is the same search as
    /// [`Parallelism::Root`]; with more threads the interleaving of the
    /// threads makes each search different.
    Tree,
}

/// How the statistics of a shared tree ([`Parallelism::Tree`]) are kept
/// consistent between threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum StatsSync {
    /// Lock-free: a node's visit count and mean are one 64-bit atomic
    /// updated by compare-and-swap, AMAF statistics likewise, simulations
    /// in flight an atomic counter.
    #[default]
    Atomic,
    /// One mutex per node's statistics (and per AMAF entry): fine-grained
    /// locking, kept to be measured against the atomics.
    Mutex,
}

/// Settings of an [`Mcts`](crate::Mcts) search. Build one from
/// [`MctsConfig::default`] with the `with_*` methods.
///
/// ```
/// use mcts_rave::{LeafEvaluation, MctsConfig};
///
/// let config = MctsConfig::default()
///     .with_exploration(0.7)
///     .with_threads(2)
///     .with_seed(42)
///     .with_leaf(LeafEvaluation::PlayoutCutoff { depth: 20 });
/// assert_eq!(config.threads, 2);
/// ```
///
/// With the `serde` feature a configuration deserializes through
/// [`MctsConfig::validate`]: settings out of range are refused with the
/// [`ConfigError`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "MctsConfigRaw")
)]
#[non_exhaustive]
pub struct MctsConfig {
    /// The UCT exploration constant `c` in `q + c * sqrt(ln N / n)`, for
    /// values in `[-1, 1]` (twice the constant one would use for rewards in
    /// `[0, 1]`). Default `1.0`.
    pub exploration: f32,
    /// Search threads, sharing the work as [`parallelism`](MctsConfig::parallelism)
    /// says. Default 1.
    pub threads: usize,
    /// Seed of the random number generators (thread `i` derives its own
    /// from it). Default 0.
    pub seed: u64,
    /// How leaves are valued. Default [`LeafEvaluation::Playout`].
    pub leaf: LeafEvaluation,
    /// The most tree nodes kept, all threads together: the memory bound.
    /// Full trees stop growing; the search goes on without new nodes.
    /// Default 16,000,000.
    pub max_nodes: u64,
    /// Iterations of a search whose [`Limits`](game_traits::Limits) set no
    /// limit (and no stop flag). Default 10,000.
    pub default_iterations: u64,
    /// Keep the subtree of the moves played (through
    /// [`Searcher::advance`](game_traits::Searcher::advance)) for the next
    /// search. Default `true`.
    pub reuse_tree: bool,
    /// A playout that has not ended after this many plies is valued by the
    /// evaluator (games need not end). Default 10,000.
    pub max_playout_plies: u32,
    /// How the threads share the work. Default [`Parallelism::Root`].
    pub parallelism: Parallelism,
    /// Lost visits a simulation in flight adds to each node of its path
    /// in a shared tree (a value of `-1` each for the node's mover), until
    /// it is backed up. 0 turns virtual loss off. Default 1; at most
    /// [`MAX_VIRTUAL_LOSS`].
    pub virtual_loss: u32,
    /// Leaves each thread collects (with virtual loss, in a shared tree)
    /// before it asks the evaluator for their values in one call (a
    /// [`BatchValues`](crate::BatchValues) evaluator, from
    /// [`MctsKnowledge::with_batch_evaluator`](crate::MctsKnowledge::with_batch_evaluator),
    /// gets them as one batch). Above 1 the search uses a shared tree even with one thread, so with
    /// several threads it needs [`Parallelism::Tree`]. Default 1; at most
    /// [`MAX_BATCH_SIZE`].
    pub batch_size: usize,
    /// How a shared tree's statistics are synchronised. Default
    /// [`StatsSync::Atomic`].
    pub stats_sync: StatsSync,
    /// MCTS-Solver (Winands, Björnsson & Saito, CG 2008): finished games
    /// in the tree are proven wins, draws or losses, proofs are backed up
    /// (a node is won if one child wins for its player to move, lost or
    /// drawn once every child is proven), simulations stop at proven
    /// nodes, proven losses are never selected, and the search ends once
    /// the root is proven. Off, finished positions still back up their
    /// exact result, but nothing is proven: every node is valued by its
    /// mean alone. Default `true`. ([`Ismcts`](crate::Ismcts) has no
    /// solver and ignores it.)
    pub solver: bool,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: 1.0,
            threads: 1,
            seed: 0,
            leaf: LeafEvaluation::Playout,
            max_nodes: 16_000_000,
            default_iterations: 10_000,
            reuse_tree: true,
            max_playout_plies: 10_000,
            parallelism: Parallelism::Root,
            virtual_loss: 1,
            batch_size: 1,
            stats_sync: StatsSync::Atomic,
            solver: true,
        }
    }
}

impl MctsConfig {
    /// Sets the exploration constant.
    #[must_use]
    pub fn with_exploration(mut self, exploration: f32) -> Self {
        self.exploration = exploration;
        self
    }

    /// Sets the number of threads.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Sets the seed.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets how leaves are valued.
    #[must_use]
    pub fn with_leaf(mut self, leaf: LeafEvaluation) -> Self {
        self.leaf = leaf;
        self
    }

    /// Sets the node cap.
    #[must_use]
    pub fn with_max_nodes(mut self, max_nodes: u64) -> Self {
        self.max_nodes = max_nodes;
        self
    }

    /// Sets the budget of searches without limits.
    #[must_use]
    pub fn with_default_iterations(mut self, iterations: u64) -> Self {
        self.default_iterations = iterations;
        self
    }

    /// Turns tree reuse on or off.
    #[must_use]
    pub fn with_reuse_tree(mut self, reuse_tree: bool) -> Self {
        self.reuse_tree = reuse_tree;
        self
    }

    /// Sets the playout length limit.
    #[must_use]
    pub fn with_max_playout_plies(mut self, plies: u32) -> Self {
        self.max_playout_plies = plies;
        self
    }

    /// Sets how the threads share the work.
    #[must_use]
    pub fn with_parallelism(mut self, parallelism: Parallelism) -> Self {
        self.parallelism = parallelism;
        self
    }

    /// Sets the virtual loss of a simulation in flight.
    #[must_use]
    pub fn with_virtual_loss(mut self, virtual_loss: u32) -> Self {
        self.virtual_loss = virtual_loss;
        self
    }

    /// Sets the leaves evaluated per evaluator call.
    #[must_use]
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = batch_size;
        self
    }

    /// Turns the MCTS-Solver on or off.
    #[must_use]
    pub fn with_solver(mut self, solver: bool) -> Self {
        self.solver = solver;
        self
    }

    /// Sets how a shared tree's statistics are synchronised.
    #[must_use]
    pub fn with_stats_sync(mut self, stats_sync: StatsSync) -> Self {
        self.stats_sync = stats_sync;
        self
    }

    /// Whether the search grows one tree shared by its threads (tree
    /// parallelism, or batches of leaves).
    pub fn shares_tree(&self) -> bool {
        self.parallelism == Parallelism::Tree || self.batch_size > 1
    }

    /// Checks every setting.
    ///
    /// # Errors
    ///
    /// Returns [`ConfigError`] naming the first setting out of range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        Range::AtLeast(0.0).check("exploration", f64::from(self.exploration))?;
        Range::check_count("threads", self.threads as u64, 1, MAX_THREADS as u64)?;
        // Each thread's tree (or share of the shared one) needs a root and
        // a child; node indices are 32-bit.
        Range::check_count(
            "max_nodes",
            self.max_nodes,
            2 * self.threads as u64,
            u64::from(u32::MAX),
        )?;
        Range::check_count("default_iterations", self.default_iterations, 1, u64::MAX)?;
        Range::check_count(
            "max_playout_plies",
            u64::from(self.max_playout_plies),
            1,
            u64::from(u32::MAX),
        )?;
        Range::check_count(
            "virtual_loss",
            u64::from(self.virtual_loss),
            0,
            u64::from(MAX_VIRTUAL_LOSS),
        )?;
        Range::check_count(
            "batch_size",
            self.batch_size as u64,
            1,
            MAX_BATCH_SIZE as u64,
        )?;
        if self.batch_size > 1 && self.threads > 1 && self.parallelism == Parallelism::Root {
            return Err(ConfigError::Unsupported {
                name: "batch_size",
                value: self.batch_size as f64,
                reason: "batches on several threads need Parallelism::Tree",
            });
        }
        Ok(())
    }
}

/// A serialized [`MctsConfig`] before [`MctsConfig::validate`] checks it.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "MctsConfig")]
struct MctsConfigRaw {
    exploration: f32,
    threads: usize,
    seed: u64,
    leaf: LeafEvaluation,
    max_nodes: u64,
    default_iterations: u64,
    reuse_tree: bool,
    max_playout_plies: u32,
    #[serde(default)]
    parallelism: Parallelism,
    #[serde(default = "one_u32")]
    virtual_loss: u32,
    #[serde(default = "one_usize")]
    batch_size: usize,
    #[serde(default)]
    stats_sync: StatsSync,
    #[serde(default = "yes")]
    solver: bool,
}

#[cfg(feature = "serde")]
fn yes() -> bool {
    true
}

#[cfg(feature = "serde")]
fn one_u32() -> u32 {
    1
}

#[cfg(feature = "serde")]
fn one_usize() -> usize {
    1
}

#[cfg(feature = "serde")]
impl TryFrom<MctsConfigRaw> for MctsConfig {
    type Error = ConfigError;

    fn try_from(raw: MctsConfigRaw) -> Result<Self, ConfigError> {
        let config = MctsConfig {
            exploration: raw.exploration,
            threads: raw.threads,
            seed: raw.seed,
            leaf: raw.leaf,
            max_nodes: raw.max_nodes,
            default_iterations: raw.default_iterations,
            reuse_tree: raw.reuse_tree,
            max_playout_plies: raw.max_playout_plies,
            parallelism: raw.parallelism,
            virtual_loss: raw.virtual_loss,
            batch_size: raw.batch_size,
            stats_sync: raw.stats_sync,
            solver: raw.solver,
        };
        config.validate()?;
        Ok(config)
    }
}

/// The most search threads a configuration may ask for.
pub const MAX_THREADS: usize = 256;

/// The largest [`MctsConfig::virtual_loss`].
pub const MAX_VIRTUAL_LOSS: u32 = 1_000;

/// The largest [`MctsConfig::batch_size`].
pub const MAX_BATCH_SIZE: usize = 4_096;

/// A search setting refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A numeric setting outside its range.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// A setting in range that the other settings, or the searcher, do not
    /// support.
    #[error("{name} = {value} is not supported: {reason}")]
    Unsupported {
        /// The setting.
        name: &'static str,
        /// The value given.
        value: f64,
        /// Why not.
        reason: &'static str,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_valid_and_bad_values_are_named() {
        MctsConfig::default().validate().unwrap();
        let error = MctsConfig::default()
            .with_exploration(f32::NAN)
            .validate()
            .unwrap_err();
        assert!(error.to_string().contains("exploration"), "{error}");
        let error = MctsConfig::default()
            .with_threads(0)
            .validate()
            .unwrap_err();
        assert!(error.to_string().contains("threads"), "{error}");
        assert!(MctsConfig::default().with_max_nodes(1).validate().is_err());
        assert!(
            MctsConfig::default()
                .with_max_nodes(1 << 40)
                .validate()
                .is_err()
        );
        assert!(
            MctsConfig::default()
                .with_default_iterations(0)
                .validate()
                .is_err()
        );
        let batches = MctsConfig::default().with_batch_size(8);
        batches.validate().unwrap();
        let error = batches.clone().with_threads(2).validate().unwrap_err();
        assert!(error.to_string().contains("Parallelism::Tree"), "{error}");
        batches
            .with_threads(2)
            .with_parallelism(Parallelism::Tree)
            .validate()
            .unwrap();
        assert!(MctsConfig::default().with_batch_size(0).validate().is_err());
        assert!(
            MctsConfig::default()
                .with_virtual_loss(1_001)
                .validate()
                .is_err()
        );
    }
}
