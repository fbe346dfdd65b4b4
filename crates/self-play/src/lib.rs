#![doc = include_str!("../README.md")]

pub mod arena;
mod chart;
mod conv;
mod environment;
mod error;
mod evaluate;
pub mod file;
mod net;
pub mod run;
pub mod sample;
mod selfplay;
pub mod shard;
mod train;

pub use arena::{EvalConfig, MatchResult, Opponent};
pub use chart::training_chart;
pub use environment::{TUNED_SETTINGS, tune_environment};
pub use error::{NetError, ShardError, TrainError};
pub use file::inspect;
pub use net::{Architecture, MAX_DEPTH, MAX_WIDTH, NetSpec, Network};
pub use run::{CheckpointRecord, Event, Run, RunConfig, run_worker};
pub use sample::{Augmenter, Planes, ReplayWindow, Sample, TrainingBatch};
pub use selfplay::{GameRecord, SearchKind, SelfPlayConfig, SelfPlayStats, play_games};
pub use train::{Losses, TrainConfig, Trainer};
