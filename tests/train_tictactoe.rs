//! Tic-tac-toe learned from scratch with the `train` preset, in at most
//! five minutes: the network's value has the sign of the exact value on at
//! least 95% of the reachable unfinished positions, and Gumbel AlphaZero
//! with 16 simulations on it loses none of 100 games against a perfect
//! player.
//!
//! ```text
//! cargo test --release --test train_tictactoe -- --ignored --nocapture
//! ```

use std::collections::HashSet;
use std::time::{Duration, Instant};

use game_arena::training::preset;
use game_traits::testing::{TicTacToe, minimax};
use game_traits::{
    Evaluator, Game, Limits, MoveInfo, OutcomeEvaluator, SearchReport, Searcher, play_match,
};
use gumbel_az::{GumbelAz, GumbelConfig};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use self_play::{Network, Run};

/// Every position reachable from the start in which the game goes on.
fn unfinished_positions() -> Vec<TicTacToe> {
    let mut seen = HashSet::new();
    let mut stack = vec![TicTacToe::new()];
    let mut found = Vec::new();
    let mut moves = Vec::new();
    while let Some(state) = stack.pop() {
        if state.is_over() || !seen.insert(state.clone()) {
            continue;
        }
        state.legal_moves(&mut moves);
        for &mv in &moves {
            let mut child = state.clone();
            child.play(mv);
            stack.push(child);
        }
        found.push(state);
    }
    found
}

/// A perfect player that picks at random among the moves of the best
/// value, so that 100 games are not one game repeated.
struct Perfect {
    rng: Pcg64Mcg,
}

impl Searcher<TicTacToe> for Perfect {
    fn search(&mut self, state: &TicTacToe, _limits: &Limits) -> SearchReport<u8> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let values: Vec<f32> = moves
            .iter()
            .map(|&mv| game_traits::testing::child_value(state, mv, None, &OutcomeEvaluator))
            .collect();
        let best = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let choices: Vec<u8> = moves
            .iter()
            .zip(&values)
            .filter(|(_, value)| **value == best)
            .map(|(&mv, _)| mv)
            .collect();
        let mv = choices[self.rng.random_range(..choices.len())];
        let mut report = SearchReport::new(Some(mv), best);
        report.moves = vec![MoveInfo::new(mv)];
        report
    }
}

/// The sign of a value: win above 1/3, loss below -1/3, draw between.
fn class(value: f32) -> i32 {
    if value > 1.0 / 3.0 {
        1
    } else if value < -1.0 / 3.0 {
        -1
    } else {
        0
    }
}

#[test]
#[ignore = "trains for up to five minutes: cargo test --release --test train_tictactoe -- --ignored"]
fn tic_tac_toe_from_scratch_in_five_minutes() {
    let dir = std::env::temp_dir().join(format!("game-search-ttt-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let config = preset("tictactoe").expect("a preset");
    let started = Instant::now();
    let mut run = Run::create(&dir, TicTacToe::new(), config).expect("a run");
    run.train_for(Duration::from_secs(150), &[], &mut |_| {})
        .expect("training");
    let network: Network<TicTacToe> = run.trainer().network().expect("the network");
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    assert!(minutes <= 5.0, "{minutes:.1} minutes");

    let positions = unfinished_positions();
    assert_eq!(positions.len(), 4520);
    let agree = positions
        .iter()
        .filter(|position| {
            class(network.value(*position)) == class(minimax(*position, None, &OutcomeEvaluator))
        })
        .count();
    let share = agree as f64 / positions.len() as f64;
    println!(
        "trained {minutes:.1} min, {} steps, {} games: value sign right on {:.1}% of {} positions",
        run.trainer().step(),
        run.games(),
        100.0 * share,
        positions.len()
    );
    assert!(share >= 0.95, "{:.1}%", 100.0 * share);

    let mut losses = 0;
    for game in 0..100u64 {
        let mut gumbel = GumbelAz::new(
            network.clone(),
            GumbelConfig::for_play()
                .with_max_considered_actions(9)
                .with_seed(game),
        )
        .expect("a searcher");
        let mut perfect = Perfect {
            rng: Pcg64Mcg::seed_from_u64(game),
        };
        let limits = Limits::iterations(16);
        let (record, network_side) = if game % 2 == 0 {
            (
                play_match(&TicTacToe::new(), &mut gumbel, &mut perfect, &limits),
                game_traits::Player::First,
            )
        } else {
            (
                play_match(&TicTacToe::new(), &mut perfect, &mut gumbel, &limits),
                game_traits::Player::Second,
            )
        };
        let record = record.expect("legal moves");
        if record
            .outcome
            .is_some_and(|outcome| outcome.reward(network_side) < 0.0)
        {
            losses += 1;
            println!("lost game {game}: {:?}", record.moves);
        }
    }
    println!("against the perfect player: {losses} of 100 lost");
    assert_eq!(losses, 0);
    let _ = std::fs::remove_dir_all(&dir);
}
