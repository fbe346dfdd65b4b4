//! The reusable test kit (feature `testing`): the invariant harness, checks
//! for searchers, brute-force minimax, and toy games.
//!
//! Enable it in your own crate's dev-dependencies to check your game with
//! the same property tests ours pass:
//!
//! ```toml
//! [dev-dependencies]
//! game-traits = { version = "0.1", features = ["testing"] }
//! ```
//!
//! * [`Invariants`]: the rules of the [`Game`](crate::Game) contract and of
//!   each capability trait, on random games (proptest), with failures
//!   shrunk to short games.
//! * [`tactical_cases`] and [`check_tactics`]: positions where one side wins
//!   by force or must defend, found by brute force, for either player to
//!   move; [`check_against_minimax`] compares a searcher's values with
//!   [`minimax`].
//! * Toy games: [`TicTacToe`], [`Nim`] (with an extra-turn rule, so turns do
//!   not alternate), and [`ExplicitTree`]s given as data or generated at
//!   random, with stored values and priors for exact searcher tests.

mod endless;
mod harness;
mod infoset;
mod minimax;
mod nim;
mod pinned;
mod searchers;
#[cfg(feature = "serde")]
mod serde_checks;
mod shell;
mod tictactoe;
mod tree;

pub use endless::Endless;
pub use harness::{
    Coverage, Invariant, InvariantViolation, Invariants, PlayStyle, check_game_invariants,
    check_information_set,
};
pub use infoset::{INFO_SET_WORLD_SAMPLES, check_info_set_searcher, info_set_positions};
pub use minimax::{MinimaxSearcher, child_value, minimax, value_for_mover};
pub use nim::{MAX_HEAP_SIZE, MAX_HEAPS, Nim, NimMove, ParseNimError};
pub use pinned::assert_matches_pinned;
pub use searchers::{
    ContractOptions, SearcherFailure, Tactic, TacticalCase, check_against_minimax,
    check_limits_contract, check_repeatable, check_tactics, contract_positions, random_midgames,
    random_positions, tactical_case, tactical_cases,
};
#[cfg(feature = "serde")]
pub use serde_checks::{
    SerdeMismatch, check_parser_and_serde_agree, check_serde_agrees, check_serde_round_trip,
};
pub use shell::{MAX_CUPS, ShellError, ShellGame, ShellInfo, ShellMove, ShellPhase, ShellTable};
pub use tictactoe::{ParseTicTacToeError, TicTacToe, TicTacToeHeuristic};
pub use tree::{ExplicitTree, RandomTree, TreeError, TreeEvaluator, TreeGame, TreeNode};
