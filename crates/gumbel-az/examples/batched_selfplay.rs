//! Batched evaluation against an evaluator that costs a fixed latency per
//! call whatever the batch size, standing in for a network on an
//! accelerator (1 ms a call by default).
//!
//! 1. Simulations per second of one search against its batch size (leaves
//!    of one tree collected with virtual loss), for Gumbel AlphaZero and
//!    PUCT.
//! 2. Self-play of 16 Othello games: one game at a time, then all 16
//!    searched at once sharing one batch per step
//!    ([`search_together`](game_traits::search_together)). The moves must
//!    be the same and the shared batch at least 8 times as fast in
//!    simulations per second; the example fails otherwise.
//!
//! ```text
//! cargo run --release -p gumbel-az --example batched_selfplay -- \
//!     [--latency-us 1000] [--games 16] [--plies 8] [--sims 32]
//! ```

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bitboard_othello::{Board, HeuristicPolicy, Move};
use game_traits::{
    Batch, BatchEvaluator, BatchedSearch, Game, Limits, SearchReport, Searcher, search_together,
};
use gumbel_az::{GumbelAz, GumbelConfig, Puct, PuctConfig};

/// The heuristic policy behind a fixed delay per call.
struct Latency {
    delay: Duration,
    calls: AtomicU64,
    positions: AtomicU64,
}

impl Latency {
    fn new(delay: Duration) -> Self {
        Latency {
            delay,
            calls: AtomicU64::new(0),
            positions: AtomicU64::new(0),
        }
    }

    /// Calls and positions so far, and resets both.
    fn take(&self) -> (u64, u64) {
        (
            self.calls.swap(0, Ordering::Relaxed),
            self.positions.swap(0, Ordering::Relaxed),
        )
    }
}

impl BatchEvaluator<Board> for &Latency {
    fn evaluate_batch(&self, batch: &mut Batch<Board>) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.positions
            .fetch_add(batch.len() as u64, Ordering::Relaxed);
        std::thread::sleep(self.delay);
        HeuristicPolicy::default().evaluate_batch(batch);
    }
}

struct Options {
    latency: Duration,
    games: usize,
    plies: usize,
    sims: u64,
}

fn parse() -> Result<Options, String> {
    let mut options = Options {
        latency: Duration::from_millis(1),
        games: 16,
        plies: 8,
        sims: 32,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let bad = |_| format!("bad value {value:?} for {flag}");
        match flag.as_str() {
            "--latency-us" => options.latency = Duration::from_micros(value.parse().map_err(bad)?),
            "--games" => options.games = value.parse().map_err(bad)?,
            "--plies" => options.plies = value.parse().map_err(bad)?,
            "--sims" => options.sims = value.parse().map_err(bad)?,
            other => return Err(format!("unknown option {other}")),
        }
    }
    if options.games == 0 || options.plies == 0 || options.sims == 0 {
        return Err("--games, --plies and --sims must be at least 1".into());
    }
    Ok(options)
}

/// Openings: a few plies of a fixed pattern from the start, different for
/// each game.
fn openings(count: usize) -> Vec<Board> {
    let mut moves = Vec::new();
    (0..count)
        .map(|game| {
            let mut board = Board::start();
            for ply in 0..2 + game % 4 {
                board.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                board.play(moves[(ply * 5 + game * 3) % moves.len()]);
            }
            board
        })
        .collect()
}

fn gumbel(evaluator: &Latency, seed: u64, batch_size: usize) -> GumbelAz<Board, &Latency> {
    GumbelAz::new(
        evaluator,
        GumbelConfig::default()
            .with_seed(seed)
            .with_max_considered_actions(8)
            .with_batch_size(batch_size),
    )
    .expect("valid settings")
}

