//! World sampling on a mid-game Hidden Jungle information set.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dou_shou_qi::hidden::{HiddenInfoSet, HiddenRules, Referee};
use game_traits::{Game, InformationSet, Player};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A seeded game of 60 plies (attacks favoured), seen by the first player.
fn mid_game() -> HiddenInfoSet {
    let mut referee = Referee::random(HiddenRules::default(), 12);
    let mut rng = Pcg64Mcg::seed_from_u64(12);
    let mut moves = Vec::new();
    for _ in 0..60 {
        if referee.outcome().is_some() {
            break;
        }
        referee.world().legal_moves(&mut moves);
        let world = referee.world();
        let attacks: Vec<_> = moves
            .iter()
            .copied()
            .filter(|mv| world.piece_at(mv.to()).is_some())
            .collect();
        let mv = if !attacks.is_empty() && rng.random_bool(0.5) {
            attacks[rng.random_range(..attacks.len())]
        } else {
            moves[rng.random_range(..moves.len())]
        };
        referee.play(mv).expect("a legal move");
    }
    referee.information_set(Player::First)
}

fn sampling(c: &mut Criterion) {
    let info = mid_game();
    let count = info.world_count();
    assert!(count > 100, "a mid-game set with many worlds ({count})");
    let mut group = c.benchmark_group("sampling/jungle");
    group.throughput(Throughput::Elements(1));
    group.bench_function(format!("world/mid_game_{count}_worlds"), |b| {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        b.iter(|| {
            let world = info.sample_world(&mut rng);
            assert_eq!(world.to_move(), info.to_move());
            world
        });
    });
    group.bench_function(format!("layout/mid_game_{count}_worlds"), |b| {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        b.iter(|| {
            let layout = info.sample_layout(&mut rng);
            assert!(info.is_consistent(&layout));
            layout
        });
    });
    group.finish();
}

criterion_group!(benches, sampling);
criterion_main!(benches);
