//! Random playouts from the start position under the default rules (draw
//! at 100 plies without capture, threefold repetition), one thread.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dou_shou_qi::{Jungle, JunglePlayout, Rules};
use game_traits::{Playout, UniformPlayout, run_playout};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// Playouts per measured iteration.
const BATCH: u64 = 100;

fn batch<P: Playout<Jungle>>(start: &Jungle, policy: &mut P, rng: &mut Pcg64Mcg) -> usize {
    let mut moves = Vec::with_capacity(64);
    let mut plies = 0;
    for _ in 0..BATCH {
        let mut game = start.clone();
        let (outcome, length) = run_playout(&mut game, policy, rng, &mut moves, 10_000);
        assert!(outcome.is_some(), "the draw rules end every game");
        plies += length;
    }
    plies
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout/jungle");
    group.throughput(Throughput::Elements(BATCH));
    for (name, rules) in [
        ("default_rules", Rules::default()),
        ("no_repetition", {
            let mut rules = Rules::default();
            rules.repetition_draw = false;
            rules
        }),
    ] {
        let start = Jungle::with_rules(rules);
        group.bench_function(format!("random/{name}"), |b| {
            let mut rng = Pcg64Mcg::seed_from_u64(1);
            b.iter(|| batch(&start, &mut UniformPlayout, &mut rng));
        });
        group.bench_function(format!("policy/{name}"), |b| {
            let mut rng = Pcg64Mcg::seed_from_u64(1);
            let mut policy = JunglePlayout::default();
            b.iter(|| batch(&start, &mut policy, &mut rng));
        });
    }
    group.finish();
}

criterion_group!(benches, playouts);
criterion_main!(benches);
