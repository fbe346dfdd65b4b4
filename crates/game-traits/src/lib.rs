#![doc = include_str!("../README.md")]

mod baseline;
mod batch;
mod capability;
mod checksum;
mod encode;
mod eval;
mod game;
pub mod hidden;
mod perft;
mod play;
mod player;
mod range;
mod search;
pub mod zobrist;

#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use baseline::{GreedySearcher, RandomSearcher};
pub use batch::{Batch, BatchEntry, BatchEvaluator, BatchedSearch, search_together};
pub use capability::{ActionSpace, ColorFlip, InformationSet, PositionHash};
pub use checksum::{FNV1A_64_OFFSET, fnv1a_64};
pub use encode::{GridSymmetry, PlaneEncoding, PlaneShape};
pub use eval::{
    Evaluator, FnEvaluator, MAX_LOGIT, OutcomeEvaluator, Playout, PolicyEvaluator, UniformPlayout,
    UniformPrior, contain_logits, contain_value, run_playout,
};
pub use game::{Game, IllegalMove};
pub use perft::{FinishedGames, divide, perft_leaves, perft_sequences, perft_with};
pub use play::{
    EloEstimate, MatchError, MatchOptions, MatchRecord, SeriesGame, SeriesOptions, SeriesResult,
    Tally, elo_from_score, format_elo, opening_seed, parallel_map, play_match, play_match_into,
    play_match_judged, play_match_with, play_series, random_opening_moves, score_from_elo,
};
pub use player::{Outcome, Player};
pub use range::{Range, RangeError};
pub use search::{
    Budget, Handover, LimitKind, Limits, MoveInfo, SearchReport, SearchStats, Searcher, StopReason,
};

pub use rand;
