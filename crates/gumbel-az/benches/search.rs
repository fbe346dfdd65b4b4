//! Simulations per second on Othello with the heuristic policy evaluator,
//! Gumbel AlphaZero and PUCT at equal simulation counts (one thread).
//!
//! Each measured iteration searches a fixed set of positions from a fresh
//! tree (`reset` before every search, so no evaluation is reused); the
//! throughput is in simulations.

use std::hint::black_box;

use bitboard_othello::{Board, HeuristicPolicy};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use game_traits::rand::{RngExt, SeedableRng};
use game_traits::{Game, Limits, PolicyEvaluator, Searcher};
use gumbel_az::{GumbelAz, GumbelConfig, Puct, PuctConfig};
use rand_pcg::Pcg64Mcg;

/// Positions along one seeded random game, every eighth ply from ply 4.
fn positions() -> Vec<Board> {
    let mut rng = Pcg64Mcg::seed_from_u64(2022);
    let mut board = Board::start();
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    for ply in 0..60 {
        board.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        if ply % 8 == 4 {
            positions.push(board.clone());
        }
        board.play(moves[rng.random_range(..moves.len())]);
    }
    assert_eq!(positions.len(), 7);
    positions
}

/// Searches every position once from a fresh tree; checks the budget and
/// the move.
fn search_all<S: Searcher<Board>>(searcher: &mut S, positions: &[Board], sims: u64) -> u64 {
    let limits = Limits::iterations(sims);
    let mut total = 0;
    let mut moves = Vec::new();
    for board in positions {
        searcher.reset();
        let report = searcher.search(board, &limits);
        assert_eq!(report.stats.iterations, sims);
        board.legal_moves(&mut moves);
        assert!(report.best.is_some_and(|mv| moves.contains(&mv)));
        total += report.stats.iterations;
    }
    total
}

fn simulations(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("search/othello/heuristic-policy");
    for sims in [8u64, 16, 32, 64] {
        group.throughput(Throughput::Elements(sims * positions.len() as u64));
        let config = GumbelConfig::default().with_seed(1);
        let mut gumbel = GumbelAz::new(HeuristicPolicy::default(), config).unwrap();
        group.bench_with_input(BenchmarkId::new("gumbel", sims), &sims, |b, &sims| {
            b.iter(|| black_box(search_all(&mut gumbel, &positions, sims)));
        });
        let mut puct = Puct::new(HeuristicPolicy::default(), PuctConfig::default()).unwrap();
        group.bench_with_input(BenchmarkId::new("puct", sims), &sims, |b, &sims| {
            b.iter(|| black_box(search_all(&mut puct, &positions, sims)));
        });
    }
    group.finish();
}

/// The evaluator alone, for scale: one call per position.
fn evaluator(c: &mut Criterion) {
    let positions = positions();
    let policy = HeuristicPolicy::default();
    let mut moves = Vec::new();
    let mut logits = Vec::new();
    let mut group = c.benchmark_group("evaluate/othello");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("heuristic-policy", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for board in &positions {
                board.legal_moves(&mut moves);
                logits.clear();
                logits.resize(moves.len(), 0.0);
                sum += policy.evaluate(board, &moves, &mut logits);
                assert!(logits.iter().all(|logit| logit.is_finite()));
            }
            black_box(sum)
        });
    });
    group.finish();
}

criterion_group!(benches, simulations, evaluator);
criterion_main!(benches);
