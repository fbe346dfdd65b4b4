#![doc = include_str!("../README.md")]

mod animal;
mod board;
mod config;
mod encode;
mod eval;
pub mod hidden;
mod history;
mod movegen;
mod moves;
mod notation;
mod playout;
mod position;
mod rules;
mod zobrist;

pub use animal::{Animal, AnimalSet, Piece};
pub use board::{FILES, ParseSquareError, RANKS, SQUARES, Square};
pub use config::ConfigError;
pub use eval::JungleEvaluator;
pub use moves::{Move, ParseMoveError};
pub use notation::PositionError;
pub use playout::JunglePlayout;
pub use position::{Jungle, START_POSITION};
pub use rules::{FailedAttack, Fight, Rules, RulesError};
