//! Tic-tac-toe: the smallest interesting game, with every capability.

use std::fmt;
use std::str::FromStr;

use crate::zobrist;
use crate::{
    ActionSpace, ColorFlip, Evaluator, Game, GridSymmetry, Outcome, PlaneEncoding, PlaneShape,
    Player, PositionHash,
};

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;
const STONE_KEYS: [u64; 18] = zobrist::keys(0x7177_7ac7_0e00_0001);
const SECOND_TO_MOVE_KEY: u64 = zobrist::mix64(0x7177_7ac7_0e00_0002);

/// Tic-tac-toe on a 3x3 board. `x` ([`Player::First`]) moves first; a move
/// is a square `0..9`, row by row from the top left.
///
/// Text form: nine characters (`x`, `o`, `.`), row by row, a space, and the
/// side to move: `"x.o.x.... o"`. With the `serde` feature a position
/// serializes as this text and deserializes through [`FromStr`], so serde
/// refuses exactly what the parser refuses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "String")
)]
pub struct TicTacToe {
    stones: [u16; 2],
    to_move: Player,
    hash: u64,
}

impl Default for TicTacToe {
    fn default() -> Self {
        TicTacToe::new()
    }
}

impl TicTacToe {
    /// The empty board, `x` to move.
    pub fn new() -> Self {
        TicTacToe {
            stones: [0, 0],
            to_move: Player::First,
            hash: 0,
        }
    }

    /// The position after playing `squares` from the start.
    ///
    /// # Errors
    ///
    /// Returns the first illegal move.
    pub fn from_moves(squares: &[u8]) -> Result<Self, crate::IllegalMove<u8>> {
        let mut game = TicTacToe::new();
        for &square in squares {
            game.try_play(square)?;
        }
        Ok(game)
    }

    /// Who has a stone on `square`, if anyone.
    pub fn stone(&self, square: u8) -> Option<Player> {
        Player::BOTH
            .into_iter()
            .find(|player| self.stones[player.index()] & (1 << square) != 0)
    }

    fn has_line(&self, player: Player) -> bool {
        let stones = self.stones[player.index()];
        LINES.iter().any(|&line| (stones & line).count_ones() == 3)
    }

    fn occupied(&self) -> u16 {
        self.stones[0] | self.stones[1]
    }

    fn hash_from_scratch(stones: [u16; 2], to_move: Player) -> u64 {
        let mut hash = if to_move == Player::Second {
            SECOND_TO_MOVE_KEY
        } else {
            0
        };
        for player in Player::BOTH {
            for square in 0..9 {
                if stones[player.index()] & (1 << square) != 0 {
                    hash ^= STONE_KEYS[player.index() * 9 + square];
                }
            }
        }
        hash
    }
}

impl Game for TicTacToe {
    type Move = u8;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.outcome().is_none() {
            let empty = FULL & !self.occupied();
            out.extend((0..9).filter(|square| empty & (1 << square) != 0));
        }
    }

    fn play(&mut self, square: u8) {
        debug_assert!(self.is_legal(square), "illegal move {square} in {self}");
        let mover = self.to_move;
        self.stones[mover.index()] |= 1 << square;
        self.hash ^= STONE_KEYS[mover.index() * 9 + usize::from(square)] ^ SECOND_TO_MOVE_KEY;
        self.to_move = mover.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_line(Player::First) {
            Some(Outcome::Win(Player::First))
        } else if self.has_line(Player::Second) {
            Some(Outcome::Win(Player::Second))
        } else if self.occupied() == FULL {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn is_legal(&self, square: u8) -> bool {
        square < 9 && self.occupied() & (1 << square) == 0 && self.outcome().is_none()
    }
}

impl ActionSpace for TicTacToe {
    fn num_actions(&self) -> usize {
        9
    }

    fn action_index(&self, square: u8) -> usize {
        usize::from(square)
    }

    fn action(&self, index: usize) -> Option<u8> {
        u8::try_from(index).ok().filter(|&square| square < 9)
    }
}

impl PositionHash for TicTacToe {
    fn position_hash(&self) -> u64 {
        self.hash
    }
}

impl ColorFlip for TicTacToe {
    fn color_flipped(&self) -> Self {
        let stones = [self.stones[1], self.stones[0]];
        let to_move = self.to_move.opponent();
        TicTacToe {
            stones,
            to_move,
            hash: TicTacToe::hash_from_scratch(stones, to_move),
        }
    }

    fn flip_move(square: u8) -> u8 {
        square
    }
}

/// Three 3x3 planes: the stones of the player to move, the opponent's
/// stones, and a plane of ones. The board's eight symmetries keep the rules.
impl PlaneEncoding for TicTacToe {
    fn encoding(&self) -> String {
        "tictactoe/v1".to_string()
    }

    fn plane_shape(&self) -> PlaneShape {
        PlaneShape::new(3, 3, 3)
    }

    fn encode_planes(&self, planes: &mut [f32]) {
        let mover = self.stones[self.to_move.index()];
        let other = self.stones[self.to_move.opponent().index()];
        for square in 0..9 {
            planes[square] = f32::from(u8::from(mover & (1 << square) != 0));
            planes[9 + square] = f32::from(u8::from(other & (1 << square) != 0));
            planes[18 + square] = 1.0;
        }
    }

    fn symmetries(&self) -> &'static [GridSymmetry] {
        &GridSymmetry::ALL
    }
}

