//! Strength of the searchers on Othello, with seeded series (each random
//! opening played twice, colours swapped) and Wilson 95% intervals.
//!
//! ```text
//! cargo run --release -p mcts-rave --example mcts_strength -- <matchup> [options]
//!
//! matchups:
//!   rave-vs-uct      RAVE against plain UCT, both uniform random playouts,
//!                    the same playouts per move (--playouts)
//!   uct-vs-random    UCT with corner-first playouts (--time-ms per move, or
//!                    --playouts) against a uniformly random player
//!   uct-vs-greedy    the same against the greedy positional player
//!                    (GreedySearcher with PositionalEvaluator)
//!   tree-vs-root     RAVE (uniform random playouts) with 2 threads on one
//!                    shared tree against 2 threads each with its own tree
//!                    (root parallelism); use --time-ms and --parallel 1
//!   tree-vs-single   the same shared tree against one thread
//!   root-vs-single   root parallelism, 2 threads, against one thread
//!   batch8-vs-batch1 UCT valuing its leaves with the positional evaluator,
//!                    batches of 8 leaves (virtual loss) against one leaf per
//!                    evaluator call, one thread, the same iterations per
//!                    move (--playouts)
//! options:
//!   --playouts N       iterations per move
//!   --time-ms T        milliseconds per move (instead of playouts)
//!   --games N          games (rounded up to an even number; default 100)
//!   --opening-plies P  random plies before each opening (default 4)
//!   --parallel N       games played at once (default 2)
//!   --seed S           series seed (default 1)
//!   --bias B           RAVE bias (default Rave::DEFAULT_BIAS)
//!   --exploration C    exploration constant of the MCTS players
//!   --rave-exploration C  exploration constant of the RAVE player (default
//!                      Rave::OTHELLO_EXPLORATION, 0.25)
//!   --equivalence K    RAVE with the equivalence-parameter schedule
//! ```

use std::time::{Duration, Instant};

use bitboard_othello::{Board, PositionalEvaluator};
use game_traits::{
    GreedySearcher, Limits, RandomSearcher, SeriesOptions, SeriesResult, play_series,
};
use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Parallelism, Rave, same_hash};

#[derive(Debug)]
struct Options {
    matchup: String,
    playouts: Option<u64>,
    time_ms: Option<u64>,
    games: u32,
    opening_plies: usize,
    parallel: usize,
    seed: u64,
    bias: f32,
    exploration: f32,
    rave_exploration: Option<f32>,
    equivalence: Option<f32>,
}

