//! [`Pimc`]: Perfect Information Monte Carlo over any perfect-information
//! searcher.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use game_traits::hidden::{InfoSetSearcher, WorldEnumeration, WorldMove, finished_report};
use game_traits::{
    Game, InformationSet, LimitKind, Limits, MoveInfo, SearchReport, SearchStats, Searcher,
    StopReason, zobrist::mix64,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::config::{ConfigError, MAX_THREADS};
use game_traits::Range;

/// Settings of [`Pimc`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct PimcConfig {
    /// Worlds searched per decision (all of them when the information set
    /// can list them and has no more). Default 30.
    pub worlds: usize,
    /// Worlds searched at the same time, each on its own thread with its
    /// own searcher. Default 1.
    pub threads: usize,
    /// Seeds the world sampling and the inner searchers. Default 0.
    pub seed: u64,
}

impl Default for PimcConfig {
    fn default() -> Self {
        PimcConfig {
            worlds: 30,
            threads: 1,
            seed: 0,
        }
    }
}

impl PimcConfig {
    /// Sets the number of worlds.
    #[must_use]
    pub fn with_worlds(mut self, worlds: usize) -> Self {
        self.worlds = worlds;
        self
    }

    /// Sets the number of threads.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Sets the seed.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Checks the settings.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] for 0 worlds, or 0 or more than
    /// [`MAX_THREADS`] threads.
    pub fn validate(&self) -> Result<(), ConfigError> {
        Range::check_count("worlds", self.worlds as u64, 1, u64::MAX)?;
        Range::check_count("threads", self.threads as u64, 1, MAX_THREADS as u64)?;
        Ok(())
    }
}

/// Lists every world with its probability when there are at most `max`.
type Enumerate<I> = fn(&I, usize) -> Option<Vec<(<I as InformationSet>::World, f64)>>;

fn enumerate_worlds<I: WorldEnumeration>(info: &I, max: usize) -> Option<Vec<(I::World, f64)>> {
    (info.world_count() <= max as u64).then(|| info.worlds())
}

/// Perfect Information Monte Carlo (Levy 1989; Ginsberg's GIB, JAIR 2001):
/// decides from an [`InformationSet`] by searching sampled worlds with any
/// perfect-information [`Searcher`] and playing the move of best mean
/// value.
///
/// For each decision:
///
/// 1. **Worlds.** When the information set can list its worlds
///    ([`WorldEnumeration`], with [`Pimc::new`]) and has at most
///    [`PimcConfig::worlds`] of them, every world is used with its
///    probability; otherwise that many worlds are drawn with
///    [`InformationSet::sample_world`] (a weighted set draws by weight),
///    each counting equally. Draws are seeded.
/// 2. **Searches.** Each world is searched by a *fresh* inner searcher from
///    the factory (its own transposition table, never shared between
///    worlds), on [`PimcConfig::threads`] threads.
/// 3. **Every root move scored in every world** (where it is legal): by the
///    value the inner search reports for it
///    ([`SearchReport::moves`]); a move without one is searched on its own
///    (the position after it, by another fresh searcher). Give
///    [`AlphaBeta`](crate::AlphaBeta) inner searchers
///    [`RootValues::Near`](crate::RootValues::Near) or
///    [`RootValues::Exact`](crate::RootValues::Exact): with its default
///    root, refuted moves carry upper bounds typically just below the
///    world's best, which blurs the average.
/// 4. **Combination.** The move of highest weighted mean value wins (ties:
///    the move best in more worlds, then the information set's order);
///    [`Pimc::analysis`] has each move's mean, spread (weighted standard
///    deviation) and the number of worlds in which it was best.
///
/// The budget is the whole decision's: time is shared among the worlds
/// (each world gets the time left divided by the worlds left, times the
/// threads), nodes and iterations are split evenly, depth applies to each
/// world. With no limit the inner searcher honours, each world gets the
/// inner searcher's own default budget.
///
/// PIMC is exact where no decision after the root depends on hidden
/// information, and suffers *strategy fusion* and *non-locality* elsewhere
/// (Frank & Basin 1998): see the crate documentation.
///
/// ```
/// use game_traits::hidden::{Arbiter, InfoSetSearcher};
/// use game_traits::testing::{ShellGame, ShellMove, ShellTable};
/// use game_traits::{Limits, OutcomeEvaluator, Player};
/// use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig, Pimc, PimcConfig, RootValues};
///
/// // PIMC over alpha-beta: the inner settings are checked once, here, so
/// // the factory cannot fail.
/// let inner = AlphaBetaConfig::default().with_root_values(RootValues::Near(0.1));
/// inner.validate()?;
/// let mut pimc = Pimc::new(
///     move |_seed| AlphaBeta::new(OutcomeEvaluator, inner.clone()).expect("checked above"),
///     PimcConfig::default(),
/// )?;
/// // Four cups, the first shown empty, one pea under the other three: a
/// // guess wins once in three, so folding is best.
/// let table = ShellTable::new(ShellGame::new(4, 0b0100, 0b0001)?);
/// let report = pimc.search(&table.information_set(Player::First), &Limits::none());
/// assert_eq!(report.best, Some(ShellMove::Fold));
/// let analysis = pimc.analysis().unwrap();
/// assert_eq!(analysis.worlds, 3); // every consistent world
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Pimc<I: InformationSet, S> {
    make: Arc<dyn Fn(u64) -> S + Send + Sync>,
    config: PimcConfig,
    enumerate: Option<Enumerate<I>>,
    rng: Pcg64Mcg,
    honours: [bool; 4],
    inner_name: String,
    analysis: Option<PimcAnalysis<WorldMove<I>>>,
}

