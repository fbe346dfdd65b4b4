//! Moves, their `a1a2` notation, and the dense action numbering.

use std::fmt;
use std::str::FromStr;

use crate::board::{SQUARES, Square, jump, step};

/// A move: a piece goes from one square to another, by a step to an
/// orthogonal neighbour or by a river jump. Written `<from><to>`, e.g.
/// `a1a2` or `b3b7`; there is no capture mark.
///
/// Only geometrically possible moves (a step or one of the 20 jumps) can be
/// built, so every move has an action index.
///
/// ```
/// use dou_shou_qi::Move;
///
/// let jump: Move = "d4g4".parse()?;
/// assert!(jump.is_jump());
/// assert_eq!(jump.to_string(), "d4g4");
/// assert!("a1a3".parse::<Move>().is_err()); // neither a step nor a jump
/// # Ok::<(), dou_shou_qi::ParseMoveError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "String")
)]
pub struct Move {
    from: Square,
    to: Square,
}

const _: () = assert!(std::mem::size_of::<Move>() == 2);

impl Move {
    /// The move from `from` to `to`, if it is a step or a river jump.
    #[must_use]
    pub fn new(from: Square, to: Square) -> Option<Move> {
        (ACTION_INDEX[from.index() as usize][to.index() as usize] != NO_ACTION)
            .then_some(Move { from, to })
    }

    /// A move known to be a step or a jump.
    #[inline]
    pub(crate) const fn from_indices(from: u8, to: u8) -> Move {
        Move {
            from: Square::from_index_unchecked(from),
            to: Square::from_index_unchecked(to),
        }
    }

    /// The square the piece leaves.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        self.from
    }

    /// The square the piece goes to.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        self.to
    }

    /// Whether this is a river jump (not a step).
    #[must_use]
    pub const fn is_jump(self) -> bool {
        let distance = self.from.index().abs_diff(self.to.index());
        distance != 1 && distance != 7
    }

    /// The same move on the board rotated by 180 degrees.
    #[must_use]
    pub const fn rotated(self) -> Move {
        Move {
            from: self.from.rotated(),
            to: self.to.rotated(),
        }
    }

    /// Its dense index in `0..Move::COUNT`.
    #[inline]
    #[must_use]
    pub fn index(self) -> usize {
        ACTION_INDEX[self.from.index() as usize][self.to.index() as usize] as usize
    }

    /// The move with dense index `index`, if `index < Move::COUNT`.
    #[must_use]
    pub fn from_index(index: usize) -> Option<Move> {
        ACTIONS
            .get(index)
            .map(|&(from, to)| Move::from_indices(from, to))
    }

    /// The number of geometrically possible moves: 220 steps and 20 jumps.
    pub const COUNT: usize = ACTION_COUNT;
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Text that is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Not four characters of the form `a1a2`.
    #[error("move {text:?} is not of the form <from><to> such as a1a2")]
    Malformed {
        /// The text given.
        text: String,
    },
    /// A square name is not `a1`..`g9`.
    #[error(
        "move {text:?}: the {which} square {square:?} is not a file a-g followed by a rank 1-9"
    )]
    BadSquare {
        /// The text given.
        text: String,
        /// `"from"` or `"to"`.
        which: &'static str,
        /// The square text.
        square: String,
    },
    /// The squares are well formed but neither adjacent nor a river jump.
    #[error("move {text:?} is neither a step to a neighbouring square nor a river jump")]
    NotAMove {
        /// The text given.
        text: String,
    },
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        if !text.is_ascii() || text.len() != 4 {
            return Err(ParseMoveError::Malformed {
                text: text.to_string(),
            });
        }
        let square = |part: &str, which| {
            part.parse::<Square>()
                .map_err(|_| ParseMoveError::BadSquare {
                    text: text.to_string(),
                    which,
                    square: part.to_string(),
                })
        };
        let from = square(&text[..2], "from")?;
        let to = square(&text[2..], "to")?;
        Move::new(from, to).ok_or_else(|| ParseMoveError::NotAMove {
            text: text.to_string(),
        })
    }
}

impl TryFrom<String> for Move {
    type Error = ParseMoveError;

    fn try_from(text: String) -> Result<Move, ParseMoveError> {
        text.parse()
    }
}

impl From<Move> for String {
    fn from(mv: Move) -> String {
        mv.to_string()
    }
}

const NO_ACTION: u8 = u8::MAX;
const ACTION_COUNT: usize = 240;

/// Every move in index order: by source square, then north, east, south,
/// west, a step before a jump in the same direction.
const ACTIONS: [(u8, u8); ACTION_COUNT] = {
    let mut table = [(0, 0); ACTION_COUNT];
    let mut count = 0;
    let mut from = 0;
    while from < SQUARES as u8 {
        let mut direction = 0;
        while direction < 4 {
            if let Some(to) = step(from, direction) {
                table[count] = (from, to);
                count += 1;
            }
            if let Some(found) = jump(from, direction) {
                table[count] = (from, found.to);
                count += 1;
            }
            direction += 1;
        }
        from += 1;
    }
    assert!(count == ACTION_COUNT);
    table
};

const ACTION_INDEX: [[u8; 64]; 64] = {
    let mut table = [[NO_ACTION; 64]; 64];
    let mut index = 0;
    while index < ACTION_COUNT {
        let (from, to) = ACTIONS[index];
        table[from as usize][to as usize] = index as u8;
        index += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_numbering_is_dense_and_inverts() {
        for index in 0..Move::COUNT {
            let mv = Move::from_index(index).unwrap();
            assert_eq!(mv.index(), index);
            assert_eq!(mv.to_string().parse::<Move>().unwrap(), mv);
            assert_eq!(mv.rotated().rotated(), mv);
            assert!(Move::new(mv.rotated().from(), mv.rotated().to()).is_some());
        }
        assert_eq!(Move::from_index(Move::COUNT), None);
        let jumps = (0..Move::COUNT)
            .filter(|&i| Move::from_index(i).unwrap().is_jump())
            .count();
        assert_eq!(jumps, 20);
    }

    #[test]
    fn bad_moves_name_the_problem() {
        assert!(matches!(
            "a1".parse::<Move>(),
            Err(ParseMoveError::Malformed { .. })
        ));
        assert!(matches!(
            "a1é2".parse::<Move>(),
            Err(ParseMoveError::Malformed { .. })
        ));
        assert!(matches!(
            "a1h2".parse::<Move>(),
            Err(ParseMoveError::BadSquare { which: "to", .. })
        ));
        assert!(matches!(
            "z1a2".parse::<Move>(),
            Err(ParseMoveError::BadSquare { which: "from", .. })
        ));
        assert!(matches!(
            "a1a1".parse::<Move>(),
            Err(ParseMoveError::NotAMove { .. })
        ));
        assert!(matches!(
            "a1b2".parse::<Move>(),
            Err(ParseMoveError::NotAMove { .. })
        ));
    }
}
