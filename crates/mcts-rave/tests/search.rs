//! Convergence to minimax, RAVE against UCT, determinism, budgets, tree
//! reuse, threads and evaluator leaves, on the toy games.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use game_traits::testing::{
    ExplicitTree, Nim, RandomTree, TicTacToe, TicTacToeHeuristic, TreeEvaluator, TreeGame,
    check_against_minimax, random_positions,
};
use game_traits::{ActionSpace, Game, Limits, OutcomeEvaluator, SearchReport, Searcher};
use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Rave};
use rand::SeedableRng;

fn random_tree(seed: u64, same_player_probability: f64) -> TreeGame {
    let shape = RandomTree {
        same_player_probability,
        ..RandomTree::default()
    };
    tree_of_shape(&shape, seed)
}

fn tree_of_shape(shape: &RandomTree, seed: u64) -> TreeGame {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    Arc::new(ExplicitTree::random(shape, &mut rng)).root()
}

/// The report without the wall-clock time, for exact comparisons.
fn timeless<M: Clone>(report: &SearchReport<M>) -> SearchReport<M> {
    let mut report = report.clone();
    report.stats.elapsed = Duration::ZERO;
    report
}

/// Mean absolute error of the root value against minimax over random
/// trees, at a given iteration budget.
fn mean_error<S: Searcher<TreeGame>>(
    make: impl Fn(u64) -> S,
    trees: &[TreeGame],
    iterations: u64,
) -> f32 {
    let total: f32 = trees
        .iter()
        .enumerate()
        .map(|(index, root)| {
            let mut searcher = make(index as u64);
            let report = searcher.search(root, &Limits::iterations(iterations));
            (report.value - root.minimax_value()).abs()
        })
        .sum();
    total / trees.len() as f32
}

#[test]
fn root_value_converges_to_minimax_on_random_trees() {
    // Trees of 4,000 to 20,000 nodes; every fourth child keeps the player
    // to move, so turns do not alternate.
    let shape = RandomTree {
        same_player_probability: 0.25,
        max_depth: 9,
        min_branching: 2,
        max_branching: 4,
        terminal_probability: 0.1,
        ..RandomTree::default()
    };
    let trees: Vec<TreeGame> = (0..30).map(|seed| tree_of_shape(&shape, seed)).collect();
    let uct =
        |seed| Mcts::new(MctsKnowledge::uct(), MctsConfig::default().with_seed(seed)).unwrap();
    let rave = |seed| {
        Mcts::new(
            MctsKnowledge::rave(Rave::new()),
            MctsConfig::default().with_seed(seed),
        )
        .unwrap()
    };
    for (name, small, large) in [
        (
            "uct",
            mean_error(uct, &trees, 100),
            mean_error(uct, &trees, 100_000),
        ),
        (
            "rave",
            mean_error(rave, &trees, 100),
            mean_error(rave, &trees, 100_000),
        ),
    ] {
        eprintln!("{name}: mean error {small} at 100 iterations, {large} at 100k");
        // Measured: about 0.28 at 100 iterations, below 0.001 at 100k.
        assert!(large < 0.02, "{name}: {large}");
        assert!(large * 20.0 < small, "{name}: {small} -> {large}");
    }
    // And the move chosen at 100k iterations is a minimax-best move, with
    // the value close, on positions inside the trees too.
    for (seed, root) in trees.iter().enumerate().take(10) {
        let positions = random_positions(root, 5, seed as u64);
        let mut searcher = Mcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
        check_against_minimax(
            &mut searcher,
            &positions,
            &Limits::iterations(100_000),
            &OutcomeEvaluator,
            0.1,
        )
        .unwrap();
    }
}

