//! Searchers and games by name: `uct:iters=10000`, `rave:c=0.25`,
//! `gumbel:sims=64`, `random` on `othello`, `jungle`, `tictactoe`, `nim`.
//!
//! A **searcher spec** is a name, optionally followed by `:` and
//! comma-separated `key=value` settings:
//!
//! ```
//! use game_arena::registry::SearcherSpec;
//!
//! let spec: SearcherSpec = "rave:c=0.25,iters=2000".parse()?;
//! assert_eq!(spec.name(), "rave");
//! assert_eq!(spec.limits().iterations, Some(2_000));
//! assert!("uct:c=fast".parse::<SearcherSpec>().is_err());
//! # Ok::<(), game_arena::registry::RegistryError>(())
//! ```
//!
//! Every searcher takes the **budget keys** `iters` (alias `sims`:
//! iterations, playouts or simulations per move), `ms` (milliseconds per
//! move), `nodes` and `depth`; they fill `game_traits::Limits`. A spec
//! without any budget key gets the searcher's default budget from
//! [`SEARCHERS`] (iteration and depth budgets, so that seeded games
//! repeat exactly). A budget field the searcher ignores (see
//! `Searcher::honours`) is reported by [`ignored_budget`] and the tools
//! warn about it. The other keys of each searcher are listed in
//! [`SEARCHERS`] and by `cargo run --example tournament -- --list`.
//!
//! Games are types implementing [`RegistryGame`]: the rules plus what the
//! searchers need (playouts, an evaluator, a policy evaluator) and what
//! people need (move and position text, a board drawing, a game record).
//! [`visit_game`] runs generic code on the game named on a command line.
//!
//! # Adding a searcher
//!
//! 1. Add a row to [`SEARCHERS`]: its name, a one-line summary, its keys
//!    (name, [`ValueKind`], default, help) and its default budget.
//! 2. Add one arm to the `match` in [`build_searcher`] that builds it from
//!    the parsed settings, the game's knowledge ([`RegistryGame`]) and the
//!    seed. Alpha-beta, for instance, is one arm: `"alphabeta" =>
//!    boxed(AlphaBeta::new(G::evaluator(), config))`, with `depth` already
//!    a budget key.
//!
//! The cross-product test (`tests/cross_product.rs`) then plays it on
//! every game: legal moves, repeatable seeded runs, the `Limits`
//! contract, finished positions. A searcher for hidden-information games
//! (PIMC) needs games that expose an information set: give
//! [`RegistryGame`] a provided method returning `Option` of one and build
//! PIMC only where it is `Some`, as [`build_searcher`] does for Othello's
//! exact `solver`.
//!
//! # Adding a game
//!
//! 1. Implement [`RegistryGame`] for its type (see `src/games.rs`: about
//!    60 lines per game, most of them the board drawing).
//! 2. Add the type to the `games!` list at the end of this module; it
//!    generates [`GAMES`] and the dispatch in [`visit_game`].
//!
//! Gomoku, for instance, is registered twice: `gomoku_renju::Focused` (named
//! `gomoku`, moves near the stones) and `gomoku_renju::Gomoku` (named
//! `gomoku-full`, every empty cell, to referee external brains), in
//! `games!(Board, Jungle, Focused, Gomoku, TicTacToe, Nim)`.

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use bitboard_othello::{Board, SolveMode, Solver, SolverConfig};
use dou_shou_qi::Jungle;
use game_traits::testing::{MinimaxSearcher, Nim, TicTacToe};
use game_traits::{
    ActionSpace, Evaluator, Game, GreedySearcher, LimitKind, Limits, Outcome, PlaneEncoding,
    Playout, PolicyEvaluator, RandomSearcher, Searcher, UniformPrior,
};
use gomoku_renju::{Focused, Gomoku};
use gumbel_az::{CompletedQ, FirstPlay, GumbelAz, GumbelConfig, Puct, PuctConfig};
use mcts_rave::{
    LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Parallelism, Rave, TreePolicy, Uct,
};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};

/// A searcher behind a box, as tournaments mix them.
pub type BoxedSearcher<G> = Box<dyn Searcher<G> + Send>;

/// Why a spec, a value, a move or a position was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RegistryError {
    /// The spec is empty or not `name[:key=value,...]`.
    #[error("bad searcher spec {spec:?}: {reason}")]
    Malformed {
        /// The spec given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No searcher has this name.
    #[error("unknown searcher {name:?}; known searchers: {known}")]
    UnknownSearcher {
        /// The name given.
        name: String,
        /// The names that exist.
        known: String,
    },
    /// The searcher has no setting of this name.
    #[error("searcher {searcher:?} has no setting {key:?}; its settings: {known}")]
    UnknownKey {
        /// The searcher.
        searcher: String,
        /// The key given.
        key: String,
        /// The keys it has.
        known: String,
    },
    /// A setting given twice.
    #[error("setting {key:?} is given twice in {spec:?}")]
    DuplicateKey {
        /// The spec.
        spec: String,
        /// The repeated key.
        key: String,
    },
    /// A value that does not parse or is out of range.
    #[error("bad value {value:?} for {searcher}:{key}: expected {expected}")]
    BadValue {
        /// The searcher.
        searcher: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What the key accepts.
        expected: String,
    },
    /// The searcher's own validation refused the settings.
    #[error("searcher {searcher:?}: {message}")]
    Config {
        /// The searcher.
        searcher: String,
        /// The searcher crate's message.
        message: String,
    },
    /// The searcher does not play this game.
    #[error("searcher {searcher:?} does not play {game}: {reason}")]
    Unsupported {
        /// The searcher.
        searcher: String,
        /// The game.
        game: String,
        /// Why.
        reason: String,
    },
    /// No game has this name.
    #[error("unknown game {name:?}; known games: {known}")]
    UnknownGame {
        /// The name given.
        name: String,
        /// The names that exist.
        known: String,
    },
    /// A network file that could not be used.
    #[error("network {path:?}: {reason}")]
    Network {
        /// The file given.
        path: String,
        /// Why it cannot be used.
        reason: String,
    },
    /// No evaluator of the game has this name.
    #[error("{game} has no evaluator {name:?}; its evaluators: {known}")]
    UnknownEvaluator {
        /// The name given.
        name: String,
        /// The game.
        game: String,
        /// The evaluators it has.
        known: String,
    },
    /// A game, searcher or evaluator registered under a bad or taken name.
    #[error("bad registration: {0}")]
    Registration(String),
    /// A move or position that could not be read.
    #[error("{0}")]
    Input(#[from] InputError),
}

/// A move or a position that could not be read, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// Text that names no move of the game.
    #[error("{text:?} is not a move: {reason}")]
    BadMove {
        /// The text given.
        text: String,
        /// What the game expected.
        reason: String,
    },
    /// A move the rules do not allow here.
    #[error("{text} is not legal here; legal moves: {legal}")]
    IllegalMove {
        /// The move.
        text: String,
        /// The legal moves.
        legal: String,
    },
    /// The game is over: no move is legal.
    #[error("the game is over: no move is legal")]
    GameOver,
    /// Text that is not a position of the game.
    #[error("{text:?} is not a position: {reason}")]
    BadPosition {
        /// The text given.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A line of an opening file that is neither a position nor legal
    /// moves from the start (or that ends the game).
    #[error("opening {text:?}: {reason}")]
    BadOpening {
        /// The line given.
        text: String,
        /// What is wrong.
        reason: String,
    },
}

/// A game saved in its game's usual file format, beside the JSON lines
/// ([`RegistryGame::game_file`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFile {
    /// The file name's extension, without the dot (`ggf`, `psq`).
    pub extension: &'static str,
    /// The file's text.
    pub text: String,
}

/// Who played a game and how it ended, for its [`GameFile`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo<'a> {
    /// The name of the player who moved first.
    pub first: &'a str,
    /// The name of the player who moved second.
    pub second: &'a str,
    /// The result scored (by the end of the game, a forfeit or an
    /// adjudication); `None` if unfinished.
    pub outcome: Option<Outcome>,
}

