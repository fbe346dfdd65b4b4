//! Search speed on the ten positions of Rapfi's `bench` command (four
//! freestyle, three exact-five, three renju; two on 20x20), so that our
//! nodes per second stand beside the figure that command prints on the
//! same machine: alpha-beta (`pimc-alphabeta`) on the pattern evaluator,
//! moves ordered by the pattern policy, over the focused move generator,
//! as the brain's `alphabeta` searcher runs it without its tactical
//! layer; one thread, a fixed depth, so the node count is the same every
//! run (asserted) and criterion's throughput is nodes per second.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game_traits::{Game, Limits, Searcher};
use gomoku_renju::{Focused, PatternEvaluator, PatternPolicy};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};
use std::hint::black_box;

#[path = "../tests/common/rapfi_bench.rs"]
mod rapfi_bench;

/// Plies searched from each position: the ten take about 3 s together.
const DEPTH: u32 = 5;

/// Searches `position` `DEPTH` plies deep with a fresh searcher; returns
/// the nodes searched.
fn search(position: &Focused) -> u64 {
    let mut searcher = AlphaBeta::new(PatternEvaluator::default(), AlphaBetaConfig::default())
        .expect("default settings are valid")
        .with_policy(PatternPolicy::default());
    let report = searcher.search(position, &Limits::depth(DEPTH));
    let best = report.best.expect("every bench position has moves");
    assert!(position.game().is_legal(best), "{best} is not legal");
    assert_eq!(report.stats.depth, DEPTH);
    report.stats.nodes
}

fn bench_rapfi_positions(c: &mut Criterion) {
    let positions = rapfi_bench::positions();
    let nodes: Vec<u64> = positions.iter().map(search).collect();
    let mut group = c.benchmark_group("alphabeta/rapfi-bench");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes.iter().sum()));
    group.bench_function(format!("depth-{DEPTH}/all-ten"), |b| {
        b.iter(|| {
            for (position, &expected) in positions.iter().zip(&nodes) {
                assert_eq!(search(black_box(position)), expected);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_rapfi_positions);
criterion_main!(benches);