#[test]
fn nim_with_extra_turns_values_converge() {
    // Small enough to search to the end many times over.
    let start = Nim::with_extra_turns(&[2, 3, 2]);
    let positions = random_positions(&start, 20, 9);
    assert_eq!(positions.len(), 20);
    for make in [
        |seed| {
            Box::new(
                Mcts::new(MctsKnowledge::uct(), MctsConfig::default().with_seed(seed)).unwrap(),
            ) as Box<_>
        },
        |seed| {
            Box::new(
                Mcts::new(
                    MctsKnowledge::rave(Rave::new()),
                    MctsConfig::default().with_seed(seed),
                )
                .unwrap(),
            ) as Box<dyn Searcher<Nim>>
        },
    ] {
        let mut searcher: Box<dyn Searcher<Nim>> = make(5);
        check_against_minimax(
            &mut searcher,
            &positions,
            &Limits::iterations(50_000),
            &OutcomeEvaluator,
            0.1,
        )
        .unwrap();
    }
}

/// Plays UCT and RAVE (with `rave`) from the same seed on `positions` and
/// says whether every report was identical.
fn same_as_uct<G: ActionSpace>(positions: &[G], rave: Rave, iterations: u64) -> bool {
    let mut uct = Mcts::new(MctsKnowledge::uct(), MctsConfig::default().with_seed(17)).unwrap();
    let mut rave = Mcts::new(
        MctsKnowledge::rave(rave),
        MctsConfig::default().with_seed(17),
    )
    .unwrap();
    positions.iter().all(|position| {
        // Positions of different explicit trees may print alike.
        uct.reset();
        rave.reset();
        let limits = Limits::iterations(iterations);
        let a = uct.search(position, &limits);
        let b = rave.search(position, &limits);
        let mut b = timeless(&b);
        for info in &mut b.moves {
            info.amaf_value = None;
        }
        timeless(&a) == b
    })
}

#[test]
fn rave_with_infinite_bias_is_uct_move_for_move() {
    let off = Rave::minimum_mse(f32::INFINITY);
    let tic_tac_toe = random_positions(&TicTacToe::new(), 15, 1);
    assert!(same_as_uct(&tic_tac_toe, off, 3_000));
    assert!(same_as_uct(
        &random_positions(&Nim::with_extra_turns(&[3, 4, 5]), 15, 2),
        off,
        3_000
    ));
    let trees: Vec<TreeGame> = (0..10).map(|seed| random_tree(seed, 0.3)).collect();
    assert!(same_as_uct(&trees, off, 3_000));
    // The equivalence schedule with k = 0 is UCT as well ...
    assert!(same_as_uct(&tic_tac_toe, Rave::equivalence(0.0), 3_000));
    // ... and real RAVE is not.
    assert!(!same_as_uct(&tic_tac_toe, Rave::new(), 3_000));
}

#[test]
fn same_seed_same_search_at_one_and_two_threads() {
    let position = TicTacToe::from_moves(&[4]).unwrap();
    for threads in [1, 2] {
        let config = MctsConfig::default().with_seed(99).with_threads(threads);
        let run = |config: MctsConfig| {
            let mut searcher = Mcts::new(MctsKnowledge::rave(Rave::new()), config).unwrap();
            timeless(&searcher.search(&position, &Limits::iterations(5_000)))
        };
        let first = run(config.clone());
        assert_eq!(first, run(config.clone()));
        assert_eq!(first.stats.iterations, 5_000);
        let other = run(config.with_seed(100));
        assert_ne!(
            first.moves.iter().map(|m| m.visits).collect::<Vec<_>>(),
            other.moves.iter().map(|m| m.visits).collect::<Vec<_>>()
        );
    }
}

