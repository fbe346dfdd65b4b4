//! Checks for searchers: tactical positions found by brute force, and
//! values compared with brute-force minimax.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::minimax::{child_value, minimax};
use crate::{
    Evaluator, Game, LimitKind, Limits, OutcomeEvaluator, Player, SearchReport, Searcher,
    StopReason,
};

/// What a [`TacticalCase`] asks of a searcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tactic {
    /// The player to move can force a win within the case's depth; the
    /// searcher must play a move that keeps the forced win.
    Win,
    /// Some moves let the opponent force a win within the case's depth, but
    /// not all, and one of the others is proved to hold to the end of the
    /// game; the searcher must avoid the losing moves.
    Defend,
}

/// A position where some moves are right and others are wrong, found by
/// brute force.
#[derive(Clone, Debug)]
pub struct TacticalCase<G: Game> {
    /// The position.
    pub state: G,
    /// Win or defend.
    pub tactic: Tactic,
    /// How many plies deep the brute force looked.
    pub depth: u32,
    /// The acceptable moves.
    pub good_moves: Vec<G::Move>,
    /// The moves that are wrong.
    pub bad_moves: Vec<G::Move>,
}

/// Finds tactical positions along random games from `start`.
///
/// A [`Tactic::Win`] case is a position where the player to move wins by
/// force within `depth` plies; its good moves are those that keep that win
/// (so with `depth = 1`, the immediately winning moves). A
/// [`Tactic::Defend`] case is a position without such a win where the
/// opponent would win within `depth` plies after some moves but not after
/// others; the good moves are the others (with `depth = 2`: block the
/// opponent's immediate win). A defence is kept only when one of its good
/// moves is proved to hold to the end of the game (the opponent cannot
/// force a win after it, by a bounded exhaustive search): a position lost
/// whatever is played asks nothing of a searcher. Cases where every move
/// is good are skipped.
///
/// Returns up to `per_kind` cases for each combination of tactic and
/// player to move, so both players are covered. Deterministic for a given
/// `seed`.
pub fn tactical_cases<G: Game>(
    start: &G,
    depth: u32,
    per_kind: usize,
    seed: u64,
) -> Vec<TacticalCase<G>> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut found: Vec<TacticalCase<G>> = Vec::new();
    let count = |tactic: Tactic, player: Player, found: &[TacticalCase<G>]| {
        found
            .iter()
            .filter(|case| case.tactic == tactic && case.state.to_move() == player)
            .count()
    };
    let mut moves = Vec::new();
    for _game in 0..(200 * per_kind.max(1)) {
        let complete = [Tactic::Win, Tactic::Defend].iter().all(|&tactic| {
            Player::BOTH
                .iter()
                .all(|&player| count(tactic, player, &found) >= per_kind)
        });
        if complete {
            break;
        }
        let mut state = start.clone();
        loop {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if let Some(case) = tactical_case(&state, depth)
                && count(case.tactic, state.to_move(), &found) < per_kind
            {
                found.push(case);
            }
            let mv = moves[rng.random_range(..moves.len())];
            state.play(mv);
        }
    }
    found
}

/// Classifies one position as [`tactical_cases`] does: a [`TacticalCase`]
/// if the player to move wins by force within `depth` plies (or must defend
/// against such a win) and some moves are wrong, `None` otherwise.
pub fn tactical_case<G: Game>(state: &G, depth: u32) -> Option<TacticalCase<G>> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let moves = moves.as_slice();
    let values: Vec<f32> = moves
        .iter()
        .map(|&mv| child_value(state, mv, Some(depth), &OutcomeEvaluator))
        .collect();
    let split = |good: &dyn Fn(f32) -> bool| {
        let (good_moves, bad_moves): (Vec<_>, Vec<_>) = moves
            .iter()
            .zip(&values)
            .partition(|(_, value)| good(**value));
        let good_moves: Vec<G::Move> = good_moves.into_iter().map(|(&mv, _)| mv).collect();
        let bad_moves: Vec<G::Move> = bad_moves.into_iter().map(|(&mv, _)| mv).collect();
        (good_moves, bad_moves)
    };
    if values.contains(&1.0) {
        let (good_moves, bad_moves) = split(&|value| value == 1.0);
        return (!bad_moves.is_empty()).then(|| TacticalCase {
            state: state.clone(),
            tactic: Tactic::Win,
            depth,
            good_moves,
            bad_moves,
        });
    }
    // No forced win within `depth`; defend if some moves lose within it
    // and one of the others is proved to hold to the end of the game. A
    // position lost whatever is played is no test: a sound searcher that
    // sees the whole loss may play any move.
    let (good_moves, bad_moves) = split(&|value| value > -1.0);
    if bad_moves.is_empty() {
        return None;
    }
    let mut nodes = DEFENCE_PROOF_NODES;
    let opponent = state.to_move().opponent();
    let holds = good_moves.iter().any(|&mv| {
        let mut child = state.clone();
        child.play(mv);
        forces_win(&child, opponent, DEFENCE_PROOF_PLIES, &mut nodes) == Some(false)
    });
    holds.then(|| TacticalCase {
        state: state.clone(),
        tactic: Tactic::Defend,
        depth,
        good_moves,
        bad_moves,
    })
}

