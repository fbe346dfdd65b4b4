//! Squares and moves, with their names (`a1`..`h8`, `pass`).

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares. Index `8 * row + col`: `a1` = 0 (top left),
/// `h1` = 7, `a2` = 8, `h8` = 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "String")
)]
pub struct Square(u8);

macro_rules! square_constants {
    ($($name:ident = $index:expr),* $(,)?) => {
        impl Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                pub const $name: Square = Square($index);
            )*
        }
    };
}

square_constants! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The square with this index, if `index < 64`.
    #[inline]
    #[must_use]
    pub const fn new(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square in column `col` (file `a` = 0) and row `row` (rank `1` =
    /// 0), if both are below 8.
    #[inline]
    #[must_use]
    pub const fn from_coords(col: usize, row: usize) -> Option<Square> {
        if col < 8 && row < 8 {
            Some(Square((row * 8 + col) as u8))
        } else {
            None
        }
    }

    /// The square with index `index % 64`.
    #[inline]
    pub(crate) const fn from_index_masked(index: usize) -> Square {
        Square((index % 64) as u8)
    }

    /// The square of the lowest set bit of `bitboard`, if any.
    #[inline]
    #[must_use]
    pub const fn lowest(bitboard: u64) -> Option<Square> {
        if bitboard == 0 {
            None
        } else {
            Some(Square(bitboard.trailing_zeros() as u8))
        }
    }

    /// The index, `0..64`.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column (file `a` = 0 .. `h` = 7).
    #[inline]
    #[must_use]
    pub const fn col(self) -> usize {
        (self.0 % 8) as usize
    }

    /// The row (rank `1` = 0 .. `8` = 7).
    #[inline]
    #[must_use]
    pub const fn row(self) -> usize {
        (self.0 / 8) as usize
    }

    /// The bitboard with only this square set.
    #[inline]
    #[must_use]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// All 64 squares, `a1` first.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator + Clone {
        (0..64u8).map(Square)
    }

    /// The squares set in `bitboard`, lowest index first.
    pub fn in_bitboard(bitboard: u64) -> impl ExactSizeIterator<Item = Square> + Clone {
        crate::movegen::Bits(bitboard).map(|index| Square(index as u8))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = char::from(b'a' + self.col() as u8);
        let rank = char::from(b'1' + self.row() as u8);
        write!(f, "{file}{rank}")
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl From<Square> for usize {
    fn from(square: Square) -> usize {
        square.index()
    }
}

/// A square or move name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Nothing was given.
    #[error("empty move name (expected a1..h8 or pass)")]
    Empty,
    /// The file letter is not `a`..`h`.
    #[error("bad file {found:?} in move {text:?} (expected a letter a..h, or pass)")]
    File {
        /// The whole input.
        text: String,
        /// The offending character.
        found: char,
    },
    /// The rank digit is missing or not `1`..`8`.
    #[error("bad rank in move {text:?} (expected a digit 1..8 after the file)")]
    Rank {
        /// The whole input.
        text: String,
    },
    /// Extra characters follow a square name.
    #[error("unexpected {extra:?} after the square in move {text:?}")]
    Trailing {
        /// The whole input.
        text: String,
        /// What follows the square.
        extra: String,
    },
    /// A pass was given where only a square is accepted.
    #[error("{text:?} is a pass, not a square")]
    NotASquare {
        /// The whole input.
        text: String,
    },
}

/// Reads a square name at the start of `bytes` (case-insensitive), if
/// there is one.
pub(crate) fn square_prefix(bytes: &[u8]) -> Option<Square> {
    match bytes {
        [file, rank, ..] => {
            let col = file.to_ascii_lowercase().wrapping_sub(b'a');
            let row = rank.wrapping_sub(b'1');
            Square::from_coords(col as usize, row as usize)
        }
        _ => None,
    }
}

impl FromStr for Square {
    type Err = ParseMoveError;

    /// Reads `a1`..`h8`, in either case.
    fn from_str(text: &str) -> Result<Square, ParseMoveError> {
        match text.parse::<Move>()? {
            Move::Place(square) => Ok(square),
            Move::Pass => Err(ParseMoveError::NotASquare {
                text: text.to_string(),
            }),
        }
    }
}

impl TryFrom<String> for Square {
    type Error = ParseMoveError;

    fn try_from(text: String) -> Result<Square, ParseMoveError> {
        text.parse()
    }
}

impl From<Square> for String {
    fn from(square: Square) -> String {
        square.to_string()
    }
}

/// A move: a disc placed on a square, or a pass.
///
/// A pass is a real move, legal exactly when the player to move has no
/// square to play and the opponent has one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "String")
)]
pub enum Move {
    /// Place a disc on the square.
    Place(Square),
    /// Pass the turn.
    Pass,
}

