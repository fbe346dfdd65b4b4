//! [`PbrainEngine`]: a Gomocup brain as a searcher (the module docs of
//! [`engine`](super) describe the protocol as spoken here).

use std::time::{Duration, Instant};

use game_traits::{
    Game, LimitKind, Limits, Player, SearchReport, SearchStats, Searcher, StopReason,
};
use gomoku_renju::{Gomoku, GomokuGame, Move, Rule};

use super::process::{EngineProcess, NoLine};
use super::{EngineCommand, EngineError, EngineOptions, deadline_after, first_word};

/// An external Gomoku engine speaking the Gomocup (Piskvork) protocol, as
/// a [`Searcher`] of [`gomoku_renju::Focused`] (what the arena plays) and of the
/// full [`Gomoku`].
///
/// The engine starts at the first search, or at [`start`](PbrainEngine::start);
/// each search sends the whole position (`BOARD`) and waits for the move
/// within the time of the [`Limits`] (or
/// [`EngineOptions::default_move_time`]) plus [`EngineOptions::margin`],
/// after the handshake. A search that fails returns no move and
/// [`failure`](Searcher::failure) says why (see the module docs).
///
/// ```no_run
/// use std::time::Duration;
/// use game_arena::engine::{EngineCommand, EngineOptions, PbrainEngine};
/// use game_traits::{Limits, Searcher};
///
/// let mut rapfi = PbrainEngine::new(
///     EngineCommand::new("/opt/rapfi/pbrain-rapfi"),
///     EngineOptions::default().with_settle(Duration::from_millis(50)),
/// );
/// let game = gomoku_renju::Focused::new(gomoku_renju::Gomoku::new());
/// let report = rapfi.search(&game, &Limits::time(Duration::from_millis(500)));
/// match report.best {
///     Some(mv) => println!("rapfi plays {mv}"),
///     None => println!(
///         "rapfi failed: {:?}",
///         Searcher::<gomoku_renju::Focused>::failure(&rapfi)
///     ),
/// }
/// ```
pub struct PbrainEngine {
    command: EngineCommand,
    options: EngineOptions,
    process: Option<EngineProcess>,
    /// The size of the last `START` the running engine answered.
    size: Option<usize>,
    /// The last `INFO timeout_turn` sent, in milliseconds.
    timeout_turn: Option<u64>,
    /// The last `INFO rule` sent.
    rule: Option<Rule>,
    failure: Option<String>,
    pid: Option<u32>,
    last_answer: Option<Instant>,
    /// The last position searched or advanced to, with its stones in the
    /// order they were played (as far as known).
    order: Option<(Gomoku, Vec<Move>)>,
}

impl std::fmt::Debug for PbrainEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PbrainEngine")
            .field("command", &self.command)
            .field("options", &self.options)
            .field("pid", &self.pid())
            .field("failure", &self.failure)
            .finish_non_exhaustive()
    }
}

impl PbrainEngine {
    /// The brain `command`, run with `options`; it starts at the first
    /// search.
    pub fn new(command: EngineCommand, options: EngineOptions) -> PbrainEngine {
        PbrainEngine {
            command,
            options,
            process: None,
            size: None,
            timeout_turn: None,
            rule: None,
            failure: None,
            pid: None,
            last_answer: None,
            order: None,
        }
    }

    /// Starts the engine now (if it is not running) and opens a board of
    /// [`EngineOptions::board_size`]: `START` and the `INFO` lines.
    ///
    /// # Errors
    ///
    /// [`EngineError::Spawn`] or [`EngineError::Handshake`]; the process,
    /// if it started, is reaped.
    pub fn start(&mut self) -> Result<(), EngineError> {
        let process = self.ready(self.options.board_size, Rule::Freestyle)?;
        self.process = Some(process);
        Ok(())
    }

