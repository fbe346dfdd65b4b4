//! Errors: refused configurations and refused root noise.

use game_traits::{Range, RangeError};

/// A configuration parameter outside its allowed range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A numeric parameter outside its range.
    #[error(transparent)]
    Range(#[from] RangeError),
}

/// Checks a default simulation budget: at least 1, at most
/// [`MAX_DEFAULT_SIMULATIONS`](crate::MAX_DEFAULT_SIMULATIONS), so that
/// a search without limits always ends soon.
pub(crate) fn check_simulations(value: u64) -> Result<(), RangeError> {
    Range::check_count(
        "default_simulations",
        value,
        1,
        crate::MAX_DEFAULT_SIMULATIONS,
    )
}

/// Checks a batch size (1 to [`MAX_BATCH_SIZE`](crate::MAX_BATCH_SIZE))
/// and a virtual loss (at most [`MAX_VIRTUAL_LOSS`](crate::MAX_VIRTUAL_LOSS)).
pub(crate) fn check_batch(batch_size: usize, virtual_loss: u32) -> Result<(), RangeError> {
    Range::check_count(
        "batch_size",
        batch_size as u64,
        1,
        crate::MAX_BATCH_SIZE as u64,
    )?;
    Range::check_count(
        "virtual_loss",
        u64::from(virtual_loss),
        0,
        u64::from(crate::MAX_VIRTUAL_LOSS),
    )
}

/// Checks a tree memory cap: at least
/// [`MIN_TREE_BYTES`](crate::MIN_TREE_BYTES).
pub(crate) fn check_tree_bytes(value: usize) -> Result<(), RangeError> {
    Range::AtLeast(crate::MIN_TREE_BYTES as f64).check("max_tree_bytes", value as f64)
}

/// An explicit root noise vector that cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NoiseError {
    /// The vector does not have one entry per action of the action space.
    #[error("root noise has {got} entries, but the action space has {expected} actions")]
    Length {
        /// The size of the game's action space.
        expected: usize,
        /// The length of the vector given.
        got: usize,
    },
    /// The entry of a legal root action is NaN or infinite.
    #[error("root noise for action {action} is {value}, not a finite number")]
    NotFinite {
        /// The action index.
        action: usize,
        /// The offending entry.
        value: f64,
    },
}
