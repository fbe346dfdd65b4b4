//! External engines as searchers: a program run as a child process and
//! spoken to through its protocol, so that a tournament can pit the
//! workspace's searchers against, say, Rapfi at Gomoku or Edax at Othello.
//!
//! * [`PbrainEngine`] is a [`Searcher`](game_traits::Searcher) of Gomoku
//!   ([`gomoku_renju::Focused`], and the full [`gomoku_renju::Gomoku`]) that speaks the
//!   Gomocup (Piskvork) brain protocol as the manager.
//! * [`NboardEngine`] is a searcher of Othello ([`bitboard_othello::Board`])
//!   that speaks the NBoard protocol as the GUI.
//! * [`PBRAIN_INFO`] and [`NBOARD_INFO`] with [`pbrain_factory`] and
//!   [`nboard_factory`] register them in a
//!   [`GameSetup`](crate::registry::GameSetup), so that specs such as
//!   `pbrain:cmd=/opt/rapfi/pbrain-rapfi,ms=1000` or
//!   `nboard:cmd=/usr/bin/edax -q -n 1,depth=10` name them:
//!
//! ```no_run
//! use game_arena::engine::{NBOARD_INFO, PBRAIN_INFO, nboard_factory, pbrain_factory};
//! use game_arena::registry::GameSetup;
//!
//! let gomoku = GameSetup::<gomoku_renju::Focused>::new().searcher(&PBRAIN_INFO, pbrain_factory);
//! let spec = gomoku.spec("pbrain:cmd=/opt/rapfi/pbrain-rapfi,ms=1000")?;
//! let rapfi = gomoku.build(&spec, 0)?;
//! let othello =
//!     GameSetup::<bitboard_othello::Board>::new().searcher(&NBOARD_INFO, nboard_factory);
//! let edax = othello.build(&othello.spec("nboard:cmd=/usr/bin/edax -q -n 1,depth=10")?, 0)?;
//! # Ok::<(), game_arena::registry::RegistryError>(())
//! ```
//!
//! # The process
//!
//! The engine starts at its first search (or at `start`), with piped
//! stdin and stdout and its stderr discarded. A writer thread feeds its
//! input, so that an engine that stops reading cannot block the arena; a
//! reader thread reads its output byte-wise up to each newline (invalid
//! UTF-8 is replaced, so no bytes an engine writes can panic the arena;
//! lines over 64 KiB are cut) and hands the lines over a channel, so that
//! every wait has a deadline. A trailing CR is removed and empty lines are
//! skipped. The child is always reaped: dropping the searcher sends the
//! protocol's quit command (`END`, `quit`), closes the engine's input,
//! waits [`EngineOptions::quit_grace`], then kills it and waits for it;
//! an engine that failed is killed and reaped at once. The next search
//! after a failure starts a fresh process.
//!
//! # Failures
//!
//! A search that fails returns no move, and
//! [`Searcher::failure`](game_traits::Searcher::failure) says why; match
//! runners ([`game_traits::play_match_with`], and the tournament's
//! [`play_game`](crate::tournament::play_game)) score the game as a loss
//! for that side with the reason (in
//! [`GameRecord::forfeit`](crate::tournament::GameRecord)). A search fails
//! when the engine
//!
//! * cannot be started or fails the handshake within
//!   [`EngineOptions::startup`] ("engine `x` failed the handshake: no
//!   answer to START 15 within 10.0 s");
//! * exits or closes its output before answering ("engine exited with
//!   status 1 before answering");
//! * does not answer within the move time plus [`EngineOptions::margin`]
//!   ("no move within 2.5 s");
//! * answers a line the protocol does not allow there ("malformed reply
//!   \"abc\"");
//! * answers a move that is not legal ("illegal move 7,7: the cell is
//!   taken");
//! * or the stop flag of the [`Limits`](game_traits::Limits) is set before
//!   it answers (neither protocol can stop a search and still get a move).
//!
//! The move time is [`Limits::time`](game_traits::Limits::time), or
//! [`EngineOptions::default_move_time`] when the limits give none. Both
//! engines are external programs: the seed of a factory is not used.
//!
//! # The Gomocup protocol, manager side
//!
//! Lines end with CR LF, as Piskvork sends them. At start: `START <size>`
//! (the size of the searched position; [`EngineOptions::board_size`] for
//! [`PbrainEngine::start`]), to which the brain answers `OK`; then `INFO
//! timeout_match 0`, `INFO max_memory 0` (no limits beyond the time per
//! move), `INFO game_type 1` (the opponent is a brain) and `INFO rule
//! <0|1|4>` from the position's rule. Before each search, `INFO
//! timeout_turn <ms>` with the move time when it changed, then `BOARD`, a
//! line `x,y,f` per stone (`f` 1 the brain's own stone, 2 the
//! opponent's), and `DONE`; the brain answers `x,y`. Coordinates are
//! zero-based, `x` the column and `y` the row counted from the top
//! ([`gomoku_renju::Move::to_protocol`]). Stones come in the order they were
//! played as far as the searcher saw the game (moves it heard through
//! `advance`), the rest alternating Black, White from the position. A
//! board of another size gets a new `START`. While waiting, `MESSAGE` and
//! `DEBUG` lines are skipped, `ERROR` and `UNKNOWN` lines are recorded and
//! named in the failure if no move follows, a stray `OK` is skipped, and
//! `SUGGEST x,y` is answered `PLAY x,y` (the brain then echoes the move,
//! which is taken as its answer). Piskvork sends `RESTART` before a
//! `BOARD` of a new game; this manager sends `BOARD` alone, which brains
//! take as a whole new position. [`EngineOptions::settle`] delays each
//! command after the brain's last answer (Rapfi 0.43 drops commands that
//! arrive within microseconds of its answer; 50 ms is enough).
//!
//! **Far moves.** The arena plays Gomoku as [`gomoku_renju::Focused`], whose
//! legal moves are the cells within two steps of the stones, and the
//! `Game` contract wants `is_legal` to agree with them. A brain that
//! answers a cell legal under the full rules but outside the focused cells
//! therefore forfeits, with the reason "move x,y is legal but outside the
//! focused cells the arena plays". [`PbrainEngine`] is also a searcher of
//! the full game, [`gomoku_renju::Gomoku`], where every legal cell is accepted:
//! the registry's `gomoku-full`, the game to referee external brains on.
//!
//! # The NBoard protocol, GUI side
//!
//! Lines end with LF. At start: `nboard 2`, then `ping <n>`, and every
//! line up to `pong <n>` is skipped (a `set myname <name>` line is kept as
//! the engine's name). Each search sends `set depth <n>` when the limits
//! give a depth and it changed, `set game <GGF>` with the position (the
//! GGF of [`write_ggf`]: the current board in `BO`, no moves), `ping <n>`
//! and `go`; lines up to `pong <n>` are skipped, then `status`, `search`,
//! `nodestats`, `set myname`, `learned` and stray `pong` lines are
//! skipped and the answer is `=== <move>[/<eval>[/<time>]]`, its fields
//! split by `/` or by spaces as Edax writes them (a move
//! `F5`, `PA` for a pass; the eval, in discs for the player to move,
//! becomes the report's value divided by 64). Any other line is a
//! malformed reply. A position whose only move is the pass is answered
//! `PA` without asking the engine. The protocol has no time control: the
//! time limit is only the deadline of the answer, and the engine's own
//! settings (or `set depth`) decide how long it thinks.

