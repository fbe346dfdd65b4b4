//! The rules on 15x15, one thread: playing stones with five detection
//! (against a plain mailbox board that only walks the lines of the last
//! stone, the layout this crate did not choose), move generation (all
//! cells, focused cells, renju Black's cells without the forbidden ones),
//! and the threat scan.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use game_traits::{Game, Player};
use gomoku_renju::{Focused, Gomoku, Move, Rule};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use std::hint::black_box;

/// Random games of focused moves, played to the end: the move lists.
fn games(rule: Rule, count: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let mut game = Gomoku::with_rule(rule);
            let mut moves = Vec::new();
            let mut list = Vec::new();
            while !game.is_over() {
                Focused::new(game.clone()).legal_moves(&mut list);
                let mv = list[rng.random_range(..list.len())];
                game.play(mv);
                moves.push(mv);
            }
            moves
        })
        .collect()
}

/// A mailbox board for comparison: one byte per cell, five detection by
/// walking the four lines through the last stone.
struct Mailbox {
    cells: [u8; 225],
}

impl Mailbox {
    /// Plays `mv` for `player` (1 or 2); whether it makes five or more.
    fn play(&mut self, mv: Move, player: u8) -> bool {
        let (x, y) = (i32::from(mv.x()), i32::from(mv.y()));
        self.cells[(y * 15 + x) as usize] = player;
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
                while (0..15).contains(&cx)
                    && (0..15).contains(&cy)
                    && self.cells[(cy * 15 + cx) as usize] == player
                {
                    run += 1;
                    cx += sign * dx;
                    cy += sign * dy;
                }
            }
            if run >= 5 {
                return true;
            }
        }
        false
    }
}

fn bench_play(c: &mut Criterion) {
    let games = games(Rule::Freestyle, 20, 1);
    let stones: u64 = games.iter().map(|game| game.len() as u64).sum();
    let mut group = c.benchmark_group("play/gomoku/15x15");
    group.throughput(Throughput::Elements(stones));
    // Every game ends with a win on its last stone, in both boards.
    group.bench_function("freestyle/cached-shapes", |b| {
        b.iter(|| {
            let mut wins = 0;
            for moves in black_box(&games) {
                let mut game = Gomoku::new();
                for &mv in moves {
                    game.play(mv);
                }
                wins += usize::from(matches!(game.outcome(), Some(game_traits::Outcome::Win(_))));
            }
            assert_eq!(wins, games.len());
            wins
        })
    });
    group.bench_function("freestyle/mailbox-walk", |b| {
        b.iter(|| {
            let mut wins = 0;
            for moves in black_box(&games) {
                let mut board = Mailbox { cells: [0; 225] };
                for (ply, &mv) in moves.iter().enumerate() {
                    if board.play(mv, 1 + (ply % 2) as u8) {
                        wins += 1;
                    }
                }
            }
            assert_eq!(wins, games.len());
            wins
        })
    });
    for rule in [Rule::Standard, Rule::Renju] {
        let games = self::games(rule, 20, 2);
        let stones: u64 = games.iter().map(|game| game.len() as u64).sum();
        group.throughput(Throughput::Elements(stones));
        group.bench_function(format!("{rule}/cached-shapes"), |b| {
            b.iter(|| {
                let mut over = 0;
                for moves in black_box(&games) {
                    let mut game = Gomoku::with_rule(rule);
                    for &mv in moves {
                        game.play(mv);
                    }
                    over += usize::from(game.is_over());
                }
                assert_eq!(over, games.len());
                over
            })
        });
    }
    group.finish();
}

/// Mid-game positions: every 10th position of some random games.
fn positions(rule: Rule) -> Vec<Gomoku> {
    let mut found = Vec::new();
    for moves in games(rule, 10, 3) {
        let mut game = Gomoku::with_rule(rule);
        for (ply, &mv) in moves.iter().enumerate() {
            if ply % 10 == 5 && !game.is_over() {
                found.push(game.clone());
            }
            game.play(mv);
        }
    }
    found
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen/gomoku/15x15");
    for rule in [Rule::Freestyle, Rule::Renju] {
        let positions = positions(rule);
        let focused: Vec<Focused> = positions.iter().cloned().map(Focused::new).collect();
        group.throughput(Throughput::Elements(positions.len() as u64));
        let mut moves = Vec::with_capacity(256);
        let total = |moves: &mut Vec<Move>| -> usize {
            positions
                .iter()
                .map(|game| {
                    game.legal_moves(moves);
                    moves.len()
                })
                .sum()
        };
        let expected = total(&mut moves);
        group.bench_function(format!("{rule}/all-cells"), |b| {
            b.iter(|| {
                let count = total(black_box(&mut moves));
                assert_eq!(count, expected);
                count
            })
        });
        let total_focused = |moves: &mut Vec<Move>| -> usize {
            focused
                .iter()
                .map(|game| {
                    game.legal_moves(moves);
                    moves.len()
                })
                .sum()
        };
        let expected = total_focused(&mut moves);
        group.bench_function(format!("{rule}/focused"), |b| {
            b.iter(|| {
                let count = total_focused(black_box(&mut moves));
                assert_eq!(count, expected);
                count
            })
        });
    }
    group.finish();
}

fn bench_threats(c: &mut Criterion) {
    let positions = positions(Rule::Freestyle);
    let mut group = c.benchmark_group("threats/gomoku/15x15");
    group.throughput(Throughput::Elements(2 * positions.len() as u64));
    let scan = || -> usize {
        positions
            .iter()
            .flat_map(|game| Player::BOTH.map(|player| game.threats(player)))
            .map(|threats| {
                threats.fours.len() + threats.open_threes.len() + threats.broken_threes.len()
            })
            .sum()
    };
    let expected = scan();
    assert!(expected > 0);
    group.bench_function("freestyle/all-kinds", |b| {
        b.iter(|| {
            let found = black_box(scan());
            assert_eq!(found, expected);
            found
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
    targets = bench_play, bench_movegen, bench_threats
}
criterion_main!(benches);
