//! The contract check for searchers over information sets
//! ([`InfoSetSearcher`]): legal moves in every consistent world, the
//! [`Limits`] contract, repeatability, and no information leak.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::searchers::{ContractOptions, SearcherFailure};
use crate::hidden::{Arbiter, InfoSetSearcher, WorldMove};
use crate::{Game, InformationSet, LimitKind, Limits, Player, SearchReport, StopReason};

/// Referee states the information-set contract is checked at: `start`, a
/// position some plies into a game, a position whose player to move has
/// one legal move, and a finished game, the last three found along seeded
/// random games from `start` (each left out if none turns up in 200
/// games).
pub fn info_set_positions<A: Arbiter>(start: &A, seed: u64) -> Vec<(&'static str, A)> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut positions = vec![("start position", start.clone())];
    let (mut middle, mut one_move, mut finished) = (None, None, None);
    let mut moves = Vec::new();
    for _game in 0..200 {
        let mut arbiter = start.clone();
        let target = rng.random_range(1..12usize);
        for ply in 0..100_000 {
            arbiter.legal_moves(&mut moves);
            if moves.is_empty() {
                finished.get_or_insert_with(|| arbiter.clone());
                break;
            }
            if ply == target && middle.is_none() {
                middle = Some(arbiter.clone());
            }
            if moves.len() == 1 && one_move.is_none() {
                one_move = Some(arbiter.clone());
            }
            let mv = moves[rng.random_range(..moves.len())];
            if arbiter.play_move(mv).is_err() {
                break;
            }
        }
        if middle.is_some() && one_move.is_some() && finished.is_some() {
            break;
        }
    }
    positions.extend(middle.map(|arbiter| ("a position some plies in", arbiter)));
    positions.extend(one_move.map(|arbiter| ("a position with one legal move", arbiter)));
    positions.extend(finished.map(|arbiter| ("a finished game", arbiter)));
    positions
}

