//! The games of the registry: Othello, Jungle and the toys of the testing
//! kit, each with its knowledge and its text.

use bitboard_othello::{
    Board, CornerFirstPlayout, HeuristicEvaluator, HeuristicPolicy, MAX_PLIES, Move, RandomPlayout,
    Transcript,
};
use game_traits::testing::{Nim, NimMove, TicTacToe, TicTacToeHeuristic};
use game_traits::{OutcomeEvaluator, Player, PositionHash, UniformPlayout, UniformPrior};
use gomoku::{Focused, FocusedPlayout, Gomoku, PatternEvaluator, PatternPolicy, ThreatPlayout};
use jungle::{Jungle, JungleEvaluator, JunglePlayout};

use crate::registry::{
    BoxedSearcher, GameSetup, InputError, NetKnowledge, RegistryError, RegistryGame, SearcherSpec,
    load_network, othello_solver,
};

/// A cell of a drawn board: the content, bracketed when it is the last
/// move's square.
fn cell(content: char, last: bool) -> String {
    if last {
        format!("[{content}]")
    } else {
        format!(" {content} ")
    }
}

fn bad_move(text: &str, error: impl std::fmt::Display) -> InputError {
    InputError::BadMove {
        text: text.to_string(),
        reason: error.to_string(),
    }
}

fn bad_position(text: &str, error: impl std::fmt::Display) -> InputError {
    InputError::BadPosition {
        text: text.to_string(),
        reason: error.to_string(),
    }
}

impl RegistryGame for Board {
    const NAME: &'static str = "othello";
    const SUMMARY: &'static str = "Othello on bitboards (bitboard-othello); moves a1..h8, pass";
    const HASH: Option<fn(&Self) -> u64> = Some(Self::position_hash);
    const RAVE_EXPLORATION: f32 = mcts_rave::Rave::OTHELLO_EXPLORATION;

    type RandomPlayout = RandomPlayout;
    type HeuristicPlayout = CornerFirstPlayout;
    type Evaluator = HeuristicEvaluator;
    type Policy = HeuristicPolicy;

    fn start() -> Board {
        Board::start()
    }

    /// An NBoard engine (Edax) as `nboard:cmd=...`.
    fn setup() -> GameSetup<Self> {
        GameSetup::new().searcher(&crate::engine::NBOARD_INFO, crate::engine::nboard_factory)
    }

    fn random_playout() -> RandomPlayout {
        RandomPlayout
    }

    fn heuristic_playout() -> CornerFirstPlayout {
        CornerFirstPlayout::default()
    }

    fn evaluator() -> HeuristicEvaluator {
        HeuristicEvaluator::default()
    }

    fn policy() -> HeuristicPolicy {
        HeuristicPolicy::default()
    }

    fn load_net(path: &str) -> Result<std::sync::Arc<dyn NetKnowledge<Self>>, RegistryError> {
        load_network::<Self>(path)
    }

    fn max_plies() -> usize {
        MAX_PLIES
    }

    fn parse_move(&self, text: &str) -> Result<Move, InputError> {
        text.parse().map_err(|error| bad_move(text, error))
    }

    fn move_text(mv: Move) -> String {
        mv.to_string()
    }

    fn parse_position(text: &str) -> Result<Board, InputError> {
        text.parse().map_err(|error| bad_position(text, error))
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn draw(&self, last: Option<Move>) -> String {
        let legal = self.mobility();
        let last = last.and_then(Move::square);
        let mut out = String::from("   a  b  c  d  e  f  g  h\n");
        for row in 0..8 {
            out.push_str(&format!("{} ", row + 1));
            for col in 0..8 {
                let bit = 1u64 << (row * 8 + col);
                let content = if self.black() & bit != 0 {
                    'X'
                } else if self.white() & bit != 0 {
                    'O'
                } else if legal & bit != 0 {
                    '*'
                } else {
                    '.'
                };
                let is_last = last.is_some_and(|square| square.index() == row * 8 + col);
                out.push_str(&cell(content, is_last));
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "X (Black) {}, O (White) {}; * marks the legal moves\n",
            self.disc_count(Player::First),
            self.disc_count(Player::Second)
        ));
        out
    }

    fn record(start: &Board, moves: &[Move]) -> String {
        let mut transcript = Transcript::new(start.clone());
        for &mv in moves {
            if transcript.push(mv).is_err() {
                break;
            }
        }
        if *start == Board::start() {
            transcript.to_string()
        } else {
            format!("{start}\n{transcript}")
        }
    }

    fn own_searcher(spec: &SearcherSpec) -> Option<BoxedSearcher<Board>> {
        othello_solver(spec)
    }
}

impl RegistryGame for Jungle {
    const NAME: &'static str = "jungle";
    const SUMMARY: &'static str =
        "Jungle (Dou Shou Qi) with the standard rules (jungle); moves like a3a4";
    const HASH: Option<fn(&Self) -> u64> = Some(Self::position_hash);