/// Othello games are adjudicated (`--adjudicate`) by the exact solver
/// once this many squares or fewer are empty: a few milliseconds per
/// game at 14.
pub const OTHELLO_ADJUDICATION_EMPTIES: u32 = 14;

/// The node budget of the VCF search that adjudicates Gomoku games, per
/// position (a few milliseconds).
pub const GOMOKU_ADJUDICATION_NODES: u64 = 20_000;

/// A result known before the game ends, and why: what a tournament that
/// adjudicates ([`RegistryGame::adjudicate`]) scores the game by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result the game would reach under perfect play.
    pub outcome: Outcome,
    /// How it is known, for the game's record (an exact solve, a forced
    /// win found).
    pub reason: String,
}

/// An opening: moves played from a position, before the searchers take
/// over. Tournaments draw them at random or read them from a file
/// ([`RegistryGame::parse_opening`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Opening<G: Game> {
    /// The position the moves start from; `None` is the game's start.
    pub from: Option<G>,
    /// The moves, played from `from`.
    pub moves: Vec<G::Move>,
}

impl<G: RegistryGame> Opening<G> {
    /// The position the searchers start from: `moves` played from `from`.
    pub fn position(&self) -> G {
        let mut state = self.from.clone().unwrap_or_else(G::start);
        for &mv in &self.moves {
            state.play(mv);
        }
        state
    }
}

/// The kind of value a setting takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// A whole number from `min` up.
    Integer {
        /// The smallest value accepted.
        min: u64,
    },
    /// A finite decimal number (the searcher checks its range).
    Number,
    /// `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`).
    Switch,
    /// One of the listed words.
    Choice(&'static [&'static str]),
    /// A file's path (any text without `,`).
    Path,
    /// A name registered elsewhere (an evaluator): letters, digits, `-`,
    /// `_` and `.`; checked when the searcher is built.
    Name,
}

impl ValueKind {
    fn expected(self) -> String {
        match self {
            ValueKind::Integer { min } => format!("a whole number >= {min}"),
            ValueKind::Number => "a finite number".to_string(),
            ValueKind::Switch => "true or false".to_string(),
            ValueKind::Choice(words) => format!("one of {}", words.join(", ")),
            ValueKind::Path => "a file's path".to_string(),
            ValueKind::Name => "a name (letters, digits, -, _, .)".to_string(),
        }
    }

    fn parse(self, text: &str) -> Option<Value> {
        match self {
            ValueKind::Integer { min } => text
                .replace('_', "")
                .parse::<u64>()
                .ok()
                .filter(|&value| value >= min)
                .map(Value::Integer),
            ValueKind::Number => text
                .parse::<f64>()
                .ok()
                .filter(|value| value.is_finite())
                .map(Value::Number),
            ValueKind::Switch => match text.to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" | "on" => Some(Value::Switch(true)),
                "false" | "0" | "no" | "off" => Some(Value::Switch(false)),
                _ => None,
            },
            ValueKind::Choice(words) => words
                .iter()
                .find(|word| word.eq_ignore_ascii_case(text))
                .map(|word| Value::Choice(word)),
            ValueKind::Path => (!text.is_empty()).then_some(Value::Path),
            ValueKind::Name => is_name(text).then_some(Value::Path),
        }
    }
}