mod nboard;
mod pbrain;
mod process;

use std::fmt;
use std::time::{Duration, Instant};

pub use nboard::{NboardEngine, ggf_game, write_ggf};
pub use pbrain::PbrainEngine;

use crate::registry::{
    BoxedSearcher, KeyInfo, RegistryError, SearcherInfo, SearcherSpec, ValueKind,
};

/// An engine's command line: the program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineCommand {
    program: String,
    args: Vec<String>,
}

impl EngineCommand {
    /// The program (a path, or a name looked up in `PATH`), without
    /// arguments.
    pub fn new(program: impl Into<String>) -> EngineCommand {
        EngineCommand {
            program: program.into(),
            args: Vec::new(),
        }
    }

    /// Adds an argument.
    #[must_use]
    pub fn arg(mut self, arg: impl Into<String>) -> EngineCommand {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    #[must_use]
    pub fn args<I, S>(mut self, args: I) -> EngineCommand
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// A command line split on whitespace: `"edax -q -n 1"` (no quoting:
    /// a program or argument with spaces needs [`new`](EngineCommand::new)
    /// and [`arg`](EngineCommand::arg)).
    ///
    /// # Errors
    ///
    /// [`EngineError::EmptyCommand`] for a blank line.
    pub fn from_words(line: &str) -> Result<EngineCommand, EngineError> {
        let mut words = line.split_whitespace();
        let program = words.next().ok_or(EngineError::EmptyCommand)?;
        Ok(EngineCommand::new(program).args(words))
    }

    /// The program.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The arguments.
    pub fn arguments(&self) -> &[String] {
        &self.args
    }

    /// The program's file name, without its directory: a short name.
    pub fn short_name(&self) -> &str {
        std::path::Path::new(&self.program)
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or(&self.program)
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.program)?;
        for arg in &self.args {
            write!(f, " {arg}")?;
        }
        Ok(())
    }
}

