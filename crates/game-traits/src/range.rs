//! Settings checked against their ranges: one error type for every crate,
//! whose text is written from the bounds themselves, so a message can never
//! disagree with the constant it checks.

use std::fmt;

/// What a numeric setting accepts. Every variant but [`Range::Any`] also
/// refuses NaN and the infinities.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Range {
    /// Any number, NaN included (for settings whose every value means
    /// something).
    Any,
    /// Any finite number.
    Finite,
    /// A finite number at least this one.
    AtLeast(f64),
    /// A number at least this one, +infinity included (for weights where
    /// infinity means "always").
    AtLeastOrInfinity(f64),
    /// A finite number greater than this one.
    Above(f64),
    /// A finite number from the first to the second, both included.
    Between(f64, f64),
}

impl Range {
    /// A probability: 0 to 1.
    pub const PROBABILITY: Range = Range::Between(0.0, 1.0);

    /// Whether `value` is accepted.
    pub fn contains(self, value: f64) -> bool {
        match self {
            Range::Any => true,
            Range::Finite => value.is_finite(),
            Range::AtLeast(min) => value.is_finite() && value >= min,
            Range::AtLeastOrInfinity(min) => value >= min,
            Range::Above(min) => value.is_finite() && value > min,
            Range::Between(min, max) => value.is_finite() && (min..=max).contains(&value),
        }
    }

    /// `Ok` when `value` is accepted, otherwise the error naming the
    /// setting `name`.
    pub fn check(self, name: &'static str, value: f64) -> Result<(), RangeError> {
        if self.contains(value) {
            Ok(())
        } else {
            Err(RangeError {
                name,
                value,
                range: self,
            })
        }
    }

    /// [`Range::check`] for a count (threads, nodes, bytes, ...), whose
    /// range is `min` to `max` (`max = u64::MAX`: at least `min`).
    pub fn check_count(
        name: &'static str,
        value: u64,
        min: u64,
        max: u64,
    ) -> Result<(), RangeError> {
        if (min..=max).contains(&value) {
            Ok(())
        } else {
            Err(RangeError {
                name,
                value: value as f64,
                range: if max == u64::MAX {
                    Range::AtLeast(min as f64)
                } else {
                    Range::Between(min as f64, max as f64)
                },
            })
        }
    }

    /// Checks every `(name, value)` in turn against this range and
    /// reports the first refused one.
    pub fn check_all(self, settings: &[(&'static str, f64)]) -> Result<(), RangeError> {
        settings
            .iter()
            .try_for_each(|&(name, value)| self.check(name, value))
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Range::Any => f.write_str("any number"),
            Range::Finite => f.write_str("a finite number"),
            Range::AtLeast(min) => write!(f, "at least {}", Number(min)),
            Range::AtLeastOrInfinity(min) => {
                write!(f, "at least {} (infinity allowed)", Number(min))
            }
            Range::Above(min) => write!(f, "more than {}", Number(min)),
            Range::Between(min, max) => write!(f, "{} to {}", Number(min), Number(max)),
        }
    }
}

/// A numeric setting outside its [`Range`]. The message names the
/// setting, the value and the range, such as
/// `threads = 0 is out of range: expected 1 to 256`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{name} = {} is out of range: expected {range}", Number(*.value))]
#[non_exhaustive]
pub struct RangeError {
    /// The setting, as named in its configuration struct.
    pub name: &'static str,
    /// The value given.
    pub value: f64,
    /// What the setting accepts.
    pub range: Range,
}

/// A number as people read it: whole numbers with thousands separators
/// (`16,777,216`), others as Rust prints them.
struct Number(f64);

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.0;
        // Whole numbers below 2^53 print exactly as integers.
        if value.fract() == 0.0 && value.abs() < 9_007_199_254_740_992.0 {
            let digits = (value.abs() as u64).to_string();
            if value < 0.0 {
                f.write_str("-")?;
            }
            for (i, digit) in digits.chars().enumerate() {
                if i > 0 && (digits.len() - i).is_multiple_of(3) {
                    f.write_str(",")?;
                }
                write!(f, "{digit}")?;
            }
            Ok(())
        } else {
            write!(f, "{value}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_accept_their_values_and_refuse_the_rest() {
        assert!(Range::PROBABILITY.contains(0.0) && Range::PROBABILITY.contains(1.0));
        assert!(!Range::PROBABILITY.contains(1.000_001) && !Range::PROBABILITY.contains(f64::NAN));
        assert!(Range::Above(0.0).contains(1e-9) && !Range::Above(0.0).contains(0.0));
        assert!(Range::AtLeast(2.0).contains(2.0) && !Range::AtLeast(2.0).contains(f64::INFINITY));
        assert!(Range::Finite.contains(-1e300) && !Range::Finite.contains(f64::NEG_INFINITY));
        assert!(Range::Any.contains(f64::NAN));
        let unbounded = Range::AtLeastOrInfinity(0.0);
        assert!(unbounded.contains(f64::INFINITY) && unbounded.contains(0.0));
        assert!(!unbounded.contains(f64::NAN) && !unbounded.contains(-1.0));
    }

    #[test]
    fn messages_are_written_from_the_bounds() {
        let error = Range::check_count("threads", 0, 1, 256).unwrap_err();
        assert_eq!(
            error.to_string(),
            "threads = 0 is out of range: expected 1 to 256"
        );
        let error = Range::check_count("default_simulations", 1 << 30, 1, 1 << 24).unwrap_err();
        assert_eq!(
            error.to_string(),
            "default_simulations = 1,073,741,824 is out of range: expected 1 to 16,777,216"
        );
        let error = Range::check_count("worlds", 0, 1, u64::MAX).unwrap_err();
        assert_eq!(
            error.to_string(),
            "worlds = 0 is out of range: expected at least 1"
        );
        let error = Range::PROBABILITY.check("redraw", -0.5).unwrap_err();
        assert_eq!(
            error.to_string(),
            "redraw = -0.5 is out of range: expected 0 to 1"
        );
        let error = Range::Above(0.0).check("c_visit", f64::NAN).unwrap_err();
        assert_eq!(
            error.to_string(),
            "c_visit = NaN is out of range: expected more than 0"
        );
        let error = Range::AtLeast(65_536.0)
            .check("max_tree_bytes", 100.0)
            .unwrap_err();
        assert_eq!(
            error.to_string(),
            "max_tree_bytes = 100 is out of range: expected at least 65,536"
        );
        let error = Range::Finite
            .check_all(&[("a", 1.0), ("b", f64::INFINITY), ("c", f64::NAN)])
            .unwrap_err();
        assert_eq!(error.name, "b");
        assert_eq!(Number(-1234.0).to_string(), "-1,234");
        assert_eq!(Number(999.0).to_string(), "999");
    }
}
