//! The `game-traits` invariant harness on 15x15 and 20x20 under every rule,
//! on the full game and on its focused view.

use game_traits::testing::Invariants;
use gomoku::{Focused, Gomoku, Rule};

fn full(size: usize, rule: Rule) -> Invariants<Gomoku> {
    let start = Gomoku::with_size(size, rule).unwrap();
    let harness = Invariants::new(start.clone(), start.max_plies())
        .text()
        .position_hash()
        .action_space();
    let harness = if rule.is_color_symmetric() {
        harness.color_flip()
    } else {
        harness
    };
    #[cfg(feature = "serde")]
    let harness = harness.serde();
    harness
}

#[test]
fn freestyle_15() {
    full(15, Rule::Freestyle).cases(8).assert();
}

#[test]
fn standard_15() {
    full(15, Rule::Standard).cases(8).seed(1).assert();
}

#[test]
fn renju_15() {
    full(15, Rule::Renju).cases(8).seed(2).assert();
}

#[test]
fn focused_15() {
    for (seed, rule) in Rule::ALL.into_iter().enumerate() {
        let start = Focused::new(Gomoku::with_rule(rule));
        Invariants::new(start.clone(), start.game().max_plies())
            .text()
            .position_hash()
            .action_space()
            .cases(8)
            .seed(seed as u64)
            .assert();
    }
}
