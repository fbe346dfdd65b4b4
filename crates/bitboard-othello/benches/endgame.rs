//! Exact endgame solving: FFO #40-#44 (20-23 empties) on one thread and
//! on two, and seeded random 20-empty positions, each from an empty
//! transposition table; and FFO #40-#44 with the table's prefetching on
//! and off.

use bitboard_othello::{Board, Solver, SolverConfig, Wld};
use criterion::{BenchmarkId, Criterion, SamplingMode, criterion_group, criterion_main};
use game_traits::Game;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;

/// `(id, board, score)` of FFO #40-#44 from `tests/data/ffo40-59.tsv`.
fn ffo() -> Vec<(String, Board, i32)> {
    include_str!("../tests/data/ffo40-59.tsv")
        .lines()
        .filter(|line| line.starts_with("ffo4") && line[3..5].parse::<u32>().is_ok_and(|n| n <= 44))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let board = format!("{} {}", fields[1], fields[2]).parse().unwrap();
            (fields[0].to_string(), board, fields[4].parse().unwrap())
        })
        .collect()
}

/// Four positions with 20 empties from seeded random games.
fn random_twenty() -> Vec<Board> {
    let mut rng = Pcg64Mcg::seed_from_u64(20);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < 4 {
        let mut board = Board::start();
        while board.empty_count() > 20 {
            board.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            board.play(moves[rng.random_range(..moves.len())]);
        }
        if board.empty_count() == 20 && !board.is_over() {
            positions.push(board);
        }
    }
    positions
}

fn bench_endgame(c: &mut Criterion) {
    let mut solver = Solver::default();
    let mut group = c.benchmark_group("endgame/othello");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    for (id, board, score) in ffo() {
        group.bench_with_input(BenchmarkId::new("exact", &id), &board, |b, board| {
            b.iter(|| {
                solver.clear();
                let solution = solver.solve(black_box(board));
                assert_eq!(solution.score, score, "{id}");
                solution.score
            })
        });
    }
    let mut two_threads =
        Solver::new(SolverConfig::default().with_threads(2)).expect("valid settings");
    for (id, board, score) in ffo() {
        group.bench_with_input(
            BenchmarkId::new("exact-2-threads", &id),
            &board,
            |b, board| {
                b.iter(|| {
                    two_threads.clear();
                    let solution = two_threads.solve(black_box(board));
                    assert_eq!(solution.score, score, "{id}");
                    solution.score
                })
            },
        );
    }
    // Random 20-empty positions: the exact scores must agree with separate
    // win/draw/loss solves.
    let positions = random_twenty();
    let expected: Vec<Wld> = positions
        .iter()
        .map(|board| {
            solver.clear();
            solver.solve_wld(board).result
        })
        .collect();
    group.bench_function("exact/random-20-empties-x4", |b| {
        b.iter(|| {
            let mut total = 0;
            for (board, &wld) in positions.iter().zip(&expected) {
                solver.clear();
                let solution = solver.solve(black_box(board));
                assert_eq!(Wld::from_score(solution.score), wld, "{board}");
                total += solution.score;
            }
            total
        })
    });
    group.bench_function("wld/ffo40", |b| {
        let board = &ffo()[0].1;
        b.iter(|| {
            solver.clear();
            let solution = solver.solve_wld(black_box(board));
            assert_eq!(solution.result, Wld::Win);
            solution.result
        })
    });
    group.finish();
}

/// FFO #40-#44 in a row, with the table's prefetching on and off: what
/// the one `unsafe` block of the crate (the prefetch instruction) brings.
fn bench_prefetch(c: &mut Criterion) {
    let problems = ffo();
    let mut group = c.benchmark_group("endgame/othello/prefetch");
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    for prefetch in [true, false] {
        let mut solver = Solver::default().with_prefetch(prefetch);
        let id = if prefetch { "on" } else { "off" };
        group.bench_function(BenchmarkId::new("ffo40-44", id), |b| {
            b.iter(|| {
                for (id, board, score) in &problems {
                    solver.clear();
                    let solution = solver.solve(black_box(board));
                    assert_eq!(solution.score, *score, "{id}");
                }
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .warm_up_time(std::time::Duration::from_millis(100))
        .measurement_time(std::time::Duration::from_secs(1));
    targets = bench_endgame, bench_prefetch
}
criterion_main!(benches);
