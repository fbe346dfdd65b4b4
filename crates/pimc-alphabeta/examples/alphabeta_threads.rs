//! Lazy-SMP threads against one thread: the time `AlphaBeta` takes to reach
//! a depth on the eight Othello or Jungle mid-games of the benches, with
//! one thread and with more, run in turn so that both see the same
//! machine.
//!
//! ```text
//! cargo run --release -p pimc-alphabeta --example alphabeta_threads -- \
//!     --game othello --depth 10 --threads 2 --rounds 3
//! ```
//!
//! Options: `--game othello|jungle`, `--depth D` (default 9), `--threads T`
//! (the threads compared with one; default 2), `--rounds R` (pairs of
//! runs; default 3), `--table-from D` (`AlphaBetaConfig::table_from_depth`,
//! default 1). Every search starts from a fresh searcher, as the benches
//! do.

#[path = "../benches/positions.rs"]
mod positions;

use std::time::{Duration, Instant};

use bitboard_othello::HeuristicEvaluator;
use dou_shou_qi::JungleEvaluator;
use game_traits::{Evaluator, Limits, PositionHash, Searcher};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};

struct Settings {
    game: String,
    depth: u32,
    threads: usize,
    rounds: u32,
    table_from: u32,
}

fn parse() -> Result<Settings, String> {
    let mut settings = Settings {
        game: "othello".to_string(),
        depth: 9,
        threads: 2,
        rounds: 3,
        table_from: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |text: &str| -> Result<u64, String> {
            text.parse()
                .map_err(|_| format!("{flag}: {text:?} is not a number"))
        };
        match flag.as_str() {
            "--game" => settings.game = value,
            "--depth" => settings.depth = number(&value)? as u32,
            "--threads" => settings.threads = number(&value)? as usize,
            "--rounds" => settings.rounds = number(&value)? as u32,
            "--table-from" => settings.table_from = number(&value)?.min(1000) as u32,
            other => return Err(format!("unknown option {other}")),
        }
    }
    if !(1..=30).contains(&settings.depth) {
        return Err("--depth must be within 1-30".to_string());
    }
    if !(2..=64).contains(&settings.threads) {
        return Err("--threads must be within 2-64".to_string());
    }
    Ok(settings)
}

/// One run: every position searched to the depth by a fresh searcher with
/// `threads` threads; total time and nodes.
fn run<G: PositionHash, E: Evaluator<G> + Clone>(
    settings: &Settings,
    positions: &[G],
    evaluator: &E,
    threads: usize,
) -> (Duration, u64) {
    let depth = settings.depth;
    let mut time = Duration::ZERO;
    let mut nodes = 0;
    for position in positions {
        let mut searcher = AlphaBeta::new(
            evaluator.clone(),
            AlphaBetaConfig::default()
                .with_threads(threads)
                .with_table_from_depth(settings.table_from),
        )
        .expect("valid settings");
        let started = Instant::now();
        let report = searcher.search(position, &Limits::depth(depth));
        time += started.elapsed();
        assert_eq!(report.stats.depth, depth, "the search reached its depth");
        nodes += report.stats.nodes;
    }
    (time, nodes)
}

fn compare<G: PositionHash, E: Evaluator<G> + Clone>(
    settings: &Settings,
    positions: &[G],
    evaluator: &E,
) {
    let mut ratios = Vec::new();
    println!(
        "| round | 1 thread | nodes | {t} threads | nodes | time of {t} / time of 1 |",
        t = settings.threads
    );
    println!("|---|---|---|---|---|---|");
    for round in 1..=settings.rounds {
        let (time_one, nodes_one) = run(settings, positions, evaluator, 1);
        let (time_many, nodes_many) = run(settings, positions, evaluator, settings.threads);
        let ratio = time_many.as_secs_f64() / time_one.as_secs_f64();
        ratios.push(ratio);
        println!(
            "| {round} | {:.3} s | {nodes_one} | {:.3} s | {nodes_many} | {ratio:.3} |",
            time_one.as_secs_f64(),
            time_many.as_secs_f64(),
        );
    }
    ratios.sort_by(f64::total_cmp);
    let median = ratios[ratios.len() / 2];
    println!(
        "median ratio {median:.3}: {} threads reach depth {} {:.2}x as fast as one",
        settings.threads,
        settings.depth,
        1.0 / median
    );
}

fn main() {
    let settings = match parse() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(2);
        }
    };
    println!(
        "{} mid-games x 8, depth {}, table from depth {}, a fresh searcher per search",
        settings.game, settings.depth, settings.table_from
    );
    match settings.game.as_str() {
        "othello" => compare(
            &settings,
            &positions::othello_eight(),
            &HeuristicEvaluator::default(),
        ),
        "jungle" => compare(
            &settings,
            &positions::jungle_eight(),
            &JungleEvaluator::default(),
        ),
        other => {
            eprintln!("error: --game {other:?} is not othello or jungle");
            std::process::exit(2);
        }
    }
}
