#![doc = include_str!("../README.md")]

mod bits;
mod board;
mod encode;
mod eval;
mod focus;
mod game;
mod moves;
mod playout;
pub mod protocol;
mod renju;
mod rule;
mod shape;
mod solver;
mod symmetry;
mod tactical;
mod text;
mod threats;

pub use bits::{MoveSet, MoveSetIter};
pub(crate) use board::MAX_CELLS;
pub use board::{DEFAULT_SIZE, Gomoku, MAX_SIZE, MIN_SIZE, PositionError};
pub use eval::{PatternEvaluator, PatternPolicy};
pub use focus::Focused;
pub use moves::{Move, ParseMoveError};
pub use playout::{FocusedPlayout, GomokuGame, ThreatPlayout};
pub use renju::Forbidden;
pub use rule::{Rule, RuleError};
pub use shape::{Direction, Shape};
pub use solver::{Solution, ThreatSolver, wins_by};
pub use symmetry::Symmetry;
pub use tactical::{Decision, OnFocused, TacticalConfig, TacticalSearcher};
pub use text::ParsePositionError;
pub use threats::{Threat, Threats};
