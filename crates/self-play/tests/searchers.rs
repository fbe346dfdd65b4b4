//! A network in every searcher, unchanged: Gumbel AlphaZero and PUCT
//! (policy and value, batched), MCTS with evaluator leaves (one position
//! or a batch at a time) and alpha-beta (values); each keeps the `Limits`
//! contract with it.

use bitboard_othello::Board;
use game_traits::testing::{ContractOptions, TicTacToe, check_limits_contract, check_repeatable};
use game_traits::{Limits, Searcher};
use gumbel_az::{GumbelAz, GumbelConfig, Puct, PuctConfig};
use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};
use self_play::{Architecture, Network};

fn network<G: game_traits::PlaneEncoding>(start: &G) -> Network<G> {
    Network::new(start, Architecture::residual(4, 1, 8), 9).unwrap()
}

/// Builds a fresh searcher.
type Make<G> = Box<dyn Fn() -> Box<dyn Searcher<G> + Send>>;

fn searchers<G: game_traits::PlaneEncoding + game_traits::PositionHash>(
    start: &G,
) -> Vec<(&'static str, Make<G>)> {
    let net = network(start);
    let (a, b, c, d, e) = (net.clone(), net.clone(), net.clone(), net.clone(), net);
    vec![
        (
            "gumbel",
            Box::new(move || {
                Box::new(
                    GumbelAz::new(a.clone(), GumbelConfig::for_play().with_batch_size(8)).unwrap(),
                )
            }),
        ),
        (
            "puct",
            Box::new(move || Box::new(Puct::new(b.clone(), PuctConfig::default()).unwrap())),
        ),
        (
            "mcts, evaluator leaves",
            Box::new(move || {
                let config = MctsConfig::default().with_leaf(LeafEvaluation::Evaluator);
                Box::new(Mcts::new(MctsKnowledge::uct().with_evaluator(c.clone()), config).unwrap())
            }),
        ),
        (
            "mcts, batched leaves",
            Box::new(move || {
                let config = MctsConfig::default().with_batch_size(8);
                Box::new(
                    Mcts::new(
                        MctsKnowledge::uct().with_batch_evaluator(d.clone()),
                        config.with_leaf(LeafEvaluation::Evaluator),
                    )
                    .unwrap(),
                )
            }),
        ),
        (
            "alpha-beta",
            Box::new(move || {
                // A budget that a network evaluates in well under a second.
                let config = AlphaBetaConfig::default().with_default_nodes(2_000);
                Box::new(AlphaBeta::new(e.clone(), config).unwrap())
            }),
        ),
    ]
}

fn check_every_searcher<G: game_traits::PlaneEncoding + game_traits::PositionHash>(start: &G) {
    let options = ContractOptions::default();
    for (name, make) in searchers(start) {
        let mut searcher = make();
        let report = searcher.search(start, &Limits::iterations(32).with_depth(2));
        assert!(report.best.is_some_and(|mv| start.is_legal(mv)), "{name}");
        assert!(
            report.value.is_finite() && report.value.abs() <= 1.0,
            "{name}"
        );
        check_limits_contract(&make, start, &options)
            .unwrap_or_else(|failure| panic!("{name}: {failure}"));
        check_repeatable(
            &make,
            std::slice::from_ref(start),
            &Limits::iterations(24).with_depth(2),
        )
        .unwrap_or_else(|failure| panic!("{name}: {failure}"));
    }
}

#[test]
fn every_searcher_runs_on_a_network_for_tic_tac_toe() {
    check_every_searcher(&TicTacToe::new());
}

#[test]
fn every_searcher_runs_on_a_network_for_othello() {
    check_every_searcher(&Board::start());
}
