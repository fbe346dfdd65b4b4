//! The `game-arena` command line over the built-in games (see
//! [`game_arena::cli`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    #[cfg(feature = "networks")]
    if let Err(error) = self_play::tune_environment() {
        eprintln!("note: running without the tuned environment ({error})");
    }
    game_arena::cli::main(&game_arena::Registry::builtin())
}
