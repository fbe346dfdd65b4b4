//! The text form of a position: rows of `.`, `X`, `O`, then the player to
//! move and the rule.

use std::fmt;
use std::str::FromStr;

use game_traits::Player;

use crate::{Gomoku, MAX_SIZE, MIN_SIZE, Move, PositionError, Rule, RuleError};

impl Gomoku {
    /// Appends row `y`: `.` empty, `X` Black, `O` White.
    fn push_row(&self, y: usize, out: &mut String) {
        let size = self.size();
        let start = y * size;
        let row = |bits: &crate::bits::Bits| -> u64 {
            let (word, shift) = (start / 64, start % 64);
            let low = bits.0[word] >> shift;
            let high = match (shift, bits.0.get(word + 1)) {
                (0, _) | (_, None) => 0,
                (_, Some(next)) => next << (64 - shift),
            };
            low | high
        };
        let (black, white) = (row(self.stone_bits(0)), row(self.stone_bits(1)));
        let mut cells = [b'.'; crate::MAX_SIZE];
        for (x, cell) in cells[..size].iter_mut().enumerate() {
            *cell = b".XO?"[((black >> x) & 1 | ((white >> x) & 1) << 1) as usize];
        }
        out.push_str(std::str::from_utf8(&cells[..size]).unwrap_or_default());
    }

    fn row_text(&self, y: usize) -> String {
        let mut row = String::with_capacity(self.size());
        self.push_row(y, &mut row);
        row
    }

    fn side_text(&self) -> &'static str {
        match self.side() {
            Player::First => "X",
            Player::Second => "O",
        }
    }

    /// The position on one line: the rows top first separated by `/`, then
    /// the player to move and the rule, as in
    /// `...../...../..X../...../..... O freestyle`. It parses back like the
    /// multi-line [`Display`](fmt::Display) form.
    #[must_use]
    pub fn to_line(&self) -> String {
        let size = self.size();
        let mut out = String::with_capacity(size * (size + 1) + 16);
        for y in (0..size).rev() {
            self.push_row(y, &mut out);
            out.push(if y == 0 { ' ' } else { '/' });
        }
        out += self.side_text();
        out.push(' ');
        out += self.rule().name();
        out
    }

    /// A drawing for people: the board with column letters and row numbers,
    /// then who is to move (not parseable; use `Display` for that).
    #[must_use]
    pub fn pretty(&self) -> String {
        let size = self.size();
        let mut out = String::new();
        for y in (0..size).rev() {
            out += &format!("{:>2} ", y + 1);
            let row: Vec<String> = self.row_text(y).chars().map(String::from).collect();
            out += &row.join(" ");
            out.push('\n');
        }
        out += "   ";
        let letters: Vec<String> = (0..size)
            .map(|x| char::from(b'a' + x as u8).to_string())
            .collect();
        out += &letters.join(" ");
        out += &format!(
            "\n{} to move, {}, {}x{}",
            match self.side() {
                Player::First => "Black (X)",
                Player::Second => "White (O)",
            },
            self.rule(),
            size,
            size
        );
        out
    }
}

impl fmt::Display for Gomoku {
    /// One line per row, top row (the highest row number) first, `.` for an
    /// empty cell, `X` Black, `O` White; then a line with the player to
    /// move (`X` or `O`) and the rule:
    ///
    /// ```text
    /// .....
    /// .....
    /// ..X..
    /// .....
    /// .....
    /// O freestyle
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::with_capacity(self.size() * (self.size() + 1) + 16);
        for y in (0..self.size()).rev() {
            self.push_row(y, &mut out);
            out.push('\n');
        }
        f.write_str(&out)?;
        write!(f, "{} {}", self.side_text(), self.rule())
    }
}

impl fmt::Debug for Gomoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gomoku(\"{}\")", self.to_line())
    }
}

impl FromStr for Gomoku {
    type Err = ParsePositionError;

