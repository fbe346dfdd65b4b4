//! Playouts from the start position per second: the fast loops called
//! directly, through the `Playout` trait (`run_playout`, which calls the
//! policies' own `play_out`, and `play_out` reporting every move as MCTS
//! with AMAF does), and the generic default loop with `UniformPlayout`.

use bitboard_othello::{Board, CornerFirstPlayout, Move, RandomPlayout, random_playout};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game_traits::{Player, Playout, UniformPlayout, run_playout};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;

/// Playouts per measured iteration.
const BATCH: u64 = 1000;

/// Runs `BATCH` playouts with `play` from one seeded generator, checks that
/// every game ended, and returns the sum of Black's final disc differences
/// (the same for the same seed).
fn batch(seed: u64, mut play: impl FnMut(&mut Pcg64Mcg) -> Board) -> i64 {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut sum = 0;
    for _ in 0..BATCH {
        let end = play(&mut rng);
        assert!(end.is_game_over());
        sum += i64::from(end.black().count_ones()) - i64::from(end.white().count_ones());
    }
    sum
}

fn through_trait<P: Playout<Board>>(
    policy: &mut P,
    rng: &mut Pcg64Mcg,
    moves: &mut Vec<bitboard_othello::Move>,
) -> Board {
    let mut board = Board::start();
    let (outcome, _) = run_playout(&mut board, policy, rng, moves, bitboard_othello::MAX_PLIES);
    assert!(outcome.is_some());
    board
}

fn bench_playouts(c: &mut Criterion) {
    let start = Board::start();
    let mut group = c.benchmark_group("playout/othello");
    group.throughput(Throughput::Elements(BATCH));

    let expected = batch(1, |rng| random_playout(&start, rng));
    group.bench_function("random", |b| {
        b.iter(|| {
            let sum = batch(1, |rng| random_playout(black_box(&start), rng));
            assert_eq!(sum, expected);
            sum
        })
    });

    let corner_first = CornerFirstPlayout::default();
    let expected = batch(2, |rng| corner_first.playout(&start, rng));
    group.bench_function("corner-first", |b| {
        b.iter(|| {
            let sum = batch(2, |rng| corner_first.playout(black_box(&start), rng));
            assert_eq!(sum, expected);
            sum
        })
    });

    let mut moves = Vec::new();
    let expected = batch(3, |rng| through_trait(&mut RandomPlayout, rng, &mut moves));
    group.bench_function("random-trait", |b| {
        b.iter(|| {
            let sum = batch(3, |rng| through_trait(&mut RandomPlayout, rng, &mut moves));
            assert_eq!(sum, expected);
            sum
        })
    });

    let mut heard: Vec<(Player, Move)> = Vec::with_capacity(128);
    group.bench_function("random-trait-reporting-moves", |b| {
        b.iter(|| {
            let sum = batch(3, |rng| {
                let mut board = Board::start();
                heard.clear();
                let (outcome, plies) = RandomPlayout.play_out(
                    &mut board,
                    rng,
                    &mut moves,
                    bitboard_othello::MAX_PLIES,
                    |mover, mv| heard.push((mover, mv)),
                );
                assert!(outcome.is_some() && plies == heard.len());
                board
            });
            assert_eq!(sum, expected);
            sum
        })
    });

    let expected = batch(4, |rng| through_trait(&mut UniformPlayout, rng, &mut moves));
    group.bench_function("random-generic", |b| {
        b.iter(|| {
            let sum = batch(4, |rng| through_trait(&mut UniformPlayout, rng, &mut moves));
            assert_eq!(sum, expected);
            sum
        })
    });

    let mut policy = CornerFirstPlayout::default();
    let expected = batch(5, |rng| through_trait(&mut policy, rng, &mut moves));
    group.bench_function("corner-first-trait", |b| {
        b.iter(|| {
            let sum = batch(5, |rng| through_trait(&mut policy, rng, &mut moves));
            assert_eq!(sum, expected);
            sum
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = bench_playouts
}
criterion_main!(benches);
