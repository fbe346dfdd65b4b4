//! [`NboardEngine`]: an NBoard engine as a searcher (the module docs of
//! [`engine`](super) describe the protocol as spoken here).

use std::time::{Duration, Instant};

use bitboard_othello::{Board, Move};
use game_traits::{
    Game, LimitKind, Limits, Player, SearchReport, SearchStats, Searcher, StopReason,
};

use super::process::{EngineProcess, NoLine};
use super::{EngineCommand, EngineError, EngineOptions, deadline_after, first_word};
use crate::nboard::nboard_move;

/// The GGF game of `board`: the position in `BO` (squares row by row from
/// a1, `*` Black, `O` White, `-` empty, then the side to move) and no
/// moves, as `set game` sends it and [`crate::nboard::parse_ggf`] reads
/// it.
///
/// ```
/// use bitboard_othello::Board;
/// use game_arena::engine::write_ggf;
/// use game_arena::nboard::parse_ggf;
///
/// let ggf = write_ggf(&Board::start());
/// assert!(ggf.starts_with("(;GM[Othello]"));
/// assert_eq!(parse_ggf(&ggf)?, (Board::start(), Vec::new()));
/// # Ok::<(), game_arena::nboard::NboardError>(())
/// ```
pub fn write_ggf(board: &Board) -> String {
    ggf_game(board, &[], ["?", "?"], "?")
}

/// The GGF game of `moves` played from `start` by `players` (Black,
/// White), with the result text `result` (`RE`: Black's final disc
/// difference such as `+6`, or `?`). Passes are `PA`; a `]` in a name
/// becomes `)`, which GGF values cannot hold.
pub fn ggf_game(start: &Board, moves: &[Move], players: [&str; 2], result: &str) -> String {
    let (black, white) = (start.black(), start.white());
    let squares: String = (0..64)
        .map(|index| {
            let bit = 1u64 << index;
            if black & bit != 0 {
                '*'
            } else if white & bit != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    let side = match start.to_move() {
        Player::First => '*',
        Player::Second => 'O',
    };
    let value = |text: &str| text.replace(']', ")");
    let mut ggf = format!(
        "(;GM[Othello]PC[game-arena]PB[{}]PW[{}]RE[{}]TY[8]BO[8 {squares} {side}]",
        value(players[0]),
        value(players[1]),
        value(result)
    );
    let mut board = start.clone();
    for &mv in moves {
        let colour = match board.to_move() {
            Player::First => 'B',
            Player::Second => 'W',
        };
        ggf.push_str(&format!("{colour}[{}]", nboard_move(mv)));
        board.play(mv);
    }
    ggf.push_str(";)");
    ggf
}

/// An external Othello engine speaking the NBoard protocol (Edax, Ntest,
/// the workspace's own `nboard` example), as a [`Searcher`] of
/// [`Board`].
///
/// The engine starts at the first search, or at
/// [`start`](NboardEngine::start); each search sends the position (`set
/// game`) and `go`, and waits for the move within the time of the
/// [`Limits`] (or [`EngineOptions::default_move_time`]) plus
/// [`EngineOptions::margin`], after the handshake. The depth of the
/// limits is sent as `set depth`. A search that fails returns no move and
/// [`failure`](Searcher::failure) says why (see the module docs).
pub struct NboardEngine {
    command: EngineCommand,
    options: EngineOptions,
    process: Option<EngineProcess>,
    /// The last `set depth` sent.
    depth: Option<u32>,
    /// The number of the last `ping`.
    ping: u64,
    failure: Option<String>,
    pid: Option<u32>,
    engine_name: Option<String>,
}

impl std::fmt::Debug for NboardEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NboardEngine")
            .field("command", &self.command)
            .field("options", &self.options)
            .field("pid", &self.pid())
            .field("failure", &self.failure)
            .finish_non_exhaustive()
    }
}

/// What a search waits for.
enum Awaited {
    Pong(u64),
    Move,
}

impl NboardEngine {
    /// The engine `command`, run with `options`; it starts at the first
    /// search.
    pub fn new(command: EngineCommand, options: EngineOptions) -> NboardEngine {
        NboardEngine {
            command,
            options,
            process: None,
            depth: None,
            ping: 0,
            failure: None,
            pid: None,
            engine_name: None,
        }
    }

