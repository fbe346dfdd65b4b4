//! The games of the registry: Othello, Jungle and the toys of the testing
//! kit, each with its knowledge and its text.

use bitboard_othello::{
    Board, CornerFirstPlayout, HeuristicEvaluator, MAX_PLIES, Move, RandomPlayout, Transcript,
};
use dou_shou_qi::{Jungle, JungleEvaluator, JunglePlayout};
use game_traits::testing::{Nim, NimMove, TicTacToe, TicTacToeHeuristic};
use game_traits::{
    Game, Outcome, OutcomeEvaluator, Player, PositionHash, UniformPlayout, UniformPrior,
};
use gomoku_renju::{
    Focused, FocusedPlayout, Gomoku, GomokuGame, PatternEvaluator, PatternPolicy, Rule,
    ThreatPlayout,
};

use crate::registry::{
    BoxedSearcher, GOMOKU_ADJUDICATION_NODES, GameFile, GameInfo, GameSetup, InputError,
    NetKnowledge, OTHELLO_ADJUDICATION_EMPTIES, Opening, RegistryError, RegistryGame, SearcherSpec,
    Verdict, bad_opening, check_opening, load_network, othello_solver, parse_move_list,
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

    /// Alpha-beta on the pattern evaluator: at 200 ms a move it won 40 of
    /// 40 games against `rave:iters=50000`; with late move reductions it
    /// scored 61.0% over 300 games against itself without them, at 100 ms
    /// a move.
    const DEFAULT_ENGINE: &'static str = "alphabeta:ms=1000,lmr=on";

    type RandomPlayout = RandomPlayout;
    type HeuristicPlayout = CornerFirstPlayout;
    type Evaluator = bitboard_othello::PatternEvaluator;
    type Policy = bitboard_othello::PatternPolicy;

    fn start() -> Board {
        Board::start()
    }

    /// An NBoard engine (Edax) as `nboard:cmd=...`, and the evaluators by
    /// name: the shipped pattern weights (the default) and the
    /// hand-weighted heuristic.
    fn setup() -> GameSetup<Self> {
        GameSetup::new()
            .searcher(&crate::engine::NBOARD_INFO, crate::engine::nboard_factory)
            .evaluator(
                "pattern",
                "pattern tables fitted to solved and searched positions (the default)",
                bitboard_othello::PatternEvaluator::default(),
            )
            .evaluator(
                "heuristic",
                "mobility, corners and square weights, weighted by hand",
                HeuristicEvaluator::default(),
            )
    }

    fn random_playout() -> RandomPlayout {
        RandomPlayout
    }

    fn heuristic_playout() -> CornerFirstPlayout {
        CornerFirstPlayout::default()
    }

    fn evaluator() -> bitboard_othello::PatternEvaluator {
        bitboard_othello::PatternEvaluator::default()
    }

    fn policy() -> bitboard_othello::PatternPolicy {
        bitboard_othello::PatternPolicy::default()
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

    /// A board and side (`<64 squares> <side>`, as in OBF files; scores
    /// after the `;` and a `%` comment are ignored) or a move transcript
    /// from the start, with or without spaces (`f5d6c3d3c4`, as in the XOT
    /// lists).
    fn parse_opening(line: &str) -> Result<Opening<Board>, InputError> {
        let line = line.split('%').next().unwrap_or("").trim();
        let position = line.split(';').next().unwrap_or("").trim();
        let opening = match position.parse::<Board>() {
            Ok(board) => Opening {
                from: Some(board),
                moves: Vec::new(),
            },
            Err(board_error) => match Transcript::parse_from(&Board::start(), line) {
                Ok(transcript) => Opening {
                    from: None,
                    moves: transcript.moves().to_vec(),
                },
                Err(moves_error) => {
                    return Err(bad_opening(
                        line,
                        format!(
                            "neither a board ({board_error}) nor moves from the start ({moves_error})"
                        ),
                    ));
                }
            },
        };
        check_opening(line, opening)
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

    /// GGF, `RE` the disc difference for Black of a finished game, else
    /// `+1`, `-1` or `0` for the result scored (a forfeit or a verdict),
    /// or `?` if unfinished.
    fn game_file(start: &Board, moves: &[Move], info: &GameInfo<'_>) -> Option<GameFile> {
        let mut end = start.clone();
        for &mv in moves {
            game_traits::Game::play(&mut end, mv);
        }
        let result = if game_traits::Game::is_over(&end) {
            let discs = i64::from(end.black().count_ones()) - i64::from(end.white().count_ones());
            format!("{discs:+}")
        } else {
            match info.outcome {
                Some(Outcome::Win(Player::First)) => "+1".to_string(),
                Some(Outcome::Win(Player::Second)) => "-1".to_string(),
                Some(Outcome::Draw) => "0".to_string(),
                None => "?".to_string(),
            }
        };
        Some(GameFile {
            extension: "ggf",
            text: crate::engine::ggf_game(start, moves, [info.first, info.second], &result),
        })
    }

    fn adjudicate(&self) -> Option<Verdict> {
        let empties = self.empty_count();
        if empties > OTHELLO_ADJUDICATION_EMPTIES || game_traits::Game::is_over(self) {
            return None;
        }
        let score = bitboard_othello::solve(self).score;
        let mover = game_traits::Game::to_move(self);
        let outcome = match score.signum() {
            1 => Outcome::Win(mover),
            -1 => Outcome::Win(mover.opponent()),
            _ => Outcome::Draw,
        };
        Some(Verdict {
            outcome,
            reason: format!(
                "solved exactly at {empties} empties: {score:+} discs for the side to move ({})",
                if mover == Player::First {
                    "Black"
                } else {
                    "White"
                }
            ),
        })
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

    fn parse_move(&self, text: &str) -> Result<dou_shou_qi::Move, InputError> {
        text.parse().map_err(|error| bad_move(text, error))
    }

    fn move_text(mv: dou_shou_qi::Move) -> String {
        mv.to_string()
    }

    fn parse_position(text: &str) -> Result<Jungle, InputError> {
        text.parse().map_err(|error| bad_position(text, error))
    }

    fn position_text(&self) -> String {
        self.to_string()
    }

    fn draw(&self, last: Option<dou_shou_qi::Move>) -> String {
        let mut out = String::from("   a  b  c  d  e  f  g\n");
        for row in (0..9u8).rev() {
            out.push_str(&format!("{} ", row + 1));
            for col in 0..7u8 {
                let square = dou_shou_qi::Square::from_coords(col, row).expect("on the board");
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

    fn record(start: &Jungle, moves: &[dou_shou_qi::Move]) -> String {
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

/// The Gomoku games of the registry: the same rules, knowledge and text,
/// on the focused game (what searchers play) and on the full one (every
/// legal cell: a referee for external brains, which may play anywhere).
/// The game as the Gomocup manager (Piskvork) saves it: the line
/// `Piskvorky 15x15, 11:11, 0`, one `x,y,time` line per move (the
/// protocol's coordinates counted from 1, time 0: not recorded), the two
/// players' names, then `-1`. Only games from the empty board: the
/// format has no other start.
fn psq_game(start: &Gomoku, moves: &[gomoku_renju::Move], info: &GameInfo<'_>) -> Option<GameFile> {
    if start.stone_count() > 0 {
        return None;
    }
    let size = start.size();
    let mut text = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for mv in moves {
        let (x, y) = mv.to_protocol(size)?;
        text.push_str(&format!("{},{},0\n", x + 1, y + 1));
    }
    for name in [info.first, info.second] {
        text.push_str(&name.replace('\n', " "));
        text.push('\n');
    }
    text.push_str("-1\n");
    Some(GameFile {
        extension: "psq",
        text,
    })
}

/// A Gomoku position is decided when the player to move has a victory by
/// continuous fours (VCF) found within the node budget: a forced win,
/// whatever the defender answers.
fn adjudicate_gomoku(game: &Gomoku) -> Option<Verdict> {
    if game.outcome().is_some() {
        return None;
    }
    let limits = game_traits::Limits::nodes(GOMOKU_ADJUDICATION_NODES);
    let gomoku_renju::Solution::Win(line) = gomoku_renju::ThreatSolver::new().vcf(game, &limits)
    else {
        return None;
    };
    let mover = game.to_move();
    let line: Vec<String> = line.iter().map(ToString::to_string).collect();
    Some(Verdict {
        outcome: Outcome::Win(mover),
        reason: format!(
            "{} wins by continuous fours: {}",
            if mover == Player::First {
                "Black"
            } else {
                "White"
            },
            line.join(" ")
        ),
    })
}

macro_rules! gomoku_registry_game {
    ($game:ty, $name:literal, $summary:literal, $start:expr) => {
        impl RegistryGame for $game {
            const NAME: &'static str = $name;
            const SUMMARY: &'static str = $summary;
            const HASH: Option<fn(&Self) -> u64> = Some(Self::position_hash);

            type RandomPlayout = FocusedPlayout;
            type HeuristicPlayout = ThreatPlayout;
            type Evaluator = PatternEvaluator;
            type Policy = PatternPolicy;

            fn start() -> Self {
                $start
            }

            /// A Gomocup brain (Rapfi) as `pbrain:cmd=...`.
            fn setup() -> GameSetup<Self> {
                GameSetup::new().searcher(
                    &crate::engine::PBRAIN_INFO,
                    crate::engine::pbrain_factory::<Self>,
                )
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

            fn load_net(
                path: &str,
            ) -> Result<std::sync::Arc<dyn NetKnowledge<Self>>, RegistryError> {
                load_network::<Self>(path)
            }

            fn max_plies() -> usize {
                // A full 15x15 board is a draw.
                15 * 15 + 1
            }

            fn parse_move(&self, text: &str) -> Result<gomoku_renju::Move, InputError> {
                text.parse().map_err(|error| bad_move(text, error))
            }

            fn move_text(mv: gomoku_renju::Move) -> String {
                mv.to_string()
            }

            fn parse_position(text: &str) -> Result<Self, InputError> {
                text.parse().map_err(|error| bad_position(text, error))
            }

            fn position_text(&self) -> String {
                self.to_string()
            }

            /// Moves as the Gomocup openings are published (`x,y` offsets
            /// from the centre, `y` down as in the protocol: `0,0, 1,-1,
            /// -1,2`), or moves like `h8 i9` separated by spaces, after an
            /// optional rule (`renju: 0,0, 1,-1`; freestyle without one).
            /// Black moves first.
            fn parse_opening(line: &str) -> Result<Opening<Self>, InputError> {
                parse_gomoku_opening(line)
            }

            fn draw(&self, last: Option<gomoku_renju::Move>) -> String {
                draw_gomoku(self.as_ref(), last)
            }

            fn adjudicate(&self) -> Option<Verdict> {
                adjudicate_gomoku(self.as_ref())
            }

            fn game_file(
                start: &Self,
                moves: &[gomoku_renju::Move],
                info: &GameInfo<'_>,
            ) -> Option<GameFile> {
                psq_game(start.as_ref(), moves, info)
            }

            fn record(start: &Self, moves: &[gomoku_renju::Move]) -> String {
                let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
                format!("{start}\n{}", moves.join(" "))
            }
        }
    };
}

gomoku_registry_game!(
    Focused,
    "gomoku",
    "Gomoku 15x15 freestyle, searchers see the cells near stones (gomoku); moves like h8",
    Focused::new(Gomoku::new())
);
gomoku_registry_game!(
    Gomoku,
    "gomoku-full",
    "Gomoku 15x15 freestyle on every cell, to referee external brains that may play anywhere (gomoku); moves like h8",
    Gomoku::new()
);

/// The board of a Gomoku position for people.
fn draw_gomoku(game: &Gomoku, last: Option<gomoku_renju::Move>) -> String {
    let size = game.size();
    let columns: String = (0..size)
        .map(|x| format!(" {} ", char::from(b'a' + x as u8)))
        .collect();
    let mut out = format!("   {columns}\n");
    for y in (0..size).rev() {
        out.push_str(&format!("{:>2} ", y + 1));
        for x in 0..size {
            let mv = gomoku_renju::Move::new(x as u8, y as u8);
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

/// [`RegistryGame::parse_opening`] of both Gomoku games. A rule name and
/// a colon before the moves (`renju: 0,0, 1,-1` or `standard: h8 i9`)
/// starts the game on the empty board under that rule (`freestyle`,
/// `standard`, `exact`, `exact-five` or `renju`, as [`Rule`] parses
/// them); without one the game is freestyle.
fn parse_gomoku_opening<G>(line: &str) -> Result<Opening<G>, InputError>
where
    G: RegistryGame<Move = gomoku_renju::Move> + GomokuGame + From<Gomoku>,
{
    let line = line.trim();
    let (rule, moves_text) = match line.split_once(':') {
        Some((name, rest)) => {
            let rule = name
                .trim()
                .parse::<Rule>()
                .map_err(|error| bad_opening(line, error))?;
            (Some(rule), rest.trim())
        }
        None => (None, line),
    };
    let start = rule.map_or_else(G::start, |rule| G::from(Gomoku::with_rule(rule)));
    let moves = if moves_text.contains(',') {
        gomocup_offsets(&start, moves_text)?
    } else {
        parse_move_list(&start, moves_text)?
    };
    let from = rule.map(|_| start);
    check_opening(line, Opening { from, moves })
}

/// The moves of a Gomocup opening line: pairs of `x,y` offsets from the
/// centre, each legal after the ones before it.
fn gomocup_offsets<G: GomokuGame>(
    start: &G,
    line: &str,
) -> Result<Vec<gomoku_renju::Move>, InputError> {
    let numbers = line
        .split(',')
        .map(|word| word.trim().parse::<i64>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| bad_opening(line, format!("expected whole numbers x,y, ...: {error}")))?;
    if numbers.len() % 2 != 0 {
        return Err(bad_opening(
            line,
            format!("{} numbers: offsets come in x,y pairs", numbers.len()),
        ));
    }
    let size = start.as_ref().size();
    let centre = (size / 2) as i64;
    let mut state = start.clone();
    let mut moves = Vec::new();
    for (index, pair) in numbers.chunks(2).enumerate() {
        let (x, y) = (centre + pair[0], centre + pair[1]);
        let cell = u32::try_from(x)
            .ok()
            .zip(u32::try_from(y).ok())
            .and_then(|(x, y)| gomoku_renju::Move::from_protocol(x, y, size));
        let Some(mv) = cell.filter(|&mv| state.is_legal(mv)) else {
            return Err(bad_opening(
                line,
                format!(
                    "move {} ({},{}) is off the {size}x{size} board or not legal",
                    index + 1,
                    pair[0],
                    pair[1]
                ),
            ));
        };
        state.play(mv);
        moves.push(mv);
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::parse_legal_move;

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
        let step: dou_shou_qi::Move = "a3a4".parse().unwrap();
        jungle.play(step);
        assert!(jungle.draw(Some(step)).contains("[E]"));
        let record = Jungle::record(&Jungle::new(), &[step]);
        assert!(record.ends_with("\na3a4"), "{record}");
        assert!(TicTacToe::new().draw(None).contains(" 4 "));
    }

    fn opening_error<G: RegistryGame>(line: &str) -> String {
        match G::parse_opening(line) {
            Err(error @ InputError::BadOpening { .. }) => error.to_string(),
            other => panic!("{line:?} was read as {other:?}"),
        }
    }

    #[test]
    fn othello_openings_read_transcripts_and_boards() {
        let moves: Vec<Move> = ["f5", "d6", "c3", "d3", "c4"]
            .iter()
            .map(|text| text.parse().unwrap())
            .collect();
        for line in [
            "f5d6c3d3c4",
            "  F5 d6 c3 d3 c4 ",
            "f5d6c3d3c4 % an XOT line",
        ] {
            let opening = Board::parse_opening(line).unwrap();
            assert_eq!(
                (opening.from.clone(), opening.moves.clone()),
                (None, moves.clone()),
                "{line}"
            );
        }
        let mut after = Board::start();
        for &mv in &moves {
            after.play(mv);
        }
        let obf = format!("{after}; f4:+2 e3:-1 % from an OBF file");
        let opening = Board::parse_opening(&obf).unwrap();
        assert_eq!(opening.from, Some(after.clone()));
        assert!(opening.moves.is_empty());
        assert_eq!(opening.position(), after);
        let illegal = opening_error::<Board>("f5a1");
        assert!(
            illegal.contains("neither a board") && illegal.contains("a1"),
            "{illegal}"
        );
        assert!(opening_error::<Board>("").contains("empty"));
        // A board of black discs only: no game left to play.
        let over = opening_error::<Board>(&format!("{} O", "X".repeat(64)));
        assert!(over.contains("over"), "{over}");
    }

    #[test]
    fn gomoku_openings_read_centre_offsets_and_moves() {
        let expected: Vec<gomoku_renju::Move> = ["h8", "i9", "g6"]
            .iter()
            .map(|text| text.parse().unwrap())
            .collect();
        // Offsets count y down the board, as the protocol does.
        for line in ["0,0, 1,-1, -1,2", "0, 0,1,-1,-1, 2", "h8 i9 g6"] {
            let opening = Focused::parse_opening(line).unwrap();
            assert_eq!(opening.from, None);
            assert_eq!(opening.moves, expected, "{line}");
        }
        for (line, reason) in [
            ("0,0, 8,0", "off the 15x15 board"),
            ("0,0, 0,0", "not legal"),
            ("0,0, 1", "pairs"),
            ("0,0, x,1", "whole numbers"),
            ("h8 h8", "move 2 (h8)"),
            ("caro: 0,0", "unknown rule \"caro\""),
            ("renju: 0,0, 0,0", "not legal"),
        ] {
            let error = opening_error::<Focused>(line);
            assert!(error.contains(reason), "{line}: {error}");
        }
    }

    #[test]
    fn the_shipped_gomoku_books_read_under_their_rules() {
        for (text, lines, rule) in [
            (
                include_str!("../openings/gomoku-centre-4.txt"),
                20,
                Rule::Freestyle,
            ),
            (
                include_str!("../openings/gomoku-mixed-50.txt"),
                50,
                Rule::Freestyle,
            ),
            (
                include_str!("../openings/standard-centre-4.txt"),
                20,
                Rule::Standard,
            ),
            (
                include_str!("../openings/renju-centre-4.txt"),
                20,
                Rule::Renju,
            ),
        ] {
            let book: Vec<&str> = text
                .lines()
                .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
                .collect();
            assert_eq!(book.len(), lines);
            let mut positions = std::collections::HashSet::new();
            for line in book {
                let position = Gomoku::parse_opening(line).unwrap().position();
                assert_eq!(position.rule(), rule, "{line}");
                assert!((2..=4).contains(&position.stone_count()), "{line}");
                assert!(positions.insert(position.to_string()), "{line} twice");
            }
        }
    }

    #[test]
    fn gomoku_openings_may_name_their_rule() {
        for (line, rule) in [
            ("renju: 0,0, 1,-1, -1,2", Rule::Renju),
            ("standard: h8 i9 g6", Rule::Standard),
            ("Exact-Five:0,0,1,-1,-1,2", Rule::Standard),
            ("freestyle: h8 i9 g6", Rule::Freestyle),
        ] {
            let opening = Gomoku::parse_opening(line).unwrap();
            assert_eq!(
                opening.from.as_ref().map(Gomoku::rule),
                Some(rule),
                "{line}"
            );
            let position = opening.position();
            assert_eq!(position.rule(), rule, "{line}");
            assert_eq!(position.stone_count(), 3, "{line}");
            let focused = Focused::parse_opening(line).unwrap().position();
            assert_eq!(focused.as_ref(), &position, "{line}");
        }
        // Without a rule: freestyle from the game's own start.
        let opening = Gomoku::parse_opening("h8 i9").unwrap();
        assert_eq!(opening.from, None);
        assert_eq!(opening.position().rule(), Rule::Freestyle);
        // Under renju Black may not make a double three.
        let double_three = "g8 a1 i8 a3 h9 a5 h10 a7 h8";
        assert!(Gomoku::parse_opening(double_three).is_ok());
        let error = opening_error::<Gomoku>(&format!("renju: {double_three}"));
        assert!(error.contains("move 9 (h8)"), "{error}");
    }

    #[test]
    fn verdicts_come_from_a_vcf_or_an_exact_solve_only() {
        // Black's open three on row 8: a four, any answer, five.
        let three = Gomoku::parse_opening("h8 a1 i8 a2 j8 a3")
            .unwrap()
            .position();
        let verdict = three.adjudicate().expect("a VCF for Black");
        assert_eq!(Focused::new(three).adjudicate(), Some(verdict.clone()));
        assert_eq!(verdict.outcome, Outcome::Win(Player::First));
        assert!(
            verdict
                .reason
                .starts_with("Black wins by continuous fours: "),
            "{}",
            verdict.reason
        );
        assert_eq!(Focused::start().adjudicate(), None);
        // White to move has no four to make, so no verdict for White.
        let after = Gomoku::parse_opening("h8 a1 i8 a2 j8").unwrap().position();
        assert_eq!(after.adjudicate(), None);
        assert_eq!(Board::start().adjudicate(), None);
        // At 14 empties the exact solver decides; at 15 nothing is said.
        let mut board = Board::start();
        let mut moves = Vec::new();
        while board.empty_count() > 15 {
            game_traits::Game::legal_moves(&board, &mut moves);
            game_traits::Game::play(&mut board, moves[moves.len() / 2]);
        }
        assert_eq!(board.adjudicate(), None);
        while board.empty_count() > 14 {
            game_traits::Game::legal_moves(&board, &mut moves);
            game_traits::Game::play(&mut board, moves[0]);
        }
        let verdict = board.adjudicate().expect("solved");
        assert!(verdict.reason.starts_with("solved exactly at 14 empties"));
        let score = bitboard_othello::solve(&board).score;
        let mover = game_traits::Game::to_move(&board);
        let expected = match score.signum() {
            1 => Outcome::Win(mover),
            -1 => Outcome::Win(mover.opponent()),
            _ => Outcome::Draw,
        };
        assert_eq!(verdict.outcome, expected);
    }

    #[test]
    fn othello_games_are_saved_as_ggf_and_gomoku_games_as_psq() {
        use crate::registry::GameInfo;
        let info = GameInfo {
            first: "ours",
            second: "edax]",
            outcome: Some(Outcome::Win(Player::First)),
        };
        // A whole game: the GGF reads back, RE is Black's disc difference.
        let mut board = Board::start();
        let mut moves = Vec::new();
        let mut legal = Vec::new();
        while !game_traits::Game::is_over(&board) {
            game_traits::Game::legal_moves(&board, &mut legal);
            let mv = legal[legal.len() / 3];
            game_traits::Game::play(&mut board, mv);
            moves.push(mv);
        }
        let file = Board::game_file(&Board::start(), &moves, &info).unwrap();
        assert_eq!(file.extension, "ggf");
        let discs = board.black().count_ones() as i32 - board.white().count_ones() as i32;
        assert!(
            file.text.contains(&format!("RE[{discs:+}]")),
            "{}",
            file.text
        );
        assert!(file.text.contains("PB[ours]PW[edax)]"), "{}", file.text);
        let (start, read) = crate::nboard::parse_ggf(&file.text).unwrap();
        assert_eq!((start, read), (Board::start(), moves.clone()));
        // Unfinished: the result scored.
        let cut = Board::game_file(&Board::start(), &moves[..10], &info).unwrap();
        assert!(cut.text.contains("RE[+1]"), "{}", cut.text);
        // Gomoku: 1-based protocol coordinates, y from the top.
        let opening = Gomoku::parse_opening("h8 i9 a15").unwrap();
        let info = GameInfo {
            first: "black",
            second: "white",
            outcome: None,
        };
        let psq = Gomoku::game_file(&Gomoku::new(), &opening.moves, &info).unwrap();
        assert_eq!(psq.extension, "psq");
        assert_eq!(
            psq.text,
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n1,1,0\nblack\nwhite\n-1\n"
        );
        // The format has no start position of its own.
        let from = opening.position();
        assert_eq!(Gomoku::game_file(&from, &[], &info), None);
        assert_eq!(TicTacToe::game_file(&TicTacToe::new(), &[4], &info), None);
    }

    #[test]
    fn other_games_read_positions_or_moves_by_default() {
        let opening = TicTacToe::parse_opening("4 0 8").unwrap();
        assert_eq!(opening.moves, vec![4, 0, 8]);
        let position = opening.position();
        let from_text = TicTacToe::parse_opening(&position.position_text()).unwrap();
        assert_eq!(from_text.from, Some(position.clone()));
        assert_eq!(from_text.position(), position);
        assert!(opening_error::<TicTacToe>("4 4").contains("move 2 (4)"));
        assert!(opening_error::<TicTacToe>("0 3 1 4 2").contains("over"));
        assert!(opening_error::<Nim>("9:1").contains("move 1"));
    }
}
