//! The position string of the rules text (section 3), both ways:
//! `<board> <side> <clock> <move>`, e.g.
//! `l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1`.

use std::fmt;
use std::str::FromStr;

use game_traits::{Player, PositionHash};

use crate::animal::{Animal, Piece};
use crate::board::{FILES, RANKS, Square};
use crate::position::Jungle;
use crate::rules::Rules;

/// A position string that cannot be read, or a position that cannot occur.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// Not 2 to 4 space-separated fields.
    #[error("position {text:?} has {found} fields; expected <board> <side> [<clock> [<move>]]")]
    FieldCount {
        /// The text given.
        text: String,
        /// The number of fields found.
        found: usize,
    },
    /// The board does not have 9 ranks separated by `/`.
    #[error("the board {board:?} has {found} ranks separated by '/'; expected 9")]
    RankCount {
        /// The board field.
        board: String,
        /// The number of ranks found.
        found: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-7.
    #[error(
        "rank {rank}: {character:?} is neither a piece letter (RCDWPTLE, either case) nor a digit 1-7"
    )]
    BadCharacter {
        /// The rank (1-9) where it was found.
        rank: u8,
        /// The character.
        character: char,
    },
    /// A rank that does not describe exactly 7 squares.
    #[error("rank {rank} describes {squares} squares; expected 7")]
    RankLength {
        /// The rank (1-9).
        rank: u8,
        /// The number of squares it describes.
        squares: usize,
    },
    /// The side field is not `w` or `b`.
    #[error("side to move {found:?} is not 'w' (first player) or 'b' (second player)")]
    BadSide {
        /// The field given.
        found: String,
    },
    /// The clock is not a number of plies.
    #[error("no-capture clock {found:?} is not a number 0-65535")]
    BadClock {
        /// The field given.
        found: String,
    },
    /// The move number is not a positive number.
    #[error("move number {found:?} is not a number of at least 1")]
    BadMoveNumber {
        /// The field given.
        found: String,
    },
    /// A side has two pieces of the same animal.
    #[error("two {piece} pieces ({animal}s of the {owner} player), on {first} and {second}", piece = piece.letter(), animal = piece.animal, owner = piece.owner)]
    DuplicatePiece {
        /// The piece.
        piece: Piece,
        /// Where the first one stands.
        first: Square,
        /// Where the second one stands.
        second: Square,
    },
    /// A piece stands in its own den, which it may never enter.
    #[error("the {animal} {piece} on {square} stands in its own den", animal = piece.animal, piece = piece.letter())]
    PieceInOwnDen {
        /// The piece.
        piece: Piece,
        /// The den square.
        square: Square,
    },
    /// A piece other than a rat stands in water.
    #[error("the {animal} {piece} on {square} stands in water, where only rats may go", animal = piece.animal, piece = piece.letter())]
    NonRatInWater {
        /// The piece.
        piece: Piece,
        /// The water square.
        square: Square,
    },
    /// Both dens are occupied by the enemy: the game would have ended at
    /// the first entry.
    #[error("both dens are entered by the enemy; the game ends at the first den entry")]
    BothDensEntered,
    /// Two pieces were given for the same square.
    #[error("two pieces given for {square}")]
    SquareTaken {
        /// The square.
        square: Square,
    },
    /// A repetition history (of a serialized position) that does not end
    /// with the position's own hash.
    #[error("the repetition history ends with {last:?}, not with the position's hash {hash:#018x}")]
    HistoryMismatch {
        /// The history's last hash, if it has one.
        last: Option<u64>,
        /// The position's hash.
        hash: u64,
    },
}

impl Jungle {
    /// Reads a position string (section 3) and plays it under `rules`. The
    /// clock and move number may be left out (`0 1`).
    ///
    /// # Errors
    ///
    /// A [`PositionError`] naming what is malformed (field count, rank,
    /// character, side, clock, move number) or impossible (two pieces of one
    /// animal on a side, a piece in its own den, a non-rat in water, both
    /// dens entered).
    pub fn from_fen(text: &str, rules: Rules) -> Result<Jungle, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(2..=4).contains(&fields.len()) {
            return Err(PositionError::FieldCount {
                text: text.to_string(),
                found: fields.len(),
            });
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != usize::from(RANKS) {
            return Err(PositionError::RankCount {
                board: fields[0].to_string(),
                found: ranks.len(),
            });
        }
        let mut pieces = Vec::new();
        for (i, rank_text) in ranks.iter().enumerate() {
            let row = RANKS - 1 - i as u8;
            let rank = row + 1;
            let mut col = 0usize;
            for character in rank_text.chars() {
                if let Some(run) = character.to_digit(10).filter(|run| (1..=7).contains(run)) {
                    col += run as usize;
                } else if let Some(piece) = Piece::from_letter(character) {
                    if let Some(square) = Square::from_coords(col as u8, row).filter(|_| col < 7) {
                        pieces.push((square, piece));
                    }
                    col += 1;
                } else {
                    return Err(PositionError::BadCharacter { rank, character });
                }
            }
            if col != usize::from(FILES) {
                return Err(PositionError::RankLength { rank, squares: col });
            }
        }
        let to_move = match fields[1] {
            "w" => Player::First,
            "b" => Player::Second,
            other => {
                return Err(PositionError::BadSide {
                    found: other.to_string(),
                });
            }
        };
        let clock = match fields.get(2) {
            None => 0,
            Some(found) => found.parse().map_err(|_| PositionError::BadClock {
                found: found.to_string(),
            })?,
        };
        let fullmove = match fields.get(3) {
            None => 1,
            Some(found) => found
                .parse()
                .ok()
                .filter(|&number| number >= 1)
                .ok_or_else(|| PositionError::BadMoveNumber {
                    found: found.to_string(),
                })?,
        };
        Jungle::from_pieces(pieces, to_move, clock, fullmove, rules)
    }

