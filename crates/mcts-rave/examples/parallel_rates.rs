//! Iterations per move in real games, by kind of parallelism: RAVE with
//! uniform random playouts plays Othello against itself at a fixed time per
//! move, keeping its tree between moves, as in a match. A fresh tree from
//! the start position (the `iterations` bench) flatters the shared tree:
//! in a game the kept tree is deeper, and every extra ply of a path costs
//! a shared tree more than a private one.
//!
//! ```text
//! cargo run --release -p mcts-rave --example parallel_rates -- [--time-ms T] [--games N]
//! ```
//!
//! Prints, for one thread, two threads on private trees (root parallelism)
//! and two threads on one shared tree (tree parallelism), the mean
//! iterations per move and the mean by stage of the game.

use std::time::Duration;

use bitboard_othello::{Board, RandomPlayout};
use game_traits::{Game, Limits, Searcher};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge, Parallelism, Rave};

/// Plies of one stage of the game in the report.
const STAGE_PLIES: usize = 12;

fn parse() -> Result<(u64, u32), String> {
    let (mut time_ms, mut games) = (20, 4);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |error: std::num::ParseIntError| format!("{flag} {value}: {error}");
        match flag.as_str() {
            "--time-ms" => time_ms = value.parse().map_err(bad)?,
            "--games" => games = value.parse().map_err(bad)?,
            other => return Err(format!("unknown option {other}")),
        }
    }
    if time_ms == 0 || games == 0 {
        return Err("--time-ms and --games must be at least 1".to_string());
    }
    Ok((time_ms, games))
}

/// Mean iterations per move over `games` self-play games, overall and by
/// stage.
fn rates(config: MctsConfig, time: Duration, games: u32) -> (f64, Vec<f64>) {
    let knowledge = MctsKnowledge::rave(Rave::new()).with_playout(RandomPlayout);
    let mut searcher = Mcts::new(knowledge, config).expect("a valid configuration");
    let limits = Limits::time(time);
    let (mut total, mut moves) = (0u64, 0u64);
    let mut stages: Vec<(u64, u64)> = Vec::new();
    for _ in 0..games {
        searcher.reset();
        let mut board = Board::start();
        let mut ply = 0;
        while board.outcome().is_none() {
            let report = searcher.search(&board, &limits);
            let best = report.best.expect("an unfinished game has a move");
            assert!(board.is_legal(best), "the searcher chose an illegal move");
            let stage = ply / STAGE_PLIES;
            if stages.len() <= stage {
                stages.resize(stage + 1, (0, 0));
            }
            stages[stage].0 += report.stats.iterations;
            stages[stage].1 += 1;
            total += report.stats.iterations;
            moves += 1;
            board.play(best);
            searcher.advance(best);
            ply += 1;
        }
    }
    let by_stage = stages
        .iter()
        .map(|&(sum, count)| sum as f64 / count.max(1) as f64)
        .collect();
    (total as f64 / moves.max(1) as f64, by_stage)
}

fn main() {
    let (time_ms, games) = match parse() {
        Ok(options) => options,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(2);
        }
    };
    let time = Duration::from_millis(time_ms);
    let base = MctsConfig::default().with_seed(1);
    let series = [
        ("1 thread", base.clone()),
        ("2 threads, root parallelism", base.clone().with_threads(2)),
        (
            "2 threads, tree parallelism",
            base.with_threads(2).with_parallelism(Parallelism::Tree),
        ),
    ];
    println!("{time_ms} ms a move, {games} games each; iterations per move");
    for (name, config) in series {
        let (mean, by_stage) = rates(config, time, games);
        let stages: Vec<String> = by_stage
            .iter()
            .enumerate()
            .map(|(stage, mean)| {
                format!(
                    "plies {}-{}: {mean:.0}",
                    stage * STAGE_PLIES,
                    (stage + 1) * STAGE_PLIES - 1
                )
            })
            .collect();
        println!("{name:<28} {mean:>8.0}   {}", stages.join(", "));
    }
}
