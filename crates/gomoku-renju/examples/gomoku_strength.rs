//! Strength of the brain's searchers on freestyle 15x15: seeded series of
//! games against a uniformly random player and against the one-ply greedy
//! pattern player, each opening played twice with colours swapped, with
//! Wilson 95% intervals.
//!
//! ```text
//! cargo run --release -p gomoku-renju --example gomoku_strength -- [options]
//!
//! options:
//!   --opponent NAME     random, greedy or both (default both)
//!   --searcher NAME     the brain's searcher: puct (default), rave, uct,
//!                       gumbel, alphabeta, greedy, random
//!   --games N           games per opponent (rounded up to even; default 50)
//!   --time-ms T         milliseconds per move of the brain (default 1000)
//!   --iterations N      a fixed number of iterations per move instead (the
//!                       threat searches keep their node budgets)
//!   --opening-plies P   random plies before each opening (default 2)
//!   --parallel N        games played at once (default 2)
//!   --seed S            series seed (default 1)
//! ```
//!
//! The opponents: `random` plays a uniformly random empty cell of the whole
//! board (a "random brain"); `greedy` plays the cell after which
//! `PatternEvaluator` rates the position best (`GreedySearcher`, one ply,
//! every cell). The brain's searcher is the one `pbrain-gomoku` plays with
//! (`--searcher`), tactical layer included, with `Limits::time` per move.

#[path = "common/searchers.rs"]
mod searchers;

use std::time::{Duration, Instant};

use game_traits::{
    GreedySearcher, Limits, RandomSearcher, Searcher, SeriesOptions, SeriesResult, Tally,
    play_series,
};
use gomoku_renju::protocol::Settings;
use gomoku_renju::{Gomoku, PatternEvaluator};
use searchers::SearcherKind;

struct Options {
    opponents: Vec<String>,
    searcher: SearcherKind,
    games: u32,
    time_ms: u64,
    iterations: Option<u64>,
    opening_plies: usize,
    parallel: usize,
    seed: u64,
}

fn parse() -> Result<Options, String> {
    let mut options = Options {
        opponents: vec!["random".to_string(), "greedy".to_string()],
        searcher: SearcherKind::DEFAULT,
        games: 50,
        time_ms: 1000,
        iterations: None,
        opening_plies: 2,
        parallel: 2,
        seed: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |_| format!("bad value {value:?} for {flag}");
        match flag.as_str() {
            "--opponent" => {
                options.opponents = match value.as_str() {
                    "both" => vec!["random".to_string(), "greedy".to_string()],
                    "random" | "greedy" => vec![value.clone()],
                    _ => return Err(format!("unknown opponent {value:?}")),
                }
            }
            "--searcher" => {
                options.searcher = SearcherKind::parse(&value).ok_or(format!(
                    "unknown searcher {value:?}: {}",
                    SearcherKind::NAMES
                ))?
            }
            "--games" => options.games = value.parse().map_err(bad)?,
            "--time-ms" => options.time_ms = value.parse().map_err(bad)?,
            "--iterations" => options.iterations = Some(value.parse().map_err(bad)?),
            "--opening-plies" => options.opening_plies = value.parse().map_err(bad)?,
            "--parallel" => options.parallel = value.parse().map_err(bad)?,
            "--seed" => options.seed = value.parse().map_err(bad)?,
            _ => return Err(format!("unknown option {flag:?}")),
        }
    }
    Ok(options)
}

fn report<M>(name: &str, result: &SeriesResult<M>, elapsed: Duration) {
    let plies: usize = result.games.iter().map(|game| game.plies).sum();
    let mut by_side = [Tally::default(); 2];
    for game in &result.games {
        by_side[game.a_side.index()].record(game.outcome, game.a_side);
    }
    println!(
        "{name}: {} over {} games (as Black {}, as White {}), {:.1} plies per game, {:.0} s",
        result.tally,
        result.tally.games(),
        by_side[0],
        by_side[1],
        plies as f64 / result.games.len().max(1) as f64,
        elapsed.as_secs_f64()
    );
}

fn main() {
    let options = match parse() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let start = Gomoku::new();
    let settings = Settings::default();
    let brain_limits = match options.iterations {
        Some(iterations) => Limits::iterations(iterations),
        None => Limits::time(Duration::from_millis(options.time_ms)),
    };
    let series = SeriesOptions::new(
        options.games.div_ceil(2),
        options.opening_plies,
        Limits::none(),
    )
    .with_seed(options.seed)
    .with_threads(options.parallel)
    .with_limits(brain_limits, Limits::none());
    let kind = options.searcher;
    let brain = |seed: u64| -> Box<dyn Searcher<Gomoku> + Send> { kind.build(&settings, 1, seed) };
    let budget = match options.iterations {
        Some(iterations) => format!("{iterations} iterations"),
        None => format!("{} ms", options.time_ms),
    };
    println!(
        "brain: {kind:?} at {budget} per move, freestyle 15x15, {} random opening plies, seed {}",
        options.opening_plies, options.seed
    );
    for opponent in &options.opponents {
        let started = Instant::now();
        let result = match opponent.as_str() {
            "random" => play_series(&start, brain, RandomSearcher::new, &series),
            _ => play_series(
                &start,
                brain,
                |_| GreedySearcher::new(PatternEvaluator::default()),
                &series,
            ),
        };
        match result {
            Ok(result) => report(&format!("vs {opponent}"), &result, started.elapsed()),
            Err(error) => {
                eprintln!("the series failed: {error}");
                std::process::exit(1);
            }
        }
    }
}
