//! Move generation, flips and play on a fixed set of seeded random
//! positions.

use bitboard_othello::{Board, Move, Square, movegen};
use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use game_traits::Game;
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

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench_movegen
}
criterion_main!(benches);