#[test]
fn report_has_statistics_for_every_root_move() {
    let position = TicTacToe::from_moves(&[0, 4]).unwrap();
    let mut searcher = Mcts::new(MctsKnowledge::rave(Rave::new()), MctsConfig::default()).unwrap();
    let report = searcher.search(&position, &Limits::iterations(4_000));
    assert_eq!(report.moves.len(), 7);
    let visits: u64 = report.moves.iter().map(|info| info.visits).sum();
    // A fresh root is expanded before the first iteration.
    assert_eq!(visits, 4_000);
    assert!(report.moves.iter().all(|info| info.value.is_some()));
    assert!(report.moves.iter().all(|info| info.amaf_value.is_some()));
    let best = report.moves.iter().max_by_key(|info| info.visits).unwrap();
    assert_eq!(report.best, Some(best.mv));
    assert_eq!(report.pv[0], best.mv);
    assert!(report.pv.len() >= 3, "{:?}", report.pv);
    // The principal variation is a legal line.
    let mut line = position.clone();
    for &mv in &report.pv {
        line.try_play(mv).unwrap();
    }
    assert_eq!(report.stats.iterations, 4_000);
    assert!(report.stats.nodes > 100);
    assert!(report.stats.depth >= 3);
    // Perfect play draws from here.
    assert!(report.value.abs() < 0.3, "{}", report.value);
}

#[test]
fn advance_keeps_the_subtrees_of_the_move_and_the_reply() {
    let start = TicTacToe::new();
    let mut searcher = Mcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
    let first = searcher.search(&start, &Limits::iterations(20_000));
    let (mv, reply) = (first.pv[0], first.pv[1]);
    let kept = first
        .moves
        .iter()
        .find(|info| info.mv == mv)
        .unwrap()
        .visits;
    searcher.advance(mv);
    assert_eq!(searcher.root_visits(), kept);
    searcher.advance(reply);
    let warm = searcher.root_visits();
    assert!(warm > 1_000, "{warm}");
    let mut position = start.clone();
    position.play(mv);
    position.play(reply);
    let report = searcher.search(&position, &Limits::iterations(1_000));
    // The new search adds to the kept statistics.
    assert_eq!(searcher.root_visits(), warm + 1_000);
    let visits: u64 = report.moves.iter().map(|info| info.visits).sum();
    // (The root's own first visit, before it was expanded, has no move.)
    assert_eq!(visits, warm + 1_000 - 1);
    // A position that is not the kept root gets a fresh tree.
    let elsewhere: TicTacToe = "xx.oo.... x".parse().unwrap();
    let report = searcher.search(&elsewhere, &Limits::iterations(500));
    assert_eq!(report.best, Some(2));
    // A win in one is proven at once, which ends the search.
    assert_eq!(report.stats.stop, game_traits::StopReason::Solved);
    assert_eq!(searcher.root_visits(), report.stats.iterations);
    assert!(report.stats.iterations < 500);
    // Without reuse, advance keeps nothing.
    let mut cold = Mcts::new(
        MctsKnowledge::uct(),
        MctsConfig::default().with_reuse_tree(false),
    )
    .unwrap();
    cold.search(&start, &Limits::iterations(1_000));
    cold.advance(mv);
    let report = cold.search(
        &TicTacToe::from_moves(&[mv]).unwrap(),
        &Limits::iterations(300),
    );
    assert_eq!(
        report.moves.iter().map(|info| info.visits).sum::<u64>(),
        300
    );
}

#[test]
fn advance_with_an_illegal_move_drops_the_tree() {
    let mut searcher = Mcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
    let start = TicTacToe::from_moves(&[4]).unwrap();
    searcher.search(&start, &Limits::iterations(1_000));
    searcher.advance(4); // occupied
    assert_eq!(searcher.root_visits(), 0);
    let report = searcher.search(&start, &Limits::iterations(100));
    assert_eq!(report.stats.iterations, 100);
}

#[test]
fn node_cap_bounds_the_tree() {
    let mut searcher =
        Mcts::new(MctsKnowledge::uct(), MctsConfig::default().with_threads(2)).unwrap();
    let report = searcher.search(
        &TicTacToe::new(),
        &Limits::iterations(100_000).with_nodes(600),
    );
    assert!(report.stats.nodes <= 600, "{}", report.stats.nodes);
    assert!(report.stats.iterations < 100_000);
    assert!(report.best.is_some());
    // The memory cap stops the growth, not the search.
    let mut capped = Mcts::new(
        MctsKnowledge::uct(),
        MctsConfig::default().with_max_nodes(300),
    )
    .unwrap();
    let report = capped.search(&TicTacToe::new(), &Limits::iterations(20_000));
    assert!(report.stats.nodes <= 300);
    assert!(report.stats.nodes > 250);
    assert_eq!(report.stats.iterations, 20_000);
    assert!(capped.tree_nodes() <= 300);
}

