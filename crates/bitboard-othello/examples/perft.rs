//! Perft from the start position (standard convention), for timing the
//! move generator as a whole process.
//!
//! ```text
//! cargo run --release -p bitboard-othello --example perft -- [DEPTH]
//! ```

use std::process::ExitCode;
use std::time::Instant;

use bitboard_othello::{Board, perft_leaves};

fn main() -> ExitCode {
    let depth = match std::env::args().nth(1).map(|depth| depth.parse::<u32>()) {
        None => 11,
        Some(Ok(depth)) if depth <= 14 => depth,
        Some(_) => {
            eprintln!("perft: the depth is a number from 0 to 14");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let count = perft_leaves(&Board::start(), depth);
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {count}  {seconds:.3} s  {:.1} M leaves/s",
        count as f64 / seconds / 1e6
    );
    ExitCode::SUCCESS
}
