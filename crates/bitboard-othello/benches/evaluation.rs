//! Static evaluations per second on positions of random games: the
//! pattern evaluator (a full evaluation of its 84 placements) beside the
//! hand-weighted heuristic and the positional table.

use std::sync::Arc;

use bitboard_othello::{
    Board, FitConfig, HeuristicEvaluator, LabelledPosition, Move, PatternEvaluator, PatternTrainer,
    PositionalEvaluator,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game_traits::{Evaluator, Game};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;

/// Positions of seeded random games, none finished.
fn positions(count: usize) -> Vec<Board> {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut positions = Vec::with_capacity(count);
    let mut moves: Vec<Move> = Vec::new();
    while positions.len() < count {
        let mut board = Board::start();
        while !board.is_game_over() && positions.len() < count {
            positions.push(board.clone());
            moves.clear();
            board.legal_moves(&mut moves);
            board.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    positions
}

/// Sum of the values, the bench's checked result.
fn total(evaluator: &impl Evaluator<Board>, boards: &[Board]) -> f64 {
    boards
        .iter()
        .map(|board| f64::from(evaluator.value(black_box(board))))
        .sum()
}

fn bench_evaluation(c: &mut Criterion) {
    let boards = positions(1000);
    // Weights fitted to the disc difference of each position, so that
    // they are not all zero and every table lookup counts.
    let labels: Vec<LabelledPosition> = boards
        .iter()
        .map(|board| LabelledPosition {
            board: board.clone(),
            score: (board.player().count_ones() as i8) - (board.opponent().count_ones() as i8),
        })
        .collect();
    let mut trainer = PatternTrainer::new(12);
    trainer.fit(&labels, &FitConfig::default().with_epochs(20));
    let pattern = PatternEvaluator::new(Arc::new(trainer.weights()));
    let mut group = c.benchmark_group("evaluation/othello");
    group.throughput(Throughput::Elements(boards.len() as u64));
    let expected = total(&pattern, &boards);
    assert!(expected.abs() > 0.0);
    group.bench_function("pattern", |b| {
        b.iter(|| assert_eq!(total(&pattern, &boards), expected))
    });
    let heuristic = HeuristicEvaluator::default();
    let expected = total(&heuristic, &boards);
    group.bench_function("heuristic", |b| {
        b.iter(|| assert_eq!(total(&heuristic, &boards), expected))
    });
    let expected = total(&PositionalEvaluator, &boards);
    group.bench_function("positional", |b| {
        b.iter(|| assert_eq!(total(&PositionalEvaluator, &boards), expected))
    });
    group.finish();
}

criterion_group!(benches, bench_evaluation);
criterion_main!(benches);
