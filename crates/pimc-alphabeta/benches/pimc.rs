//! PIMC decision time on a Hidden Jungle mid-game: 30 sampled worlds, each
//! searched by alpha-beta to depth 6 (`JungleEvaluator`), on one and two
//! threads; and with near-exact and exact root values, for comparison.
//!
//! `cargo bench -p pimc-alphabeta --bench pimc`. Each sample is one
//! decision from a fresh PIMC searcher (same seed, so the same worlds);
//! the bench asserts that the move is legal, that 30 worlds were searched
//! to depth 6, and that both thread counts decide alike.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use dou_shou_qi::JungleEvaluator;
use dou_shou_qi::hidden::{HiddenInfoSet, HiddenRules, Referee};
use game_traits::hidden::{Arbiter, InfoSetSearcher, WorldEnumeration};
use game_traits::{InformationSet, Limits};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig, Pimc, PimcConfig, RootValues};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

const WORLDS: usize = 30;
const DEPTH: u32 = 6;

/// A mid-game: 30 random plies from a seeded deal, with more than 30
/// consistent worlds left for the player to move (so they are sampled).
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
        if referee.outcome().is_some() {
            continue;
        }
        let info = referee.information_set(referee.to_move());
        let pieces = referee.world().all_pieces().count();
        if WorldEnumeration::world_count(&info) > WORLDS as u64 && pieces >= 12 {
            return (referee, info);
        }
    }
    unreachable!("some seed gives a mid-game")
}

fn decide(info: &HiddenInfoSet, threads: usize, root_values: RootValues) -> dou_shou_qi::Move {
    let mut pimc = Pimc::new(
        move |_| {
            AlphaBeta::new(
                JungleEvaluator::default(),
                AlphaBetaConfig::default().with_root_values(root_values),
            )
            .unwrap()
        },
        PimcConfig::default()
            .with_worlds(WORLDS)
            .with_threads(threads)
            .with_seed(7),
    )
    .expect("valid settings");
    let report = pimc.search(info, &Limits::depth(DEPTH));
    let analysis = pimc.analysis().expect("a decision");
    assert_eq!(analysis.worlds, WORLDS);
    assert!(!analysis.enumerated);
    assert_eq!(report.stats.depth, DEPTH);
    let best = report.best.expect("a move");
    let mut legal = Vec::new();
    info.legal_moves(&mut legal);
    assert!(legal.contains(&best));
    best
}

fn pimc(c: &mut Criterion) {
    let (referee, info) = midgame();
    assert_eq!(info.player(), referee.to_move());
    let one = decide(&info, 1, RootValues::Bounds);
    let mut group = c.benchmark_group("pimc/hidden-jungle/midgame/worlds-30/depth-6");
    group.sample_size(10);
    for threads in [1, 2] {
        group.bench_function(format!("threads-{threads}"), |b| {
            b.iter(|| {
                let best = decide(&info, threads, RootValues::Bounds);
                assert_eq!(best, one, "the thread count does not change the decision");
                black_box(best)
            });
        });
    }
    group.bench_function("near-root-values/threads-2", |b| {
        b.iter(|| black_box(decide(&info, 2, RootValues::Near(0.1))));
    });
    group.bench_function("exact-root-values/threads-2", |b| {
        b.iter(|| black_box(decide(&info, 2, RootValues::Exact)));
    });
    group.finish();
}

criterion_group!(benches, pimc);
criterion_main!(benches);
