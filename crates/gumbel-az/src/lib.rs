#![doc = include_str!("../README.md")]

mod error;
mod gumbel;
pub mod noise;
mod puct;
mod qtransform;
mod schedule;
#[cfg(feature = "serde")]
mod serde_impl;
mod tree;

pub use error::{ConfigError, NoiseError};
pub use gumbel::{GumbelAnalysis, GumbelAz, GumbelConfig};
pub use puct::{DirichletNoise, FirstPlay, Puct, PuctConfig};
pub use qtransform::CompletedQ;
pub use schedule::{ConsideredVisits, MAX_SCHEDULE_LENGTH, considered_visit_sequence};

/// The largest `default_simulations` a configuration accepts: a search
/// without limits must end soon (2^24 simulations).
pub const MAX_DEFAULT_SIMULATIONS: u64 = 1 << 24;

/// The default memory cap of a search tree, in bytes (1 GiB).
pub const DEFAULT_TREE_BYTES: usize = 1 << 30;

/// The smallest memory cap a configuration accepts, in bytes (64 KiB).
pub const MIN_TREE_BYTES: usize = 1 << 16;