impl<I: WorldEnumeration, S: Searcher<I::World>> Pimc<I, S> {
    /// PIMC with `config` over the searchers `make(seed)` builds (one per
    /// world), using every world when there are no more than
    /// [`PimcConfig::worlds`].
    ///
    /// # Errors
    ///
    /// [`ConfigError`] if a setting is out of range (see
    /// [`PimcConfig::validate`]).
    pub fn new<F: Fn(u64) -> S + Send + Sync + 'static>(
        make: F,
        config: PimcConfig,
    ) -> Result<Self, ConfigError> {
        let mut pimc = Pimc::sampling(make, config)?;
        pimc.enumerate = Some(enumerate_worlds::<I>);
        Ok(pimc)
    }
}

impl<I: InformationSet, S: Searcher<I::World>> Pimc<I, S> {
    /// PIMC for an information set that cannot list its worlds: always
    /// samples [`PimcConfig::worlds`] worlds.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] if a setting is out of range (see
    /// [`PimcConfig::validate`]).
    pub fn sampling<F: Fn(u64) -> S + Send + Sync + 'static>(
        make: F,
        config: PimcConfig,
    ) -> Result<Self, ConfigError> {
        config.validate()?;
        let probe = make(0);
        let honours = LimitKind::ALL.map(|kind| probe.honours(kind));
        let inner_name = probe.name();
        Ok(Pimc {
            make: Arc::new(make),
            rng: Pcg64Mcg::seed_from_u64(config.seed),
            config,
            enumerate: None,
            honours,
            inner_name,
            analysis: None,
        })
    }

    /// The settings.
    pub fn config(&self) -> &PimcConfig {
        &self.config
    }

    /// What the last decision found; `None` before the first and after a
    /// search of a finished game.
    pub fn analysis(&self) -> Option<&PimcAnalysis<WorldMove<I>>> {
        self.analysis.as_ref()
    }

    /// The worlds of this decision, each with its weight.
    fn worlds(&mut self, info: &I) -> (Vec<(I::World, f64)>, bool) {
        if let Some(enumerate) = self.enumerate
            && let Some(worlds) = enumerate(info, self.config.worlds)
            && !worlds.is_empty()
        {
            return (worlds, true);
        }
        let worlds = (0..self.config.worlds)
            .map(|_| (info.sample_world(&mut self.rng), 1.0))
            .collect();
        (worlds, false)
    }
}

/// What PIMC found in one world.
struct WorldResult {
    weight: f64,
    /// The score of each root move (in the information set's order), if
    /// legal in this world.
    scores: Vec<Option<f32>>,
    nodes: u64,
    iterations: u64,
    depth: u32,
    stop: StopReason,
}

