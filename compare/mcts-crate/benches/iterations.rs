//! Iterations per second from the Othello start, fresh tree per search:
//! the `mcts` crate's UCT against mcts-rave's UCT with the same random
//! playouts, at 1 and 2 threads.
//!
//! Run with `cargo bench -p mcts-crate-compare`.

use std::hint::black_box;

use bitboard_othello::Board;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game_traits::{Game, Limits, Searcher};
use mcts_crate_compare::{CrateUct, ours};

/// Iterations per search.
const BUDGET: u64 = 20_000;

fn bench<S: Searcher<Board>>(c: &mut Criterion, id: &str, mut searcher: S) {
    let board = Board::start();
    let limits = Limits::iterations(BUDGET);
    let mut group = c.benchmark_group("compare/othello");
    group.throughput(Throughput::Elements(BUDGET));
    group.sample_size(10);
    group.bench_function(id, |b| {
        b.iter(|| {
            let report = searcher.search(&board, &limits);
            assert!(report.best.is_some_and(|mv| board.is_legal(mv)), "{id}");
            assert!(
                report.stats.iterations + 16 >= BUDGET,
                "{id}: {:?}",
                report.stats
            );
            black_box(report);
        });
    });
    group.finish();
}

fn iterations(c: &mut Criterion) {
    for threads in [1, 2] {
        bench(
            c,
            &format!("mcts-crate-uct/threads-{threads}"),
            CrateUct::new(threads, 1),
        );
        bench(
            c,
            &format!("mcts-rave-uct/threads-{threads}"),
            ours(threads, 1),
        );
    }
}

criterion_group!(benches, iterations);
criterion_main!(benches);
