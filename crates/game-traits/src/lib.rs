#![doc = include_str!("../README.md")]

mod baseline;
mod capability;
mod eval;
mod game;
pub mod hidden;
mod perft;
mod play;
mod player;
mod search;
pub mod zobrist;

#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use baseline::{GreedySearcher, RandomSearcher};
pub use capability::{ActionSpace, ColorFlip, InformationSet, PositionHash};
pub use eval::{
    Evaluator, FnEvaluator, MAX_LOGIT, OutcomeEvaluator, Playout, PolicyEvaluator, UniformPlayout,
    UniformPrior, contain_logits, contain_value, run_playout,
};
pub use game::{Game, IllegalMove};
pub use perft::{FinishedGames, divide, perft, perft_with};
pub use play::{
    MatchError, MatchOptions, MatchRecord, SeriesGame, SeriesOptions, SeriesResult, Tally,
    play_match, play_match_with, play_series,
};
pub use player::{Outcome, Player};
pub use search::{
    Budget, Handover, LimitKind, Limits, MoveInfo, SearchReport, SearchStats, Searcher, StopReason,
};

pub use rand;
