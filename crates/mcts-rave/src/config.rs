//! Search settings and their validation.

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
    /// Search threads (root parallelism: one tree per thread, root
    /// statistics summed). Default 1.
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

    /// Checks every setting.
    ///
    /// # Errors
    ///
    /// Returns [`ConfigError`] naming the first setting out of range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if !(self.exploration.is_finite() && self.exploration >= 0.0) {
            return Err(ConfigError::Parameter {
                name: "exploration",
                value: f64::from(self.exploration),
                expected: "a finite number >= 0",
            });
        }
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(ConfigError::Parameter {
                name: "threads",
                value: self.threads as f64,
                expected: "1 to 256",
            });
        }
        let nodes_per_thread = self.max_nodes / self.threads as u64;
        if nodes_per_thread < 2 || self.max_nodes > u64::from(u32::MAX) {
            return Err(ConfigError::Parameter {
                name: "max_nodes",
                value: self.max_nodes as f64,
                expected: "at least 2 per thread and below 2^32",
            });
        }
        if self.default_iterations == 0 {
            return Err(ConfigError::Parameter {
                name: "default_iterations",
                value: 0.0,
                expected: "at least 1",
            });
        }
        if self.max_playout_plies == 0 {
            return Err(ConfigError::Parameter {
                name: "max_playout_plies",
                value: 0.0,
                expected: "at least 1",
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
        };
        config.validate()?;
        Ok(config)
    }
}

/// The most search threads a configuration may ask for.
pub const MAX_THREADS: usize = 256;

/// A search setting out of range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A numeric setting outside its range.
    #[error("setting {name} = {value} is out of range: expected {expected}")]
    Parameter {
        /// The setting.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The accepted range.
        expected: &'static str,
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
    }
}
