//! Moves: a cell named like `h8` (columns `a`.., rows `1`.. from the
//! bottom), or a pass.

use std::fmt;
use std::str::FromStr;

use crate::MAX_SIZE;

/// A move: a stone on a cell, or a pass.
///
/// Cells are given by column `x` (0 is column `a`, at the left) and row `y`
/// (0 is row `1`, at the bottom), as Gomoku and renju GUIs write them:
/// `h8` is `x = 7, y = 7`, the centre of a 15x15 board. The Gomocup
/// protocol's `x,y` counts its `y` from the top instead; see
/// [`Move::from_protocol`].
///
/// A pass is only ever legal for Black under renju, when every empty cell
/// is forbidden to Black (the RIF rules let a player pass; see
/// [`Gomoku`](crate::Gomoku)).
///
/// ```
/// use gomoku_renju::Move;
///
/// let centre: Move = "h8".parse()?;
/// assert_eq!((centre.x(), centre.y()), (7, 7));
/// assert_eq!(centre.to_string(), "h8");
/// // Protocol coordinates count rows from the top.
/// assert_eq!(Move::from_protocol(7, 0, 15), Some(Move::new(7, 14)));
/// assert_eq!(Move::new(7, 14).to_protocol(15), Some((7, 0)));
/// # Ok::<(), gomoku_renju::ParseMoveError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "String")
)]
pub struct Move {
    x: u8,
    y: u8,
}

const PASS_COORDINATE: u8 = u8::MAX;

impl Move {
    /// The pass.
    pub const PASS: Move = Move {
        x: PASS_COORDINATE,
        y: PASS_COORDINATE,
    };

    /// The cell in column `x` and row `y` (both from 0, `y` from the
    /// bottom).
    ///
    /// # Panics
    ///
    /// If `x` or `y` is not below [`MAX_SIZE`] (22); use
    /// [`Move::try_new`] for coordinates that come from outside.
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Move {
        assert!(
            (x as usize) < MAX_SIZE && (y as usize) < MAX_SIZE,
            "cell coordinates must be below 22"
        );
        Move { x, y }
    }

    /// The cell in column `x` and row `y`, if both are below
    /// [`MAX_SIZE`].
    #[must_use]
    pub const fn try_new(x: u8, y: u8) -> Option<Move> {
        if (x as usize) < MAX_SIZE && (y as usize) < MAX_SIZE {
            Some(Move { x, y })
        } else {
            None
        }
    }

    /// Whether this is the pass.
    #[inline]
    #[must_use]
    pub const fn is_pass(self) -> bool {
        self.x == PASS_COORDINATE
    }

    /// The column, from 0 (`a`); 255 for the pass.
    #[inline]
    #[must_use]
    pub const fn x(self) -> u8 {
        self.x
    }

    /// The row, from 0 (row `1`, the bottom); 255 for the pass.
    #[inline]
    #[must_use]
    pub const fn y(self) -> u8 {
        self.y
    }

    /// Whether this is a cell of a `size` x `size` board.
    #[inline]
    #[must_use]
    pub const fn is_on_board(self, size: usize) -> bool {
        (self.x as usize) < size && (self.y as usize) < size
    }

    /// The move for the Gomocup protocol's `x,y` on a `size` x `size`
    /// board: `x` is the column, `y` the row counted from the top (row 0
    /// is the top row in Piskvork's window). `None` if off the board.
    #[must_use]
    pub fn from_protocol(x: u32, y: u32, size: usize) -> Option<Move> {
        let (x, y) = (x as usize, y as usize);
        (x < size && y < size && size <= MAX_SIZE).then(|| Move {
            x: x as u8,
            y: (size - 1 - y) as u8,
        })
    }

    /// The protocol's `(x, y)` of this cell on a `size` x `size` board
    /// (`y` from the top); `None` for the pass or a cell off the board.
    #[must_use]
    pub fn to_protocol(self, size: usize) -> Option<(u32, u32)> {
        (!self.is_pass() && self.is_on_board(size))
            .then(|| (u32::from(self.x), (size - 1 - self.y as usize) as u32))
    }

    /// The cell's dense index `y * size + x` on a `size` x `size` board.
    #[inline]
    pub(crate) const fn index(self, size: usize) -> usize {
        self.y as usize * size + self.x as usize
    }

