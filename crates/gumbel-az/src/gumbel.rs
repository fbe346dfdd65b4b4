//! Gumbel AlphaZero: Gumbel-Top-k and Sequential Halving at the root,
//! deterministic selection with completed Q-values below it (Danihelka,
//! Guez, Schrittwieser, Silver, "Policy improvement by planning with
//! Gumbel", ICLR 2022), detail for detail as the authors' mctx 0.0.71
//! `gumbel_muzero_policy` does it.

use std::time::Instant;

use game_traits::{
    ActionSpace, Batch, BatchEvaluator, BatchedSearch, Game, LimitKind, Limits, MoveInfo,
    SearchReport, SearchStats, Searcher, StopReason,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::error::{check_batch, check_simulations, check_tree_bytes};
use crate::flight::InFlight;
use crate::flight::{stop_reason, with_virtual_loss};
use crate::qtransform::{Completion, complete};
use crate::tree::{Edge, Scratch, StallWatch, Step, Tree};
use crate::{CompletedQ, ConfigError, ConsideredVisits, NoiseError, noise};
use game_traits::Range;

/// The reference's floor on root scores (mctx `score_considered`), applied
/// before actions outside the schedule are excluded.
const LOW_LOGIT: f64 = -1e9;

/// The most simulations one schedule plans (visit counts are `u32`).
const MAX_PLANNED_SIMULATIONS: u64 = u32::MAX as u64 - 2;

/// Settings of [`GumbelAz`]. The defaults are the reference's (`k = 16`,
/// `gumbel_scale = 1`, [`CompletedQ::default`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "crate::serde_impl::GumbelConfigRaw")
)]
#[non_exhaustive]
pub struct GumbelConfig {
    /// `k`: the root considers `m = min(k, legal moves)` actions, sampled
    /// without replacement by Gumbel-Top-k.
    pub max_considered_actions: usize,
    /// Multiplies the root's Gumbel noise; `0` makes the search
    /// deterministic (Top-k of the logits).
    pub gumbel_scale: f64,
    /// The completed-Q transform used at every node.
    pub completed_q: CompletedQ,
    /// Simulations per search when the [`Limits`] set no iteration budget.
    /// Sequential Halving plans its schedule for the iteration budget (or
    /// this default); a time limit or stop flag cuts the schedule short.
    pub default_simulations: u64,
    /// Seeds the noise; [`Searcher::reset`] restarts the sequence.
    pub seed: u64,
    /// Keep the evaluated subtree of the move played (see
    /// [`Searcher::advance`]). The search itself is unchanged: Sequential
    /// Halving needs fresh root statistics, so reuse keeps the nodes'
    /// evaluations (no evaluator call for them) and clears their visits.
    pub reuse_tree: bool,
    /// Record each simulation's path in [`GumbelAnalysis::paths`].
    pub record_paths: bool,
    /// The memory cap of the tree, in bytes (default 1 GiB): nodes and
    /// edges never reserve more; positions that do not fit are evaluated
    /// without being kept. At least [`MIN_TREE_BYTES`](crate::MIN_TREE_BYTES).
    pub max_tree_bytes: usize,
    /// Leaves evaluated per evaluator call (default 1; at most
    /// [`MAX_BATCH_SIZE`](crate::MAX_BATCH_SIZE)). With more than one, a
    /// step starts up to this many simulations, each counting as
    /// [`virtual_loss`](GumbelConfig::virtual_loss) lost visits below the
    /// root while it is in flight, and evaluates their leaves in one call.
    /// The root keeps the exact Sequential Halving schedule: a simulation in
    /// flight counts as a visit of its root action, and a batch never
    /// crosses the end of a schedule. With 1, the search is exactly the
    /// unbatched one.
    pub batch_size: usize,
    /// Lost visits each simulation in flight adds to the edges of its path
    /// below the root, when [`batch_size`](GumbelConfig::batch_size) is
    /// above 1 (default 1; 0 turns virtual loss off, and simulations of a
    /// batch that reach the same new position share its evaluation).
    pub virtual_loss: u32,
}

impl Default for GumbelConfig {
    fn default() -> Self {
        GumbelConfig {
            max_considered_actions: 16,
            gumbel_scale: 1.0,
            completed_q: CompletedQ::default(),
            default_simulations: 64,
            seed: 0,
            reuse_tree: true,
            record_paths: false,
            max_tree_bytes: crate::DEFAULT_TREE_BYTES,
            batch_size: 1,
            virtual_loss: 1,
        }
    }
}

impl GumbelConfig {
    /// Settings for play rather than training: the defaults without root
    /// noise (`gumbel_scale = 0`), so the root considers the top `k` moves
    /// of the evaluator's logits. The default configuration keeps the
    /// reference's noise scale of 1, a self-play training device that costs
    /// strength in play.
    pub fn for_play() -> Self {
        GumbelConfig::default().with_gumbel_scale(0.0)
    }

