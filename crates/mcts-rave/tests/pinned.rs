//! Seeded reports pinned to the bit: every configuration that existed
//! before the shared tree and batched leaves came (root parallelism, one
//! or two threads, every leaf evaluation, tree reuse, node budgets) must
//! still give exactly these reports.
//!
//! The expected lines in `tests/data/pinned_reports.txt` were written by
//! the searcher as it was before those changes; they are never rewritten
//! to make this test pass. `MCTS_PIN_WRITE=1 cargo test -p mcts-rave
//! --test pinned` prints the current lines instead of comparing, to
//! pin new cases.

use std::fmt::Debug;
use std::sync::Arc;

use bitboard_othello::{Board, PositionalEvaluator};
use game_traits::testing::{
    ExplicitTree, Nim, RandomTree, TicTacToe, TicTacToeHeuristic, TreeEvaluator, TreeGame,
    assert_matches_pinned,
};
use game_traits::{Game, Limits, SearchReport, Searcher};
use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Rave, same_hash};
use rand::SeedableRng;

/// A report as one line: every number as its exact bits, no time.
pub fn report_line<M: Debug>(report: &SearchReport<M>) -> String {
    let bits =
        |value: Option<f32>| value.map_or("-".to_string(), |v| format!("{:08x}", v.to_bits()));
    let moves: Vec<String> = report
        .moves
        .iter()
        .map(|info| {
            format!(
                "{:?}/{}/{}/{}",
                info.mv,
                info.visits,
                bits(info.value),
                bits(info.amaf_value)
            )
        })
        .collect();
    format!(
        "best {:?} value {} pv {:?} moves [{}] iterations {} nodes {} depth {} stop {:?}",
        report.best,
        bits(Some(report.value)),
        report.pv,
        moves.join(" "),
        report.stats.iterations,
        report.stats.nodes,
        report.stats.depth,
        report.stats.stop
    )
}

