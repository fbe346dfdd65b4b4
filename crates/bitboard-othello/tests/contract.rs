//! The `Limits` contract on the endgame solver, and the settings that used
//! to hang, panic or abort it.

use std::time::Duration;

use bitboard_othello::{Board, ConfigError, SolveMode, Solver, SolverConfig};
use game_traits::testing::{ContractOptions, check_limits_contract};
use game_traits::{Game, Limits, Searcher, StopReason};
use rand::{RngExt, SeedableRng};

/// A position with `empties` empty squares, from a seeded random game.
fn endgame(empties: u32, seed: u64) -> Board {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    loop {
        let mut board = Board::start();
        let mut moves = Vec::new();
        while board.empty_count() > empties && !board.is_over() {
            board.legal_moves(&mut moves);
            board.play(moves[rng.random_range(..moves.len())]);
        }
        if !board.is_over() {
            return board;
        }
    }
}

#[test]
fn the_solver_keeps_the_contract() {
    let options = ContractOptions::default();
    check_limits_contract(Solver::default, &endgame(12, 1), &options).unwrap();
    let wld = || Solver::new(SolverConfig::default().with_mode(SolveMode::WinLossDraw)).unwrap();
    check_limits_contract(wld, &endgame(14, 2), &options).unwrap();
}

#[test]
fn a_huge_time_limit_saturates() {
    let board = endgame(10, 3);
    let report = Solver::default().search(&board, &Limits::time(Duration::MAX));
    assert_eq!(report.stats.stop, StopReason::Solved);
    assert!(report.best.is_some());
}

#[test]
fn limits_that_cut_the_solve_short_say_so() {
    let board = endgame(24, 4);
    let report = Solver::default().search(&board, &Limits::nodes(10_000));
    assert_eq!(report.stats.stop, StopReason::Nodes);
    // The limit is looked at before every subtree of six empty squares or
    // more, so the count runs past it by at most one such subtree (a few
    // hundred positions at worst, well within the testing kit's slack).
    let slack = ContractOptions::default().node_slack;
    assert!(
        report.stats.nodes <= 10_000 + slack,
        "{}",
        report.stats.nodes
    );
    assert_eq!(report.value, 0.0);
    let report = Solver::default().search(&board, &Limits::time(Duration::from_millis(20)));
    assert_eq!(report.stats.stop, StopReason::Time);
    assert!(board.is_legal(report.best.unwrap()));
}

#[test]
fn table_sizes_are_checked_before_allocating() {
    for bits in [0, 3, 29, 64, u32::MAX] {
        let error = Solver::new(SolverConfig::default().with_table_bits(bits)).unwrap_err();
        assert!(matches!(error, ConfigError::Range(_)), "{bits}: {error}");
        assert!(
            error.to_string().contains("table_bits") && error.to_string().contains("4 to 28"),
            "{error}"
        );
    }
    assert!(Solver::new(SolverConfig::default().with_table_bits(10)).is_ok());
}

#[test]
fn thread_counts_are_checked() {
    for threads in [0, Solver::MAX_THREADS + 1] {
        let error = Solver::new(SolverConfig::default().with_threads(threads)).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("threads = {threads} is out of range: expected 1 to 64")
        );
    }
    let solver = Solver::new(SolverConfig::default().with_threads(Solver::MAX_THREADS)).unwrap();
    assert_eq!(solver.config().threads, Solver::MAX_THREADS);
}
