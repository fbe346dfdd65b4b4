//! The `Limits` contract check: the reference searchers keep it, and a
//! searcher broken in any one way is caught.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use game_traits::testing::{
    ContractOptions, MinimaxSearcher, Nim, TicTacToe, check_limits_contract, check_repeatable,
    contract_positions, random_positions,
};
use game_traits::{
    Game, GreedySearcher, LimitKind, Limits, MoveInfo, OutcomeEvaluator, RandomSearcher,
    SearchReport, SearchStats, Searcher, StopReason,
};

fn quick() -> ContractOptions {
    ContractOptions::default().with_hang(Duration::from_secs(3))
}

#[test]
fn contract_positions_cover_one_move_and_finished_positions() {
    let positions = contract_positions(&TicTacToe::new(), 0);
    assert_eq!(positions.len(), 3);
    let mut moves = Vec::new();
    positions[1].1.legal_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert!(positions[2].1.is_over());
}

#[test]
fn reference_searchers_keep_the_contract() {
    check_limits_contract(MinimaxSearcher::new, &TicTacToe::new(), &quick()).unwrap();
    check_limits_contract(
        MinimaxSearcher::new,
        &Nim::with_extra_turns(&[3, 2, 2]),
        &quick(),
    )
    .unwrap();
    check_limits_contract(|| RandomSearcher::new(3), &TicTacToe::new(), &quick()).unwrap();
    check_limits_contract(
        || GreedySearcher::new(OutcomeEvaluator),
        &Nim::new(&[2, 3]),
        &quick(),
    )
    .unwrap();
}

#[test]
fn minimax_searcher_stops_on_its_limits() {
    // The whole tic-tac-toe tree is about 550,000 nodes.
    let report = MinimaxSearcher::new().search(&TicTacToe::new(), &Limits::nodes(1_000));
    assert_eq!(report.stats.stop, StopReason::Nodes);
    assert!(report.stats.nodes <= 1_000);
    let stop = Arc::new(AtomicBool::new(true));
    let report = MinimaxSearcher::new().search(&TicTacToe::new(), &Limits::none().with_stop(stop));
    assert_eq!(report.stats.stop, StopReason::Stopped);
    assert!(report.best.is_some());
    let report = MinimaxSearcher::new().search(&TicTacToe::new(), &Limits::none());
    assert_eq!(report.stats.stop, StopReason::Solved);
    assert_eq!(report.value, 0.0);
}

/// A searcher that burns iterations until its limits say stop, with one
/// way of being wrong switched on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flaw {
    None,
    IgnoresTime,
    IgnoresIterations,
    IgnoresNodes,
    IgnoresDepth,
    IgnoresStopFlag,
    OverflowsOnHugeTime,
    ReportsTheRootMean,
    NoStopReason,
    NoDefaultBudget,
}

struct Looper {
    flaw: Flaw,
    /// Ends runaway searches once the test has its verdict.
    abort: Arc<AtomicBool>,
}

impl<G: Game> Searcher<G> for Looper {
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        let budget = limits.start();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return SearchReport::game_over(state, budget.elapsed());
        }
        if self.flaw == Flaw::OverflowsOnHugeTime
            && let Some(time) = limits.time
        {
            let _deadline = budget.started() + time;
        }
        let flaw = self.flaw;
        let honoured = |kind: LimitKind| {
            !matches!(
                (flaw, kind),
                (Flaw::IgnoresTime, LimitKind::Time)
                    | (Flaw::IgnoresIterations, LimitKind::Iterations)
                    | (Flaw::IgnoresNodes, LimitKind::Nodes)
                    | (Flaw::IgnoresDepth, LimitKind::Depth)
            )
        };
        let default_budget = flaw != Flaw::NoDefaultBudget && limits.uses_default_budget(|_| true);
        let (mut iterations, mut depth) = (0_u64, 0_u32);
        let stop = loop {
            if self.abort.load(Ordering::Relaxed) {
                break StopReason::Stopped;
            }
            if default_budget && iterations >= 1_000 {
                break StopReason::DefaultBudget;
            }
            if honoured(LimitKind::Depth) && limits.depth.is_some_and(|max| depth >= max) {
                break StopReason::Depth;
            }
            let reason = if flaw == Flaw::IgnoresStopFlag && limits.stop_requested() {
                None
            } else {
                budget.stop_reason(iterations, iterations)
            };
            match reason {
                Some(StopReason::Time) if !honoured(LimitKind::Time) => {}
                Some(StopReason::Iterations) if !honoured(LimitKind::Iterations) => {}
                Some(StopReason::Nodes) if !honoured(LimitKind::Nodes) => {}
                Some(reason) => break reason,
                None => {}
            }
            iterations += 1;
            // Deepens like iterative deepening: each level costs double.
            depth = iterations.ilog2();
            std::hint::black_box(iterations);
        };
        let best = moves[0];
        let value = if flaw == Flaw::ReportsTheRootMean {
            0.25
        } else {
            0.5
        };
        let stop = if flaw == Flaw::NoStopReason {
            StopReason::Unknown
        } else {
            stop
        };
        SearchReport::new(Some(best), value)
            .with_pv(vec![best])
            .with_moves(vec![MoveInfo::new(best).with_value(0.5)])
            .with_stats(
                SearchStats::new(iterations, iterations, depth, budget.elapsed()).with_stop(stop),
            )
    }
}

fn check_looper(flaw: Flaw) -> Result<(), String> {
    let abort = Arc::new(AtomicBool::new(false));
    let make = {
        let abort = Arc::clone(&abort);
        move || Looper {
            flaw,
            abort: Arc::clone(&abort),
        }
    };
    // A broken searcher's runaway search is judged hung after one second.
    let options = ContractOptions::default().with_hang(Duration::from_secs(1));
    let result = check_limits_contract(make, &TicTacToe::new(), &options);
    abort.store(true, Ordering::Relaxed);
    result.map_err(|failure| failure.to_string())
}

#[test]
fn a_sound_looper_keeps_the_contract() {
    check_looper(Flaw::None).unwrap();
}

#[test]
fn each_broken_looper_is_caught() {
    for (flaw, expected) in [
        (Flaw::IgnoresTime, "time"),
        (Flaw::IgnoresIterations, "iterations"),
        (Flaw::IgnoresNodes, "nodes"),
        (Flaw::IgnoresDepth, "depth"),
        (Flaw::IgnoresStopFlag, "stop flag"),
        (Flaw::OverflowsOnHugeTime, "panicked"),
        (Flaw::ReportsTheRootMean, "for the move returned"),
        (Flaw::NoStopReason, "stop reason"),
        (Flaw::NoDefaultBudget, "did not end"),
    ] {
        let error = check_looper(flaw).expect_err(&format!("{flaw:?} must fail"));
        assert!(error.contains(expected), "{flaw:?}: {error}");
    }
}

#[test]
fn repeatability_is_checked() {
    let positions = random_positions(&TicTacToe::new(), 10, 1);
    check_repeatable(
        || RandomSearcher::new(5),
        &positions,
        &Limits::iterations(10),
    )
    .unwrap();
    let mut seed = 0;
    let error = check_repeatable(
        || {
            seed += 1;
            RandomSearcher::new(seed)
        },
        &positions,
        &Limits::iterations(10),
    )
    .unwrap_err();
    assert_eq!(error.check, "repeatable");
}
