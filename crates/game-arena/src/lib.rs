//! The front door of the game-search workspace: run any searcher against
//! any other on any game, play against them, and plug the Othello engine
//! into a GUI.
//!
//! The libraries live in `crates/`; this package ties them together.
//!
//! * [`registry`]: searchers and games by name (`uct:iters=10000` on
//!   `othello`), and how to add one.
//! * [`tournament`]: round robins, gauntlets and budget sweeps, played in
//!   parallel, with JSON-lines results that resume and merge; [`stats`]:
//!   Elo with confidence intervals, likelihood of superiority, SPRT;
//!   [`chart`]: the SVG chart of a sweep.
//! * [`play`]: a person against a searcher in the terminal.
//! * [`nboard`]: the NBoard protocol, for Othello GUIs.
//! * [`training`]: a network trained by self-play for a game of the
//!   registry (the `train` example), which then plays as
//!   `gumbel:net=PATH`, `puct:net=PATH` or `alphabeta:net=PATH`.
//!
//! The examples are the programs: `cargo run --release --example
//! tournament` (the main command), `play`, `nboard`, and one per published
//! experiment (`othello_rave`, `gumbel_vs_puct`, `custom_evaluator`,
//! `custom_game`).

pub mod arena;
pub mod chart;
#[cfg(feature = "cli")]
pub mod cli;
pub mod engine;
mod games;
pub mod nboard;
pub mod play;
pub mod registry;
pub mod stats;
pub mod tournament;
#[cfg(feature = "networks")]
pub mod training;

pub use arena::{ArenaGame, Registry};
