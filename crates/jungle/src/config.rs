//! Refused settings of the evaluator and the playout policy.

/// A setting of [`JungleEvaluator`](crate::JungleEvaluator) or
/// [`JunglePlayout`](crate::JunglePlayout) outside its range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A numeric setting that is not finite or outside its range.
    #[error("{name} = {value} is invalid: expected {expected}")]
    OutOfRange {
        /// The setting, as named in its struct.
        name: &'static str,
        /// The value given.
        value: f64,
        /// What the setting accepts.
        expected: &'static str,
    },
}
