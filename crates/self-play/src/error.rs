//! What can go wrong, by kind: networks and their files ([`NetError`]),
//! replay shards ([`ShardError`]), training runs ([`TrainError`]).

use std::path::PathBuf;

/// A network that cannot be built, read, written or run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum NetError {
    /// The file could not be read or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was being done (`read`, `write`).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is not a whole safetensors file (truncated, or not one at
    /// all).
    #[error("{origin} is not a whole safetensors file: {reason}")]
    Format {
        /// Where the bytes came from.
        origin: String,
        /// What the reader found.
        reason: String,
    },
    /// A safetensors file, but not a network of this library: a metadata
    /// key is missing or unreadable.
    #[error("{origin} is not a network file of this library: metadata {key:?} {problem}")]
    Metadata {
        /// Where the bytes came from.
        origin: String,
        /// The key.
        key: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A network file of a format version this library does not read.
    #[error("{origin} has network format version {found}; this library reads version {expected}")]
    Version {
        /// Where the bytes came from.
        origin: String,
        /// The version this library writes and reads.
        expected: u32,
        /// The version found.
        found: String,
    },
    /// A network for another game or encoding.
    #[error("{origin} holds a network for {found:?}, not for {expected:?}")]
    WrongGame {
        /// Where the network came from.
        origin: String,
        /// The encoding of the game at hand.
        expected: String,
        /// The encoding the network was trained on.
        found: String,
    },
    /// A network whose input planes or policy do not fit the game.
    #[error("{origin}: the game gives {expected}, the network takes {found}")]
    WrongShape {
        /// Where the network came from.
        origin: String,
        /// What the game gives.
        expected: String,
        /// What the network takes.
        found: String,
    },
    /// A tensor missing from the file.
    #[error("{origin} has no tensor {name:?}, which its architecture needs")]
    MissingTensor {
        /// Where the bytes came from.
        origin: String,
        /// The tensor's name.
        name: String,
    },
    /// A tensor of the wrong shape or type for the architecture.
    #[error("{origin}: tensor {name:?} is {found}, its architecture needs {expected}")]
    WrongTensor {
        /// Where the bytes came from.
        origin: String,
        /// The tensor's name.
        name: String,
        /// What the architecture needs.
        expected: String,
        /// What the file holds.
        found: String,
    },
    /// The weights do not match the checksum saved with them.
    #[error("{origin} is corrupt: its weights do not match their checksum")]
    Corrupt {
        /// Where the bytes came from.
        origin: String,
    },
    /// A weight that is NaN or infinite.
    #[error("{origin}: tensor {name:?} holds a value that is not finite")]
    NonFinite {
        /// Where the weights came from.
        origin: String,
        /// The tensor's name.
        name: String,
    },
    /// An architecture that cannot be built.
    #[error("bad architecture {text:?}: {reason}")]
    Architecture {
        /// The architecture, as text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// The tensor library failed.
    #[error("tensor computation failed: {0}")]
    Tensor(#[from] candle_core::Error),
}

/// A replay shard that cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// The file could not be read or written.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The system's reason.
        source: std::io::Error,
    },
    /// The file is not a replay shard, or a shard of another version.
    #[error("{path} is not a replay shard of this library: {reason}")]
    NotAShard {
        /// The file.
        path: PathBuf,
        /// What was found.
        reason: String,
    },
    /// The shard ends early or fails its checksum.
    #[error("{path} is corrupt or truncated: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A shard of samples for another encoding or shape.
    #[error("{path} holds samples of {found}, not of {expected}")]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// The encoding and shape at hand.
        expected: String,
        /// Those of the shard.
        found: String,
    },
}

/// A training run that cannot start or go on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TrainError {
    /// A numeric setting outside its range.
    #[error(transparent)]
    Range(#[from] game_traits::RangeError),
    /// A setting refused for a reason other than its range.
    #[error("bad setting {name} = {value}: expected {expected}")]
    Config {
        /// The setting.
        name: &'static str,
        /// Its value.
        value: String,
        /// What it accepts.
        expected: String,
    },
    /// The loss or its gradient became NaN or infinite; the weights were
    /// not changed and the last good checkpoint is kept.
    #[error(
        "the loss or its gradient is not finite at step {step} (policy loss {policy_loss}, value loss {value_loss}): training stopped; the last good checkpoint is {last_good}"
    )]
    NonFiniteLoss {
        /// The training step.
        step: u64,
        /// The policy loss.
        policy_loss: f32,
        /// The value loss.
        value_loss: f32,
        /// The checkpoint kept (or "none yet").
        last_good: String,
    },
    /// A network error.
    #[error(transparent)]
    Net(#[from] NetError),
    /// A replay shard error.
    #[error(transparent)]
    Shard(#[from] ShardError),
    /// A run directory's file could not be read or written.
    #[error("cannot {action} {path}: {reason}")]
    Run {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why not.
        reason: String,
    },
    /// A searcher's configuration was refused.
    #[error("searcher settings refused: {0}")]
    Searcher(#[from] gumbel_az::ConfigError),
    /// A match of the evaluation failed (a searcher gave no move or an
    /// illegal one).
    #[error("evaluation match failed: {0}")]
    Match(String),
}

impl From<candle_core::Error> for TrainError {
    fn from(error: candle_core::Error) -> Self {
        TrainError::Net(NetError::Tensor(error))
    }
}