    /// The command line.
    pub fn command(&self) -> &EngineCommand {
        &self.command
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

    /// The running engine, started and with a board of `size` under
    /// `rule`, taken out of `self` (put it back after a good exchange).
    fn ready(&mut self, size: usize, rule: Rule) -> Result<EngineProcess, EngineError> {
        let mut process = match self.process.take() {
            Some(process) => process,
            None => {
                let process =
                    EngineProcess::spawn(&self.command, "END", "\r\n", self.options.quit_grace)?;
                self.pid = Some(process.pid());
                self.size = None;
                process
            }
        };
        if self.size != Some(size) {
            if let Err(reason) = self.open_board(&mut process, size) {
                process.kill();
                return Err(EngineError::Handshake {
                    program: process.program().to_string(),
                    reason,
                });
            }
            self.size = Some(size);
            self.timeout_turn = None;
            self.rule = None;
        }
        if self.rule != Some(rule) {
            process.send(&format!("INFO rule {}", rule.protocol_value()));
            self.rule = Some(rule);
        }
        Ok(process)
    }

    /// `START size`, waiting for `OK`, then the fixed `INFO` lines.
    fn open_board(&self, process: &mut EngineProcess, size: usize) -> Result<(), String> {
        let command = format!("START {size}");
        process.send(&command);
        let deadline = deadline_after(self.options.startup);
        loop {
            let line = match process.recv(deadline, None) {
                Ok(line) => line,
                Err(NoLine::Timeout) => {
                    return Err(format!(
                        "no answer to {command} within {:.1} s",
                        self.options.startup.as_secs_f64()
                    ));
                }
                Err(NoLine::Closed(how)) => {
                    return Err(format!("{how} before answering {command}"));
                }
                Err(NoLine::Stopped) => return Err(format!("stopped before {command}")),
            };
            match first_word(&line).as_str() {
                "OK" => break,
                "MESSAGE" | "DEBUG" => {}
                "ERROR" | "UNKNOWN" => {
                    return Err(format!("answered {command} with {:?}", cut(&line)));
                }
                _ => return Err(format!("unexpected reply {:?} to {command}", cut(&line))),
            }
        }
        for info in [
            "INFO timeout_match 0",
            "INFO max_memory 0",
            "INFO game_type 1",
        ] {
            process.send(info);
        }
        Ok(())
    }

    /// The stones of `game` in play order: the order seen through
    /// `advance` when `game` is the position known, else Black and White
    /// alternating.
    fn stone_order(&mut self, game: &Gomoku) -> Vec<Move> {
        if let Some((known, order)) = &self.order
            && known == game
        {
            return order.clone();
        }
        let black: Vec<Move> = game.stones(Player::First).iter().collect();
        let white: Vec<Move> = game.stones(Player::Second).iter().collect();
        let mut order = Vec::with_capacity(black.len() + white.len());
        for index in 0..black.len().max(white.len()) {
            order.extend(black.get(index));
            order.extend(white.get(index));
        }
        self.order = Some((game.clone(), order.clone()));
        order
    }

    /// Sends the position and waits for the move.
    fn exchange<G: GomokuGame>(
        &mut self,
        process: &mut EngineProcess,
        state: &G,
        move_time: Duration,
        limits: &Limits,
    ) -> Result<Move, EngineError> {
        let game = state.as_ref();
        let size = game.size();
        if let Some(last) = self.last_answer {
            std::thread::sleep(self.options.settle.saturating_sub(last.elapsed()));
        }
        let ms = u64::try_from(move_time.as_millis()).unwrap_or(u64::MAX);
        if self.timeout_turn != Some(ms) {
            process.send(&format!("INFO timeout_turn {ms}"));
            self.timeout_turn = Some(ms);
        }
        let me = game.to_move();
        process.send("BOARD");
        for stone in self.stone_order(game) {
            if let Some((x, y)) = stone.to_protocol(size) {
                let field = if game.stone(stone) == Some(me) { 1 } else { 2 };
                process.send(&format!("{x},{y},{field}"));
            }
        }
        process.send("DONE");
        let waited = move_time.saturating_add(self.options.margin);
        let deadline = deadline_after(waited);
        let mut said = None;
        loop {
            let line = match process.recv(deadline, limits.stop.as_ref()) {
                Ok(line) => line,
                Err(NoLine::Timeout) => return Err(EngineError::Timeout { waited, said }),
                Err(NoLine::Closed(how)) => return Err(EngineError::Exited { how }),
                Err(NoLine::Stopped) => return Err(EngineError::Stopped),
            };
            match first_word(&line).as_str() {
                "MESSAGE" | "DEBUG" | "OK" => continue,
                "ERROR" | "UNKNOWN" => {
                    said = Some(cut(&line));
                    continue;
                }
                "SUGGEST" => {
                    let rest = line.get("SUGGEST".len()..).unwrap_or("").trim();
                    if parse_xy(rest).is_none() {
                        return Err(EngineError::malformed(&line));
                    }
                    process.send(&format!("PLAY {rest}"));
                    continue;
                }
                _ => {}
            }
            let (x, y) = parse_xy(&line).ok_or_else(|| EngineError::malformed(&line))?;
            self.last_answer = Some(Instant::now());
            return check_move(state, x, y);
        }
    }
}

/// `x,y` as two whole numbers.
fn parse_xy(text: &str) -> Option<(u32, u32)> {
    let (x, y) = text.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// A line cut to 80 characters, for messages.
fn cut(line: &str) -> String {
    line.chars().take(80).collect()
}

/// The engine's answer `x,y` as a move of `state`, or why it is refused.
fn check_move<G: GomokuGame>(state: &G, x: u32, y: u32) -> Result<Move, EngineError> {
    let game = state.as_ref();
    let size = game.size();
    let illegal = |reason: String| EngineError::IllegalMove {
        mv: format!("{x},{y}"),
        reason,
    };
    let Some(mv) = Move::from_protocol(x, y, size) else {
        return Err(illegal(format!("off the {size}x{size} board")));
    };
    if state.is_legal(mv) {
        return Ok(mv);
    }
    Err(illegal(if game.stone(mv).is_some() {
        "the cell is taken".to_string()
    } else if game.is_legal(mv) {
        "it is outside the focused cells the arena plays (more than two steps from every stone), though legal in the full game".to_string()
    } else if let Some(kind) = game.forbidden(mv) {
        format!("a {kind} is forbidden to Black under renju")
    } else {
        "not legal here".to_string()
    }))
}

impl<G: GomokuGame> Searcher<G> for PbrainEngine {
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<Move> {
        let clock = Instant::now();
        self.failure = None;
        if state.is_over() {
            return SearchReport::game_over(state, clock.elapsed());
        }
        let mut legal = Vec::new();
        state.legal_moves(&mut legal);
        if legal.len() == 1 && legal[0].is_pass() {
            // Black must pass under renju: nothing to ask.
            return SearchReport::new(Some(Move::PASS), 0.0).with_stats(
                SearchStats::new(0, 0, 0, clock.elapsed()).with_stop(StopReason::Exhausted),
            );
        }
        let game = state.as_ref();
        let move_time = limits.time.unwrap_or(self.options.default_move_time);
        let result = self
            .ready(game.size(), game.rule())
            .and_then(
                |mut process| match self.exchange(&mut process, state, move_time, limits) {
                    Ok(mv) => {
                        self.process = Some(process);
                        Ok(mv)
                    }
                    Err(error) => {
                        process.kill();
                        Err(error)
                    }
                },
            );
        let stop = if limits.time.is_some() {
            StopReason::Time
        } else {
            StopReason::DefaultBudget
        };
        let stats = SearchStats::new(0, 0, 0, clock.elapsed()).with_stop(stop);
        match result {
            Ok(mv) => SearchReport::new(Some(mv), 0.0).with_stats(stats),
            Err(error) => {
                self.failure = Some(error.to_string());
                SearchReport::new(None, 0.0).with_stats(stats)
            }
        }
    }

    fn advance(&mut self, played: Move) {
        if let Some((known, order)) = &mut self.order {
            if known.try_play(played).is_ok() {
                order.push(played);
            } else {
                self.order = None;
            }
        }
    }

    fn reset(&mut self) {
        self.order = None;
    }

    fn name(&self) -> String {
        self.options
            .name
            .clone()
            .unwrap_or_else(|| format!("pbrain({})", self.command.short_name()))
    }

    /// Only the time: it is the brain's `timeout_turn`.
    fn honours(&self, kind: LimitKind) -> bool {
        kind == LimitKind::Time
    }

    fn failure(&self) -> Option<String> {
        PbrainEngine::failure(self)
    }
}
