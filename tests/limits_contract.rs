//! Every searcher of the workspace against the `Limits` contract of
//! `game-traits`, on the real games: Othello and Jungle. (Each crate checks
//! its own searchers on the toy games; the brute-force `MinimaxSearcher`
//! of the test kit is meant for them only.)

use bitboard_othello::{Board, CornerFirstPlayout, HeuristicPolicy, PositionalEvaluator, Solver};
use dou_shou_qi::{Jungle, JungleEvaluator, JunglePlayout};
use game_traits::testing::{ContractOptions, check_limits_contract};
use game_traits::{GreedySearcher, Handover, RandomSearcher, UniformPrior};
use gumbel_az::{GumbelAz, GumbelConfig, Puct};
use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Rave, same_hash};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};

#[test]
fn every_searcher_keeps_the_contract_on_othello() {
    let options = ContractOptions::default();
    let start = Board::start();
    let threads = |threads| MctsConfig::default().with_threads(threads).with_seed(2);
    for count in [1, 2] {
        check_limits_contract(
            || {
                Mcts::new(
                    MctsKnowledge::uct().with_playout(CornerFirstPlayout::default()),
                    threads(count),
                )
                .unwrap()
                .with_root_check(same_hash)
            },
            &start,
            &options,
        )
        .unwrap();
    }
    check_limits_contract(
        || {
            Mcts::new(
                MctsKnowledge::rave(Rave::new()).with_evaluator(PositionalEvaluator),
                threads(1).with_leaf(LeafEvaluation::Evaluator),
            )
            .unwrap()
        },
        &start,
        &options,
    )
    .unwrap();
    check_limits_contract(
        || GumbelAz::new(HeuristicPolicy::default(), GumbelConfig::for_play()).unwrap(),
        &start,
        &options,
    )
    .unwrap();
    check_limits_contract(
        || Puct::with_defaults(HeuristicPolicy::default()),
        &start,
        &options,
    )
    .unwrap();
    for count in [1, 2] {
        check_limits_contract(
            || {
                AlphaBeta::new(
                    PositionalEvaluator,
                    AlphaBetaConfig::default().with_threads(count),
                )
                .unwrap()
            },
            &start,
            &options,
        )
        .unwrap();
    }
    check_limits_contract(|| RandomSearcher::new(1), &start, &options).unwrap();
    check_limits_contract(
        || GreedySearcher::new(PositionalEvaluator),
        &start,
        &options,
    )
    .unwrap();
    // MCTS before the last 12 empty squares, the exact solver after: on
    // the start position and on one where the solver takes over.
    let handover = || {
        Handover::new(
            Mcts::new(MctsKnowledge::uct(), threads(1))
                .unwrap()
                .with_root_check(same_hash),
            Solver::default(),
            |board: &Board| board.empty_count() <= 12,
        )
    };
    check_limits_contract(handover, &start, &options).unwrap();
    let late: Board = "XXXXXXXXXXXXXXXXXOXXXXXXXXOOOXXXXXOOXX--XXOXX---XXXXXX--XXXXX--- X"
        .parse()
        .unwrap();
    check_limits_contract(handover, &late, &options).unwrap();
    check_limits_contract(Solver::default, &late, &options).unwrap();
}

#[test]
fn every_searcher_keeps_the_contract_on_jungle() {
    let options = ContractOptions::default();
    let start = Jungle::default();
    for leaf in [
        LeafEvaluation::Playout,
        LeafEvaluation::PlayoutCutoff { depth: 20 },
    ] {
        let config = MctsConfig::default().with_leaf(leaf).with_seed(4);
        check_limits_contract(
            || {
                Mcts::new(
                    MctsKnowledge::rave(Rave::new()).with_playout(JunglePlayout::default()),
                    config.clone(),
                )
                .unwrap()
                .with_root_check(same_hash)
            },
            &start,
            &options,
        )
        .unwrap();
    }
    let policy = UniformPrior(JungleEvaluator::default());
    check_limits_contract(
        || GumbelAz::new(policy, GumbelConfig::for_play()).unwrap(),
        &start,
        &options,
    )
    .unwrap();
    check_limits_contract(|| Puct::with_defaults(policy), &start, &options).unwrap();
    for count in [1, 2] {
        check_limits_contract(
            || {
                AlphaBeta::new(
                    JungleEvaluator::default(),
                    AlphaBetaConfig::default().with_threads(count),
                )
                .unwrap()
            },
            &start,
            &options,
        )
        .unwrap();
    }
    check_limits_contract(|| RandomSearcher::new(2), &start, &options).unwrap();
    check_limits_contract(
        || GreedySearcher::new(JungleEvaluator::default()),
        &start,
        &options,
    )
    .unwrap();
}