#[test]
fn stop_flag_and_time_limit_end_the_search() {
    let stop = Arc::new(AtomicBool::new(true));
    let mut searcher = Mcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
    let report = searcher.search(&TicTacToe::new(), &Limits::none().with_stop(stop));
    assert_eq!(report.stats.iterations, 0);
    assert!(report.best.is_some());
    for threads in [1, 2] {
        let mut searcher = Mcts::new(
            MctsKnowledge::uct(),
            MctsConfig::default()
                .with_threads(threads)
                .with_max_nodes(u64::from(u32::MAX)),
        )
        .unwrap();
        let started = Instant::now();
        let report = searcher.search(
            &Nim::new(&[15, 15, 15, 15, 15, 15, 15, 15]),
            &Limits::time(Duration::from_millis(100)),
        );
        let elapsed = started.elapsed();
        assert!(elapsed >= Duration::from_millis(100));
        // Generous: the machine may be busy.
        assert!(elapsed < Duration::from_millis(600), "{elapsed:?}");
        assert!(report.stats.iterations > 100);
    }
    // No limit at all: the default budget.
    let mut searcher = Mcts::new(
        MctsKnowledge::uct(),
        MctsConfig::default().with_default_iterations(777),
    )
    .unwrap();
    let report = searcher.search(&TicTacToe::new(), &Limits::none());
    assert_eq!(report.stats.iterations, 777);
}

#[test]
fn evaluator_leaves_and_cutoffs() {
    let trees: Vec<TreeGame> = (0..20).map(|seed| random_tree(seed + 100, 0.2)).collect();
    let evaluate = |leaf: LeafEvaluation, seed: u64| {
        Mcts::new(
            MctsKnowledge::uct().with_evaluator(TreeEvaluator),
            MctsConfig::default().with_seed(seed).with_leaf(leaf),
        )
        .unwrap()
    };
    // A cutoff at depth 0 is the evaluator alone, iteration for iteration.
    for root in &trees {
        let limits = Limits::iterations(2_000);
        let a = evaluate(LeafEvaluation::Evaluator, 1).search(root, &limits);
        let b = evaluate(LeafEvaluation::PlayoutCutoff { depth: 0 }, 1).search(root, &limits);
        assert_eq!(timeless(&a), timeless(&b));
    }
    // Evaluator leaves converge to minimax too.
    let small = mean_error(|seed| evaluate(LeafEvaluation::Evaluator, seed), &trees, 30);
    let large = mean_error(
        |seed| evaluate(LeafEvaluation::Evaluator, seed),
        &trees,
        50_000,
    );
    assert!(large < 0.05 && large * 3.0 < small, "{small} -> {large}");
    // And cut-off playouts on tic-tac-toe still find the win.
    let position: TicTacToe = "xx.oo.... x".parse().unwrap();
    let mut searcher = Mcts::new(
        MctsKnowledge::uct().with_evaluator(TicTacToeHeuristic),
        MctsConfig::default().with_leaf(LeafEvaluation::PlayoutCutoff { depth: 2 }),
    )
    .unwrap();
    let report = searcher.search(&position, &Limits::iterations(2_000));
    assert_eq!(report.best, Some(2));
}

