//! Transcripts (`f5d6c3d3c4`) and OBF problem lines
//! (`<board> <side>; <move>:<score>; ...`).

use std::fmt;
use std::str::FromStr;

use game_traits::Game;

use crate::board::ParseBoardError;
use crate::square::square_prefix;
use crate::{Board, Move, ParseMoveError};

/// A game record: a start position and the moves played from it.
///
/// Text form: the moves concatenated, `f5d6c3d3c4`. On input, moves may be
/// in either case and separated by whitespace; a forced pass may be written
/// (`pass` or `pa`) or left out, as game databases do. On output, passes
/// are left out.
///
/// ```
/// use bitboard_othello::{Board, Transcript};
///
/// let game: Transcript = "f5d6C3 d3c4".parse()?;
/// assert_eq!(game.moves().len(), 5);
/// assert_eq!(game.to_string(), "f5d6c3d3c4");
/// let error = "f5d6d6".parse::<Transcript>().unwrap_err();
/// assert_eq!(error.to_string(), "illegal move d6 at ply 3 (column 5)");
/// # Ok::<(), bitboard_othello::TranscriptError>(())
/// ```
///
/// With the `serde` feature a transcript serializes as its start position
/// and its moves, passes included, and deserializes through
/// [`Transcript::from_moves`]: every move must be legal where it is played.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "TranscriptRaw")
)]
pub struct Transcript {
    start: Board,
    moves: Vec<Move>,
}

impl Default for Transcript {
    fn default() -> Self {
        Transcript::new(Board::start())
    }
}

/// A transcript that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TranscriptError {
    /// Text that is not a move name.
    #[error("bad move {found:?} at ply {ply} (column {column}): expected a1..h8 or pass")]
    BadMove {
        /// The ply (1-based, counting passes the text leaves out).
        ply: usize,
        /// The character offset in the text, from 1.
        column: usize,
        /// The text found there (at most two characters).
        found: String,
    },
    /// A move that is not legal in the position reached.
    #[error("illegal move {mv} at ply {ply} (column {column})")]
    IllegalMove {
        /// The ply (1-based, counting passes the text leaves out).
        ply: usize,
        /// The character offset in the text, from 1.
        column: usize,
        /// The move.
        mv: Move,
        /// The position it was offered to.
        board: Board,
    },
    /// A move after the end of the game.
    #[error("move {mv} at ply {ply} (column {column}) comes after the end of the game")]
    GameOver {
        /// The ply (1-based).
        ply: usize,
        /// The character offset in the text, from 1.
        column: usize,
        /// The move.
        mv: Move,
    },
    /// A move of a move list (passes included, as
    /// [`Transcript::from_moves`] takes them) that is not legal where it is
    /// played: occupied, flipping nothing, a pass that is not forced, or
    /// after the end of the game.
    #[error("recorded move {mv} at ply {ply} is not legal in {board}")]
    IllegalRecordedMove {
        /// The ply (1-based).
        ply: usize,
        /// The move.
        mv: Move,
        /// The position it was played in.
        board: Board,
    },
}

impl Transcript {
    /// An empty record starting at `start`.
    #[must_use]
    pub fn new(start: Board) -> Transcript {
        Transcript {
            start,
            moves: Vec::new(),
        }
    }

    /// Reads moves played from `start` (see the type's documentation).
    ///
    /// # Errors
    ///
    /// [`TranscriptError`] naming the ply and column of a bad or illegal
    /// move.
    pub fn parse_from(start: &Board, text: &str) -> Result<Transcript, TranscriptError> {
        let mut transcript = Transcript::new(start.clone());
        let mut board = start.clone();
        let bytes = text.as_bytes();
        let mut offset = 0;
        while offset < bytes.len() {
            let rest = &bytes[offset..];
            if rest[0].is_ascii_whitespace() {
                offset += 1;
                continue;
            }
            let column = text[..offset].chars().count() + 1;
            let ply = transcript.moves.len() + 1;
            let (mv, length) = if rest.len() >= 4 && rest[..4].eq_ignore_ascii_case(b"pass") {
                (Move::Pass, 4)
            } else if rest.len() >= 2 && rest[..2].eq_ignore_ascii_case(b"pa") {
                (Move::Pass, 2)
            } else if let Some(square) = square_prefix(rest) {
                (Move::Place(square), 2)
            } else {
                let found: String = text[offset..].chars().take(2).collect();
                return Err(TranscriptError::BadMove { ply, column, found });
            };
            if board.is_game_over() {
                return Err(TranscriptError::GameOver { ply, column, mv });
            }
            // A forced pass the text leaves out.
            if !mv.is_pass() && board.is_legal(Move::Pass) {
                board.play(Move::Pass);
                transcript.moves.push(Move::Pass);
            }
            let ply = transcript.moves.len() + 1;
            if !board.is_legal(mv) {
                return Err(TranscriptError::IllegalMove {
                    ply,
                    column,
                    mv,
                    board,
                });
            }
            board.play(mv);
            transcript.moves.push(mv);
            offset += length;
        }
        Ok(transcript)
    }