/// Positions the proof that a defence holds may visit, per candidate case.
const DEFENCE_PROOF_NODES: u64 = 200_000;

/// Plies the proof that a defence holds may look ahead; lines longer than
/// this leave the case unproved (and so skipped).
const DEFENCE_PROOF_PLIES: u32 = 64;

/// Whether `winner` can force a win from `state` whatever the other side
/// plays: `Some(true)` or `Some(false)` when proved, `None` when the proof
/// needs more than `nodes` positions or lines longer than `plies`.
/// Perspective comes from `to_move` at every node, so extra turns are
/// handled.
fn forces_win<G: Game>(state: &G, winner: Player, plies: u32, nodes: &mut u64) -> Option<bool> {
    if let Some(outcome) = state.outcome() {
        return Some(outcome.winner() == Some(winner));
    }
    if plies == 0 || *nodes == 0 {
        return None;
    }
    *nodes -= 1;
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    if moves.is_empty() {
        return Some(false);
    }
    // The winner needs one winning move; the defender needs one move that
    // escapes. Either settles the node; an unproved child leaves it open
    // unless another child settles it.
    let settled_by = state.to_move() == winner;
    let mut unproved = false;
    for mv in moves {
        let mut child = state.clone();
        child.play(mv);
        match forces_win(&child, winner, plies - 1, nodes) {
            Some(result) if result == settled_by => return Some(settled_by),
            Some(_) => {}
            None => unproved = true,
        }
    }
    (!unproved).then_some(!settled_by)
}

/// A searcher that failed a check.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{check} failed on case {case} at position {position}: {detail}")]
#[non_exhaustive]
pub struct SearcherFailure {
    /// Which check.
    pub check: &'static str,
    /// The index of the failing case.
    pub case: usize,
    /// The position (`Debug` form).
    pub position: String,
    /// What went wrong.
    pub detail: String,
}

/// Checks that a searcher plays a good move in every tactical case, and
/// that its value is that of the move it plays: in `[-1, 1]`, equal to the
/// value it reports for that move, and a win (at least 0.9) when the move
/// wins at once. The searcher is [`reset`](Searcher::reset) before each
/// case.
///
/// # Errors
///
/// Returns the first case where the searcher played a bad move or none.
pub fn check_tactics<G: Game, S: Searcher<G> + ?Sized>(
    searcher: &mut S,
    cases: &[TacticalCase<G>],
    limits: &Limits,
) -> Result<(), SearcherFailure> {
    for (index, case) in cases.iter().enumerate() {
        searcher.reset();
        let report = searcher.search(&case.state, limits);
        let good = report.best.is_some_and(|mv| case.good_moves.contains(&mv));
        let failure = |detail: String| SearcherFailure {
            check: "tactics",
            case: index,
            position: format!("{:?}", case.state),
            detail,
        };
        if good {
            let best = report.best.expect("a good move");
            // One meaning of the value: that of the move returned. A win in
            // one is worth a win, whatever else the searcher looked at.
            if !report.value.is_finite() || report.value.abs() > 1.0 {
                return Err(failure(format!("value {} is not in [-1, 1]", report.value)));
            }
            let wins_now = {
                let mut child = case.state.clone();
                child.play(best);
                child
                    .outcome()
                    .is_some_and(|outcome| outcome.reward(case.state.to_move()) == 1.0)
            };
            if case.tactic == Tactic::Win && wins_now && report.value < 0.9 {
                return Err(failure(format!(
                    "played {best:?}, which wins at once, but reported value {} (the value must be that of the move returned)",
                    report.value
                )));
            }
            if let Some(reported) = report
                .moves
                .iter()
                .find(|info| info.mv == best)
                .and_then(|info| info.value)
                && (reported - report.value).abs() > 1e-4
            {
                return Err(failure(format!(
                    "value {} but the report gives {reported} for the move returned ({best:?})",
                    report.value
                )));
            }
        }
        if !good {
            return Err(SearcherFailure {
                check: "tactics",
                case: index,
                position: format!("{:?}", case.state),
                detail: format!(
                    "{:?} ({:?} to move, depth {}): played {:?}; good moves {:?}, bad moves {:?}",
                    case.tactic,
                    case.state.to_move(),
                    case.depth,
                    report.best,
                    case.good_moves,
                    case.bad_moves
                ),
            });
        }
    }
    Ok(())
}

