//! Differential tests: alpha-beta in every configuration returns exactly
//! the value of brute-force negamax (`game_traits::testing::minimax`) and a
//! move among its best, on random explicit trees and the toy games; and a
//! pruning rule broken on purpose makes these very tests fail.
//!
//! They live inside the crate because the broken rule is compiled only
//! into test builds.

use std::sync::Arc;

use game_traits::testing::{
    ExplicitTree, Nim, RandomTree, SearcherFailure, TicTacToe, TicTacToeHeuristic, TreeEvaluator,
    TreeGame, check_against_minimax, random_positions,
};
use game_traits::{Evaluator, Game, Limits, OutcomeEvaluator, PositionHash};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::{AlphaBeta, AlphaBetaConfig, RootValues};

/// Every combination of the switches that may change how the search runs
/// (table off, on at every node or from depth 3 up, principal variation
/// search, aspiration, ordering, root values, threads).
fn configurations() -> Vec<AlphaBetaConfig> {
    let mut configs = Vec::new();
    for (entries, from_depth) in [(0, 1), (1 << 10, 1), (1 << 10, 3)] {
        for bits in 0..16u32 {
            let on = |bit: u32| bits >> bit & 1 == 1;
            for root_values in [
                RootValues::Bounds,
                RootValues::Near(0.05),
                RootValues::Exact,
            ] {
                configs.push(
                    AlphaBetaConfig::default()
                        .with_table_entries(entries)
                        .with_table_from_depth(from_depth)
                        .with_principal_variation_search(on(0))
                        .with_aspiration_window(on(1).then_some(0.02))
                        .with_killer_moves(on(2))
                        .with_history_heuristic(on(2))
                        .with_root_values(root_values)
                        .with_threads(if on(3) { 2 } else { 1 }),
                );
            }
        }
    }
    configs
}

fn tree_hash(game: &TreeGame) -> u64 {
    game_traits::zobrist::mix64(u64::from(game.node_index()) + 1)
}

/// Random trees: small, with repeated players (extra turns) and noisy
/// evaluator values.
fn trees(count: u64, seed: u64) -> Vec<TreeGame> {
    let shape = RandomTree {
        max_depth: 7,
        same_player_probability: 0.2,
        ..RandomTree::default()
    };
    (0..count)
        .map(|index| {
            let mut rng = Pcg64Mcg::seed_from_u64(seed ^ index);
            Arc::new(ExplicitTree::random(&shape, &mut rng)).root()
        })
        .collect()
}

/// The failure with the configuration and limits that produced it.
fn annotate(
    mut failure: SearcherFailure,
    config: &AlphaBetaConfig,
    limits: &Limits,
) -> SearcherFailure {
    failure.detail = format!("{config:?}, {limits:?}: {}", failure.detail);
    failure
}

fn check_trees(broken: bool) -> Result<(), SearcherFailure> {
    let positions = trees(25, 1);
    for config in configurations() {
        for limits in [
            Limits::depth(1),
            Limits::depth(3),
            Limits::depth(4),
            Limits::none(),
        ] {
            let mut search = AlphaBeta::without_hash(TreeEvaluator, config.clone())
                .unwrap()
                .with_hash(tree_hash);
            search.broken_pruning = broken;
            search.together_from = 0;
            check_against_minimax(&mut search, &positions, &limits, &TreeEvaluator, 0.0)
                .map_err(|failure| annotate(failure, &config, &limits))?;
        }
    }
    Ok(())
}

fn check_game<G, E>(
    start: &G,
    positions: usize,
    evaluator: E,
    depths: &[Option<u32>],
    broken: bool,
) -> Result<(), SearcherFailure>
where
    G: PositionHash,
    E: Evaluator<G> + Clone,
{
    let positions = random_positions(start, positions, 7);
    for config in configurations() {
        for &depth in depths {
            let limits = depth.map_or(Limits::none(), Limits::depth);
            let mut search = AlphaBeta::new(evaluator.clone(), config.clone()).unwrap();
            search.broken_pruning = broken;
            search.together_from = 0;
            check_against_minimax(&mut search, &positions, &limits, &evaluator, 0.0)
                .map_err(|failure| annotate(failure, &config, &limits))?;
        }
    }
    Ok(())
}

#[test]
fn every_configuration_matches_negamax_on_random_trees() {
    check_trees(false).unwrap();
}

#[test]
fn every_configuration_matches_negamax_on_nim_with_extra_turns() {
    check_game(
        &Nim::with_extra_turns(&[3, 2, 2]),
        20,
        OutcomeEvaluator,
        &[Some(1), Some(2), Some(4), None],
        false,
    )
    .unwrap();
}