fn explicit_tree(seed: u64) -> TreeGame {
    let shape = RandomTree {
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
    let mut next = state.clone();
    let mut moves = Vec::new();
    let mut line = report_line(&first);
    if let Some(best) = first.best {
        next.play(best);
        searcher.advance(best);
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

/// Every pinned case: its name and its line.
fn cases() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut add = |name: &str, line: String| out.push((name.to_string(), line));
    let config =
        |seed: u64, threads: usize| MctsConfig::default().with_seed(seed).with_threads(threads);

    let ttt = TicTacToe::new();
    let ttt_center = TicTacToe::from_moves(&[4]).unwrap();
    let ttt_win: TicTacToe = "xx.oo.... x".parse().unwrap();
    for threads in [1, 2] {
        let mut uct = Mcts::new(MctsKnowledge::uct(), config(1, threads)).unwrap();
        add(
            &format!("ttt uct threads {threads}"),
            report_line(&uct.search(&ttt, &Limits::iterations(3_000))),
        );
        let mut rave = Mcts::new(MctsKnowledge::rave(Rave::new()), config(2, threads)).unwrap();
        add(
            &format!("ttt rave threads {threads}"),
            report_line(&rave.search(&ttt_center, &Limits::iterations(3_000))),
        );
        let mut equivalence = Mcts::new(
            MctsKnowledge::rave(Rave::equivalence(300.0)),
            config(3, threads),
        )
        .unwrap();
        add(
            &format!("ttt rave k=300 threads {threads}"),
            report_line(&equivalence.search(&ttt, &Limits::iterations(2_000))),
        );
    }
    let mut solved = Mcts::new(MctsKnowledge::uct(), config(4, 1)).unwrap();
    add(
        "ttt proven win",
        report_line(&solved.search(&ttt_win, &Limits::iterations(5_000))),
    );
    let mut nodes = Mcts::new(MctsKnowledge::uct(), config(5, 1)).unwrap();
    add(
        "ttt node budget",
        report_line(&nodes.search(&ttt, &Limits::nodes(400))),
    );
    let mut capped = Mcts::new(
        MctsKnowledge::rave(Rave::new()),
        config(6, 1).with_max_nodes(300),
    )
    .unwrap();
    add(
        "ttt memory cap",
        report_line(&capped.search(&ttt, &Limits::iterations(4_000))),
    );
    let mut leaves = Mcts::new(
        MctsKnowledge::uct().with_evaluator(TicTacToeHeuristic),
        config(7, 1).with_leaf(LeafEvaluation::Evaluator),
    )
    .unwrap();
    add(
        "ttt evaluator leaves",
        report_line(&leaves.search(&ttt, &Limits::iterations(2_000))),
    );
    let mut rave_leaves = Mcts::new(
        MctsKnowledge::rave(Rave::new()).with_evaluator(TicTacToeHeuristic),
        config(8, 1).with_leaf(LeafEvaluation::Evaluator),
    )
    .unwrap();
    add(
        "ttt rave evaluator leaves",
        with_reuse(&mut rave_leaves, &ttt, &Limits::iterations(1_500)),
    );
    let mut cutoff = Mcts::new(
        MctsKnowledge::uct().with_evaluator(TicTacToeHeuristic),
        config(9, 1).with_leaf(LeafEvaluation::PlayoutCutoff { depth: 2 }),
    )
    .unwrap();
    add(
        "ttt cutoff",
        report_line(&cutoff.search(&ttt, &Limits::iterations(2_000))),
    );
    let mut reuse = Mcts::new(MctsKnowledge::uct(), config(10, 1)).unwrap();
    add(
        "ttt uct reuse",
        with_reuse(&mut reuse, &ttt, &Limits::iterations(2_000)),
    );
    let mut reuse_two = Mcts::new(MctsKnowledge::rave(Rave::new()), config(11, 2)).unwrap();
    add(
        "ttt rave reuse threads 2",
        with_reuse(&mut reuse_two, &ttt, &Limits::iterations(2_000)),
    );

    let nim = Nim::with_extra_turns(&[3, 2, 2]);
    for threads in [1, 2] {
        let mut uct = Mcts::new(MctsKnowledge::uct(), config(12, threads)).unwrap();
        add(
            &format!("nim uct threads {threads}"),
            report_line(&uct.search(&nim, &Limits::iterations(2_000))),
        );
        let mut rave = Mcts::new(MctsKnowledge::rave(Rave::new()), config(13, threads)).unwrap();
        add(
            &format!("nim rave threads {threads}"),
            report_line(&rave.search(&nim, &Limits::iterations(2_000))),
        );
    }

    for seed in [1, 2] {
        let tree = explicit_tree(seed);
        let mut uct = Mcts::new(MctsKnowledge::uct(), config(14, 1)).unwrap();
        add(
            &format!("tree {seed} uct"),
            report_line(&uct.search(&tree, &Limits::iterations(3_000))),
        );
        let mut leaves = Mcts::new(
            MctsKnowledge::uct().with_evaluator(TreeEvaluator),
            config(15, 1).with_leaf(LeafEvaluation::Evaluator),
        )
        .unwrap();
        add(
            &format!("tree {seed} evaluator leaves"),
            report_line(&leaves.search(&tree, &Limits::iterations(3_000))),
        );
    }

    // Othello with the generic uniform playout (a move list per ply) and
    // the positional evaluator.
    let start = Board::start();
    let midgame = othello_midgame();
    for threads in [1, 2] {
        let mut uct = Mcts::new(MctsKnowledge::uct(), config(16, threads))
            .unwrap()
            .with_root_check(same_hash);
        add(
            &format!("othello uct threads {threads}"),
            report_line(&uct.search(&start, &Limits::iterations(1_500))),
        );
        let mut rave = Mcts::new(
            MctsKnowledge::rave(Rave::new()),
            config(17, threads).with_exploration(0.25),
        )
        .unwrap()
        .with_root_check(same_hash);
        add(
            &format!("othello rave midgame threads {threads}"),
            report_line(&rave.search(&midgame, &Limits::iterations(1_500))),
        );
    }
    let mut leaves = Mcts::new(
        MctsKnowledge::rave(Rave::new()).with_evaluator(PositionalEvaluator),
        config(18, 1).with_leaf(LeafEvaluation::Evaluator),
    )
    .unwrap()
    .with_root_check(same_hash);
    add(
        "othello rave evaluator leaves reuse",
        with_reuse(&mut leaves, &midgame, &Limits::iterations(2_000)),
    );
    let mut uct_leaves = Mcts::new(
        MctsKnowledge::uct().with_evaluator(PositionalEvaluator),
        config(19, 2).with_leaf(LeafEvaluation::Evaluator),
    )
    .unwrap()
    .with_root_check(same_hash);
    add(
        "othello uct evaluator leaves threads 2",
        report_line(&uct_leaves.search(&start, &Limits::iterations(2_000))),
    );
    let mut cutoff = Mcts::new(
        MctsKnowledge::uct().with_evaluator(PositionalEvaluator),
        config(20, 1).with_leaf(LeafEvaluation::PlayoutCutoff { depth: 6 }),
    )
    .unwrap()
    .with_root_check(same_hash);
    add(
        "othello cutoff",
        report_line(&cutoff.search(&midgame, &Limits::iterations(1_000))),
    );
    let mut budget = Mcts::new(MctsKnowledge::uct(), config(21, 1))
        .unwrap()
        .with_root_check(same_hash);
    add(
        "othello node budget",
        report_line(&budget.search(&midgame, &Limits::nodes(600))),
    );
    out
}

#[test]
fn reports_match_the_pinned_ones() {
    assert_matches_pinned(
        &cases(),
        include_str!("data/pinned_reports.txt"),
        "MCTS_PIN_WRITE",
    );
}