/// Checks an [`InfoSetSearcher`] on the [`info_set_positions`] found from
/// `start`, always for the player to move (both players at a finished
/// game), with a fresh searcher from `make` for every search:
///
/// * **legal moves**: the move returned is one of the information set's
///   legal moves and is legal in [`INFO_SET_WORLD_SAMPLES`] sampled
///   consistent worlds;
/// * **the [`Limits`] contract**, as `check_limits_contract` checks it for
///   perfect-information searchers: no limit, each field alone at a small
///   value, each honoured field small with the others huge, a time limit
///   the clock cannot add, and the stop flag set before and during the
///   search; the report must be sound (legal move, value in `[-1, 1]` and
///   equal to the value given for that move, a principal variation that
///   starts with it, a stop reason; at a finished game no move, the
///   outcome's reward and [`StopReason::GameOver`]) and honoured limits
///   respected within the slack of `options`;
/// * **repeatability**: two searches with the same small budget (each
///   honoured field but time) give the same move, value, per-move values
///   and statistics;
/// * **no information leak**: the same search on a referee redealt by
///   [`Arbiter::redeal`] (what the player cannot see drawn again) gives
///   the same report.
///
/// # Errors
///
/// Returns the first violation, naming the position and the limits.
pub fn check_info_set_searcher<A, S, F>(
    mut make: F,
    start: &A,
    options: &ContractOptions,
) -> Result<(), SearcherFailure>
where
    A: Arbiter,
    S: InfoSetSearcher<A::InfoSet> + Send + 'static,
    F: FnMut() -> S,
{
    let honoured: Vec<LimitKind> = {
        let probe = make();
        LimitKind::ALL
            .into_iter()
            .filter(|&kind| probe.honours(kind))
            .collect()
    };
    let mut rng = Pcg64Mcg::seed_from_u64(options.seed ^ 0x1EA4);
    for (case, (label, arbiter)) in info_set_positions(start, options.seed)
        .into_iter()
        .enumerate()
    {
        let players = if arbiter.outcome().is_some() {
            Player::BOTH.to_vec()
        } else {
            vec![arbiter.to_move()]
        };
        for player in players {
            let info = arbiter.information_set(player);
            let failure = |detail: String| SearcherFailure {
                check: "information-set contract",
                case,
                position: format!("{label}, {player} player: {info:?}"),
                detail,
            };
            for (limits, expected) in limit_runs(&honoured, options) {
                run_case(make(), &info, &arbiter, &limits, expected, None, options)
                    .map_err(|detail| failure(format!("with {}: {detail}", describe(&limits))))?;
            }
            for delay in [None, Some(options.time)] {
                let flag = Arc::new(AtomicBool::new(delay.is_none()));
                let limits = all_huge(&honoured).with_stop(Arc::clone(&flag));
                run_case(
                    make(),
                    &info,
                    &arbiter,
                    &limits,
                    None,
                    delay.map(|d| (d, flag)),
                    options,
                )
                .map_err(|detail| {
                    failure(format!(
                        "with {} and the stop flag set {}: {detail}",
                        describe(&all_huge(&honoured)),
                        delay.map_or("before the search".to_string(), |d| format!("after {d:?}"))
                    ))
                })?;
            }
            for limits in repeat_limits(&honoured, options) {
                let first = make().search(&info, &limits);
                let second = make().search(&info, &limits);
                if report_key(&first) != report_key(&second) {
                    return Err(failure(format!(
                        "two searches with {} differ: {:?} ({}) and {:?} ({})",
                        describe(&limits),
                        first.best,
                        first.value,
                        second.best,
                        second.value
                    )));
                }
                for redeal in 0..INFO_SET_REDEALS {
                    let other = arbiter.redeal(player, &mut rng);
                    let other_info = other.information_set(player);
                    let leaked = make().search(&other_info, &limits);
                    if report_key(&first) != report_key(&leaked) {
                        return Err(failure(format!(
                            "information leak: with {}, redeal {redeal} (true world {:?} instead of {:?}) changes the search from {:?} ({}) to {:?} ({})",
                            describe(&limits),
                            other.truth(),
                            arbiter.truth(),
                            first.best,
                            first.value,
                            leaked.best,
                            leaked.value
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Consistent worlds sampled to check that a move is legal in each.
pub const INFO_SET_WORLD_SAMPLES: usize = 32;

/// Redeals tried per position and budget in the leak check.
const INFO_SET_REDEALS: usize = 3;

fn small(kind: LimitKind, options: &ContractOptions) -> Limits {
    let limits = Limits::none();
    match kind {
        LimitKind::Time => limits.with_time(options.time),
        LimitKind::Iterations => limits.with_iterations(options.iterations),
        LimitKind::Nodes => limits.with_nodes(options.nodes),
        LimitKind::Depth => limits.with_depth(options.depth),
    }
}

fn huge(limits: Limits, kind: LimitKind) -> Limits {
    match kind {
        LimitKind::Time => limits.with_time(Duration::from_secs(3_600)),
        LimitKind::Iterations => limits.with_iterations(1 << 40),
        LimitKind::Nodes => limits.with_nodes(1 << 40),
        LimitKind::Depth => limits.with_depth(200),
    }
}

fn all_huge(honoured: &[LimitKind]) -> Limits {
    honoured
        .iter()
        .fold(Limits::none(), |limits, &kind| huge(limits, kind))
}

/// The limit runs of the contract, each with the honoured limit meant to
/// stop it.
fn limit_runs(
    honoured: &[LimitKind],
    options: &ContractOptions,
) -> Vec<(Limits, Option<LimitKind>)> {
    let mut runs: Vec<(Limits, Option<LimitKind>)> = vec![(Limits::none(), None)];
    for kind in LimitKind::ALL {
        let small = small(kind, options);
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
    let mut overflow = Limits::time(Duration::MAX);
    overflow = match honoured.iter().find(|&&kind| kind != LimitKind::Time) {
        Some(LimitKind::Iterations) => overflow.with_iterations(options.iterations),
        Some(LimitKind::Nodes) => overflow.with_nodes(options.nodes),
        Some(_) => overflow.with_depth(options.depth),
        None => overflow.with_stop(Arc::new(AtomicBool::new(true))),
    };
    runs.push((overflow, None));
    runs
}

/// Budgets for the repeatability and leak checks: each honoured field but
/// time at its small value (no limit at all if none is honoured).
fn repeat_limits(honoured: &[LimitKind], options: &ContractOptions) -> Vec<Limits> {
    let limits: Vec<Limits> = honoured
        .iter()
        .filter(|&&kind| kind != LimitKind::Time)
        .map(|&kind| small(kind, options))
        .collect();
    if limits.is_empty() && !honoured.contains(&LimitKind::Time) {
        vec![Limits::none()]
    } else {
        limits
    }
}

type ReportKey<M> = (
    Option<M>,
    u32,
    Vec<M>,
    Vec<(M, u64, Option<u32>)>,
    (u64, u64, u32, StopReason),
);

fn report_key<M: Copy>(report: &SearchReport<M>) -> ReportKey<M> {
    let stats = &report.stats;
    (
        report.best,
        report.value.to_bits(),
        report.pv.clone(),
        report
            .moves
            .iter()
            .map(|info| (info.mv, info.visits, info.value.map(f32::to_bits)))
            .collect(),
        (stats.iterations, stats.nodes, stats.depth, stats.stop),
    )
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

/// Runs one search on its own thread and judges its report.
fn run_case<A, S>(
    mut searcher: S,
    info: &A::InfoSet,
    arbiter: &A,
    limits: &Limits,
    expected: Option<LimitKind>,
    raise: Option<(Duration, Arc<AtomicBool>)>,
    options: &ContractOptions,
) -> Result<(), String>
where
    A: Arbiter,
    S: InfoSetSearcher<A::InfoSet> + Send + 'static,
{
    let (sender, receiver) = mpsc::channel();
    let position = info.clone();
    let search_limits = limits.clone();
    let started = Instant::now();
    let worker = std::thread::spawn(move || {
        let report = searcher.search(&position, &search_limits);
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
                    Err(_) => "the search panicked".to_string(),
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
    judge(info, arbiter, limits, expected, &report, elapsed, options)
}

fn judge<A: Arbiter>(
    info: &A::InfoSet,
    arbiter: &A,
    limits: &Limits,
    expected: Option<LimitKind>,
    report: &SearchReport<WorldMove<A::InfoSet>>,
    elapsed: Duration,
    options: &ContractOptions,
) -> Result<(), String> {
    let stats = &report.stats;
    let mut moves = Vec::new();
    info.legal_moves(&mut moves);
    if let Some(outcome) = arbiter.outcome() {
        let reward = outcome.reward(info.to_move());
        if report.best.is_some() {
            return Err(format!("returned {:?} at a finished game", report.best));
        }
        if report.value != reward {
            return Err(format!(
                "value {} at a finished game whose reward is {reward}",
                report.value
            ));
        }
        if stats.stop != StopReason::GameOver {
            return Err(format!(
                "stop reason {:?} at a finished game (expected GameOver)",
                stats.stop
            ));
        }
        return Ok(());
    }
    let Some(best) = report.best else {
        return Err("returned no move in a game that goes on".to_string());
    };
    if !moves.contains(&best) {
        return Err(format!(
            "returned {best:?}, which is not among the information set's moves {moves:?}"
        ));
    }
    let mut rng = Pcg64Mcg::seed_from_u64(options.seed ^ 0xA11);
    let mut world_moves = Vec::new();
    for sample in 0..INFO_SET_WORLD_SAMPLES {
        let world = info.sample_world(&mut rng);
        world.legal_moves(&mut world_moves);
        if !world_moves.contains(&best) {
            return Err(format!(
                "returned {best:?}, which is not legal in consistent world {sample}: {world:?}"
            ));
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hidden::InfoSetSearcher;
    use crate::testing::{ShellGame, ShellInfo, ShellMove, ShellTable};
    use crate::{RandomSearcher, SearchStats};

    fn quick() -> ContractOptions {
        ContractOptions::default().with_hang(Duration::from_secs(3))
    }

    #[test]
    fn positions_cover_the_game() {
        let positions = info_set_positions(&ShellTable::deal(4, 1, 3), 0);
        // The shell game never leaves a single legal move.
        assert_eq!(positions.len(), 3, "{positions:?}");
        assert!(positions[2].1.outcome().is_some());
    }

    #[test]
    fn the_random_baseline_keeps_the_contract() {
        check_info_set_searcher(
            || RandomSearcher::new(5),
            &ShellTable::deal(5, 2, 1),
            &quick(),
        )
        .unwrap();
    }

    /// Plays the first move that is legal in the one world it peeks at:
    /// the true world, which a correct information set never gives away.
    struct Peeker;

    impl InfoSetSearcher<LeakyInfo> for Peeker {
        fn search(&mut self, info: &LeakyInfo, limits: &Limits) -> SearchReport<ShellMove> {
            let started = limits.start();
            let mut moves = Vec::new();
            info.legal_moves(&mut moves);
            if moves.is_empty() {
                return crate::hidden::finished_report(info, started.elapsed());
            }
            // Guess where the pea truly is, if the world gives it away.
            let world = info.sample_world(&mut Pcg64Mcg::seed_from_u64(0));
            let best = (0..world.cups())
                .map(ShellMove::Guess)
                .find(|&mv| moves.contains(&mv) && world.peas() >> mv_cup(mv) & 1 == 1)
                .unwrap_or(moves[0]);
            SearchReport::new(Some(best), 0.0).with_stats(
                SearchStats::new(0, 0, 0, started.elapsed()).with_stop(StopReason::Exhausted),
            )
        }

        fn honours(&self, _kind: LimitKind) -> bool {
            false
        }
    }

    fn mv_cup(mv: ShellMove) -> u8 {
        match mv {
            ShellMove::Guess(cup) | ShellMove::Show(cup) => cup,
            _ => 0,
        }
    }

    /// An information set that leaks the truth: every sample is the true
    /// world.
    #[derive(Clone, Debug)]
    struct LeakyInfo {
        info: ShellInfo,
        truth: ShellGame,
    }

    impl InformationSet for LeakyInfo {
        type World = ShellGame;
        fn player(&self) -> Player {
            self.info.player()
        }
        fn to_move(&self) -> Player {
            self.info.to_move()
        }
        fn legal_moves(&self, out: &mut Vec<ShellMove>) {
            self.info.legal_moves(out);
        }
        fn sample_world<R: rand::Rng + ?Sized>(&self, _rng: &mut R) -> ShellGame {
            self.truth.clone()
        }
    }

    #[derive(Clone, Debug)]
    struct LeakyTable(ShellTable);

    impl Arbiter for LeakyTable {
        type InfoSet = LeakyInfo;
        fn truth(&self) -> &ShellGame {
            self.0.truth()
        }
        fn information_set(&self, player: Player) -> LeakyInfo {
            LeakyInfo {
                info: self.0.information_set(player),
                truth: self.0.truth().clone(),
            }
        }
        fn play_move(&mut self, mv: ShellMove) -> Result<(), crate::IllegalMove<ShellMove>> {
            self.0.play_move(mv)
        }
        fn redeal<R: rand::Rng + ?Sized>(&self, player: Player, rng: &mut R) -> Self {
            LeakyTable(self.0.redeal(player, rng))
        }
    }

    #[test]
    fn a_leak_is_caught() {
        let error =
            check_info_set_searcher(|| Peeker, &LeakyTable(ShellTable::deal(6, 1, 2)), &quick())
                .unwrap_err();
        assert!(error.detail.contains("information leak"), "{error}");
    }

    /// Plays a move legal in some consistent world only: showing a cup
    /// while the guesser waits for the hider.
    struct Overreach;

    impl InfoSetSearcher<ShellInfo> for Overreach {
        fn search(&mut self, info: &ShellInfo, limits: &Limits) -> SearchReport<ShellMove> {
            let started = limits.start();
            let mut moves = Vec::new();
            info.legal_moves(&mut moves);
            if moves.is_empty() {
                return crate::hidden::finished_report(info, started.elapsed());
            }
            // The guesser's view of the hider's moves lists every cup that
            // is empty in some world: the first may hide a pea.
            let best = moves[0];
            SearchReport::new(Some(best), 0.0).with_stats(
                SearchStats::new(0, 0, 0, started.elapsed()).with_stop(StopReason::Exhausted),
            )
        }

        fn honours(&self, _kind: LimitKind) -> bool {
            false
        }
    }

    /// Checks a hider's information set, played from the guesser's view:
    /// the move must be legal in every world the *searching* player
    /// considers, so an information set whose moves are too many is
    /// caught.
    #[derive(Clone, Debug)]
    struct GuesserViewTable(ShellTable);

    impl Arbiter for GuesserViewTable {
        type InfoSet = ShellInfo;
        fn truth(&self) -> &ShellGame {
            self.0.truth()
        }
        fn information_set(&self, _player: Player) -> ShellInfo {
            self.0.information_set(Player::First)
        }
        fn play_move(&mut self, mv: ShellMove) -> Result<(), crate::IllegalMove<ShellMove>> {
            self.0.play_move(mv)
        }
        fn redeal<R: rand::Rng + ?Sized>(&self, _player: Player, rng: &mut R) -> Self {
            GuesserViewTable(self.0.redeal(Player::First, rng))
        }
    }

    #[test]
    fn a_move_illegal_in_some_world_is_caught() {
        // From the guesser's view of the hider's turn, "show cup c" is
        // listed for every cup empty in some world, so the first one is
        // illegal in the worlds with a pea there.
        let mut start = ShellTable::deal(4, 2, 8);
        start.play_move(ShellMove::Delay).unwrap();
        let error =
            check_info_set_searcher(|| Overreach, &GuesserViewTable(start), &quick()).unwrap_err();
        assert!(
            error.detail.contains("not legal in consistent world"),
            "{error}"
        );
    }
}