#[test]
fn evaluator_values_are_taken_from_the_right_side() {
    // The evaluator says the side to move is ahead by 0.5 wherever the
    // game goes on. One visit per root move: a move that hands the turn
    // over is worth -0.5 to its mover, an extra turn +0.5.
    let half = || game_traits::FnEvaluator::new(|_: &Nim| 0.5);
    let position = Nim::with_extra_turns(&[1, 2]);
    let mut searcher = Mcts::new(
        MctsKnowledge::uct().with_evaluator(half()),
        MctsConfig::default().with_leaf(LeafEvaluation::Evaluator),
    )
    .unwrap();
    let report = searcher.search(&position, &Limits::iterations(3));
    let values: Vec<f32> = report
        .moves
        .iter()
        .map(|info| info.value.unwrap())
        .collect();
    // Moves in order: take 1 from heap 0 (empties it: extra turn), take 1
    // from heap 1, take 2 from heap 1 (empties it: extra turn).
    assert_eq!(values, [0.5, -0.5, 0.5]);
    for info in &report.moves {
        let value = game_traits::testing::child_value(&position, info.mv, Some(1), &half());
        assert_eq!(info.value, Some(value));
    }
}

#[test]
fn boxed_searchers_and_names() {
    let mut searchers: Vec<Box<dyn Searcher<TicTacToe>>> = vec![
        Box::new(Mcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap()),
        Box::new(Mcts::new(MctsKnowledge::rave(Rave::new()), MctsConfig::default()).unwrap()),
    ];
    let names: Vec<String> = searchers.iter().map(|s| s.name()).collect();
    assert_eq!(names, ["uct", "rave"]);
    for searcher in &mut searchers {
        assert!(
            searcher
                .search(&TicTacToe::new(), &Limits::iterations(10))
                .best
                .is_some()
        );
    }
    assert!(
        Mcts::<TicTacToe>::new(MctsKnowledge::uct(), MctsConfig::default().with_threads(0))
            .is_err()
    );
    assert!(
        Mcts::<TicTacToe, Rave>::new(
            MctsKnowledge::rave(Rave::minimum_mse(-1.0)),
            MctsConfig::default()
        )
        .is_err()
    );
}

#[test]
fn a_root_check_tells_explicit_trees_apart() {
    // Roots of two different trees print alike ("TreeGame(node 0)"), so
    // they need a check that looks at the tree.
    fn same_tree_node(a: &TreeGame, b: &TreeGame) -> bool {
        Arc::ptr_eq(a.tree(), b.tree()) && a.node_index() == b.node_index()
    }
    let (a, b) = (random_tree(1, 0.0), random_tree(2, 0.0));
    let mut searcher = Mcts::new(MctsKnowledge::rave(Rave::new()), MctsConfig::default())
        .unwrap()
        .with_root_check(same_tree_node);
    // (A search ends early once the solver proves its root.)
    let first = searcher.search(&a, &Limits::iterations(1_000));
    let second = searcher.search(&a, &Limits::iterations(1_000));
    assert!(first.stats.iterations > 0);
    assert_eq!(
        searcher.root_visits(),
        first.stats.iterations + second.stats.iterations
    );
    let report = searcher.search(&b, &Limits::iterations(1_000));
    assert_eq!(searcher.root_visits(), report.stats.iterations);
    assert!((report.value - b.minimax_value()).abs() <= 1.0);
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    assert!(moves.contains(&report.best.unwrap()));
}

/// A root where First chooses between action 0 (a draw) and action 1,
/// after which `next` moves and may play action 0 too, ending the game
/// with `outcome` for First.
fn amaf_tree(next: game_traits::Player, outcome_for_first: f32) -> TreeGame {
    use game_traits::Player::{First, Second};
    use game_traits::testing::TreeNode;
    let end_for = |player: game_traits::Player| {
        let outcome = if player == First {
            outcome_for_first
        } else {
            -outcome_for_first
        };
        TreeNode::terminal(player, outcome)
    };
    let nodes = vec![
        TreeNode::inner(First, 0.0, vec![Some(1), Some(2)], vec![0.0; 2]),
        TreeNode::terminal(Second, 0.0),
        TreeNode::inner(next, 0.0, vec![Some(3), None], vec![0.0; 2]),
        end_for(next.opponent()),
    ];
    Arc::new(ExplicitTree::new(2, nodes).unwrap()).root()
}

