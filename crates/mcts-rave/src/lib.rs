#![doc = include_str!("../README.md")]

mod config;
mod ismcts;
mod policy;
mod search;
mod tree;
mod worker;

pub use config::{ConfigError, LeafEvaluation, MAX_THREADS, MctsConfig};
pub use ismcts::Ismcts;
pub use policy::{Rave, RaveSchedule, TreePolicy, Uct};
pub use search::{Mcts, same_hash, same_position};

/// Bytes of one tree node for moves of type `M`, AMAF statistics not
/// counted (RAVE adds [`AMAF_BYTES`] per node).
pub const fn node_bytes<M>() -> usize {
    size_of::<tree::Node<M>>()
}

/// Bytes of AMAF statistics RAVE keeps per node, beside the node.
pub const AMAF_BYTES: usize = size_of::<tree::Amaf>();