    /// The record of `moves` (passes included, none left out) played from
    /// `start`.
    ///
    /// # Errors
    ///
    /// [`TranscriptError::IllegalRecordedMove`] for the first move that is
    /// not legal where it is played.
    pub fn from_moves(start: Board, moves: Vec<Move>) -> Result<Transcript, TranscriptError> {
        let mut board = start.clone();
        for (index, &mv) in moves.iter().enumerate() {
            if !board.is_legal(mv) {
                return Err(TranscriptError::IllegalRecordedMove {
                    ply: index + 1,
                    mv,
                    board,
                });
            }
            board.play(mv);
        }
        Ok(Transcript { start, moves })
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The moves, passes included.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The position after every move.
    #[must_use]
    pub fn board(&self) -> Board {
        let mut board = self.start.clone();
        for &mv in &self.moves {
            board.play(mv);
        }
        board
    }

    /// Appends `mv` if it is legal after the moves so far.
    ///
    /// # Errors
    ///
    /// The refusal from [`Game::try_play`]; the record is then unchanged.
    pub fn push(&mut self, mv: Move) -> Result<(), game_traits::IllegalMove<Move>> {
        self.board().try_play(mv)?;
        self.moves.push(mv);
        Ok(())
    }
}

impl FromStr for Transcript {
    type Err = TranscriptError;

    /// Reads moves played from the start position.
    fn from_str(text: &str) -> Result<Transcript, TranscriptError> {
        Transcript::parse_from(&Board::start(), text)
    }
}

impl fmt::Display for Transcript {
    /// The moves concatenated, lower case, passes left out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for mv in self.moves.iter().filter(|mv| !mv.is_pass()) {
            write!(f, "{mv}")?;
        }
        Ok(())
    }
}

/// An OBF problem line: a position and, optionally, moves with their exact
/// scores (final disc difference for the side to move under perfect play).
///
/// ```
/// use bitboard_othello::{Move, ObfProblem, Square};
///
/// let line = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C6:+28;";
/// let problem: ObfProblem = line.parse()?;
/// assert_eq!(problem.board.empty_count(), 20);
/// assert_eq!(problem.scores[0], (Move::Place(Square::A2), 38));
/// assert_eq!(problem.best_score(), Some(38));
/// # Ok::<(), bitboard_othello::ObfError>(())
/// ```
///
/// [`ObfProblem::new`] and [`FromStr`] accept the same problems: every
/// listed move legal in the position (a pass only where it is forced), every
/// score in `-64..=64`. With the `serde` feature, deserialization goes
/// through [`ObfProblem::new`] too.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "ObfProblemRaw")
)]
pub struct ObfProblem {
    /// The position.
    pub board: Board,
    /// Moves with their scores, in the order given.
    pub scores: Vec<(Move, i32)>,
}

/// An OBF line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ObfError {
    /// The board or side is malformed.
    #[error("bad OBF position: {0}")]
    Board(#[from] ParseBoardError),
    /// Something other than `;` follows the side to move.
    #[error("expected ';' after the side to move, found {found:?}")]
    MissingSemicolon {
        /// What was found.
        found: String,
    },
    /// A move:score pair without the `:`.
    #[error("move/score pair {pair} ({text:?}) has no ':'")]
    MissingColon {
        /// The pair number, from 1.
        pair: usize,
        /// The pair's text.
        text: String,
    },
    /// The move of a pair is malformed.
    #[error("move/score pair {pair}: {source}")]
    BadMove {
        /// The pair number, from 1.
        pair: usize,
        /// What is wrong with the move.
        source: ParseMoveError,
    },
    /// The move of a pair is not legal in the position.
    #[error("move/score pair {pair}: {mv} is not legal in the position")]
    IllegalMove {
        /// The pair number, from 1.
        pair: usize,
        /// The move.
        mv: Move,
    },
    /// The score of a pair is not an integer in `-64..=64`.
    #[error("move/score pair {pair}: bad score {text:?} (expected an integer from -64 to +64)")]
    BadScore {
        /// The pair number, from 1.
        pair: usize,
        /// The score's text.
        text: String,
    },
}

