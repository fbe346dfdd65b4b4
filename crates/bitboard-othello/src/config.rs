//! Refused settings of evaluators and playout policies.

use game_traits::{Range, RangeError};

/// A setting of an evaluator, a playout policy or the solver refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A numeric setting outside its range.
    #[error(transparent)]
    Range(#[from] RangeError),
    /// A table could not be allocated.
    #[error("cannot allocate the {what} ({bytes} bytes)")]
    OutOfMemory {
        /// What was being allocated.
        what: &'static str,
        /// Its size.
        bytes: usize,
    },
}

/// Checks that every `(name, value)` is a finite number.
pub(crate) fn check_finite(settings: &[(&'static str, f32)]) -> Result<(), ConfigError> {
    for &(name, value) in settings {
        Range::Finite.check(name, f64::from(value))?;
    }
    Ok(())
}
