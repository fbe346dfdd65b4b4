//! The `game-traits` invariant harness on random games, under the standard
//! rules and every variant switch, plus color-flip perft and termination.

use dou_shou_qi::{FailedAttack, Jungle, JungleEvaluator, JunglePlayout, Rules};
use game_traits::testing::Invariants;
use game_traits::{ColorFlip, Evaluator, Game, Outcome, Playout, UniformPlayout, run_playout};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// No game lasts longer: at most 100 plies between removals (the
/// no-capture limit), and at most 15 removals before one side is gone.
const MAX_PLIES: usize = 16 * 100;

fn harness(rules: Rules) -> Invariants<Jungle> {
    // The position string leaves out the repetition history (and the
    // rules), so it is checked as a lossy text form here; the hash covers
    // the board and the side to move, not the clock or the history.
    let invariants = Invariants::new(Jungle::with_rules(rules), MAX_PLIES)
        .lossy_text()
        .hash_key(Jungle::board_string)
        .action_space()
        .color_flip()
        .evaluator(JungleEvaluator::default())
        .color_flip_evaluator(JungleEvaluator::default())
        .plane_encoding()
        .color_flip_encoding();
    #[cfg(feature = "serde")]
    let invariants = invariants.serde();
    invariants
}

#[test]
fn standard_rules_with_repetition_pass_the_harness() {
    let coverage = harness(Rules::default())
        .cases(32)
        .run()
        .unwrap_or_else(|violation| panic!("{violation}"));
    // Uniformly random games are nearly all drawn; the short games of the
    // mix reach den entries and captures of the last piece for both sides.
    assert!(
        coverage.first_wins > 0 && coverage.second_wins > 0 && coverage.draws > 0,
        "{coverage:?}"
    );
}

#[test]
fn text_round_trip_without_repetition_history() {
    // The position string does not carry the repetition history, so the
    // whole-state text round trip is checked with that rule off, reading
    // the text under the original's rules.
    let mut rules = Rules::default();
    rules.repetition_draw = false;
    harness(rules)
        .text_with(|text, original: &Jungle| Jungle::from_fen(text, *original.rules()))
        .cases(16)
        .seed(1)
        .assert();
}

#[test]
fn every_variant_switch_passes_the_harness() {
    let switches: [(&str, &str); 8] = [
        ("dog_over_wolf", "1"),
        ("equal_rank_mutual_capture", "1"),
        ("elephant_captures_rat", "1"),
        ("rat_capture_across_bank", "1"),
        ("traps_any_side", "1"),
        ("trap_attacker_zero", "1"),
        ("failed_attack", "attacker_dies"),
        ("failed_attack", "bounce"),
    ];
    for (seed, (name, value)) in switches.into_iter().enumerate() {
        let mut rules = Rules::default();
        rules.apply_switch(name, value).unwrap();
        harness(rules).cases(8).seed(100 + seed as u64).assert();
    }
    // Everything at once.
    let mut all = Rules::default();
    for (name, value) in [
        ("dog_over_wolf", "1"),
        ("equal_rank_mutual_capture", "1"),
        ("elephant_captures_rat", "1"),
        ("traps_any_side", "1"),
        ("trap_attacker_zero", "1"),
        ("failed_attack", "attacker_dies"),
    ] {
        all.apply_switch(name, value).unwrap();
    }
    harness(all).cases(8).seed(200).assert();
}

#[test]
fn scripted_games_end_as_expected() {
    let moves = |names: &[&str]| -> Vec<dou_shou_qi::Move> {
        names.iter().map(|name| name.parse().unwrap()).collect()
    };
    Invariants::new(Jungle::new(), MAX_PLIES)
        .cases(1)
        .expect_outcome(
            moves(&[
                "a1a2", "g9g8", "a2a1", "g8g9", "a1a2", "g9g8", "a2a1", "g8g9",
            ]),
            Some(Outcome::Draw),
        )
        .assert();
}