    /// Builds a position from its pieces.
    ///
    /// # Errors
    ///
    /// A [`PositionError`] for an impossible position: two pieces on one
    /// square, two pieces of one animal on a side, a piece in its own den,
    /// a non-rat in water, both dens entered. `fullmove` 0 counts as 1.
    pub fn from_pieces(
        pieces: impl IntoIterator<Item = (Square, Piece)>,
        to_move: Player,
        clock: u16,
        fullmove: u32,
        rules: Rules,
    ) -> Result<Jungle, PositionError> {
        let mut position = Jungle::empty(rules);
        let mut seen: [[Option<Square>; 8]; 2] = [[None; 8]; 2];
        for (square, piece) in pieces {
            if position.piece_at(square).is_some() {
                return Err(PositionError::SquareTaken { square });
            }
            if let Some(first) = seen[piece.owner.index()][piece.animal.index()] {
                return Err(PositionError::DuplicatePiece {
                    piece,
                    first,
                    second: square,
                });
            }
            seen[piece.owner.index()][piece.animal.index()] = Some(square);
            if square.is_den_of(piece.owner) {
                return Err(PositionError::PieceInOwnDen { piece, square });
            }
            if square.is_water() && piece.animal != Animal::Rat {
                return Err(PositionError::NonRatInWater { piece, square });
            }
            position.place(square, piece);
        }
        let entered = Player::BOTH
            .into_iter()
            .filter(|&player| position.piece_at(Square::den(player.opponent())).is_some())
            .count();
        if entered == 2 {
            return Err(PositionError::BothDensEntered);
        }
        position.to_move = to_move;
        position.clock = clock;
        position.fullmove = fullmove.max(1);
        position.hash = position.compute_hash();
        debug_assert_eq!(position.hash, position.position_hash());
        if rules.repetition_draw {
            position.history = crate::history::History::from_hashes(vec![position.hash]);
        }
        position.update_decided();
        position.update_draw();
        Ok(position)
    }

    /// The board field of the position string.
    #[must_use]
    pub fn board_string(&self) -> String {
        let mut text = String::with_capacity(40);
        for row in (0..RANKS).rev() {
            let mut empty = 0;
            for col in 0..FILES {
                let square = Square::from_coords(col, row).expect("on the board");
                match self.piece_at(square) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            text.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        text.push(piece.letter());
                    }
                }
            }
            if empty > 0 {
                text.push(char::from(b'0' + empty));
            }
            if row > 0 {
                text.push('/');
            }
        }
        text
    }
}

impl fmt::Display for Jungle {
    /// The position string: `<board> <side> <clock> <move>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = match self.to_move {
            Player::First => 'w',
            Player::Second => 'b',
        };
        write!(
            f,
            "{} {side} {} {}",
            self.board_string(),
            self.clock,
            self.fullmove
        )
    }
}

impl FromStr for Jungle {
    type Err = PositionError;

    /// Reads a position string under the standard rules.
    fn from_str(text: &str) -> Result<Jungle, PositionError> {
        Jungle::from_fen(text, Rules::default())
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    //! A position serializes as its position string, its rules and its
    //! repetition history.

    use super::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    pub(super) struct JungleRepr {
        position: String,
        rules: Rules,
        #[serde(default)]
        history: Vec<u64>,
    }

    impl From<Jungle> for JungleRepr {
        fn from(game: Jungle) -> JungleRepr {
            JungleRepr {
                position: game.to_string(),
                rules: game.rules,
                history: game.history.hashes().to_vec(),
            }
        }
    }

    impl TryFrom<JungleRepr> for Jungle {
        type Error = PositionError;

        fn try_from(repr: JungleRepr) -> Result<Jungle, PositionError> {
            let mut game = Jungle::from_fen(&repr.position, repr.rules)?;
            if repr.rules.repetition_draw && !repr.history.is_empty() {
                game.set_history(repr.history).map_err(|history| {
                    PositionError::HistoryMismatch {
                        last: history.last().copied(),
                        hash: game.position_hash(),
                    }
                })?;
            }
            Ok(game)
        }
    }

    impl serde::Serialize for Jungle {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            JungleRepr::from(self.clone()).serialize(serializer)
        }
    }

    impl<'de> serde::Deserialize<'de> for Jungle {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Jungle, D::Error> {
            let repr = JungleRepr::deserialize(deserializer)?;
            Jungle::try_from(repr).map_err(serde::de::Error::custom)
        }
    }
}