/// How an engine is run and judged.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EngineOptions {
    /// How late after its move time an answer may come before the engine
    /// forfeits.
    pub margin: Duration,
    /// The move time when the [`Limits`](game_traits::Limits) give none.
    pub default_move_time: Duration,
    /// How long starting the engine and its handshake may take.
    pub startup: Duration,
    /// How long an engine asked to quit may take before it is killed.
    pub quit_grace: Duration,
    /// The Gomoku board size of the `START` command sent by
    /// [`PbrainEngine::start`] (a search uses its position's size).
    pub board_size: usize,
    /// The least time between the engine's answer and the next command.
    pub settle: Duration,
    /// The searcher's name in records; `None`: the protocol and the
    /// program's file name (`pbrain(pbrain-rapfi)`).
    pub name: Option<String>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            margin: Duration::from_millis(1000),
            default_move_time: Duration::from_secs(5),
            startup: Duration::from_secs(10),
            quit_grace: Duration::from_millis(500),
            board_size: gomoku_renju::DEFAULT_SIZE,
            settle: Duration::ZERO,
            name: None,
        }
    }
}

impl EngineOptions {
    /// Sets [`margin`](EngineOptions::margin).
    #[must_use]
    pub fn with_margin(mut self, margin: Duration) -> Self {
        self.margin = margin;
        self
    }

    /// Sets [`default_move_time`](EngineOptions::default_move_time).
    #[must_use]
    pub fn with_default_move_time(mut self, time: Duration) -> Self {
        self.default_move_time = time;
        self
    }

    /// Sets [`startup`](EngineOptions::startup).
    #[must_use]
    pub fn with_startup(mut self, startup: Duration) -> Self {
        self.startup = startup;
        self
    }

    /// Sets [`quit_grace`](EngineOptions::quit_grace).
    #[must_use]
    pub fn with_quit_grace(mut self, grace: Duration) -> Self {
        self.quit_grace = grace;
        self
    }

    /// Sets [`board_size`](EngineOptions::board_size).
    #[must_use]
    pub fn with_board_size(mut self, size: usize) -> Self {
        self.board_size = size;
        self
    }

    /// Sets [`settle`](EngineOptions::settle).
    #[must_use]
    pub fn with_settle(mut self, settle: Duration) -> Self {
        self.settle = settle;
        self
    }

    /// Sets [`name`](EngineOptions::name).
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }
}

/// What went wrong with an engine.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// A command line without a program.
    #[error("an engine command needs a program")]
    EmptyCommand,
    /// The program could not be started.
    #[error("cannot start engine {program}: {source}")]
    Spawn {
        /// The program.
        program: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The engine did not get through the protocol's opening.
    #[error("engine {program} failed the handshake: {reason}")]
    Handshake {
        /// The program.
        program: String,
        /// What happened.
        reason: String,
    },
    /// The engine ended (exited, crashed, closed its output) before it
    /// answered.
    #[error("engine {how} before answering")]
    Exited {
        /// How it ended: "exited with status 1", "was killed (signal: 9)",
        /// "closed its output".
        how: String,
    },
    /// No answer within the time allowed.
    #[error("no move within {:.1} s{}", .waited.as_secs_f64(), said_text(.said))]
    Timeout {
        /// The time allowed (move time and margin).
        waited: Duration,
        /// The engine's last `ERROR` or `UNKNOWN` line, if any.
        said: Option<String>,
    },
    /// A line the protocol does not allow where it came.
    #[error("malformed reply {line:?}")]
    Malformed {
        /// The line (cut to 80 characters).
        line: String,
    },
    /// A move that is not legal in the position.
    #[error("illegal move {mv}: {reason}")]
    IllegalMove {
        /// The move as the engine wrote it.
        mv: String,
        /// Why it is not legal.
        reason: String,
    },
    /// The stop flag was set before the engine answered.
    #[error("stopped before the engine answered")]
    Stopped,
}

/// `now + wait`, or a year from now when `wait` is too long for the
/// clock.
pub(crate) fn deadline_after(wait: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(wait)
        .or_else(|| now.checked_add(Duration::from_secs(365 * 86_400)))
        .unwrap_or(now)
}

