//! Self-play: many games at once, their searches sharing one batch per
//! step ([`search_together`]), each position recorded with the search's
//! policy as the policy target and the game's result as the value target.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;

use game_traits::zobrist::mix64;
use game_traits::{
    Batch, BatchEvaluator, BatchedSearch, Game, Limits, Outcome, OutcomeEvaluator, PlaneEncoding,
    PolicyEvaluator, Range, SearchReport, Searcher, UniformPrior, search_together,
};
use gumbel_az::{DirichletNoise, GumbelAz, GumbelConfig, Puct, PuctConfig};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::TrainError;
use crate::sample::{Planes, Sample};

/// The memory cap of each game's search tree (a self-play search is small).
const TREE_BYTES: usize = 64 << 20;

/// Which search plays the self-play games and gives the policy target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchKind {
    /// Gumbel AlphaZero: Gumbel noise at the root (scale 1) picks the move,
    /// and the improved policy `softmax(logits + sigma(completed Q))` is
    /// the target (Danihelka et al. 2022, section 4).
    Gumbel,
    /// PUCT with Dirichlet noise at the root: the visit distribution is the
    /// target, and the move is drawn in proportion to the visits for the
    /// first `temperature_plies` plies, the most visited after (Silver et
    /// al. 2018).
    Puct,
}

/// How self-play games are played.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct SelfPlayConfig {
    /// The search (default Gumbel).
    pub search: SearchKind,
    /// Simulations per move (default 32).
    pub simulations: u64,
    /// Gumbel's `k`: moves considered at the root (default 16).
    pub considered_actions: usize,
    /// PUCT's root noise concentration (default 0.3) ...
    pub dirichlet_alpha: f64,
    /// ... and weight (default 0.25).
    pub dirichlet_fraction: f64,
    /// PUCT: plies at the start of a game whose move is drawn in
    /// proportion to the visits (default 12).
    pub temperature_plies: usize,
    /// Games played at the same time, sharing each evaluation batch
    /// (default 32; split among the threads).
    pub games_at_once: usize,
    /// Threads, each playing its share of the games with batches of its
    /// own (default 2). Which thread plays a game does not change the game.
    pub threads: usize,
    /// At most this many uniformly random plies before the search takes
    /// over (each game draws how many, from 0 up), for varied openings and
    /// positions off the main lines (default 0); not recorded.
    pub opening_plies: usize,
    /// Plies after which a game stops, scored a draw (default 1000).
    pub max_plies: usize,
    /// Seeds every game (with the game's number).
    pub seed: u64,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            search: SearchKind::Gumbel,
            simulations: 32,
            considered_actions: 16,
            dirichlet_alpha: 0.3,
            dirichlet_fraction: 0.25,
            temperature_plies: 12,
            games_at_once: 32,
            threads: 2,
            opening_plies: 0,
            max_plies: 1000,
            seed: 0,
        }
    }
}

impl SelfPlayConfig {
    /// Checks every setting (the searcher's own checks included).
    ///
    /// # Errors
    ///
    /// [`TrainError::Range`] or [`TrainError::Searcher`] naming the first
    /// setting out of range.
    pub fn validate(&self) -> Result<(), TrainError> {
        Range::check_count("simulations", self.simulations, 1, 1 << 20)?;
        Range::check_count("games_at_once", self.games_at_once as u64, 1, 4096)?;
        Range::check_count("threads", self.threads as u64, 1, 256)?;
        Range::check_count("max_plies", self.max_plies as u64, 1, u64::MAX)?;
        self.gumbel_config(0).validate()?;
        self.puct_config(0).validate()?;
        Ok(())
    }

    fn gumbel_config(&self, seed: u64) -> GumbelConfig {
        GumbelConfig::default()
            .with_max_considered_actions(self.considered_actions)
            .with_default_simulations(self.simulations)
            .with_max_tree_bytes(TREE_BYTES)
            .with_seed(seed)
    }

    fn puct_config(&self, seed: u64) -> PuctConfig {
        PuctConfig::default()
            .with_root_noise(Some(DirichletNoise::new(
                self.dirichlet_alpha,
                self.dirichlet_fraction,
            )))
            .with_default_simulations(self.simulations)
            .with_max_tree_bytes(TREE_BYTES)
            .with_seed(seed)
    }

