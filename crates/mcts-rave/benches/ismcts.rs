//! Information Set MCTS iterations per second on a Hidden Jungle mid-game
//! (at least 12 pieces left, 30 random plies in), one and two threads; an
//! iteration samples a world, descends the tree, and plays out 20 plies
//! before the Jungle evaluator values the position.
//!
//! Run with `cargo bench -p mcts-rave --bench ismcts`. Each measured
//! routine is one search of a fixed number of iterations with a fresh
//! tree; the throughput is iterations per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use dou_shou_qi::hidden::{HiddenInfoSet, HiddenRules, Referee};
use dou_shou_qi::{JungleEvaluator, JunglePlayout};
use game_traits::hidden::{Arbiter, InfoSetSearcher};
use game_traits::{Game, InformationSet, Limits};
use mcts_rave::{Ismcts, LeafEvaluation, MctsConfig, MctsKnowledge};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

const ITERATIONS: u64 = 4_000;

/// The first seeded game that, 30 random plies in, is still going with at
/// least 12 pieces on the board.
fn midgame() -> (Referee, HiddenInfoSet) {
    for seed in 0.. {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut referee = Referee::random(HiddenRules::default(), seed);
        let mut moves = Vec::new();
        for _ in 0..30 {
            referee.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            referee
                .play_move(moves[rng.random_range(..moves.len())])
                .expect("a legal move");
        }
        if referee.outcome().is_some() || referee.world().all_pieces().count() < 12 {
            continue;
        }
        let info = referee.information_set(referee.to_move());
        return (referee, info);
    }
    unreachable!("some seed gives a mid-game")
}

fn searcher(threads: usize) -> Ismcts<HiddenInfoSet, JunglePlayout, JungleEvaluator> {
    Ismcts::new(
        MctsKnowledge::uct()
            .with_playout(JunglePlayout::default())
            .with_evaluator(JungleEvaluator::default()),
        MctsConfig::default()
            .with_seed(1)
            .with_threads(threads)
            .with_leaf(LeafEvaluation::PlayoutCutoff { depth: 20 }),
    )
    .expect("valid settings")
}

fn hidden_jungle(c: &mut Criterion) {
    let (referee, info) = midgame();
    assert_eq!(info.player(), referee.to_move());
    let mut group = c.benchmark_group("ismcts/hidden-jungle/midgame");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(10);
    for threads in [1, 2] {
        let mut search = searcher(threads);
        group.bench_function(format!("threads-{threads}"), |b| {
            b.iter(|| {
                search.reset();
                let report = search.search(&info, &Limits::iterations(ITERATIONS));
                assert_eq!(report.stats.iterations, ITERATIONS);
                let best = report.best.expect("a move");
                assert!(referee.world().is_legal(best), "{best:?}");
                black_box(report)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, hidden_jungle);
criterion_main!(benches);
