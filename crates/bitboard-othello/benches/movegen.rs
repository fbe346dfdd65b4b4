//! Move generation, flips, play and the heuristic evaluation on a fixed
//! set of seeded random positions.

use bitboard_othello::eval::{positional_score, positional_score_by_rows};
use bitboard_othello::{Board, HeuristicEvaluator, Move, Square, movegen};
use criterion::measurement::WallTime;
use criterion::{
    BatchSize, BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main,
};
use game_traits::{Evaluator, Game};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;

/// 1000 positions from seeded random games, with at least one square move.
fn positions() -> Vec<Board> {
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < 1000 {
        let mut board = Board::start();
        loop {
            board.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if board.mobility() != 0 && rng.random_bool(0.3) {
                positions.push(board.clone());
            }
            board.play(moves[rng.random_range(..moves.len())]);
        }
    }
    positions.truncate(1000);
    positions
}

fn bench_movegen(c: &mut Criterion) {
    let positions = positions();
    let mut list = Vec::new();
    let expected_moves: u64 = positions
        .iter()
        .map(|board| {
            board.legal_moves(&mut list);
            list.len() as u64
        })
        .sum();
    let moves: Vec<(Board, Square)> = positions
        .iter()
        .flat_map(|board| {
            Square::in_bitboard(board.mobility()).map(move |square| (board.clone(), square))
        })
        .collect();
    let expected_flips: u64 = moves
        .iter()
        .map(|(board, square)| {
            let mut child = board.clone();
            child.play(Move::Place(*square));
            u64::from(board.opponent().count_ones() - child.player().count_ones())
        })
        .sum();

    let mut group = c.benchmark_group("movegen/othello");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("mobility", |b| {
        b.iter(|| {
            let total: u64 = black_box(&positions)
                .iter()
                .map(|board| {
                    u64::from(movegen::mobility(board.player(), board.opponent()).count_ones())
                })
                .sum();
            assert_eq!(total, expected_moves);
            total
        })
    });
    group.bench_function("legal_moves", |b| {
        let mut list = Vec::with_capacity(64);
        b.iter(|| {
            let mut total = 0;
            for board in black_box(&positions) {
                board.legal_moves(&mut list);
                total += list.len() as u64;
            }
            assert_eq!(total, expected_moves);
            total
        })
    });
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function("flips", |b| {
        b.iter(|| {
            let total: u64 = black_box(&moves)
                .iter()
                .map(|(board, square)| {
                    u64::from(
                        movegen::flips(square.index(), board.player(), board.opponent())
                            .count_ones(),
                    )
                })
                .sum();
            assert_eq!(total, expected_flips);
            total
        })
    });
    group.bench_function("play", |b| {
        b.iter_batched_ref(
            || moves.clone(),
            |moves| {
                let mut discs = 0;
                for (board, square) in moves.iter_mut() {
                    board.play(Move::Place(*square));
                    discs += u64::from(board.opponent().count_ones());
                }
                black_box(discs)
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// The two forms of the positional score (a popcount per weight class, a
/// table look-up per row) and the whole heuristic evaluation.
fn bench_evaluation(c: &mut Criterion) {
    let positions = positions();
    let expected: i64 = positions
        .iter()
        .map(|board| i64::from(positional_score(board.player(), board.opponent())))
        .sum();
    let evaluator = HeuristicEvaluator::default();
    let expected_values: f64 = positions
        .iter()
        .map(|board| f64::from(evaluator.value(board)))
        .sum();

    let mut group = c.benchmark_group("eval/othello");
    group.throughput(Throughput::Elements(positions.len() as u64));
    bench_positional(
        &mut group,
        "positional_by_classes",
        &positions,
        expected,
        positional_score,
    );
    bench_positional(
        &mut group,
        "positional_by_rows",
        &positions,
        expected,
        positional_score_by_rows,
    );
    group.bench_function("heuristic_value", |b| {
        b.iter(|| {
            let total: f64 = black_box(&positions)
                .iter()
                .map(|board| f64::from(evaluator.value(board)))
                .sum();
            assert_eq!(total.to_bits(), expected_values.to_bits());
            total
        })
    });
    group.finish();
}

/// One form of the positional score, summed over `positions`.
fn bench_positional(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    positions: &[Board],
    expected: i64,
    score: impl Fn(u64, u64) -> i32,
) {
    group.bench_function(name, |b| {
        b.iter(|| {
            let total: i64 = black_box(positions)
                .iter()
                .map(|board| i64::from(score(board.player(), board.opponent())))
                .sum();
            assert_eq!(total, expected);
            total
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench_movegen, bench_evaluation
}
criterion_main!(benches);