    /// The cell with dense index `index` on a `size` x `size` board.
    #[inline]
    pub(crate) const fn from_index(index: usize, size: usize) -> Move {
        Move {
            x: (index % size) as u8,
            y: (index / size) as u8,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            f.write_str("pass")
        } else {
            write!(f, "{}{}", char::from(b'a' + self.x), u32::from(self.y) + 1)
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// A column letter `a`..`v` and a row number `1`..`22` (`h8`, in any
    /// case), or `pass`.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let trimmed = text.trim();
        if trimmed.eq_ignore_ascii_case("pass") {
            return Ok(Move::PASS);
        }
        let mut chars = trimmed.chars();
        let Some(column) = chars.next() else {
            return Err(ParseMoveError::Empty);
        };
        let column = column.to_ascii_lowercase();
        if !column.is_ascii_lowercase() {
            return Err(ParseMoveError::Column {
                text: text.to_string(),
                found: column,
            });
        }
        let x = column as u32 - 'a' as u32;
        if x as usize >= MAX_SIZE {
            return Err(ParseMoveError::Column {
                text: text.to_string(),
                found: column,
            });
        }
        let row = chars.as_str();
        let y = match row.parse::<u32>() {
            Ok(y) if (1..=MAX_SIZE as u32).contains(&y) && !row.starts_with(['+', '0']) => y - 1,
            _ => {
                return Err(ParseMoveError::Row {
                    text: text.to_string(),
                    found: row.to_string(),
                });
            }
        };
        Ok(Move {
            x: x as u8,
            y: y as u8,
        })
    }
}

impl From<Move> for String {
    fn from(mv: Move) -> String {
        mv.to_string()
    }
}

impl TryFrom<String> for Move {
    type Error = ParseMoveError;
    fn try_from(text: String) -> Result<Move, ParseMoveError> {
        text.parse()
    }
}

/// A move that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Nothing was given.
    #[error("empty move: expected a cell like h8 or pass")]
    Empty,
    /// The column letter is not `a`..`v`.
    #[error("move {text:?}: column {found:?} is not a letter a to v")]
    Column {
        /// The whole input.
        text: String,
        /// The column character.
        found: char,
    },
    /// The row is not a number from 1 to 22.
    #[error("move {text:?}: row {found:?} is not a number from 1 to 22")]
    Row {
        /// The whole input.
        text: String,
        /// The row part.
        found: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for x in 0..22 {
            for y in 0..22 {
                let mv = Move::new(x, y);
                assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
                assert_eq!(mv.to_string().to_uppercase().parse::<Move>(), Ok(mv));
            }
        }
        assert_eq!("pass".parse::<Move>(), Ok(Move::PASS));
        assert_eq!("a1".parse::<Move>(), Ok(Move::new(0, 0)));
        assert_eq!("v22".parse::<Move>(), Ok(Move::new(21, 21)));
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        for (text, expected) in [
            ("", "empty"),
            ("w1", "column 'w'"),
            ("81", "column '8'"),
            ("a0", "row \"0\""),
            ("a23", "row \"23\""),
            ("a", "row \"\""),
            ("a+1", "row \"+1\""),
            ("a01", "row \"01\""),
            ("h8x", "row \"8x\""),
        ] {
            let error = text.parse::<Move>().unwrap_err().to_string();
            assert!(error.contains(expected), "{text:?}: {error}");
        }
    }

    #[test]
    fn protocol_coordinates_count_rows_from_the_top() {
        assert_eq!(Move::from_protocol(0, 0, 15), Some(Move::new(0, 14)));
        assert_eq!(Move::from_protocol(14, 14, 15), Some(Move::new(14, 0)));
        assert_eq!(Move::from_protocol(15, 0, 15), None);
        assert_eq!(Move::from_protocol(0, 20, 20), None);
        for size in [5, 15, 20, 22] {
            for x in 0..size as u32 {
                for y in 0..size as u32 {
                    let mv = Move::from_protocol(x, y, size).unwrap();
                    assert_eq!(mv.to_protocol(size), Some((x, y)));
                }
            }
        }
        assert_eq!(Move::PASS.to_protocol(15), None);
        assert_eq!(Move::try_new(22, 0), None);
    }
}
