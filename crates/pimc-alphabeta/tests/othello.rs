//! Othello: alpha-beta with the outcome as its only evaluation solves
//! endgames as `bitboard-othello`'s exact solver does, and the table and
//! move ordering cut the nodes of a depth-8 search at least threefold, and
//! two threads find the values one thread finds.
//!

#[path = "../benches/positions.rs"]
mod positions;

use bitboard_othello::{Board, HeuristicEvaluator, solve_wld};
use game_traits::{Game, Limits, OutcomeEvaluator, Searcher, StopReason};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// `count` positions from seeded random games, with 4 to `max_empties`
/// empty squares (evenly spread), none finished.
fn endgames(count: usize, max_empties: u32, seed: u64) -> Vec<Board> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    while positions.len() < count {
        let empties = 4 + positions.len() as u32 % (max_empties - 3);
        let mut board = Board::start();
        while board.empty_count() > empties && !board.is_over() {
            board.legal_moves(&mut moves);
            board.play(moves[rng.random_range(..moves.len())]);
        }
        if !board.is_over() {
            positions.push(board);
        }
    }
    positions
}

fn check_endgames(count: usize, max_empties: u32, seed: u64) {
    let solver_config = AlphaBetaConfig::default().with_default_nodes(u64::MAX);
    for (index, board) in endgames(count, max_empties, seed).iter().enumerate() {
        let mut search = AlphaBeta::new(OutcomeEvaluator, solver_config.clone()).unwrap();
        let report = search.search(board, &Limits::none());
        assert_eq!(report.stats.stop, StopReason::Solved, "position {index}");
        let expected = solve_wld(board).result.value();
        assert_eq!(
            report.value,
            expected,
            "position {index} ({} empties): {board}",
            board.empty_count()
        );
        // The move keeps the result.
        let mut child = board.clone();
        child.play(report.best.unwrap());
        let after = solve_wld(&child).result.value();
        let kept = if child.to_move() == board.to_move() {
            after
        } else {
            -after
        };
        assert_eq!(
            kept, expected,
            "position {index}: the move loses the result"
        );
    }
}

#[test]
fn endgames_up_to_fourteen_empties_agree_with_the_solver() {
    check_endgames(200, 14, 2);
}

/// Nodes of depth-8 searches under `config` on the eight mid-games, each
/// with a fresh searcher (every search reaching depth 8 with a legal move).
fn depth_8_nodes(config: AlphaBetaConfig) -> u64 {
    positions::othello_eight()
        .iter()
        .map(|board| {
            let mut search = AlphaBeta::new(HeuristicEvaluator::default(), config.clone()).unwrap();
            let report = search.search(board, &Limits::depth(8));
            assert_eq!(report.stats.depth, 8);
            assert!(board.is_legal(report.best.unwrap()));
            report.stats.nodes
        })
        .sum()
}

#[test]
fn table_and_ordering_cut_the_nodes_threefold_at_depth_8() {
    let plain = depth_8_nodes(AlphaBetaConfig::plain());
    let ordered = depth_8_nodes(
        AlphaBetaConfig::plain()
            .with_table_entries(1 << 20)
            .with_killer_moves(true)
            .with_history_heuristic(true),
    );
    let full = depth_8_nodes(AlphaBetaConfig::default());
    println!(
        "depth 8 on 8 mid-games: plain {plain} nodes, table and ordering {ordered}, all enhancements {full}"
    );
    assert!(
        plain >= 3 * ordered,
        "plain {plain} nodes, with table and ordering {ordered}"
    );
    assert!(
        full <= ordered,
        "PVS and aspiration add nodes: {full} > {ordered}"
    );
}

#[test]
fn late_move_reductions_search_depth_8_in_a_fraction_of_the_nodes() {
    let full = depth_8_nodes(AlphaBetaConfig::default());
    let reduced = depth_8_nodes(AlphaBetaConfig::default().with_late_move_reductions(true));
    println!("depth 8 on 8 mid-games: {full} nodes, {reduced} with late move reductions");
    assert!(
        2 * reduced <= full,
        "late move reductions: {reduced} nodes against {full}"
    );
}

#[test]
fn two_threads_find_the_values_of_one_at_depth_8() {
    // Deep enough for the second thread to join (a search starts alone)
    // and for the threads to share busy positions and put moves off:
    // whatever order the threads search in, the value is exact.
    for board in positions::othello_eight() {
        let search = |threads: usize| {
            let mut search = AlphaBeta::new(
                HeuristicEvaluator::default(),
                AlphaBetaConfig::default().with_threads(threads),
            )
            .unwrap();
            let report = search.search(&board, &Limits::depth(8));
            assert_eq!(report.stats.depth, 8);
            assert!(report.best.is_some_and(|mv| board.is_legal(mv)));
            report.value
        };
        let one = search(1);
        for _ in 0..2 {
            assert_eq!(search(2), one, "{board}");
        }
    }
}

#[test]
fn a_table_from_depth_two_changes_the_work_but_no_value() {
    let mut nodes = [0u64; 2];
    for board in positions::othello_eight() {
        let values: Vec<f32> = [1, 2]
            .into_iter()
            .zip(nodes.iter_mut())
            .map(|(from_depth, nodes)| {
                let mut search = AlphaBeta::new(
                    HeuristicEvaluator::default(),
                    AlphaBetaConfig::default().with_table_from_depth(from_depth),
                )
                .unwrap();
                let report = search.search(&board, &Limits::depth(7));
                assert_eq!(report.stats.depth, 7);
                *nodes += report.stats.nodes;
                report.value
            })
            .collect();
        assert_eq!(values[0], values[1], "{board}");
    }
    assert_ne!(nodes[0], nodes[1], "the setting is not used");
}
