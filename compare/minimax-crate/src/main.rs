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
//! `--seed S`, `--no-match`, `--eval NAME` (the evaluator both engines
//! use: `heuristic`, the default, or `pattern`, the trained weights),
//! `--engines LIST` (which engines run the depth
//! table, comma-separated from `ours`, `ours-from2`, `defaults`, `tuned`,
//! `plain`, `bare`; default the first four). `ours-from2` is ours with the
//! table used from depth 2 up (`AlphaBetaConfig::table_from_depth`),
//! `plain` ours with every enhancement off, `bare` the floor of any
//! engine's cost per node (a bare alpha-beta: move generation, play and
//! evaluation only).

use std::time::Duration;

use bitboard_othello::Board;
use compare_minimax_crate::{
    DepthRun, MinimaxCrate, MinimaxSetup, SameEvaluator, bare_to_depth, minimax_to_depth,
    ours_to_depth, ours_with_config_to_depth,
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
    /// The evaluator of both engines.
    evaluator: SameEvaluator,
    /// The engines of the depth table, in table order.
    engines: Vec<Engine>,
}

/// An engine of the depth table.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Engine {
    Ours,
    OursFromTwo,
    MinimaxDefaults,
    MinimaxTuned,
    Plain,
    Bare,
}

impl Engine {
    /// Every engine, in table order.
    const ALL: [Engine; 6] = [
        Engine::Ours,
        Engine::OursFromTwo,
        Engine::MinimaxDefaults,
        Engine::MinimaxTuned,
        Engine::Plain,
        Engine::Bare,
    ];

    /// The name `--engines` knows it by.
    fn flag(self) -> &'static str {
        match self {
            Engine::Ours => "ours",
            Engine::OursFromTwo => "ours-from2",
            Engine::MinimaxDefaults => "defaults",
            Engine::MinimaxTuned => "tuned",
            Engine::Plain => "plain",
            Engine::Bare => "bare",
        }
    }

    /// Its name in the tables.
    fn label(self) -> &'static str {
        match self {
            Engine::Ours => "pimc-alphabeta",
            Engine::OursFromTwo => "pimc-alphabeta, table from depth 2",
            Engine::MinimaxDefaults => MinimaxSetup::Default.label(),
            Engine::MinimaxTuned => MinimaxSetup::Tuned.label(),
            Engine::Plain => "pimc-alphabeta, plain (no table, no ordering)",
            Engine::Bare => "bare alpha-beta (generation order, nothing else)",
        }
    }

    /// A fresh search of `board` to `depth`.
    fn run(self, board: &Board, depth: u32, evaluator: &SameEvaluator) -> DepthRun {
        match self {
            Engine::Ours => ours_to_depth(board, depth, evaluator),
            Engine::OursFromTwo => ours_with_config_to_depth(
                board,
                depth,
                AlphaBetaConfig::default().with_table_from_depth(2),
                evaluator,
            ),
            Engine::MinimaxDefaults => {
                minimax_to_depth(board, depth as u8, MinimaxSetup::Default, evaluator)
            }
            Engine::MinimaxTuned => {
                minimax_to_depth(board, depth as u8, MinimaxSetup::Tuned, evaluator)
            }
            Engine::Plain => {
                ours_with_config_to_depth(board, depth, AlphaBetaConfig::plain(), evaluator)
            }
            Engine::Bare => bare_to_depth(board, depth, evaluator),
        }
    }
}

fn parse() -> Result<Settings, String> {
    let mut settings = Settings {
        depths: (6, 10),
        time_ms: 100,
        openings: 10,
        opening_plies: 8,
        seed: 2026,
        play_match: true,
        evaluator: SameEvaluator::default(),
        engines: Engine::ALL[..4].to_vec(),
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
            "--eval" => {
                settings.evaluator = SameEvaluator::named(&value)
                    .ok_or_else(|| format!("--eval: {value:?} is not one of heuristic, pattern"))?;
            }
            "--engines" => {
                let named: Vec<&str> = value.split(',').collect();
                if let Some(unknown) = named
                    .iter()
                    .find(|name| Engine::ALL.iter().all(|engine| engine.flag() != **name))
                {
                    let flags: Vec<&str> = Engine::ALL.iter().map(|engine| engine.flag()).collect();
                    return Err(format!(
                        "--engines: {unknown:?} is not one of {}",
                        flags.join(", ")
                    ));
                }
                settings.engines = Engine::ALL
                    .into_iter()
                    .filter(|engine| named.contains(&engine.flag()))
                    .collect();
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
    let positions = othello_eight();
    println!(
        "Othello, 8 mid-game positions ({} to {} empty squares), bitboard-othello's Board and {} for both engines (scaled by 10,000 to i16 for minimax), one thread, fresh search per position",
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
        settings.evaluator.label(),
    );
    println!("load average at the start: {}", load());
    println!();
    println!("| depth | engine | nodes (8 positions) | time | nodes/s |");
    println!("|---|---|---|---|---|");
    let mut totals = vec![(0u64, Duration::ZERO); settings.engines.len()];
    for depth in settings.depths.0..=settings.depths.1 {
        for (engine, total) in settings.engines.iter().zip(totals.iter_mut()) {
            let name = engine.label();
            let mut nodes = 0;
            let mut time = Duration::ZERO;
            for board in &positions {
                let run = engine.run(board, depth, &settings.evaluator);
                assert!(run.best.is_some(), "{name} found no move");
                nodes += run.nodes;
                time += run.time;
            }
            total.0 += nodes;
            total.1 += time;
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
    for (engine, &(nodes, time)) in settings.engines.iter().zip(&totals) {
        println!(
            "| {} | {:.2} M |",
            engine.label(),
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
            &Board::start(),
            |_| {
                AlphaBeta::new(settings.evaluator.clone(), AlphaBetaConfig::default())
                    .expect("valid settings")
            },
            |_| MinimaxCrate::new(setup, settings.evaluator.clone()),
            &options,
        )
        .expect("legal play");
        println!(
            "match, {}, {} ms per move, {} openings of {} random plies x 2 colours: pimc-alphabeta against {}: {}",
            settings.evaluator.label(),
            settings.time_ms,
            settings.openings,
            settings.opening_plies,
            setup.label(),
            series.tally
        );
    }
    println!("load average at the end: {}", load());
}

/// The eight Othello mid-games (34 to 38 empty squares) of every Othello
/// speed figure in the workspace, pimc-alphabeta's benches among them.
fn othello_eight() -> Vec<Board> {
    game_traits::testing::random_midgames(&Board::start(), 8, 24, 2026)
}