    /// The seed of game `number`.
    pub fn game_seed(&self, number: u64) -> u64 {
        mix64(self.seed ^ mix64(number.wrapping_add(0x5E1F_91A7)))
    }
}

/// One finished self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game's number (its seed comes from it).
    pub number: u64,
    /// Its searched positions, in order.
    pub samples: Vec<Sample>,
    /// How it ended (`None`: stopped at the ply cap).
    pub outcome: Option<Outcome>,
    /// Plies played, opening included.
    pub plies: usize,
}

/// The searches' own evaluator is never asked: `search_together` hands
/// them the network's batches.
type Unused = UniformPrior<OutcomeEvaluator>;

/// One game's search.
enum Search<G: Game> {
    Gumbel(Box<GumbelAz<G, Unused>>),
    Puct(Box<Puct<G, Unused>>),
}

impl<G: PlaneEncoding> Search<G> {
    fn advance(&mut self, mv: G::Move) {
        match self {
            Search::Gumbel(search) => search.advance(mv),
            Search::Puct(search) => search.advance(mv),
        }
    }
}

impl<G: PlaneEncoding> BatchedSearch<G> for Search<G> {
    fn begin(&mut self, state: &G, limits: &Limits) {
        match self {
            Search::Gumbel(search) => search.begin(state, limits),
            Search::Puct(search) => search.begin(state, limits),
        }
    }

    fn request(&mut self, batch: &mut Batch<G>) -> bool {
        match self {
            Search::Gumbel(search) => search.request(batch),
            Search::Puct(search) => search.request(batch),
        }
    }

    fn receive(&mut self, batch: &Batch<G>, first: usize) {
        match self {
            Search::Gumbel(search) => search.receive(batch, first),
            Search::Puct(search) => search.receive(batch, first),
        }
    }

    fn report(&mut self) -> SearchReport<G::Move> {
        match self {
            Search::Gumbel(search) => search.report(),
            Search::Puct(search) => search.report(),
        }
    }
}

/// A game being played.
struct Table<G: Game> {
    number: u64,
    state: G,
    search: Search<G>,
    rng: Pcg64Mcg,
    plies: usize,
    /// Samples so far, each with the player to move there.
    pending: Vec<(Sample, game_traits::Player)>,
}

/// Counts of a self-play batch of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfPlayStats {
    /// Positions searched (and recorded).
    pub positions: u64,
    /// Evaluator calls (steps of `search_together`).
    pub batches: u64,
    /// Positions evaluated in them.
    pub evaluations: u64,
}

