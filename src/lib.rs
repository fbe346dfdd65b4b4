//! Examples and cross-crate benches of the game-search workspace.
//!
//! The libraries live in `crates/`; this package only ties them together.
//! Run the demonstration with `cargo run --release --example demo`.