/// Compares a searcher with brute-force [`minimax`] on each position:
/// the reported value must be within `tolerance` of the minimax value (to
/// `limits.depth`, or to the end, with `evaluator` at the depth limit), and
/// so must the minimax value of the move it chose. The searcher is
/// [`reset`](Searcher::reset) before each position.
///
/// With `tolerance = 0.0` this is the exactness test for alpha-beta and
/// its pruning variants; with a tolerance and a growing iteration budget,
/// the convergence test for Monte Carlo searchers.
///
/// # Errors
///
/// Returns the first position where the searcher disagrees.
pub fn check_against_minimax<G, S, E>(
    searcher: &mut S,
    positions: &[G],
    limits: &Limits,
    evaluator: &E,
    tolerance: f32,
) -> Result<(), SearcherFailure>
where
    G: Game,
    S: Searcher<G> + ?Sized,
    E: Evaluator<G> + ?Sized,
{
    let mut moves = Vec::new();
    for (index, state) in positions.iter().enumerate() {
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            continue;
        }
        searcher.reset();
        let report = searcher.search(state, limits);
        let exact = minimax(state, limits.depth, evaluator);
        let failure = |detail: String| SearcherFailure {
            check: "minimax",
            case: index,
            position: format!("{state:?}"),
            detail,
        };
        if (report.value - exact).abs() > tolerance || report.value.is_nan() {
            return Err(failure(format!(
                "value {} but minimax gives {exact} (tolerance {tolerance})",
                report.value
            )));
        }
        let Some(best) = report.best.filter(|mv| moves.contains(mv)) else {
            return Err(failure(format!(
                "played {:?}, not a legal move",
                report.best
            )));
        };
        let chosen = child_value(state, best, limits.depth, evaluator);
        if (chosen - exact).abs() > tolerance {
            return Err(failure(format!(
                "played {best:?} worth {chosen}, but the best move is worth {exact} (tolerance {tolerance})"
            )));
        }
    }
    Ok(())
}

/// Positions of distinct (by `Debug` form) non-finished states met along
/// random games from `start`: inputs for [`check_against_minimax`].
pub fn random_positions<G: Game>(start: &G, count: usize, seed: u64) -> Vec<G> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for _game in 0..count * 20 {
        let mut state = start.clone();
        loop {
            state.legal_moves(&mut moves);
            if moves.is_empty() || positions.len() >= count {
                break;
            }
            if rng.random_bool(0.3) && seen.insert(format!("{state:?}")) {
                positions.push(state.clone());
            }
            let mv = moves[rng.random_range(..moves.len())];
            state.play(mv);
        }
        if positions.len() >= count {
            break;
        }
    }
    positions
}

