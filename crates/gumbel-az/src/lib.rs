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
pub use schedule::{ConsideredVisits, considered_visit_sequence};
