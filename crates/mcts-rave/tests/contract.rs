//! The `Limits` contract on every configuration of the searcher, and
//! regression tests for the ways it used to break it: no hang under any
//! single limit, a memory cap that holds, contained evaluator values.

use std::time::{Duration, Instant};

use bitboard_othello::{Board, RandomPlayout};
use game_traits::testing::{
    ContractOptions, Endless, Nim, TicTacToe, TicTacToeHeuristic, check_limits_contract,
};
use game_traits::{FnEvaluator, Game, Limits, Searcher, StopReason};
use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Rave, same_hash};

fn uct(threads: usize) -> Mcts<TicTacToe> {
    Mcts::new(
        MctsKnowledge::uct(),
        MctsConfig::default().with_threads(threads).with_seed(3),
    )
    .unwrap()
}

#[test]
fn uct_and_rave_keep_the_contract_on_the_toy_games() {
    let options = ContractOptions::default();
    for threads in [1, 2] {
        check_limits_contract(|| uct(threads), &TicTacToe::new(), &options).unwrap();
        let config = MctsConfig::default().with_threads(threads);
        check_limits_contract(
            || Mcts::new(MctsKnowledge::rave(Rave::new()), config.clone()).unwrap(),
            &TicTacToe::new(),
            &options,
        )
        .unwrap();
        check_limits_contract(
            || Mcts::new(MctsKnowledge::uct(), config.clone()).unwrap(),
            &Nim::with_extra_turns(&[3, 2, 2]),
            &options,
        )
        .unwrap();
    }
    let leaf = MctsConfig::default().with_leaf(LeafEvaluation::Evaluator);
    check_limits_contract(
        || {
            Mcts::new(
                MctsKnowledge::uct().with_evaluator(TicTacToeHeuristic),
                leaf.clone().with_leaf(LeafEvaluation::Evaluator),
            )
            .unwrap()
        },
        &TicTacToe::new(),
        &options,
    )
    .unwrap();
}

#[test]
fn uct_and_rave_keep_the_contract_on_othello() {
    let options = ContractOptions::default();
    for threads in [1, 2] {
        let config = MctsConfig::default().with_threads(threads);
        check_limits_contract(
            || {
                Mcts::new(
                    MctsKnowledge::rave(Rave::new()).with_playout(RandomPlayout),
                    config.clone(),
                )
                .unwrap()
                .with_root_check(same_hash)
            },
            &Board::start(),
            &options,
        )
        .unwrap();
    }
}

#[test]
fn a_depth_limit_alone_runs_the_default_budget() {
    let report = uct(1).search(&TicTacToe::new(), &Limits::depth(3));
    assert_eq!(report.stats.stop, StopReason::DefaultBudget);
    assert_eq!(report.stats.iterations, 10_000);
}

#[test]
fn a_node_limit_the_tree_cannot_reach_ends_when_the_tree_stops_growing() {
    // Tic-tac-toe's whole tree has fewer than 600,000 nodes, and UCT grows
    // it ever more slowly: the search ends once it stops growing.
    for threads in [1, 2] {
        let report = uct(threads).search(&TicTacToe::new(), &Limits::nodes(1_000_000));
        assert!(
            matches!(
                report.stats.stop,
                StopReason::Exhausted | StopReason::Solved
            ),
            "{:?}",
            report.stats
        );
        assert!(report.stats.nodes < 1_000_000);
        // Every first move draws.
        assert!(report.value.abs() < 0.5, "{}", report.value);
    }
}

#[test]
fn a_proven_root_ends_the_search() {
    // x wins at once on square 2.
    let position: TicTacToe = "xx.oo.... x".parse().unwrap();
    let report = uct(1).search(&position, &Limits::time(Duration::from_secs(60)));
    assert_eq!(report.best, Some(2));
    assert_eq!(report.value, 1.0);
    assert_eq!(report.stats.stop, StopReason::Solved);
    assert!(report.stats.elapsed < Duration::from_secs(5));
}

#[test]
fn tiny_node_limits_end_on_a_position_with_one_move() {
    let mut state = TicTacToe::new();
    for square in [0, 1, 2, 4, 3, 5, 7, 6] {
        state.play(square);
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    assert_eq!(moves, [8]);
    for nodes in [0, 1, 2] {
        let report = uct(1).search(&state, &Limits::nodes(nodes));
        assert_eq!(report.best, Some(8));
        assert!(matches!(
            report.stats.stop,
            StopReason::Nodes | StopReason::Solved
        ));
    }
}

#[test]
fn time_limits_saturate() {
    let report = uct(1).search(
        &TicTacToe::new(),
        &Limits::time(Duration::MAX).with_iterations(100),
    );
    assert_eq!(report.stats.iterations, 100);
    assert_eq!(report.stats.stop, StopReason::Iterations);
}

#[test]
fn with_evaluator_alone_uses_the_evaluator() {
    let always_won = FnEvaluator::new(|_: &TicTacToe| 1.0);
    let mut searcher = Mcts::new(
        MctsKnowledge::uct().with_evaluator(always_won),
        MctsConfig::default().with_leaf(LeafEvaluation::Evaluator),
    )
    .unwrap();
    assert_eq!(searcher.config().leaf, LeafEvaluation::Evaluator);
    // Every leaf is worth a win to its player to move, so a loss to the
    // mover of each root move: the playouts alone would give about 0.
    let report = searcher.search(&TicTacToe::new(), &Limits::iterations(9));
    assert!(report.moves.iter().all(|info| info.value == Some(-1.0)));
}

#[test]
fn non_finite_evaluators_are_contained() {
    for value in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1.0e9] {
        let evaluator = FnEvaluator::new(move |_: &TicTacToe| value);
        let mut searcher = Mcts::new(
            MctsKnowledge::uct().with_evaluator(evaluator),
            MctsConfig::default().with_leaf(LeafEvaluation::Evaluator),
        )
        .unwrap();
        let report = searcher.search(&TicTacToe::new(), &Limits::iterations(500));
        assert!(
            report.value.is_finite() && report.value.abs() <= 1.0,
            "{value}"
        );
        for info in &report.moves {
            let move_value = info.value.unwrap();
            assert!(move_value.is_finite() && move_value.abs() <= 1.0, "{value}");
        }
    }
}

#[test]
fn a_time_only_search_stays_under_the_memory_cap() {
    for (max_nodes, threads) in [(5_000, 1), (6_000, 2)] {
        let config = MctsConfig::default()
            .with_max_nodes(max_nodes)
            .with_threads(threads)
            .with_max_playout_plies(20);
        let mut searcher =
            Mcts::new(MctsKnowledge::rave(Rave::new()), config).unwrap_or_else(|_| unreachable!());
        let started = Instant::now();
        let report = searcher.search(&Endless::new(4), &Limits::time(Duration::from_millis(300)));
        assert_eq!(report.stats.stop, StopReason::Time);
        assert!(started.elapsed() < Duration::from_secs(5));
        // The tree filled up long before the time ran out.
        assert!(report.stats.iterations > 2 * max_nodes);
        assert!(searcher.tree_nodes() as u64 <= max_nodes);
        let bytes_per_node = mcts_rave::node_bytes::<u8>() + mcts_rave::AMAF_BYTES;
        assert!(searcher.memory_bytes() <= max_nodes as usize * bytes_per_node);
    }
}
