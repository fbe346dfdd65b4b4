//! The `game-traits` invariant harness on 15x15 and 20x20 under every
//! rule, on the full game and on its focused view, with the evaluators;
//! plus the harness's colour-flip checks where the rule is symmetric.
//! The `--ignored` runs play many more games.

use game_traits::testing::Invariants;
use gomoku_renju::{Focused, Gomoku, PatternEvaluator, PatternPolicy, Rule};

fn full(size: usize, rule: Rule) -> Invariants<Gomoku> {
    let start = Gomoku::with_size(size, rule).unwrap();
    // The hash identifies the whole position: stones, player to move and
    // rule, which the one-line text holds (a small key: a position keeps
    // kilobytes of caches).
    let harness = Invariants::new(start.clone(), start.max_plies())
        .text()
        .hash_key(Gomoku::to_line)
        .action_space()
        .evaluator(PatternEvaluator::default())
        .policy_evaluator(PatternPolicy::default())
        .plane_encoding()
        .encoding_symmetries(|game: &Gomoku, symmetry| game.symmetric(symmetry.into()));
    let harness = if rule.is_color_symmetric() {
        harness
            .color_flip()
            .color_flip_evaluator(PatternEvaluator::default())
            .color_flip_encoding()
    } else {
        harness
    };
    #[cfg(feature = "serde")]
    let harness = harness.serde();
    harness
}

fn focused(size: usize, rule: Rule) -> Invariants<Focused> {
    let start = Focused::new(Gomoku::with_size(size, rule).unwrap());
    let harness = Invariants::new(start.clone(), start.game().max_plies())
        .text()
        .hash_key(|focused: &Focused| focused.game().to_line())
        .action_space()
        .evaluator(PatternEvaluator::default())
        .policy_evaluator(PatternPolicy::default())
        .plane_encoding();
    let harness = if rule.is_color_symmetric() {
        harness
            .color_flip()
            .color_flip_evaluator(PatternEvaluator::default())
            .color_flip_encoding()
    } else {
        harness
    };
    #[cfg(feature = "serde")]
    let harness = harness.serde();
    harness
}

#[test]
fn every_rule_on_15x15() {
    for (seed, rule) in Rule::ALL.into_iter().enumerate() {
        full(15, rule).cases(6).seed(seed as u64).assert();
    }
}

#[test]
fn every_rule_on_20x20() {
    for (seed, rule) in Rule::ALL.into_iter().enumerate() {
        full(20, rule).cases(2).seed(10 + seed as u64).assert();
    }
}

#[test]
fn focused_games_on_15x15_and_20x20() {
    for (seed, rule) in Rule::ALL.into_iter().enumerate() {
        focused(15, rule).cases(6).seed(20 + seed as u64).assert();
        focused(20, rule).cases(2).seed(30 + seed as u64).assert();
    }
}

#[test]
fn small_boards() {
    // Small boards fill up: draws, and under renju Black's passes.
    for size in [5, 6, 7] {
        for (seed, rule) in Rule::ALL.into_iter().enumerate() {
            full(size, rule).cases(16).seed(40 + seed as u64).assert();
        }
    }
}

#[test]
#[ignore = "many games: cargo test -p gomoku-renju --release -- --ignored"]
fn many_games_on_every_size_and_rule() {
    for size in [5, 9, 15, 19, 20, 22] {
        for (seed, rule) in Rule::ALL.into_iter().enumerate() {
            full(size, rule).cases(64).seed(100 + seed as u64).assert();
            focused(size, rule)
                .cases(64)
                .seed(200 + seed as u64)
                .assert();
        }
    }
}