impl Move {
    /// The square, unless this is a pass.
    #[inline]
    #[must_use]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place(square) => Some(square),
            Move::Pass => None,
        }
    }

    /// Whether this is a pass.
    #[inline]
    #[must_use]
    pub const fn is_pass(self) -> bool {
        matches!(self, Move::Pass)
    }

    /// The action index: the square index `0..64`, or 64 for a pass.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Move::Place(square) => square.index(),
            Move::Pass => 64,
        }
    }

    /// The move with action index `index` (see [`Move::index`]).
    #[inline]
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Move> {
        if index == 64 {
            Some(Move::Pass)
        } else {
            match Square::new(index) {
                Some(square) => Some(Move::Place(square)),
                None => None,
            }
        }
    }
}

impl From<Square> for Move {
    fn from(square: Square) -> Move {
        Move::Place(square)
    }
}

impl fmt::Display for Move {
    /// `a1`..`h8` (lower case) or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(square) => fmt::Display::fmt(square, f),
            Move::Pass => f.write_str("pass"),
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

    /// Reads `a1`..`h8` or `pass` (also Edax's `pa`), in any case.
    /// Surrounding whitespace is ignored.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let trimmed = text.trim();
        if trimmed.eq_ignore_ascii_case("pass") || trimmed.eq_ignore_ascii_case("pa") {
            return Ok(Move::Pass);
        }
        let bytes = trimmed.as_bytes();
        let Some(&first) = bytes.first() else {
            return Err(ParseMoveError::Empty);
        };
        if !(b'a'..=b'h').contains(&first.to_ascii_lowercase()) {
            return Err(ParseMoveError::File {
                text: text.to_string(),
                found: trimmed.chars().next().unwrap_or('?'),
            });
        }
        let Some(square) = square_prefix(bytes) else {
            return Err(ParseMoveError::Rank {
                text: text.to_string(),
            });
        };
        if bytes.len() > 2 {
            return Err(ParseMoveError::Trailing {
                text: text.to_string(),
                extra: trimmed[2..].to_string(),
            });
        }
        Ok(Move::Place(square))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_convention() {
        assert_eq!(Square::A1.index(), 0);
        assert_eq!(Square::H1.index(), 7);
        assert_eq!(Square::A2.index(), 8);
        assert_eq!(Square::D4.index(), 27);
        assert_eq!(Square::E5.index(), 36);
        assert_eq!(Square::H8.index(), 63);
        assert_eq!(Square::D3.to_string(), "d3");
        assert_eq!("E6".parse::<Square>(), Ok(Square::E6));
        assert_eq!("PA".parse::<Move>(), Ok(Move::Pass));
        assert_eq!("Pass".parse::<Move>(), Ok(Move::Pass));
        assert_eq!(" h8 ".parse::<Move>(), Ok(Move::Place(Square::H8)));
        for square in Square::all() {
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
            let upper = square.to_string().to_uppercase();
            assert_eq!(upper.parse::<Move>(), Ok(Move::Place(square)));
            assert_eq!(
                Move::from_index(Move::Place(square).index()),
                Some(Move::Place(square))
            );
        }
        assert_eq!(Move::from_index(64), Some(Move::Pass));
        assert_eq!(Move::from_index(65), None);
        assert!(size_of::<Move>() <= 2);
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        assert_eq!("".parse::<Move>(), Err(ParseMoveError::Empty));
        assert!(matches!(
            "i1".parse::<Move>(),
            Err(ParseMoveError::File { found: 'i', .. })
        ));
        assert!(matches!(
            "a9".parse::<Move>(),
            Err(ParseMoveError::Rank { .. })
        ));
        assert!(matches!(
            "a".parse::<Move>(),
            Err(ParseMoveError::Rank { .. })
        ));
        assert!(matches!(
            "a1x".parse::<Move>(),
            Err(ParseMoveError::Trailing { .. })
        ));
        assert!(matches!(
            "pass".parse::<Square>(),
            Err(ParseMoveError::NotASquare { .. })
        ));
        assert!("é1".parse::<Move>().is_err());
    }
}
