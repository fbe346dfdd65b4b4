//! The `Limits` contract (game-traits' `check_limits_contract`) on the
//! tactical layer in front of each kind of searcher, on 15x15 and on a
//! small board (where positions with one legal move and draws turn up),
//! and reproducibility: same seed and budget, same report.

use std::time::Duration;

use game_traits::testing::{
    ContractOptions, check_limits_contract, check_repeatable, random_positions,
};
use game_traits::{Limits, RandomSearcher};
use gomoku_renju::{
    Focused, Gomoku, OnFocused, PatternEvaluator, PatternPolicy, Rule, TacticalConfig,
    TacticalSearcher, ThreatPlayout,
};
use gumbel_az::{Puct, PuctConfig};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge, Uct};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};

fn options() -> ContractOptions {
    ContractOptions::default().with_hang(Duration::from_secs(60))
}

/// The positions of the contract: the empty 15x15 board, and a 7x7 board
/// under renju (full boards, forced passes).
fn starts() -> Vec<Gomoku> {
    vec![
        Gomoku::new(),
        Gomoku::with_size(7, Rule::Renju).unwrap(),
        Gomoku::with_size(7, Rule::Freestyle).unwrap(),
    ]
}

fn uct() -> TacticalSearcher<OnFocused<Mcts<Focused, Uct, ThreatPlayout, PatternEvaluator>>> {
    let inner = Mcts::new(
        MctsKnowledge::uct()
            .with_playout(ThreatPlayout)
            .with_evaluator(PatternEvaluator::default()),
        MctsConfig::default().with_seed(3),
    )
    .unwrap();
    TacticalSearcher::new(OnFocused(inner), TacticalConfig::default()).unwrap()
}

fn puct() -> TacticalSearcher<OnFocused<Puct<Focused, PatternPolicy>>> {
    let inner = Puct::new(PatternPolicy::default(), PuctConfig::default().with_seed(3)).unwrap();
    TacticalSearcher::new(OnFocused(inner), TacticalConfig::default()).unwrap()
}

fn alpha_beta() -> TacticalSearcher<OnFocused<AlphaBeta<Focused, PatternEvaluator>>> {
    // A small table and default budget keep the unlimited search short in
    // debug builds.
    let config = AlphaBetaConfig::default()
        .with_table_entries(1 << 12)
        .with_default_nodes(20_000);
    let inner = AlphaBeta::new(PatternEvaluator::default(), config).unwrap();
    TacticalSearcher::new(OnFocused(inner), TacticalConfig::default()).unwrap()
}

#[test]
fn the_tactical_layer_keeps_the_contract_with_mcts() {
    for (seed, start) in starts().iter().enumerate() {
        check_limits_contract(uct, start, &options().with_seed(seed as u64)).unwrap();
    }
}

#[test]
fn the_tactical_layer_keeps_the_contract_with_puct() {
    for (seed, start) in starts().iter().enumerate() {
        check_limits_contract(puct, start, &options().with_seed(seed as u64)).unwrap();
    }
}

#[test]
fn the_tactical_layer_keeps_the_contract_with_alpha_beta() {
    for (seed, start) in starts().iter().enumerate() {
        check_limits_contract(alpha_beta, start, &options().with_seed(seed as u64)).unwrap();
    }
}

#[test]
fn the_tactical_layer_keeps_the_contract_on_the_full_board() {
    for (seed, start) in starts().iter().enumerate() {
        check_limits_contract(
            || TacticalSearcher::new(RandomSearcher::new(5), TacticalConfig::default()).unwrap(),
            start,
            &options().with_seed(seed as u64),
        )
        .unwrap();
    }
}

#[test]
fn the_tactical_layer_is_repeatable() {
    let positions = random_positions(&Gomoku::new(), 6, 4);
    check_repeatable(uct, &positions, &Limits::iterations(200)).unwrap();
    check_repeatable(puct, &positions, &Limits::iterations(50)).unwrap();
    check_repeatable(alpha_beta, &positions, &Limits::depth(2)).unwrap();
    check_repeatable(alpha_beta, &positions, &Limits::nodes(3_000)).unwrap();
}
