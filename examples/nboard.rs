//! An Othello engine for GUIs that speak the NBoard protocol (NBoard,
//! and the GUIs that drive Edax and Ntest): any searcher of the registry,
//! with the exact endgame solver for the last empty squares.
//!
//! ```text
//! cargo build --release --example nboard
//! target/release/examples/nboard --engine rave:iters=50000 --solve 16
//! ```
//!
//! Point the GUI's engine setup at that command line. The protocol this
//! engine speaks is summarised in the docs of `game_search::nboard`. Bad
//! lines are reported on stderr and the session goes on.

use std::io::{self, Write};

use clap::Parser;
use game_search::nboard::Engine;
use game_search::registry::SearcherSpec;

#[path = "common/cli.rs"]
mod cli;

#[derive(Parser, Debug)]
#[command(
    name = "nboard",
    about = "An Othello engine speaking the NBoard protocol on stdin/stdout"
)]
struct Cli {
    /// The searcher: a spec of the registry (see `tournament --list`).
    #[arg(short, long, default_value = "rave:iters=50000")]
    engine: SearcherSpec,
    /// Solve exactly with this many empty squares or fewer (0: never).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=64))]
    solve: u32,
    /// The searcher's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() {
    let args: Cli = cli::parse();
    let mut engine = Engine::new(args.engine, args.solve, args.seed)
        .unwrap_or_else(|error| cli::usage_error::<Cli>(error));
    let stdout = io::stdout();
    let stderr = io::stderr();
    let result = engine.run(io::stdin().lock(), &mut stdout.lock(), &mut stderr.lock());
    if let Err(error) = result.and_then(|()| io::stdout().flush()) {
        eprintln!("error: {error}");
        std::process::exit(1);
    }
}
