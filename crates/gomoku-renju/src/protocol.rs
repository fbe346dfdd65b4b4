//! The Gomocup (Piskvork) brain protocol: a brain that reads commands
//! line by line and answers with moves, around any searcher.
//!
//! The transport and commands follow Petr Laštovička and Martin Petříček,
//! *Gomoku AI protocol* (the "new protocol" of the Piskvork manager, as
//! published with Piskvork; version history up to 2023-03-20). What this
//! module relies on:
//!
//! * One command per line on standard input; the manager ends lines with
//!   CR LF (a trailing CR is stripped; empty lines are ignored). Commands
//!   come in upper case, `INFO` keys in lower case; this brain accepts
//!   either. Replies are one line each, flushed at once.
//! * Moves are `X,Y`, zero-based, `X` the column and `Y` the row, with row 0
//!   at the top of Piskvork's board ([`Move::from_protocol`]).
//! * `START n` (must support 20; here 5 to 22) answers `OK` or `ERROR`;
//!   `RECTSTART w,h` only for square boards; `RESTART` starts a new game of
//!   the same size (`OK`); `BEGIN` asks for the first move on an empty
//!   board; `TURN x,y` gives the opponent's move and asks for a reply;
//!   `BOARD`, then lines `x,y,f` (`f` 1 own stone, 2 opponent's; 3 only in
//!   the continuous game, not supported here), then `DONE`, gives a whole
//!   position and asks for a move (in gomoku the stones may come in any
//!   order; the player to move is this brain, its colour told by the
//!   counts: as many own stones as the opponent's make it Black, one fewer
//!   White); `TAKEBACK x,y` removes a stone (`OK`); `PLAY x,y` imposes the
//!   brain's move (echoed); `END` ends the brain, with no reply; `ABOUT`
//!   answers `key="value"` pairs.
//! * `INFO key value` gets no reply: `timeout_turn` (ms per move, 0 = as
//!   fast as possible), `timeout_match` (ms per match, 0 = no limit),
//!   `time_left` (ms left in the match, sent before each move when the
//!   match time is limited, may be negative, 2147483647 = unlimited),
//!   `max_memory` (bytes, 0 = no limit), `game_type`, `rule` (a bitmask: 1
//!   exact five, 2 continuous game, 4 renju, 8 caro; 0 freestyle), `folder`,
//!   `evaluate`; unknown keys are ignored. A brain that cannot satisfy an
//!   `INFO` (here: caro, or any rule bit above 8) must say so only at the
//!   next command that expects an answer, since the manager reads no reply
//!   to `INFO`: this brain answers that command with `ERROR ...`. A
//!   malformed value is ignored and reported as a `MESSAGE` line before the
//!   next answer (never as a line of its own, which the manager would take
//!   for the answer).
//! * Anything unknown is answered `UNKNOWN ...`; a known command it cannot
//!   handle (bad coordinates, an occupied cell, a malformed `BOARD` line,
//!   reported at `DONE`) gets `ERROR ...`, and the brain goes on.
//!   `MESSAGE text` lines go to the manager's log, just before an answer.
//! * Input is read as bytes ([`read_input_line`]): a line that is not
//!   UTF-8, or longer than [`MAX_LINE_BYTES`] (the rest of it is skipped),
//!   is never acted on. It is answered `ERROR ...`, except inside a `BOARD`
//!   block (reported at `DONE`) and on an `INFO` line (a `MESSAGE` before
//!   the next answer), where an answer would be taken for another one.
//!   Every answer is one line, whatever the input held.
//! * The renju manager judges forbidden moves; this brain never plays one
//!   as Black.
//!
//! Threading: [`run`] reads the input on its own thread and hands each line
//! to the brain through a channel, so the brain thinks while the reader
//! keeps reading; an `END` read during a search stops the search at once
//! (through [`Limits::stop`](game_traits::Limits)). Lines are handled in
//! order by one loop, so a command sent right after an answer is never
//! lost.
//!
//! Time: each answer is due within `timeout_turn` of the command's arrival
//! (and within a share of `time_left` when the match time is limited):
//! the search gets that budget minus a safety margin ([`Timing`]).

