//! Refused settings of the evaluator and the playout policy.

/// A setting of [`JungleEvaluator`](crate::JungleEvaluator) or
/// [`JunglePlayout`](crate::JunglePlayout) outside its range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A numeric setting outside its range.
    #[error(transparent)]
    Range(#[from] game_traits::RangeError),
}
