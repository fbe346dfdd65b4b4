//! Seeded reports and analyses pinned to the bit: with one leaf per
//! evaluator call (the default), Gumbel AlphaZero and PUCT must give
//! exactly the reports they gave before batched evaluation came, on toy
//! games, explicit trees and Othello, with noise, tree reuse, node budgets
//! and memory caps.
//!
//! The expected lines in `tests/data/pinned_reports.txt` were written by
//! the searchers as they were before batching; they are never rewritten
//! to make this test pass. `GUMBEL_PIN_WRITE=1 cargo test -p gumbel-az
//! --test pinned -- --nocapture` prints the current lines instead of
//! comparing, to pin new cases.

use std::fmt::Debug;
use std::sync::Arc;

use bitboard_othello::{Board, HeuristicPolicy};
use game_traits::testing::{
    ExplicitTree, Nim, RandomTree, TicTacToe, TicTacToeHeuristic, TreeEvaluator, TreeGame,
    assert_matches_pinned,
};
use game_traits::{ActionSpace, Game, Limits, SearchReport, Searcher, UniformPrior};
use gumbel_az::{
    CompletedQ, DirichletNoise, FirstPlay, GumbelAnalysis, GumbelAz, GumbelConfig, Puct, PuctConfig,
};
use rand::SeedableRng;

fn bits32(value: Option<f32>) -> String {
    value.map_or("-".to_string(), |v| format!("{:08x}", v.to_bits()))
}

fn bits64(value: f64) -> String {
    format!("{:016x}", value.to_bits())
}

/// A report as one line: every number as its exact bits, no time.
fn report_line<M: Debug>(report: &SearchReport<M>) -> String {
    let moves: Vec<String> = report
        .moves
        .iter()
        .map(|info| {
            format!(
                "{:?}/{}/{}/{}/{}",
                info.mv,
                info.visits,
                bits32(info.value),
                bits32(info.prior),
                bits32(info.policy)
            )
        })
        .collect();
    format!(
        "best {:?} value {} pv {:?} moves [{}] iterations {} nodes {} depth {} stop {:?}",
        report.best,
        bits32(Some(report.value)),
        report.pv,
        moves.join(" "),
        report.stats.iterations,
        report.stats.nodes,
        report.stats.depth,
        report.stats.stop
    )
}

/// An analysis as one line: the report and every root statistic.
fn analysis_line<M: Debug>(analysis: &GumbelAnalysis<M>) -> String {
    let list = |values: &[f64]| {
        values
            .iter()
            .map(|&v| bits64(v))
            .collect::<Vec<_>>()
            .join(",")
    };
    let q: Vec<String> = analysis
        .q_values
        .iter()
        .map(|q| q.map_or("-".to_string(), bits64))
        .collect();
    format!(
        "{} | action {:?} visits {:?} policy {} completed {} unscaled {} q {} mixed {} root {} considered {} schedule {:?} paths {:?}",
        report_line(&analysis.report),
        analysis.action,
        analysis.visits,
        list(&analysis.improved_policy),
        list(&analysis.completed_q),
        list(&analysis.completed_q_unscaled),
        q.join(","),
        bits64(analysis.mixed_value),
        bits64(analysis.root_value),
        analysis.num_considered,
        analysis.considered_visits,
        analysis.paths
    )
}

fn explicit_tree(seed: u64, num_actions: usize) -> TreeGame {
    let shape = RandomTree {
        num_actions,
        same_player_probability: 0.3,
        ..RandomTree::default()
    };
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    Arc::new(ExplicitTree::random(&shape, &mut rng)).root()
}

fn othello_midgame() -> Board {
    let mut board = Board::start();
    let mut moves = Vec::new();
    for ply in 0..20 {
        board.legal_moves(&mut moves);
        board.play(moves[(ply * 5 + 3) % moves.len()]);
    }
    board
}

/// Searches `state`, then plays the best move and the reply that comes
/// first in move order, and searches again with the kept tree.
fn with_reuse<G: Game, S: Searcher<G>>(searcher: &mut S, state: &G, limits: &Limits) -> String {
    let first = searcher.search(state, limits);
    let mut line = report_line(&first);
    if let Some(best) = first.best {
        let mut next = state.clone();
        next.play(best);
        searcher.advance(best);
        let mut moves = Vec::new();
        next.legal_moves(&mut moves);
        if let Some(&reply) = moves.first() {
            next.play(reply);
            searcher.advance(reply);
        }
        line.push_str(" | then ");
        line.push_str(&report_line(&searcher.search(&next, limits)));
    }
    line
}

fn gumbel<G: ActionSpace, E: game_traits::PolicyEvaluator<G>>(
    evaluator: E,
    config: GumbelConfig,
) -> GumbelAz<G, E> {
    GumbelAz::new(evaluator, config).unwrap()
}

fn puct<G: ActionSpace, E: game_traits::PolicyEvaluator<G>>(
    evaluator: E,
    config: PuctConfig,
) -> Puct<G, E> {
    Puct::new(evaluator, config).unwrap()
}

