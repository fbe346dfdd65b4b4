//! MCTS iterations per second: Othello (random and corner-first playouts,
//! UCT and RAVE, one and two threads, root and tree parallelism) and
//! tic-tac-toe, next to the raw random-playout rate of `bitboard-othello`.
//!
//! Run with `cargo bench -p mcts-rave --bench iterations`. Each measured
//! routine is one search of a fixed number of iterations from the start
//! position with a fresh tree; the throughput is iterations (playouts) per
//! second.

use std::hint::black_box;

use bitboard_othello::{Board, CornerFirstPlayout, RandomPlayout, random_playout};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game_traits::testing::TicTacToe;
use game_traits::{Game, Limits, Playout, Searcher};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge, Parallelism, Rave, StatsSync, TreePolicy};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

const OTHELLO_ITERATIONS: u64 = 10_000;

fn config(threads: usize) -> MctsConfig {
    MctsConfig::default().with_seed(1).with_threads(threads)
}

/// Runs one search and checks it did what was asked.
fn search<G: Game, S: Searcher<G>>(searcher: &mut S, state: &G, iterations: u64) {
    searcher.reset();
    let report = searcher.search(state, &Limits::iterations(iterations));
    assert_eq!(report.stats.iterations, iterations);
    assert!(report.best.is_some_and(|mv| state.is_legal(mv)));
    black_box(report);
}

fn bench_search<T, P>(c: &mut Criterion, id: &str, mut searcher: Mcts<Board, T, P>)
where
    T: TreePolicy<Board>,
    P: Playout<Board> + Clone + Send,
{
    let mut group = c.benchmark_group("mcts");
    group.throughput(Throughput::Elements(OTHELLO_ITERATIONS));
    group.sample_size(10);
    group.bench_function(id, |b| {
        b.iter(|| search(&mut searcher, &Board::start(), OTHELLO_ITERATIONS));
    });
    group.finish();
}

fn othello(c: &mut Criterion) {
    // The reference: raw random playouts from the start position.
    let mut group = c.benchmark_group("playout");
    group.throughput(Throughput::Elements(OTHELLO_ITERATIONS));
    group.sample_size(10);
    group.bench_function("othello/raw-random", |b| {
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        b.iter(|| {
            for _ in 0..OTHELLO_ITERATIONS {
                let end = random_playout(&Board::start(), &mut rng);
                assert!(end.is_over());
                black_box(end);
            }
        });
    });
    group.finish();

    for threads in [1, 2] {
        bench_search(
            c,
            &format!("othello/random/uct/threads-{threads}"),
            Mcts::new(
                MctsKnowledge::uct().with_playout(RandomPlayout),
                config(threads),
            )
            .unwrap(),
        );
        bench_search(
            c,
            &format!("othello/random/rave/threads-{threads}"),
            Mcts::new(
                MctsKnowledge::rave(Rave::new()).with_playout(RandomPlayout),
                config(threads),
            )
            .unwrap(),
        );
        bench_search(
            c,
            &format!("othello/corner-first/uct/threads-{threads}"),
            Mcts::new(
                MctsKnowledge::uct().with_playout(CornerFirstPlayout::default()),
                config(threads),
            )
            .unwrap(),
        );
        bench_search(
            c,
            &format!("othello/corner-first/rave/threads-{threads}"),
            Mcts::new(
                MctsKnowledge::rave(Rave::new()).with_playout(CornerFirstPlayout::default()),
                config(threads),
            )
            .unwrap(),
        );
    }
    // Tree parallelism: one shared tree, lock-free or locked statistics.
    for (sync, name) in [(StatsSync::Atomic, "atomic"), (StatsSync::Mutex, "mutex")] {
        for threads in [1, 2] {
            let shared = config(threads)
                .with_parallelism(Parallelism::Tree)
                .with_stats_sync(sync);
            bench_search(
                c,
                &format!("othello/random/rave/tree-{name}/threads-{threads}"),
                Mcts::new(
                    MctsKnowledge::rave(Rave::new()).with_playout(RandomPlayout),
                    shared,
                )
                .unwrap(),
            );
        }
    }
    // The generic `UniformPlayout` (a move list per ply, no bitboard
    // override of `play_out`), for comparison.
    bench_search(
        c,
        "othello/random-generic/uct/threads-1",
        Mcts::new(MctsKnowledge::uct(), config(1)).unwrap(),
    );
}

fn tic_tac_toe(c: &mut Criterion) {
    const ITERATIONS: u64 = 20_000;
    let mut group = c.benchmark_group("mcts");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(10);
    for threads in [1, 2] {
        let mut uct = Mcts::new(MctsKnowledge::uct(), config(threads)).unwrap();
        group.bench_function(format!("tictactoe/random/uct/threads-{threads}"), |b| {
            b.iter(|| search(&mut uct, &TicTacToe::new(), ITERATIONS));
        });
        let mut rave = Mcts::new(MctsKnowledge::rave(Rave::new()), config(threads)).unwrap();
        group.bench_function(format!("tictactoe/random/rave/threads-{threads}"), |b| {
            b.iter(|| search(&mut rave, &TicTacToe::new(), ITERATIONS));
        });
    }
    group.finish();
}

criterion_group!(benches, othello, tic_tac_toe);
criterion_main!(benches);
