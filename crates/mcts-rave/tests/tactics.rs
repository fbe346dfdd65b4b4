//! Immediate wins and forced defences, found by brute force, for either
//! side to move, on every toy game: UCT and RAVE must play a good move.

use game_traits::testing::{
    ExplicitTree, Nim, RandomTree, Tactic, TacticalCase, TicTacToe, check_tactics, tactical_cases,
};
use game_traits::{ActionSpace, Game, Limits, Player, Searcher};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge, Rave};
use rand::SeedableRng;

/// Cases of both depths; asserts both players to move are covered for the
/// immediate wins.
fn cases<G: Game>(start: &G, per_kind: usize, seed: u64) -> Vec<TacticalCase<G>> {
    let wins = tactical_cases(start, 1, per_kind, seed);
    for player in Player::BOTH {
        assert!(
            wins.iter()
                .any(|case| case.tactic == Tactic::Win && case.state.to_move() == player),
            "no immediate win for {player:?} to move"
        );
    }
    let mut all = wins;
    all.extend(tactical_cases(start, 2, per_kind, seed + 1));
    all
}

fn check_both<G: ActionSpace>(cases: &[TacticalCase<G>], iterations: u64) {
    let limits = Limits::iterations(iterations);
    let config = MctsConfig::default().with_seed(3);
    let mut uct = Mcts::new(MctsKnowledge::uct(), config.clone()).unwrap();
    check_tactics(&mut uct, cases, &limits).unwrap();
    let mut rave = Mcts::new(MctsKnowledge::rave(Rave::new()), config.clone()).unwrap();
    check_tactics(&mut rave, cases, &limits).unwrap();
    let mut equivalence = Mcts::new(
        MctsKnowledge::rave(Rave::equivalence(300.0)),
        config.clone(),
    )
    .unwrap();
    check_tactics(&mut equivalence, cases, &limits).unwrap();
    // Two threads (root parallelism) too.
    let mut threaded = Mcts::new(MctsKnowledge::rave(Rave::new()), config.with_threads(2)).unwrap();
    check_tactics(&mut threaded, cases, &limits).unwrap();
}

#[test]
fn tic_tac_toe_wins_and_defends() {
    let cases = cases(&TicTacToe::new(), 6, 11);
    assert!(cases.iter().any(|case| case.tactic == Tactic::Defend));
    check_both(&cases, 3_000);
}

#[test]
fn nim_wins_and_defends() {
    let cases = cases(&Nim::new(&[3, 4, 5]), 6, 21);
    assert!(cases.iter().any(|case| case.tactic == Tactic::Defend));
    check_both(&cases, 5_000);
}

#[test]
fn nim_with_extra_turns_wins_and_defends() {
    let start = Nim::with_extra_turns(&[2, 3, 4, 2]);
    let cases = cases(&start, 6, 31);
    check_both(&cases, 5_000);
}

#[test]
fn random_trees_win_and_defend() {
    let shape = RandomTree {
        same_player_probability: 0.3,
        ..RandomTree::default()
    };
    let mut checked = 0;
    for seed in 0..20 {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let tree = std::sync::Arc::new(ExplicitTree::random(&shape, &mut rng));
        let root = tree.root();
        let mut cases = tactical_cases(&root, 1, 3, seed);
        cases.extend(tactical_cases(&root, 2, 3, seed));
        checked += cases.len();
        check_both(&cases, 3_000);
    }
    assert!(checked > 40, "only {checked} cases");
}

#[test]
fn a_searcher_with_too_few_iterations_can_fail() {
    // The check has teeth: a single iteration plays the first move.
    let cases = cases(&TicTacToe::new(), 6, 11);
    let mut uct = Mcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
    assert!(check_tactics(&mut uct, &cases, &Limits::iterations(1)).is_err());
    // And a game over has no move.
    let finished = TicTacToe::from_moves(&[0, 3, 1, 4, 2]).unwrap();
    let report = uct.search(&finished, &Limits::iterations(10));
    assert_eq!(report.best, None);
    assert_eq!(report.value, -1.0);
}