fn parse() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let matchup = args
        .next()
        .ok_or("missing matchup (rave-vs-uct, uct-vs-random, uct-vs-greedy)")?;
    let mut options = Options {
        matchup,
        playouts: None,
        time_ms: None,
        games: 100,
        opening_plies: 4,
        parallel: 2,
        seed: 1,
        bias: Rave::DEFAULT_BIAS,
        exploration: MctsConfig::default().exploration,
        rave_exploration: None,
        equivalence: None,
    };
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |_| format!("bad value {value:?} for {flag}");
        match flag.as_str() {
            "--playouts" => options.playouts = Some(value.parse().map_err(bad)?),
            "--time-ms" => options.time_ms = Some(value.parse().map_err(bad)?),
            "--games" => options.games = value.parse().map_err(bad)?,
            "--opening-plies" => options.opening_plies = value.parse().map_err(bad)?,
            "--parallel" => options.parallel = value.parse().map_err(bad)?,
            "--seed" => options.seed = value.parse().map_err(bad)?,
            "--bias" => options.bias = value.parse().map_err(|_| format!("bad bias {value:?}"))?,
            "--rave-exploration" => {
                options.rave_exploration =
                    Some(value.parse().map_err(|_| format!("bad value {value:?}"))?);
            }
            "--equivalence" => {
                options.equivalence =
                    Some(value.parse().map_err(|_| format!("bad value {value:?}"))?);
            }
            "--exploration" => {
                options.exploration = value.parse().map_err(|_| format!("bad value {value:?}"))?;
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    Ok(options)
}

/// RAVE with uniform random playouts on `threads` threads.
fn parallel_rave(
    config: MctsConfig,
    threads: usize,
    parallelism: Parallelism,
) -> impl game_traits::Searcher<Board> + use<> {
    Mcts::new(
        MctsKnowledge::rave(Rave::new()).with_playout(bitboard_othello::RandomPlayout),
        config.with_threads(threads).with_parallelism(parallelism),
    )
    .unwrap()
    .with_root_check(same_hash)
}

fn main() {
    let options = match parse() {
        Ok(options) => options,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(2);
        }
    };
    let limits = match (options.playouts, options.time_ms) {
        (_, Some(ms)) => Limits::time(Duration::from_millis(ms)),
        (Some(playouts), None) => Limits::iterations(playouts),
        (None, None) => Limits::iterations(1_000),
    };
    let series = SeriesOptions::new(
        options.games.div_ceil(2),
        options.opening_plies,
        limits.clone(),
    )
    .with_seed(options.seed)
    .with_threads(options.parallel);
    let config = |seed: u64| {
        MctsConfig::default()
            .with_seed(seed)
            .with_exploration(options.exploration)
    };
    let rave_config = |seed: u64| {
        config(seed).with_exploration(
            options
                .rave_exploration
                .unwrap_or(Rave::OTHELLO_EXPLORATION),
        )
    };
    let start = Board::start();
    let started = Instant::now();
    let result: SeriesResult<bitboard_othello::Move> = match options.matchup.as_str() {
        "rave-vs-uct" => play_series(
            &start,
            |seed| {
                let rave = options
                    .equivalence
                    .map_or(Rave::minimum_mse(options.bias), Rave::equivalence);
                let exploration = options
                    .rave_exploration
                    .unwrap_or(Rave::OTHELLO_EXPLORATION);
                Mcts::new(
                    MctsKnowledge::rave(rave).with_playout(bitboard_othello::RandomPlayout),
                    config(seed).with_exploration(exploration),
                )
                .unwrap()
            },
            |seed| {
                Mcts::new(
                    MctsKnowledge::uct().with_playout(bitboard_othello::RandomPlayout),
                    config(seed),
                )
                .unwrap()
            },
            &series,
        ),
        "uct-vs-random" => play_series(
            &start,
            |seed| {
                Mcts::new(
                    MctsKnowledge::uct()
                        .with_playout(bitboard_othello::CornerFirstPlayout::default()),
                    config(seed),
                )
                .unwrap()
            },
            RandomSearcher::new,
            &series,
        ),
        "uct-vs-greedy" => play_series(
            &start,
            |seed| {
                Mcts::new(
                    MctsKnowledge::uct()
                        .with_playout(bitboard_othello::CornerFirstPlayout::default()),
                    config(seed),
                )
                .unwrap()
            },
            |_| GreedySearcher::new(PositionalEvaluator),
            &series,
        ),
        "tree-vs-root" => play_series(
            &start,
            |seed| parallel_rave(rave_config(seed), 2, Parallelism::Tree),
            |seed| parallel_rave(rave_config(seed), 2, Parallelism::Root),
            &series,
        ),
        "tree-vs-single" => play_series(
            &start,
            |seed| parallel_rave(rave_config(seed), 2, Parallelism::Tree),
            |seed| parallel_rave(rave_config(seed), 1, Parallelism::Root),
            &series,
        ),
        "root-vs-single" => play_series(
            &start,
            |seed| parallel_rave(rave_config(seed), 2, Parallelism::Root),
            |seed| parallel_rave(rave_config(seed), 1, Parallelism::Root),
            &series,
        ),
        "batch8-vs-batch1" => {
            let positional = |seed: u64, batch_size: usize| {
                Mcts::new(
                    MctsKnowledge::uct().with_evaluator(PositionalEvaluator),
                    config(seed)
                        .with_leaf(LeafEvaluation::Evaluator)
                        .with_batch_size(batch_size),
                )
                .unwrap()
                .with_root_check(same_hash)
            };
            play_series(
                &start,
                |seed| positional(seed, 8),
                |seed| positional(seed, 1),
                &series,
            )
        }
        other => {
            eprintln!("error: unknown matchup {other}");
            std::process::exit(2);
        }
    }
    .unwrap_or_else(|error| {
        eprintln!("error: {error}");
        std::process::exit(1);
    });
    let tally = result.tally;
    let (low, high) = tally.confidence95();
    println!(
        "{} limits={:?} games={} opening_plies={} seed={} bias={} equivalence={:?} exploration={} rave_exploration={:?}: {} \
         [score {:.3}, 95% CI {:.3}-{:.3}] in {:.0?}",
        options.matchup,
        (options.playouts, options.time_ms),
        tally.games(),
        options.opening_plies,
        options.seed,
        options.bias,
        options.equivalence,
        options.exploration,
        options.rave_exploration,
        tally,
        tally.score(),
        low,
        high,
        started.elapsed()
    );
}
