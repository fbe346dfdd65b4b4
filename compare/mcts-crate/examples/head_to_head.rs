//! The `mcts` crate's UCT against mcts-rave's UCT on Othello at equal time
//! per move, the same random playouts and exploration, fresh trees, each
//! opening played with both colours.
//!
//! ```text
//! cargo run --release -p mcts-crate-compare --example head_to_head -- [games] [ms per move] [threads]
//! ```
//!
//! Defaults: 20 games, 100 ms per move, 1 thread per searcher (the two
//! searchers move in turn, so each has the machine's cores while it
//! thinks; games are played one at a time).

use std::time::Instant;

use bitboard_othello::Board;
use game_traits::{SeriesOptions, play_series};
use mcts_crate_compare::{CrateUct, ours, per_move};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|arg| {
            arg.parse().unwrap_or_else(|_| {
                eprintln!(
                    "usage: head_to_head [games] [ms per move] [threads]; {arg:?} is not a number"
                );
                std::process::exit(2);
            })
        })
        .collect();
    let games = args.first().copied().unwrap_or(20).max(2);
    let ms = args.get(1).copied().unwrap_or(100).max(1);
    let threads = args.get(2).copied().unwrap_or(1).clamp(1, 64) as usize;
    println!(
        "mcts-rave UCT (A) against the mcts crate's UCT (B) on Othello: {} games, {ms} ms per move, {threads} thread(s) each,",
        games.next_multiple_of(2)
    );
    println!(
        "uniform random playouts (RandomPlayout), c = 1 (crate: 0.5), fresh tree per move, openings of 4 random plies, seed 2026."
    );
    let options = SeriesOptions::new(
        u32::try_from(games.div_ceil(2)).unwrap_or(u32::MAX),
        4,
        per_move(ms),
    )
    .with_seed(2026)
    .with_threads(1);
    let clock = Instant::now();
    let series = play_series(
        &Board::start(),
        |seed| ours(threads, seed),
        |seed| CrateUct::new(threads, seed),
        &options,
    )
    .unwrap_or_else(|error| {
        eprintln!("error: {error}");
        std::process::exit(1);
    });
    println!(
        "mcts-rave UCT: {} ({:.0} s)",
        series.tally,
        clock.elapsed().as_secs_f64()
    );
}
