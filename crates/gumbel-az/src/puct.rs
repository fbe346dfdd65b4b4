//! The PUCT AlphaZero baseline (Silver et al., "A general reinforcement
//! learning algorithm that masters chess, shogi, and Go through self-play",
//! Science 2018), on the same tree as Gumbel AlphaZero.

use game_traits::{
    ActionSpace, Game, LimitKind, Limits, MoveInfo, PolicyEvaluator, SearchReport, SearchStats,
    Searcher, StopReason,
};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::tree::{Edge, Scratch, StallWatch, Tree};
use crate::{ConfigError, noise};

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

    /// Checks every parameter.
    ///
    /// # Errors
    ///
    /// [`ConfigError::OutOfRange`] for a negative or non-finite `c_puct`, a
    /// fixed first-play value outside `[-1, 1]`, root noise with a
    /// non-positive `alpha` or a `fraction` outside `[0, 1]`,
    /// `default_simulations` outside `1..=MAX_DEFAULT_SIMULATIONS` (a search
    /// without limits must end soon), or `max_tree_bytes` below
    /// `MIN_TREE_BYTES`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        ConfigError::check("c_puct", self.c_puct, 0.0, false, "a finite number >= 0")?;
        ConfigError::check_simulations(self.default_simulations)?;
        ConfigError::check_tree_bytes(self.max_tree_bytes)?;
        if let FirstPlay::Fixed(value) = self.first_play
            && !(-1.0..=1.0).contains(&value)
        {
            return Err(ConfigError::OutOfRange {
                name: "first_play",
                value,
                expected: "a value in [-1, 1]",
            });
        }
        if let Some(noise) = self.root_noise {
            ConfigError::check("alpha", noise.alpha, 0.0, true, "a finite number > 0")?;
            if !(0.0..=1.0).contains(&noise.fraction) {
                return Err(ConfigError::OutOfRange {
                    name: "fraction",
                    value: noise.fraction,
                    expected: "a value in [0, 1]",
                });
            }
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

impl<G: ActionSpace, E: PolicyEvaluator<G>> Puct<G, E> {
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
        })
    }

    /// A searcher with the default settings.
    pub fn with_defaults(evaluator: E) -> Self {
        Puct::new(evaluator, PuctConfig::default())
            .unwrap_or_else(|_| unreachable!("the default configuration is valid"))
    }

    /// The settings.
    pub fn config(&self) -> &PuctConfig {
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

impl<G: ActionSpace, E: PolicyEvaluator<G>> Searcher<G> for Puct<G, E> {
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
        let budget = limits.start();
        self.tree.max_bytes = self.config.max_tree_bytes;
        if !(self.config.reuse_tree && self.tree.root_matches(state, &mut self.scratch)) {
            self.tree
                .new_root(state, &self.evaluator, &mut self.scratch);
        }
        let root = *self.tree.root();
        if root.terminal {
            return SearchReport::game_over(state, budget.elapsed());
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

        let default_budget = limits.uses_default_budget(|kind| self.honours(kind));
        let planned = match limits.iterations {
            Some(iterations) => iterations,
            None if default_budget => self.config.default_simulations,
            None => u64::MAX,
        };
        let c_puct = self.config.c_puct;
        let first_play = self.config.first_play;
        let unvisited = |node_value: f64| match first_play {
            FirstPlay::ParentValue => node_value,
            FirstPlay::Fixed(value) => value,
        };
        let mut sim_state = match self.state.take() {
            Some(mut kept) => {
                kept.clone_from(state);
                kept
            }
            None => state.clone(),
        };
        let mut simulations = 0;
        let mut depth = 0;
        let mut stall = StallWatch::new(limits, self.tree.nodes.len());
        let stop = loop {
            if simulations >= planned {
                break if default_budget {
                    StopReason::DefaultBudget
                } else {
                    StopReason::Iterations
                };
            }
            if let Some(reason) = budget.stop_reason(simulations, self.tree.nodes.len() as u64) {
                break reason;
            }
            if self.tree.is_complete()
                || self.tree.root_visits >= u32::MAX - 1
                || stall.stalled(self.tree.nodes.len(), simulations)
            {
                break StopReason::Exhausted;
            }
            let root_prior = &self.root_prior;
            let first = root.first_edge as usize
                + puct_pick(
                    self.tree.root_edges(),
                    |index| root_prior[index],
                    c_puct,
                    unvisited(self.tree.root_value),
                );
            let length = self.tree.simulate(
                state,
                &mut sim_state,
                first as u32,
                &self.evaluator,
                &mut self.scratch,
                |tree, node, node_value| {
                    let edges = tree.node_edges(node);
                    let first_edge = tree.nodes[node as usize].first_edge;
                    first_edge
                        + puct_pick(
                            edges,
                            |index| edges[index].prior,
                            c_puct,
                            unvisited(node_value),
                        ) as u32
                },
            );
            depth = depth.max(length);
            simulations += 1;
        };
        self.state = Some(sim_state);

        let edges = self.tree.root_edges();
        // Most visits; ties: higher Q, then the lowest action.
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
                    simulations,
                    self.tree.nodes.len() as u64,
                    depth as u32,
                    budget.elapsed(),
                )
                .with_stop(stop),
            )
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