    type RandomPlayout = UniformPlayout;
    type HeuristicPlayout = JunglePlayout;
    type Evaluator = JungleEvaluator;
    type Policy = UniformPrior<JungleEvaluator>;

    fn start() -> Jungle {
        Jungle::new()
    }

    fn random_playout() -> UniformPlayout {
        UniformPlayout
    }

    fn heuristic_playout() -> JunglePlayout {
        JunglePlayout::default()
    }

    fn evaluator() -> JungleEvaluator {
        JungleEvaluator::default()
    }

    fn policy() -> UniformPrior<JungleEvaluator> {
        UniformPrior(JungleEvaluator::default())
    }

    fn load_net(path: &str) -> Result<std::sync::Arc<dyn NetKnowledge<Self>>, RegistryError> {
        load_network::<Self>(path)
    }

    fn max_plies() -> usize {
        // The standard rules draw after 100 plies without a capture and on
        // repetition; this only bounds a game that keeps capturing.
        600
    }

    fn parse_move(&self, text: &str) -> Result<jungle::Move, InputError> {
        text.parse().map_err(|error| bad_move(text, error))
    }

    fn move_text(mv: jungle::Move) -> String {
        mv.to_string()
    }

    fn parse_position(text: &str) -> Result<Jungle, InputError> {
        text.parse().map_err(|error| bad_position(text, error))
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn draw(&self, last: Option<jungle::Move>) -> String {
        let mut out = String::from("   a  b  c  d  e  f  g\n");
        for row in (0..9u8).rev() {
            out.push_str(&format!("{} ", row + 1));
            for col in 0..7u8 {
                let square = jungle::Square::from_coords(col, row).expect("on the board");
                let content = match self.piece_at(square) {
                    Some(piece) => piece.letter(),
                    None if square.is_water() => '~',
                    None if square.is_den_of(Player::First) || square.is_den_of(Player::Second) => {
                        '@'
                    }
                    None if square.is_trap_of(Player::First)
                        || square.is_trap_of(Player::Second) =>
                    {
                        '#'
                    }
                    None => '.',
                };
                let is_last = last.is_some_and(|mv| mv.to() == square);
                out.push_str(&cell(content, is_last));
            }
            out.push('\n');
        }
        out.push_str(
            "upper case: first player (moves up), lower case: second; ~ water, # trap, @ den\n",
        );
        out
    }

    fn record(start: &Jungle, moves: &[jungle::Move]) -> String {
        let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
        format!("{start}\n{}", moves.join(" "))
    }
}

impl RegistryGame for TicTacToe {
    const NAME: &'static str = "tictactoe";
    const SUMMARY: &'static str = "tic-tac-toe (the testing kit's toy); moves are squares 0..8";
    const HASH: Option<fn(&Self) -> u64> = Some(Self::position_hash);

    type RandomPlayout = UniformPlayout;
    type HeuristicPlayout = UniformPlayout;
    type Evaluator = TicTacToeHeuristic;
    type Policy = UniformPrior<TicTacToeHeuristic>;

    fn start() -> TicTacToe {
        TicTacToe::new()
    }

    fn random_playout() -> UniformPlayout {
        UniformPlayout
    }

    fn heuristic_playout() -> UniformPlayout {
        UniformPlayout
    }

    fn evaluator() -> TicTacToeHeuristic {
        TicTacToeHeuristic
    }

    fn policy() -> UniformPrior<TicTacToeHeuristic> {
        UniformPrior(TicTacToeHeuristic)
    }