/// `count` unfinished positions, each reached from `start` by `plies`
/// uniformly random plies (one more in every second position kept): the
/// seeded mid-games that benches and node-count tests search. Attempt `i`
/// plays from a generator seeded `seed + i`; an attempt that ends the game
/// is dropped and the next one tried, so the list depends only on the game,
/// `count`, `plies` and `seed`. Choose `plies` well short of the game's
/// usual length: the search for unfinished positions goes on as long as
/// attempts keep ending the game.
pub fn random_midgames<G: Game>(start: &G, count: usize, plies: usize, seed: u64) -> Vec<G> {
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    let mut attempt = 0u64;
    while positions.len() < count {
        let mut rng = Pcg64Mcg::seed_from_u64(seed.wrapping_add(attempt));
        attempt += 1;
        let mut state = start.clone();
        let length = plies + positions.len() % 2;
        for _ in 0..length {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state.play(moves[rng.random_range(..moves.len())]);
        }
        if !state.is_over() {
            positions.push(state);
        }
    }
    positions
}

/// How strictly [`check_limits_contract`] measures; the defaults suit a
/// loaded two-core test machine.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ContractOptions {
    /// The small time limit tried (default 40 ms).
    pub time: Duration,
    /// How far past a time limit or a stop request a search may run
    /// (default 250 ms).
    pub slack: Duration,
    /// A search running longer than this counts as hung (default 30 s).
    pub hang: Duration,
    /// The small iteration limit tried (default 64).
    pub iterations: u64,
    /// The small node limit tried (default 200).
    pub nodes: u64,
    /// How far past the node limit the reported nodes may go (default
    /// 1,024: searchers check the limit every so many nodes, and a tree
    /// may add a node's children at once).
    pub node_slack: u64,
    /// The small depth limit tried (default 2).
    pub depth: u32,
    /// Seed for finding the positions to search (default 0).
    pub seed: u64,
}

impl Default for ContractOptions {
    fn default() -> Self {
        ContractOptions {
            time: Duration::from_millis(40),
            slack: Duration::from_millis(250),
            hang: Duration::from_secs(30),
            iterations: 64,
            nodes: 200,
            node_slack: 1_024,
            depth: 2,
            seed: 0,
        }
    }
}

impl ContractOptions {
    /// Sets the slack allowed past time limits and stop requests.
    #[must_use]
    pub fn with_slack(mut self, slack: Duration) -> Self {
        self.slack = slack;
        self
    }

    /// Sets how long a search may run before it counts as hung.
    #[must_use]
    pub fn with_hang(mut self, hang: Duration) -> Self {
        self.hang = hang;
        self
    }

    /// Sets the seed used to find positions.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    fn small(&self, kind: LimitKind) -> Limits {
        let limits = Limits::none();
        match kind {
            LimitKind::Time => limits.with_time(self.time),
            LimitKind::Iterations => limits.with_iterations(self.iterations),
            LimitKind::Nodes => limits.with_nodes(self.nodes),
            LimitKind::Depth => limits.with_depth(self.depth),
        }
    }
}

/// A limit so large that no test search reaches it.
fn huge(limits: Limits, kind: LimitKind) -> Limits {
    match kind {
        LimitKind::Time => limits.with_time(Duration::from_secs(3_600)),
        LimitKind::Iterations => limits.with_iterations(1 << 40),
        LimitKind::Nodes => limits.with_nodes(1 << 40),
        LimitKind::Depth => limits.with_depth(200),
    }
}

/// Positions the contract is checked on: `start`, a position with exactly
/// one legal move and a finished position, the last two found along seeded
/// random games from `start` (each left out if none turns up in 200 games).
pub fn contract_positions<G: Game>(start: &G, seed: u64) -> Vec<(&'static str, G)> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut positions = vec![("start position", start.clone())];
    let (mut one_move, mut finished) = (None, None);
    let mut moves = Vec::new();
    for _game in 0..200 {
        let mut state = start.clone();
        for _ply in 0..100_000 {
            state.legal_moves(&mut moves);
            if moves.len() == 1 && one_move.is_none() {
                one_move = Some(state.clone());
            }
            if moves.is_empty() {
                finished.get_or_insert_with(|| state.clone());
                break;
            }
            state.play(moves[rng.random_range(..moves.len())]);
        }
        if one_move.is_some() && finished.is_some() {
            break;
        }
    }
    positions.extend(one_move.map(|state| ("a position with one legal move", state)));
    positions.extend(finished.map(|state| ("a finished position", state)));
    positions
}

