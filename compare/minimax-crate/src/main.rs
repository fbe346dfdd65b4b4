//! `pimc-alphabeta` against the `minimax` crate (0.6) on the same Othello
//! rules and evaluator: nodes and time to depths on eight mid-game
//! positions, nodes per second, and a match at equal time per move.
//!
//! ```text
//! cargo run --release -p compare-minimax-crate -- --depths 6-10 --time-ms 100 --openings 10
//! ```
//!
//! Options: `--depths A-B` (default 6-10), `--time-ms T` (per move in the
//! match, default 100), `--openings N` (the match has 2 N games, default
//! 10), `--opening-plies P` (random plies of each opening, default 8),
//! `--seed S`, `--no-match`, `--engines LIST` (which engines run the depth
//! table, comma-separated from `ours`, `ours-from2`, `defaults`, `tuned`,
//! `plain`, `bare`; default the first four). `ours-from2` is ours with the
//! table used from depth 2 up (`AlphaBetaConfig::table_from_depth`),
//! `plain` ours with every enhancement off, `bare` the floor of any
//! engine's cost per node (a bare alpha-beta: move generation, play and
//! evaluation only).

#[path = "../../../crates/pimc-alphabeta/benches/positions.rs"]
mod positions;

use std::time::Duration;

use compare_minimax_crate::{
    MinimaxCrate, MinimaxSetup, bare_to_depth, minimax_to_depth, ours_to_depth,
    ours_with_config_to_depth,
};
use game_traits::{Limits, SeriesOptions, play_series};
use pimc_alphabeta::AlphaBeta;
use pimc_alphabeta::AlphaBetaConfig;

struct Settings {
    depths: (u32, u32),
    time_ms: u64,
    openings: u32,
    opening_plies: usize,
    seed: u64,
    play_match: bool,
    engines: [bool; ENGINES],
}

/// How many engines `--engines` can name.
const ENGINES: usize = 6;

/// The names `--engines` accepts, in table order.
const ENGINE_FLAGS: [&str; ENGINES] = ["ours", "ours-from2", "defaults", "tuned", "plain", "bare"];

fn parse() -> Result<Settings, String> {
    let mut settings = Settings {
        depths: (6, 10),
        time_ms: 100,
        openings: 10,
        opening_plies: 8,
        seed: 2026,
        play_match: true,
        engines: [true, true, true, true, false, false],
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if flag == "--no-match" {
            settings.play_match = false;
            continue;
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let number = |text: &str| -> Result<u64, String> {
            text.parse()
                .map_err(|_| format!("{flag}: {text:?} is not a number"))
        };
        match flag.as_str() {
            "--depths" => {
                let (low, high) = value
                    .split_once('-')
                    .ok_or_else(|| format!("--depths: {value:?} is not of the form 6-10"))?;
                settings.depths = (number(low)? as u32, number(high)? as u32);
            }
            "--time-ms" => settings.time_ms = number(&value)?,
            "--openings" => settings.openings = number(&value)? as u32,
            "--opening-plies" => settings.opening_plies = number(&value)? as usize,
            "--seed" => settings.seed = number(&value)?,
            "--engines" => {
                settings.engines = [false; ENGINES];
                for name in value.split(',') {
                    let engine = ENGINE_FLAGS
                        .iter()
                        .position(|&flag| flag == name)
                        .ok_or_else(|| {
                            format!(
                                "--engines: {name:?} is not one of {}",
                                ENGINE_FLAGS.join(", ")
                            )
                        })?;
                    settings.engines[engine] = true;
                }
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if settings.depths.0 == 0 || settings.depths.0 > settings.depths.1 || settings.depths.1 > 40 {
        return Err("--depths must be an increasing range within 1-40".to_string());
    }
    Ok(settings)
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|_| "unknown".to_string())
}

fn main() {
    let settings = match parse() {
        Ok(settings) => settings,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(2);
        }
    };
    let positions = positions::othello_eight();
    println!(
        "Othello, 8 mid-game positions ({} to {} empty squares), bitboard-othello's Board and HeuristicEvaluator for both engines (scaled by 10,000 to i16 for minimax), one thread, fresh search per position",
        positions
            .iter()
            .map(|board| board.empty_count())
            .min()
            .unwrap_or(0),
        positions
            .iter()
            .map(|board| board.empty_count())
            .max()
            .unwrap_or(0),
    );
    println!("load average at the start: {}", load());
    println!();
    println!("| depth | engine | nodes (8 positions) | time | nodes/s |");
    println!("|---|---|---|---|---|");
    let engines = [
        "pimc-alphabeta",
        "pimc-alphabeta, table from depth 2",
        MinimaxSetup::Default.label(),
        MinimaxSetup::Tuned.label(),
        "pimc-alphabeta, plain (no table, no ordering)",
        "bare alpha-beta (generation order, nothing else)",
    ];
    let mut totals = [(0u64, Duration::ZERO); ENGINES];
    for depth in settings.depths.0..=settings.depths.1 {
        for (engine, name) in engines.iter().enumerate() {
            if !settings.engines[engine] {
                continue;
            }
            let mut nodes = 0;
            let mut time = Duration::ZERO;
            for board in &positions {
                let run = match engine {
                    0 => ours_to_depth(board, depth),
                    1 => ours_with_config_to_depth(
                        board,
                        depth,
                        AlphaBetaConfig::default().with_table_from_depth(2),
                    ),
                    2 => minimax_to_depth(board, depth as u8, MinimaxSetup::Default),
                    3 => minimax_to_depth(board, depth as u8, MinimaxSetup::Tuned),
                    4 => ours_with_config_to_depth(board, depth, AlphaBetaConfig::plain()),
                    _ => bare_to_depth(board, depth),
                };
                assert!(run.best.is_some(), "{name} found no move");
                nodes += run.nodes;
                time += run.time;
            }
            totals[engine].0 += nodes;
            totals[engine].1 += time;
            println!(
                "| {depth} | {name} | {nodes} | {:.3} s | {:.2} M |",
                time.as_secs_f64(),
                nodes as f64 / time.as_secs_f64() / 1e6
            );
        }
    }
    println!();
    println!("| engine | nodes/s over all depths |");
    println!("|---|---|");
    for (engine, name) in engines.iter().enumerate() {
        if !settings.engines[engine] {
            continue;
        }
        let (nodes, time) = totals[engine];
        println!(
            "| {name} | {:.2} M |",
            nodes as f64 / time.as_secs_f64() / 1e6
        );
    }
    println!("load average after the depth runs: {}", load());
    if !settings.play_match {
        return;
    }
    println!();
    let time = Duration::from_millis(settings.time_ms);
    let options = SeriesOptions::new(
        settings.openings,
        settings.opening_plies,
        Limits::time(time),
    )
    .with_seed(settings.seed);
    for setup in [MinimaxSetup::Default, MinimaxSetup::Tuned] {
        let series = play_series(
            &bitboard_othello::Board::start(),
            |_| AlphaBeta::new(bitboard_othello::HeuristicEvaluator::default()),
            |_| MinimaxCrate::new(setup),
            &options,
        )
        .expect("legal play");
        println!(
            "match, {} ms per move, {} openings of {} random plies x 2 colours: pimc-alphabeta against {}: {}",
            settings.time_ms,
            settings.openings,
            settings.opening_plies,
            setup.label(),
            series.tally
        );
    }
    println!("load average at the end: {}", load());
}