/// Plays the self-play games numbered `numbers` from `start` on
/// `config.threads` threads, up to `config.games_at_once` at a time, the
/// searches of each thread's step evaluated by `evaluator` in one batch.
/// Returns the games in the order of `numbers`.
///
/// Each game's moves depend on its number, the seed and the evaluator
/// only, not on which games share its batches (given an evaluator whose
/// result for a position does not depend on the batch around it, as the
/// [`BatchEvaluator`] contract asks). Positions with one legal move are
/// played without a search and not recorded.
///
/// # Errors
///
/// [`TrainError::Config`] or [`TrainError::Searcher`] for settings out of
/// range.
pub fn play_games<G, E>(
    start: &G,
    evaluator: &E,
    config: &SelfPlayConfig,
    numbers: &[u64],
) -> Result<(Vec<GameRecord>, SelfPlayStats), TrainError>
where
    G: PlaneEncoding,
    E: BatchEvaluator<G> + ?Sized,
{
    config.validate()?;
    let counting = Counting {
        inner: evaluator,
        positions: AtomicU64::new(0),
        batches: AtomicU64::new(0),
        evaluations: AtomicU64::new(0),
    };
    let threads = config.threads.clamp(1, numbers.len().max(1));
    // Thread `t` plays games t, t + threads, ...: the same split every run.
    let parts: Vec<Vec<u64>> = (0..threads)
        .map(|thread| {
            numbers
                .iter()
                .copied()
                .skip(thread)
                .step_by(threads)
                .collect()
        })
        .collect();
    let per_thread = config.games_at_once.div_ceil(threads);
    let results: Vec<Result<Vec<GameRecord>, TrainError>> = if threads == 1 {
        vec![play_part(start, &counting, config, &parts[0], per_thread)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = parts
                .iter()
                .map(|part| {
                    let counting = &counting;
                    scope.spawn(move || play_part(start, counting, config, part, per_thread))
                })
                .collect();
            handles
                .into_iter()
                .map(|handle| {
                    handle
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        })
    };
    let mut finished = Vec::with_capacity(numbers.len());
    for result in results {
        finished.extend(result?);
    }
    let order: std::collections::HashMap<u64, usize> = numbers
        .iter()
        .enumerate()
        .map(|(place, &number)| (number, place))
        .collect();
    finished.sort_by_key(|game| order.get(&game.number).copied().unwrap_or(usize::MAX));
    let stats = SelfPlayStats {
        positions: counting.positions.into_inner(),
        batches: counting.batches.into_inner(),
        evaluations: counting.evaluations.into_inner(),
    };
    Ok((finished, stats))
}

/// One thread's games, `at_once` at a time.
fn play_part<G, E>(
    start: &G,
    counting: &Counting<'_, E>,
    config: &SelfPlayConfig,
    numbers: &[u64],
    at_once: usize,
) -> Result<Vec<GameRecord>, TrainError>
where
    G: PlaneEncoding,
    E: BatchEvaluator<G> + ?Sized,
{
    let limits = Limits::iterations(config.simulations);
    let mut queue = numbers.iter().copied();
    let mut tables: Vec<Table<G>> = Vec::new();
    let mut finished: Vec<GameRecord> = Vec::new();
    let mut moves = Vec::new();
    loop {
        while tables.len() < at_once {
            let Some(number) = queue.next() else { break };
            if let Some(table) = new_table(start, config, number, &mut moves)? {
                tables.push(table);
            } else {
                // The opening ended the game: nothing to learn from it.
                finished.push(GameRecord {
                    number,
                    samples: Vec::new(),
                    outcome: None,
                    plies: 0,
                });
            }
        }
        if tables.is_empty() {
            break;
        }
        // Forced moves are played at once; the others are searched.
        let mut index = 0;
        while index < tables.len() {
            let table = &mut tables[index];
            table.state.legal_moves(&mut moves);
            if moves.len() == 1 {
                let mv = moves[0];
                table.play(mv);
                if table.is_done(config.max_plies) {
                    finished.push(tables.swap_remove(index).finish());
                    continue;
                }
            }
            index += 1;
        }
        let searching: Vec<bool> = tables
            .iter()
            .map(|table| {
                table.state.legal_moves(&mut moves);
                moves.len() > 1
            })
            .collect();
        if !searching.contains(&true) {
            continue;
        }
        let states: Vec<G> = tables
            .iter()
            .zip(&searching)
            .filter(|(_, on)| **on)
            .map(|(table, _)| table.state.clone())
            .collect();
        let mut searches: Vec<&mut Search<G>> = tables
            .iter_mut()
            .zip(&searching)
            .filter(|(_, on)| **on)
            .map(|(table, _)| &mut table.search)
            .collect();
        let reports = search_together(counting, &mut searches, &states, &limits);
        counting.positions.fetch_add(reports.len() as u64, Relaxed);
        let searched = tables.iter_mut().zip(&searching).filter(|(_, on)| **on);
        for ((table, _), report) in searched.zip(&reports) {
            table.record(report, config);
        }
        let mut index = 0;
        while index < tables.len() {
            if tables[index].is_done(config.max_plies) {
                finished.push(tables.swap_remove(index).finish());
            } else {
                index += 1;
            }
        }
    }
    Ok(finished)
}

/// Counts the batches an evaluator is given.
struct Counting<'a, E: ?Sized> {
    inner: &'a E,
    positions: AtomicU64,
    batches: AtomicU64,
    evaluations: AtomicU64,
}

