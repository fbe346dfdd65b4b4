//! Batched evaluation: leaves of one tree evaluated together (virtual
//! loss), and many searches sharing one batch per step.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bitboard_othello::{Board, HeuristicPolicy};
use game_traits::testing::{
    ContractOptions, Nim, TicTacToe, TicTacToeHeuristic, check_limits_contract, check_tactics,
    tactical_cases,
};
use game_traits::{
    Batch, BatchEvaluator, BatchedSearch, Game, Limits, SearchReport, Searcher, StopReason,
    UniformPrior, search_together,
};
use gumbel_az::{ConsideredVisits, GumbelAz, GumbelConfig, Puct, PuctConfig};

/// The heuristic policy, counting its calls and the positions it rates.
#[derive(Clone, Default)]
struct Counted {
    calls: Arc<AtomicUsize>,
    positions: Arc<AtomicUsize>,
}

impl BatchEvaluator<Board> for Counted {
    fn evaluate_batch(&self, batch: &mut Batch<Board>) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.positions.fetch_add(batch.len(), Ordering::Relaxed);
        HeuristicPolicy::default().evaluate_batch(batch);
    }
}

fn othello_positions(count: usize, plies: usize) -> Vec<Board> {
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for game in 0..count {
        let mut board = Board::start();
        for ply in 0..plies + game % 5 {
            board.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            board.play(moves[(ply * 7 + game * 3) % moves.len()]);
        }
        positions.push(board);
    }
    positions
}

fn legal(board: &Board) -> usize {
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    moves.len()
}

/// Everything but the time.
fn timeless<M: Clone>(report: &SearchReport<M>) -> SearchReport<M> {
    let mut report = report.clone();
    report.stats.elapsed = Duration::ZERO;
    report
}

#[test]
fn gumbel_batches_keep_the_sequential_halving_schedule() {
    for position in othello_positions(6, 12) {
        for (k, simulations) in [(16, 64), (4, 100), (8, 37)] {
            let visits = |batch_size: usize| {
                let config = GumbelConfig::for_play()
                    .with_max_considered_actions(k)
                    .with_batch_size(batch_size);
                let mut searcher = GumbelAz::new(HeuristicPolicy::default(), config).unwrap();
                let analysis = searcher.analyse(&position, &Limits::iterations(simulations));
                assert_eq!(analysis.report.stats.iterations, simulations);
                let mut visits: Vec<u32> = analysis
                    .visits
                    .iter()
                    .copied()
                    .filter(|&count| count > 0)
                    .collect();
                visits.sort_unstable();
                (visits, analysis.considered_visits)
            };
            // Which actions survive each halving may differ, but how many
            // visits each survivor gets is the schedule's.
            let (one, schedule) = visits(1);
            let planned: Vec<u32> =
                ConsideredVisits::new(k.min(legal(&position)), simulations).collect();
            assert_eq!(schedule, planned);
            for batch_size in [2, 8, 32] {
                let (batched, batched_schedule) = visits(batch_size);
                assert_eq!(one, batched, "batch {batch_size}, k {k}, {simulations}");
                assert_eq!(schedule, batched_schedule);
            }
        }
    }
}

#[test]
fn gumbel_batches_evaluate_fewer_times() {
    let position = othello_positions(1, 10).remove(0);
    for batch_size in [1, 8] {
        let evaluator = Counted::default();
        let config = GumbelConfig::for_play().with_batch_size(batch_size);
        let mut searcher = GumbelAz::new(evaluator.clone(), config).unwrap();
        let report = searcher.search(&position, &Limits::iterations(64));
        assert_eq!(report.stats.iterations, 64);
        let calls = evaluator.calls.load(Ordering::Relaxed);
        let positions = evaluator.positions.load(Ordering::Relaxed);
        // The root, then one call per batch (a batch that only reached
        // finished positions or shared leaves makes no call).
        assert!(calls <= 1 + 64usize.div_ceil(batch_size), "{calls}");
        assert!(positions <= 65);
        if batch_size == 8 {
            assert!(calls <= 9 && positions > 40, "{calls} calls, {positions}");
        }
    }
}