use std::io::{self, BufRead, Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use game_traits::{Game, Limits, Player, Searcher};

use crate::{Gomoku, MAX_SIZE, MIN_SIZE, Move, Rule};

/// What the manager told the brain through `INFO`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Settings {
    /// Time per move; zero asks for an instant answer. Default 5 s (until
    /// the manager says).
    pub timeout_turn: Duration,
    /// Time for the whole match; `None` for no limit.
    pub timeout_match: Option<Duration>,
    /// Time left in the match (negative values count as zero); `None` when
    /// unlimited or not told.
    pub time_left: Option<Duration>,
    /// Memory the brain may use, in bytes; `None` for no limit.
    pub max_memory: Option<u64>,
    /// The rule of the games.
    pub rule: Rule,
    /// The `game_type` value (0 human opponent, 1 brain, 2 tournament, 3
    /// network tournament), if told.
    pub game_type: Option<u32>,
    /// The folder for persistent files, if told.
    pub folder: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout_turn: Duration::from_secs(5),
            timeout_match: None,
            time_left: None,
            max_memory: None,
            rule: Rule::Freestyle,
            game_type: None,
            folder: None,
        }
    }
}

/// How much of the time limits a move may use.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Timing {
    /// Kept back from every limit: at least this much. Default 60 ms.
    pub min_margin: Duration,
    /// Kept back from every limit: at least this share of it. Default 0.1.
    pub margin_share: f64,
    /// With a match clock, a move may use the time left divided by this
    /// many moves. Default 20.
    pub moves_to_plan: u32,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            min_margin: Duration::from_millis(60),
            margin_share: 0.1,
            moves_to_plan: 20,
        }
    }
}

impl Timing {
    /// The search time for a move under `settings`: `timeout_turn` (and
    /// `time_left / moves_to_plan` if the match time is limited), minus the
    /// margin; at least 1 ms.
    #[must_use]
    pub fn budget(&self, settings: &Settings) -> Duration {
        let mut limit = settings.timeout_turn;
        if let Some(left) = settings.time_left {
            limit = limit.min(left / self.moves_to_plan.max(1));
        }
        let margin = self
            .min_margin
            .max(limit.mul_f64(self.margin_share.clamp(0.0, 1.0)));
        limit.saturating_sub(margin).max(Duration::from_millis(1))
    }
}

/// The longest line the brain reads, line end included: a longer one is
/// cut there and the rest of it, up to the newline, skipped, so a line
/// that never ends cannot fill the memory. Real commands are far shorter
/// (a `BOARD` block sends one short line per stone).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Messages kept for the next answer; more are counted, not kept, so a
/// stream of malformed `INFO` lines cannot fill the memory.
const MAX_PENDING_MESSAGES: usize = 16;

/// Why a line of input is not acted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LineProblem {
    /// The line holds bytes that are not UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// The line is longer than [`MAX_LINE_BYTES`]; its rest was skipped.
    #[error("the line is longer than {MAX_LINE_BYTES} bytes")]
    TooLong,
}

/// One line of input, as [`read_input_line`] read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputLine {
    /// The line without its line end (`\n` or `\r\n`); bytes that are not
    /// UTF-8 replaced by U+FFFD; of a line too long, its first
    /// [`MAX_LINE_BYTES`].
    pub text: String,
    /// What makes the line unusable, if anything.
    pub problem: Option<LineProblem>,
}

impl InputLine {
    /// A line read as valid text.
    pub fn text(text: impl Into<String>) -> Self {
        InputLine {
            text: text.into(),
            problem: None,
        }
    }
}

