#![doc = include_str!("../README.md")]

mod alphabeta;
pub mod baselines;
mod busy;
mod config;
mod pimc;
mod score;
mod table;
mod worker;

pub use alphabeta::{AlphaBeta, AnalysedMove, Analysis};
pub use baselines::Naive;
pub use config::{
    AlphaBetaConfig, ConfigError, MAX_DEPTH, MAX_TABLE_ENTRIES, MAX_THREADS, RootValues,
};
pub use pimc::{Pimc, PimcAnalysis, PimcConfig, PimcMove};
pub use score::Score;

#[cfg(test)]
mod tests;
