//! An Othello engine speaking the NBoard protocol, the protocol of the
//! NBoard GUI (Chris Welty), also spoken by Edax and Ntest: any searcher
//! of the registry, with the exact endgame solver for the last empties.
//!
//! # The protocol, as this engine implements it
//!
//! The GUI starts the engine as a process and talks to it over
//! stdin/stdout, one command per line; every reply line is flushed at
//! once. Commands from the GUI:
//!
//! | command | meaning | reply |
//! |---|---|---|
//! | `nboard <version>` | first command; protocol version (2 today) | none |
//! | `set depth <n>` | search depth for the middle game | `set myname <name>` |
//! | `set game <GGF>` | the position is the end of this game | none |
//! | `set contempt <n>` | draw value, in discs | none |
//! | `move <mv>[/<eval>[/<time>]]` | play a move (`F5`, `PA` for a pass) | none |
//! | `hint <n>` | evaluate the best `n` moves | `status`, then `search <pv> <eval> 0 <depth>` per move, then `status` |
//! | `go` | the move the engine would play (the board is not changed: the GUI sends `move`) | `status`, `=== <move>/<eval>/<time>`, `status` |
//! | `ping <n>` | synchronisation | `pong <n>`, after any search has ended |
//! | `learn` | learn the game | `learned` |
//! | `quit` | end the session | none |
//!
//! Engine lines: `status <text>` (shown in the GUI's status bar), `set
//! myname <name>`, `=== <move>/<eval>/<time>`, `search <pv> <eval> 0
//! <depth> <text>`, `pong <n>`, `learned`. Moves are two characters,
//! `A1`..`H8` or `PA`; a principal variation is moves without spaces
//! (`F5d6C3`); an eval is in discs from the view of the player to move;
//! time in seconds. A command the engine does not know is ignored, as the
//! protocol asks; a known command with a bad argument is reported on
//! stderr and changes nothing. NBoard 1.1 sends a bare `F5` for `move
//! F5`, which is accepted too. Input is read as bytes: a line that is not
//! UTF-8, or longer than [`MAX_LINE_BYTES`] (the rest of it is skipped),
//! is reported on stderr and not acted on, and the session goes on.
//!
//! GGF, the game format of `set game`: `(;GM[Othello]PC[..]DT[..]PB[..]
//! PW[..]RE[?]TI[15:00]TY[8]BO[8 <64 squares> <side>]B[F5]W[F6//1.2]...;)`
//! with the board in `BO` row by row from `a1`: `*` Black, `O` White, `-`
//! empty, then the side to move (`*` or `O`); then the moves, `B[..]` by
//! Black and `W[..]` by White, each `<move>[/<eval>[/<time>]]` with `PA`
//! for a pass. Only 8x8 boards (`TY[8]`) are accepted.
//!
//! # Searches
//!
//! Searches run to their budget before the next command is read (NBoard
//! waits for `pong`, so nothing is lost). `set depth` sets the depth of
//! searchers that honour a depth limit (minimax, alpha-beta); the others
//! keep the budget of their spec. Evals are the searcher's value times 64
//! (exact disc differences from the solver; a scaled win expectation from
//! Monte Carlo searchers).

use std::io::{self, BufRead, Write};
use std::time::Instant;

use bitboard_othello::{Board, Move, Solver};
use game_traits::{Game, Handover, LimitKind, Player, Searcher};
use gomoku_renju::protocol::LineProblem;

use crate::registry::{BoxedSearcher, RegistryError, SearcherSpec, build_searcher};

/// A line the engine cannot act on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NboardError {
    /// A command without its argument, or with one that does not parse.
    #[error("bad argument for {command}: {reason}")]
    BadArgument {
        /// The command.
        command: String,
        /// What is wrong.
        reason: String,
    },
    /// A GGF game that cannot be read.
    #[error("bad GGF game: {0}")]
    BadGame(String),
    /// A move that is not legal in the current position.
    #[error("move {mv} is not legal in {board}")]
    IllegalMove {
        /// The move, as given.
        mv: String,
        /// The position.
        board: String,
    },
    /// `go` or `hint` at a finished position.
    #[error("the game is over: nothing to search")]
    GameOver,
    /// A line holding bytes that are not UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// A line longer than [`MAX_LINE_BYTES`]; its rest was skipped.
    #[error("the line is longer than {MAX_LINE_BYTES} bytes")]
    LineTooLong,
}

