//! Every searcher of the workspace on the same Othello positions at the
//! same budget, in one run: iterations (playouts or simulations) per second.
//!
//! Run with `cargo bench --bench searchers`. Each sample searches the same
//! eight positions of a seeded random game, from a fresh tree.

use std::hint::black_box;

use bitboard_othello::{Board, CornerFirstPlayout, HeuristicPolicy, RandomPlayout};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game_traits::{Game, Limits, Searcher};
use gumbel_az::{GumbelAz, GumbelConfig, Puct, PuctConfig};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge, Rave};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Iterations per search.
const BUDGET: u64 = 1_000;

/// Eight unfinished positions, two plies apart, along a seeded random game.
fn positions() -> Vec<Board> {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut board = Board::start();
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    while positions.len() < 8 {
        board.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "the game ended too soon");
        if board.empty_count().is_multiple_of(2) {
            positions.push(board.clone());
        }
        board.play(moves[rng.random_range(..moves.len())]);
    }
    positions
}

fn bench_searcher<S: Searcher<Board>>(c: &mut Criterion, id: &str, mut searcher: S) {
    let positions = positions();
    let limits = Limits::iterations(BUDGET);
    let mut group = c.benchmark_group("searcher");
    group.throughput(Throughput::Elements(BUDGET * positions.len() as u64));
    group.sample_size(10);
    group.bench_function(id, |b| {
        b.iter(|| {
            for board in &positions {
                searcher.reset();
                let report = searcher.search(board, &limits);
                assert_eq!(report.stats.iterations, BUDGET, "{id}");
                assert!(report.best.is_some_and(|mv| board.is_legal(mv)), "{id}");
                black_box(report);
            }
        });
    });
    group.finish();
}

fn searchers(c: &mut Criterion) {
    let mcts = || MctsConfig::default().with_seed(1);
    bench_searcher(
        c,
        "othello/mcts-uct/random-playouts",
        Mcts::new(MctsKnowledge::uct().with_playout(RandomPlayout), mcts()).unwrap(),
    );
    bench_searcher(
        c,
        "othello/mcts-rave/random-playouts",
        Mcts::new(
            MctsKnowledge::rave(Rave::new()).with_playout(RandomPlayout),
            mcts(),
        )
        .unwrap(),
    );
    bench_searcher(
        c,
        "othello/mcts-uct/corner-first-playouts",
        Mcts::new(
            MctsKnowledge::uct().with_playout(CornerFirstPlayout::default()),
            mcts(),
        )
        .unwrap(),
    );
    bench_searcher(
        c,
        "othello/gumbel/heuristic-policy",
        GumbelAz::new(
            HeuristicPolicy::default(),
            GumbelConfig::default().with_seed(1),
        )
        .unwrap(),
    );
    bench_searcher(
        c,
        "othello/puct/heuristic-policy",
        Puct::new(HeuristicPolicy::default(), PuctConfig::default()).unwrap(),
    );
}

criterion_group!(benches, searchers);
criterion_main!(benches);