/// Whether `text` can name a searcher, a game or an evaluator.
pub(crate) fn is_name(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A parsed setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A whole number.
    Integer(u64),
    /// A decimal number.
    Number(f64),
    /// A switch.
    Switch(bool),
    /// One word of a [`ValueKind::Choice`].
    Choice(&'static str),
    /// A path or a name, as given (read it with [`SearcherSpec::text`]).
    Path,
}

/// One setting a searcher accepts.
#[derive(Clone, Copy, Debug)]
pub struct KeyInfo {
    /// The key, as written in specs.
    pub key: &'static str,
    /// What it takes.
    pub kind: ValueKind,
    /// The default (empty: unset).
    pub default: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// A searcher of the registry.
#[derive(Clone, Copy, Debug)]
pub struct SearcherInfo {
    /// The name, as written in specs.
    pub name: &'static str,
    /// A one-line summary.
    pub summary: &'static str,
    /// Its own settings (the budget keys come on top).
    pub keys: &'static [KeyInfo],
    /// The budget used when a spec gives none, as budget settings
    /// (`"iters=10000"`; empty: the searcher needs none).
    pub default_budget: &'static str,
}

const PLAYOUTS: ValueKind = ValueKind::Choice(&["random", "heuristic"]);

/// The `net` key of the searchers that take a trained network.
const NET_KEY: KeyInfo = KeyInfo {
    key: "net",
    kind: ValueKind::Path,
    default: "",
    help: "a network file trained by the self-play crate (the train example) instead of the game's hand-written knowledge",
};
/// The `eval` key of the searchers that use an evaluator.
const EVAL_KEY: KeyInfo = KeyInfo {
    key: "eval",
    kind: ValueKind::Name,
    default: "",
    help: "an evaluator registered for the game (see the game's evaluators) instead of its own; gumbel and puct use it with a uniform prior",
};
const PARALLELISM: ValueKind = ValueKind::Choice(&["root", "tree"]);

/// The budget keys every searcher takes.
pub const BUDGET_KEYS: &[KeyInfo] = &[
    KeyInfo {
        key: "iters",
        kind: ValueKind::Integer { min: 1 },
        default: "",
        help: "iterations per move (playouts, simulations); alias sims",
    },
    KeyInfo {
        key: "ms",
        kind: ValueKind::Integer { min: 1 },
        default: "",
        help: "milliseconds per move",
    },
    KeyInfo {
        key: "nodes",
        kind: ValueKind::Integer { min: 1 },
        default: "",
        help: "nodes per move (visited, or kept in a tree)",
    },
    KeyInfo {
        key: "depth",
        kind: ValueKind::Integer { min: 1 },
        default: "",
        help: "search depth in plies",
    },
];

/// Every searcher the registry builds.
pub const SEARCHERS: &[SearcherInfo] = &[
    SearcherInfo {
        name: "uct",
        summary: "MCTS with UCT (mcts-rave), random playouts to the end",
        keys: &[
            KeyInfo {
                key: "c",
                kind: ValueKind::Number,
                default: "1",
                help: "exploration constant (values in [-1, 1])",
            },
            KeyInfo {
                key: "playout",
                kind: PLAYOUTS,
                default: "random",
                help: "random: the game's fastest uniform playout; heuristic: its playout policy",
            },
            KeyInfo {
                key: "cutoff",
                kind: ValueKind::Integer { min: 0 },
                default: "",
                help: "play out this many plies, then ask the game's evaluator",
            },
            KeyInfo {
                key: "threads",
                kind: ValueKind::Integer { min: 1 },
                default: "1",
                help: "search threads (see par)",
            },
            KeyInfo {
                key: "par",
                kind: PARALLELISM,
                default: "root",
                help: "root: a tree per thread, root statistics summed; tree: one shared tree with virtual loss",
            },
            KeyInfo {
                key: "reuse",
                kind: ValueKind::Switch,
                default: "true",
                help: "keep the subtree of the moves played",
            },
            EVAL_KEY,
        ],
        default_budget: "iters=10000",
    },
    SearcherInfo {
        name: "rave",
        summary: "MCTS with UCT and RAVE/AMAF (mcts-rave), minimum-MSE schedule",
        keys: &[
            KeyInfo {
                key: "c",
                kind: ValueKind::Number,
                default: "",
                help: "exploration constant (default: the game's; 0.25 on Othello, where it was tuned, 1 elsewhere)",
            },
            KeyInfo {
                key: "bias",
                kind: ValueKind::Number,
                default: "0.2",
                help: "RAVE bias b of the minimum-MSE schedule",
            },
            KeyInfo {
                key: "k",
                kind: ValueKind::Number,
                default: "",
                help: "use the equivalence-parameter schedule with this k instead",
            },
            KeyInfo {
                key: "playout",
                kind: PLAYOUTS,
                default: "random",
                help: "random: the game's fastest uniform playout; heuristic: its playout policy",
            },
            KeyInfo {
                key: "cutoff",
                kind: ValueKind::Integer { min: 0 },
                default: "",
                help: "play out this many plies, then ask the game's evaluator",
            },
            KeyInfo {
                key: "threads",
                kind: ValueKind::Integer { min: 1 },
                default: "1",
                help: "search threads (see par)",
            },
            KeyInfo {
                key: "par",
                kind: PARALLELISM,
                default: "root",
                help: "root: a tree per thread, root statistics summed; tree: one shared tree with virtual loss",
            },
            KeyInfo {
                key: "reuse",
                kind: ValueKind::Switch,
                default: "true",
                help: "keep the subtree of the moves played",
            },
            EVAL_KEY,
        ],
        default_budget: "iters=10000",
    },
    SearcherInfo {
        name: "gumbel",
        summary: "Gumbel AlphaZero (gumbel-az) with the game's policy evaluator",
        keys: &[
            KeyInfo {
                key: "k",
                kind: ValueKind::Integer { min: 1 },
                default: "16",
                help: "actions considered at the root (the reference's 16; 4 plays best on Othello)",
            },
            KeyInfo {
                key: "scale",
                kind: ValueKind::Number,
                default: "0",
                help: "Gumbel noise scale (1 samples moves as in self-play)",
            },
            KeyInfo {
                key: "c_visit",
                kind: ValueKind::Number,
                default: "50",
                help: "completed-Q c_visit",
            },
            KeyInfo {
                key: "c_scale",
                kind: ValueKind::Number,
                default: "0.1",
                help: "completed-Q c_scale",
            },
            NET_KEY,
            EVAL_KEY,
        ],
        default_budget: "iters=64",
    },
    SearcherInfo {
        name: "puct",
        summary: "AlphaZero PUCT (gumbel-az) with the game's policy evaluator",
        keys: &[
            KeyInfo {
                key: "c",
                kind: ValueKind::Number,
                default: "1.25",
                help: "c_puct",
            },
            KeyInfo {
                key: "fpu",
                kind: ValueKind::Choice(&["parent", "loss"]),
                default: "parent",
                help: "value of unvisited moves: the parent's mean, or a loss (AlphaZero)",
            },
            KeyInfo {
                key: "reuse",
                kind: ValueKind::Switch,
                default: "true",
                help: "keep the subtree of the moves played",
            },
            NET_KEY,
            EVAL_KEY,
        ],
        default_budget: "iters=64",
    },
    SearcherInfo {
        name: "alphabeta",
        summary: "negamax alpha-beta with PVS, iterative deepening, a transposition table and move ordering (pimc-alphabeta)",
        keys: &[
            KeyInfo {
                key: "threads",
                kind: ValueKind::Integer { min: 1 },
                default: "1",
                help: "lazy-SMP search threads sharing the table",
            },
            KeyInfo {
                key: "tablefrom",
                kind: ValueKind::Integer { min: 1 },
                default: "1",
                help: "the least depth left at which nodes use the table (2 suits Othello)",
            },
            KeyInfo {
                key: "lmr",
                kind: ValueKind::Switch,
                default: "false",
                help: "late move reductions: a selective search, deeper in the same time",
            },
            NET_KEY,
            EVAL_KEY,
        ],
        default_budget: "depth=5",
    },
    SearcherInfo {
        name: "minimax",
        summary: "brute-force minimax with the game's evaluator at the depth limit (no pruning)",
        keys: &[EVAL_KEY],
        default_budget: "depth=3",
    },
    SearcherInfo {
        name: "greedy",
        summary: "one ply: the move the game's evaluator likes best",
        keys: &[EVAL_KEY],
        default_budget: "",
    },
    SearcherInfo {
        name: "random",
        summary: "a uniformly random legal move",
        keys: &[],
        default_budget: "",
    },
    SearcherInfo {
        name: "solver",
        summary: "Othello only: the exact endgame solver (bitboard-othello)",
        keys: &[KeyInfo {
            key: "mode",
            kind: ValueKind::Choice(&["exact", "wld"]),
            default: "exact",
            help: "exact disc difference, or only win/draw/loss",
        }],
        default_budget: "ms=1000",
    },
];

/// A searcher named on a command line, with its settings and budget.
///
/// Text form: `name[:key=value,...]`; [`Display`](fmt::Display) writes it
/// back in the order given, which makes it a stable identity in result
/// files.
#[derive(Clone, Debug)]
pub struct SearcherSpec {
    info: &'static SearcherInfo,
    /// The settings given, in order, as written.
    given: Vec<(&'static str, String)>,
    values: BTreeMap<&'static str, Value>,
    limits: Limits,
}

/// Two specs are equal when they read the same.
impl PartialEq for SearcherSpec {
    fn eq(&self, other: &SearcherSpec) -> bool {
        self.to_string() == other.to_string()
    }
}

impl SearcherSpec {
    /// The searcher's name.
    pub fn name(&self) -> &'static str {
        self.info.name
    }

    /// The registry entry.
    pub fn info(&self) -> &'static SearcherInfo {
        self.info
    }

    /// The budget per move: the budget keys given, or the searcher's
    /// default budget when none is.
    pub fn limits(&self) -> Limits {
        self.limits.clone()
    }

    /// The setting `key` (given or default), if it has a value.
    pub fn value(&self, key: &str) -> Option<Value> {
        self.values.get(key).copied()
    }

    /// Whether `key` was written in the spec.
    pub fn is_given(&self, key: &str) -> bool {
        self.given.iter().any(|(given, _)| *given == key)
    }

    /// The same spec with `key` set to `value` (replacing it if given),
    /// as a budget sweep does.
    ///
    /// # Errors
    ///
    /// As [`FromStr`]: an unknown key or a bad value.
    pub fn with_setting(&self, key: &str, value: &str) -> Result<SearcherSpec, RegistryError> {
        let key = canonical_key(key);
        let mut parts: Vec<String> = self
            .given
            .iter()
            .filter(|(given, _)| *given != key)
            .map(|(given, text)| format!("{given}={text}"))
            .collect();
        parts.push(format!("{key}={value}"));
        format!("{}:{}", self.name(), parts.join(",")).parse()
    }

    /// The text given for `key`, if it was written (paths).
    pub fn text(&self, key: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(given, _)| *given == key)
            .map(|(_, text)| text.as_str())
    }

    /// The setting `key` as a number (a whole number reads as one too), if it has a value.
    pub fn number(&self, key: &str) -> Option<f64> {
        match self.value(key) {
            Some(Value::Number(value)) => Some(value),
            Some(Value::Integer(value)) => Some(value as f64),
            _ => None,
        }
    }

    /// The setting `key` as a whole number, if it has one.
    pub fn integer(&self, key: &str) -> Option<u64> {
        match self.value(key) {
            Some(Value::Integer(value)) => Some(value),
            _ => None,
        }
    }

    /// The setting `key` as a switch, if it has a value.
    pub fn switch(&self, key: &str) -> Option<bool> {
        match self.value(key) {
            Some(Value::Switch(value)) => Some(value),
            _ => None,
        }
    }

    /// The setting `key`'s word, for a [`ValueKind::Choice`] key with a value.
    pub fn choice(&self, key: &str) -> Option<&'static str> {
        match self.value(key) {
            Some(Value::Choice(value)) => Some(value),
            _ => None,
        }
    }

    /// The error for settings that the searcher's own validation refused
    /// (what a searcher factory returns when its crate says no).
    pub fn config_error(&self, error: impl fmt::Display) -> RegistryError {
        RegistryError::Config {
            searcher: self.to_string(),
            message: error.to_string(),
        }
    }
}

fn canonical_key(key: &str) -> &str {
    if key == "sims" { "iters" } else { key }
}

/// The built-in searchers parse with [`FromStr`]; a game's own searchers
/// (registered with [`GameSetup::searcher`]) with [`GameSetup::spec`].
impl FromStr for SearcherSpec {
    type Err = RegistryError;

    fn from_str(text: &str) -> Result<SearcherSpec, RegistryError> {
        SearcherSpec::parse_among(text, &SEARCHERS.iter().collect::<Vec<_>>())
    }
}