    /// Starts the engine now, if it is not running: `nboard 2`, then
    /// `ping`, waiting for its `pong`.
    ///
    /// # Errors
    ///
    /// [`EngineError::Spawn`] or [`EngineError::Handshake`]; the process,
    /// if it started, is reaped.
    pub fn start(&mut self) -> Result<(), EngineError> {
        let process = self.ready()?;
        self.process = Some(process);
        Ok(())
    }

    /// The command line.
    pub fn command(&self) -> &EngineCommand {
        &self.command
    }

    /// The name the engine gave with `set myname`, if it did.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    /// The process id of the running engine, or of the last one (which has
    /// been reaped) if it is not running.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Whether an engine process is running (none before the first search
    /// and after a failure).
    pub fn is_running(&self) -> bool {
        self.process.is_some()
    }

    /// Why the last search failed (the engine forfeits), or `None`; the
    /// same as [`Searcher::failure`].
    pub fn failure(&self) -> Option<String> {
        self.failure.clone()
    }

    /// The running engine, taken out of `self` (put it back after a good
    /// exchange).
    fn ready(&mut self) -> Result<EngineProcess, EngineError> {
        if let Some(process) = self.process.take() {
            return Ok(process);
        }
        let mut process =
            EngineProcess::spawn(&self.command, "quit", "\n", self.options.quit_grace)?;
        self.pid = Some(process.pid());
        self.depth = None;
        process.send("nboard 2");
        self.ping += 1;
        let ping = self.ping;
        process.send(&format!("ping {ping}"));
        let deadline = deadline_after(self.options.startup);
        loop {
            let reason = match process.recv(deadline, None) {
                Ok(line) => {
                    if self.skip_line(&line, &Awaited::Pong(ping)) == Some(true) {
                        return Ok(process);
                    }
                    continue;
                }
                Err(NoLine::Timeout) => format!(
                    "no pong {ping} within {:.1} s",
                    self.options.startup.as_secs_f64()
                ),
                Err(NoLine::Closed(how)) => format!("{how} before answering ping {ping}"),
                Err(NoLine::Stopped) => "stopped".to_string(),
            };
            process.kill();
            return Err(EngineError::Handshake {
                program: process.program().to_string(),
                reason,
            });
        }
    }

    /// Reads a line while waiting for `awaited`: `Some(true)` if it is the
    /// awaited `pong`, `Some(false)` if it is to be skipped, `None` if it
    /// is none of the lines an engine sends (while waiting for a pong,
    /// every line is skipped).
    fn skip_line(&mut self, line: &str, awaited: &Awaited) -> Option<bool> {
        let word = first_word(line);
        match (word.as_str(), awaited) {
            ("PONG", Awaited::Pong(ping)) => {
                let number = line.split_whitespace().nth(1);
                Some(number.and_then(|n| n.parse::<u64>().ok()) == Some(*ping))
            }
            ("SET", _) => {
                if let Some(name) = line
                    .split_once(char::is_whitespace)
                    .map(|(_, rest)| rest.trim())
                    .and_then(|rest| rest.strip_prefix("myname"))
                {
                    self.engine_name = Some(name.trim().to_string());
                }
                Some(false)
            }
            (_, Awaited::Pong(_)) => Some(false),
            ("STATUS" | "SEARCH" | "NODESTATS" | "LEARNED" | "PONG", Awaited::Move) => Some(false),
            _ => None,
        }
    }