/// The longest line the engine reads, line end included: a longer one is
/// cut there and the rest of it, up to the newline, skipped, so a line
/// that never ends cannot fill the memory. The longest real command, `set
/// game` with a whole game, takes a few kilobytes.
pub const MAX_LINE_BYTES: usize = gomoku_renju::protocol::MAX_LINE_BYTES;

/// Reads one line of `input` as bytes, whatever they are (the Gomocup
/// brain's reader: the same cap and the same problems): the line without
/// its `\n` or `\r\n`, and the error that keeps it from being a command.
/// `Ok(None)` at the end of the input.
fn read_input_line(input: &mut impl BufRead) -> io::Result<Option<(String, Option<NboardError>)>> {
    Ok(gomoku_renju::protocol::read_input_line(input)?.map(|line| {
        let problem = line.problem.map(|problem| match problem {
            LineProblem::TooLong => NboardError::LineTooLong,
            _ => NboardError::NotUtf8,
        });
        (line.text, problem)
    }))
}

/// A short, quoted view of a line for an error report.
fn excerpt(text: &str) -> String {
    const SHOWN_CHARS: usize = 60;
    let mut chars = text.trim().chars();
    let head: String = chars.by_ref().take(SHOWN_CHARS).collect();
    if chars.next().is_some() {
        format!("{head:?}...")
    } else {
        format!("{head:?}")
    }
}

/// Reads a GGF game: the start position and the moves (passes included).
///
/// # Errors
///
/// [`NboardError::BadGame`] saying what is wrong: not a GGF game, a board
/// other than 8x8, a bad square or side, or a move that is not legal.
pub fn parse_ggf(text: &str) -> Result<(Board, Vec<Move>), NboardError> {
    let bad = |reason: String| NboardError::BadGame(reason);
    let text = text.trim();
    let body = text
        .strip_prefix("(;")
        .and_then(|rest| rest.strip_suffix(";)"))
        .ok_or_else(|| bad("expected (; ... ;)".to_string()))?;
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut rest = body;
    while !rest.trim_start().is_empty() {
        rest = rest.trim_start();
        let open = rest
            .find('[')
            .ok_or_else(|| bad(format!("expected TAG[value] at {:?}", head(rest))))?;
        let tag = rest[..open].trim().to_string();
        if tag.is_empty() || !tag.chars().all(|c| c.is_ascii_uppercase()) {
            return Err(bad(format!("bad tag {:?}", head(rest))));
        }
        let close = rest[open..]
            .find(']')
            .ok_or_else(|| bad(format!("tag {tag} is not closed")))?;
        tags.push((tag, rest[open + 1..open + close].to_string()));
        rest = &rest[open + close + 1..];
    }
    let value = |name: &str| {
        tags.iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    };
    if let Some(game) = value("GM")
        && !game.eq_ignore_ascii_case("othello")
    {
        return Err(bad(format!("game {game:?} is not Othello")));
    }
    if let Some(kind) = value("TY")
        && !kind.trim().starts_with('8')
    {
        return Err(bad(format!("board type {kind:?}: only 8x8 is supported")));
    }
    let board_text = value("BO").ok_or_else(|| bad("no BO[...] board".to_string()))?;
    let start = parse_ggf_board(board_text)?;
    let mut board = start.clone();
    let mut moves = Vec::new();
    for (tag, value) in &tags {
        let player = match tag.as_str() {
            "B" => Player::First,
            "W" => Player::Second,
            _ => continue,
        };
        let mv =
            parse_move(value).map_err(|reason| bad(format!("move {tag}[{value}]: {reason}")))?;
        // A pass the record leaves out.
        if board.to_move() != player && board.is_legal(Move::Pass) {
            board.play(Move::Pass);
            moves.push(Move::Pass);
        }
        if board.to_move() != player || !board.is_legal(mv) {
            return Err(bad(format!(
                "move {tag}[{value}] is not legal at ply {}",
                moves.len() + 1
            )));
        }
        board.play(mv);
        moves.push(mv);
    }
    Ok((start, moves))
}

fn head(text: &str) -> String {
    text.chars().take(20).collect()
}