/// Plays `plies` random moves (fewer if the game ends) from the start.
fn random_position(rules: Rules, seed: u64, plies: usize) -> Jungle {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut game = Jungle::with_rules(rules);
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = UniformPlayout.choose(&game, &moves, &mut rng);
        game.play(mv);
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// The flipped position has the mirrored tree: equal perft, mapped
    /// moves, equal evaluation, flipped outcome.
    #[test]
    fn flipped_positions_have_equal_perft(seed in any::<u64>(), plies in 0usize..120) {
        let game = random_position(Rules::default().without_draws(), seed, plies);
        let flipped = game.color_flipped();
        prop_assert_eq!(game.perft_ignoring_draws(3), flipped.perft_ignoring_draws(3));
        prop_assert_eq!(flipped.color_flipped(), game.clone());
        prop_assert_eq!(flipped.outcome(), game.outcome().map(Outcome::flipped));
        let evaluator = JungleEvaluator::default();
        prop_assert_eq!(evaluator.value(&game), evaluator.value(&flipped));
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for mv in moves {
            prop_assert!(flipped.is_legal(mv.rotated()));
        }
    }

    /// The fast perft agrees with the generic one everywhere, under random
    /// rule switches.
    #[test]
    fn fast_perft_equals_generic_perft(seed in any::<u64>(), plies in 0usize..150, switches in any::<u8>()) {
        let mut rules = Rules::default().without_draws();
        rules.dog_over_wolf = switches & 1 != 0;
        rules.equal_rank_mutual_capture = switches & 2 != 0;
        rules.elephant_captures_rat = switches & 4 != 0;
        rules.rat_capture_across_bank = switches & 8 != 0;
        rules.traps_any_side = switches & 16 != 0;
        rules.trap_attacker_zero = switches & 32 != 0;
        rules.failed_attack = match switches >> 6 {
            0 | 1 => FailedAttack::Illegal,
            2 => FailedAttack::AttackerDies,
            _ => FailedAttack::Bounce,
        };
        let game = random_position(rules, seed, plies);
        prop_assert_eq!(game.perft_ignoring_draws(3), game_traits::perft_sequences(&game, 3));
    }
}

#[test]
fn the_draw_rule_bounds_every_random_game() {
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let mut moves = Vec::new();
    let mut longest = 0;
    let mut outcomes = [0usize; 3];
    for _ in 0..300 {
        let mut game = Jungle::new();
        let (outcome, plies) = run_playout(
            &mut game,
            &mut UniformPlayout,
            &mut rng,
            &mut moves,
            MAX_PLIES + 1,
        );
        let outcome = outcome.expect("every game ends within the bound");
        longest = longest.max(plies);
        outcomes[match outcome {
            Outcome::Win(player) => player.index(),
            Outcome::Draw => 2,
        }] += 1;
        assert!(plies <= MAX_PLIES);
        // The evaluator is exact at the end.
        assert_eq!(
            JungleEvaluator::default().value(&game),
            outcome.reward(game.to_move())
        );
    }
    assert!(longest > 100, "some games pass a capture");
    assert!(outcomes.iter().all(|&count| count > 0), "{outcomes:?}");
}

#[test]
fn the_playout_policy_wins_when_it_can_and_plays_legal_moves() {
    let mut rng = Pcg64Mcg::seed_from_u64(9);
    let mut moves = Vec::new();
    let mut policy = JunglePlayout::default();
    // A capture of the most valuable piece is preferred.
    let game: Jungle = "7/7/7/7/7/7/2t4/1cL4/7 w 0 1".parse().unwrap();
    game.legal_moves(&mut moves);
    assert_eq!(policy.choose(&game, &moves, &mut rng).to_string(), "c2c3");
    // Random games with the policy end, with legal moves only.
    for _ in 0..50 {
        let mut game = Jungle::new();
        let (outcome, _) = run_playout(&mut game, &mut policy, &mut rng, &mut moves, MAX_PLIES + 1);
        assert!(outcome.is_some());
    }
}
