//! Move generation on seeded random positions from real games.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dou_shou_qi::{Jungle, Move};
use game_traits::{Game, Playout, UniformPlayout};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Every position of a few seeded random games (2,000 positions).
fn positions() -> Vec<Jungle> {
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < 2000 {
        let mut game = Jungle::new();
        loop {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            positions.push(game.clone());
            let mv = UniformPlayout.choose(&game, &moves, &mut rng);
            game.play(mv);
        }
    }
    positions.truncate(2000);
    positions
}

fn movegen(c: &mut Criterion) {
    let positions = positions();
    let expected: usize = positions.iter().map(Jungle::count_moves).sum();
    let mut group = c.benchmark_group("movegen/jungle");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves/2000_positions", |b| {
        let mut moves: Vec<Move> = Vec::with_capacity(64);
        b.iter(|| {
            let mut total = 0;
            for position in &positions {
                position.legal_moves(&mut moves);
                total += moves.len();
            }
            assert_eq!(total, expected);
            black_box(total)
        });
    });
    group.bench_function("count_moves/2000_positions", |b| {
        b.iter(|| {
            let total: usize = positions.iter().map(|p| black_box(p).count_moves()).sum();
            assert_eq!(total, expected);
            total
        });
    });
    group.bench_function("play/2000_positions", |b| {
        let first_moves: Vec<Move> = positions
            .iter()
            .map(|position| {
                let mut moves = Vec::new();
                position.legal_moves(&mut moves);
                moves[0]
            })
            .collect();
        b.iter(|| {
            let mut plies = 0;
            for (position, &mv) in positions.iter().zip(&first_moves) {
                let mut child = position.clone();
                child.play(mv);
                plies += usize::from(child.to_move() != position.to_move());
            }
            assert_eq!(plies, positions.len());
            plies
        });
    });
    group.finish();
}

criterion_group!(benches, movegen);
criterion_main!(benches);
