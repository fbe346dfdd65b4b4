//! `pbrain-gomoku`: a Gomocup (Piskvork) brain on this crate's rules and
//! the workspace's searchers.
//!
//! ```text
//! cargo build --release -p gomoku-renju --example pbrain-gomoku
//! target/release/examples/pbrain-gomoku [--searcher NAME] [--threads N] [--seed S]
//! ```
//!
//! Give the manager the binary (its name starts with `pbrain-`, so
//! Piskvork speaks the new protocol to it). Searchers: `puct` (the
//! default: PUCT AlphaZero with the pattern policy), `gumbel` (Gumbel
//! AlphaZero, the same policy), `rave` and `uct` (MCTS with threat-aware
//! playouts) and `alphabeta` (iterative-deepening alpha-beta over the
//! pattern evaluator), each behind the tactical layer (fives, fours, VCF,
//! VCT); and the baselines `greedy` and `random`. Adding a searcher is one
//! arm of `SearcherKind::build` in `examples/common/searchers.rs`. The
//! protocol, as this brain speaks it, is documented in
//! `gomoku_renju::protocol`: every command of the Gomocup protocol's mandatory
//! set plus `RESTART`, `RECTSTART` (square boards), `TAKEBACK` and `PLAY`;
//! `INFO` keys `timeout_turn`, `timeout_match`, `time_left`, `max_memory`
//! (sizes the search tree), `rule` (0 freestyle, 1 exact five, 4 renju),
//! `game_type` and `folder`. Logging goes to standard error, never to the
//! manager's pipe.

#[path = "common/searchers.rs"]
mod searchers;

use std::io::{self, Write};

use gomoku_renju::protocol::{Brain, run};
use searchers::SearcherKind;

struct Options {
    searcher: SearcherKind,
    threads: usize,
    seed: u64,
}

fn usage() -> String {
    format!(
        "usage: pbrain-gomoku [--searcher NAME] [--threads N] [--seed S]\n  searchers: {}",
        SearcherKind::NAMES
    )
}

fn parse() -> Result<Options, String> {
    let mut options = Options {
        searcher: SearcherKind::DEFAULT,
        threads: 1,
        seed: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(usage());
        }
        let value = args
            .next()
            .ok_or(format!("{flag} needs a value\n{}", usage()))?;
        match flag.as_str() {
            "--searcher" => {
                options.searcher = SearcherKind::parse(&value)
                    .ok_or(format!("unknown searcher {value:?}\n{}", usage()))?;
            }
            "--threads" => {
                options.threads = value
                    .parse()
                    .ok()
                    .filter(|threads| (1..=64).contains(threads))
                    .ok_or(format!("--threads: {value:?} is not a number from 1 to 64"))?;
            }
            "--seed" => {
                options.seed = value
                    .parse()
                    .map_err(|_| format!("--seed: {value:?} is not a number"))?;
            }
            _ => return Err(format!("unknown option {flag:?}\n{}", usage())),
        }
    }
    Ok(options)
}

fn main() {
    let options = match parse() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let mut brain = Brain::new(move |settings| {
        options
            .searcher
            .build(settings, options.threads, options.seed)
    });
    // `run` reads stdin as bytes: any bytes get an answer, only END or the
    // end of stdin stop it. A write error (the manager closed the pipe)
    // ends the brain with a word on stderr, never a panic.
    if let Err(error) = run(
        &mut brain,
        io::BufReader::new(io::stdin()),
        io::stdout().lock(),
    ) {
        // `eprintln!` would panic if stderr is closed too.
        let _ = writeln!(io::stderr(), "pbrain-gomoku: {error}");
        std::process::exit(1);
    }
}