    /// Sets the memory cap of the tree, in bytes.
    #[must_use]
    pub fn with_max_tree_bytes(mut self, bytes: usize) -> Self {
        self.max_tree_bytes = bytes;
        self
    }

    /// Sets `k`, the number of actions considered at the root.
    #[must_use]
    pub fn with_max_considered_actions(mut self, k: usize) -> Self {
        self.max_considered_actions = k;
        self
    }

    /// Sets the scale of the root noise.
    #[must_use]
    pub fn with_gumbel_scale(mut self, gumbel_scale: f64) -> Self {
        self.gumbel_scale = gumbel_scale;
        self
    }

    /// Sets the completed-Q transform.
    #[must_use]
    pub fn with_completed_q(mut self, completed_q: CompletedQ) -> Self {
        self.completed_q = completed_q;
        self
    }

    /// Sets the simulations used when the limits give no iteration budget.
    #[must_use]
    pub fn with_default_simulations(mut self, simulations: u64) -> Self {
        self.default_simulations = simulations;
        self
    }

    /// Sets the seed.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Turns subtree reuse on or off.
    #[must_use]
    pub fn with_reuse_tree(mut self, reuse_tree: bool) -> Self {
        self.reuse_tree = reuse_tree;
        self
    }

    /// Turns path recording on or off.
    #[must_use]
    pub fn with_record_paths(mut self, record_paths: bool) -> Self {
        self.record_paths = record_paths;
        self
    }

    /// Sets the leaves evaluated per evaluator call.
    #[must_use]
    pub fn with_batch_size(mut self, batch_size: usize) -> Self {
        self.batch_size = batch_size;
        self
    }

    /// Sets the lost visits per simulation in flight.
    #[must_use]
    pub fn with_virtual_loss(mut self, virtual_loss: u32) -> Self {
        self.virtual_loss = virtual_loss;
        self
    }

    /// Checks every parameter.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] for `max_considered_actions = 0`, a negative
    /// or non-finite `gumbel_scale`, `default_simulations = 0`, `max_tree_bytes` below
    /// `MIN_TREE_BYTES`, `batch_size` outside `1..=MAX_BATCH_SIZE`,
    /// `virtual_loss` above `MAX_VIRTUAL_LOSS` or a bad [`CompletedQ`].
    pub fn validate(&self) -> Result<(), ConfigError> {
        Range::AtLeast(1.0).check("max_considered_actions", self.max_considered_actions as f64)?;
        Range::AtLeast(0.0).check("gumbel_scale", self.gumbel_scale)?;
        check_simulations(self.default_simulations)?;
        check_tree_bytes(self.max_tree_bytes)?;
        check_batch(self.batch_size, self.virtual_loss)?;
        self.completed_q.validate()
    }
}

/// Everything a Gumbel search computed at the root, indexed by action
/// (`0..num_actions` of the game's [`ActionSpace`]): the training targets
/// and the numbers the reference reports.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct GumbelAnalysis<M> {
    /// The same report [`Searcher::search`] returns.
    pub report: SearchReport<M>,
    /// The chosen action's index; `None` at a finished position.
    pub action: Option<usize>,
    /// Root visit counts.
    pub visits: Vec<u32>,
    /// The evaluator's prior, `softmax(logits)`; 0 for illegal actions.
    pub prior: Vec<f64>,
    /// The improved policy `softmax(logits + sigma(completed Q))` (paper,
    /// Eq. 11); exactly 0 for illegal actions.
    pub improved_policy: Vec<f64>,
    /// `sigma(completed Q)` (the reference's `completed_qvalues`). Illegal
    /// actions hold sigma of the mixed value, as in the reference.
    pub completed_q: Vec<f64>,
    /// Completed Q before rescaling and sigma: `q(a)` if visited, else the
    /// mixed value.
    pub completed_q_unscaled: Vec<f64>,
    /// Mean value of each visited action for the player to move.
    pub q_values: Vec<Option<f64>>,
    /// The mixed value `v_mix` at the root.
    pub mixed_value: f64,
    /// Mean of the root's evaluation and every simulation's value.
    pub root_value: f64,
    /// `m = min(k, legal moves)`.
    pub num_considered: usize,
    /// The visit count each simulation required at the root (the schedule,
    /// as far as it ran).
    pub considered_visits: Vec<u32>,
    /// The root noise used (already scaled; 0 for illegal actions).
    pub noise: Vec<f64>,
    /// Each simulation's actions from the root to the node it evaluated or
    /// the finished position it reached; empty unless
    /// [`GumbelConfig::record_paths`] is set.
    pub paths: Vec<Vec<usize>>,
}

