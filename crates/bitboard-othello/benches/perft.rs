//! Perft from the start position (standard convention), specialised and
//! through the generic `Game` implementation.

use bitboard_othello::{Board, perft_leaves};
use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use game_traits::FinishedGames;
use std::hint::black_box;

/// The standard table (`tests/data/perft.tsv`).
const EXPECTED: [(u32, u64); 3] = [(7, 55_092), (9, 3_005_288), (11, 212_258_800)];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft/othello/start");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    for (depth, expected) in EXPECTED {
        group.throughput(Throughput::Elements(expected));
        group.bench_with_input(BenchmarkId::from_parameter(depth), &depth, |b, &depth| {
            b.iter(|| {
                let count = perft_leaves(black_box(&Board::start()), depth);
                assert_eq!(count, expected);
                count
            })
        });
    }
    // The generic perft of game-traits over the Game implementation.
    let (depth, expected) = EXPECTED[0];
    group.throughput(Throughput::Elements(expected));
    group.bench_with_input(BenchmarkId::new("generic", depth), &depth, |b, &depth| {
        b.iter(|| {
            let count =
                game_traits::perft_with(black_box(&Board::start()), depth, FinishedGames::CountOne);
            assert_eq!(count, expected);
            count
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = bench_perft
}
criterion_main!(benches);
