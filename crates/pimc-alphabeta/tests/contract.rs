//! The `Limits` contract (game-traits' `check_limits_contract`) on the toy
//! games, Othello and Jungle, with one and two threads; tactics for both
//! players; repeatability.

use std::time::Duration;

use bitboard_othello::{Board, HeuristicEvaluator};
use dou_shou_qi::{Jungle, JungleEvaluator};
use game_traits::testing::{
    ContractOptions, Nim, TicTacToe, TicTacToeHeuristic, check_limits_contract, check_repeatable,
    check_tactics, random_positions, tactical_cases,
};
use game_traits::{Game, Limits, OutcomeEvaluator, Player, Searcher, StopReason};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig, RootValues};

fn options() -> ContractOptions {
    ContractOptions::default().with_hang(Duration::from_secs(20))
}

fn two_threads() -> AlphaBetaConfig {
    AlphaBetaConfig::default().with_threads(2)
}

#[test]
fn the_contract_holds_on_the_toy_games() {
    check_limits_contract(
        || AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
        &TicTacToe::new(),
        &options(),
    )
    .unwrap();
    check_limits_contract(
        || AlphaBeta::new(TicTacToeHeuristic, two_threads()).unwrap(),
        &TicTacToe::new(),
        &options(),
    )
    .unwrap();
    check_limits_contract(
        || AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
        &Nim::with_extra_turns(&[3, 2, 2]),
        &options(),
    )
    .unwrap();
    check_limits_contract(
        || {
            AlphaBeta::new(
                OutcomeEvaluator,
                AlphaBetaConfig::default().with_root_values(RootValues::Exact),
            )
            .unwrap()
        },
        &Nim::with_extra_turns(&[3, 3, 2]),
        &options(),
    )
    .unwrap();
    // A game without a hash searches too.
    check_limits_contract(
        || AlphaBeta::without_hash(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
        &TicTacToe::new(),
        &options(),
    )
    .unwrap();
}

#[test]
fn the_contract_holds_on_othello() {
    check_limits_contract(
        || AlphaBeta::new(HeuristicEvaluator::default(), AlphaBetaConfig::default()).unwrap(),
        &Board::start(),
        &options(),
    )
    .unwrap();
    check_limits_contract(
        || AlphaBeta::new(HeuristicEvaluator::default(), two_threads()).unwrap(),
        &Board::start(),
        &options().with_seed(1),
    )
    .unwrap();
}

#[test]
fn the_contract_holds_with_late_move_reductions() {
    let reducing = || AlphaBetaConfig::default().with_late_move_reductions(true);
    check_limits_contract(
        || AlphaBeta::new(TicTacToeHeuristic, reducing()).unwrap(),
        &TicTacToe::new(),
        &options(),
    )
    .unwrap();
    check_limits_contract(
        || AlphaBeta::new(HeuristicEvaluator::default(), reducing()).unwrap(),
        &Board::start(),
        &options(),
    )
    .unwrap();
    check_limits_contract(
        || AlphaBeta::new(HeuristicEvaluator::default(), reducing().with_threads(2)).unwrap(),
        &Board::start(),
        &options().with_seed(3),
    )
    .unwrap();
    let mut cases = tactical_cases(&Board::start(), 1, 4, 7);
    cases.extend(tactical_cases(&Board::start(), 2, 4, 8));
    check_tactics(
        &mut AlphaBeta::new(HeuristicEvaluator::default(), reducing()).unwrap(),
        &cases,
        &Limits::depth(5),
    )
    .unwrap();
}

#[test]
fn the_contract_holds_on_jungle() {
    check_limits_contract(
        || AlphaBeta::new(JungleEvaluator::default(), AlphaBetaConfig::default()).unwrap(),
        &Jungle::new(),
        &options(),
    )
    .unwrap();
    check_limits_contract(
        || AlphaBeta::new(JungleEvaluator::default(), two_threads()).unwrap(),
        &Jungle::new(),
        &options().with_seed(2),
    )
    .unwrap();
}

#[test]
fn wins_and_defences_are_found_for_both_players() {
    for depth in 1..=3 {
        let cases = tactical_cases(&TicTacToe::new(), depth, 4, 11);
        check_tactics(
            &mut AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
            &cases,
            &Limits::depth(3),
        )
        .unwrap();
    }
    let mut cases = tactical_cases(&Board::start(), 1, 4, 7);
    cases.extend(tactical_cases(&Board::start(), 2, 4, 8));
    for player in Player::BOTH {
        assert!(cases.iter().any(|case| case.state.to_move() == player));
    }
    check_tactics(
        &mut AlphaBeta::new(HeuristicEvaluator::default(), AlphaBetaConfig::default()).unwrap(),
        &cases,
        &Limits::depth(3),
    )
    .unwrap();
    let cases = tactical_cases(&Nim::with_extra_turns(&[3, 2, 2]), 3, 4, 13);
    check_tactics(
        &mut AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
        &cases,
        &Limits::depth(3),
    )
    .unwrap();
    let cases = tactical_cases(&Jungle::new(), 1, 2, 14);
    check_tactics(
        &mut AlphaBeta::new(JungleEvaluator::default(), AlphaBetaConfig::default()).unwrap(),
        &cases,
        &Limits::depth(2),
    )
    .unwrap();
}

#[test]
fn searches_are_repeatable() {
    let positions = random_positions(&Board::start(), 6, 3);
    check_repeatable(
        || AlphaBeta::new(HeuristicEvaluator::default(), AlphaBetaConfig::default()).unwrap(),
        &positions,
        &Limits::depth(5),
    )
    .unwrap();
    check_repeatable(
        || AlphaBeta::new(HeuristicEvaluator::default(), AlphaBetaConfig::default()).unwrap(),
        &positions,
        &Limits::nodes(3_000),
    )
    .unwrap();
    let positions = random_positions(&Jungle::new(), 6, 3);
    check_repeatable(
        || AlphaBeta::new(JungleEvaluator::default(), AlphaBetaConfig::default()).unwrap(),
        &positions,
        &Limits::depth(4),
    )
    .unwrap();
}

#[test]
fn faster_wins_are_preferred_and_the_analysis_keeps_the_distance() {
    // Nim [1, 1, 3] with the standard rules: the player to move wins; a
    // proven result is reported as exactly 1 and its distance is kept.
    let game = Nim::new(&[1, 1, 3]);
    let mut search = AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap();
    let report = search.search(&game, &Limits::none());
    assert_eq!(report.value, 1.0);
    assert_eq!(report.stats.stop, StopReason::Solved);
    let analysis = search.analysis().unwrap();
    let plies = analysis.score.plies_to_win().unwrap();
    // The fastest win: take the whole 3-heap to leave 1, 1 (two more
    // plies for the opponent and us): a win in 3 plies.
    assert_eq!(plies, 3, "{analysis:?}");
    assert_eq!(analysis.pv.len(), 3);
}

#[test]
fn bad_settings_are_refused_before_anything_is_allocated() {
    use pimc_alphabeta::MAX_TABLE_ENTRIES;
    let bad = [
        AlphaBetaConfig::default().with_threads(0),
        AlphaBetaConfig::default().with_table_entries(MAX_TABLE_ENTRIES + 1),
        AlphaBetaConfig::default().with_table_entries(usize::MAX),
        AlphaBetaConfig::default().with_aspiration_window(Some(f32::NAN)),
        AlphaBetaConfig::default().with_aspiration_window(Some(0.0)),
        AlphaBetaConfig::default().with_root_values(RootValues::Near(f32::INFINITY)),
        AlphaBetaConfig::default().with_default_nodes(0),
    ];
    for config in bad {
        let error = config.validate().unwrap_err();
        let searcher = AlphaBeta::<TicTacToe, _>::new(OutcomeEvaluator, config);
        assert_eq!(
            searcher.err().map(|error| error.to_string()),
            Some(error.to_string())
        );
    }
    AlphaBetaConfig::default()
        .with_table_entries(MAX_TABLE_ENTRIES)
        .validate()
        .unwrap();
}