/// Simulations per second of one search against the batch size.
fn batch_sizes(evaluator: &Latency, sims: u64) {
    println!(
        "one search, {sims} simulations, latency {:?} per call",
        evaluator.delay
    );
    println!("searcher  batch  calls  sims/s");
    let position = &openings(1)[0];
    let limits = Limits::iterations(sims);
    for batch_size in [1, 2, 4, 8, 16] {
        let searches: [(&str, Box<dyn Searcher<Board> + '_>); 2] = [
            ("gumbel", Box::new(gumbel(evaluator, 1, batch_size))),
            (
                "puct",
                Box::new(
                    Puct::new(evaluator, PuctConfig::default().with_batch_size(batch_size))
                        .expect("valid settings"),
                ),
            ),
        ];
        for (name, mut search) in searches {
            evaluator.take();
            let report = search.search(position, &limits);
            let (calls, _) = evaluator.take();
            println!(
                "{name:<8}  {batch_size:>5}  {calls:>5}  {:>6.0}",
                report.stats.iterations as f64 / report.stats.elapsed.as_secs_f64()
            );
        }
    }
}

/// Plays `plies` plies of every game, each searcher playing both sides of
/// its game; returns the moves and the simulations run.
fn self_play(
    evaluator: &Latency,
    starts: &[Board],
    plies: usize,
    sims: u64,
    together: bool,
) -> (Vec<Vec<Move>>, u64) {
    let limits = Limits::iterations(sims);
    let mut searchers: Vec<_> = (0..starts.len())
        .map(|seed| gumbel(evaluator, seed as u64, 1))
        .collect();
    let mut boards = starts.to_vec();
    let mut records = vec![Vec::new(); boards.len()];
    let mut simulations = 0;
    for _ply in 0..plies {
        let live: Vec<usize> = (0..boards.len())
            .filter(|&game| !boards[game].is_over())
            .collect();
        if live.is_empty() {
            break;
        }
        let reports: Vec<SearchReport<Move>> = if together {
            let states: Vec<Board> = live.iter().map(|&game| boards[game].clone()).collect();
            let mut playing: Vec<&mut dyn BatchedSearch<Board>> = searchers
                .iter_mut()
                .enumerate()
                .filter(|(game, _)| live.contains(game))
                .map(|(_, searcher)| searcher as &mut dyn BatchedSearch<Board>)
                .collect();
            search_together(&evaluator, &mut playing, &states, &limits)
        } else {
            live.iter()
                .map(|&game| searchers[game].search(&boards[game], &limits))
                .collect()
        };
        for (&game, report) in live.iter().zip(reports) {
            simulations += report.stats.iterations;
            let mv = report.best.expect("a live game has a move");
            boards[game].play(mv);
            searchers[game].advance(mv);
            records[game].push(mv);
        }
    }
    (records, simulations)
}

fn main() -> ExitCode {
    let options = match parse() {
        Ok(options) => options,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let evaluator = Latency::new(options.latency);
    batch_sizes(&evaluator, 4 * options.sims);

    let starts = openings(options.games);
    println!(
        "\nself-play: {} games, {} plies, {} simulations a move (Gumbel, k = 8)",
        options.games, options.plies, options.sims
    );
    let mut rates = Vec::new();
    let mut records = Vec::new();
    for (name, together) in [("one game at a time", false), ("all sharing a batch", true)] {
        evaluator.take();
        let started = Instant::now();
        let (moves, simulations) =
            self_play(&evaluator, &starts, options.plies, options.sims, together);
        let elapsed = started.elapsed();
        let (calls, positions) = evaluator.take();
        let rate = simulations as f64 / elapsed.as_secs_f64();
        println!(
            "{name:<20}  {simulations} simulations, {calls} calls ({:.1} positions a call), \
             {elapsed:.2?}: {rate:.0} sims/s",
            positions as f64 / calls.max(1) as f64
        );
        rates.push(rate);
        records.push(moves);
    }
    let speedup = rates[1] / rates[0];
    let same = records[0] == records[1];
    println!("speed-up {speedup:.1}x, same moves: {same}");
    if !same {
        eprintln!("error: the shared batch changed the moves played");
        return ExitCode::FAILURE;
    }
    if options.games >= 16 && speedup < 8.0 {
        eprintln!(
            "error: {} games sharing a batch ran only {speedup:.1}x as fast",
            options.games
        );
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
