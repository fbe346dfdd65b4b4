//! Perft from the start position (bulk-counted last ply), checked against
//! the reference counts.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dou_shou_qi::{Jungle, Rules};

fn perft(c: &mut Criterion) {
    let start = Jungle::with_rules(Rules::default().without_draws());
    let mut group = c.benchmark_group("perft/jungle");
    group.sample_size(10);
    for (depth, leaves) in [(5u32, 5_111_620u64), (6, 100_453_636)] {
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("start/{depth}"), |b| {
            b.iter(|| {
                let count = start.perft_ignoring_draws(depth);
                assert_eq!(count, leaves);
                count
            });
        });
    }
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