/// Reads the value of a GGF `BO` tag: `8 <64 squares> <side>`.
fn parse_ggf_board(text: &str) -> Result<Board, NboardError> {
    let bad = |reason: String| NboardError::BadGame(reason);
    let mut fields = text.split_whitespace();
    if fields.next() != Some("8") {
        return Err(bad(format!("board {text:?} is not 8x8")));
    }
    let cells: String = fields.collect();
    let mut chars: Vec<char> = cells.chars().collect();
    let side = chars.pop().ok_or_else(|| bad("empty board".to_string()))?;
    if chars.len() != 64 {
        return Err(bad(format!(
            "board has {} squares, expected 64",
            chars.len()
        )));
    }
    let mut squares = String::with_capacity(64);
    for (index, cell) in chars.into_iter().enumerate() {
        squares.push(match cell {
            '*' | 'X' | 'x' | '#' => 'X',
            'O' | 'o' => 'O',
            '-' | '.' => '-',
            other => {
                return Err(bad(format!(
                    "square {index} is {other:?}: expected *, O or -"
                )));
            }
        });
    }
    let side = match side {
        '*' | 'X' | 'x' | '#' => 'X',
        'O' | 'o' => 'O',
        other => return Err(bad(format!("side to move {other:?}: expected * or O"))),
    };
    format!("{squares} {side}")
        .parse()
        .map_err(|error| bad(format!("{error}")))
}

/// Reads `<move>[/<eval>[/<time>]]`: the move only.
fn parse_move(text: &str) -> Result<Move, String> {
    let mv = text.split('/').next().unwrap_or("").trim();
    mv.parse::<Move>().map_err(|error| error.to_string())
}

/// A move as NBoard writes it: `F5`, `PA`.
pub fn nboard_move(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".to_string(),
        Move::Place(square) => square.to_string().to_ascii_uppercase(),
    }
}

/// Whether the session goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Read the next line.
    Continue,
    /// `quit` was received.
    Quit,
}

/// The engine's state between commands.
pub struct Engine {
    spec: SearcherSpec,
    solve_empties: u32,
    seed: u64,
    searcher: BoxedSearcher<Board>,
    /// Whether the middle-game searcher stops at a depth (the solver
    /// after it never does: it searches to the end).
    takes_depth: bool,
    board: Board,
    depth: Option<u32>,
    contempt: f64,
    version: Option<u32>,
}

impl Engine {
    /// An engine searching with `spec`, handing over to the exact solver
    /// at `solve_empties` empty squares or fewer (0: never).
    ///
    /// # Errors
    ///
    /// [`RegistryError`] if the searcher cannot be built for Othello.
    pub fn new(spec: SearcherSpec, solve_empties: u32, seed: u64) -> Result<Engine, RegistryError> {
        let (searcher, takes_depth) = Engine::build(&spec, solve_empties, seed)?;
        Ok(Engine {
            spec,
            solve_empties,
            seed,
            searcher,
            takes_depth,
            board: Board::start(),
            depth: None,
            contempt: 0.0,
            version: None,
        })
    }

    fn build(
        spec: &SearcherSpec,
        solve_empties: u32,
        seed: u64,
    ) -> Result<(BoxedSearcher<Board>, bool), RegistryError> {
        let searcher = build_searcher::<Board>(spec, seed)?;
        let takes_depth = searcher.honours(LimitKind::Depth);
        if solve_empties == 0 {
            return Ok((searcher, takes_depth));
        }
        let handover = Handover::new(searcher, Solver::default(), move |board: &Board| {
            board.empty_count() <= solve_empties
        });
        Ok((Box::new(handover), takes_depth))
    }

