//! Command-line helpers shared by the examples: the arena's clap parsing
//! (usage line on every error, exit code 2) and the tuned environment of
//! networks.

#[allow(unused_imports)] // each example uses what it needs
pub(crate) use game_arena::cli::{parse, usage_error};

/// Restarts the process in the environment that makes networks fast on
/// the CPU (see `self_play::tune_environment`), once.
#[allow(dead_code)] // the examples without networks do not call it
pub(crate) fn tune_environment() {
    if let Err(error) = self_play::tune_environment() {
        eprintln!("note: running without the tuned environment ({error})");
    }
}