/// Every pinned case: its name and its line.
fn cases() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut add = |name: &str, line: String| out.push((name.to_string(), line));
    let policy = HeuristicPolicy::default();
    let start = Board::start();
    let midgame = othello_midgame();
    let ttt = TicTacToe::new();
    let ttt_policy = UniformPrior(TicTacToeHeuristic);
    let nim = Nim::with_extra_turns(&[3, 2, 2]);

    // Gumbel: the reference's noise, noise-free play, small k, reuse,
    // anytime rounds under a node budget, a small memory cap.
    for seed in [1, 2] {
        let mut searcher = gumbel(
            policy,
            GumbelConfig::default()
                .with_seed(seed)
                .with_record_paths(true),
        );
        add(
            &format!("gumbel othello noisy seed {seed}"),
            analysis_line(&searcher.analyse(&start, &Limits::iterations(64))),
        );
        add(
            &format!("gumbel othello noisy seed {seed} midgame"),
            analysis_line(&searcher.analyse(&midgame, &Limits::iterations(100))),
        );
    }
    let mut play = gumbel(
        policy,
        GumbelConfig::for_play().with_max_considered_actions(4),
    );
    add(
        "gumbel othello k=4 reuse",
        with_reuse(&mut play, &midgame, &Limits::iterations(200)),
    );
    let mut anytime = gumbel(policy, GumbelConfig::for_play().with_seed(3));
    add(
        "gumbel othello anytime node budget",
        analysis_line(&anytime.analyse(&midgame, &Limits::nodes(700))),
    );
    let mut capped = gumbel(
        policy,
        GumbelConfig::default()
            .with_seed(4)
            .with_max_tree_bytes(gumbel_az::MIN_TREE_BYTES),
    );
    add(
        "gumbel othello memory cap",
        report_line(&capped.search(&midgame, &Limits::iterations(3_000))),
    );
    let mut tuned = gumbel(
        policy,
        GumbelConfig::default().with_seed(5).with_completed_q(
            CompletedQ::default()
                .with_c_visit(20.0)
                .with_c_scale(0.3)
                .with_use_mixed_value(false),
        ),
    );
    add(
        "gumbel othello completed-q settings",
        analysis_line(&tuned.analyse(&start, &Limits::iterations(48))),
    );
    let mut ttt_gumbel = gumbel(ttt_policy, GumbelConfig::default().with_seed(6));
    add(
        "gumbel ttt reuse",
        with_reuse(&mut ttt_gumbel, &ttt, &Limits::iterations(32)),
    );
    let mut ttt_complete = gumbel(ttt_policy, GumbelConfig::for_play());
    let late = TicTacToe::from_moves(&[4, 0, 8, 2, 1]).unwrap();
    add(
        "gumbel ttt complete tree",
        report_line(&ttt_complete.search(&late, &Limits::iterations(500))),
    );
    let mut nim_gumbel = gumbel(
        UniformPrior(game_traits::OutcomeEvaluator),
        GumbelConfig::default().with_seed(7),
    );
    add(
        "gumbel nim",
        analysis_line(&nim_gumbel.analyse(&nim, &Limits::iterations(50))),
    );
    for seed in [1, 2] {
        let tree = explicit_tree(seed, 5);
        let mut searcher = gumbel(
            TreeEvaluator,
            GumbelConfig::default()
                .with_seed(seed)
                .with_record_paths(true),
        );
        add(
            &format!("gumbel tree {seed}"),
            analysis_line(&searcher.analyse(&tree, &Limits::iterations(40))),
        );
    }

    // PUCT: defaults, root noise, AlphaZero's first-play loss, reuse,
    // node budget, memory cap.
    let mut default = puct(policy, PuctConfig::default());
    add(
        "puct othello reuse",
        with_reuse(&mut default, &midgame, &Limits::iterations(300)),
    );
    let mut noisy = puct(
        policy,
        PuctConfig::default()
            .with_seed(8)
            .with_root_noise(Some(DirichletNoise::new(0.3, 0.25))),
    );
    add(
        "puct othello noise",
        report_line(&noisy.search(&start, &Limits::iterations(200))),
    );
    let mut loss = puct(
        policy,
        PuctConfig::default()
            .with_first_play(FirstPlay::Fixed(-1.0))
            .with_c_puct(2.0),
    );
    add(
        "puct othello first-play loss",
        report_line(&loss.search(&midgame, &Limits::iterations(250))),
    );
    let mut budget = puct(policy, PuctConfig::default());
    add(
        "puct othello node budget",
        report_line(&budget.search(&midgame, &Limits::nodes(500))),
    );
    let mut capped = puct(
        policy,
        PuctConfig::default().with_max_tree_bytes(gumbel_az::MIN_TREE_BYTES),
    );
    add(
        "puct othello memory cap",
        report_line(&capped.search(&midgame, &Limits::iterations(3_000))),
    );
    let mut ttt_puct = puct(ttt_policy, PuctConfig::default());
    add(
        "puct ttt reuse",
        with_reuse(&mut ttt_puct, &ttt, &Limits::iterations(400)),
    );
    let mut ttt_complete = puct(ttt_policy, PuctConfig::default());
    add(
        "puct ttt complete tree",
        report_line(&ttt_complete.search(&late, &Limits::iterations(500))),
    );
    let mut nim_puct = puct(
        UniformPrior(game_traits::OutcomeEvaluator),
        PuctConfig::default(),
    );
    add(
        "puct nim",
        report_line(&nim_puct.search(&nim, &Limits::iterations(300))),
    );
    for seed in [1, 2] {
        let tree = explicit_tree(seed, 5);
        let mut searcher = puct(TreeEvaluator, PuctConfig::default());
        add(
            &format!("puct tree {seed}"),
            report_line(&searcher.search(&tree, &Limits::iterations(300))),
        );
    }
    out
}

#[test]
fn reports_match_the_pinned_ones() {
    assert_matches_pinned(
        &cases(),
        include_str!("data/pinned_reports.txt"),
        "GUMBEL_PIN_WRITE",
    );
}
