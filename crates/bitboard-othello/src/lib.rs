#![doc = include_str!("../README.md")]

mod board;
mod config;
mod dispatch;
mod encode;
mod endgame;
pub mod eval;
pub mod movegen;
mod notation;
pub mod pattern;
mod perft;
mod playout;
mod square;
mod symmetry;

pub use board::{Board, BoardError, MAX_PLIES, ParseBoardError};
pub use config::ConfigError;
pub use dispatch::instruction_set;
pub use endgame::{Solution, SolveMode, Solver, SolverConfig, Wld, WldSolution, solve, solve_wld};
pub use eval::{HeuristicEvaluator, HeuristicPolicy, PositionalEvaluator};
pub use notation::{ObfError, ObfProblem, Transcript, TranscriptError};
pub use pattern::{
    FitConfig, FitError, LabelError, LabelledPosition, PatternEvaluator, PatternPolicy,
    PatternTrainer, PatternWeights, WeightsError,
};
pub use perft::{divide, perft_leaves, perft_sequences, perft_with};
pub use playout::{CornerFirstPlayout, RandomPlayout, random_playout};
pub use square::{Move, ParseMoveError, Square};
pub use symmetry::Symmetry;