    /// The engine's name: `game-search <spec>`, and the solver's reach.
    pub fn name(&self) -> String {
        let mut name = format!("game-search {}", self.spec);
        if self.solve_empties > 0 {
            name.push_str(&format!(" solver{}", self.solve_empties));
        }
        if let Some(depth) = self.depth {
            name.push_str(&format!(" depth{depth}"));
        }
        name
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The protocol version the GUI announced.
    pub fn version(&self) -> Option<u32> {
        self.version
    }

    /// The contempt the GUI set, in discs (kept, not used: the searchers
    /// value a draw at 0).
    pub fn contempt(&self) -> f64 {
        self.contempt
    }

    /// Handles one line: replies on `out` (flushed), reports a bad line on
    /// `err` and goes on.
    ///
    /// # Errors
    ///
    /// Only I/O errors of `out` or `err`.
    pub fn handle(
        &mut self,
        line: &str,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> io::Result<Control> {
        match self.command(line, out) {
            Ok(control) => {
                out.flush()?;
                Ok(control)
            }
            Err(CommandError::Io(error)) => Err(error),
            Err(CommandError::Protocol(error)) => {
                out.flush()?;
                report(err, &error, line)?;
                Ok(Control::Continue)
            }
        }
    }

    fn command(&mut self, line: &str, out: &mut impl Write) -> Result<Control, CommandError> {
        let line = line.trim();
        let (command, argument) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(command, rest)| (command, rest.trim()));
        let bad = |reason: &str| NboardError::BadArgument {
            command: command.to_string(),
            reason: reason.to_string(),
        };
        match command {
            "" => {}
            "nboard" => {
                let version = argument
                    .parse::<u32>()
                    .map_err(|_| bad("expected the protocol version, like nboard 2"))?;
                self.version = Some(version);
            }
            "set" => {
                let (what, value) = argument
                    .split_once(char::is_whitespace)
                    .map_or((argument, ""), |(what, value)| (what, value.trim()));
                match what {
                    "depth" => {
                        let depth = value
                            .parse::<u32>()
                            .ok()
                            .filter(|&depth| depth >= 1)
                            .ok_or_else(|| bad("expected a depth >= 1, like set depth 12"))?;
                        self.depth = Some(depth);
                        writeln!(out, "set myname {}", self.name())?;
                    }
                    "game" => {
                        let (start, moves) = parse_ggf(value)?;
                        let mut board = start;
                        for mv in moves {
                            board.play(mv);
                        }
                        self.board = board;
                        self.searcher.reset();
                    }
                    "contempt" => {
                        self.contempt = value
                            .parse::<f64>()
                            .ok()
                            .filter(|value| value.is_finite())
                            .ok_or_else(|| bad("expected a number of discs"))?;
                    }
                    // Other settings are ignored, as the protocol asks.
                    _ => {}
                }
            }
            "move" => self.play(argument)?,
            "hint" => {
                let count = argument
                    .parse::<usize>()
                    .ok()
                    .filter(|&count| count >= 1)
                    .ok_or_else(|| bad("expected a number of moves >= 1, like hint 3"))?;
                self.hint(count, out)?;
            }
            "go" => self.go(out)?,
            "ping" => {
                let number = argument
                    .parse::<i64>()
                    .map_err(|_| bad("expected a number, like ping 1"))?;
                writeln!(out, "pong {number}")?;
            }
            "learn" => writeln!(out, "learned")?,
            "quit" => return Ok(Control::Quit),
            // NBoard 1.1 sends "F5" for "move F5".
            _ if command.len() == 2 && argument.is_empty() && parse_move(command).is_ok() => {
                self.play(command)?;
            }
            // Unknown commands are ignored, as the protocol asks.
            _ => {}
        }
        Ok(Control::Continue)
    }

    fn play(&mut self, text: &str) -> Result<(), NboardError> {
        let mv = parse_move(text).map_err(|reason| NboardError::BadArgument {
            command: "move".to_string(),
            reason,
        })?;
        let mut board = self.board.clone();
        // A pass the GUI did not send.
        if !mv.is_pass() && !board.is_legal(mv) && board.is_legal(Move::Pass) {
            board.play(Move::Pass);
            self.searcher.advance(Move::Pass);
        }
        if board.try_play(mv).is_err() {
            self.searcher.reset();
            return Err(NboardError::IllegalMove {
                mv: text.to_string(),
                board: self.board.to_string(),
            });
        }
        self.searcher.advance(mv);
        self.board = board;
        Ok(())
    }

    fn limits(&self) -> game_traits::Limits {
        let mut limits = self.spec.limits();
        if let Some(depth) = self.depth
            && self.takes_depth
            && limits.depth.is_none_or(|own| own != depth)
        {
            limits = limits.with_depth(depth);
        }
        limits
    }

    fn go(&mut self, out: &mut impl Write) -> Result<(), CommandError> {
        if self.board.is_over() {
            return Err(NboardError::GameOver.into());
        }
        writeln!(out, "status thinking")?;
        out.flush()?;
        let clock = Instant::now();
        let report = self.searcher.search(&self.board, &self.limits());
        let Some(best) = report.best else {
            return Err(NboardError::GameOver.into());
        };
        writeln!(
            out,
            "=== {}/{:.2}/{:.1}",
            nboard_move(best),
            64.0 * report.value,
            clock.elapsed().as_secs_f64()
        )?;
        writeln!(out, "status")?;
        Ok(())
    }

    fn hint(&mut self, count: usize, out: &mut impl Write) -> Result<(), CommandError> {
        if self.board.is_over() {
            return Err(NboardError::GameOver.into());
        }
        writeln!(out, "status analysing")?;
        out.flush()?;
        let report = self.searcher.search(&self.board, &self.limits());
        let depth = report.stats.depth;
        let mut lines: Vec<(Move, f32, String)> = Vec::new();
        if let Some(best) = report.best {
            let pv: String = if report.pv.first() == Some(&best) {
                report.pv.iter().map(|&mv| nboard_move(mv)).collect()
            } else {
                nboard_move(best)
            };
            lines.push((best, report.value, pv));
        }
        let mut others = report.moves.clone();
        others.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(
                b.value
                    .unwrap_or(f32::NEG_INFINITY)
                    .total_cmp(&a.value.unwrap_or(f32::NEG_INFINITY)),
            )
        });
        for info in others {
            if lines.len() >= count {
                break;
            }
            if lines.iter().any(|(mv, _, _)| *mv == info.mv) {
                continue;
            }
            if let Some(value) = info.value {
                lines.push((info.mv, value, nboard_move(info.mv)));
            }
        }
        for (_, value, pv) in lines.iter().take(count) {
            writeln!(
                out,
                "search {pv} {:.2} 0 {depth} {}",
                64.0 * value,
                self.spec.name()
            )?;
        }
        writeln!(out, "status")?;
        Ok(())
    }
}

