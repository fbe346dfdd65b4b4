//! Checks that serde and a type's validating doors agree (feature `serde`
//! with `testing`): deserializing must accept exactly what the parser or
//! constructor accepts, build the same value, and round-trip it.
//!
//! The errors implement [`std::error::Error`], so `?` works in a proptest
//! body.

use std::fmt::Debug;
use std::str::FromStr;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Serde and a validating door disagreed, or a value did not round-trip.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SerdeMismatch(String);

/// `value` serialized to JSON and read back must equal itself.
///
/// # Errors
///
/// [`SerdeMismatch`] if it does not, or does not serialize or read back.
pub fn check_serde_round_trip<T>(value: &T) -> Result<(), SerdeMismatch>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let json = serde_json::to_string(value)
        .map_err(|error| SerdeMismatch(format!("{value:?} does not serialize: {error}")))?;
    let back: T = serde_json::from_str(&json)
        .map_err(|error| SerdeMismatch(format!("{json} does not read back: {error}")))?;
    if back == *value {
        Ok(())
    } else {
        Err(SerdeMismatch(format!(
            "{value:?} reads back from {json} as {back:?}"
        )))
    }
}

/// The verdicts of a validating constructor (`built`) and of serde
/// (`deserialized`) on the same `input` must agree: both refuse, or both
/// accept the same value, which must round-trip.
///
/// # Errors
///
/// [`SerdeMismatch`] naming `input` and both verdicts.
pub fn check_serde_agrees<T, E1: Debug, E2: Debug>(
    input: &str,
    built: Result<T, E1>,
    deserialized: Result<T, E2>,
) -> Result<(), SerdeMismatch>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    match (built, deserialized) {
        (Ok(built), Ok(deserialized)) if built == deserialized => check_serde_round_trip(&built),
        (Err(_), Err(_)) => Ok(()),
        (built, deserialized) => Err(SerdeMismatch(format!(
            "{input}: the validating door gives {built:?}, serde gives {deserialized:?}"
        ))),
    }
}

/// `text` through [`FromStr`] and through serde (as a JSON string) must be
/// accepted or refused together, read the same value and round-trip: for
/// types that serialize as their text form.
///
/// # Errors
///
/// [`SerdeMismatch`] naming `text` and both verdicts.
pub fn check_parser_and_serde_agree<T>(text: &str) -> Result<(), SerdeMismatch>
where
    T: FromStr + Serialize + DeserializeOwned + PartialEq + Debug,
    T::Err: Debug,
{
    let json = serde_json::to_string(text)
        .map_err(|error| SerdeMismatch(format!("{text:?} does not serialize: {error}")))?;
    check_serde_agrees(
        &format!("{text:?}"),
        text.parse::<T>(),
        serde_json::from_str::<T>(&json),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TicTacToe;

    #[test]
    fn agreement_and_its_failures() {
        check_parser_and_serde_agree::<TicTacToe>("xx.oo.... x").unwrap();
        check_parser_and_serde_agree::<TicTacToe>("not a board").unwrap();
        let good: TicTacToe = "xx.oo.... x".parse().unwrap();
        check_serde_round_trip(&good).unwrap();
        // A constructor that accepts what serde refuses is reported.
        let refused = serde_json::from_str::<TicTacToe>("\"nonsense\"");
        let error = check_serde_agrees("nonsense", Ok::<_, ()>(good), refused).unwrap_err();
        assert!(error.to_string().contains("serde gives Err"), "{error}");
    }
}