#[test]
fn every_configuration_matches_negamax_on_tic_tac_toe() {
    // Full depth from positions with few empty squares; a heuristic at
    // shallow depths from anywhere.
    let endgames: Vec<TicTacToe> = random_positions(&TicTacToe::new(), 60, 3)
        .into_iter()
        .filter(|position| (0..9).filter(|&s| position.stone(s).is_none()).count() <= 6)
        .take(12)
        .collect();
    assert!(endgames.len() >= 8);
    for config in configurations() {
        let mut search = AlphaBeta::new(OutcomeEvaluator, config.clone()).unwrap();
        search.together_from = 0;
        check_against_minimax(
            &mut search,
            &endgames,
            &Limits::none(),
            &OutcomeEvaluator,
            0.0,
        )
        .unwrap_or_else(|failure| panic!("{config:?}: {failure}"));
    }
    check_game(
        &TicTacToe::new(),
        12,
        TicTacToeHeuristic,
        &[Some(1), Some(2), Some(3)],
        false,
    )
    .unwrap();
}

#[test]
fn a_broken_pruning_rule_fails_the_differential_tests() {
    // The rule: stop trying moves at a node as soon as one reaches the
    // window's lower end (instead of its upper end). Alpha-beta with it
    // still finds plausible moves, but not the negamax value.
    let trees = check_trees(true).expect_err("broken pruning must be caught on trees");
    assert_eq!(trees.check, "minimax");
    let nim = check_game(
        &Nim::with_extra_turns(&[3, 2, 2]),
        20,
        OutcomeEvaluator,
        &[None],
        true,
    );
    let tic_tac_toe = check_game(&TicTacToe::new(), 12, TicTacToeHeuristic, &[Some(3)], true);
    assert!(
        nim.is_err() || tic_tac_toe.is_err(),
        "broken pruning must be caught on a toy game"
    );
}

#[test]
fn moves_put_off_as_busy_are_searched_later_and_keep_every_value_exact() {
    // Every move after the first at nodes deep enough is treated as being
    // searched by the other thread: all of them go to the end of their
    // node's list, and the values must not change.
    let positions = trees(25, 3);
    for config in configurations()
        .into_iter()
        .filter(|config| config.threads > 1 && config.table_entries > 0)
    {
        for limits in [Limits::depth(5), Limits::none()] {
            let mut search = AlphaBeta::without_hash(TreeEvaluator, config.clone())
                .unwrap()
                .with_hash(tree_hash);
            search.defer_all = true;
            search.together_from = 0;
            check_against_minimax(&mut search, &positions, &limits, &TreeEvaluator, 0.0)
                .unwrap_or_else(|failure| panic!("{}", annotate(failure, &config, &limits)));
        }
    }
}

#[test]
fn the_broken_rule_is_off_in_every_ordinary_search() {
    let search: AlphaBeta<TicTacToe, _> =
        AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap();
    assert!(!search.broken_pruning);
    assert!(!search.clone().broken_pruning);
    assert!(!search.defer_all);
    assert_eq!(search.together_from, crate::alphabeta::TOGETHER_FROM_NODES);
}

#[test]
fn exact_root_values_are_the_negamax_values_of_every_move() {
    for game in trees(20, 9) {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for depth in [2, 5] {
            let mut search = AlphaBeta::without_hash(
                TreeEvaluator,
                AlphaBetaConfig::default().with_root_values(RootValues::Exact),
            )
            .unwrap()
            .with_hash(tree_hash);
            let report = game_traits::Searcher::search(&mut search, &game, &Limits::depth(depth));
            assert_eq!(report.moves.len(), moves.len());
            for info in &report.moves {
                let exact =
                    game_traits::testing::child_value(&game, info.mv, Some(depth), &TreeEvaluator);
                assert_eq!(
                    info.value,
                    Some(exact),
                    "{game:?} depth {depth} move {}",
                    info.mv
                );
            }
            // Near mode: exact within the margin of the best, an upper
            // bound at least the margin below it elsewhere.
            let margin = 0.2;
            let mut near = AlphaBeta::without_hash(TreeEvaluator, AlphaBetaConfig::default())
                .unwrap()
                .with_hash(tree_hash)
                .with_root_values(RootValues::Near(margin));
            let report = game_traits::Searcher::search(&mut near, &game, &Limits::depth(depth));
            let reached = report.stats.depth;
            for info in &report.moves {
                let exact = game_traits::testing::child_value(
                    &game,
                    info.mv,
                    Some(reached),
                    &TreeEvaluator,
                );
                let value = info.value.unwrap();
                if exact > report.value - margin {
                    assert_eq!(value, exact, "{game:?} depth {reached} move {}", info.mv);
                } else {
                    assert!(value >= exact && value <= report.value - margin + 1e-6);
                }
            }
            // Bounds mode: the best exact, the others never below their
            // true value (at the depth reached: a proven win ends the
            // search early) nor above the best.
            let mut bounded = AlphaBeta::without_hash(TreeEvaluator, AlphaBetaConfig::default())
                .unwrap()
                .with_hash(tree_hash);
            let report = game_traits::Searcher::search(&mut bounded, &game, &Limits::depth(depth));
            let reached = report.stats.depth;
            for info in &report.moves {
                let exact = game_traits::testing::child_value(
                    &game,
                    info.mv,
                    Some(reached),
                    &TreeEvaluator,
                );
                let value = info.value.unwrap();
                if Some(info.mv) == report.best {
                    assert_eq!(value, exact);
                } else {
                    assert!(value >= exact && value <= report.value, "{value} {exact}");
                }
            }
        }
    }
}