#[test]
fn amaf_counts_a_move_only_for_the_player_who_would_play_it() {
    let amaf_of = |root: &TreeGame, mv: usize| {
        let mut rave = Mcts::new(MctsKnowledge::rave(Rave::new()), MctsConfig::default()).unwrap();
        let report = rave.search(root, &Limits::iterations(200));
        report
            .moves
            .iter()
            .find(|info| info.mv == mv)
            .unwrap()
            .amaf_value
    };
    // Second plays action 0 after First's action 1 and wins: that must not
    // count for First's action 0, whose only results are its own draws.
    let other_player = amaf_tree(game_traits::Player::Second, -1.0);
    assert_eq!(amaf_of(&other_player, 0), Some(0.0));
    assert_eq!(amaf_of(&other_player, 1), Some(-1.0));
    // First moves again (no alternation) and wins with action 0: that
    // counts for action 0 at the root.
    let same_player = amaf_tree(game_traits::Player::First, 1.0);
    let value = amaf_of(&same_player, 0).unwrap();
    assert!(value > 0.2 && value < 1.0, "{value}");
    assert_eq!(amaf_of(&same_player, 1), Some(1.0));
}

/// A game with nothing but the rules (no `ActionSpace`): take 1 to 3
/// stones, whoever takes the last stone wins.
#[derive(Clone, Debug)]
struct Subtraction {
    stones: u8,
    to_move: game_traits::Player,
}

impl Game for Subtraction {
    type Move = u8;
    fn to_move(&self) -> game_traits::Player {
        self.to_move
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend((1..=3).filter(|&take| take <= self.stones));
    }
    fn play(&mut self, take: u8) {
        self.stones -= take;
        self.to_move = self.to_move.opponent();
    }
    fn outcome(&self) -> Option<game_traits::Outcome> {
        (self.stones == 0).then(|| game_traits::Outcome::Win(self.to_move.opponent()))
    }
}

#[test]
fn uct_needs_nothing_but_the_rules() {
    // Leaving a multiple of 4 wins.
    for stones in [5u8, 6, 7, 9, 10, 11, 13] {
        let game = Subtraction {
            stones,
            to_move: game_traits::Player::Second,
        };
        let mut uct = Mcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
        let report = uct.search(&game, &Limits::iterations(3_000));
        assert_eq!(report.best, Some(stones % 4), "{stones} stones");
        assert!(report.value > 0.5, "{stones}: {}", report.value);
    }
}

#[test]
fn the_solver_can_be_switched_off() {
    use game_traits::StopReason;
    // X to move, and 2 completes the top row.
    let win_now = TicTacToe::from_moves(&[0, 3, 1, 4]).unwrap();
    let limits = Limits::iterations(2_000);
    for parallelism in [mcts_rave::Parallelism::Root, mcts_rave::Parallelism::Tree] {
        let config = MctsConfig::default()
            .with_seed(3)
            .with_parallelism(parallelism);
        let mut solving = Mcts::new(MctsKnowledge::uct(), config.clone()).unwrap();
        let report = solving.search(&win_now, &limits);
        assert_eq!(report.best, Some(2));
        assert_eq!(report.stats.stop, StopReason::Solved);
        assert!(report.stats.iterations < 2_000);

        let mut plain = Mcts::new(MctsKnowledge::uct(), config.with_solver(false)).unwrap();
        let report = plain.search(&win_now, &limits);
        assert_eq!(report.best, Some(2));
        assert_eq!(report.stats.stop, StopReason::Iterations);
        assert_eq!(report.stats.iterations, 2_000);
        // Without proofs, proven losses are not skipped: every reply is
        // visited by its mean alone.
        assert!(report.moves.iter().all(|info| info.visits > 0));
    }
}