    /// Parses the [`Display`](fmt::Display) form or the one-line form of
    /// [`Gomoku::to_line`]. Rows may be indented and their cells separated
    /// by spaces; `x` and `o` may be lower case. The last line (or, in the
    /// one-line form, the words after the rows) gives the player to move,
    /// `X` or `O`, and optionally the rule (freestyle if absent).
    fn from_str(text: &str) -> Result<Gomoku, ParsePositionError> {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect();
        let (rows, tail): (Vec<String>, Vec<&str>) = match lines.as_slice() {
            [] => return Err(ParsePositionError::Empty),
            [single] => {
                let mut words = single.split_whitespace();
                let board = words.next().unwrap_or_default();
                (
                    board.split('/').map(str::to_string).collect(),
                    words.collect(),
                )
            }
            [rows @ .., last] => (
                rows.iter()
                    .map(|row| row.split_whitespace().collect())
                    .collect(),
                last.split_whitespace().collect(),
            ),
        };
        let size = rows.len();
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(ParsePositionError::Size { rows: size });
        }
        let side = match tail.first() {
            None => return Err(ParsePositionError::MissingSide),
            Some(&"X" | &"x") => Player::First,
            Some(&"O" | &"o") => Player::Second,
            Some(other) => {
                return Err(ParsePositionError::Side {
                    found: (*other).to_string(),
                });
            }
        };
        let rule = match tail.get(1) {
            None => Rule::Freestyle,
            Some(name) => name.parse().map_err(ParsePositionError::Rule)?,
        };
        if tail.len() > 2 {
            return Err(ParsePositionError::Trailing {
                found: tail[2..].join(" "),
            });
        }
        let mut black = Vec::new();
        let mut white = Vec::new();
        for (line, row) in rows.iter().enumerate() {
            let y = size - 1 - line;
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != size {
                return Err(ParsePositionError::RowLength {
                    row: y + 1,
                    expected: size,
                    found: cells.len(),
                });
            }
            for (x, &cell) in cells.iter().enumerate() {
                let mv = Move::new(x as u8, y as u8);
                match cell {
                    '.' => {}
                    'X' | 'x' => black.push(mv),
                    'O' | 'o' => white.push(mv),
                    found => {
                        return Err(ParsePositionError::Cell { cell: mv, found });
                    }
                }
            }
        }
        Gomoku::from_stones(size, rule, &black, &white, side).map_err(ParsePositionError::Position)
    }
}

impl From<Gomoku> for String {
    fn from(game: Gomoku) -> String {
        game.to_string()
    }
}

impl TryFrom<String> for Gomoku {
    type Error = ParsePositionError;
    fn try_from(text: String) -> Result<Gomoku, ParsePositionError> {
        text.parse()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Gomoku {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_line())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Gomoku {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Gomoku, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A position text that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParsePositionError {
    /// No text.
    #[error("empty position: expected rows of '.', 'X', 'O' and a line with the player to move")]
    Empty,
    /// Not 5 to 22 rows.
    #[error("the board has {rows} rows: sizes 5 to 22 are supported")]
    Size {
        /// Rows found.
        rows: usize,
    },
    /// A row of the wrong length (rows are numbered from the bottom, as in
    /// `h8`).
    #[error("row {row} has {found} cells, expected {expected} (a square board)")]
    RowLength {
        /// The row number (1 is the bottom row).
        row: usize,
        /// The board size.
        expected: usize,
        /// Cells found.
        found: usize,
    },
    /// A character that is not a cell.
    #[error("cell {cell} is {found:?}: expected '.', 'X' or 'O'")]
    Cell {
        /// The cell.
        cell: Move,
        /// The character.
        found: char,
    },
    /// No player to move after the rows.
    #[error("missing the player to move (X or O) after the rows")]
    MissingSide,
    /// The player to move is not `X` or `O`.
    #[error("player to move {found:?}: expected X or O")]
    Side {
        /// The word found.
        found: String,
    },
    /// An unknown rule name.
    #[error("{0}")]
    Rule(RuleError),
    /// Words after the rule.
    #[error("unexpected {found:?} after the player to move and the rule")]
    Trailing {
        /// The extra words.
        found: String,
    },
    /// The stones do not make a position.
    #[error("{0}")]
    Position(PositionError),
}