/// Checks that a searcher keeps the [`Limits`] contract on `start` and on
/// the other [`contract_positions`] found from it.
///
/// For each position, with a fresh searcher from `make` each time:
///
/// * no limit at all, and each field of [`Limits`] alone at a small value
///   (plus [`Duration::MAX`] as a time limit beside a small other limit);
/// * for each field the searcher [honours](Searcher::honours): that field
///   small and every other honoured field huge, so a searcher that ignores
///   the small one runs on and is caught;
/// * the stop flag set before the search, and set from another thread
///   after [`ContractOptions::time`], with every honoured field huge.
///
/// Every search must end within [`ContractOptions::hang`] without
/// panicking, and its report must be sound: at a finished position no move,
/// the outcome's reward and [`StopReason::GameOver`]; elsewhere a legal
/// move, a finite value in `[-1, 1]` equal to the value it reports for
/// that move (if it reports one), a principal variation that starts with
/// it, and a stop reason. A search stopped by an honoured limit must say so
/// (or give a natural reason: solved, nothing left, memory cap) and must
/// respect it: time within [`ContractOptions::slack`], iterations and depth
/// exactly, nodes within [`ContractOptions::node_slack`].
///
/// # Errors
///
/// Returns the first violation, naming the position and the limits.
pub fn check_limits_contract<G, S, F>(
    mut make: F,
    start: &G,
    options: &ContractOptions,
) -> Result<(), SearcherFailure>
where
    G: Game,
    S: Searcher<G> + Send + 'static,
    F: FnMut() -> S,
{
    let positions = contract_positions(start, options.seed);
    let honoured: Vec<LimitKind> = {
        let probe = make();
        LimitKind::ALL
            .into_iter()
            .filter(|&kind| probe.honours(kind))
            .collect()
    };
    for (case, (label, state)) in positions.iter().enumerate() {
        let mut runs: Vec<(Limits, Option<LimitKind>)> = vec![(Limits::none(), None)];
        for kind in LimitKind::ALL {
            let small = options.small(kind);
            let expected = honoured.contains(&kind).then_some(kind);
            runs.push((small.clone(), expected));
            if let Some(kind) = expected {
                let others = honoured
                    .iter()
                    .filter(|&&other| other != kind)
                    .fold(small, |limits, &other| huge(limits, other));
                runs.push((others, Some(kind)));
            }
        }
        // A time limit the clock cannot add, beside a limit that ends it.
        let mut overflow = Limits::time(Duration::MAX);
        if let Some(&other) = honoured.iter().find(|&&kind| kind != LimitKind::Time) {
            overflow = match other {
                LimitKind::Iterations => overflow.with_iterations(options.iterations),
                LimitKind::Nodes => overflow.with_nodes(options.nodes),
                _ => overflow.with_depth(options.depth),
            };
        } else {
            overflow = overflow.with_stop(Arc::new(AtomicBool::new(true)));
        }
        runs.push((overflow, None));
        let all_huge = || {
            honoured
                .iter()
                .fold(Limits::none(), |limits, &kind| huge(limits, kind))
        };
        for (limits, expected) in runs {
            run_contract_case(make(), state, &limits, expected, None, options).map_err(
                |detail| SearcherFailure {
                    check: "limits contract",
                    case,
                    position: format!("{label}: {state:?}"),
                    detail: format!("with {}: {detail}", describe(&limits)),
                },
            )?;
        }
        for delay in [None, Some(options.time)] {
            let flag = Arc::new(AtomicBool::new(delay.is_none()));
            let limits = all_huge().with_stop(Arc::clone(&flag));
            run_contract_case(
                make(),
                state,
                &limits,
                None,
                delay.map(|d| (d, flag)),
                options,
            )
            .map_err(|detail| SearcherFailure {
                check: "limits contract",
                case,
                position: format!("{label}: {state:?}"),
                detail: format!(
                    "with {} and the stop flag set {}: {detail}",
                    describe(&all_huge()),
                    match delay {
                        None => "before the search".to_string(),
                        Some(delay) => format!("after {delay:?}"),
                    }
                ),
            })?;
        }
    }
    Ok(())
}