    /// Sends the position and `go`, and waits for the move.
    fn exchange(
        &mut self,
        process: &mut EngineProcess,
        board: &Board,
        move_time: Duration,
        limits: &Limits,
    ) -> Result<(Move, f32), EngineError> {
        if let Some(depth) = limits.depth
            && self.depth != Some(depth)
        {
            process.send(&format!("set depth {}", depth.max(1)));
            self.depth = Some(depth);
        }
        process.send(&format!("set game {}", write_ggf(board)));
        self.ping += 1;
        let ping = self.ping;
        process.send(&format!("ping {ping}"));
        process.send("go");
        let waited = move_time.saturating_add(self.options.margin);
        let deadline = deadline_after(waited);
        let mut awaited = Awaited::Pong(ping);
        loop {
            let line = match process.recv(deadline, limits.stop.as_ref()) {
                Ok(line) => line,
                Err(NoLine::Timeout) => return Err(EngineError::Timeout { waited, said: None }),
                Err(NoLine::Closed(how)) => return Err(EngineError::Exited { how }),
                Err(NoLine::Stopped) => return Err(EngineError::Stopped),
            };
            if let Some(answer) = line.strip_prefix("===") {
                if matches!(awaited, Awaited::Pong(_)) {
                    // An answer before the pong is from an earlier `go`.
                    continue;
                }
                return parse_answer(board, answer.trim()).map_err(|error| match error {
                    EngineError::Malformed { .. } => EngineError::malformed(&line),
                    other => other,
                });
            }
            match self.skip_line(&line, &awaited) {
                Some(true) => awaited = Awaited::Move,
                Some(false) => {}
                None => return Err(EngineError::malformed(&line)),
            }
        }
    }
}

/// `<move>[/<eval>[/<time>]]`: the move, checked, and the value (the eval
/// over 64, in `[-1, 1]`; 0 without an eval). Spaces separate the fields
/// as well as slashes: Edax answers `=== f5 0.00 0.0`.
fn parse_answer(board: &Board, answer: &str) -> Result<(Move, f32), EngineError> {
    let mut fields = answer
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|field| !field.is_empty());
    let text = fields.next().unwrap_or("").trim();
    if text.len() != 2 {
        return Err(EngineError::malformed(answer));
    }
    let mv: Move = text.parse().map_err(|_| EngineError::malformed(answer))?;
    if !board.is_legal(mv) {
        let mut legal = Vec::new();
        board.legal_moves(&mut legal);
        let legal: Vec<String> = legal.into_iter().map(nboard_move).collect();
        return Err(EngineError::IllegalMove {
            mv: text.to_string(),
            reason: format!("not legal here (legal: {})", legal.join(" ")),
        });
    }
    let value = fields
        .next()
        .and_then(|eval| eval.trim().parse::<f32>().ok())
        .filter(|eval| eval.is_finite())
        .map_or(0.0, |eval| (eval / 64.0).clamp(-1.0, 1.0));
    Ok((mv, value))
}

impl Searcher<Board> for NboardEngine {
    fn search(&mut self, state: &Board, limits: &Limits) -> SearchReport<Move> {
        let clock = Instant::now();
        self.failure = None;
        if state.is_over() {
            return SearchReport::game_over(state, clock.elapsed());
        }
        if state.is_legal(Move::Pass) {
            // The only move: nothing to ask.
            return SearchReport::new(Some(Move::Pass), 0.0).with_stats(
                SearchStats::new(0, 0, 0, clock.elapsed()).with_stop(StopReason::Exhausted),
            );
        }
        let move_time = limits.time.unwrap_or(self.options.default_move_time);
        let result = self.ready().and_then(|mut process| {
            match self.exchange(&mut process, state, move_time, limits) {
                Ok(answer) => {
                    self.process = Some(process);
                    Ok(answer)
                }
                Err(error) => {
                    process.kill();
                    Err(error)
                }
            }
        });
        let stop = if limits.depth.is_some() {
            StopReason::Depth
        } else {
            StopReason::DefaultBudget
        };
        let stats =
            SearchStats::new(0, 0, limits.depth.unwrap_or(0), clock.elapsed()).with_stop(stop);
        match result {
            Ok((mv, value)) => SearchReport::new(Some(mv), value).with_stats(stats),
            Err(error) => {
                self.failure = Some(error.to_string());
                SearchReport::new(None, 0.0).with_stats(stats)
            }
        }
    }

    fn name(&self) -> String {
        self.options
            .name
            .clone()
            .unwrap_or_else(|| format!("nboard({})", self.command.short_name()))
    }

    /// Only the depth: it is sent as `set depth`. The time limit is only
    /// the answer's deadline.
    fn honours(&self, kind: LimitKind) -> bool {
        kind == LimitKind::Depth
    }

    fn failure(&self) -> Option<String> {
        NboardEngine::failure(self)
    }
}