#[test]
fn puct_batches_spread_over_the_tree() {
    let position = othello_positions(1, 14).remove(0);
    for virtual_loss in [0, 1, 3] {
        let evaluator = Counted::default();
        let config = PuctConfig::default()
            .with_batch_size(8)
            .with_virtual_loss(virtual_loss);
        let mut searcher = Puct::new(evaluator.clone(), config).unwrap();
        let report = searcher.search(&position, &Limits::iterations(400));
        assert_eq!(report.stats.iterations, 400);
        let visits: u64 = report.moves.iter().map(|info| info.visits).sum();
        assert_eq!(visits, 400);
        let positions = evaluator.positions.load(Ordering::Relaxed);
        let calls = evaluator.calls.load(Ordering::Relaxed);
        assert!(calls <= 1 + 50, "{calls}");
        if virtual_loss == 0 {
            // Without virtual loss every simulation of a batch takes the
            // same path and they share one leaf.
            assert_eq!(positions, calls, "{virtual_loss}");
        } else {
            // With it they spread: (nearly) a new leaf each.
            assert!(positions >= 300, "{virtual_loss}: {positions}");
            assert_eq!(report.stats.nodes as usize, positions);
        }
    }
}

#[test]
fn batched_searchers_keep_the_contract_and_find_wins() {
    let options = ContractOptions::default();
    let policy = UniformPrior(TicTacToeHeuristic);
    check_limits_contract(
        || GumbelAz::new(policy, GumbelConfig::for_play().with_batch_size(8)).unwrap(),
        &TicTacToe::new(),
        &options,
    )
    .unwrap();
    check_limits_contract(
        || Puct::new(policy, PuctConfig::default().with_batch_size(8)).unwrap(),
        &TicTacToe::new(),
        &options,
    )
    .unwrap();
    check_limits_contract(
        || {
            Puct::new(
                UniformPrior(game_traits::OutcomeEvaluator),
                PuctConfig::default().with_batch_size(4),
            )
            .unwrap()
        },
        &Nim::with_extra_turns(&[3, 2, 2]),
        &options,
    )
    .unwrap();
    check_limits_contract(
        || {
            GumbelAz::new(
                HeuristicPolicy::default(),
                GumbelConfig::for_play().with_batch_size(16),
            )
            .unwrap()
        },
        &Board::start(),
        &options,
    )
    .unwrap();
    let wins = tactical_cases(&TicTacToe::new(), 1, 6, 3);
    let mut puct = Puct::new(policy, PuctConfig::default().with_batch_size(8)).unwrap();
    check_tactics(&mut puct, &wins, &Limits::iterations(400)).unwrap();
    let mut gumbel = GumbelAz::new(
        policy,
        GumbelConfig::for_play()
            .with_batch_size(8)
            .with_max_considered_actions(16),
    )
    .unwrap();
    check_tactics(&mut gumbel, &wins, &Limits::iterations(64)).unwrap();
}

#[test]
fn anytime_gumbel_completes_whole_rounds_in_batches() {
    let position = othello_positions(1, 16).remove(0);
    let config = GumbelConfig::for_play().with_batch_size(8);
    let mut searcher = GumbelAz::new(HeuristicPolicy::default(), config).unwrap();
    let analysis = searcher.analyse(&position, &Limits::nodes(2_000));
    // Rounds of 64, 128, 256, ... simulations: the kept one is complete.
    let planned = analysis.considered_visits.len() as u64;
    assert!(planned >= 64 && planned.is_power_of_two(), "{planned}");
    let visits: u32 = analysis.visits.iter().sum();
    assert_eq!(u64::from(visits), planned);
    assert!(matches!(
        analysis.report.stats.stop,
        StopReason::Nodes | StopReason::Exhausted
    ));
}