/// Reads one line of `input` as bytes, whatever they are: up to the next
/// `\n` or the end of the input, at most [`MAX_LINE_BYTES`] of it kept.
/// `Ok(None)` at the end of the input.
///
/// # Errors
///
/// The input's own errors (bytes that are not UTF-8 are not one: they are
/// the line's [`problem`](InputLine::problem)).
pub fn read_input_line(input: &mut impl BufRead) -> io::Result<Option<InputLine>> {
    let mut bytes = Vec::new();
    let read = input
        .by_ref()
        .take(MAX_LINE_BYTES as u64)
        .read_until(b'\n', &mut bytes)?;
    if read == 0 {
        return Ok(None);
    }
    let mut too_long = false;
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() >= MAX_LINE_BYTES {
        too_long = true;
        skip_rest_of_line(input)?;
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    let (text, not_utf8) = match String::from_utf8(bytes) {
        Ok(text) => (text, false),
        Err(error) => (String::from_utf8_lossy(error.as_bytes()).into_owned(), true),
    };
    // A cut line may end in half a character: being cut is the problem.
    let problem = if too_long {
        Some(LineProblem::TooLong)
    } else if not_utf8 {
        Some(LineProblem::NotUtf8)
    } else {
        None
    };
    Ok(Some(InputLine { text, problem }))
}

/// Consumes `input` up to and including the next `\n`, keeping nothing.
fn skip_rest_of_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                input.consume(end + 1);
                return Ok(());
            }
            None => {
                let length = buffer.len();
                input.consume(length);
            }
        }
    }
}

/// A short, quoted, one-line view of `text` for an answer.
fn excerpt(text: &str) -> String {
    const SHOWN_CHARS: usize = 40;
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(SHOWN_CHARS).collect();
    if chars.next().is_some() {
        format!("{head:?}...")
    } else {
        format!("{head:?}")
    }
}

/// Whether `line` is the `END` command.
fn is_end(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|command| command.eq_ignore_ascii_case("END"))
}

/// Whether the brain goes on after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Wait for the next line.
    Continue,
    /// `END` was received: stop.
    End,
}

/// A `BOARD` (or `SWAP2BOARD`) block being read.
#[derive(Clone, Debug, Default)]
struct BoardBlock {
    swap2: bool,
    own: Vec<Move>,
    opponent: Vec<Move>,
    /// The first problem, reported at `DONE`.
    error: Option<String>,
    lines: usize,
}

/// The brain: the game, the settings and a searcher built for them.
///
/// The searcher comes from a factory, called with the current
/// [`Settings`] before the first search of each game and again whenever a
/// setting changes (so `max_memory` can size a search tree, say). Between
/// moves of a game the searcher hears every move through
/// [`Searcher::advance`], so it can keep its tree.
///
/// ```
/// use gomoku_renju::protocol::{Brain, Flow};
/// use gomoku_renju::{PatternEvaluator, Gomoku};
/// use game_traits::GreedySearcher;
///
/// let mut brain = Brain::new(|_| GreedySearcher::new(PatternEvaluator::default()));
/// let mut out = Vec::new();
/// for line in ["START 15", "INFO timeout_turn 100", "BEGIN"] {
///     assert_eq!(brain.handle_line(line, &mut out)?, Flow::Continue);
/// }
/// assert_eq!(String::from_utf8(out).unwrap(), "OK\n7,7\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Brain<S, F> {
    make: F,
    searcher: Option<S>,
    settings: Settings,
    timing: Timing,
    game: Option<Gomoku>,
    block: Option<BoardBlock>,
    messages: Vec<String>,
    /// Messages beyond [`MAX_PENDING_MESSAGES`], counted for the next answer.
    dropped_messages: usize,
    unsatisfied: Option<String>,
    about: String,
    stop: Arc<AtomicBool>,
    /// The brain's own last move, told to the searcher once the answer is
    /// out (tree reuse can take a while and must not delay the answer).
    to_advance: Option<Move>,
}