fn describe(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(time) = limits.time {
        parts.push(format!("time {time:?}"));
    }
    if let Some(iterations) = limits.iterations {
        parts.push(format!("iterations {iterations}"));
    }
    if let Some(nodes) = limits.nodes {
        parts.push(format!("nodes {nodes}"));
    }
    if let Some(depth) = limits.depth {
        parts.push(format!("depth {depth}"));
    }
    if limits.stop.is_some() {
        parts.push("a stop flag".to_string());
    }
    if parts.is_empty() {
        "no limits".to_string()
    } else {
        parts.join(", ")
    }
}

/// Runs one search on its own thread and judges its report. `expected` is
/// the honoured limit meant to stop it; `raise` sets a stop flag after a
/// delay.
fn run_contract_case<G, S>(
    mut searcher: S,
    state: &G,
    limits: &Limits,
    expected: Option<LimitKind>,
    raise: Option<(Duration, Arc<AtomicBool>)>,
    options: &ContractOptions,
) -> Result<(), String>
where
    G: Game,
    S: Searcher<G> + Send + 'static,
{
    let (sender, receiver) = mpsc::channel();
    let position = state.clone();
    let search_limits = limits.clone();
    let started = Instant::now();
    let worker = std::thread::spawn(move || {
        let report = searcher.search(&position, &search_limits);
        // The receiver may have given up on a hung search.
        let _ = sender.send(report);
    });
    let mut raised_at = None;
    let report = loop {
        if let Some((delay, flag)) = &raise
            && raised_at.is_none()
            && started.elapsed() >= *delay
        {
            flag.store(true, Ordering::Relaxed);
            raised_at = Some(Instant::now());
        }
        match receiver.recv_timeout(Duration::from_millis(2)) {
            Ok(report) => break report,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if started.elapsed() > options.hang {
                    return Err(format!("the search did not end within {:?}", options.hang));
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(match worker.join() {
                    Err(panic) => format!("the search panicked: {}", panic_message(&panic)),
                    Ok(()) => "the search thread ended without a report".to_string(),
                });
            }
        }
    };
    let elapsed = started.elapsed();
    let _ = worker.join();
    if let Some(raised_at) = raised_at {
        let late = raised_at.elapsed();
        if late > options.slack {
            return Err(format!(
                "the search went on for {late:?} after the stop flag was set (slack {:?})",
                options.slack
            ));
        }
    } else if limits.stop_requested() && elapsed > options.slack {
        return Err(format!(
            "the stop flag was set but the search took {elapsed:?} (slack {:?})",
            options.slack
        ));
    }
    judge_report(state, limits, expected, &report, elapsed, options)
}

fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|text| (*text).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_string())
}

fn judge_report<G: Game>(
    state: &G,
    limits: &Limits,
    expected: Option<LimitKind>,
    report: &SearchReport<G::Move>,
    elapsed: Duration,
    options: &ContractOptions,
) -> Result<(), String> {
    let stats = &report.stats;
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    if moves.is_empty() {
        let reward = state
            .outcome()
            .map_or(0.0, |outcome| outcome.reward(state.to_move()));
        if report.best.is_some() {
            return Err(format!("returned {:?} at a finished position", report.best));
        }
        if report.value != reward {
            return Err(format!(
                "value {} at a finished position whose reward is {reward}",
                report.value
            ));
        }
        if stats.stop != StopReason::GameOver {
            return Err(format!(
                "stop reason {:?} at a finished position (expected GameOver)",
                stats.stop
            ));
        }
        return Ok(());
    }
    let Some(best) = report.best else {
        return Err("returned no move in a position with legal moves".to_string());
    };
    if !moves.contains(&best) {
        return Err(format!("returned {best:?}, which is not legal"));
    }
    if !report.value.is_finite() || report.value.abs() > 1.0 {
        return Err(format!("value {} is not in [-1, 1]", report.value));
    }
    if let Some(reported) = report
        .moves
        .iter()
        .find(|info| info.mv == best)
        .and_then(|info| info.value)
        && (reported - report.value).abs() > 1e-4
    {
        return Err(format!(
            "value {} but the report gives {reported} for the move returned ({best:?})",
            report.value
        ));
    }
    if report.pv.first().is_some_and(|&first| first != best) {
        return Err(format!(
            "principal variation {:?} does not start with the move returned ({best:?})",
            report.pv
        ));
    }
    if stats.stop == StopReason::Unknown || stats.stop == StopReason::GameOver {
        return Err(format!(
            "stop reason {:?} for a search that ran",
            stats.stop
        ));
    }
    let Some(kind) = expected else {
        return Ok(());
    };
    if stats.stop != kind.stop_reason() && !stats.stop.is_natural() {
        return Err(format!(
            "the {kind} limit was the one to stop the search, but it reports {:?}",
            stats.stop
        ));
    }
    match kind {
        LimitKind::Time => {
            let time = limits.time.unwrap_or(Duration::MAX);
            if elapsed > time.saturating_add(options.slack) {
                return Err(format!(
                    "took {elapsed:?} with a time limit of {time:?} (slack {:?})",
                    options.slack
                ));
            }
        }
        LimitKind::Iterations => {
            let max = limits.iterations.unwrap_or(u64::MAX);
            if stats.iterations > max {
                return Err(format!(
                    "ran {} iterations with a limit of {max}",
                    stats.iterations
                ));
            }
        }
        LimitKind::Nodes => {
            let max = limits.nodes.unwrap_or(u64::MAX);
            if stats.nodes > max.saturating_add(options.node_slack) {
                return Err(format!(
                    "counted {} nodes with a limit of {max} (slack {})",
                    stats.nodes, options.node_slack
                ));
            }
        }
        LimitKind::Depth => {
            let max = limits.depth.unwrap_or(u32::MAX);
            if stats.depth > max {
                return Err(format!(
                    "reached depth {} with a limit of {max}",
                    stats.depth
                ));
            }
        }
    }
    Ok(())
}

