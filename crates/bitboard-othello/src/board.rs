//! The position: two bitboards relative to the side to move.

use std::fmt;
use std::str::FromStr;

use game_traits::zobrist::mix64;
use game_traits::{ActionSpace, ColorFlip, Game, Outcome, Player, PositionHash};

use crate::movegen::{flips, mobility};
use crate::{Move, Square, Symmetry};

/// An Othello position: the discs of the player to move and of the
/// opponent as two bitboards (as Edax keeps them), plus who is to move.
///
/// Playing a move XORs the flipped discs into both boards and swaps them,
/// so move generation never branches on colour. `Clone` is cheap (24
/// bytes); the type is deliberately not `Copy`.
///
/// A pass is a real [`Move`]: it is the only legal move when the player to
/// move has no square to play and the opponent has one. The game is over
/// when neither side can play.
///
/// Text form (`Display`/`FromStr`): the 64-character board string of OBF
/// files (`X` Black, `O` White, `-` empty, `a1` first), a space, and the
/// side to move (`X` or `O`).
///
/// ```
/// use bitboard_othello::{Board, Move, Square};
/// use game_traits::Game;
///
/// let mut board = Board::start();
/// assert_eq!(board.mobility().count_ones(), 4);
/// board.play(Move::Place(Square::F5));
/// assert_eq!(
///     board.to_string(),
///     "---------------------------OX------XXX-------------------------- O"
/// );
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "String")
)]
pub struct Board {
    player: u64,
    opponent: u64,
    side: Player,
}