impl SearcherSpec {
    /// Reads `text` as a spec of one of `searchers`.
    ///
    /// # Errors
    ///
    /// As [`FromStr`]: a malformed spec, an unknown name, key or value.
    pub fn parse_among(
        text: &str,
        searchers: &[&'static SearcherInfo],
    ) -> Result<SearcherSpec, RegistryError> {
        let text = text.trim();
        let malformed = |reason: &str| RegistryError::Malformed {
            spec: text.to_string(),
            reason: reason.to_string(),
        };
        let (name, settings) = match text.split_once(':') {
            Some((name, settings)) => (name.trim(), Some(settings)),
            None => (text, None),
        };
        if name.is_empty() {
            return Err(malformed(
                "no searcher name (expected name[:key=value,...])",
            ));
        }
        let info: &'static SearcherInfo = searchers
            .iter()
            .find(|info| info.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| RegistryError::UnknownSearcher {
                name: name.to_string(),
                known: searchers
                    .iter()
                    .map(|info| info.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        let all_keys = || info.keys.iter().chain(BUDGET_KEYS.iter());
        let mut given: Vec<(&'static str, String)> = Vec::new();
        for setting in settings
            .into_iter()
            .flat_map(|settings| settings.split(','))
        {
            let setting = setting.trim();
            if setting.is_empty() {
                return Err(malformed("empty setting (expected key=value)"));
            }
            let (key, value) = setting
                .split_once('=')
                .ok_or_else(|| malformed(&format!("setting {setting:?} has no '='")))?;
            let key = canonical_key(key.trim());
            let known = all_keys().find(|known| known.key == key).ok_or_else(|| {
                RegistryError::UnknownKey {
                    searcher: info.name.to_string(),
                    key: key.to_string(),
                    known: all_keys()
                        .map(|known| known.key)
                        .collect::<Vec<_>>()
                        .join(", "),
                }
            })?;
            if given.iter().any(|(seen, _)| *seen == known.key) {
                return Err(RegistryError::DuplicateKey {
                    spec: text.to_string(),
                    key: key.to_string(),
                });
            }
            given.push((known.key, value.trim().to_string()));
        }
        let mut values = BTreeMap::new();
        for known in all_keys() {
            let written = given.iter().find(|(key, _)| *key == known.key);
            let raw = written.map_or(known.default, |(_, value)| value.as_str());
            if raw.is_empty() && written.is_none() {
                continue;
            }
            let value = known
                .kind
                .parse(raw)
                .ok_or_else(|| RegistryError::BadValue {
                    searcher: info.name.to_string(),
                    key: known.key.to_string(),
                    value: raw.to_string(),
                    expected: known.kind.expected(),
                })?;
            values.insert(known.key, value);
        }
        let budget_given = BUDGET_KEYS.iter().any(|key| values.contains_key(key.key));
        if !budget_given && !info.default_budget.is_empty() {
            for setting in info.default_budget.split(',') {
                let (key, raw) = setting.split_once('=').unwrap_or((setting, ""));
                if let Some(known) = BUDGET_KEYS.iter().find(|known| known.key == key)
                    && let Some(value) = known.kind.parse(raw)
                {
                    values.insert(known.key, value);
                }
            }
        }
        let integer = |key| match values.get(key) {
            Some(Value::Integer(value)) => Some(*value),
            _ => None,
        };
        let mut limits = Limits::none();
        if let Some(iterations) = integer("iters") {
            limits = limits.with_iterations(iterations);
        }
        if let Some(ms) = integer("ms") {
            limits = limits.with_time(Duration::from_millis(ms));
        }
        if let Some(nodes) = integer("nodes") {
            limits = limits.with_nodes(nodes);
        }
        if let Some(depth) = integer("depth") {
            limits = limits.with_depth(u32::try_from(depth).unwrap_or(u32::MAX));
        }
        Ok(SearcherSpec {
            info,
            given,
            values,
            limits,
        })
    }
}

impl fmt::Display for SearcherSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.info.name)?;
        for (index, (key, value)) in self.given.iter().enumerate() {
            let separator = if index == 0 { ':' } else { ',' };
            write!(f, "{separator}{key}={value}")?;
        }
        Ok(())
    }
}

/// A game the registry knows: the rules, the knowledge its searchers use,
/// and the text people read and write.
pub trait RegistryGame: ActionSpace {
    /// The name on the command line.
    const NAME: &'static str;
    /// A one-line description.
    const SUMMARY: &'static str;

    /// The fastest uniformly random playout (`playout=random`).
    type RandomPlayout: Playout<Self> + Clone + Send + Sync + fmt::Debug + 'static;
    /// The game's playout policy (`playout=heuristic`).
    type HeuristicPlayout: Playout<Self> + Clone + Send + Sync + fmt::Debug + 'static;
    /// The static evaluator (greedy, minimax, MCTS cut-offs).
    type Evaluator: Evaluator<Self> + Clone + 'static;
    /// The policy evaluator (Gumbel AlphaZero, PUCT).
    type Policy: PolicyEvaluator<Self> + Clone + 'static;

    /// RAVE's exploration constant when the spec sets none: the
    /// game-neutral one unless the game has a tuned value.
    const RAVE_EXPLORATION: f32 = Rave::NEUTRAL_EXPLORATION;

    /// The searcher spec the tools play with when none is given: the
    /// strongest of the registry on this game at about a second a move.
    const DEFAULT_ENGINE: &'static str = "rave:iters=20000";

    /// The position hash alpha-beta's transposition table keys on; `None`
    /// (the default) searches without a table. Games with a
    /// [`PositionHash`](game_traits::PositionHash) set it to `Some(Self::position_hash)`.
    const HASH: Option<fn(&Self) -> u64> = None;

    /// The start position.
    fn start() -> Self;
    /// The uniform playout.
    fn random_playout() -> Self::RandomPlayout;
    /// The playout policy.
    fn heuristic_playout() -> Self::HeuristicPlayout;
    /// The evaluator.
    fn evaluator() -> Self::Evaluator;
    /// The policy evaluator.
    fn policy() -> Self::Policy;
    /// Plies after which a match is stopped unfinished (scored a draw).
    fn max_plies() -> usize;

    /// Reads a move in this position.
    ///
    /// # Errors
    ///
    /// [`InputError::BadMove`] if `text` names no move.
    fn parse_move(&self, text: &str) -> Result<Self::Move, InputError>;
    /// The text of a move, as [`parse_move`](RegistryGame::parse_move)
    /// reads it.
    fn move_text(mv: Self::Move) -> String;
    /// Reads a position.
    ///
    /// # Errors
    ///
    /// [`InputError::BadPosition`] if `text` is not one.
    fn parse_position(text: &str) -> Result<Self, InputError>;
    /// The position as text, as
    /// [`parse_position`](RegistryGame::parse_position) reads it.
    fn position_text(&self) -> String;

    /// Reads one line of an opening file: a position (as
    /// [`parse_position`](RegistryGame::parse_position) reads it), or
    /// moves from the start separated by spaces. Every move must be legal
    /// and the game must not be over at the end. Games override it for
    /// their published formats (Othello's move transcripts without
    /// spaces, Gomoku's offsets from the centre).
    ///
    /// # Errors
    ///
    /// [`InputError::BadOpening`] saying what is wrong with the line.
    fn parse_opening(line: &str) -> Result<Opening<Self>, InputError> {
        let line = line.trim();
        let opening = match Self::parse_position(line) {
            Ok(position) => Opening {
                from: Some(position),
                moves: Vec::new(),
            },
            Err(_) => Opening {
                from: None,
                moves: parse_move_list(&Self::start(), line)?,
            },
        };
        check_opening(line, opening)
    }
    /// The board for people: coordinates on the edges, `last` marked.
    fn draw(&self, last: Option<Self::Move>) -> String;
    /// The game record of `moves` played from `start`, in the game's own
    /// notation.
    fn record(start: &Self, moves: &[Self::Move]) -> String;

    /// The network saved at `path` as the knowledge of a searcher
    /// (`gumbel:net=PATH`). The default refuses: the game has no plane
    /// encoding. Games with one load it with [`load_network`].
    ///
    /// # Errors
    ///
    /// [`RegistryError::Network`] if the game has no encoding or the file
    /// is not a network for it.
    fn load_net(path: &str) -> Result<Arc<dyn NetKnowledge<Self>>, RegistryError> {
        Err(RegistryError::Network {
            path: path.to_string(),
            reason: format!("{} has no plane encoding to run a network on", Self::NAME),
        })
    }

    /// The result of this position if it is already known for sure, for
    /// tournaments that adjudicate (`--adjudicate`): they stop the game
    /// there and score it so. Called before every move, so it must be
    /// cheap where it finds nothing. Othello solves exactly at
    /// [`OTHELLO_ADJUDICATION_EMPTIES`] empty squares or fewer; Gomoku
    /// looks for a victory by continuous fours (VCF) for the player to
    /// move. The default knows nothing before the end.
    fn adjudicate(&self) -> Option<Verdict> {
        None
    }

    /// The game of `moves` from `start` in the game's usual file format,
    /// for `--records DIR`: Othello as GGF, Gomoku as the `.psq` files of
    /// the Gomocup manager. The default has no such format.
    fn game_file(start: &Self, moves: &[Self::Move], info: &GameInfo<'_>) -> Option<GameFile> {
        let _ = (start, moves, info);
        None
    }

    /// Searchers only this game has (Othello's endgame `solver`); `None`
    /// if `spec` names none.
    fn own_searcher(spec: &SearcherSpec) -> Option<BoxedSearcher<Self>> {
        let _ = spec;
        None
    }

    /// The game as [`Registry::builtin`](crate::Registry::builtin) holds
    /// it: the built-in searchers plus any the game registers of its own
    /// (the external engines of its protocol). The default has none.
    fn setup() -> GameSetup<Self> {
        GameSetup::new()
    }
}

/// What a network gives a searcher: values and policies.
pub trait NetKnowledge<G: Game>: Evaluator<G> + PolicyEvaluator<G> {}

impl<G: Game, K: Evaluator<G> + PolicyEvaluator<G>> NetKnowledge<G> for K {}

/// The network saved at `path`, for the games encoded as `G::start()` is:
/// what [`RegistryGame::load_net`] returns for games with a plane encoding.
///
/// # Errors
///
/// [`RegistryError::Network`] with the file's problem (missing, truncated,
/// another game's, corrupt).
#[cfg(feature = "networks")]
pub fn load_network<G: RegistryGame + PlaneEncoding>(
    path: &str,
) -> Result<Arc<dyn NetKnowledge<G>>, RegistryError> {
    let network =
        self_play::Network::load(path, &G::start()).map_err(|error| RegistryError::Network {
            path: path.to_string(),
            reason: error.to_string(),
        })?;
    Ok(Arc::new(network))
}

/// Without the `networks` feature no network can be loaded: the error says
/// so.
///
/// # Errors
///
/// Always [`RegistryError::Network`].
#[cfg(not(feature = "networks"))]
pub fn load_network<G: RegistryGame + PlaneEncoding>(
    path: &str,
) -> Result<Arc<dyn NetKnowledge<G>>, RegistryError> {
    Err(RegistryError::Network {
        path: path.to_string(),
        reason: "game-arena was built without its `networks` feature".to_string(),
    })
}

/// Reads a move and checks that it is legal in `state`.
///
/// # Errors
///
/// [`InputError`] saying what was wrong: not a move, not legal here (with
/// the legal moves), or the game is over.
pub fn parse_legal_move<G: RegistryGame>(state: &G, text: &str) -> Result<G::Move, InputError> {
    if state.is_over() {
        return Err(InputError::GameOver);
    }
    let mv = state.parse_move(text.trim())?;
    if !state.is_legal(mv) {
        return Err(InputError::IllegalMove {
            text: G::move_text(mv),
            legal: legal_move_list(state),
        });
    }
    Ok(mv)
}

/// The moves of `line`, separated by spaces, each legal after the ones
/// before it, played from `start`.
///
/// # Errors
///
/// [`InputError::BadOpening`] naming the first move that is not one or
/// not legal, with its number.
pub fn parse_move_list<G: RegistryGame>(start: &G, line: &str) -> Result<Vec<G::Move>, InputError> {
    let mut state = start.clone();
    let mut moves = Vec::new();
    for (index, word) in line.split_whitespace().enumerate() {
        let mv = parse_legal_move(&state, word)
            .map_err(|error| bad_opening(line, format!("move {} ({word}): {error}", index + 1)))?;
        state.play(mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// [`InputError::BadOpening`] for `line`, with `error`'s reason.
pub fn bad_opening(line: &str, error: impl fmt::Display) -> InputError {
    InputError::BadOpening {
        text: line.to_string(),
        reason: error.to_string(),
    }
}

/// `opening`, unless it is empty text or ends the game.
///
/// # Errors
///
/// [`InputError::BadOpening`] saying which.
pub fn check_opening<G: RegistryGame>(
    line: &str,
    opening: Opening<G>,
) -> Result<Opening<G>, InputError> {
    if line.is_empty() {
        return Err(bad_opening(line, "the line is empty"));
    }
    if opening.position().is_over() {
        return Err(bad_opening(line, "the game is over after it"));
    }
    Ok(opening)
}

/// The legal moves of `state`, as text, space-separated.
pub fn legal_move_list<G: RegistryGame>(state: &G) -> String {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(G::move_text)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Builds the built-in searcher `spec` names for game `G` with the game's
/// own knowledge, seeded with `seed`: what [`GameSetup::build`] does for a
/// game registered without searchers or evaluators of its own.
///
/// # Errors
///
/// [`RegistryError::Config`] when the searcher's own validation refuses a
/// setting; [`RegistryError::Unsupported`] for a searcher the game does
/// not have (the Othello solver elsewhere); [`RegistryError::UnknownEvaluator`]
/// for an `eval` setting (the game has no registered evaluators here).
pub fn build_searcher<G: RegistryGame>(
    spec: &SearcherSpec,
    seed: u64,
) -> Result<BoxedSearcher<G>, RegistryError> {
    GameSetup::<G>::new().build(spec, seed)
}

/// The built-in searchers with `evaluator` and `policy` as their knowledge
/// (a `net` setting replaces both).
fn build_with<G, E, P>(
    spec: &SearcherSpec,
    seed: u64,
    evaluator: E,
    policy: P,
) -> Result<BoxedSearcher<G>, RegistryError>
where
    G: RegistryGame,
    E: Evaluator<G> + Clone + 'static,
    P: PolicyEvaluator<G> + Clone + 'static,
{
    match spec.name() {
        "uct" => mcts::<G, _, _>(spec, Uct, None, evaluator, seed),
        "rave" => {
            let rave = match (spec.number("k"), spec.number("bias")) {
                (Some(k), _) => Rave::equivalence(k as f32),
                (None, Some(bias)) => Rave::minimum_mse(bias as f32),
                (None, None) => Rave::default(),
            };
            mcts::<G, _, _>(spec, rave, Some(G::RAVE_EXPLORATION), evaluator, seed)
        }
        "gumbel" => {
            let mut completed_q = CompletedQ::default();
            if let Some(c_visit) = spec.number("c_visit") {
                completed_q = completed_q.with_c_visit(c_visit);
            }
            if let Some(c_scale) = spec.number("c_scale") {
                completed_q = completed_q.with_c_scale(c_scale);
            }
            let mut config = GumbelConfig::default()
                .with_seed(seed)
                .with_completed_q(completed_q);
            if let Some(k) = spec.integer("k") {
                config = config.with_max_considered_actions(k as usize);
            }
            if let Some(scale) = spec.number("scale") {
                config = config.with_gumbel_scale(scale);
            }
            match spec.text("net") {
                Some(path) => Ok(Box::new(
                    GumbelAz::new(G::load_net(path)?, config).map_err(|e| spec.config_error(e))?,
                )),
                None => Ok(Box::new(
                    GumbelAz::new(policy, config).map_err(|e| spec.config_error(e))?,
                )),
            }
        }
        "puct" => {
            let mut config = PuctConfig::default().with_seed(seed);
            if let Some(c) = spec.number("c") {
                config = config.with_c_puct(c);
            }
            if let Some(fpu) = spec.choice("fpu") {
                config = config.with_first_play(match fpu {
                    "loss" => FirstPlay::Fixed(-1.0),
                    _ => FirstPlay::ParentValue,
                });
            }
            if let Some(reuse) = spec.switch("reuse") {
                config = config.with_reuse_tree(reuse);
            }
            match spec.text("net") {
                Some(path) => Ok(Box::new(
                    Puct::new(G::load_net(path)?, config).map_err(|e| spec.config_error(e))?,
                )),
                None => Ok(Box::new(
                    Puct::new(policy, config).map_err(|e| spec.config_error(e))?,
                )),
            }
        }
        "alphabeta" => {
            let mut config = AlphaBetaConfig::default();
            if let Some(threads) = spec.integer("threads") {
                config = config.with_threads(threads as usize);
            }
            if let Some(depth) = spec.integer("tablefrom") {
                config = config.with_table_from_depth(u32::try_from(depth).unwrap_or(u32::MAX));
            }
            if let Some(reductions) = spec.switch("lmr") {
                config = config.with_late_move_reductions(reductions);
            }
            match spec.text("net") {
                Some(path) => alpha_beta::<G, _>(spec, G::load_net(path)?, config),
                None => alpha_beta::<G, _>(spec, evaluator, config),
            }
        }
        "minimax" => Ok(Box::new(MinimaxSearcher::with_evaluator(evaluator))),
        "greedy" => Ok(Box::new(GreedySearcher::new(evaluator))),
        "random" => Ok(Box::new(RandomSearcher::new(seed))),
        name => G::own_searcher(spec).ok_or_else(|| RegistryError::Unsupported {
            searcher: name.to_string(),
            game: G::NAME.to_string(),
            reason: "it is specific to another game".to_string(),
        }),
    }
}

/// An evaluator registered under a name, shared by the searchers using it.
pub type SharedEvaluator<G> = Arc<dyn Evaluator<G>>;

/// What builds a searcher the game registered itself, from its spec and
/// seed.
pub type SearcherFactory<G> =
    Arc<dyn Fn(&SearcherSpec, u64) -> Result<BoxedSearcher<G>, RegistryError> + Send + Sync>;

/// A game with the searchers and evaluators registered for it: what the
/// tournament plays and the command line lists.
///
/// The built-in searchers ([`SEARCHERS`]) come with every game, using the
/// game's own knowledge ([`RegistryGame`]); [`searcher`](GameSetup::searcher)
/// adds a searcher name of the game's own, and
/// [`evaluator`](GameSetup::evaluator) a named evaluator that any built-in
/// searcher taking `eval` can use instead (`alphabeta:eval=mobility`), so
/// that evaluators can be compared in one tournament.
///
/// ```
/// use game_arena::registry::{GameSetup, SearcherInfo};
/// use game_traits::testing::TicTacToe;
/// use game_traits::{OutcomeEvaluator, RandomSearcher};
///
/// const FIRST_LEGAL: SearcherInfo = SearcherInfo {
///     name: "lucky",
///     summary: "a random move, under a name of its own",
///     keys: &[],
///     default_budget: "",
/// };
/// let setup = GameSetup::<TicTacToe>::new()
///     .searcher(&FIRST_LEGAL, |_spec, seed| Ok(Box::new(RandomSearcher::new(seed))))
///     .evaluator("outcome", "1, 0 or -1 at the end, 0 before", OutcomeEvaluator);
/// setup.check()?;
/// let spec = setup.spec("lucky")?;
/// assert!(setup.build(&spec, 7).is_ok());
/// let spec = setup.spec("alphabeta:depth=3,eval=outcome")?;
/// assert!(setup.build(&spec, 7).is_ok());
/// let spec = setup.spec("alphabeta:eval=nothing")?;
/// assert!(setup.build(&spec, 7).is_err());
/// # Ok::<(), game_arena::registry::RegistryError>(())
/// ```
pub struct GameSetup<G: RegistryGame> {
    own: Vec<(&'static SearcherInfo, SearcherFactory<G>)>,
    evaluators: Vec<(&'static str, &'static str, SharedEvaluator<G>)>,
    problems: Vec<String>,
}

impl<G: RegistryGame> Default for GameSetup<G> {
    fn default() -> Self {
        GameSetup::new()
    }
}

impl<G: RegistryGame> Clone for GameSetup<G> {
    fn clone(&self) -> Self {
        GameSetup {
            own: self.own.clone(),
            evaluators: self.evaluators.clone(),
            problems: self.problems.clone(),
        }
    }
}

impl<G: RegistryGame> fmt::Debug for GameSetup<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameSetup")
            .field("game", &G::NAME)
            .field(
                "searchers",
                &self
                    .own
                    .iter()
                    .map(|(info, _)| info.name)
                    .collect::<Vec<_>>(),
            )
            .field(
                "evaluators",
                &self
                    .evaluators
                    .iter()
                    .map(|(name, ..)| *name)
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl<G: RegistryGame> GameSetup<G> {
    /// The game with the built-in searchers and its own knowledge only.
    pub fn new() -> Self {
        GameSetup {
            own: Vec::new(),
            evaluators: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// Adds a searcher name of the game's own: `build` makes it from its
    /// spec (its settings are `info.keys` and the budget keys) and a seed.
    /// A name that is not a plain word, or that is already taken, is
    /// reported by [`check`](GameSetup::check).
    pub fn searcher(
        mut self,
        info: &'static SearcherInfo,
        build: impl Fn(&SearcherSpec, u64) -> Result<BoxedSearcher<G>, RegistryError>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        if !is_name(info.name) {
            self.problems
                .push(format!("searcher name {:?} is not a plain word", info.name));
        } else if self
            .searchers()
            .iter()
            .any(|known| known.name.eq_ignore_ascii_case(info.name))
        {
            self.problems.push(format!(
                "searcher {:?} is registered twice for {}",
                info.name,
                G::NAME
            ));
        }
        self.own.push((info, Arc::new(build)));
        self
    }

    /// Adds a named evaluator, which the built-in searchers taking `eval`
    /// use instead of the game's own (`alphabeta:eval=NAME`). A name that
    /// is not a plain word, or that is already taken, is reported by
    /// [`check`](GameSetup::check).
    pub fn evaluator(
        mut self,
        name: &'static str,
        summary: &'static str,
        evaluator: impl Evaluator<G> + 'static,
    ) -> Self {
        if !is_name(name) {
            self.problems
                .push(format!("evaluator name {name:?} is not a plain word"));
        } else if self.evaluators.iter().any(|(known, ..)| *known == name) {
            self.problems.push(format!(
                "evaluator {name:?} is registered twice for {}",
                G::NAME
            ));
        }
        self.evaluators.push((name, summary, Arc::new(evaluator)));
        self
    }

    /// Whether the registrations are sound.
    ///
    /// # Errors
    ///
    /// [`RegistryError::Registration`] naming every name that is not a
    /// plain word or is taken twice.
    pub fn check(&self) -> Result<(), RegistryError> {
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(RegistryError::Registration(self.problems.join("; ")))
        }
    }

    /// Every searcher of the game: the built-in ones, then its own.
    pub fn searchers(&self) -> Vec<&'static SearcherInfo> {
        SEARCHERS
            .iter()
            .chain(self.own.iter().map(|(info, _)| *info))
            .collect()
    }

    /// The evaluators registered for the game: name and summary.
    pub fn evaluators(&self) -> Vec<(&'static str, &'static str)> {
        self.evaluators
            .iter()
            .map(|(name, summary, _)| (*name, *summary))
            .collect()
    }

    /// Reads a spec of one of the game's searchers.
    ///
    /// # Errors
    ///
    /// As [`SearcherSpec::parse_among`].
    pub fn spec(&self, text: &str) -> Result<SearcherSpec, RegistryError> {
        SearcherSpec::parse_among(text, &self.searchers())
    }

    /// Builds the searcher `spec` names, seeded with `seed`.
    ///
    /// # Errors
    ///
    /// The factory's error for the game's own searchers; for the built-in
    /// ones [`RegistryError::Config`] when the searcher's own validation
    /// refuses a setting, [`RegistryError::Unsupported`] for a searcher
    /// the game does not have, [`RegistryError::UnknownEvaluator`] for an
    /// `eval` naming no evaluator of the game, and [`RegistryError::Config`]
    /// for `net` and `eval` together.
    pub fn build(&self, spec: &SearcherSpec, seed: u64) -> Result<BoxedSearcher<G>, RegistryError> {
        if let Some((_, build)) = self.own.iter().find(|(info, _)| info.name == spec.name()) {
            return build(spec, seed);
        }
        let Some(name) = spec.text("eval") else {
            return build_with(spec, seed, G::evaluator(), G::policy());
        };
        if spec.is_given("net") {
            return Err(spec.config_error("give net or eval, not both"));
        }
        let (_, _, evaluator) = self
            .evaluators
            .iter()
            .find(|(known, ..)| *known == name)
            .ok_or_else(|| RegistryError::UnknownEvaluator {
                name: name.to_string(),
                game: G::NAME.to_string(),
                known: if self.evaluators.is_empty() {
                    "none".to_string()
                } else {
                    self.evaluators
                        .iter()
                        .map(|(known, ..)| *known)
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            })?;
        build_with(
            spec,
            seed,
            Arc::clone(evaluator),
            UniformPrior(Arc::clone(evaluator)),
        )
    }
}

fn alpha_beta<G: RegistryGame, E: Evaluator<G> + 'static>(
    spec: &SearcherSpec,
    evaluator: E,
    config: AlphaBetaConfig,
) -> Result<BoxedSearcher<G>, RegistryError> {
    let mut searcher =
        AlphaBeta::without_hash(evaluator, config).map_err(|e| spec.config_error(e))?;
    if let Some(hash) = G::HASH {
        searcher = searcher.with_hash(hash);
    }
    Ok(Box::new(searcher))
}

fn mcts<G: RegistryGame, T: TreePolicy<G> + 'static, E: Evaluator<G> + Clone + 'static>(
    spec: &SearcherSpec,
    policy: T,
    game_exploration: Option<f32>,
    evaluator: E,
    seed: u64,
) -> Result<BoxedSearcher<G>, RegistryError> {
    let mut config = MctsConfig::default().with_seed(seed);
    if let Some(c) = spec.number("c").map(|c| c as f32).or(game_exploration) {
        config = config.with_exploration(c);
    }
    if let Some(threads) = spec.integer("threads") {
        config = config.with_threads(threads as usize);
    }
    if let Some(reuse) = spec.switch("reuse") {
        config = config.with_reuse_tree(reuse);
    }
    if let Some(parallelism) = spec.choice("par") {
        config = config.with_parallelism(match parallelism {
            "tree" => Parallelism::Tree,
            _ => Parallelism::Root,
        });
    }
    if let Some(depth) = spec.integer("cutoff") {
        config = config.with_leaf(LeafEvaluation::PlayoutCutoff {
            depth: u32::try_from(depth).unwrap_or(u32::MAX),
        });
    }
    let knowledge = MctsKnowledge::uct()
        .with_policy(policy)
        .with_evaluator(evaluator);
    Ok(match spec.choice("playout") {
        Some("heuristic") => Box::new(
            Mcts::new(knowledge.with_playout(G::heuristic_playout()), config)
                .map_err(|e| spec.config_error(e))?,
        ),
        _ => Box::new(
            Mcts::new(knowledge.with_playout(G::random_playout()), config)
                .map_err(|e| spec.config_error(e))?,
        ),
    })
}

/// The budget fields `spec` sets that `searcher` ignores (see
/// `Searcher::honours`): the tools warn about each.
pub fn ignored_budget<G: game_traits::Game>(
    spec: &SearcherSpec,
    searcher: &dyn Searcher<G>,
) -> Vec<LimitKind> {
    let limits = spec.limits();
    LimitKind::ALL
        .into_iter()
        .filter(|&kind| limits.get(kind).is_some() && !searcher.honours(kind))
        .collect()
}

/// The Othello solver, for [`RegistryGame::own_searcher`].
pub(crate) fn othello_solver(spec: &SearcherSpec) -> Option<BoxedSearcher<Board>> {
    (spec.name() == "solver").then(|| {
        let mode = match spec.choice("mode") {
            Some("wld") => SolveMode::WinLossDraw,
            _ => SolveMode::Exact,
        };
        let config = SolverConfig::default().with_mode(mode);
        // The default table and one thread are in range; only a failed
        // allocation of its 6 MiB could refuse them, as for `Solver::default`.
        let solver = Solver::new(config).unwrap_or_else(|error| panic!("{error}"));
        Box::new(solver) as BoxedSearcher<Board>
    })
}

/// Generic code to run on a game chosen by name.
pub trait GameVisitor {
    /// What the code returns.
    type Output;
    /// Runs on game `G`.
    fn visit<G: RegistryGame>(self) -> Self::Output;
}

macro_rules! games {
    ($($game:ty),* $(,)?) => {
        /// Every game: name and summary.
        pub const GAMES: &[(&str, &str)] = &[
            $((<$game as RegistryGame>::NAME, <$game as RegistryGame>::SUMMARY)),*
        ];

        /// Adds every built-in game, as its [`RegistryGame::setup`] has it.
        pub(crate) fn builtin_games(registry: crate::Registry) -> crate::Registry {
            registry$(.game(<$game as RegistryGame>::setup()))*
        }

        /// Runs `visitor` on the game called `name`.
        ///
        /// # Errors
        ///
        /// [`RegistryError::UnknownGame`] if no game has that name.
        pub fn visit_game<V: GameVisitor>(name: &str, visitor: V) -> Result<V::Output, RegistryError> {
            $(
                if name.eq_ignore_ascii_case(<$game as RegistryGame>::NAME) {
                    return Ok(visitor.visit::<$game>());
                }
            )*
            Err(RegistryError::UnknownGame {
                name: name.to_string(),
                known: GAMES.iter().map(|(name, _)| *name).collect::<Vec<_>>().join(", "),
            })
        }
    };
}

games!(Board, Jungle, Focused, Gomoku, TicTacToe, Nim);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_with_defaults_and_round_trip() {
        let spec: SearcherSpec = "uct:iters=10000,c=0.5".parse().unwrap();
        assert_eq!(spec.name(), "uct");
        assert_eq!(spec.limits().iterations, Some(10_000));
        assert_eq!(spec.number("c"), Some(0.5));
        assert_eq!(spec.choice("playout"), Some("random"));
        assert_eq!(spec.to_string(), "uct:iters=10000,c=0.5");
        let spec: SearcherSpec = "gumbel:sims=64".parse().unwrap();
        assert_eq!(spec.to_string(), "gumbel:iters=64");
        assert_eq!(spec.limits().iterations, Some(64));
        // No budget given: the registry's default budget.
        let spec: SearcherSpec = "rave".parse().unwrap();
        assert_eq!(spec.limits().iterations, Some(10_000));
        // RAVE's exploration constant is the game's unless given.
        assert_eq!(spec.number("c"), None);
        assert!(
            "random"
                .parse::<SearcherSpec>()
                .unwrap()
                .limits()
                .is_unbounded()
        );
        let spec: SearcherSpec = "minimax:depth=2,ms=50".parse().unwrap();
        assert_eq!(spec.limits().depth, Some(2));
        assert_eq!(spec.limits().time, Some(Duration::from_millis(50)));
        assert_eq!(spec.limits().iterations, None);
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let error = |text: &str| text.parse::<SearcherSpec>().unwrap_err();
        assert!(matches!(
            error("alphazero"),
            RegistryError::UnknownSearcher { .. }
        ));
        assert!(error("alphazero").to_string().contains("uct, rave"));
        let unknown = error("uct:speed=3");
        assert!(matches!(unknown, RegistryError::UnknownKey { .. }));
        assert!(unknown.to_string().contains("c, playout"), "{unknown}");
        assert!(matches!(
            error("uct:c=fast"),
            RegistryError::BadValue { .. }
        ));
        assert!(error("uct:c=fast").to_string().contains("finite number"));
        assert!(matches!(
            error("uct:iters=0"),
            RegistryError::BadValue { .. }
        ));
        assert!(matches!(error("uct:c=NaN"), RegistryError::BadValue { .. }));
        assert!(matches!(
            error("uct:playout=smart"),
            RegistryError::BadValue { .. }
        ));
        assert!(matches!(error("uct:c"), RegistryError::Malformed { .. }));
        assert!(matches!(error("uct:c=1,"), RegistryError::Malformed { .. }));
        assert!(matches!(error(""), RegistryError::Malformed { .. }));
        assert!(matches!(
            error("uct:iters=5,sims=6"),
            RegistryError::DuplicateKey { .. }
        ));
        // The searcher's own checks come through when it is built.
        let negative: SearcherSpec = "uct:c=-1".parse().unwrap();
        let built = build_searcher::<TicTacToe>(&negative, 0);
        assert!(matches!(built, Err(RegistryError::Config { .. })));
        let solver: SearcherSpec = "solver".parse().unwrap();
        assert!(matches!(
            build_searcher::<Jungle>(&solver, 0),
            Err(RegistryError::Unsupported { .. })
        ));
        assert!(build_searcher::<Board>(&solver, 0).is_ok());
    }

    #[test]
    fn tree_parallelism_is_a_setting_of_uct_and_rave() {
        for text in [
            "uct:iters=400,threads=2,par=tree",
            "rave:iters=400,threads=2,par=tree",
        ] {
            let spec: SearcherSpec = text.parse().unwrap();
            let mut searcher = build_searcher::<TicTacToe>(&spec, 3).unwrap();
            let start = TicTacToe::default();
            let report = searcher.search(&start, &spec.limits());
            assert!(
                report
                    .best
                    .is_some_and(|mv| game_traits::Game::is_legal(&start, mv)),
                "{text}"
            );
            assert_eq!(report.stats.iterations, 400, "{text}");
        }
        assert!(matches!(
            "uct:par=leaf".parse::<SearcherSpec>(),
            Err(RegistryError::BadValue { .. })
        ));
    }

    #[test]
    fn alpha_beta_takes_the_depth_its_table_starts_at() {
        let search = |text: &str| {
            let spec: SearcherSpec = text.parse().unwrap();
            let mut searcher = build_searcher::<Board>(&spec, 0).unwrap();
            searcher.search(&Board::start(), &spec.limits())
        };
        let every_node = search("alphabeta:depth=6");
        let from_two = search("alphabeta:depth=6,tablefrom=2");
        assert_eq!(every_node.value, from_two.value);
        assert_ne!(every_node.stats.nodes, from_two.stats.nodes);
        assert!(matches!(
            "alphabeta:tablefrom=0".parse::<SearcherSpec>(),
            Err(RegistryError::BadValue { .. })
        ));
    }

    #[test]
    fn with_setting_replaces_one_key() {
        let spec: SearcherSpec = "uct:c=0.5,iters=100".parse().unwrap();
        let swept = spec.with_setting("sims", "800").unwrap();
        assert_eq!(swept.to_string(), "uct:c=0.5,iters=800");
        assert!(spec.with_setting("iters", "none").is_err());
    }

    #[test]
    fn ignored_budget_fields_are_reported() {
        let spec: SearcherSpec = "random:iters=100".parse().unwrap();
        let searcher = build_searcher::<TicTacToe>(&spec, 1).unwrap();
        assert_eq!(
            ignored_budget(&spec, searcher.as_ref()),
            vec![LimitKind::Iterations]
        );
        let spec: SearcherSpec = "minimax:depth=2".parse().unwrap();
        let searcher = build_searcher::<TicTacToe>(&spec, 1).unwrap();
        assert!(ignored_budget(&spec, searcher.as_ref()).is_empty());
    }

    #[cfg(feature = "networks")]
    #[test]
    fn a_network_file_is_the_knowledge_of_gumbel_puct_and_alpha_beta() {
        let dir = std::env::temp_dir().join(format!("registry-net-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tictactoe.safetensors");
        let network: self_play::Network<TicTacToe> =
            self_play::Network::new(&TicTacToe::new(), self_play::Architecture::mlp([16]), 1)
                .unwrap();
        network.save(&path).unwrap();
        let start = TicTacToe::new();
        for name in ["gumbel:sims=16", "puct:sims=16", "alphabeta:depth=2"] {
            let spec: SearcherSpec = format!("{name},net={}", path.display()).parse().unwrap();
            assert_eq!(spec.text("net"), Some(path.to_str().unwrap()));
            let mut searcher = build_searcher::<TicTacToe>(&spec, 0).unwrap();
            let report = searcher.search(&start, &spec.limits());
            assert!(report.best.is_some_and(|mv| start.is_legal(mv)), "{name}");
        }
        // A missing file, another game's network, a game without planes.
        let missing: SearcherSpec = "gumbel:net=/no/such/file".parse().unwrap();
        let error = build_searcher::<TicTacToe>(&missing, 0).err().unwrap();
        assert!(matches!(error, RegistryError::Network { .. }), "{error}");
        let spec: SearcherSpec = format!("gumbel:net={}", path.display()).parse().unwrap();
        let error = build_searcher::<Board>(&spec, 0).err().unwrap();
        assert!(error.to_string().contains("tictactoe/v1"), "{error}");
        let error = build_searcher::<Nim>(&spec, 0).err().unwrap();
        assert!(error.to_string().contains("no plane encoding"), "{error}");
        assert!(matches!(
            "gumbel:net=".parse::<SearcherSpec>(),
            Err(RegistryError::BadValue { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Builds the game's default engine and searches its start position.
    struct DefaultEngine;

    impl GameVisitor for DefaultEngine {
        type Output = String;
        fn visit<G: RegistryGame>(self) -> String {
            let spec: SearcherSpec = G::DEFAULT_ENGINE.parse().expect("a valid spec");
            let mut searcher = G::setup().build(&spec, 1).expect("a searcher of the game");
            let start = G::start();
            let report = searcher.search(&start, &game_traits::Limits::nodes(2_000));
            assert!(
                report.best.is_some_and(|mv| start.is_legal(mv)),
                "{}: {}",
                G::NAME,
                G::DEFAULT_ENGINE
            );
            spec.name().to_string()
        }
    }

    #[test]
    fn every_game_builds_its_default_engine() {
        for (name, _) in GAMES {
            let searcher = visit_game(name, DefaultEngine).unwrap();
            let expected = if *name == "othello" {
                "alphabeta"
            } else {
                "rave"
            };
            assert_eq!(searcher, expected, "{name}");
        }
    }

    struct Names;

    impl GameVisitor for Names {
        type Output = (String, usize);
        fn visit<G: RegistryGame>(self) -> (String, usize) {
            let mut moves = Vec::new();
            G::start().legal_moves(&mut moves);
            (G::NAME.to_string(), moves.len())
        }
    }

    #[test]
    fn games_are_found_by_name() {
        assert_eq!(
            visit_game("othello", Names).unwrap(),
            ("othello".to_string(), 4)
        );
        assert_eq!(
            visit_game("Jungle", Names).unwrap(),
            ("jungle".to_string(), 24)
        );
        // The focused view: only the centre on an empty board.
        assert_eq!(
            visit_game("gomoku", Names).unwrap(),
            ("gomoku".to_string(), 1)
        );
        // The full board, for external brains that may play anywhere.
        assert_eq!(
            visit_game("gomoku-full", Names).unwrap(),
            ("gomoku-full".to_string(), 225)
        );
        assert!(matches!(
            visit_game("chess", Names),
            Err(RegistryError::UnknownGame { .. })
        ));
        assert_eq!(GAMES.len(), 6);
    }
}