/// What [`GumbelAz::run`] leaves behind for the report and the analysis.
#[derive(Clone, Copy, Debug, Default)]
struct Run {
    /// Simulations of the round reported.
    simulations: u64,
    /// Simulations of every round together.
    total_simulations: u64,
    planned: u64,
    considered: usize,
    depth: usize,
    /// The chosen root edge (absolute edge index); `None` at a finished
    /// position.
    selected: Option<usize>,
    elapsed: std::time::Duration,
    stop: StopReason,
}

/// Gumbel AlphaZero search for any game with a fixed action space and a
/// policy evaluator.
///
/// * Root: Gumbel-Top-k picks `m = min(k, legal)` actions, and Sequential
///   Halving ([`ConsideredVisits`]) spreads the simulations over them,
///   each simulation taking the best `g + logits + sigma(completed Q)`
///   among the actions whose visit count the schedule asks for.
/// * Below the root: `argmax_a pi'(a) - N(a) / (1 + sum_b N(b))` with
///   `pi' = softmax(logits + sigma(completed Q))` (paper, Eq. 14).
/// * Move: the best `g + logits + sigma` among the most visited actions;
///   the report's [`MoveInfo::policy`] is the improved policy.
///
/// Values are read per node from [`Game::to_move`], so games whose turns
/// do not alternate work. Finished positions back up their exact reward.
/// Statistics are kept in `f64`, as the reference data were computed.
///
/// The iteration budget of [`Limits`] counts simulations; time limits and
/// the stop flag end the search early; the node limit caps the tree size.
pub struct GumbelAz<G: Game, E> {
    evaluator: E,
    config: GumbelConfig,
    rng: Pcg64Mcg,
    tree: Tree<G::Move>,
    scratch: Scratch<G::Move>,
    /// Per root edge: the noise `g` and the masked logits.
    noise: Vec<f64>,
    masked_logits: Vec<f64>,
    /// Per edge of the node being scored: sigma, then scratch.
    sigma: Vec<f64>,
    /// Per root edge, after a search: the improved policy.
    policy: Vec<f64>,
    completion: Option<Completion>,
    state: Option<G>,
    paths: Vec<Vec<usize>>,
    /// The analysis of the last complete round of an anytime search that a
    /// limit then cut short, which speaks for the search.
    kept_round: Option<GumbelAnalysis<G::Move>>,
    /// The search in progress, between its steps.
    active: Option<Box<Active<G>>>,
    /// Simulations waiting for their leaves' evaluations.
    flight: InFlight,
    /// The batch of the searcher's own searches, kept for its buffers.
    batch: Batch<G>,
    /// Edges of a node with virtual losses applied, for interior selection
    /// while simulations are in flight.
    effective: Vec<Edge<G::Move>>,
}

/// Where a search in progress stands.
#[derive(Debug)]
enum Phase {
    /// The root's node must be evaluated first.
    RootWanted,
    /// Its evaluation was asked for.
    RootAsked,
    /// The root's node is in the tree: draw the noise, plan the schedule.
    RootReady,
    /// Sequential Halving rounds.
    Rounds,
    /// Ended: what to report, or the root noise that was refused.
    Done(Result<Run, NoiseError>),
}

/// A search between its steps.
#[derive(Debug)]
struct Active<G: Game> {
    root: G,
    limits: Limits,
    started: Instant,
    given_noise: Option<Vec<f64>>,
    phase: Phase,
    run: Run,
    /// The planned budget of one schedule; `None`: anytime rounds.
    fixed: Option<u64>,
    num_actions: usize,
    schedule: ConsideredVisits,
    stall: StallWatch,
    /// The last round completed by an anytime search, and its analysis.
    completed_round: Option<(Run, GumbelAnalysis<G::Move>)>,
    /// Set once a limit (or an exhausted tree) ends the search; it ends
    /// when the simulations in flight are backed up.
    stopping: Option<StopReason>,
    sim_state: G,
}

impl<G: Game, E: std::fmt::Debug> std::fmt::Debug for GumbelAz<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GumbelAz")
            .field("evaluator", &self.evaluator)
            .field("config", &self.config)
            .field("tree_nodes", &self.tree.nodes.len())
            .finish_non_exhaustive()
    }
}

impl<G: ActionSpace, E: BatchEvaluator<G>> GumbelAz<G, E> {
    /// A searcher with `evaluator` and `config`.
    ///
    /// # Errors
    ///
    /// Returns the [`ConfigError`] of [`GumbelConfig::validate`].
    pub fn new(evaluator: E, config: GumbelConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(GumbelAz {
            evaluator,
            rng: Pcg64Mcg::seed_from_u64(config.seed),
            config,
            tree: Tree::default(),
            scratch: Scratch::default(),
            noise: Vec::new(),
            masked_logits: Vec::new(),
            sigma: Vec::new(),
            policy: Vec::new(),
            completion: None,
            state: None,
            paths: Vec::new(),
            kept_round: None,
            active: None,
            flight: InFlight::default(),
            batch: Batch::new(),
            effective: Vec::new(),
        })
    }

