//! The `Limits` contract on both searchers, and regression tests for the
//! ways they used to break it: a time limit that stopped at the default
//! budget, a value that was the root mean, NaN from evaluators, unbounded
//! memory and default budgets.

use std::time::Duration;

use bitboard_othello::{Board, HeuristicPolicy};
use game_traits::testing::{
    ContractOptions, Endless, Nim, TicTacToe, TicTacToeHeuristic, check_limits_contract,
    check_tactics, tactical_cases,
};
use game_traits::{
    ActionSpace, FnEvaluator, Limits, PolicyEvaluator, Searcher, StopReason, UniformPrior,
};
use gumbel_az::{GumbelAz, GumbelConfig, MIN_TREE_BYTES, Puct, PuctConfig};

type Heuristic = UniformPrior<TicTacToeHeuristic>;

fn gumbel<G: ActionSpace, E: PolicyEvaluator<G>>(evaluator: E) -> GumbelAz<G, E> {
    GumbelAz::new(evaluator, GumbelConfig::for_play().with_seed(5)).unwrap()
}

#[test]
fn gumbel_and_puct_keep_the_contract_on_the_toy_games() {
    let options = ContractOptions::default();
    let evaluator: Heuristic = UniformPrior(TicTacToeHeuristic);
    check_limits_contract(|| gumbel(evaluator), &TicTacToe::new(), &options).unwrap();
    check_limits_contract(
        || Puct::with_defaults(evaluator),
        &TicTacToe::new(),
        &options,
    )
    .unwrap();
    let nim = Nim::with_extra_turns(&[3, 2, 2]);
    let outcome_only = UniformPrior(game_traits::OutcomeEvaluator);
    check_limits_contract(|| gumbel(outcome_only), &nim, &options).unwrap();
    check_limits_contract(|| Puct::with_defaults(outcome_only), &nim, &options).unwrap();
}

#[test]
fn gumbel_and_puct_keep_the_contract_on_othello() {
    let options = ContractOptions::default();
    check_limits_contract(
        || gumbel(HeuristicPolicy::default()),
        &Board::start(),
        &options,
    )
    .unwrap();
    check_limits_contract(
        || Puct::with_defaults(HeuristicPolicy::default()),
        &Board::start(),
        &options,
    )
    .unwrap();
}

#[test]
fn the_value_is_that_of_the_move_played() {
    // Win-in-one positions for both players: the root mean mixes in the
    // forced visits to other moves, the move's own value is a win.
    let evaluator: Heuristic = UniformPrior(TicTacToeHeuristic);
    let cases: Vec<_> = tactical_cases(&TicTacToe::new(), 1, 4, 3)
        .into_iter()
        .filter(|case| case.tactic == game_traits::testing::Tactic::Win)
        .collect();
    assert!(cases.len() >= 4);
    let limits = Limits::iterations(64);
    check_tactics(&mut gumbel(evaluator), &cases, &limits).unwrap();
    check_tactics(&mut Puct::with_defaults(evaluator), &cases, &limits).unwrap();
    let won: TicTacToe = "xx.oo.... x".parse().unwrap();
    for report in [
        gumbel(evaluator).search(&won, &limits),
        Puct::with_defaults(evaluator).search(&won, &limits),
    ] {
        assert_eq!(report.best, Some(2));
        assert_eq!(report.value, 1.0);
    }
}

#[test]
fn a_time_limit_alone_searches_past_the_default_budget() {
    let evaluator = HeuristicPolicy::default();
    let report =
        gumbel(evaluator).search(&Board::start(), &Limits::time(Duration::from_millis(100)));
    assert_eq!(report.stats.stop, StopReason::Time);
    assert!(report.stats.iterations > 4 * 64, "{:?}", report.stats);
}

#[test]
fn unbounded_default_budgets_are_refused() {
    for simulations in [0, u64::MAX, gumbel_az::MAX_DEFAULT_SIMULATIONS + 1] {
        let config = PuctConfig::default().with_default_simulations(simulations);
        assert!(config.validate().is_err(), "{simulations}");
        let config = GumbelConfig::default().with_default_simulations(simulations);
        assert!(config.validate().is_err(), "{simulations}");
    }
    assert!(
        PuctConfig::default()
            .with_max_tree_bytes(MIN_TREE_BYTES - 1)
            .validate()
            .is_err()
    );
}

#[test]
fn non_finite_evaluations_are_contained() {
    struct Broken(f32);
    impl PolicyEvaluator<TicTacToe> for Broken {
        fn evaluate(&self, _: &TicTacToe, _: &[u8], logits: &mut [f32]) -> f32 {
            logits.fill(self.0);
            if let Some(first) = logits.first_mut() {
                *first = f32::NAN;
            }
            self.0
        }
    }
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.0e30] {
        for report in [
            GumbelAz::new(Broken(bad), GumbelConfig::default())
                .unwrap()
                .search(&TicTacToe::new(), &Limits::iterations(100)),
            Puct::with_defaults(Broken(bad)).search(&TicTacToe::new(), &Limits::iterations(100)),
        ] {
            assert!(
                report.value.is_finite() && report.value.abs() <= 1.0,
                "{bad}"
            );
            for info in &report.moves {
                assert!(info.value.is_none_or(|v| v.is_finite() && v.abs() <= 1.0));
                assert!(info.prior.is_none_or(f32::is_finite));
                assert!(info.policy.is_none_or(f32::is_finite));
            }
        }
    }
}

#[test]
fn a_time_only_search_stays_under_the_memory_cap() {
    let cap = 1 << 18;
    let evaluator = UniformPrior(FnEvaluator::new(|_: &Endless| 0.0));
    let limits = Limits::time(Duration::from_millis(300));
    let mut puct = Puct::new(
        evaluator.clone(),
        PuctConfig::default().with_max_tree_bytes(cap),
    )
    .unwrap();
    let report = puct.search(&Endless::new(8), &limits);
    assert_eq!(report.stats.stop, StopReason::Time);
    // The tree filled up long before the time ran out.
    assert!(report.stats.iterations as usize > 2 * puct.tree_nodes());
    assert!(puct.memory_bytes() <= cap, "{}", puct.memory_bytes());
    let mut gumbel =
        GumbelAz::new(evaluator, GumbelConfig::for_play().with_max_tree_bytes(cap)).unwrap();
    let report = gumbel.search(&Endless::new(8), &limits);
    assert_eq!(report.stats.stop, StopReason::Time);
    assert!(report.stats.iterations as usize > 2 * gumbel.tree_nodes());
    assert!(gumbel.memory_bytes() <= cap, "{}", gumbel.memory_bytes());
}