/// Reports `error`, found in `line`, on `err`.
fn report(err: &mut impl Write, error: &NboardError, line: &str) -> io::Result<()> {
    writeln!(err, "error: {error} (line {})", excerpt(line))?;
    err.flush()
}

/// A command that failed: a protocol error to report, or output that
/// could not be written.
#[derive(Debug)]
enum CommandError {
    Protocol(NboardError),
    Io(io::Error),
}

impl From<NboardError> for CommandError {
    fn from(error: NboardError) -> Self {
        CommandError::Protocol(error)
    }
}

impl From<io::Error> for CommandError {
    fn from(error: io::Error) -> Self {
        CommandError::Io(error)
    }
}

impl Engine {
    /// Runs a whole session: reads lines from `input` until `quit` or the
    /// end of the input. Any bytes are a line: one that is not UTF-8, or
    /// longer than [`MAX_LINE_BYTES`], is reported on `err` and not acted
    /// on.
    ///
    /// # Errors
    ///
    /// Only I/O errors (bytes that are not UTF-8 are not one).
    pub fn run(
        &mut self,
        mut input: impl BufRead,
        out: &mut impl Write,
        err: &mut impl Write,
    ) -> io::Result<()> {
        while let Some((line, problem)) = read_input_line(&mut input)? {
            let control = match problem {
                None => self.handle(&line, out, err)?,
                Some(error) => {
                    report(err, &error, &line)?;
                    Control::Continue
                }
            };
            if control == Control::Quit {
                break;
            }
        }
        Ok(())
    }