impl<S, F> Brain<S, F>
where
    S: Searcher<Gomoku>,
    F: FnMut(&Settings) -> S,
{
    /// A brain whose searchers come from `make`.
    pub fn new(make: F) -> Self {
        Brain {
            make,
            searcher: None,
            settings: Settings::default(),
            timing: Timing::default(),
            game: None,
            block: None,
            messages: Vec::new(),
            dropped_messages: 0,
            unsatisfied: None,
            about: format!(
                "name=\"pbrain-gomoku\", version=\"{}\", author=\"The game-search developers\", www=\"https://github.com/game-search/game-search\"",
                env!("CARGO_PKG_VERSION")
            ),
            stop: Arc::new(AtomicBool::new(false)),
            to_advance: None,
        }
    }

    /// Sets the time margins.
    #[must_use]
    pub fn with_timing(mut self, timing: Timing) -> Self {
        self.timing = timing;
        self
    }

    /// Sets the `ABOUT` answer (`key="value"` pairs).
    #[must_use]
    pub fn with_about(mut self, about: impl Into<String>) -> Self {
        self.about = about.into();
        self
    }

    /// The settings so far.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The position, once a board exists.
    pub fn position(&self) -> Option<&Gomoku> {
        self.game.as_ref()
    }

    /// The flag that stops a search in progress (set by [`run`]'s reader
    /// when it reads `END`).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Handles one line received just now; see
    /// [`handle_line_at`](Brain::handle_line_at).
    ///
    /// # Errors
    ///
    /// Only errors of `out`.
    pub fn handle_line(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        self.handle_line_at(line, Instant::now(), out)
    }

    /// Handles one line received at `received` (the answer's deadline
    /// counts from then), writing and flushing the answers to `out`.
    ///
    /// # Errors
    ///
    /// Only errors of `out`.
    pub fn handle_line_at(
        &mut self,
        line: &str,
        received: Instant,
        out: &mut impl Write,
    ) -> io::Result<Flow> {
        let line = line.trim_end_matches(['\r', '\n']).trim();
        if line.is_empty() {
            return Ok(Flow::Continue);
        }
        // END ends the brain anywhere, even inside a BOARD block (the
        // reader has stopped reading by then).
        if is_end(line) {
            return Ok(Flow::End);
        }
        if self.block.is_some() {
            self.board_line(line, received, out)?;
            return Ok(Flow::Continue);
        }
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((command, rest)) => (command.to_ascii_uppercase(), rest.trim()),
            None => (line.to_ascii_uppercase(), ""),
        };
        if command == "INFO" {
            self.info(rest);
            return Ok(Flow::Continue);
        }
        // An INFO that could not be satisfied is reported now.
        if let Some(problem) = self.unsatisfied.take() {
            if command == "BOARD" || command == "SWAP2BOARD" {
                // Swallow the block; answer at DONE.
                self.block = Some(BoardBlock {
                    error: Some(problem),
                    ..BoardBlock::default()
                });
                return Ok(Flow::Continue);
            }
            return self.reply(out, format!("ERROR {problem}"));
        }
        let answer = match command.as_str() {
            "START" => self.start(rest),
            "RECTSTART" => self.rect_start(rest),
            "RESTART" => self.restart(),
            "BEGIN" => self.begin(received),
            "TURN" => self.turn(rest, received),
            "BOARD" | "SWAP2BOARD" => {
                self.block = Some(BoardBlock {
                    swap2: command == "SWAP2BOARD",
                    ..BoardBlock::default()
                });
                return Ok(Flow::Continue);
            }
            "TAKEBACK" => self.take_back(rest),
            "PLAY" => self.play_imposed(rest),
            "ABOUT" => self.about.clone(),
            _ => format!("UNKNOWN command {command:?} is not supported"),
        };
        self.reply(out, answer)
    }

    /// Handles one line as [`read_input_line`] read it, received at
    /// `received`: a usable line as [`handle_line_at`](Brain::handle_line_at)
    /// does; one with a [`LineProblem`] is not acted on and gets
    /// `ERROR ...` (inside a `BOARD` block, at `DONE`; on an `INFO` line, a
    /// `MESSAGE` before the next answer).
    ///
    /// # Errors
    ///
    /// Only errors of `out`.
    pub fn handle_input_at(
        &mut self,
        line: &InputLine,
        received: Instant,
        out: &mut impl Write,
    ) -> io::Result<Flow> {
        let Some(problem) = line.problem else {
            return self.handle_line_at(&line.text, received, out);
        };
        if let Some(block) = self.block.as_mut() {
            block.lines += 1;
            if block.error.is_none() {
                block.error = Some(format!("BOARD line {}: {problem}", block.lines));
            }
            return Ok(Flow::Continue);
        }
        let is_info = line
            .text
            .split_whitespace()
            .next()
            .is_some_and(|command| command.eq_ignore_ascii_case("INFO"));
        if is_info {
            // The manager reads no answer to INFO.
            self.message(format!(
                "ignored INFO line {}: {problem}",
                excerpt(&line.text)
            ));
            return Ok(Flow::Continue);
        }
        self.reply(out, format!("ERROR {problem}: {}", excerpt(&line.text)))
    }

    /// Keeps `message` for the next answer, or counts it once enough are
    /// waiting.
    fn message(&mut self, message: String) {
        if self.messages.len() < MAX_PENDING_MESSAGES {
            self.messages.push(message);
        } else {
            self.dropped_messages += 1;
        }
    }

    /// Writes the pending messages and `answer`, and flushes; nothing once
    /// `END` has been read (the manager wants no answer after it). Each is
    /// one line: line breaks that came from the input are blanked.
    fn reply(&mut self, out: &mut impl Write, answer: String) -> io::Result<Flow> {
        if self.stop.load(Ordering::Relaxed) {
            return Ok(Flow::Continue);
        }
        let one_line = |text: &str| text.replace(['\r', '\n'], " ");
        for message in self.messages.drain(..) {
            writeln!(out, "MESSAGE {}", one_line(&message))?;
        }
        if self.dropped_messages > 0 {
            writeln!(
                out,
                "MESSAGE {} more messages dropped",
                self.dropped_messages
            )?;
            self.dropped_messages = 0;
        }
        writeln!(out, "{}", one_line(&answer))?;
        out.flush()?;
        if let Some(mv) = self.to_advance.take()
            && let Some(searcher) = self.searcher.as_mut()
        {
            searcher.advance(mv);
        }
        Ok(Flow::Continue)
    }

    fn info(&mut self, rest: &str) {
        let (key, value) = match rest.split_once(char::is_whitespace) {
            Some((key, value)) => (key.to_ascii_lowercase(), value.trim()),
            None => (rest.to_ascii_lowercase(), ""),
        };
        let number = || value.parse::<i64>();
        let millis = |value: i64| Duration::from_millis(value.max(0) as u64);
        let malformed = |brain: &mut Self| {
            brain.message(format!(
                "ignored INFO {key} {}: not a number",
                excerpt(value)
            ));
        };
        match key.as_str() {
            "timeout_turn" => match number() {
                Ok(ms) => self.settings.timeout_turn = millis(ms),
                Err(_) => malformed(self),
            },
            "timeout_match" => match number() {
                Ok(0) => self.settings.timeout_match = None,
                Ok(ms) => self.settings.timeout_match = Some(millis(ms)),
                Err(_) => malformed(self),
            },
            "time_left" => match number() {
                Ok(2_147_483_647) => self.settings.time_left = None,
                Ok(ms) => self.settings.time_left = Some(millis(ms)),
                Err(_) => malformed(self),
            },
            "max_memory" => match value.parse::<u64>() {
                Ok(0) => self.set_memory(None),
                Ok(bytes) => self.set_memory(Some(bytes)),
                Err(_) => malformed(self),
            },
            "game_type" => match value.parse::<u32>() {
                Ok(game_type) => self.settings.game_type = Some(game_type),
                Err(_) => malformed(self),
            },
            "rule" => match value.parse::<u32>() {
                Ok(bits) => match Rule::from_protocol(bits) {
                    Ok(rule) => self.set_rule(rule),
                    Err(error) => self.unsatisfied = Some(error.to_string()),
                },
                Err(_) => malformed(self),
            },
            "folder" => self.settings.folder = Some(value.to_string()),
            // Debugging aids and unknown keys need nothing.
            _ => {}
        }
    }

    fn set_memory(&mut self, bytes: Option<u64>) {
        if self.settings.max_memory != bytes {
            self.settings.max_memory = bytes;
            self.searcher = None;
        }
    }

    fn set_rule(&mut self, rule: Rule) {
        if self.settings.rule == rule {
            return;
        }
        self.settings.rule = rule;
        self.searcher = None;
        // The rule applies to the board at once (managers send it before
        // the first move, before or after START).
        if let Some(game) = &self.game {
            self.game = rebuild(game, rule).ok();
        }
    }

    fn searcher(&mut self) -> &mut S {
        if self.searcher.is_none() {
            self.searcher = Some((self.make)(&self.settings));
        }
        self.searcher
            .get_or_insert_with(|| unreachable!("just built"))
    }

    fn new_game(&mut self, size: usize) -> String {
        match Gomoku::with_size(size, self.settings.rule) {
            Ok(game) => {
                self.game = Some(game);
                if let Some(searcher) = self.searcher.as_mut() {
                    searcher.reset();
                }
                "OK".to_string()
            }
            Err(error) => format!("ERROR {error}"),
        }
    }

    fn start(&mut self, rest: &str) -> String {
        match rest.parse::<usize>() {
            Ok(size) if (MIN_SIZE..=MAX_SIZE).contains(&size) => self.new_game(size),
            Ok(size) => format!("ERROR board size {size} is not supported: 5 to 22"),
            Err(_) => format!("ERROR START needs a board size, got {rest:?}"),
        }
    }

    fn rect_start(&mut self, rest: &str) -> String {
        let parsed = rest.split_once(',').and_then(|(w, h)| {
            Some((
                w.trim().parse::<usize>().ok()?,
                h.trim().parse::<usize>().ok()?,
            ))
        });
        match parsed {
            Some((width, height)) if width == height => self.start(&width.to_string()),
            Some((width, height)) => {
                format!("ERROR rectangular boards ({width}x{height}) are not supported")
            }
            None => format!("ERROR RECTSTART needs width,height, got {rest:?}"),
        }
    }

    fn restart(&mut self) -> String {
        match &self.game {
            Some(game) => self.new_game(game.size()),
            None => "ERROR no board yet: START first".to_string(),
        }
    }

    fn begin(&mut self, received: Instant) -> String {
        match &self.game {
            None => "ERROR no board yet: START first".to_string(),
            Some(game) if game.stone_count() > 0 => {
                "ERROR BEGIN needs an empty board: RESTART first".to_string()
            }
            Some(_) => self.think(received),
        }
    }

    /// Parses `x,y` on the current board.
    fn coordinates(&self, text: &str) -> Result<Move, String> {
        let Some(game) = &self.game else {
            return Err("no board yet: START first".to_string());
        };
        let size = game.size();
        let parse = |part: &str| part.trim().parse::<u32>().ok();
        let Some((x, y)) = text
            .split_once(',')
            .and_then(|(x, y)| Some((parse(x)?, parse(y)?)))
        else {
            return Err(format!("expected coordinates x,y, got {text:?}"));
        };
        Move::from_protocol(x, y, size)
            .ok_or_else(|| format!("{x},{y} is off the {size}x{size} board"))
    }

    fn turn(&mut self, rest: &str, received: Instant) -> String {
        let mv = match self.coordinates(rest) {
            Ok(mv) => mv,
            Err(error) => return format!("ERROR TURN: {error}"),
        };
        let Some(game) = self.game.as_mut() else {
            return "ERROR no board yet: START first".to_string();
        };
        if let Some(outcome) = game.result() {
            return format!("ERROR the game is over ({outcome})");
        }
        if game.stone(mv).is_some() {
            return format!("ERROR TURN {rest}: the cell is taken");
        }
        if let Some(kind) = (game.side() == Player::First)
            .then(|| game.forbidden(mv))
            .flatten()
        {
            return format!("ERROR TURN {rest}: a {kind} is forbidden to Black under renju");
        }
        if game.try_play(mv).is_err() {
            return format!("ERROR TURN {rest} is not a legal move");
        }
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.advance(mv);
        }
        if let Some(outcome) = game.result() {
            return format!("ERROR the game is over after {rest} ({outcome})");
        }
        self.think(received)
    }

    fn take_back(&mut self, rest: &str) -> String {
        let mv = match self.coordinates(rest) {
            Ok(mv) => mv,
            Err(error) => return format!("ERROR TAKEBACK: {error}"),
        };
        let Some(game) = &self.game else {
            return "ERROR no board yet: START first".to_string();
        };
        let Some(owner) = game.stone(mv) else {
            return format!("ERROR TAKEBACK {rest}: no stone there");
        };
        let mut black: Vec<Move> = game.stones(Player::First).iter().collect();
        let mut white: Vec<Move> = game.stones(Player::Second).iter().collect();
        black.retain(|&stone| stone != mv);
        white.retain(|&stone| stone != mv);
        match Gomoku::from_stones(game.size(), game.rule(), &black, &white, owner) {
            Ok(game) => {
                self.game = Some(game);
                if let Some(searcher) = self.searcher.as_mut() {
                    searcher.reset();
                }
                "OK".to_string()
            }
            Err(error) => format!("ERROR TAKEBACK {rest}: {error}"),
        }
    }

    fn play_imposed(&mut self, rest: &str) -> String {
        let mv = match self.coordinates(rest) {
            Ok(mv) => mv,
            Err(error) => return format!("ERROR PLAY: {error}"),
        };
        let Some(game) = self.game.as_mut() else {
            return "ERROR no board yet: START first".to_string();
        };
        if game.try_play(mv).is_err() {
            return format!("ERROR PLAY {rest} is not a legal move");
        }
        if let Some(searcher) = self.searcher.as_mut() {
            searcher.advance(mv);
        }
        format_move(mv, game.size())
    }

    fn board_line(
        &mut self,
        line: &str,
        received: Instant,
        out: &mut impl Write,
    ) -> io::Result<()> {
        let size = self.game.as_ref().map(Gomoku::size);
        let Some(block) = self.block.as_mut() else {
            return Ok(());
        };
        if line.eq_ignore_ascii_case("DONE") {
            let block = self.block.take().unwrap_or_default();
            let answer = self.board_done(block, received);
            self.reply(out, answer)?;
            return Ok(());
        }
        block.lines += 1;
        if block.error.is_some() {
            return Ok(());
        }
        let number = block.lines;
        let Some(size) = size else {
            block.error = Some("no board yet: START first".to_string());
            return Ok(());
        };
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let parsed = match fields.as_slice() {
            [x, y, field] => x
                .parse::<u32>()
                .ok()
                .zip(y.parse::<u32>().ok())
                .zip(field.parse::<u32>().ok()),
            _ => None,
        };
        let Some(((x, y), field)) = parsed else {
            block.error = Some(format!(
                "BOARD line {number}: expected x,y,field, got {line:?}"
            ));
            return Ok(());
        };
        let Some(mv) = Move::from_protocol(x, y, size) else {
            block.error = Some(format!(
                "BOARD line {number}: {x},{y} is off the {size}x{size} board"
            ));
            return Ok(());
        };
        if block.own.contains(&mv) || block.opponent.contains(&mv) {
            block.error = Some(format!("BOARD line {number}: {x},{y} is given twice"));
            return Ok(());
        }
        match field {
            1 => block.own.push(mv),
            2 => block.opponent.push(mv),
            3 => {
                block.error = Some(format!(
                    "BOARD line {number}: field 3 (continuous game) is not supported"
                ));
            }
            other => {
                block.error = Some(format!(
                    "BOARD line {number}: field {other} is not 1 (own) or 2 (opponent)"
                ));
            }
        }
        Ok(())
    }

    fn board_done(&mut self, block: BoardBlock, received: Instant) -> String {
        if let Some(error) = block.error {
            return format!("ERROR {error}");
        }
        if block.swap2 {
            return "UNKNOWN SWAP2BOARD (the swap2 opening) is not supported".to_string();
        }
        let Some(size) = self.game.as_ref().map(Gomoku::size) else {
            return "ERROR no board yet: START first".to_string();
        };
        let (own, opponent) = (block.own.len(), block.opponent.len());
        let me = if own == opponent {
            Player::First
        } else if own + 1 == opponent {
            Player::Second
        } else if self.settings.rule.is_color_symmetric() {
            // Both colours play by the same rules: only the count is odd.
            if own < opponent {
                Player::First
            } else {
                Player::Second
            }
        } else {
            return format!(
                "ERROR BOARD has {own} own and {opponent} opponent stones: under renju the colours must follow from alternate play"
            );
        };
        let (black, white) = match me {
            Player::First => (&block.own, &block.opponent),
            Player::Second => (&block.opponent, &block.own),
        };
        match Gomoku::from_stones(size, self.settings.rule, black, white, me) {
            Ok(game) if game.result().is_some() => {
                format!(
                    "ERROR the position is already decided ({})",
                    game.result().map_or(String::new(), |o| o.to_string())
                )
            }
            Ok(game) => {
                self.game = Some(game);
                if let Some(searcher) = self.searcher.as_mut() {
                    searcher.reset();
                }
                self.think(received)
            }
            Err(error) => format!("ERROR BOARD: {error}"),
        }
    }

    /// Searches the position (the brain to move), plays the move and
    /// returns it as an answer.
    fn think(&mut self, received: Instant) -> String {
        let budget = self.timing.budget(&self.settings);
        let Some(game) = self.game.clone() else {
            return "ERROR no board yet: START first".to_string();
        };
        if let Some(outcome) = game.result() {
            return format!("ERROR the game is over ({outcome})");
        }
        let remaining = budget
            .saturating_sub(received.elapsed())
            .max(Duration::from_millis(1));
        let limits = Limits::time(remaining).with_stop(self.stop.clone());
        let focus = game.focus_moves();
        let report = if focus.len() == 1 {
            // One sensible move (the centre of an empty board): no search.
            game_traits::SearchReport::new(focus.iter().next(), 0.0)
        } else {
            self.searcher().search(&game, &limits)
        };
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        // Never a forbidden or illegal move, whatever the searcher says.
        let mv = match report.best.filter(|&mv| game.is_legal(mv)) {
            Some(mv) => mv,
            None => {
                let fallback = game
                    .focus_moves()
                    .iter()
                    .next()
                    .or_else(|| moves.first().copied());
                match fallback {
                    Some(mv) => mv,
                    None => return "ERROR no legal move".to_string(),
                }
            }
        };
        if mv.is_pass() {
            return "ERROR every empty cell is forbidden to Black: no move".to_string();
        }
        let game = self
            .game
            .as_mut()
            .unwrap_or_else(|| unreachable!("checked above"));
        game.play(mv);
        let size = game.size();
        self.to_advance = Some(mv);
        format_move(mv, size)
    }
}