/// Checks that a searcher is reproducible: two fresh searchers from `make`
/// give the same move, value, visits and statistics (but elapsed time) on
/// every position, with the same `limits` (an iteration or node budget,
/// not a time limit).
///
/// # Errors
///
/// Returns the first position where the two searches differ.
pub fn check_repeatable<G, S, F>(
    mut make: F,
    positions: &[G],
    limits: &Limits,
) -> Result<(), SearcherFailure>
where
    G: Game,
    S: Searcher<G>,
    F: FnMut() -> S,
{
    for (index, state) in positions.iter().enumerate() {
        let first = make().search(state, limits);
        let second = make().search(state, limits);
        let key = |report: &SearchReport<G::Move>| {
            let mut stats = report.stats;
            stats.elapsed = Duration::ZERO;
            (
                report.best,
                report.value.to_bits(),
                report.pv.clone(),
                report
                    .moves
                    .iter()
                    .map(|info| (info.mv, info.visits, info.value.map(f32::to_bits)))
                    .collect::<Vec<_>>(),
                stats,
            )
        };
        if key(&first) != key(&second) {
            return Err(SearcherFailure {
                check: "repeatable",
                case: index,
                position: format!("{state:?}"),
                detail: format!(
                    "two searches with the same seed and {} differ: {:?} ({}) and {:?} ({})",
                    describe(limits),
                    first.best,
                    first.value,
                    second.best,
                    second.value
                ),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{MinimaxSearcher, Nim, TicTacToe};

    #[test]
    fn tic_tac_toe_has_both_kinds_for_both_players() {
        let cases = tactical_cases(&TicTacToe::new(), 1, 3, 1);
        for tactic in [Tactic::Win] {
            for player in Player::BOTH {
                assert_eq!(
                    cases
                        .iter()
                        .filter(|c| c.tactic == tactic && c.state.to_move() == player)
                        .count(),
                    3,
                    "{tactic:?} {player:?}"
                );
            }
        }
        let defend = tactical_cases(&TicTacToe::new(), 2, 3, 1);
        for player in Player::BOTH {
            assert!(
                defend
                    .iter()
                    .any(|c| c.tactic == Tactic::Defend && c.state.to_move() == player)
            );
        }
        check_tactics(&mut MinimaxSearcher::new(), &cases, &Limits::depth(1)).unwrap();
        check_tactics(&mut MinimaxSearcher::new(), &defend, &Limits::depth(2)).unwrap();
    }

    /// The depth-limited half of the classification alone: a defence
    /// without the proof that a good move holds.
    fn unproved_defence<G: Game>(state: &G, depth: u32) -> bool {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let values: Vec<f32> = moves
            .iter()
            .map(|&mv| child_value(state, mv, Some(depth), &OutcomeEvaluator))
            .collect();
        !values.contains(&1.0) && values.contains(&-1.0) && values.iter().any(|&v| v > -1.0)
    }

    #[test]
    fn defences_lost_whatever_is_played_are_not_kept() {
        // Along random tic-tac-toe games, some positions look defensible
        // two plies deep (one move blocks) but lose whatever is played (the
        // block walks into a fork). They must not become cases.
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let (mut lost_anyway, mut kept) = (0, 0);
        let mut moves = Vec::new();
        for _ in 0..300 {
            let mut state = TicTacToe::new();
            while !state.is_over() {
                if unproved_defence(&state, 2) {
                    let lost = minimax(&state, None, &OutcomeEvaluator) == -1.0;
                    let case = tactical_case(&state, 2);
                    if lost {
                        lost_anyway += 1;
                        assert!(case.is_none(), "{state:?} is lost but kept");
                    } else {
                        kept += 1;
                        assert_eq!(case.map(|c| c.tactic), Some(Tactic::Defend), "{state:?}");
                    }
                }
                state.legal_moves(&mut moves);
                state.play(moves[rng.random_range(..moves.len())]);
            }
        }
        assert!(
            lost_anyway > 0 && kept > 0,
            "{lost_anyway} lost, {kept} kept"
        );
    }

    #[test]
    fn a_whole_game_searcher_passes_every_defence() {
        // Minimax to the end of the game sees every loss; in a position
        // lost whatever is played it would play its first move, which a
        // depth-limited defence may call bad. Only proved defences remain,
        // so it passes them all. (Nim has no draws: a defence there holds
        // only by a win deeper than the case looks, so its cases here are
        // wins, with extra turns.)
        let ttt = tactical_cases(&TicTacToe::new(), 2, 6, 12);
        let nim = tactical_cases(&Nim::with_extra_turns(&[3, 2, 2]), 3, 6, 13);
        assert_defences_hold("tic-tac-toe", &ttt);
        check_tactics(&mut MinimaxSearcher::new(), &ttt, &Limits::default()).unwrap();
        check_tactics(&mut MinimaxSearcher::new(), &nim, &Limits::default()).unwrap();
    }

    fn assert_defences_hold<G: Game>(name: &str, cases: &[TacticalCase<G>]) {
        let defences = defences_of(cases);
        assert!(!defences.is_empty(), "{name}: no defence found");
        for case in &defences {
            let holds = case
                .good_moves
                .iter()
                .any(|&mv| child_value(&case.state, mv, None, &OutcomeEvaluator) > -1.0);
            assert!(holds, "{name}: {:?} has no move that holds", case.state);
        }
    }

    fn defences_of<G: Game>(cases: &[TacticalCase<G>]) -> Vec<TacticalCase<G>> {
        cases
            .iter()
            .filter(|case| case.tactic == Tactic::Defend)
            .cloned()
            .collect()
    }

    #[test]
    fn a_searcher_that_plays_the_first_move_fails_tactics() {
        struct FirstMove;
        impl<G: Game> Searcher<G> for FirstMove {
            fn search(&mut self, state: &G, _: &Limits) -> crate::SearchReport<G::Move> {
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                crate::SearchReport::new(moves.first().copied(), 0.0)
            }
        }
        let cases = tactical_cases(&TicTacToe::new(), 2, 4, 3);
        let error = check_tactics(&mut FirstMove, &cases, &Limits::none()).unwrap_err();
        assert_eq!(error.check, "tactics");
        let positions = random_positions(&Nim::with_extra_turns(&[3, 2, 2]), 20, 4);
        assert!(
            check_against_minimax(
                &mut FirstMove,
                &positions,
                &Limits::none(),
                &OutcomeEvaluator,
                0.0
            )
            .is_err()
        );
    }

    #[test]
    fn minimax_searcher_matches_minimax_everywhere() {
        let positions = random_positions(&Nim::with_extra_turns(&[3, 2, 2]), 30, 5);
        assert_eq!(positions.len(), 30);
        check_against_minimax(
            &mut MinimaxSearcher::new(),
            &positions,
            &Limits::none(),
            &OutcomeEvaluator,
            0.0,
        )
        .unwrap();
    }
}