impl TicTacToe {
    /// The position with every stone moved by `symmetry` (square `s` is
    /// cell `s` of the 3x3 grid, row by row).
    #[must_use]
    pub fn symmetric(&self, symmetry: GridSymmetry) -> TicTacToe {
        let mut stones = [0u16; 2];
        for (moved, &original) in stones.iter_mut().zip(&self.stones) {
            for square in 0..9 {
                if original & (1 << square) != 0 {
                    *moved |= 1 << symmetry.apply_cell(square, 3, 3);
                }
            }
        }
        TicTacToe {
            stones,
            to_move: self.to_move,
            hash: TicTacToe::hash_from_scratch(stones, self.to_move),
        }
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for square in 0..9 {
            let c = match self.stone(square) {
                Some(Player::First) => 'x',
                Some(Player::Second) => 'o',
                None => '.',
            };
            write!(f, "{c}")?;
        }
        let side = if self.to_move == Player::First {
            'x'
        } else {
            'o'
        };
        write!(f, " {side}")
    }
}

/// Why a tic-tac-toe position string was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseTicTacToeError {
    /// Not nine board characters, a space and a side.
    #[error(
        "expected 9 board characters, a space and the side to move (like \"x.o...... x\"), got {0:?}"
    )]
    Shape(String),
    /// A board character other than `x`, `o` or `.`.
    #[error("unexpected character {character:?} at square {square}; expected 'x', 'o' or '.'")]
    Character {
        /// The square (0-8).
        square: usize,
        /// The character found.
        character: char,
    },
    /// A side other than `x` or `o`.
    #[error("unexpected side to move {0:?}; expected 'x' or 'o'")]
    Side(String),
    /// Both players have three in a row.
    #[error("both players have three in a row")]
    TwoWinners,
}

impl FromStr for TicTacToe {
    type Err = ParseTicTacToeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (board, side) = text
            .trim()
            .split_once(' ')
            .ok_or_else(|| ParseTicTacToeError::Shape(text.to_string()))?;
        if board.chars().count() != 9 {
            return Err(ParseTicTacToeError::Shape(text.to_string()));
        }
        let mut stones = [0u16; 2];
        for (square, character) in board.chars().enumerate() {
            match character {
                'x' | 'X' => stones[0] |= 1 << square,
                'o' | 'O' => stones[1] |= 1 << square,
                '.' | '-' => {}
                _ => return Err(ParseTicTacToeError::Character { square, character }),
            }
        }
        let to_move = match side.trim() {
            "x" | "X" => Player::First,
            "o" | "O" => Player::Second,
            other => return Err(ParseTicTacToeError::Side(other.to_string())),
        };
        let game = TicTacToe {
            stones,
            to_move,
            hash: TicTacToe::hash_from_scratch(stones, to_move),
        };
        if game.has_line(Player::First) && game.has_line(Player::Second) {
            return Err(ParseTicTacToeError::TwoWinners);
        }
        Ok(game)
    }
}

impl TryFrom<String> for TicTacToe {
    type Error = ParseTicTacToeError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<TicTacToe> for String {
    fn from(game: TicTacToe) -> String {
        game.to_string()
    }
}

/// A simple tic-tac-toe heuristic: lines still open for the player to move
/// minus lines open for the opponent, scaled into `(-1, 1)`; the exact
/// reward at finished positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TicTacToeHeuristic;

impl Evaluator<TicTacToe> for TicTacToeHeuristic {
    fn value(&self, state: &TicTacToe) -> f32 {
        if let Some(outcome) = state.outcome() {
            return outcome.reward(state.to_move());
        }
        let mine = state.stones[state.to_move.index()];
        let theirs = state.stones[state.to_move.opponent().index()];
        let open =
            |blockers: u16| LINES.iter().filter(|&&line| line & blockers == 0).count() as f32;
        (open(theirs) - open(mine)) / 9.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip_and_errors() {
        let game = TicTacToe::from_moves(&[4, 0, 8]).unwrap();
        assert_eq!(game.to_string(), "o...x...x o");
        assert_eq!("o...x...x o".parse::<TicTacToe>().unwrap(), game);
        assert!(matches!(
            "o...x..?x o".parse::<TicTacToe>(),
            Err(ParseTicTacToeError::Character {
                square: 7,
                character: '?'
            })
        ));
        assert!(matches!(
            "o...x...x z".parse::<TicTacToe>(),
            Err(ParseTicTacToeError::Side(_))
        ));
        assert!(matches!(
            "o...x... o".parse::<TicTacToe>(),
            Err(ParseTicTacToeError::Shape(_))
        ));
        assert!(matches!(
            "xxxooo... x".parse::<TicTacToe>(),
            Err(ParseTicTacToeError::TwoWinners)
        ));
    }

    #[test]
    fn wins_and_draws() {
        let win = TicTacToe::from_moves(&[0, 3, 1, 4, 2]).unwrap();
        assert_eq!(win.outcome(), Some(Outcome::Win(Player::First)));
        let draw = TicTacToe::from_moves(&[0, 1, 2, 4, 3, 5, 7, 6, 8]).unwrap();
        assert_eq!(draw.outcome(), Some(Outcome::Draw));
        assert!(TicTacToe::from_moves(&[0, 0]).is_err());
    }
}
