//! Alpha-beta speed: nodes per second and time to depth on eight Othello
//! mid-games and eight Jungle mid-games (`positions.rs`), one and two
//! threads.
//!
//! `cargo bench -p pimc-alphabeta --bench alphabeta`. Each sample searches
//! the eight positions from a fresh searcher (empty table) to the depth in
//! the bench's name; the throughput is in nodes, so criterion's
//! "elements/s" are nodes per second. Every bench asserts its result: the
//! node count of the one-thread searches (deterministic) and, with two
//! threads, the same value as one thread.

#[path = "positions.rs"]
mod positions;

use std::hint::black_box;

use bitboard_othello::HeuristicEvaluator;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dou_shou_qi::JungleEvaluator;
use game_traits::{Evaluator, Limits, PositionHash, Searcher};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};

/// Searches every position to `depth`; returns the nodes and the values.
fn search_all<G: PositionHash, E: Evaluator<G> + Clone>(
    positions: &[G],
    evaluator: &E,
    config: &AlphaBetaConfig,
    depth: u32,
) -> (u64, Vec<f32>) {
    let mut nodes = 0;
    let mut values = Vec::new();
    for position in positions {
        let mut search = AlphaBeta::new(evaluator.clone(), config.clone()).expect("valid settings");
        let report = search.search(position, &Limits::depth(depth));
        assert_eq!(report.stats.depth, depth);
        assert!(report.best.is_some_and(|mv| position.is_legal(mv)));
        nodes += report.stats.nodes;
        values.push(report.value);
    }
    (nodes, values)
}

fn bench_game<G: PositionHash, E: Evaluator<G> + Clone>(
    c: &mut Criterion,
    game: &str,
    positions: &[G],
    evaluator: &E,
    depths: std::ops::RangeInclusive<u32>,
) {
    let mut group = c.benchmark_group(format!("alphabeta/{game}/midgames"));
    group.sample_size(10);
    for depth in depths {
        let one = AlphaBetaConfig::default();
        let (nodes, values) = search_all(positions, evaluator, &one, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("depth-{depth}/threads-1"), |b| {
            b.iter(|| {
                let (counted, found) = search_all(positions, evaluator, &one, depth);
                assert_eq!(counted, nodes, "one-thread searches are deterministic");
                assert_eq!(found, values);
                black_box(counted)
            });
        });
        let two = AlphaBetaConfig::default().with_threads(2);
        group.bench_function(format!("depth-{depth}/threads-2"), |b| {
            b.iter(|| {
                let (counted, found) = search_all(positions, evaluator, &two, depth);
                assert_eq!(found, values, "two threads find the same values");
                black_box(counted)
            });
        });
    }
    group.finish();
}

fn othello(c: &mut Criterion) {
    bench_game(
        c,
        "othello",
        &positions::othello_eight(),
        &HeuristicEvaluator::default(),
        6..=8,
    );
}

fn jungle(c: &mut Criterion) {
    bench_game(
        c,
        "jungle",
        &positions::jungle_eight(),
        &JungleEvaluator::default(),
        5..=6,
    );
}

criterion_group!(benches, othello, jungle);
criterion_main!(benches);