/// A policy evaluator (so a batch evaluator through `evaluate_many`)
/// that passes batches through.
impl<G: Game, E: BatchEvaluator<G> + ?Sized> PolicyEvaluator<G> for Counting<'_, E> {
    fn evaluate(&self, state: &G, moves: &[G::Move], logits: &mut [f32]) -> f32 {
        crate::evaluate::evaluate_alone(state, moves, logits, |batch| self.evaluate_many(batch))
    }

    fn evaluate_many(&self, batch: &mut Batch<G>) {
        self.batches.fetch_add(1, Relaxed);
        self.evaluations.fetch_add(batch.len() as u64, Relaxed);
        self.inner.evaluate_batch(batch);
    }
}

fn new_table<G: PlaneEncoding>(
    start: &G,
    config: &SelfPlayConfig,
    number: u64,
    moves: &mut Vec<G::Move>,
) -> Result<Option<Table<G>>, TrainError> {
    let seed = config.game_seed(number);
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut state = start.clone();
    let mut plies = 0;
    let opening = rng.random_range(..=config.opening_plies);
    for _ in 0..opening {
        state.legal_moves(moves);
        if moves.is_empty() {
            break;
        }
        state.play(moves[rng.random_range(..moves.len())]);
        plies += 1;
    }
    if state.is_over() {
        return Ok(None);
    }
    let search_seed = mix64(seed ^ 0x5EA2C4);
    let search = match config.search {
        SearchKind::Gumbel => Search::Gumbel(Box::new(GumbelAz::new(
            UniformPrior(OutcomeEvaluator),
            config.gumbel_config(search_seed),
        )?)),
        SearchKind::Puct => Search::Puct(Box::new(Puct::new(
            UniformPrior(OutcomeEvaluator),
            config.puct_config(search_seed),
        )?)),
    };
    Ok(Some(Table {
        number,
        state,
        search,
        rng,
        plies,
        pending: Vec::new(),
    }))
}

impl<G: PlaneEncoding> Table<G> {
    fn play(&mut self, mv: G::Move) {
        self.state.play(mv);
        self.search.advance(mv);
        self.plies += 1;
    }

    fn is_done(&self, max_plies: usize) -> bool {
        self.state.is_over() || self.plies >= max_plies
    }

    /// Records the searched position and plays the search's move.
    fn record(&mut self, report: &SearchReport<G::Move>, config: &SelfPlayConfig) {
        let Some(best) = report.best else { return };
        let weights: Vec<f32> = match config.search {
            SearchKind::Gumbel => report
                .moves
                .iter()
                .map(|info| info.policy.unwrap_or(0.0).max(0.0))
                .collect(),
            SearchKind::Puct => report.moves.iter().map(|info| info.visits as f32).collect(),
        };
        let total: f32 = weights.iter().sum();
        let policy: Vec<(u32, f32)> = if total > 0.0 {
            report
                .moves
                .iter()
                .zip(&weights)
                .filter(|(_, weight)| **weight > 0.0)
                .map(|(info, weight)| (self.state.policy_index(info.mv) as u32, weight / total))
                .collect()
        } else {
            vec![(self.state.policy_index(best) as u32, 1.0)]
        };
        let mv = match config.search {
            SearchKind::Puct if self.plies < config.temperature_plies && total > 0.0 => {
                let mut pick = self.rng.random::<f32>() * total;
                report
                    .moves
                    .iter()
                    .zip(&weights)
                    .find(|(_, weight)| {
                        pick -= **weight;
                        pick < 0.0
                    })
                    .map_or(best, |(info, _)| info.mv)
            }
            _ => best,
        };
        let mut planes = vec![0.0; self.state.plane_shape().len()];
        self.state.encode_planes(&mut planes);
        let sample = Sample {
            planes: Planes::pack(&planes),
            policy,
            outcome: 0.0,
            search_value: game_traits::contain_value(report.value),
        };
        self.pending.push((sample, self.state.to_move()));
        self.play(mv);
    }

    fn finish(self) -> GameRecord {
        let outcome = self.state.outcome();
        let samples = self
            .pending
            .into_iter()
            .map(|(mut sample, mover)| {
                sample.outcome = outcome.map_or(0.0, |outcome| outcome.reward(mover));
                sample
            })
            .collect();
        GameRecord {
            number: self.number,
            samples,
            outcome,
            plies: self.plies,
        }
    }
}