/// The first word of a line, in upper case.
pub(crate) fn first_word(line: &str) -> String {
    line.split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase()
}

fn said_text(said: &Option<String>) -> String {
    said.as_deref()
        .map(|line| format!(" (the engine said {line:?})"))
        .unwrap_or_default()
}

impl EngineError {
    /// A malformed reply, its line cut to 80 characters.
    pub(crate) fn malformed(line: &str) -> EngineError {
        EngineError::Malformed {
            line: line.chars().take(80).collect(),
        }
    }
}

/// The settings of both engine searchers.
const ENGINE_KEYS: &[KeyInfo] = &[
    KeyInfo {
        key: "cmd",
        kind: ValueKind::Path,
        default: "",
        help: "the engine's command line, program and arguments separated by spaces (no commas); required",
    },
    KeyInfo {
        key: "name",
        kind: ValueKind::Name,
        default: "",
        help: "the searcher's name in records (default: the protocol and the program's file name)",
    },
    KeyInfo {
        key: "margin",
        kind: ValueKind::Integer { min: 0 },
        default: "",
        help: "milliseconds an answer may come after its move time before the engine forfeits",
    },
    KeyInfo {
        key: "startup",
        kind: ValueKind::Integer { min: 1 },
        default: "",
        help: "milliseconds the engine may take to start and answer the handshake",
    },
    KeyInfo {
        key: "settle",
        kind: ValueKind::Integer { min: 0 },
        default: "",
        help: "least milliseconds between the engine's answer and the next command (50 for Rapfi)",
    },
];

/// The registry row of [`PbrainEngine`]: `pbrain:cmd=PROGRAM ARGS,ms=1000`
/// (Gomoku). `ms` is the time per move, sent as `INFO timeout_turn`; the
/// other budget keys are ignored.
pub const PBRAIN_INFO: SearcherInfo = SearcherInfo {
    name: "pbrain",
    summary: "an external Gomoku engine (a Gomocup brain such as Rapfi) run as a child process",
    keys: ENGINE_KEYS,
    default_budget: "ms=1000",
};

/// The registry row of [`NboardEngine`]: `nboard:cmd=PROGRAM ARGS,depth=10`
/// (Othello). `depth` is sent as `set depth`; `ms` is only the deadline of
/// each answer.
pub const NBOARD_INFO: SearcherInfo = SearcherInfo {
    name: "nboard",
    summary: "an external Othello engine speaking NBoard (such as Edax) run as a child process",
    keys: ENGINE_KEYS,
    default_budget: "depth=10",
};

/// The command and options of an engine spec.
fn engine_settings(spec: &SearcherSpec) -> Result<(EngineCommand, EngineOptions), RegistryError> {
    let line = spec.text("cmd").unwrap_or("");
    let command = EngineCommand::from_words(line)
        .map_err(|_| spec.config_error("cmd=PROGRAM is required: the engine's command line"))?;
    let mut options = EngineOptions::default();
    let millis = |key| spec.integer(key).map(Duration::from_millis);
    if let Some(margin) = millis("margin") {
        options.margin = margin;
    }
    if let Some(startup) = millis("startup") {
        options.startup = startup;
    }
    if let Some(settle) = millis("settle") {
        options.settle = settle;
    }
    if let Some(name) = spec.text("name") {
        options.name = Some(name.to_string());
    }
    Ok((command, options))
}

/// Builds a [`PbrainEngine`] from a [`PBRAIN_INFO`] spec (the seed is not
/// used). The engine starts at its first search.
///
/// # Errors
///
/// [`RegistryError::Config`] when `cmd` is missing or blank.
pub fn pbrain_factory<G: gomoku_renju::GomokuGame + 'static>(
    spec: &SearcherSpec,
    _seed: u64,
) -> Result<BoxedSearcher<G>, RegistryError> {
    let (command, options) = engine_settings(spec)?;
    Ok(Box::new(PbrainEngine::new(command, options)))
}

/// Builds an [`NboardEngine`] from an [`NBOARD_INFO`] spec (the seed is
/// not used). The engine starts at its first search.
///
/// # Errors
///
/// [`RegistryError::Config`] when `cmd` is missing or blank.
pub fn nboard_factory(
    spec: &SearcherSpec,
    _seed: u64,
) -> Result<BoxedSearcher<bitboard_othello::Board>, RegistryError> {
    let (command, options) = engine_settings(spec)?;
    Ok(Box::new(NboardEngine::new(command, options)))
}

#[cfg(all(test, unix))]
mod tests;
