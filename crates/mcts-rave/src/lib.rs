#![doc = include_str!("../README.md")]

mod config;
mod driver;
mod engine;
mod ismcts;
mod knowledge;
mod leaf;
mod policy;
mod search;
mod shared_tree;
mod store;
mod tree;

pub use config::{
    ConfigError, LeafEvaluation, MAX_BATCH_SIZE, MAX_THREADS, MAX_VIRTUAL_LOSS, MctsConfig,
    Parallelism, StatsSync,
};
pub use ismcts::Ismcts;
pub use knowledge::MctsKnowledge;
pub use leaf::BatchValues;
pub use policy::{ChildStats, ExplorationScale, Rave, RaveSchedule, TreePolicy, Uct};
pub use search::{Mcts, same_hash, same_position};
pub use shared_tree::VisitCountError;

/// Bytes of one tree node for moves of type `M`, AMAF statistics not
/// counted (RAVE adds [`AMAF_BYTES`] per node).
pub const fn node_bytes<M>() -> usize {
    size_of::<tree::Node<M>>()
}

/// Bytes of AMAF statistics RAVE keeps per node, beside the node.
pub const AMAF_BYTES: usize = size_of::<tree::Amaf>();
