//! The board: squares, water, traps, dens, steps and river jumps, as
//! bitboards over the 63 squares (bit `row * 7 + col` of a `u64`).

use std::fmt;
use std::str::FromStr;

use game_traits::Player;

/// Number of files (columns `a`..`g`).
pub const FILES: u8 = 7;
/// Number of ranks (rows `1`..`9`).
pub const RANKS: u8 = 9;
/// Number of squares.
pub const SQUARES: usize = 63;

/// A set of squares: bit `i` is square `i`. Bit 63 is never set.
pub(crate) type Bitboard = u64;

/// Every square of the board.
pub(crate) const BOARD: Bitboard = (1 << SQUARES) - 1;

const fn bits(squares: &[u8]) -> Bitboard {
    let mut mask = 0;
    let mut i = 0;
    while i < squares.len() {
        mask |= 1 << squares[i];
        i += 1;
    }
    mask
}

/// The two lakes: b4 c4 b5 c5 b6 c6 and e4 f4 e5 f5 e6 f6.
pub(crate) const WATER: Bitboard = bits(&[22, 23, 29, 30, 36, 37, 25, 26, 32, 33, 39, 40]);

/// Each side's den: d1 for the first player, d9 for the second.
pub(crate) const DEN: [u8; 2] = [3, 59];

/// Each side's traps, around its own den: c1 e1 d2 and c9 e9 d8.
pub(crate) const TRAPS: [Bitboard; 2] = [bits(&[2, 4, 10]), bits(&[52, 58, 60])];

/// All six traps.
pub(crate) const ALL_TRAPS: Bitboard = TRAPS[0] | TRAPS[1];

/// A square of the 7x9 board, `a1` = 0 up to `g9` = 62 (`row * 7 + col`).
///
/// ```
/// use dou_shou_qi::Square;
///
/// let square: Square = "d9".parse()?;
/// assert_eq!(square.index(), 59);
/// assert_eq!(square.to_string(), "d9");
/// assert_eq!(square.rotated().to_string(), "d1");
/// # Ok::<(), dou_shou_qi::ParseSquareError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "String")
)]
pub struct Square(u8);

impl Square {
    /// The square with the given index (`0..63`), if there is one.
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square on column `col` (`0..7`, file `a`..`g`) and row `row`
    /// (`0..9`, rank `1`..`9`), if both are on the board.
    #[must_use]
    pub const fn from_coords(col: u8, row: u8) -> Option<Square> {
        if col < FILES && row < RANKS {
            Some(Square(row * FILES + col))
        } else {
            None
        }
    }

    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < SQUARES);
        Square(index)
    }

    /// The index `row * 7 + col`, in `0..63`.
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The column, `0` (file `a`) to `6` (file `g`).
    #[must_use]
    pub const fn col(self) -> u8 {
        self.0 % FILES
    }

    /// The row, `0` (rank `1`) to `8` (rank `9`).
    #[must_use]
    pub const fn row(self) -> u8 {
        self.0 / FILES
    }

    /// The square after rotating the board by 180 degrees.
    #[must_use]
    pub const fn rotated(self) -> Square {
        Square(SQUARES as u8 - 1 - self.0)
    }

    /// Whether the square is water.
    #[must_use]
    pub const fn is_water(self) -> bool {
        WATER & (1 << self.0) != 0
    }

    /// Whether the square is one of `owner`'s traps (around `owner`'s den).
    #[must_use]
    pub const fn is_trap_of(self, owner: Player) -> bool {
        TRAPS[owner.index()] & (1 << self.0) != 0
    }

    /// Whether the square is `owner`'s den.
    #[must_use]
    pub const fn is_den_of(self, owner: Player) -> bool {
        DEN[owner.index()] == self.0
    }

    /// The den of `owner` (d1 for the first player, d9 for the second).
    #[must_use]
    pub const fn den(owner: Player) -> Square {
        Square(DEN[owner.index()])
    }

    pub(crate) const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// Every square, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col()), self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A square name that is not `a1`..`g9`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseSquareError {
    /// The text is not a file letter followed by one rank digit.
    #[error("square {text:?} is not a file a-g followed by a rank 1-9")]
    Malformed {
        /// The text given.
        text: String,
    },
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        let malformed = || ParseSquareError::Malformed {
            text: text.to_string(),
        };
        match text.as_bytes() {
            &[file @ b'a'..=b'g', rank @ b'1'..=b'9'] => {
                Square::from_coords(file - b'a', rank - b'1').ok_or_else(malformed)
            }
            _ => Err(malformed()),
        }
    }
}

impl TryFrom<String> for Square {
    type Error = ParseSquareError;

    fn try_from(text: String) -> Result<Square, ParseSquareError> {
        text.parse()
    }
}

impl From<Square> for String {
    fn from(square: Square) -> String {
        square.to_string()
    }
}

/// The four directions of a step: north (towards rank 9), east, south, west.
pub(crate) const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

