//! The PUCT AlphaZero baseline (Silver et al., "A general reinforcement
//! learning algorithm that masters chess, shogi, and Go through self-play",
//! Science 2018), on the same tree as Gumbel AlphaZero.

use std::time::Instant;

use game_traits::{
    ActionSpace, Batch, BatchEvaluator, BatchedSearch, Game, LimitKind, Limits, MoveInfo,
    SearchReport, SearchStats, Searcher, StopReason,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::error::{check_batch, check_simulations, check_tree_bytes};
use crate::flight::{InFlight, stop_reason, with_virtual_loss};
use crate::tree::{Edge, Scratch, StallWatch, Tree};
use crate::{ConfigError, noise};
use game_traits::Range;

/// The value an unvisited move is scored with in PUCT (first-play
/// urgency).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "crate::serde_impl::FirstPlayRaw")
)]
#[non_exhaustive]
pub enum FirstPlay {
    /// The node's current mean value (as mctx's `muzero_policy` completes
    /// unvisited Q-values with the parent's value).
    ParentValue,
    /// A fixed value in `[-1, 1]` (AlphaZero's pseudocode uses a loss).
    Fixed(f64),
}

/// Dirichlet noise mixed into the root prior:
/// `P'(a) = (1 - fraction) P(a) + fraction * eta(a)`, `eta ~ Dir(alpha)`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "crate::serde_impl::DirichletNoiseRaw")
)]
#[non_exhaustive]
pub struct DirichletNoise {
    /// Concentration (AlphaZero: 0.3 for chess, 0.15 for shogi, 0.03 for Go).
    pub alpha: f64,
    /// Weight of the noise (AlphaZero: 0.25).
    pub fraction: f64,
}

impl DirichletNoise {
    /// Noise with concentration `alpha` and weight `fraction`.
    pub fn new(alpha: f64, fraction: f64) -> Self {
        DirichletNoise { alpha, fraction }
    }
}

/// Settings of [`Puct`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "crate::serde_impl::PuctConfigRaw")
)]
#[non_exhaustive]
pub struct PuctConfig {
    /// `c_puct` of `Q(s,a) + c_puct * P(s,a) * sqrt(N(s)) / (1 + N(s,a))`.
    pub c_puct: f64,
    /// How unvisited moves are valued.
    pub first_play: FirstPlay,
    /// Root noise, off by default (it is a self-play training device).
    pub root_noise: Option<DirichletNoise>,
    /// Simulations per search when the [`Limits`] set no limit the search
    /// honours (1 to [`MAX_DEFAULT_SIMULATIONS`](crate::MAX_DEFAULT_SIMULATIONS)).
    pub default_simulations: u64,
    /// Seeds the root noise; [`Searcher::reset`] restarts the sequence.
    pub seed: u64,
    /// Keep the subtree (with its statistics) of the move played.
    pub reuse_tree: bool,
    /// The memory cap of the tree, in bytes (default 1 GiB): nodes and
    /// edges never reserve more; positions that do not fit are evaluated
    /// without being kept. At least [`MIN_TREE_BYTES`](crate::MIN_TREE_BYTES).
    pub max_tree_bytes: usize,
    /// Leaves evaluated per evaluator call (default 1; at most
    /// [`MAX_BATCH_SIZE`](crate::MAX_BATCH_SIZE)). With more than one, a
    /// step starts up to this many simulations, each counting as
    /// [`virtual_loss`](PuctConfig::virtual_loss) lost visits on its path
    /// while it is in flight, and evaluates their leaves in one call. With
    /// 1, the search is exactly the unbatched one.
    pub batch_size: usize,
    /// Lost visits each simulation in flight adds to the edges of its
    /// path, when [`batch_size`](PuctConfig::batch_size) is above 1
    /// (default 1; 0 turns virtual loss off, and simulations of a batch
    /// that reach the same new position share its evaluation).
    pub virtual_loss: u32,
}

