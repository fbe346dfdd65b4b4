//! Errors: refused configurations and refused root noise.

/// A configuration parameter outside its allowed range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A numeric parameter is not finite or outside its range.
    #[error("{name} = {value} is invalid: expected {expected}")]
    OutOfRange {
        /// The parameter, as named in the configuration struct.
        name: &'static str,
        /// The value given.
        value: f64,
        /// What the parameter accepts.
        expected: &'static str,
    },
    /// `max_considered_actions` is zero: the root must consider at least one
    /// action.
    #[error("max_considered_actions must be at least 1")]
    NoConsideredActions,
}

impl ConfigError {
    /// Checks that `value` is finite and at least `min` (or greater than
    /// `min` when `strict`).
    pub(crate) fn check(
        name: &'static str,
        value: f64,
        min: f64,
        strict: bool,
        expected: &'static str,
    ) -> Result<(), ConfigError> {
        let fine = value.is_finite() && if strict { value > min } else { value >= min };
        if fine {
            Ok(())
        } else {
            Err(ConfigError::OutOfRange {
                name,
                value,
                expected,
            })
        }
    }
}

impl ConfigError {
    /// Checks a default simulation budget: at least 1, at most
    /// [`MAX_DEFAULT_SIMULATIONS`](crate::MAX_DEFAULT_SIMULATIONS), so that
    /// a search without limits always ends soon.
    pub(crate) fn check_simulations(value: u64) -> Result<(), ConfigError> {
        if (1..=crate::MAX_DEFAULT_SIMULATIONS).contains(&value) {
            Ok(())
        } else {
            Err(ConfigError::OutOfRange {
                name: "default_simulations",
                value: value as f64,
                expected: "1 to 16,777,216",
            })
        }
    }

    /// Checks a tree memory cap: at least
    /// [`MIN_TREE_BYTES`](crate::MIN_TREE_BYTES).
    pub(crate) fn check_tree_bytes(value: usize) -> Result<(), ConfigError> {
        if value >= crate::MIN_TREE_BYTES {
            Ok(())
        } else {
            Err(ConfigError::OutOfRange {
                name: "max_tree_bytes",
                value: value as f64,
                expected: "at least 65,536 bytes",
            })
        }
    }
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