    /// The seed the searcher was built with.
    pub fn seed(&self) -> u64 {
        self.seed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GGF: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

    fn session(engine: &mut Engine, script: &str) -> (String, String) {
        session_bytes(engine, script.as_bytes())
    }

    fn session_bytes(engine: &mut Engine, script: &[u8]) -> (String, String) {
        let mut out = Vec::new();
        let mut err = Vec::new();
        engine.run(script, &mut out, &mut err).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn ggf_games_are_read_with_their_moves() {
        let (start, moves) = parse_ggf(GGF).unwrap();
        assert_eq!(start, Board::start());
        let text: Vec<String> = moves.iter().map(|&mv| nboard_move(mv)).collect();
        assert_eq!(text.join(""), "F5F6D3C5E6F7E7F4");
        for bad in [
            "GM[Othello]",
            "(;GM[Chess]BO[8 ---------------------------O*------*O--------------------------- *];)",
            "(;TY[10]BO[8 ---------------------------O*------*O--------------------------- *];)",
            "(;BO[8 --O* *];)",
            "(;BO[8 ---------------------------O*------*O--------------------------- *]B[A1];)",
            "(;BO[8 ---------------------------O*------*O--------------------------- *]W[F5];)",
            "(;BO[8 ---------------------------O*------*O--------------------------- *]B[Z9];)",
            "(;BO[8 ---------------------------O*------*O--------------------------- *]B[F5;)",
        ] {
            assert!(parse_ggf(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_published_example_session_works() {
        let mut engine = Engine::new("uct:iters=300".parse().unwrap(), 14, 1).unwrap();
        let script = format!("nboard 2\nset game {GGF}\nset depth 6\nping 1\ngo\n");
        let (out, err) = session(&mut engine, &script);
        assert_eq!(err, "");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("set myname game-search uct"), "{out}");
        assert_eq!(lines[1], "pong 1");
        assert_eq!(lines[2], "status thinking");
        let reply = lines[3].strip_prefix("=== ").expect("a move reply");
        let mv = reply.split('/').next().unwrap();
        assert!(engine.board().is_legal(parse_move(mv).unwrap()), "{reply}");
        assert_eq!(engine.version(), Some(2));
        // `go` does not change the board.
        assert_eq!(engine.board().empty_count(), 52);
    }

    #[test]
    fn malformed_lines_are_reported_and_the_session_goes_on() {
        let mut engine = Engine::new("random".parse().unwrap(), 0, 1).unwrap();
        let script = "nboard two\nset depth deep\nset game (;nonsense;)\nmove Z9\nmove A1\nping\nhint 0\nfrobnicate 3\nset contempt 2\nF5\nmove d6/0.5/1.0\nping 7\nlearn\nquit\nping 8\n";
        let (out, err) = session(&mut engine, script);
        let errors: Vec<&str> = err.lines().collect();
        assert_eq!(errors.len(), 7, "{err}");
        assert!(errors[0].contains("nboard"), "{err}");
        assert!(
            errors[3].contains("Z9") || errors[3].contains("z9"),
            "{err}"
        );
        assert!(errors[4].contains("not legal"), "{err}");
        // Unknown commands are ignored silently; F5 and d6 were played.
        assert_eq!(out, "pong 7\nlearned\n");
        assert_eq!(engine.board().empty_count(), 58);
        assert_eq!(engine.contempt(), 2.0);
    }

    #[test]
    fn hints_give_search_lines_and_the_solver_plays_endgames() {
        let mut engine = Engine::new("uct:iters=500".parse().unwrap(), 14, 1).unwrap();
        let (out, _) = session(&mut engine, "set depth 4\nhint 3\n");
        let searches: Vec<&str> = out.lines().filter(|l| l.starts_with("search ")).collect();
        assert_eq!(searches.len(), 3, "{out}");
        assert!(out.trim_end().ends_with("status"), "{out}");
        // FFO #40, 20 empties, is solved at 20 empties: +38 with A2.
        let mut solver = Engine::new("uct:iters=300".parse().unwrap(), 20, 1).unwrap();
        let ffo40 = "(;GM[Othello]TY[8]BO[8 O--OOOO*-OOOOOO*OO**OOO*OO*OOO**OOOOOO**---OOOO*----O--*-------- *];)";
        let (out, err) = session(&mut solver, &format!("set game {ffo40}\ngo\n"));
        assert_eq!(err, "");
        assert!(out.contains("=== A2/38.00/"), "{out}");
    }

    #[test]
    fn set_depth_reaches_the_middle_game_searcher_in_front_of_the_solver() {
        for depth in [1, 3] {
            let mut engine = Engine::new("alphabeta".parse().unwrap(), 8, 1).unwrap();
            let (out, _) = session(&mut engine, &format!("set depth {depth}\nhint 1\n"));
            let search = out
                .lines()
                .find(|line| line.starts_with("search "))
                .unwrap_or_else(|| panic!("no search line in {out}"));
            let searched = search.split_whitespace().nth(4);
            assert_eq!(searched, Some(depth.to_string().as_str()), "{out}");
        }
    }

    /// Pieces of real commands, so that garbage also holds commands that
    /// do something (moves, searches, positions) in every state.
    fn fragments() -> Vec<Vec<u8>> {
        let mut pieces: Vec<Vec<u8>> = [
            &b"nboard 2\n"[..],
            b"set depth 2\n",
            b"move F5\n",
            b"F5\n",
            b"go\n",
            b"hint 2\n",
            b"ping 1\n",
            b"set contempt 1\n",
            b"\xFF",
            b"\r",
            b"\n",
        ]
        .iter()
        .map(|piece| piece.to_vec())
        .collect();
        pieces.push(format!("set game {GGF}\n").into_bytes());
        pieces
    }

    #[test]
    fn random_bytes_never_stop_the_engine() {
        use rand::{RngExt, SeedableRng};
        const SEQUENCES: usize = 100_000;
        const SEQUENCES_PER_BATCH: usize = 1_000;
        // Far from the garbage's own `ping 1`.
        const PROBE_BASE: usize = 1_000_000;
        let fragments = fragments();
        let mut rng = rand_pcg::Pcg64::seed_from_u64(0x6e62_6f61_7264);
        let mut script = Vec::new();
        for sequence in 0..SEQUENCES {
            let pieces = rng.random_range(0..64);
            for _ in 0..pieces {
                if rng.random_range(0..8) == 0 {
                    script.extend_from_slice(&fragments[rng.random_range(0..fragments.len())]);
                } else {
                    script.push(rng.random::<u8>());
                }
            }
            if (sequence + 1) % SEQUENCES_PER_BATCH == 0 {
                // End any half line, then prove the engine still answers.
                let batch = sequence / SEQUENCES_PER_BATCH;
                script.extend(format!("\nping {}\n", PROBE_BASE + batch).into_bytes());
            }
        }
        script.extend_from_slice(b"\nping 5\nquit\nping 6\n");
        let mut engine = Engine::new("random".parse().unwrap(), 0, 1).unwrap();
        let (out, err) = session_bytes(&mut engine, &script);
        let probes: Vec<usize> = out
            .lines()
            .filter_map(|line| line.strip_prefix("pong "))
            .filter_map(|number| number.parse().ok())
            .filter(|&number| number >= PROBE_BASE)
            .collect();
        let expected: Vec<usize> = (0..SEQUENCES / SEQUENCES_PER_BATCH)
            .map(|batch| PROBE_BASE + batch)
            .collect();
        assert_eq!(probes, expected);
        // `quit` ends the session: `ping 6` is never read.
        assert!(
            out.ends_with("pong 5\n"),
            "{}",
            &out[out.len().saturating_sub(200)..]
        );
        assert!(err.contains("error: the line is not valid UTF-8"));
        for line in out.lines() {
            let known = [
                "pong ",
                "set myname ",
                "status",
                "=== ",
                "search ",
                "learned",
            ];
            assert!(
                known.iter().any(|start| line.starts_with(start)),
                "unexpected output line {line:?}"
            );
        }
    }

    #[test]
    fn bad_bytes_and_endless_lines_are_reported_and_skipped() {
        let mut engine = Engine::new("random".parse().unwrap(), 0, 1).unwrap();
        let mut script = b"ping 1\r\nmove \xFF5\r\n".to_vec();
        // A line far beyond the cap, then a command right after it.
        script.extend(std::iter::repeat_n(b'F', 4 * MAX_LINE_BYTES));
        script.extend_from_slice(b"\nping 2\nmove F5\nquit\n");
        let (out, err) = session_bytes(&mut engine, &script);
        assert_eq!(out, "pong 1\npong 2\n");
        let errors: Vec<&str> = err.lines().collect();
        assert_eq!(errors.len(), 2, "{err}");
        assert!(errors[0].contains("not valid UTF-8"), "{err}");
        assert!(errors[1].contains("longer than"), "{err}");
        assert!(errors[1].len() < 200, "the report quotes only the start");
        // The bad move was not played; F5 was.
        assert_eq!(engine.board().empty_count(), 59);
    }
}
