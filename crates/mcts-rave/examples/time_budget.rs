//! How long a search with a time budget really takes, at one and two
//! threads: plays Othello games where every move gets `--time-ms` (default
//! 200) and prints the wall-clock time of each `search` call, measured
//! around the call (tree reuse on, so trees grow over the game).
//!
//! ```text
//! cargo run --release -p mcts-rave --example time_budget -- [--time-ms 200] [--moves 30]
//! ```

use std::time::{Duration, Instant};

use bitboard_othello::Board;
use game_traits::{Game, Limits, Searcher};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge, Rave};

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut time_ms, mut moves) = (200u64, 30usize);
    while let (Some(flag), Some(value)) = (args.next(), args.next()) {
        match (flag.as_str(), value.parse::<u64>()) {
            ("--time-ms", Ok(value)) => time_ms = value,
            ("--moves", Ok(value)) => moves = value as usize,
            _ => {
                eprintln!("usage: time_budget [--time-ms MS] [--moves N]");
                std::process::exit(2);
            }
        }
    }
    let limits = Limits::time(Duration::from_millis(time_ms));
    for threads in [1, 2] {
        let config = MctsConfig::default().with_threads(threads).with_seed(3);
        let mut searcher = Mcts::new(
            MctsKnowledge::rave(Rave::new())
                .with_playout(bitboard_othello::CornerFirstPlayout::default()),
            config,
        )
        .unwrap();
        let mut board = Board::start();
        let mut times = Vec::new();
        let mut iterations = 0;
        for _ in 0..moves {
            if board.is_over() {
                break;
            }
            let started = Instant::now();
            let report = searcher.search(&board, &limits);
            times.push(started.elapsed());
            iterations += report.stats.iterations;
            let Some(mv) = report.best else { break };
            board.play(mv);
            searcher.advance(mv);
        }
        times.sort();
        let ms = |time: Duration| time.as_secs_f64() * 1e3;
        println!(
            "threads {threads}: {} searches of {time_ms} ms: min {:.2} ms, median {:.2} ms, max {:.2} ms; {:.0} iterations/s",
            times.len(),
            ms(times[0]),
            ms(times[times.len() / 2]),
            ms(times[times.len() - 1]),
            iterations as f64 / times.iter().map(Duration::as_secs_f64).sum::<f64>()
        );
    }
}