impl Default for PuctConfig {
    fn default() -> Self {
        PuctConfig {
            c_puct: 1.25,
            first_play: FirstPlay::ParentValue,
            root_noise: None,
            default_simulations: 64,
            seed: 0,
            reuse_tree: true,
            max_tree_bytes: crate::DEFAULT_TREE_BYTES,
            batch_size: 1,
            virtual_loss: 1,
        }
    }
}

impl PuctConfig {
    /// Sets `c_puct`.
    #[must_use]
    pub fn with_c_puct(mut self, c_puct: f64) -> Self {
        self.c_puct = c_puct;
        self
    }

    /// Sets the first-play value.
    #[must_use]
    pub fn with_first_play(mut self, first_play: FirstPlay) -> Self {
        self.first_play = first_play;
        self
    }

    /// Sets (or removes) the root noise.
    #[must_use]
    pub fn with_root_noise(mut self, root_noise: Option<DirichletNoise>) -> Self {
        self.root_noise = root_noise;
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

    /// Sets the memory cap of the tree, in bytes.
    #[must_use]
    pub fn with_max_tree_bytes(mut self, bytes: usize) -> Self {
        self.max_tree_bytes = bytes;
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
    /// [`ConfigError::Range`] for a negative or non-finite `c_puct`, a
    /// fixed first-play value outside `[-1, 1]`, root noise with a
    /// non-positive `alpha` or a `fraction` outside `[0, 1]`,
    /// `default_simulations` outside `1..=MAX_DEFAULT_SIMULATIONS` (a search
    /// without limits must end soon), `max_tree_bytes` below
    /// `MIN_TREE_BYTES`, `batch_size` outside `1..=MAX_BATCH_SIZE` or
    /// `virtual_loss` above `MAX_VIRTUAL_LOSS`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        Range::AtLeast(0.0).check("c_puct", self.c_puct)?;
        check_simulations(self.default_simulations)?;
        check_tree_bytes(self.max_tree_bytes)?;
        check_batch(self.batch_size, self.virtual_loss)?;
        if let FirstPlay::Fixed(value) = self.first_play {
            Range::Between(-1.0, 1.0).check("first_play", value)?;
        }
        if let Some(noise) = self.root_noise {
            Range::Above(0.0).check("alpha", noise.alpha)?;
            Range::PROBABILITY.check("fraction", noise.fraction)?;
        }
        Ok(())
    }
}

/// AlphaZero's PUCT search: at every node
/// `argmax_a Q(s,a) + c_puct * P(s,a) * sqrt(N(s)) / (1 + N(s,a))`, where
/// `N(s)` counts the node's own evaluation plus its simulations (as in
/// mctx, so a fresh node follows its prior), ties to the lowest action;
/// optional Dirichlet noise on the root prior. Plays the most visited move
/// (ties: higher Q, then lowest action); the report's
/// [`MoveInfo::policy`] is the visit distribution, AlphaZero's training
/// target.
///
/// With [`PuctConfig::batch_size`] above 1 it starts that many simulations
/// before it evaluates their leaves in one call, each counting as
/// [`PuctConfig::virtual_loss`] lost visits on its path while in flight.
///
/// Shares the tree, expansion and backup code with
/// [`GumbelAz`](crate::GumbelAz); keeps the subtree of the move played,
/// statistics included.
pub struct Puct<G: Game, E> {
    evaluator: E,
    config: PuctConfig,
    rng: Pcg64Mcg,
    tree: Tree<G::Move>,
    scratch: Scratch<G::Move>,
    /// Per root edge: the (noisy) prior used this search.
    root_prior: Vec<f64>,
    /// Dirichlet sample buffer.
    eta: Vec<f64>,
    state: Option<G>,
    /// The search in progress, between its steps.
    active: Option<Box<Active<G>>>,
    /// Simulations waiting for their leaves' evaluations.
    flight: InFlight,
    /// The batch of the searcher's own searches, kept for its buffers.
    batch: Batch<G>,
    /// Edges of a node with virtual losses applied.
    effective: Vec<Edge<G::Move>>,
}

/// Where a search in progress stands.
#[derive(Debug)]
enum Phase<M> {
    /// The root's node must be evaluated first.
    RootWanted,
    /// Its evaluation was asked for.
    RootAsked,
    /// The root's node is in the tree: draw the noise, set the budget.
    RootReady,
    /// Simulations.
    Simulating,
    /// Ended, with this report.
    Done(SearchReport<M>),
}

/// A search between its steps.
#[derive(Debug)]
struct Active<G: Game> {
    root: G,
    limits: Limits,
    started: Instant,
    phase: Phase<G::Move>,
    planned: u64,
    default_budget: bool,
    simulations: u64,
    depth: usize,
    stall: StallWatch,
    /// Set once a limit (or an exhausted tree) ends the search; it ends
    /// when the simulations in flight are backed up.
    stopping: Option<StopReason>,
    sim_state: G,
}

impl<G: Game, E: std::fmt::Debug> std::fmt::Debug for Puct<G, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Puct")
            .field("evaluator", &self.evaluator)
            .field("config", &self.config)
            .field("tree_nodes", &self.tree.nodes.len())
            .finish_non_exhaustive()
    }
}