/// What one PIMC decision found.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct PimcAnalysis<M> {
    /// Every root move, in the information set's order.
    pub moves: Vec<PimcMove<M>>,
    /// Worlds searched.
    pub worlds: usize,
    /// Whether the worlds were every consistent world (with their
    /// probabilities) rather than a sample.
    pub enumerated: bool,
    /// Worlds drawn but not searched because the time ran out or a stop
    /// was requested.
    pub skipped: usize,
}

/// One root move of a [`PimcAnalysis`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct PimcMove<M> {
    /// The move.
    pub mv: M,
    /// Its weighted mean value over the worlds where it was scored.
    pub mean: f64,
    /// The weighted standard deviation of its values.
    pub spread: f64,
    /// Worlds in which it was scored best (ties count for each).
    pub best_in: usize,
    /// Worlds in which it was scored.
    pub worlds: usize,
}

impl<M: PartialEq> PimcAnalysis<M> {
    /// The share of searched worlds in which `mv` was best: how much the
    /// worlds agree with playing it.
    pub fn agreement(&self, mv: &M) -> f64 {
        self.moves
            .iter()
            .find(|entry| entry.mv == *mv)
            .map_or(0.0, |entry| {
                entry.best_in as f64 / self.worlds.max(1) as f64
            })
    }
}

/// The budget of one world's search.
struct WorldBudget<'a> {
    limits: &'a Limits,
    started: Instant,
    deadline: Option<Instant>,
    default_budget: bool,
    worlds: usize,
    threads: usize,
}

impl WorldBudget<'_> {
    /// Limits for a world search started when `left` worlds (this one
    /// included) were not yet started; `None` if time is up or a stop was
    /// requested (and the world should be skipped).
    fn limits(&self, left: usize) -> Option<Limits> {
        if self.default_budget {
            return Some(Limits::none());
        }
        let mut limits = Limits::none();
        if let Some(stop) = &self.limits.stop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            limits = limits.with_stop(Arc::clone(stop));
        }
        if let Some(deadline) = self.deadline {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return None;
            }
            let share = remaining.mul_f64(self.threads as f64 / left.max(1) as f64);
            limits = limits.with_time(share.min(remaining));
        } else if let Some(time) = self.limits.time {
            // A time too long for the clock: no deadline, but keep the
            // field so the inner searcher sees a time limit.
            limits = limits.with_time(time);
        }
        if let Some(nodes) = self.limits.nodes {
            limits = limits.with_nodes((nodes / self.worlds as u64).max(1));
        }
        if let Some(iterations) = self.limits.iterations {
            limits = limits.with_iterations((iterations / self.worlds as u64).max(1));
        }
        if let Some(depth) = self.limits.depth {
            limits = limits.with_depth(depth);
        }
        Some(limits)
    }

    fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

impl<I, S> InfoSetSearcher<I> for Pimc<I, S>
where
    I: InformationSet,
    S: Searcher<I::World>,
{
    fn search(&mut self, info: &I, limits: &Limits) -> SearchReport<WorldMove<I>> {
        let started = Instant::now();
        let mut root = Vec::new();
        info.legal_moves(&mut root);
        if root.is_empty() {
            self.analysis = None;
            return finished_report(info, started.elapsed());
        }
        let (worlds, enumerated) = self.worlds(info);
        let seeds: Vec<u64> = worlds.iter().map(|_| self.rng.random::<u64>()).collect();
        let honours = self.honours;
        let budget = WorldBudget {
            limits,
            started,
            deadline: limits.time.and_then(|time| started.checked_add(time)),
            default_budget: limits.uses_default_budget(|kind| {
                honours[LimitKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)]
            }),
            worlds: worlds.len(),
            threads: self.config.threads.min(worlds.len()).max(1),
        };
        let results = self.search_worlds(&worlds, &seeds, &root, &budget);
        self.combine(&root, results, enumerated, &budget)
    }

    /// Restarts the random generator from the seed and forgets the last
    /// analysis (PIMC keeps nothing else between decisions).
    fn reset(&mut self) {
        self.rng = Pcg64Mcg::seed_from_u64(self.config.seed);
        self.analysis = None;
    }

    fn name(&self) -> String {
        format!("pimc({})", self.inner_name)
    }

    /// The fields the inner searcher honours.
    fn honours(&self, kind: LimitKind) -> bool {
        self.honours[LimitKind::ALL.iter().position(|&k| k == kind).unwrap_or(0)]
    }
}