impl ObfProblem {
    /// A problem: `board` and moves with their scores.
    ///
    /// # Errors
    ///
    /// [`ObfError::IllegalMove`] for a move that is not legal in `board`,
    /// [`ObfError::BadScore`] for a score outside `-64..=64`, naming the
    /// first bad pair (from 1), as [`FromStr`] does.
    pub fn new(board: Board, scores: Vec<(Move, i32)>) -> Result<ObfProblem, ObfError> {
        for (index, &(mv, score)) in scores.iter().enumerate() {
            check_pair(&board, index + 1, mv, score, || score.to_string())?;
        }
        Ok(ObfProblem { board, scores })
    }

    /// The best listed score, if any.
    #[must_use]
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|&(_, score)| score).max()
    }

    /// The listed moves with the best score.
    #[must_use]
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.best_score();
        self.scores
            .iter()
            .filter(|&&(_, score)| Some(score) == best)
            .map(|&(mv, _)| mv)
            .collect()
    }
}

impl FromStr for ObfProblem {
    type Err = ObfError;

    /// Reads `<64 squares> <side>;` then any number of `<move>:<score>;`
    /// pairs (the last `;` optional). Whitespace between items is ignored;
    /// a `%` starts a comment that runs to the end of the line.
    fn from_str(line: &str) -> Result<ObfProblem, ObfError> {
        let line = line.split('%').next().unwrap_or("");
        let (board, rest) = Board::parse_prefix(line)?;
        let rest = rest.trim();
        if rest.is_empty() {
            return Ok(ObfProblem {
                board,
                scores: Vec::new(),
            });
        }
        let Some(pairs) = rest.strip_prefix(';') else {
            return Err(ObfError::MissingSemicolon {
                found: rest.to_string(),
            });
        };
        let mut scores = Vec::new();
        for (index, text) in pairs.split(';').map(str::trim).enumerate() {
            let pair = index + 1;
            if text.is_empty() {
                continue;
            }
            let Some((move_text, score_text)) = text.split_once(':') else {
                return Err(ObfError::MissingColon {
                    pair,
                    text: text.to_string(),
                });
            };
            let mv: Move = move_text
                .parse()
                .map_err(|source| ObfError::BadMove { pair, source })?;
            let score_text = score_text.trim();
            let score = score_text.parse::<i32>().map_err(|_| ObfError::BadScore {
                pair,
                text: score_text.to_string(),
            })?;
            check_pair(&board, pair, mv, score, || score_text.to_string())?;
            scores.push((mv, score));
        }
        Ok(ObfProblem { board, scores })
    }
}

/// The checks of one move/score pair (number `pair`, from 1), shared by
/// [`ObfProblem::new`] and [`FromStr`]; `score_text` writes the score as
/// the error should quote it.
fn check_pair(
    board: &Board,
    pair: usize,
    mv: Move,
    score: i32,
    score_text: impl FnOnce() -> String,
) -> Result<(), ObfError> {
    if !board.is_legal(mv) {
        return Err(ObfError::IllegalMove { pair, mv });
    }
    if !(-64..=64).contains(&score) {
        return Err(ObfError::BadScore {
            pair,
            text: score_text(),
        });
    }
    Ok(())
}

/// A serialized [`Transcript`] before its moves are replayed.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "Transcript")]
struct TranscriptRaw {
    start: Board,
    moves: Vec<Move>,
}

#[cfg(feature = "serde")]
impl TryFrom<TranscriptRaw> for Transcript {
    type Error = TranscriptError;

    fn try_from(raw: TranscriptRaw) -> Result<Self, TranscriptError> {
        Transcript::from_moves(raw.start, raw.moves)
    }
}

/// A serialized [`ObfProblem`] before its pairs are checked.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "ObfProblem")]
struct ObfProblemRaw {
    board: Board,
    scores: Vec<(Move, i32)>,
}

#[cfg(feature = "serde")]
impl TryFrom<ObfProblemRaw> for ObfProblem {
    type Error = ObfError;