const fn offset(square: u8, direction: usize) -> Option<u8> {
    let col = (square % FILES) as i8 + DIRECTIONS[direction].0;
    let row = (square / FILES) as i8 + DIRECTIONS[direction].1;
    if col < 0 || col >= FILES as i8 || row < 0 || row >= RANKS as i8 {
        None
    } else {
        Some(row as u8 * FILES + col as u8)
    }
}

/// The square one step from `square` in `direction` (index into
/// [`DIRECTIONS`]), if on the board.
pub(crate) const fn step(square: u8, direction: usize) -> Option<u8> {
    offset(square, direction)
}

const fn build_steps() -> [Bitboard; 64] {
    let mut table = [0; 64];
    let mut square = 0;
    while square < SQUARES as u8 {
        let mut direction = 0;
        while direction < 4 {
            if let Some(next) = offset(square, direction) {
                table[square as usize] |= 1 << next;
            }
            direction += 1;
        }
        square += 1;
    }
    table
}

/// The orthogonal neighbours of each square (entry 63 is empty, so a
/// missing piece parked there has no moves).
pub(crate) const STEPS: [Bitboard; 64] = build_steps();

/// A river jump: the water squares crossed and the landing square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Jump {
    pub(crate) path: Bitboard,
    pub(crate) to: u8,
}

/// The jump from `square` in `direction`, if `square` is land and the next
/// square that way is water: it crosses every consecutive water square and
/// lands on the first square after them.
pub(crate) const fn jump(square: u8, direction: usize) -> Option<Jump> {
    if WATER & (1 << square) != 0 {
        return None;
    }
    let mut path = 0;
    let mut current = square;
    loop {
        match offset(current, direction) {
            Some(next) if WATER & (1 << next) != 0 => {
                path |= 1 << next;
                current = next;
            }
            Some(next) if path != 0 => return Some(Jump { path, to: next }),
            _ => return None,
        }
    }
}

const fn build_jumps() -> [[Jump; 2]; 64] {
    let none = Jump {
        path: BOARD,
        to: 63,
    };
    let mut table = [[none; 2]; 64];
    let mut square = 0;
    while square < SQUARES as u8 {
        let mut found = 0;
        let mut direction = 0;
        while direction < 4 {
            if let Some(found_jump) = jump(square, direction) {
                table[square as usize][found] = found_jump;
                found += 1;
            }
            direction += 1;
        }
        square += 1;
    }
    table
}

/// Up to two jumps from each square. An absent jump has a path covering the
/// whole board, so it is always blocked (some piece is always on the board
/// while moves are generated), and lands on the unused square 63.
pub(crate) const JUMPS: [[Jump; 2]; 64] = build_jumps();

/// Squares from which some jump starts.
pub(crate) const JUMP_SOURCES: Bitboard = {
    let mut mask = 0;
    let mut square = 0;
    while square < SQUARES {
        if JUMPS[square][0].to != 63 {
            mask |= 1 << square;
        }
        square += 1;
    }
    mask
};

/// Rotates a set of squares by 180 degrees.
pub(crate) const fn rotate_bits(mask: Bitboard) -> Bitboard {
    // Reversing 64 bits maps bit i to 63 - i; one more shift maps it to 62 - i.
    mask.reverse_bits() >> 1
}

/// Iterates over the squares of a bitboard, lowest first.
pub(crate) fn squares_of(mut mask: Bitboard) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let square = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(square)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_the_spec() {
        assert_eq!(WATER.count_ones(), 12);
        for name in ["a4", "d4", "d5", "d6", "g6"] {
            assert!(!name.parse::<Square>().unwrap().is_water(), "{name}");
        }
        for name in ["b4", "c6", "e4", "f6"] {
            assert!(name.parse::<Square>().unwrap().is_water(), "{name}");
        }
        assert_eq!(Square::den(Player::First).to_string(), "d1");
        assert_eq!(Square::den(Player::Second).to_string(), "d9");
        assert_eq!(rotate_bits(WATER), WATER);
        assert_eq!(rotate_bits(TRAPS[0]), TRAPS[1]);
        assert_eq!(rotate_bits(1 << DEN[0]), 1 << DEN[1]);
    }

    #[test]
    fn there_are_twenty_jumps() {
        let mut pairs = Vec::new();
        for square in 0..SQUARES as u8 {
            for direction in 0..4 {
                if let Some(found) = jump(square, direction) {
                    assert_eq!(WATER & (1 << found.to), 0);
                    let crossed = found.path.count_ones();
                    assert!(crossed == 2 || crossed == 3);
                    pairs.push(format!("{}{}", Square(square), Square(found.to)));
                }
            }
        }
        pairs.sort();
        assert_eq!(pairs.len(), 20);
        for expected in [
            "b3b7", "b7b3", "d4a4", "d4g4", "a5d5", "g6d6", "f3f7", "e7e3",
        ] {
            assert!(pairs.contains(&expected.to_string()), "{expected}");
        }
    }

    #[test]
    fn squares_parse_and_print() {
        for square in Square::all() {
            assert_eq!(square.to_string().parse::<Square>(), Ok(square));
        }
        for bad in ["", "a", "h1", "a0", "a10", "A1", "1a"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