    /// A searcher with the reference's default settings.
    pub fn with_defaults(evaluator: E) -> Self {
        GumbelAz::new(evaluator, GumbelConfig::default())
            .unwrap_or_else(|_| unreachable!("the default configuration is valid"))
    }

    /// The settings.
    pub fn config(&self) -> &GumbelConfig {
        &self.config
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Bytes the kept tree holds reserved: never more than the
    /// configuration's `max_tree_bytes` (the root aside).
    pub fn memory_bytes(&self) -> usize {
        self.tree.memory_bytes()
    }

    /// Nodes in the kept tree.
    pub fn tree_nodes(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Searches `state` and returns every root statistic, indexed by
    /// action; the root noise is drawn from the searcher's seeded
    /// generator.
    pub fn analyse(&mut self, state: &G, limits: &Limits) -> GumbelAnalysis<G::Move> {
        let run = self
            .run(state, limits, None)
            .unwrap_or_else(|_| unreachable!("drawn noise is always valid"));
        self.finished_analysis(state, &run)
    }

    /// The analysis of a finished run: the kept round's, if there is one.
    fn finished_analysis(&mut self, state: &G, run: &Run) -> GumbelAnalysis<G::Move> {
        match self.kept_round.take() {
            Some(mut kept) => {
                kept.report.stats = self.report_of(run).stats;
                kept
            }
            None => self.analysis(state, run),
        }
    }

    /// Like [`analyse`](GumbelAz::analyse), with the root noise given: one
    /// entry per action of the action space, already scaled (the config's
    /// `gumbel_scale` is not applied); entries of illegal actions are
    /// ignored. This is how tests replay the reference's searches.
    ///
    /// # Errors
    ///
    /// [`NoiseError::Length`] if `noise` does not have one entry per action;
    /// [`NoiseError::NotFinite`] if a legal action's entry is not finite.
    pub fn analyse_with_noise(
        &mut self,
        state: &G,
        limits: &Limits,
        noise: &[f64],
    ) -> Result<GumbelAnalysis<G::Move>, NoiseError> {
        let run = self.run(state, limits, Some(noise))?;
        Ok(self.finished_analysis(state, &run))
    }

    /// Runs a whole search with the searcher's own evaluator, batch after
    /// batch.
    fn run(
        &mut self,
        state: &G,
        limits: &Limits,
        given_noise: Option<&[f64]>,
    ) -> Result<Run, NoiseError> {
        let num_actions = state.num_actions();
        if let Some(noise) = given_noise
            && noise.len() != num_actions
        {
            return Err(NoiseError::Length {
                expected: num_actions,
                got: noise.len(),
            });
        }
        self.begin_search(state, limits, given_noise);
        let mut batch = std::mem::take(&mut self.batch);
        loop {
            batch.clear();
            if !self.request_evaluations(&mut batch) {
                break;
            }
            if !batch.is_empty() {
                self.evaluator.evaluate_batch(&mut batch);
            }
            self.receive_evaluations(&batch, 0);
        }
        self.batch = batch;
        self.take_result()
    }
}

impl<G: ActionSpace, E> GumbelAz<G, E> {
    /// Starts a search: the clock, the root (kept from the last search if
    /// it matches, or to be evaluated first) and the buffers.
    fn begin_search(&mut self, state: &G, limits: &Limits, given_noise: Option<&[f64]>) {
        let started = Instant::now();
        self.tree.set_batching(self.config.batch_size > 1);
        self.tree.max_bytes = self.config.max_tree_bytes;
        self.flight.clear();
        let phase = if self.config.reuse_tree && self.tree.root_matches(state, &mut self.scratch) {
            self.tree.clear_statistics();
            Phase::RootReady
        } else {
            state.legal_moves(&mut self.scratch.moves);
            if self.scratch.moves.is_empty() {
                self.tree.new_terminal_root(state);
                Phase::RootReady
            } else {
                self.tree.clear();
                Phase::RootWanted
            }
        };
        self.paths.clear();
        self.completion = None;
        self.kept_round = None;
        let sim_state = match self.state.take() {
            Some(mut kept) => {
                kept.clone_from(state);
                kept
            }
            None => state.clone(),
        };
        self.active = Some(Box::new(Active {
            root: state.clone(),
            limits: limits.clone(),
            started,
            given_noise: given_noise.map(<[f64]>::to_vec),
            phase,
            run: Run::default(),
            fixed: None,
            num_actions: state.num_actions(),
            schedule: ConsideredVisits::new(0, 0),
            stall: StallWatch::new(limits, 0),
            completed_round: None,
            stopping: None,
            sim_state,
        }));
    }

    /// The root noise and logits, `m`, the budget and the first schedule,
    /// once the root is in the tree.
    fn setup_root(&mut self, active: &mut Active<G>) {
        let root = *self.tree.root();
        if root.terminal {
            active.run.elapsed = active.started.elapsed();
            active.run.stop = StopReason::GameOver;
            active.phase = Phase::Done(Ok(active.run));
            return;
        }
        // The root's masked logits (mctx `_mask_invalid_actions`) and noise.
        self.noise.clear();
        self.masked_logits.clear();
        let root_edges = &self.tree.edges[root.edges()];
        let max_logit = root_edges
            .iter()
            .map(|edge| edge.logit)
            .fold(f64::NEG_INFINITY, f64::max);
        for edge in root_edges {
            self.masked_logits.push(edge.logit - max_logit);
            let g = match &active.given_noise {
                Some(noise) => {
                    let g = noise[edge.action as usize];
                    if !g.is_finite() {
                        active.phase = Phase::Done(Err(NoiseError::NotFinite {
                            action: edge.action as usize,
                            value: g,
                        }));
                        return;
                    }
                    g
                }
                None if self.config.gumbel_scale == 0.0 => 0.0,
                None => self.config.gumbel_scale * noise::gumbel(&mut self.rng),
            };
            self.noise.push(g);
        }

        let run = &mut active.run;
        run.considered = self
            .config
            .max_considered_actions
            .min(root.num_edges as usize);
        // An iteration budget (given, or the default one) plans one
        // Sequential Halving schedule. Without one, the search is anytime:
        // it runs complete schedules of doubling size, keeping the last one
        // completed, until a limit ends it.
        let limits = &active.limits;
        let default_budget = limits.uses_default_budget(|kind| kind != LimitKind::Depth);
        active.fixed = limits
            .iterations
            .or(default_budget.then_some(self.config.default_simulations));
        run.planned = active
            .fixed
            .unwrap_or(self.config.default_simulations)
            .min(MAX_PLANNED_SIMULATIONS);
        active.stall = StallWatch::new(limits, self.tree.nodes.len());
        active.schedule = ConsideredVisits::new(run.considered, run.planned);
        active.phase = Phase::Rounds;
    }

    /// The search's next step: pushes the positions it needs evaluated
    /// (the root first, if it is new; then up to `batch_size` simulations'
    /// leaves) and returns `true`, or returns `false` once it has ended.
    fn request_evaluations(&mut self, batch: &mut Batch<G>) -> bool {
        let Some(mut active) = self.active.take() else {
            return false;
        };
        let running = loop {
            match active.phase {
                Phase::RootWanted => {
                    batch.push_legal(&active.root);
                    active.phase = Phase::RootAsked;
                    break true;
                }
                Phase::RootReady => self.setup_root(&mut active),
                Phase::RootAsked => break true,
                Phase::Rounds => break self.simulations(&mut active, batch),
                Phase::Done(_) => break false,
            }
        };
        self.active = Some(active);
        running
    }

    /// Takes the evaluations asked for by the last request, from entry
    /// `first` of `batch` on.
    fn receive_evaluations(&mut self, batch: &Batch<G>, first: usize) {
        let Some(mut active) = self.active.take() else {
            return;
        };
        match active.phase {
            Phase::RootAsked => {
                self.scratch.logits.clear();
                self.scratch.logits.extend_from_slice(batch.logits(first));
                self.tree.new_evaluated_root(
                    batch.state(first),
                    batch.moves(first),
                    &mut self.scratch.logits,
                    batch.value(first),
                );
                active.phase = Phase::RootReady;
            }
            Phase::Rounds => {
                let record = self.config.record_paths;
                let paths = &mut self.paths;
                let depth = &mut active.run.depth;
                self.flight
                    .complete(&mut self.tree, batch, first, |tree, path, tag| {
                        *depth = (*depth).max(path.len());
                        if record {
                            paths[tag] = path_actions(tree, path);
                        }
                    });
            }
            _ => {}
        }
        self.active = Some(active);
    }

    /// Starts simulations of the current Sequential Halving round, up to
    /// `batch_size` of them; finishes the round once they are all backed
    /// up, and starts the next one or ends the search. Returns whether the
    /// search goes on.
    fn simulations(&mut self, active: &mut Active<G>, batch: &mut Batch<G>) -> bool {
        let mut started = 0;
        loop {
            if active.stopping.is_none() && active.run.simulations < active.run.planned {
                if started == self.config.batch_size {
                    return true;
                }
                let nodes = self.tree.nodes.len();
                if let Some(reason) = stop_reason(
                    &active.limits,
                    active.started,
                    active.run.total_simulations,
                    nodes as u64,
                ) {
                    active.stopping = Some(reason);
                } else if self.tree.is_complete()
                    || active.stall.stalled(nodes, active.run.total_simulations)
                {
                    // Nothing new can be learnt from a tree that holds
                    // every position below the root.
                    active.stopping = Some(StopReason::Exhausted);
                } else {
                    self.start_simulation(active, batch);
                    started += 1;
                }
                continue;
            }
            // The round is over, or a limit ended it: once every simulation
            // is backed up, pick the move.
            if !self.flight.is_empty() {
                return true;
            }
            self.finish_round(&mut active.run, active.num_actions);
            let stop = match active.stopping {
                Some(reason) => reason,
                None if active.fixed.is_some() => {
                    if active.limits.iterations.is_some() {
                        StopReason::Iterations
                    } else {
                        StopReason::DefaultBudget
                    }
                }
                None => {
                    let run = &mut active.run;
                    run.elapsed = active.started.elapsed();
                    let analysis = self.analysis(&active.root, run);
                    active.completed_round = Some((*run, analysis));
                    self.tree.clear_statistics();
                    run.simulations = 0;
                    run.depth = 0;
                    run.planned = (run.planned * 2).min(MAX_PLANNED_SIMULATIONS);
                    active.schedule = ConsideredVisits::new(run.considered, run.planned);
                    continue;
                }
            };
            self.end(active, stop);
            return false;
        }
    }

    /// Starts one simulation: the root action the schedule asks for, then
    /// interior selection down to a leaf.
    fn start_simulation(&mut self, active: &mut Active<G>, batch: &mut Batch<G>) {
        let num_actions = active.num_actions;
        let considered_visit = active.schedule.next().unwrap_or(u32::MAX);
        let (first_edge, _) = self.select_root(num_actions, Some(considered_visit));
        let tag = self.paths.len();
        if self.config.record_paths {
            self.paths.push(Vec::new());
        }
        let params = self.config.completed_q;
        let virtual_loss = self.config.virtual_loss;
        let sigma = &mut self.sigma;
        let effective = &mut self.effective;
        let done = self.flight.start(
            &mut self.tree,
            &active.root,
            &mut active.sim_state,
            first_edge as u32,
            &mut self.scratch,
            batch,
            tag,
            |tree, node, _| {
                select_interior(
                    tree,
                    node,
                    num_actions,
                    &params,
                    sigma,
                    effective,
                    virtual_loss,
                )
            },
        );
        if let Some(path) = done {
            active.run.depth = active.run.depth.max(path.len());
            if self.config.record_paths {
                self.paths[tag] = path_actions(&self.tree, path);
            }
        }
        active.run.simulations += 1;
        active.run.total_simulations += 1;
    }

    /// Ends the search for `stop`: the last complete round speaks for an
    /// interrupted one, if there is one.
    fn end(&mut self, active: &mut Active<G>, stop: StopReason) {
        let run = &mut active.run;
        run.elapsed = active.started.elapsed();
        run.stop = stop;
        let result = match active.completed_round.take() {
            Some((mut kept, analysis)) => {
                kept.total_simulations = run.total_simulations;
                kept.elapsed = run.elapsed;
                kept.stop = stop;
                self.kept_round = Some(analysis);
                kept
            }
            None => *run,
        };
        active.phase = Phase::Done(Ok(result));
    }

    /// The outcome of the search that ended, its buffers put back.
    fn take_result(&mut self) -> Result<Run, NoiseError> {
        let Some(active) = self.active.take() else {
            return Ok(Run::default());
        };
        let Active {
            phase, sim_state, ..
        } = *active;
        self.state = Some(sim_state);
        match phase {
            Phase::Done(result) => result,
            // Only reachable if the search was abandoned midway.
            _ => Ok(Run::default()),
        }
    }
    /// Picks the move and computes the improved policy after a round.
    fn finish_round(&mut self, run: &mut Run, num_actions: usize) {
        let (selected, completion) = self.select_root(num_actions, None);
        run.selected = Some(selected);
        self.completion = Some(completion);
        // The improved policy, softmax(masked logits + sigma).
        self.policy.clear();
        let mut max = f64::NEG_INFINITY;
        for (logit, sigma) in self.masked_logits.iter().zip(&self.sigma) {
            let x = logit + sigma;
            max = max.max(x);
            self.policy.push(x);
        }
        let mut sum = 0.0;
        for p in &mut self.policy {
            *p = (*p - max).exp();
            sum += *p;
        }
        for p in &mut self.policy {
            *p /= sum;
        }
    }

    /// The root edge to simulate (`Some(visits)`: among the edges with
    /// that many visits) or to play (`None`: among the most visited), by
    /// the reference's score `max(-1e9, g + logits + sigma)`; ties go to
    /// the lowest action. Leaves sigma in `self.sigma`.
    fn select_root(
        &mut self,
        num_actions: usize,
        considered_visit: Option<u32>,
    ) -> (usize, Completion) {
        let root = *self.tree.root();
        let edges = &self.tree.edges[root.edges()];
        let completion = complete(
            edges,
            root.raw_value,
            (root.num_edges as usize) < num_actions,
            &self.config.completed_q,
            &mut self.sigma,
        );
        let target = considered_visit
            .unwrap_or_else(|| edges.iter().map(|edge| edge.visits).max().unwrap_or(0));
        let score = |index: usize| {
            (self.noise[index] + self.masked_logits[index] + self.sigma[index]).max(LOW_LOGIT)
        };
        // Simulations in flight count toward the schedule's visit counts,
        // so that a batch follows the same schedule as one at a time.
        let in_flight = self.tree.in_flight_at(0);
        let visits = |index: usize, edge: &Edge<G::Move>| {
            edge.visits + in_flight.map_or(0, |counts| u32::from(counts[index]))
        };
        let best_among = |only_target: bool| {
            let mut best: Option<(usize, f64)> = None;
            for (index, edge) in edges.iter().enumerate() {
                if only_target && visits(index, edge) != target {
                    continue;
                }
                let score = score(index);
                if best.is_none_or(|(_, best_score)| score > best_score) {
                    best = Some((index, score));
                }
            }
            best.map(|(index, _)| index)
        };
        // The schedule always leaves an action with the required count; the
        // fallback only guards against a broken invariant.
        let best = best_among(true).or_else(|| best_among(false)).unwrap_or(0);
        (root.first_edge as usize + best, completion)
    }

    fn report_of(&self, run: &Run) -> SearchReport<G::Move> {
        let stats = SearchStats::new(
            run.total_simulations,
            self.tree.nodes.len() as u64,
            run.depth as u32,
            run.elapsed,
        )
        .with_stop(run.stop);
        let Some(&root) = self.tree.nodes.first() else {
            // No search ran.
            return SearchReport::new(None, 0.0).with_stats(stats);
        };
        let Some(selected) = run.selected else {
            return SearchReport::new(None, root.raw_value as f32).with_stats(stats);
        };
        // The value of the move returned: its mean if visited, else its
        // completed Q (the mixed value), as the search itself rates it.
        let chosen = &self.tree.edges[selected];
        let value = if chosen.visits > 0 {
            chosen.q
        } else {
            self.completion
                .map_or(root.raw_value, |completion| completion.mixed_value)
        };
        let moves = self.tree.edges[root.edges()]
            .iter()
            .zip(&self.policy)
            .map(|(edge, &policy)| {
                let info = MoveInfo::new(edge.mv)
                    .with_visits(u64::from(edge.visits))
                    .with_prior(edge.prior as f32)
                    .with_policy(policy as f32);
                if edge.visits > 0 {
                    info.with_value(edge.q as f32)
                } else {
                    info
                }
            })
            .collect();
        SearchReport::new(Some(chosen.mv), value as f32)
            .with_pv(self.tree.principal_variation(Some(selected)))
            .with_moves(moves)
            .with_stats(stats)
    }

    /// The report of a finished search: the kept round's, with the whole
    /// search's statistics, if an anytime search kept one.
    fn final_report(&mut self, run: &Run) -> SearchReport<G::Move> {
        match self.kept_round.take() {
            Some(kept) => {
                let stats = self.report_of(run).stats;
                kept.report.with_stats(stats)
            }
            None => self.report_of(run),
        }
    }

    fn analysis(&mut self, state: &G, run: &Run) -> GumbelAnalysis<G::Move> {
        let num_actions = state.num_actions();
        let root = *self.tree.root();
        let edges = &self.tree.edges[root.edges()];
        let mut analysis = GumbelAnalysis {
            report: self.report_of(run),
            action: run
                .selected
                .map(|edge| self.tree.edges[edge].action as usize),
            visits: vec![0; num_actions],
            prior: vec![0.0; num_actions],
            improved_policy: vec![0.0; num_actions],
            completed_q: vec![0.0; num_actions],
            completed_q_unscaled: vec![0.0; num_actions],
            q_values: vec![None; num_actions],
            mixed_value: root.raw_value,
            root_value: self.tree.root_value,
            num_considered: run.considered,
            considered_visits: ConsideredVisits::new(run.considered, run.planned)
                .take(run.simulations as usize)
                .collect(),
            noise: vec![0.0; num_actions],
            paths: std::mem::take(&mut self.paths),
        };
        let Some(completion) = self.completion else {
            return analysis;
        };
        analysis.mixed_value = completion.mixed_value;
        analysis
            .completed_q
            .fill(completion.sigma(completion.mixed_value));
        analysis.completed_q_unscaled.fill(completion.mixed_value);
        for (index, edge) in edges.iter().enumerate() {
            let action = edge.action as usize;
            analysis.visits[action] = edge.visits;
            analysis.prior[action] = edge.prior;
            analysis.improved_policy[action] = self.policy[index];
            analysis.completed_q[action] = self.sigma[index];
            analysis.noise[action] = self.noise[index];
            if edge.visits > 0 {
                analysis.completed_q_unscaled[action] = edge.q;
                analysis.q_values[action] = Some(edge.q);
            }
        }
        analysis
    }
}

/// Interior selection (mctx `gumbel_muzero_interior_action_selection`):
/// `argmax_a softmax(logits + sigma)(a) - N(a) / (1 + sum_b N(b))`, first
/// edge on ties. Returns the absolute edge index. While simulations are in
/// flight below the node, each counts as `virtual_loss` lost visits of its
/// edge (`effective` holds the edges so changed).
fn select_interior<M: Copy + PartialEq + std::fmt::Debug>(
    tree: &Tree<M>,
    node: u32,
    num_actions: usize,
    params: &CompletedQ,
    buffer: &mut Vec<f64>,
    effective: &mut Vec<Edge<M>>,
    virtual_loss: u32,
) -> u32 {
    let node_index = node;
    let node = tree.nodes[node as usize];
    let mut edges = &tree.edges[node.edges()];
    if let Some(counts) = tree.in_flight_at(node_index) {
        effective.clear();
        effective.extend(
            edges
                .iter()
                .zip(counts)
                .map(|(edge, &count)| with_virtual_loss(edge, count, virtual_loss)),
        );
        edges = effective;
    }
    let completion = complete(
        edges,
        node.raw_value,
        (node.num_edges as usize) < num_actions,
        params,
        buffer,
    );
    let mut max = f64::NEG_INFINITY;
    for (value, edge) in buffer.iter_mut().zip(edges) {
        *value += edge.logit;
        max = max.max(*value);
    }
    let mut sum = 0.0;
    for value in buffer.iter_mut() {
        *value = (*value - max).exp();
        sum += *value;
    }
    let denominator = 1.0 + f64::from(completion.sum_visits);
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (index, (weight, edge)) in buffer.iter().zip(edges).enumerate() {
        let score = weight / sum - f64::from(edge.visits) / denominator;
        if score > best_score {
            best = index;
            best_score = score;
        }
    }
    node.first_edge + best as u32
}

/// The actions of a simulation's path.
fn path_actions<M: Copy + PartialEq + std::fmt::Debug>(
    tree: &Tree<M>,
    path: &[Step],
) -> Vec<usize> {
    path.iter()
        .map(|step| tree.edges[step.edge as usize].action as usize)
        .collect()
}

impl<G: ActionSpace, E: BatchEvaluator<G>> Searcher<G> for GumbelAz<G, E> {
    /// Runs the search. An iteration limit plans one Sequential Halving
    /// schedule of that many simulations, cut short by the other limits.
    /// Without one, a time limit, node limit or stop flag makes the search
    /// anytime: complete schedules of [`GumbelConfig::default_simulations`],
    /// then twice, four times as many, ..., until a limit ends it; the last
    /// complete schedule gives the move (the first one, if none completed).
    /// Without any limit it plans [`GumbelConfig::default_simulations`].
    /// Depth is ignored. The search also ends once the tree holds every
    /// position below the root ([`StopReason::Exhausted`]).
    ///
    /// Memory: the tree never reserves more than
    /// [`GumbelConfig::max_tree_bytes`]; positions that do not fit are
    /// evaluated without being kept.
    ///
    /// The value is that of the move returned: its mean value, or its
    /// completed Q if it has no visit.
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        let run = self
            .run(state, limits, None)
            .unwrap_or_else(|_| unreachable!("drawn noise is always valid"));
        self.final_report(&run)
    }

    fn honours(&self, kind: LimitKind) -> bool {
        kind != LimitKind::Depth
    }

    fn advance(&mut self, played: G::Move) {
        if self.config.reuse_tree {
            self.tree.reroot(played);
        } else {
            self.tree.clear();
        }
    }

    fn reset(&mut self) {
        self.tree.clear();
        self.rng = Pcg64Mcg::seed_from_u64(self.config.seed);
    }

    fn name(&self) -> String {
        format!("gumbel(k={})", self.config.max_considered_actions)
    }
}

/// Searches driven step by step, so that many share one batch
/// ([`game_traits::search_together`]): each gives exactly the report of
/// [`Searcher::search`] with the same evaluator. The searcher's own
/// evaluator is not used.
impl<G: ActionSpace, E> BatchedSearch<G> for GumbelAz<G, E> {
    fn begin(&mut self, state: &G, limits: &Limits) {
        self.begin_search(state, limits, None);
    }

    fn request(&mut self, batch: &mut Batch<G>) -> bool {
        self.request_evaluations(batch)
    }

    fn receive(&mut self, batch: &Batch<G>, first: usize) {
        self.receive_evaluations(batch, first);
    }

    fn report(&mut self) -> SearchReport<G::Move> {
        let run = self
            .take_result()
            .unwrap_or_else(|_| unreachable!("drawn noise is always valid"));
        self.final_report(&run)
    }
}
