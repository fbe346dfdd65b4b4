//! The three rule sets: freestyle, standard (exact five) and renju.

use std::fmt;
use std::str::FromStr;

use game_traits::Player;

use crate::shape::FiveKind;

/// Which rows of stones win, and whether Black has forbidden moves.
///
/// | rule | who wins | forbidden moves | Gomocup `INFO rule` |
/// |---|---|---|---|
/// | [`Freestyle`](Rule::Freestyle) | five or more in a row | none | `0` |
/// | [`Standard`](Rule::Standard) | exactly five in a row (an overline does not win) | none | `1` |
/// | [`Renju`](Rule::Renju) | Black: exactly five; White: five or more | Black's double three, double four and overline | `4` |
///
/// Under renju a move that makes a five is never forbidden (five takes
/// precedence); a three counts only if it can become a straight four by a
/// move that is itself not forbidden. See
/// [`Gomoku::is_forbidden`](crate::Gomoku::is_forbidden).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "String")
)]
pub enum Rule {
    /// Five or more in a row wins, for both players.
    #[default]
    Freestyle,
    /// Exactly five in a row wins, for both players ("exact five").
    Standard,
    /// Renju: Black wins with exactly five and may not make a double
    /// three, a double four or an overline; White wins with five or more.
    Renju,
}

impl Rule {
    /// The three rules.
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

    /// The rule's name in text forms: `freestyle`, `standard`, `renju`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }

    /// The rule for a Gomocup `INFO rule` bitmask: bit 1 exact five, bit 4
    /// renju, bit 2 (continuous game) is the manager's business and
    /// ignored.
    ///
    /// # Errors
    ///
    /// [`RuleError::Unsupported`] for caro (bit 8) and any bit above it.
    pub fn from_protocol(value: u32) -> Result<Rule, RuleError> {
        if value & !0b111 != 0 {
            return Err(RuleError::Unsupported { value });
        }
        Ok(if value & 4 != 0 {
            Rule::Renju
        } else if value & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        })
    }

    /// The Gomocup `INFO rule` value: 0, 1 or 4.
    #[must_use]
    pub const fn protocol_value(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
        }
    }

    /// Whether both players play by the same rules, so that swapping the
    /// colours ([`ColorFlip`](game_traits::ColorFlip)) maps the game onto
    /// itself. False for renju only.
    #[must_use]
    pub const fn is_color_symmetric(self) -> bool {
        !matches!(self, Rule::Renju)
    }

    /// Whether six or more in a row wins for `player`.
    #[must_use]
    pub const fn overline_wins(self, player: Player) -> bool {
        match self {
            Rule::Freestyle => true,
            Rule::Standard => false,
            Rule::Renju => matches!(player, Player::Second),
        }
    }

    /// Whether `player` has forbidden moves (Black under renju).
    #[must_use]
    pub const fn has_forbidden_moves(self, player: Player) -> bool {
        matches!((self, player), (Rule::Renju, Player::First))
    }

    #[inline]
    pub(crate) const fn five_kind(self, player: Player) -> FiveKind {
        if self.overline_wins(player) {
            FiveKind::AtLeast
        } else {
            FiveKind::Exact
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = RuleError;

    /// `freestyle`, `standard` (also `exact` or `exact-five`) or `renju`,
    /// in any case.
    fn from_str(text: &str) -> Result<Rule, RuleError> {
        match text.to_ascii_lowercase().as_str() {
            "freestyle" => Ok(Rule::Freestyle),
            "standard" | "exact" | "exact-five" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            _ => Err(RuleError::UnknownName {
                name: text.to_string(),
            }),
        }
    }
}

impl From<Rule> for String {
    fn from(rule: Rule) -> String {
        rule.name().to_string()
    }
}

impl TryFrom<String> for Rule {
    type Error = RuleError;
    fn try_from(text: String) -> Result<Rule, RuleError> {
        text.parse()
    }
}

/// A rule name or protocol value that names no supported rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RuleError {
    /// Not one of `freestyle`, `standard`, `exact`, `exact-five`, `renju`.
    #[error("unknown rule {name:?}: expected freestyle, standard (exact five) or renju")]
    UnknownName {
        /// The text given.
        name: String,
    },
    /// A Gomocup rule bitmask with a bit this crate does not play (caro is
    /// 8).
    #[error(
        "rule {value} is not supported: only 0 (freestyle), 1 (exact five) and 4 (renju), with 2 (continuous game) ignored"
    )]
    Unsupported {
        /// The bitmask given.
        value: u32,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_protocol_values_round_trip() {
        for rule in Rule::ALL {
            assert_eq!(rule.name().parse::<Rule>(), Ok(rule));
            assert_eq!(Rule::from_protocol(rule.protocol_value()), Ok(rule));
        }
        assert_eq!(Rule::from_protocol(2), Ok(Rule::Freestyle));
        assert_eq!(Rule::from_protocol(3), Ok(Rule::Standard));
        assert_eq!(Rule::from_protocol(5), Ok(Rule::Renju));
        let error = Rule::from_protocol(8).unwrap_err();
        assert!(error.to_string().contains("rule 8"), "{error}");
        let error = "caro".parse::<Rule>().unwrap_err();
        assert!(error.to_string().contains("\"caro\""), "{error}");
        assert_eq!("Exact-Five".parse::<Rule>(), Ok(Rule::Standard));
    }
}