    fn load_net(path: &str) -> Result<std::sync::Arc<dyn NetKnowledge<Self>>, RegistryError> {
        load_network::<Self>(path)
    }

    fn max_plies() -> usize {
        9
    }

    fn parse_move(&self, text: &str) -> Result<u8, InputError> {
        text.parse::<u8>()
            .ok()
            .filter(|&square| square < 9)
            .ok_or_else(|| bad_move(text, "expected a square 0..8, row by row from the top left"))
    }

    fn move_text(square: u8) -> String {
        square.to_string()
    }

    fn parse_position(text: &str) -> Result<TicTacToe, InputError> {
        text.parse().map_err(|error| bad_position(text, error))
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn draw(&self, last: Option<u8>) -> String {
        let mut out = String::new();
        for row in 0..3u8 {
            for col in 0..3u8 {
                let square = row * 3 + col;
                let content = match self.stone(square) {
                    Some(Player::First) => 'x',
                    Some(Player::Second) => 'o',
                    None => char::from(b'0' + square),
                };
                out.push_str(&cell(content, last == Some(square)));
            }
            out.push('\n');
        }
        out
    }

    fn record(_start: &TicTacToe, moves: &[u8]) -> String {
        moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl RegistryGame for Nim {
    const NAME: &'static str = "nim";
    const SUMMARY: &'static str =
        "Nim 3,4,5 with the extra-turn rule (testing kit); moves heap:take, heaps from 0";
    const HASH: Option<fn(&Self) -> u64> = Some(Self::position_hash);

    type RandomPlayout = UniformPlayout;
    type HeuristicPlayout = UniformPlayout;
    type Evaluator = OutcomeEvaluator;
    type Policy = UniformPrior<OutcomeEvaluator>;

    fn start() -> Nim {
        Nim::with_extra_turns(&[3, 4, 5])
    }

    fn random_playout() -> UniformPlayout {
        UniformPlayout
    }

    fn heuristic_playout() -> UniformPlayout {
        UniformPlayout
    }

    fn evaluator() -> OutcomeEvaluator {
        OutcomeEvaluator
    }

    fn policy() -> UniformPrior<OutcomeEvaluator> {
        UniformPrior(OutcomeEvaluator)
    }

    fn max_plies() -> usize {
        200
    }

    fn parse_move(&self, text: &str) -> Result<NimMove, InputError> {
        let (heap, take) = text
            .split_once(':')
            .ok_or_else(|| bad_move(text, "expected heap:take, like 0:2"))?;
        let number = |part: &str| {
            part.trim()
                .parse::<u8>()
                .map_err(|_| bad_move(text, format!("{part:?} is not a number")))
        };
        Ok(NimMove {
            heap: number(heap)?,
            take: number(take)?,
        })
    }

    fn move_text(mv: NimMove) -> String {
        format!("{}:{}", mv.heap, mv.take)
    }

    fn parse_position(text: &str) -> Result<Nim, InputError> {
        text.parse().map_err(|error| bad_position(text, error))
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn draw(&self, last: Option<NimMove>) -> String {
        let mut out = String::new();
        for (heap, &size) in self.heaps().iter().enumerate() {
            let marker = if last.is_some_and(|mv| usize::from(mv.heap) == heap) {
                " <- last move"
            } else {
                ""
            };
            out.push_str(&format!(
                "heap {heap}: {:<15} ({size}){marker}\n",
                "|".repeat(usize::from(size))
            ));
        }
        out
    }

    fn record(start: &Nim, moves: &[NimMove]) -> String {
        let moves: Vec<String> = moves.iter().map(|&mv| Nim::move_text(mv)).collect();
        format!("{start}\n{}", moves.join(" "))
    }
}

impl RegistryGame for Focused {
    const NAME: &'static str = "gomoku";
    const SUMMARY: &'static str =
        "Gomoku 15x15 freestyle, searchers see the cells near stones (gomoku); moves like h8";
    const HASH: Option<fn(&Self) -> u64> = Some(Self::position_hash);

    type RandomPlayout = FocusedPlayout;
    type HeuristicPlayout = ThreatPlayout;
    type Evaluator = PatternEvaluator;
    type Policy = PatternPolicy;

    fn start() -> Focused {
        Focused::new(Gomoku::new())
    }

    /// A Gomocup brain (Rapfi) as `pbrain:cmd=...`.
    fn setup() -> GameSetup<Self> {
        GameSetup::new().searcher(&crate::engine::PBRAIN_INFO, crate::engine::pbrain_factory)
    }

    fn random_playout() -> FocusedPlayout {
        FocusedPlayout
    }

    fn heuristic_playout() -> ThreatPlayout {
        ThreatPlayout
    }

    fn evaluator() -> PatternEvaluator {
        PatternEvaluator::default()
    }

    fn policy() -> PatternPolicy {
        PatternPolicy::default()
    }

    fn load_net(path: &str) -> Result<std::sync::Arc<dyn NetKnowledge<Self>>, RegistryError> {
        load_network::<Self>(path)
    }

    fn max_plies() -> usize {
        // A full 15x15 board is a draw.
        15 * 15 + 1
    }

    fn parse_move(&self, text: &str) -> Result<gomoku::Move, InputError> {
        text.parse().map_err(|error| bad_move(text, error))
    }

    fn move_text(mv: gomoku::Move) -> String {
        mv.to_string()
    }

    fn parse_position(text: &str) -> Result<Focused, InputError> {
        text.parse().map_err(|error| bad_position(text, error))
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn draw(&self, last: Option<gomoku::Move>) -> String {
        let game = self.game();
        let size = game.size();
        let columns: String = (0..size)
            .map(|x| format!(" {} ", char::from(b'a' + x as u8)))
            .collect();
        let mut out = format!("   {columns}\n");
        for y in (0..size).rev() {
            out.push_str(&format!("{:>2} ", y + 1));
            for x in 0..size {
                let mv = gomoku::Move::new(x as u8, y as u8);
                let content = match game.stone(mv) {
                    Some(Player::First) => 'X',
                    Some(Player::Second) => 'O',
                    None => '.',
                };
                out.push_str(&cell(content, last == Some(mv)));
            }
            out.push('\n');
        }
        out.push_str(&format!(
            "X: Black (first), O: White; rule {}\n",
            game.rule()
        ));
        out
    }

    fn record(start: &Focused, moves: &[gomoku::Move]) -> String {
        let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
        format!("{start}\n{}", moves.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::parse_legal_move;
    use game_traits::Game;

    #[test]
    fn moves_and_positions_round_trip() {
        let board = Board::start();
        let mv = parse_legal_move(&board, "F5").unwrap();
        assert_eq!(Board::move_text(mv), "f5");
        assert!(matches!(
            parse_legal_move(&board, "a1"),
            Err(InputError::IllegalMove { .. })
        ));
        assert!(matches!(
            parse_legal_move(&board, "z9"),
            Err(InputError::BadMove { .. })
        ));
        let jungle = Jungle::new();
        assert!(parse_legal_move(&jungle, "a3a4").is_ok());
        assert!(parse_legal_move(&jungle, "a3").is_err());
        let nim = Nim::start();
        assert_eq!(
            parse_legal_move(&nim, "2:5").unwrap(),
            NimMove { heap: 2, take: 5 }
        );
        assert!(parse_legal_move(&nim, "2:6").is_err());
        assert!(parse_legal_move(&nim, "x").is_err());
        assert!(parse_legal_move(&TicTacToe::new(), "9").is_err());
        let text = Board::start().position_text();
        assert_eq!(Board::parse_position(&text).unwrap(), Board::start());
        assert!(Jungle::parse_position("nonsense").is_err());
    }

    #[test]
    fn drawings_mark_the_last_move_and_records_replay() {
        let mut board = Board::start();
        let f5: Move = "f5".parse().unwrap();
        board.play(f5);
        let drawing = board.draw(Some(f5));
        assert!(drawing.contains("[X]"), "{drawing}");
        assert!(drawing.starts_with("   a  b"), "{drawing}");
        assert_eq!(Board::record(&Board::start(), &[f5]), "f5");
        let mut jungle = Jungle::new();
        let step: jungle::Move = "a3a4".parse().unwrap();
        jungle.play(step);
        assert!(jungle.draw(Some(step)).contains("[E]"));
        let record = Jungle::record(&Jungle::new(), &[step]);
        assert!(record.ends_with("\na3a4"), "{record}");
        assert!(TicTacToe::new().draw(None).contains(" 4 "));
    }
}