impl<I: InformationSet, S: Searcher<I::World>> Pimc<I, S> {
    /// Searches every world (in parallel on the configured threads) and
    /// returns the results by world, `None` for worlds skipped.
    fn search_worlds(
        &self,
        worlds: &[(I::World, f64)],
        seeds: &[u64],
        root: &[WorldMove<I>],
        budget: &WorldBudget<'_>,
    ) -> Vec<Option<WorldResult>> {
        let next = AtomicUsize::new(0);
        let any_done = AtomicBool::new(false);
        let results: Mutex<Vec<Option<WorldResult>>> =
            Mutex::new((0..worlds.len()).map(|_| None).collect());
        let work = || {
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= worlds.len() {
                    break;
                }
                let left = worlds.len() - index;
                let limits = match budget.limits(left) {
                    Some(limits) => limits,
                    // Always search at least one world: it gives a move.
                    None if !any_done.load(Ordering::Relaxed) && index == 0 => {
                        Limits::none().with_stop(Arc::new(AtomicBool::new(true)))
                    }
                    None => continue,
                };
                let (world, weight) = &worlds[index];
                let result = self.search_world(world, *weight, seeds[index], root, &limits);
                any_done.store(true, Ordering::Relaxed);
                results.lock().unwrap_or_else(PoisonError::into_inner)[index] = Some(result);
            }
        };
        if budget.threads <= 1 {
            work();
        } else {
            std::thread::scope(|scope| {
                for _ in 0..budget.threads {
                    scope.spawn(work);
                }
            });
        }
        results.into_inner().unwrap_or_else(PoisonError::into_inner)
    }

    /// Searches one world with a fresh searcher and scores every root move
    /// legal there.
    fn search_world(
        &self,
        world: &I::World,
        weight: f64,
        seed: u64,
        root: &[WorldMove<I>],
        limits: &Limits,
    ) -> WorldResult {
        let started = Instant::now();
        let mut inner = (self.make)(seed);
        let report = inner.search(world, limits);
        let mut nodes = report.stats.nodes;
        let mut iterations = report.stats.iterations;
        let mut legal = Vec::new();
        world.legal_moves(&mut legal);
        let mut scores: Vec<Option<f32>> = root
            .iter()
            .map(|mv| {
                if !legal.contains(mv) {
                    return None;
                }
                report
                    .moves
                    .iter()
                    .find(|info| info.mv == *mv)
                    .and_then(|info| info.value)
                    .or_else(|| (report.best == Some(*mv)).then_some(report.value))
            })
            .collect();
        // Moves the inner search gave no value: search each on its own.
        let missing: Vec<usize> = (0..root.len())
            .filter(|&index| scores[index].is_none() && legal.contains(&root[index]))
            .collect();
        let world_end = limits.time.and_then(|time| started.checked_add(time));
        for (done, &index) in missing.iter().enumerate() {
            let mut child = world.clone();
            child.play(root[index]);
            let value = match child.outcome() {
                Some(outcome) => outcome.reward(world.to_move()),
                None => {
                    let mut child_limits = limits.clone();
                    if let Some(depth) = limits.depth {
                        child_limits.depth = Some(depth.saturating_sub(1));
                    }
                    if let Some(end) = world_end {
                        let left = (missing.len() - done) as u32;
                        child_limits.time =
                            Some(end.saturating_duration_since(Instant::now()) / left);
                    }
                    let mut searcher = (self.make)(mix64(seed ^ (index as u64 + 1)));
                    let child_report = searcher.search(&child, &child_limits);
                    nodes += child_report.stats.nodes;
                    iterations += child_report.stats.iterations;
                    if child.to_move() == world.to_move() {
                        child_report.value
                    } else {
                        -child_report.value
                    }
                }
            };
            scores[index] = Some(game_traits::contain_value(value));
        }
        WorldResult {
            weight,
            scores,
            nodes,
            iterations,
            depth: report.stats.depth,
            stop: report.stats.stop,
        }
    }

    /// Combines the worlds' scores into the decision.
    fn combine(
        &mut self,
        root: &[WorldMove<I>],
        results: Vec<Option<WorldResult>>,
        enumerated: bool,
        budget: &WorldBudget<'_>,
    ) -> SearchReport<WorldMove<I>> {
        let skipped = results.iter().filter(|result| result.is_none()).count();
        let searched: Vec<WorldResult> = results.into_iter().flatten().collect();
        let mut moves: Vec<PimcMove<WorldMove<I>>> = root
            .iter()
            .map(|&mv| PimcMove {
                mv,
                mean: 0.0,
                spread: 0.0,
                best_in: 0,
                worlds: 0,
            })
            .collect();
        for (index, entry) in moves.iter_mut().enumerate() {
            let (mut total, mut sum, mut squares) = (0.0f64, 0.0f64, 0.0f64);
            for result in &searched {
                if let Some(score) = result.scores[index] {
                    let score = f64::from(score);
                    total += result.weight;
                    sum += result.weight * score;
                    squares += result.weight * score * score;
                    entry.worlds += 1;
                }
            }
            if total > 0.0 {
                entry.mean = sum / total;
                entry.spread = (squares / total - entry.mean * entry.mean).max(0.0).sqrt();
            }
        }
        for result in &searched {
            let best = result
                .scores
                .iter()
                .flatten()
                .copied()
                .fold(f32::NEG_INFINITY, f32::max);
            for (entry, score) in moves.iter_mut().zip(&result.scores) {
                if *score == Some(best) {
                    entry.best_in += 1;
                }
            }
        }
        let chosen = moves
            .iter()
            .enumerate()
            .filter(|(_, entry)| entry.worlds > 0)
            .max_by(|(a_index, a), (b_index, b)| {
                a.mean
                    .total_cmp(&b.mean)
                    .then(a.best_in.cmp(&b.best_in))
                    .then(b_index.cmp(a_index))
            })
            .map_or(0, |(index, _)| index);
        let best = root[chosen];
        let value = game_traits::contain_value(moves[chosen].mean as f32);
        let infos = moves
            .iter()
            .filter(|entry| entry.worlds > 0)
            .map(|entry| {
                let value = if entry.mv == best {
                    value
                } else {
                    game_traits::contain_value(entry.mean as f32)
                };
                MoveInfo::new(entry.mv).with_value(value)
            })
            .collect();
        let stop = combined_stop(budget.limits, &searched, skipped);
        let stats = SearchStats::new(
            searched.iter().map(|result| result.iterations).sum(),
            searched.iter().map(|result| result.nodes).sum(),
            searched
                .iter()
                .map(|result| result.depth)
                .min()
                .unwrap_or(0),
            budget.elapsed(),
        )
        .with_stop(stop);
        self.analysis = Some(PimcAnalysis {
            moves,
            worlds: searched.len(),
            enumerated,
            skipped,
        });
        SearchReport::new(Some(best), value)
            .with_pv(vec![best])
            .with_moves(infos)
            .with_stats(stats)
    }
}

/// Why a PIMC decision ended: the stop flag if set; else the limit that
/// ended the world searches (time first, as it also skips worlds); else,
/// every world having ended on its own, [`StopReason::Exhausted`].
fn combined_stop(limits: &Limits, searched: &[WorldResult], skipped: usize) -> StopReason {
    if limits.stop_requested() {
        return StopReason::Stopped;
    }
    if skipped > 0 && limits.time.is_some() {
        return StopReason::Time;
    }
    let order = [
        StopReason::Stopped,
        StopReason::Time,
        StopReason::Nodes,
        StopReason::Iterations,
        StopReason::DefaultBudget,
        StopReason::MemoryCap,
        StopReason::Depth,
    ];
    order
        .into_iter()
        .find(|reason| searched.iter().any(|result| result.stop == *reason))
        .unwrap_or(StopReason::Exhausted)
}

impl<I: InformationSet, S> std::fmt::Debug for Pimc<I, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pimc")
            .field("config", &self.config)
            .field("inner", &self.inner_name)
            .field("enumerates", &self.enumerate.is_some())
            .finish()
    }
}
