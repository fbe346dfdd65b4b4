//! Threat searches and evaluators, one thread: VCF on the drawn positions
//! of `tests/tactics.rs` (wins of 3, 5, 7 and 9 plies), VCT on a
//! three-three, and the pattern evaluator and policy on mid-game
//! positions.

use criterion::{Criterion, criterion_group, criterion_main};
use game_traits::{Game, Limits, PolicyEvaluator};
use gomoku_renju::{
    Focused, Gomoku, Move, PatternEvaluator, PatternPolicy, Solution, ThreatSolver, wins_by,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;

#[path = "../tests/common/vcf.rs"]
mod common_vcf;
use common_vcf::VCF_POSITIONS as VCF;

fn bench_vcf(c: &mut Criterion) {
    let mut group = c.benchmark_group("vcf/gomoku/15x15");
    let mut solver = ThreatSolver::new();
    for (text, plies) in VCF {
        let game: Gomoku = text.parse().unwrap();
        group.bench_function(format!("win-in-{plies}-plies"), |b| {
            b.iter(|| {
                let solution = solver.vcf(black_box(&game), &Limits::none());
                let Solution::Win(line) = &solution else {
                    panic!("no VCF");
                };
                assert_eq!(line.len(), plies);
                assert!(wins_by(&game, line));
                solution
            })
        });
    }
    let quiet: Gomoku = Gomoku::new();
    group.bench_function("none/empty-board", |b| {
        b.iter(|| {
            let solution = solver.vcf(black_box(&quiet), &Limits::none());
            assert_eq!(solution, Solution::NoWin);
            solution
        })
    });
    group.finish();
}

fn bench_vct(c: &mut Criterion) {
    let game: Gomoku = "O..............
         ...............
         ...............
         ...............
         ...............
         .......X.......
         .......X.......
         .....XX........
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         O.............O
         X freestyle"
        .parse()
        .unwrap();
    let mut solver = ThreatSolver::new();
    let mut group = c.benchmark_group("vct/gomoku/15x15");
    group.bench_function("three-three-in-5-plies", |b| {
        b.iter(|| {
            let solution = solver.vct(black_box(&game), &Limits::none());
            let Solution::Win(line) = &solution else {
                panic!("no VCT");
            };
            assert_eq!(line.len(), 5);
            solution
        })
    });
    group.finish();
}

fn bench_evaluators(c: &mut Criterion) {
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut positions = Vec::new();
    while positions.len() < 32 {
        let mut game = Gomoku::new();
        let plies = rng.random_range(8..40);
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            let moves: Vec<Move> = game.focus_moves().iter().collect();
            game.play(moves[rng.random_range(..moves.len())]);
        }
        if !game.is_over() {
            positions.push(Focused::new(game));
        }
    }
    let mut group = c.benchmark_group("eval/gomoku/15x15");
    group.throughput(criterion::Throughput::Elements(positions.len() as u64));
    let evaluator = PatternEvaluator::default();
    let sum: f32 = positions
        .iter()
        .map(|game| evaluator.evaluate(game.game()))
        .sum();
    group.bench_function("pattern-evaluator", |b| {
        b.iter(|| {
            let total: f32 = positions
                .iter()
                .map(|game| evaluator.evaluate(black_box(game.game())))
                .sum();
            assert_eq!(total, sum);
            total
        })
    });
    let policy = PatternPolicy::default();
    let moves: Vec<Vec<Move>> = positions
        .iter()
        .map(|game| {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            moves
        })
        .collect();
    let mut logits = vec![0.0; 512];
    group.bench_function("pattern-policy", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for (game, moves) in positions.iter().zip(&moves) {
                total += policy.evaluate(black_box(game), moves, &mut logits[..moves.len()]);
            }
            assert_eq!(total, sum);
            total
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
    targets = bench_vcf, bench_vct, bench_evaluators
}
criterion_main!(benches);
