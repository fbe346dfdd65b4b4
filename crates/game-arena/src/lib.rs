//! Tournaments between game-search engines on any game: run any searcher
//! against any other, your own game and searchers included, external
//! engines over their protocols, play against them in the terminal, and
//! plug the Othello engine into a GUI.
//!
//! * [`arena`]: the run-time [`Registry`] of games, each with its
//!   searchers and named evaluators; a user's game joins it from the
//!   user's own crate.
//! * [`registry`]: searcher specs by name (`uct:iters=10000` on
//!   `othello`), the built-in games, every default declared once, and
//!   how openings are read ([`registry::RegistryGame::parse_opening`]).
//! * [`tournament`]: round robins, gauntlets, SPRT matches and budget
//!   sweeps, played in parallel, from random openings or a book, with
//!   JSON-lines results that resume and merge; [`stats`]: Elo with
//!   confidence intervals, likelihood of superiority, pentanomial and
//!   trinomial SPRT; [`chart`]: the SVG chart of a sweep.
//! * [`engine`]: external engines as searchers, run as child processes:
//!   NBoard engines (Edax) on Othello and Gomocup brains (Rapfi) on
//!   Gomoku. Failures (crash, timeout, illegal or malformed answer) lose
//!   the game with the reason recorded.
//! * `cli` (feature `cli`): the `game-arena` command line, for the
//!   built-in registry or a user's own.
//! * [`play`]: a person against a searcher in the terminal.
//! * [`nboard`]: the NBoard protocol, engine side, for Othello GUIs.
//! * `training` (feature `networks`): a network trained by self-play for
//!   a game of the registry, which then plays as `gumbel:net=PATH`,
//!   `puct:net=PATH` or `alphabeta:net=PATH`.
//!
//! The workspace's examples are thin programs over this crate:
//! `tournament` (the `game-arena` command line), `play`, `nboard`, and
//! one per published experiment (`othello_rave`, `gumbel_vs_puct`,
//! `custom_evaluator`, `custom_game`).

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
