//! A 200 ms search returns within 220 ms: the slowest of 30 searches, on
//! Othello and Jungle mid-games, with one and two threads.
//!
//! Timed, so `#[ignore]`d (a loaded machine can stall any thread); run it
//! with `cargo test --release -p pimc-alphabeta --test time_budget --
//! --ignored --nocapture`.

#[path = "../benches/positions.rs"]
mod positions;

use std::time::{Duration, Instant};

use bitboard_othello::HeuristicEvaluator;
use dou_shou_qi::JungleEvaluator;
use game_traits::{Evaluator, Limits, PositionHash, Searcher, StopReason};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};

const BUDGET: Duration = Duration::from_millis(200);
const ALLOWED: Duration = Duration::from_millis(220);

/// The slowest of 30 searches of `BUDGET` over `positions` (cycled).
fn slowest<G: PositionHash, E: Evaluator<G> + Clone>(
    positions: &[G],
    evaluator: &E,
    threads: usize,
) -> Duration {
    let config = AlphaBetaConfig::default().with_threads(threads);
    let mut slowest = Duration::ZERO;
    for index in 0..30 {
        let mut search = AlphaBeta::new(evaluator.clone(), config.clone()).unwrap();
        let started = Instant::now();
        let report = search.search(&positions[index % positions.len()], &Limits::time(BUDGET));
        let elapsed = started.elapsed();
        assert!(report.best.is_some());
        assert!(matches!(
            report.stats.stop,
            StopReason::Time | StopReason::Solved
        ));
        slowest = slowest.max(elapsed);
    }
    slowest
}

#[test]
#[ignore = "timed: run in release on a quiet machine"]
fn a_200_ms_search_returns_within_220_ms() {
    let othello = positions::othello_eight();
    let jungle = positions::jungle_eight();
    for threads in [1, 2] {
        let othello_slowest = slowest(&othello, &HeuristicEvaluator::default(), threads);
        let jungle_slowest = slowest(&jungle, &JungleEvaluator::default(), threads);
        println!(
            "{threads} thread(s): slowest of 30 searches of 200 ms: Othello {othello_slowest:?}, Jungle {jungle_slowest:?}"
        );
        assert!(
            othello_slowest <= ALLOWED,
            "Othello, {threads} threads: {othello_slowest:?}"
        );
        assert!(
            jungle_slowest <= ALLOWED,
            "Jungle, {threads} threads: {jungle_slowest:?}"
        );
    }
}
