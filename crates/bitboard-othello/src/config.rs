//! Refused settings of evaluators and playout policies.

/// A setting of an evaluator or a playout policy outside its range.
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
    match settings.iter().find(|(_, value)| !value.is_finite()) {
        Some(&(name, value)) => Err(ConfigError::OutOfRange {
            name,
            value: f64::from(value),
            expected: "a finite number",
        }),
        None => Ok(()),
    }
}
