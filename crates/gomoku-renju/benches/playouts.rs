//! Playouts per second on 15x15 freestyle from 10-stone openings, one
//! thread: the threat-aware policy and uniformly random focused moves,
//! through `Playout::play_out` (as MCTS calls it), with and without
//! reporting every move (RAVE's AMAF statistics).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game_traits::{Game, Outcome, Player, Playout};
use gomoku_renju::{FocusedPlayout, Gomoku, Move, Rule, ThreatPlayout};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;

/// Playouts per measured iteration.
const BATCH: u64 = 200;

/// Eight openings of 10 stones: random focused moves from the centre,
/// none of them decided.
fn openings(rule: Rule) -> Vec<Gomoku> {
    let mut rng = Pcg64Mcg::seed_from_u64(10);
    let mut found = Vec::new();
    while found.len() < 8 {
        let mut game = Gomoku::with_rule(rule);
        for _ in 0..10 {
            let moves: Vec<Move> = game.focus_moves().iter().collect();
            game.play(moves[rng.random_range(..moves.len())]);
        }
        let me = game.to_move();
        if !game.is_over()
            && game.threats(me).fives.is_empty()
            && game.threats(me.opponent()).fives.is_empty()
        {
            found.push(game);
        }
    }
    found
}

/// Runs `BATCH` playouts from the openings in turn; returns Black's wins
/// minus White's (the same for the same seed) and checks every game ended.
fn batch<P: Playout<Gomoku>>(openings: &[Gomoku], policy: &mut P, seed: u64, report: bool) -> i64 {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut heard = 0usize;
    let mut score = 0;
    for i in 0..BATCH as usize {
        let mut game = openings[i % openings.len()].clone();
        let (outcome, plies) = if report {
            policy.play_out(&mut game, &mut rng, &mut moves, 1000, |_, _| heard += 1)
        } else {
            policy.play_out(&mut game, &mut rng, &mut moves, 1000, |_, _| {})
        };
        assert!(outcome.is_some() && plies > 0);
        score += match outcome {
            Some(Outcome::Win(Player::First)) => 1,
            Some(Outcome::Win(Player::Second)) => -1,
            _ => 0,
        };
    }
    assert!(!report || heard > 0);
    score
}

fn bench_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playout/gomoku/15x15");
    group.throughput(Throughput::Elements(BATCH));
    for rule in [Rule::Freestyle, Rule::Renju] {
        let openings = openings(rule);
        let expected = batch(&openings, &mut ThreatPlayout, 1, false);
        group.bench_function(format!("threat-aware/{rule}"), |b| {
            b.iter(|| {
                let score = batch(black_box(&openings), &mut ThreatPlayout, 1, false);
                assert_eq!(score, expected);
                score
            })
        });
        if rule == Rule::Freestyle {
            let expected = batch(&openings, &mut ThreatPlayout, 1, true);
            group.bench_function(format!("threat-aware-reporting-moves/{rule}"), |b| {
                b.iter(|| {
                    let score = batch(black_box(&openings), &mut ThreatPlayout, 1, true);
                    assert_eq!(score, expected);
                    score
                })
            });
            let expected = batch(&openings, &mut FocusedPlayout, 2, false);
            group.bench_function(format!("focused-random/{rule}"), |b| {
                b.iter(|| {
                    let score = batch(black_box(&openings), &mut FocusedPlayout, 2, false);
                    assert_eq!(score, expected);
                    score
                })
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .sample_size(20)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = bench_playouts
}
criterion_main!(benches);