impl<G: ActionSpace, E: BatchEvaluator<G>> Puct<G, E> {
    /// A searcher with `evaluator` and `config`.
    ///
    /// # Errors
    ///
    /// Returns the [`ConfigError`] of [`PuctConfig::validate`].
    pub fn new(evaluator: E, config: PuctConfig) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Puct {
            evaluator,
            rng: Pcg64Mcg::seed_from_u64(config.seed),
            config,
            tree: Tree::default(),
            scratch: Scratch::default(),
            root_prior: Vec::new(),
            eta: Vec::new(),
            state: None,
            active: None,
            flight: InFlight::default(),
            batch: Batch::new(),
            effective: Vec::new(),
        })
    }

    /// A searcher with the default settings.
    pub fn with_defaults(evaluator: E) -> Self {
        Puct::new(evaluator, PuctConfig::default())
            .unwrap_or_else(|_| unreachable!("the default configuration is valid"))
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }
}

impl<G: ActionSpace, E> Puct<G, E> {
    /// The settings.
    pub fn config(&self) -> &PuctConfig {
        &self.config
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

    /// Starts a search: the clock, the root (kept from the last search if
    /// it matches, or to be evaluated first) and the buffers.
    fn begin_search(&mut self, state: &G, limits: &Limits) {
        let started = Instant::now();
        self.tree.set_batching(self.config.batch_size > 1);
        self.tree.max_bytes = self.config.max_tree_bytes;
        self.flight.clear();
        let phase = if self.config.reuse_tree && self.tree.root_matches(state, &mut self.scratch) {
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
            phase,
            planned: 0,
            default_budget: false,
            simulations: 0,
            depth: 0,
            stall: StallWatch::new(limits, 0),
            stopping: None,
            sim_state,
        }));
    }

    /// The root prior (with its noise) and the budget, once the root is in
    /// the tree.
    fn setup_root(&mut self, active: &mut Active<G>) {
        let root = *self.tree.root();
        if root.terminal {
            active.phase = Phase::Done(SearchReport::game_over(
                &active.root,
                active.started.elapsed(),
            ));
            return;
        }
        self.root_prior.clear();
        self.root_prior
            .extend(self.tree.root_edges().iter().map(|edge| edge.prior));
        if let Some(DirichletNoise { alpha, fraction }) = self.config.root_noise {
            self.eta.clear();
            self.eta.resize(self.root_prior.len(), 0.0);
            noise::dirichlet(alpha, &mut self.eta, &mut self.rng);
            for (prior, eta) in self.root_prior.iter_mut().zip(&self.eta) {
                *prior = (1.0 - fraction) * *prior + fraction * eta;
            }
        }
        let limits = &active.limits;
        active.default_budget = limits.uses_default_budget(|kind| kind != LimitKind::Depth);
        active.planned = match limits.iterations {
            Some(iterations) => iterations,
            None if active.default_budget => self.config.default_simulations,
            None => u64::MAX,
        };
        active.stall = StallWatch::new(limits, self.tree.nodes.len());
        active.phase = Phase::Simulating;
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
                Phase::Simulating => break self.simulations(&mut active, batch),
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
            Phase::Simulating => {
                let depth = &mut active.depth;
                self.flight
                    .complete(&mut self.tree, batch, first, |_, path, _| {
                        *depth = (*depth).max(path.len());
                    });
            }
            _ => {}
        }
        self.active = Some(active);
    }

    /// Starts up to `batch_size` simulations; ends the search once a limit
    /// is reached and every simulation is backed up. Returns whether the
    /// search goes on.
    fn simulations(&mut self, active: &mut Active<G>, batch: &mut Batch<G>) -> bool {
        let mut started = 0;
        loop {
            if active.stopping.is_none() {
                if active.simulations >= active.planned {
                    active.stopping = Some(if active.default_budget {
                        StopReason::DefaultBudget
                    } else {
                        StopReason::Iterations
                    });
                    continue;
                }
                if started == self.config.batch_size {
                    return true;
                }
                let nodes = self.tree.nodes.len();
                if let Some(reason) = stop_reason(
                    &active.limits,
                    active.started,
                    active.simulations,
                    nodes as u64,
                ) {
                    active.stopping = Some(reason);
                } else if self.tree.is_complete()
                    || self.tree.root_visits >= u32::MAX - self.config.batch_size as u32
                    || active.stall.stalled(nodes, active.simulations)
                {
                    active.stopping = Some(StopReason::Exhausted);
                } else {
                    self.start_simulation(active, batch);
                    started += 1;
                }
                continue;
            }
            if !self.flight.is_empty() {
                return true;
            }
            let stop = active.stopping.unwrap_or(StopReason::Iterations);
            active.phase = Phase::Done(self.report_of(active, stop));
            return false;
        }
    }

    /// Starts one simulation: PUCT at the root with its (noisy) prior, then
    /// at every node below.
    fn start_simulation(&mut self, active: &mut Active<G>, batch: &mut Batch<G>) {
        let c_puct = self.config.c_puct;
        let first_play = self.config.first_play;
        let unvisited = move |node_value: f64| match first_play {
            FirstPlay::ParentValue => node_value,
            FirstPlay::Fixed(value) => value,
        };
        let virtual_loss = self.config.virtual_loss;
        let root_prior = &self.root_prior;
        let root_edges = edges_in_flight(&self.tree, 0, virtual_loss, &mut self.effective);
        let first = self.tree.root().first_edge as usize
            + puct_pick(
                root_edges,
                |index| root_prior[index],
                c_puct,
                unvisited(self.tree.root_value),
            );
        let effective = &mut self.effective;
        let done = self.flight.start(
            &mut self.tree,
            &active.root,
            &mut active.sim_state,
            first as u32,
            &mut self.scratch,
            batch,
            0,
            |tree, node, node_value| {
                let first_edge = tree.nodes[node as usize].first_edge;
                let edges = edges_in_flight(tree, node, virtual_loss, effective);
                first_edge
                    + puct_pick(
                        edges,
                        |index| edges[index].prior,
                        c_puct,
                        unvisited(node_value),
                    ) as u32
            },
        );
        if let Some(path) = done {
            active.depth = active.depth.max(path.len());
        }
        active.simulations += 1;
    }

    /// The report of a search that ended for `stop`: the most visited move
    /// (ties: higher Q, then the lowest action).
    fn report_of(&self, active: &Active<G>, stop: StopReason) -> SearchReport<G::Move> {
        let root = *self.tree.root();
        let edges = self.tree.root_edges();
        let mut best = 0;
        for (index, edge) in edges.iter().enumerate().skip(1) {
            let leader = &edges[best];
            if edge.visits > leader.visits || (edge.visits == leader.visits && edge.q > leader.q) {
                best = index;
            }
        }
        let total_visits: u32 = edges.iter().map(|edge| edge.visits).sum();
        let moves = edges
            .iter()
            .map(|edge| {
                let policy = if total_visits > 0 {
                    f64::from(edge.visits) / f64::from(total_visits)
                } else {
                    edge.prior
                };
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
        let best_edge = root.first_edge as usize + best;
        let value = if edges[best].visits > 0 {
            edges[best].q
        } else {
            root.raw_value
        };
        SearchReport::new(Some(edges[best].mv), value as f32)
            .with_pv(self.tree.principal_variation(Some(best_edge)))
            .with_moves(moves)
            .with_stats(
                SearchStats::new(
                    active.simulations,
                    self.tree.nodes.len() as u64,
                    active.depth as u32,
                    active.started.elapsed(),
                )
                .with_stop(stop),
            )
    }

    /// The report of the search that ended, its buffers put back.
    fn take_report(&mut self) -> SearchReport<G::Move> {
        let Some(active) = self.active.take() else {
            return SearchReport::new(None, 0.0);
        };
        let Active {
            phase, sim_state, ..
        } = *active;
        self.state = Some(sim_state);
        match phase {
            Phase::Done(report) => report,
            // Only reachable if the search was abandoned midway.
            _ => SearchReport::new(None, 0.0),
        }
    }
}

/// The edges of `node` as selection sees them: with virtual losses for the
/// simulations in flight, if any (built in `effective`).
fn edges_in_flight<'a, M: Copy + PartialEq + std::fmt::Debug>(
    tree: &'a Tree<M>,
    node: u32,
    virtual_loss: u32,
    effective: &'a mut Vec<Edge<M>>,
) -> &'a [Edge<M>] {
    let edges = tree.node_edges(node);
    match tree.in_flight_at(node) {
        None => edges,
        Some(counts) => {
            effective.clear();
            effective.extend(
                edges
                    .iter()
                    .zip(counts)
                    .map(|(edge, &count)| with_virtual_loss(edge, count, virtual_loss)),
            );
            effective
        }
    }
}

