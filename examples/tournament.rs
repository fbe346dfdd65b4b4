//! Any searchers against each other on any game: round robin, gauntlet,
//! SPRT match or budget sweep, with a table of score, Elo difference (95%
//! interval) and likelihood of superiority. The `game-arena` command line
//! (`cargo install game-arena --features cli`) over the built-in games;
//! see `game_arena::cli` for every option.
//!
//! ```text
//! cargo run --release --example tournament                 # the default Othello round robin
//! cargo run --release --example tournament -- --list       # searchers, settings, games
//! cargo run --release --example tournament -- uct:iters=2000 rave:iters=2000 greedy \
//!     --game othello --games 20 --out results.jsonl         # JSON lines, --resume to continue
//! cargo run --release --example tournament -- rave uct --sprt 0,5 --games 2000   # nElo bounds, game pairs
//! cargo run --release --example tournament -- merge part*.jsonl --out all.jsonl
//! ```

use std::process::ExitCode;

use game_arena::Registry;

#[path = "common/cli.rs"]
mod cli;

fn main() -> ExitCode {
    // Networks (`net=` settings) run fastest in the tuned environment.
    cli::tune_environment();
    game_arena::cli::main(&Registry::builtin())
}