/// The most plies an Othello game can last: 60 discs placed, and passes
/// never twice in a row, so at most one pass before each placement.
pub const MAX_PLIES: usize = 120;

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The start position: d4, e5 White; e4, d5 Black; Black to move.
    #[must_use]
    pub const fn start() -> Board {
        Board {
            player: Square::E4.bit() | Square::D5.bit(),
            opponent: Square::D4.bit() | Square::E5.bit(),
            side: Player::First,
        }
    }

    /// A position from the discs of the player to move (`player`) and of
    /// the other (`opponent`), with `side` to move.
    ///
    /// # Errors
    ///
    /// [`BoardError::Overlap`] if a square holds both colours.
    pub fn from_player_opponent(
        player: u64,
        opponent: u64,
        side: Player,
    ) -> Result<Board, BoardError> {
        if player & opponent != 0 {
            return Err(BoardError::Overlap {
                squares: player & opponent,
            });
        }
        Ok(Board {
            player,
            opponent,
            side,
        })
    }

    /// A position from Black's and White's discs, with `side` to move
    /// (`Player::First` is Black).
    ///
    /// # Errors
    ///
    /// [`BoardError::Overlap`] if a square holds both colours.
    pub fn from_colors(black: u64, white: u64, side: Player) -> Result<Board, BoardError> {
        match side {
            Player::First => Board::from_player_opponent(black, white, side),
            Player::Second => Board::from_player_opponent(white, black, side),
        }
    }

    /// A position from parts known not to overlap.
    #[inline]
    pub(crate) const fn from_parts(player: u64, opponent: u64, side: Player) -> Board {
        debug_assert!(player & opponent == 0);
        Board {
            player,
            opponent,
            side,
        }
    }

    /// The player to move (`First` is Black).
    #[inline]
    #[must_use]
    pub const fn side(&self) -> Player {
        self.side
    }

    /// The discs of the player to move.
    #[inline]
    #[must_use]
    pub const fn player(&self) -> u64 {
        self.player
    }

    /// The discs of the player not to move.
    #[inline]
    #[must_use]
    pub const fn opponent(&self) -> u64 {
        self.opponent
    }

    /// Black's discs.
    #[inline]
    #[must_use]
    pub const fn black(&self) -> u64 {
        match self.side {
            Player::First => self.player,
            Player::Second => self.opponent,
        }
    }

    /// White's discs.
    #[inline]
    #[must_use]
    pub const fn white(&self) -> u64 {
        match self.side {
            Player::First => self.opponent,
            Player::Second => self.player,
        }
    }

    /// The empty squares.
    #[inline]
    #[must_use]
    pub const fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }

    /// The number of empty squares.
    #[inline]
    #[must_use]
    pub const fn empty_count(&self) -> u32 {
        self.empties().count_ones()
    }

    /// The squares where the player to move can place a disc.
    #[inline]
    #[must_use]
    pub fn mobility(&self) -> u64 {
        mobility(self.player, self.opponent)
    }

    /// The squares where the opponent could place a disc if it were their
    /// turn.
    #[inline]
    #[must_use]
    pub fn opponent_mobility(&self) -> u64 {
        mobility(self.opponent, self.player)
    }

    /// The discs a move on `square` would turn over (empty when the move is
    /// not legal).
    #[inline]
    #[must_use]
    pub fn flips(&self, square: Square) -> u64 {
        if self.empties() & square.bit() == 0 {
            return 0;
        }
        flips(square.index(), self.player, self.opponent)
    }

    /// Places a disc on `square`, which must be a legal move (checked only
    /// by `debug_assert!`).
    #[inline]
    pub fn play_square(&mut self, square: Square) {
        let flipped = flips(square.index(), self.player, self.opponent);
        debug_assert!(
            self.mobility() & square.bit() != 0,
            "{square} is not legal in {self}"
        );
        let player = self.player ^ flipped ^ square.bit();
        self.player = self.opponent ^ flipped;
        self.opponent = player;
        self.side = self.side.opponent();
    }

    /// Passes the turn (legal only when the player to move has no square
    /// and the opponent has one; checked only by `debug_assert!`).
    #[inline]
    pub fn pass(&mut self) {
        debug_assert!(self.mobility() == 0 && self.opponent_mobility() != 0);
        std::mem::swap(&mut self.player, &mut self.opponent);
        self.side = self.side.opponent();
    }

    /// The final score for the player to move if the game ended now: own
    /// discs minus opponent discs, with the empty squares going to the
    /// side with more discs (as the rules award them). In `-64..=64`.
    #[inline]
    #[must_use]
    pub const fn final_score(&self) -> i32 {
        let own = self.player.count_ones() as i32;
        let other = self.opponent.count_ones() as i32;
        let empty = 64 - own - other;
        let diff = own - other;
        if diff > 0 {
            diff + empty
        } else if diff < 0 {
            diff - empty
        } else {
            0
        }
    }

    /// The number of discs of `player`.
    #[inline]
    #[must_use]
    pub const fn disc_count(&self, player: Player) -> u32 {
        match (player, self.side) {
            (Player::First, Player::First) | (Player::Second, Player::Second) => {
                self.player.count_ones()
            }
            _ => self.opponent.count_ones(),
        }
    }

    /// Whether neither side can place a disc.
    #[inline]
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        self.mobility() == 0 && self.opponent_mobility() == 0
    }

    /// The position mapped by `symmetry` (same side to move).
    #[must_use]
    pub const fn symmetric(&self, symmetry: Symmetry) -> Board {
        Board {
            player: symmetry.apply_bitboard(self.player),
            opponent: symmetry.apply_bitboard(self.opponent),
            side: self.side,
        }
    }

    /// The smallest of the eight symmetric images (compared by player then
    /// opponent bitboard) and the symmetry that maps this position to it:
    /// one representative for each class of equivalent positions.
    #[must_use]
    pub fn canonical(&self) -> (Board, Symmetry) {
        let mut best = (self.clone(), Symmetry::Identity);
        for symmetry in &Symmetry::ALL[1..] {
            let image = self.symmetric(*symmetry);
            if (image.player, image.opponent) < (best.0.player, best.0.opponent) {
                best = (image, *symmetry);
            }
        }
        best
    }

    /// A hash of the discs of both sides and of the side to move. Computed
    /// from scratch in a few multiplications (two rounds of the SplitMix64
    /// finalizer), which is cheaper than updating a Zobrist key for every
    /// flipped disc and spreads the bits as well.
    #[inline]
    #[must_use]
    pub const fn hash_key(&self) -> u64 {
        const SIDE_KEYS: [u64; 2] = game_traits::zobrist::keys(0x07E1_1005);
        let black = self.black();
        let white = self.white();
        mix64(mix64(black ^ SIDE_KEYS[self.side.index()]).wrapping_add(white))
    }

    /// A grid of the position for people: ranks 1 to 8 top to bottom, files
    /// a to h, `X` Black, `O` White, `.` empty, `*` the legal moves.
    #[must_use]
    pub fn grid(&self) -> String {
        let moves = self.mobility();
        let mut out = String::from("  a b c d e f g h\n");
        for row in 0..8 {
            out.push(char::from(b'1' + row as u8));
            for col in 0..8 {
                let bit = 1u64 << (row * 8 + col);
                out.push(' ');
                out.push(if self.black() & bit != 0 {
                    'X'
                } else if self.white() & bit != 0 {
                    'O'
                } else if moves & bit != 0 {
                    '*'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out.push_str(match self.side {
            Player::First => "X (Black) to move\n",
            Player::Second => "O (White) to move\n",
        });
        out
    }
}

impl Game for Board {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.side
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let moves = self.mobility();
        if moves != 0 {
            out.extend(Square::in_bitboard(moves).map(Move::Place));
        } else if self.opponent_mobility() != 0 {
            out.push(Move::Pass);
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        match mv {
            Move::Place(square) => self.play_square(square),
            Move::Pass => self.pass(),
        }
    }

    #[inline(always)]
    fn outcome(&self) -> Option<Outcome> {
        if !self.is_game_over() {
            return None;
        }
        let score = self.final_score();
        Some(match score.cmp(&0) {
            std::cmp::Ordering::Greater => Outcome::Win(self.side),
            std::cmp::Ordering::Less => Outcome::Win(self.side.opponent()),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    #[inline]
    fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Place(square) => self.mobility() & square.bit() != 0,
            Move::Pass => self.mobility() == 0 && self.opponent_mobility() != 0,
        }
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.is_game_over()
    }
}

impl ActionSpace for Board {
    /// 65: the 64 squares, then pass.
    fn num_actions(&self) -> usize {
        65
    }

    fn action_index(&self, mv: Move) -> usize {
        mv.index()
    }

    fn action(&self, index: usize) -> Option<Move> {
        Move::from_index(index)
    }
}

impl PositionHash for Board {
    #[inline]
    fn position_hash(&self) -> u64 {
        self.hash_key()
    }
}

impl ColorFlip for Board {
    /// Every disc changes colour and the other colour moves: the discs of
    /// the player to move stay where they are.
    fn color_flipped(&self) -> Board {
        Board {
            player: self.player,
            opponent: self.opponent,
            side: self.side.opponent(),
        }
    }

    fn flip_move(mv: Move) -> Move {
        mv
    }
}

/// A board that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardError {
    /// Some squares hold discs of both colours.
    #[error("squares {} hold discs of both colours", list_squares(*.squares))]
    Overlap {
        /// The squares held twice.
        squares: u64,
    },
}

fn list_squares(bits: u64) -> String {
    Square::in_bitboard(bits)
        .map(|square| square.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A board string that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// The board part does not have 64 squares.
    #[error("board string has {found} squares, expected 64 (then a space and the side, X or O)")]
    Length {
        /// How many square characters were found.
        found: usize,
    },
    /// A character that is not a square.
    #[error(
        "bad character {found:?} for square {square} (position {position} of the board string): expected X, O or -"
    )]
    Character {
        /// The character.
        found: char,
        /// Its position in the board string, from 0.
        position: usize,
        /// The square it stands for.
        square: Square,
    },
    /// The side to move is missing.
    #[error("missing side to move after the 64 squares (expected X or O)")]
    MissingSide,
    /// The side to move is not `X` or `O`.
    #[error("bad side to move {found:?} (expected X or O)")]
    Side {
        /// What was found instead.
        found: String,
    },
    /// Something follows the side to move.
    #[error("unexpected {found:?} after the side to move")]
    Trailing {
        /// What follows.
        found: String,
    },
}

/// Reads a square character: `Some(Some(First))` for Black, `Some(None)`
/// for empty, `None` for anything else.
fn disc(ch: char) -> Option<Option<Player>> {
    match ch {
        'X' | 'x' | '*' | 'B' | 'b' => Some(Some(Player::First)),
        'O' | 'o' | 'W' | 'w' => Some(Some(Player::Second)),
        '-' | '.' | '_' => Some(None),
        _ => None,
    }
}

/// Reads a side to move: `X`/`B`/`*`/`black` or `O`/`W`/`white`, any
/// case.
pub(crate) fn parse_side(text: &str) -> Option<Player> {
    match text.to_ascii_lowercase().as_str() {
        "x" | "b" | "*" | "black" => Some(Player::First),
        "o" | "w" | "white" => Some(Player::Second),
        _ => None,
    }
}

impl Board {
    /// Reads the 64 square characters at the start of `text` and returns
    /// Black's and White's discs with the rest of the text.
    pub(crate) fn parse_squares(text: &str) -> Result<(u64, u64, &str), ParseBoardError> {
        let text = text.trim_start();
        let mut black = 0;
        let mut white = 0;
        let mut count = 0;
        let mut rest = text;
        for (offset, ch) in text.char_indices() {
            if count == 64 {
                rest = &text[offset..];
                break;
            }
            if ch.is_whitespace() || ch == ';' {
                return Err(ParseBoardError::Length { found: count });
            }
            let Some(content) = disc(ch) else {
                return Err(ParseBoardError::Character {
                    found: ch,
                    position: count,
                    square: Square::new(count).unwrap_or(Square::A1),
                });
            };
            match content {
                Some(Player::First) => black |= 1u64 << count,
                Some(Player::Second) => white |= 1u64 << count,
                None => {}
            }
            count += 1;
            rest = &text[offset + ch.len_utf8()..];
        }
        if count < 64 {
            return Err(ParseBoardError::Length { found: count });
        }
        if rest.starts_with(|ch: char| !ch.is_whitespace() && ch != ';') {
            let extra = rest
                .split(|ch: char| ch.is_whitespace() || ch == ';')
                .next()
                .unwrap_or("");
            return Err(ParseBoardError::Length {
                found: 64 + extra.chars().count(),
            });
        }
        Ok((black, white, rest))
    }

    /// Reads a board and side at the start of `text` (`<64 squares>
    /// <side>`); returns the board and what follows the side.
    pub(crate) fn parse_prefix(text: &str) -> Result<(Board, &str), ParseBoardError> {
        let (black, white, rest) = Board::parse_squares(text)?;
        let rest = rest.trim_start();
        let end = rest
            .find(|ch: char| ch.is_whitespace() || ch == ';')
            .unwrap_or(rest.len());
        let side_text = &rest[..end];
        if side_text.is_empty() {
            return Err(ParseBoardError::MissingSide);
        }
        let side = parse_side(side_text).ok_or_else(|| ParseBoardError::Side {
            found: side_text.to_string(),
        })?;
        let board = match Board::from_colors(black, white, side) {
            Ok(board) => board,
            Err(BoardError::Overlap { .. }) => unreachable!("a square holds one character"),
        };
        Ok((board, &rest[end..]))
    }
}

impl FromStr for Board {
    type Err = ParseBoardError;

    /// Reads `<64 squares> <side>`: squares `X`/`x`/`*`/`B` Black,
    /// `O`/`o`/`W` White, `-`/`.`/`_` empty; side `X` or `O` (also `B`,
    /// `W`, `black`, `white`), any case. Surrounding whitespace is ignored;
    /// a trailing `;` is allowed.
    fn from_str(text: &str) -> Result<Board, ParseBoardError> {
        let (board, rest) = Board::parse_prefix(text)?;
        let rest = rest.trim();
        let rest = rest.strip_prefix(';').unwrap_or(rest).trim();
        if !rest.is_empty() {
            return Err(ParseBoardError::Trailing {
                found: rest.to_string(),
            });
        }
        Ok(board)
    }
}

impl fmt::Display for Board {
    /// The 64-character board string, a space, and `X` or `O`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (black, white) = (self.black(), self.white());
        let mut text = [b'-'; 66];
        for (index, slot) in text[..64].iter_mut().enumerate() {
            let bit = 1u64 << index;
            if black & bit != 0 {
                *slot = b'X';
            } else if white & bit != 0 {
                *slot = b'O';
            }
        }
        text[64] = b' ';
        text[65] = match self.side {
            Player::First => b'X',
            Player::Second => b'O',
        };
        f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board(\"{self}\")")
    }
}

impl TryFrom<String> for Board {
    type Error = ParseBoardError;

    fn try_from(text: String) -> Result<Board, ParseBoardError> {
        text.parse()
    }
}

impl From<Board> for String {
    fn from(board: Board) -> String {
        board.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_text_and_moves() {
        let board = Board::start();
        assert_eq!(
            board.to_string(),
            "---------------------------OX------XO--------------------------- X"
        );
        assert_eq!(board.to_string().parse::<Board>(), Ok(board.clone()));
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
        assert_eq!(board.outcome(), None);
        assert_eq!(board.final_score(), 0);
    }

    #[test]
    fn pass_is_the_only_move_when_stuck() {
        // White to move with no disc next to an empty square it could take;
        // Black can move.
        let board: Board = format!("{}OO- O", "X".repeat(61)).parse().unwrap();
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        assert_eq!(moves, [Move::Pass]);
        assert!(board.is_legal(Move::Pass));
        let mut after = board.clone();
        after.play(Move::Pass);
        assert_eq!(after.to_move(), Player::First);
        after.legal_moves(&mut moves);
        assert_eq!(moves, [Move::Place(Square::H8)]);
        after.play(Move::Place(Square::H8));
        assert_eq!(after.outcome(), Some(Outcome::Win(Player::First)));
        assert_eq!(after.final_score(), -64);
    }

    #[test]
    fn empties_go_to_the_winner() {
        let board: Board = format!("XXX{}OO- X", "-".repeat(58)).parse().unwrap();
        assert!(board.is_game_over());
        assert_eq!(board.final_score(), 3 - 2 + 59);
        assert_eq!(board.outcome(), Some(Outcome::Win(Player::First)));
    }

    #[test]
    fn malformed_boards_name_the_problem() {
        let good = "---------------------------OX------XO---------------------------";
        assert_eq!(
            format!("{} X", &good[..63]).parse::<Board>(),
            Err(ParseBoardError::Length { found: 63 })
        );
        assert_eq!(
            format!("{good}- X").parse::<Board>(),
            Err(ParseBoardError::Length { found: 65 })
        );
        assert_eq!(good.parse::<Board>(), Err(ParseBoardError::MissingSide));
        assert!(matches!(
            format!("{good} Z").parse::<Board>(),
            Err(ParseBoardError::Side { .. })
        ));
        assert!(matches!(
            format!("{good} X junk").parse::<Board>(),
            Err(ParseBoardError::Trailing { .. })
        ));
        let bad = format!("{}?{} X", &good[..10], &good[11..]);
        assert_eq!(
            bad.parse::<Board>(),
            Err(ParseBoardError::Character {
                found: '?',
                position: 10,
                square: Square::C2
            })
        );
        assert_eq!(
            format!("{good} O;").parse::<Board>().map(|b| b.side()),
            Ok(Player::Second)
        );
    }
}