/// The PUCT choice among `edges`, with `prior(index)` as P. Returns the
/// index within `edges`.
fn puct_pick<M>(
    edges: &[Edge<M>],
    prior: impl Fn(usize) -> f64,
    c_puct: f64,
    unvisited_q: f64,
) -> usize {
    let node_visits = 1 + edges.iter().map(|edge| edge.visits).sum::<u32>();
    let exploration = c_puct * f64::from(node_visits).sqrt();
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (index, edge) in edges.iter().enumerate() {
        let q = if edge.visits > 0 { edge.q } else { unvisited_q };
        let score = q + exploration * prior(index) / f64::from(1 + edge.visits);
        if score > best_score {
            best = index;
            best_score = score;
        }
    }
    best
}

impl<G: ActionSpace, E: BatchEvaluator<G>> Searcher<G> for Puct<G, E> {
    /// Runs the search: simulations until a limit ends it (iterations,
    /// time, tree nodes, the stop flag; depth is ignored), or
    /// [`PuctConfig::default_simulations`] without any. It also ends once
    /// the tree holds every position below the root
    /// ([`StopReason::Exhausted`]), and, with a node limit alone, once the
    /// tree stops growing (no new node for 10,000 simulations or as many as
    /// it has nodes, whichever is more).
    ///
    /// Memory: the tree never reserves more than
    /// [`PuctConfig::max_tree_bytes`]; positions that do not fit are
    /// evaluated without being kept.
    ///
    /// The value is that of the move returned: its mean value, or the
    /// root's evaluation if it has no visit.
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        self.begin_search(state, limits);
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
        self.take_report()
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
        format!("puct(c={})", self.config.c_puct)
    }
}

/// Searches driven step by step, so that many share one batch
/// ([`game_traits::search_together`]): each gives exactly the report of
/// [`Searcher::search`] with the same evaluator. The searcher's own
/// evaluator is not used.
impl<G: ActionSpace, E> BatchedSearch<G> for Puct<G, E> {
    fn begin(&mut self, state: &G, limits: &Limits) {
        self.begin_search(state, limits);
    }

    fn request(&mut self, batch: &mut Batch<G>) -> bool {
        self.request_evaluations(batch)
    }

    fn receive(&mut self, batch: &Batch<G>, first: usize) {
        self.receive_evaluations(batch, first);
    }

    fn report(&mut self) -> SearchReport<G::Move> {
        self.take_report()
    }
}
