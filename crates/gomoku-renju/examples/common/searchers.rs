//! The searchers the Gomocup brain can play with, shared by the brain and
//! the strength runner. Adding one is one arm of [`SearcherKind::build`].

use game_traits::{GreedySearcher, RandomSearcher, Searcher};
use gomoku_renju::protocol::Settings;
use gomoku_renju::{
    Focused, Gomoku, OnFocused, PatternEvaluator, PatternPolicy, TacticalConfig, TacticalSearcher,
    ThreatPlayout,
};
use gumbel_az::{GumbelAz, GumbelConfig, Puct, PuctConfig};
use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Rave};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};

/// RAVE's exploration constant here: the value the Gomoku strength runs
/// were measured with (not tuned for Gomoku).
const RAVE_EXPLORATION: f32 = 0.25;

/// A searcher by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SearcherKind {
    /// MCTS with RAVE and threat-aware playouts.
    Rave,
    /// Plain UCT with threat-aware playouts.
    Uct,
    /// Gumbel AlphaZero with the pattern policy.
    Gumbel,
    /// PUCT (AlphaZero) with the pattern policy (the default: the
    /// strongest against the greedy player, see `docs/results.md`).
    Puct,
    /// Alpha-beta (iterative deepening, transposition table) over the
    /// pattern evaluator, moves ordered by the pattern policy.
    AlphaBeta,
    /// One ply of the pattern evaluator.
    Greedy,
    /// Uniformly random focused moves.
    Random,
}

impl SearcherKind {
    /// The names, for help texts.
    pub(crate) const NAMES: &'static str =
        "puct (default), rave, uct, gumbel, alphabeta, greedy, random";

    /// The default searcher.
    pub(crate) const DEFAULT: SearcherKind = SearcherKind::Puct;

    /// The searcher named `name`.
    pub(crate) fn parse(name: &str) -> Option<SearcherKind> {
        Some(match name {
            "rave" | "mcts" => SearcherKind::Rave,
            "uct" => SearcherKind::Uct,
            "gumbel" => SearcherKind::Gumbel,
            "puct" => SearcherKind::Puct,
            "alphabeta" | "ab" => SearcherKind::AlphaBeta,
            "greedy" => SearcherKind::Greedy,
            "random" => SearcherKind::Random,
            _ => return None,
        })
    }

    /// The searcher for a game under `settings`, with the tactical layer
    /// (fives, fours, VCF, VCT) in front of the tree searchers. `threads`
    /// and `seed` go to the searchers that use them.
    pub(crate) fn build(
        self,
        settings: &Settings,
        threads: usize,
        seed: u64,
    ) -> Box<dyn Searcher<Gomoku> + Send> {
        // Half of the memory the manager allows for the tree (the rest for
        // everything else); 4 million nodes without a limit.
        let node_bytes =
            (mcts_rave::node_bytes::<gomoku_renju::Move>() + mcts_rave::AMAF_BYTES) as u64;
        let max_nodes = settings.max_memory.map_or(4_000_000, |bytes| {
            (bytes / 2 / node_bytes).clamp(10_000, 16_000_000)
        });
        // The PUCT and Gumbel trees get the same half (1 GiB without a
        // limit, their default).
        let tree_bytes = settings
            .max_memory
            .map_or(gumbel_az::DEFAULT_TREE_BYTES, |bytes| {
                usize::try_from(bytes / 2)
                    .map_or(usize::MAX, |half| half.max(gumbel_az::MIN_TREE_BYTES))
            });
        let mcts = MctsConfig::default()
            .with_threads(threads)
            .with_seed(seed)
            .with_max_nodes(max_nodes)
            .with_leaf(LeafEvaluation::Playout);
        let tactical =
            |inner: Box<dyn Searcher<Focused> + Send>| -> Box<dyn Searcher<Gomoku> + Send> {
                Box::new(
                    TacticalSearcher::new(OnFocused(inner), TacticalConfig::default())
                        .unwrap_or_else(|error| panic!("valid settings: {error}")),
                )
            };
        match self {
            SearcherKind::Rave => {
                let config = mcts.with_exploration(RAVE_EXPLORATION);
                let searcher = Mcts::new(
                    MctsKnowledge::rave(Rave::new())
                        .with_playout(ThreatPlayout)
                        .with_evaluator(PatternEvaluator::default()),
                    config,
                )
                .unwrap_or_else(|error| panic!("valid settings: {error}"));
                tactical(Box::new(searcher))
            }
            SearcherKind::Uct => {
                let searcher = Mcts::new(
                    MctsKnowledge::uct()
                        .with_playout(ThreatPlayout)
                        .with_evaluator(PatternEvaluator::default()),
                    mcts,
                )
                .unwrap_or_else(|error| panic!("valid settings: {error}"));
                tactical(Box::new(searcher))
            }
            SearcherKind::Gumbel => {
                // Gumbel plans Sequential Halving for a simulation count; the
                // brain gives it only a time limit, which then cuts the plan.
                let config = GumbelConfig::default()
                    .with_gumbel_scale(0.0)
                    .with_max_considered_actions(8)
                    .with_default_simulations(4096)
                    .with_max_tree_bytes(tree_bytes)
                    .with_seed(seed);
                let searcher = GumbelAz::new(PatternPolicy::default(), config)
                    .unwrap_or_else(|error| panic!("valid settings: {error}"));
                tactical(Box::new(searcher))
            }
            SearcherKind::Puct => {
                let config = PuctConfig::default()
                    .with_max_tree_bytes(tree_bytes)
                    .with_seed(seed);
                let searcher = Puct::new(PatternPolicy::default(), config)
                    .unwrap_or_else(|error| panic!("valid settings: {error}"));
                tactical(Box::new(searcher))
            }
            SearcherKind::AlphaBeta => {
                // The table gets the same half of the memory (16 bytes an
                // entry).
                let entries = settings.max_memory.map_or(1 << 20, |bytes| {
                    (bytes / 2 / 16).clamp(1 << 12, 1 << 24) as usize
                });
                let config = AlphaBetaConfig::default()
                    .with_threads(threads)
                    .with_table_entries(entries);
                let searcher = AlphaBeta::new(PatternEvaluator::default(), config)
                    .unwrap_or_else(|error| panic!("valid settings: {error}"))
                    .with_policy(PatternPolicy::default());
                tactical(Box::new(searcher))
            }
            SearcherKind::Greedy => {
                Box::new(OnFocused(GreedySearcher::new(PatternEvaluator::default())))
            }
            SearcherKind::Random => Box::new(OnFocused(RandomSearcher::new(seed))),
        }
    }
}
