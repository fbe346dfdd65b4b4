//! An Othello engine for GUIs that speak the NBoard protocol (NBoard,
//! and the GUIs that drive Edax and Ntest): any searcher of the registry,
//! with the exact endgame solver for the last empty squares.
//!
//! ```text
//! cargo build --release --example nboard
//! target/release/examples/nboard --engine alphabeta:ms=1000,lmr=on --solve 16
//! ```
//!
//! Point the GUI's engine setup at that command line.
//!
//! The protocol (NBoard's, by Chris Welty; version 2), one line per
//! command on stdin, replies on stdout:
//!
//! * `nboard 2` opens the session; `set depth <n>` (reply `set myname
//!   <name>`); `set game <GGF>` (the position is the end of that game);
//!   `set contempt <n>`; `move <F5|PA>[/<eval>/<time>]` (also a bare
//!   `F5`).
//! * `go`: reply `status thinking`, `=== <move>/<eval>/<time>`, `status`;
//!   the board is not changed until the GUI sends `move`.
//! * `hint <n>`: `status analysing`, then up to `n` lines `search <pv>
//!   <eval> 0 <depth> <searcher>`, then `status`.
//! * `ping <n>`: `pong <n>` (after any search); `learn`: `learned`;
//!   `quit` ends the session.
//!
//! Evals are in discs for the player to move. Commands the engine does not
//! know are ignored, as the protocol asks; a known command with a bad
//! argument, and a line that is not UTF-8 or too long, is reported on
//! stderr and the session goes on until `quit` or the end of stdin. The module
//! `game_arena::nboard` documents GGF and the details.

use std::io::{self, Write};

use clap::Parser;
use game_arena::nboard::Engine;
use game_arena::registry::{RegistryGame, SearcherSpec};

#[path = "common/cli.rs"]
mod cli;

#[derive(Parser, Debug)]
#[command(
    name = "nboard",
    about = "An Othello engine speaking the NBoard protocol on stdin/stdout"
)]
struct Cli {
    /// The searcher: a spec of the registry (see `tournament --list`);
    /// by default alpha-beta on the pattern evaluator, a second a move
    /// (or the GUI's `set depth`, whichever ends first).
    #[arg(short, long, default_value = <bitboard_othello::Board as RegistryGame>::DEFAULT_ENGINE)]
    engine: SearcherSpec,
    /// Solve exactly with this many empty squares or fewer (0: never).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=64))]
    solve: u32,
    /// The searcher's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn main() {
    // Networks (`net=` settings) run fastest in the tuned environment.
    cli::tune_environment();
    let args: Cli = cli::parse();
    let mut engine = Engine::new(args.engine, args.solve, args.seed)
        .unwrap_or_else(|error| cli::usage_error::<Cli>(error));
    let stdout = io::stdout();
    let stderr = io::stderr();
    // `Engine::run` reads stdin as bytes: no input ends it but `quit` and
    // the end of stdin; only a failed write (the GUI is gone) does.
    let result = engine.run(io::stdin().lock(), &mut stdout.lock(), &mut stderr.lock());
    if let Err(error) = result.and_then(|()| io::stdout().flush()) {
        // `eprintln!` would panic if stderr is closed too.
        let _ = writeln!(io::stderr(), "error: {error}");
        std::process::exit(1);
    }
}