/// `game` under another rule (same stones and player to move).
fn rebuild(game: &Gomoku, rule: Rule) -> Result<Gomoku, crate::PositionError> {
    let black: Vec<Move> = game.stones(Player::First).iter().collect();
    let white: Vec<Move> = game.stones(Player::Second).iter().collect();
    Gomoku::from_stones(game.size(), rule, &black, &white, game.side())
}

/// `x,y` of a move.
fn format_move(mv: Move, size: usize) -> String {
    match mv.to_protocol(size) {
        Some((x, y)) => format!("{x},{y}"),
        None => "ERROR no move".to_string(),
    }
}

/// Runs `brain` on `input` and `output` until `END` or the end of the
/// input. The input is read on a thread of its own, line by line as bytes
/// ([`read_input_line`]: any bytes are a line, answered `ERROR` if they
/// cannot be a command), each line stamped with its arrival time; an `END` read while the brain thinks stops the search
/// at once. (The reader thread is not joined: it ends with the input, or
/// with the process.)
///
/// # Errors
///
/// Errors of `output` (the input's errors end the session like its end).
pub fn run<S, F, R, W>(brain: &mut Brain<S, F>, input: R, mut output: W) -> io::Result<()>
where
    S: Searcher<Gomoku>,
    F: FnMut(&Settings) -> S,
    R: BufRead + Send + 'static,
    W: Write,
{
    let stop = brain.stop_flag();
    let (sender, receiver) = mpsc::channel::<(InputLine, Instant)>();
    std::thread::spawn(move || {
        let mut input = input;
        // Bytes that are not UTF-8 are a line's problem, not the input's
        // end: only the end of the input or its own error stop the reader.
        while let Ok(Some(line)) = read_input_line(&mut input) {
            let received = Instant::now();
            let ends = line.problem.is_none() && is_end(&line.text);
            if ends {
                stop.store(true, Ordering::Relaxed);
            }
            if sender.send((line, received)).is_err() || ends {
                break;
            }
        }
    });
    for (line, received) in receiver {
        if brain.handle_input_at(&line, received, &mut output)? == Flow::End {
            break;
        }
    }
    Ok(())
}