    fn try_from(raw: ObfProblemRaw) -> Result<Self, ObfError> {
        ObfProblem::new(raw.board, raw.scores)
    }
}

impl fmt::Display for ObfProblem {
    /// `<board> <side>;` then ` <MOVE>:<score>;` for each pair, moves in
    /// upper case and scores signed, as OBF files write them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", self.board)?;
        for (mv, score) in &self.scores {
            let name = match mv {
                Move::Place(square) => square.to_string().to_uppercase(),
                Move::Pass => "PA".to_string(),
            };
            write!(f, " {name}:{score:+};")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    #[test]
    fn transcripts_insert_forced_passes() {
        // A short game in which White has to pass: find one by replaying
        // random games and check that leaving the passes out reads back.
        use rand::SeedableRng;
        let mut with_pass = 0;
        let mut moves = Vec::new();
        for seed in 0..300 {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            let mut board = Board::start();
            let mut record = Transcript::default();
            loop {
                board.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rand::RngExt::random_range(&mut rng, ..moves.len())];
                board.play(mv);
                record.push(mv).unwrap();
            }
            let text = record.to_string();
            let back: Transcript = text.parse().unwrap();
            assert_eq!(back, record, "{text}");
            assert_eq!(back.board(), board);
            if record.moves().contains(&Move::Pass) {
                with_pass += 1;
                let explicit: String = record
                    .moves()
                    .iter()
                    .map(|mv| match mv {
                        Move::Pass => "PA".to_string(),
                        other => other.to_string(),
                    })
                    .collect();
                assert_eq!(explicit.parse::<Transcript>().unwrap(), record);
            }
        }
        assert!(with_pass > 0);
    }

    #[test]
    fn transcript_errors_name_the_ply() {
        assert_eq!(
            "f5 d6 zz".parse::<Transcript>(),
            Err(TranscriptError::BadMove {
                ply: 3,
                column: 7,
                found: "zz".to_string()
            })
        );
        let error = "f5f5".parse::<Transcript>().unwrap_err();
        assert!(matches!(
            error,
            TranscriptError::IllegalMove {
                ply: 2,
                column: 3,
                ..
            }
        ));
        assert!(matches!(
            "pass".parse::<Transcript>(),
            Err(TranscriptError::IllegalMove { ply: 1, .. })
        ));
        assert!(matches!(
            "f5d".parse::<Transcript>(),
            Err(TranscriptError::BadMove { ply: 2, .. })
        ));
        assert_eq!("".parse::<Transcript>().map(|t| t.moves().len()), Ok(0));
    }

    #[test]
    fn obf_lines_round_trip_and_reject_junk() {
        let line =
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C6:+28;";
        let problem: ObfProblem = line.parse().unwrap();
        assert_eq!(problem.to_string(), line);
        assert_eq!(problem.best_moves(), [Move::Place(Square::A2)]);
        let board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
        assert_eq!(board.parse::<ObfProblem>().map(|p| p.scores.len()), Ok(0));
        assert!(matches!(
            format!("{board} junk").parse::<ObfProblem>(),
            Err(ObfError::MissingSemicolon { .. })
        ));
        assert!(matches!(
            format!("{}; A2:+38", &board[..60]).parse::<ObfProblem>(),
            Err(ObfError::Board(_))
        ));
        assert!(matches!(
            format!("{board}, A2:+38").parse::<ObfProblem>(),
            Err(ObfError::Board(_))
        ));
        assert!(matches!(
            format!("{board}; A2+38").parse::<ObfProblem>(),
            Err(ObfError::MissingColon { pair: 1, .. })
        ));
        assert!(matches!(
            format!("{board}; A2:+38; Z9:+1").parse::<ObfProblem>(),
            Err(ObfError::BadMove { pair: 2, .. })
        ));
        assert!(matches!(
            format!("{board}; A1:+38").parse::<ObfProblem>(),
            Err(ObfError::IllegalMove { pair: 1, .. })
        ));
        assert!(matches!(
            format!("{board}; A2:+99").parse::<ObfProblem>(),
            Err(ObfError::BadScore { pair: 1, .. })
        ));
        assert!(matches!(
            format!("{board}; A2:x").parse::<ObfProblem>(),
            Err(ObfError::BadScore { pair: 1, .. })
        ));
        assert!(format!("{board} % comment").parse::<ObfProblem>().is_ok());
    }
}