/// Each searcher alone against the same searchers all at once.
fn together_equals_alone<S: Searcher<Board> + BatchedSearch<Board>>(
    mut make: impl FnMut(u64) -> S,
    positions: &[Board],
    limits: &Limits,
) {
    let alone: Vec<_> = positions
        .iter()
        .enumerate()
        .map(|(index, position)| timeless(&make(index as u64).search(position, limits)))
        .collect();
    let evaluator = Counted::default();
    let mut searchers: Vec<S> = (0..positions.len())
        .map(|index| make(index as u64))
        .collect();
    let together = search_together(&evaluator, &mut searchers, positions, limits);
    for (index, (alone, together)) in alone.iter().zip(&together).enumerate() {
        assert_eq!(alone, &timeless(together), "search {index}");
    }
    let calls = evaluator.calls.load(Ordering::Relaxed);
    let most = alone
        .iter()
        .map(|report| report.stats.iterations)
        .max()
        .unwrap_or(0);
    // One call per step: the root, then one per simulation of the longest
    // search (fewer when a step needs no evaluator at all).
    assert!(calls as u64 <= most + 1, "{calls} calls for {most}");
}

#[test]
fn searches_together_give_the_reports_of_searches_alone() {
    let positions = othello_positions(16, 8);
    let limits = Limits::iterations(48);
    together_equals_alone(
        |seed| {
            GumbelAz::new(
                HeuristicPolicy::default(),
                GumbelConfig::default()
                    .with_seed(seed)
                    .with_max_considered_actions(8),
            )
            .unwrap()
        },
        &positions,
        &limits,
    );
    together_equals_alone(
        |seed| {
            Puct::new(
                HeuristicPolicy::default(),
                PuctConfig::default().with_seed(seed),
            )
            .unwrap()
        },
        &positions,
        &limits,
    );
    // Batched trees, side by side.
    together_equals_alone(
        |_| {
            Puct::new(
                HeuristicPolicy::default(),
                PuctConfig::default().with_batch_size(4),
            )
            .unwrap()
        },
        &positions[..5],
        &Limits::iterations(100),
    );
}

/// Plays `games` games of Othello from `starts`, each searcher playing
/// both sides of its game, `plies` plies each; returns every move.
fn self_play<S: Searcher<Board> + BatchedSearch<Board>>(
    mut searchers: Vec<S>,
    starts: &[Board],
    plies: usize,
    together: bool,
    evaluator: &Counted,
) -> Vec<Vec<bitboard_othello::Move>> {
    let limits = Limits::iterations(24);
    let mut boards = starts.to_vec();
    let mut records = vec![Vec::new(); boards.len()];
    for _ply in 0..plies {
        let live: Vec<usize> = (0..boards.len())
            .filter(|&game| !boards[game].is_over())
            .collect();
        if live.is_empty() {
            break;
        }
        let reports: Vec<SearchReport<bitboard_othello::Move>> = if together {
            let states: Vec<Board> = live.iter().map(|&game| boards[game].clone()).collect();
            let mut playing: Vec<&mut S> = Vec::new();
            for (game, searcher) in searchers.iter_mut().enumerate() {
                if live.contains(&game) {
                    playing.push(searcher);
                }
            }
            search_together(evaluator, &mut playing, &states, &limits)
        } else {
            live.iter()
                .map(|&game| searchers[game].search(&boards[game], &limits))
                .collect()
        };
        for (&game, report) in live.iter().zip(reports) {
            let mv = report.best.expect("a move");
            boards[game].play(mv);
            searchers[game].advance(mv);
            records[game].push(mv);
        }
    }
    records
}

#[test]
fn self_play_together_plays_the_moves_of_self_play_alone() {
    let starts = othello_positions(8, 2);
    let make = || -> Vec<GumbelAz<Board, Counted>> {
        (0..starts.len())
            .map(|seed| {
                GumbelAz::new(
                    Counted::default(),
                    GumbelConfig::default()
                        .with_seed(seed as u64)
                        .with_max_considered_actions(4),
                )
                .unwrap()
            })
            .collect()
    };
    let shared = Counted::default();
    let alone = self_play(make(), &starts, 12, false, &shared);
    let together = self_play(make(), &starts, 12, true, &shared);
    assert_eq!(alone, together);
    assert!(alone.iter().all(|record| record.len() == 12));
}
