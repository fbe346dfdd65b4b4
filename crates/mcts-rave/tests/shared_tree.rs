//! The shared tree (tree parallelism, batches of leaves) against the
//! sequential search, and under two threads: the `Limits` contract,
//! tactics, proofs and convergence.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use bitboard_othello::{Board, PositionalEvaluator, RandomPlayout};
use game_traits::testing::{
    ContractOptions, Endless, ExplicitTree, Nim, RandomTree, TicTacToe, TicTacToeHeuristic,
    TreeEvaluator, TreeGame, check_against_minimax, check_limits_contract, check_repeatable,
    check_tactics, random_positions, tactical_cases,
};
use game_traits::{
    Batch, BatchEvaluator, Game, Limits, OutcomeEvaluator, SearchReport, Searcher, StopReason,
    UniformPrior,
};
use mcts_rave::{
    LeafEvaluation, Mcts, MctsConfig, MctsKnowledge, Parallelism, Rave, StatsSync, TreePolicy, Uct,
    same_hash,
};
use rand::SeedableRng;

fn timeless<M: Clone>(report: &SearchReport<M>) -> SearchReport<M> {
    let mut report = report.clone();
    report.stats.elapsed = Duration::ZERO;
    report
}

fn explicit_tree(seed: u64) -> TreeGame {
    let shape = RandomTree {
        same_player_probability: 0.3,
        ..RandomTree::default()
    };
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    Arc::new(ExplicitTree::random(&shape, &mut rng)).root()
}

fn tree_mode(config: MctsConfig, sync: StatsSync) -> MctsConfig {
    config
        .with_parallelism(Parallelism::Tree)
        .with_stats_sync(sync)
}

/// Searches every position with both searchers, then plays the best move
/// and the first reply and searches again (tree reuse); the reports must
/// be identical.
fn same_searches<G: Game, A: Searcher<G>, B: Searcher<G>>(
    mut sequential: A,
    mut shared: B,
    positions: &[G],
    limits: &Limits,
) {
    for (index, position) in positions.iter().enumerate() {
        sequential.reset();
        shared.reset();
        let mut state = position.clone();
        for round in 0..3 {
            let a = sequential.search(&state, limits);
            let b = shared.search(&state, limits);
            assert_eq!(
                timeless(&a),
                timeless(&b),
                "position {index}, round {round}: {state:?}"
            );
            let Some(best) = a.best else { break };
            state.play(best);
            sequential.advance(best);
            shared.advance(best);
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let Some(&reply) = moves.first() else { break };
            state.play(reply);
            sequential.advance(reply);
            shared.advance(reply);
        }
    }
}

fn both<G, T>(policy: T, config: MctsConfig, positions: &[G], limits: &Limits)
where
    G: Game,
    T: TreePolicy<G> + 'static,
{
    for sync in [StatsSync::Atomic, StatsSync::Mutex] {
        same_searches(
            Mcts::new(
                MctsKnowledge::uct().with_policy(policy.clone()),
                config.clone(),
            )
            .unwrap(),
            Mcts::new(
                MctsKnowledge::uct().with_policy(policy.clone()),
                tree_mode(config.clone(), sync),
            )
            .unwrap(),
            positions,
            limits,
        );
    }
}

#[test]
fn one_thread_on_a_shared_tree_is_the_sequential_search() {
    let tic_tac_toe = random_positions(&TicTacToe::new(), 6, 1);
    let nim = random_positions(&Nim::with_extra_turns(&[3, 2, 2]), 6, 2);
    let trees: Vec<TreeGame> = (0..4).map(explicit_tree).collect();
    let config = MctsConfig::default().with_seed(5);
    both(
        Uct,
        config.clone(),
        &tic_tac_toe,
        &Limits::iterations(1_500),
    );
    both(
        Rave::new(),
        config.clone(),
        &tic_tac_toe,
        &Limits::iterations(1_500),
    );
    both(Uct, config.clone(), &nim, &Limits::iterations(1_000));
    both(
        Rave::new(),
        config.clone(),
        &nim,
        &Limits::iterations(1_000),
    );
    both(Uct, config.clone(), &trees, &Limits::iterations(2_000));
    // Node budgets, memory caps, a proven win.
    both(Uct, config.clone(), &tic_tac_toe, &Limits::nodes(300));
    both(
        Rave::new(),
        config.clone().with_max_nodes(250),
        &tic_tac_toe,
        &Limits::iterations(3_000),
    );
    let win: TicTacToe = "xx.oo.... x".parse().unwrap();
    both(Uct, config.clone(), &[win], &Limits::iterations(1_000));
    // Evaluator leaves and cut-offs, with the heuristic.
    for leaf in [
        LeafEvaluation::Evaluator,
        LeafEvaluation::PlayoutCutoff { depth: 2 },
    ] {
        let config = config.clone().with_leaf(leaf);
        for sync in [StatsSync::Atomic, StatsSync::Mutex] {
            same_searches(
                Mcts::new(
                    MctsKnowledge::rave(Rave::new()).with_evaluator(TicTacToeHeuristic),
                    config.clone(),
                )
                .unwrap(),
                Mcts::new(
                    MctsKnowledge::rave(Rave::new()).with_evaluator(TicTacToeHeuristic),
                    tree_mode(config.clone(), sync),
                )
                .unwrap(),
                &tic_tac_toe,
                &Limits::iterations(1_000),
            );
        }
    }
    // Othello, with its bitboard playout and the root check by hash.
    let othello = random_positions(&Board::start(), 3, 3);
    let config = MctsConfig::default().with_seed(6).with_exploration(0.25);
    same_searches(
        Mcts::new(
            MctsKnowledge::rave(Rave::new()).with_playout(RandomPlayout),
            config.clone(),
        )
        .unwrap()
        .with_root_check(same_hash),
        Mcts::new(
            MctsKnowledge::rave(Rave::new()).with_playout(RandomPlayout),
            tree_mode(config.clone(), StatsSync::Atomic),
        )
        .unwrap()
        .with_root_check(same_hash),
        &othello,
        &Limits::iterations(1_500),
    );
    same_searches(
        Mcts::new(
            MctsKnowledge::uct().with_evaluator(PositionalEvaluator),
            config.clone().with_leaf(LeafEvaluation::Evaluator),
        )
        .unwrap(),
        Mcts::new(
            MctsKnowledge::uct().with_evaluator(PositionalEvaluator),
            tree_mode(config, StatsSync::Atomic).with_leaf(LeafEvaluation::Evaluator),
        )
        .unwrap(),
        &othello,
        &Limits::iterations(1_500),
    );
}

/// The heuristic as a batch evaluator, counting its calls.
#[derive(Clone, Default)]
struct Counted {
    calls: Arc<AtomicUsize>,
    positions: Arc<AtomicUsize>,
}

impl BatchEvaluator<Board> for Counted {
    fn evaluate_batch(&self, batch: &mut Batch<Board>) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.positions.fetch_add(batch.len(), Ordering::Relaxed);
        UniformPrior(PositionalEvaluator).evaluate_batch(batch);
    }
}

#[test]
fn batches_of_leaves_go_to_the_evaluator_whole() {
    let position = random_positions(&Board::start(), 1, 9).remove(0);
    for batch_size in [1, 8] {
        let network = Counted::default();
        let config = MctsConfig::default().with_batch_size(batch_size);
        let mut search = Mcts::new(
            MctsKnowledge::uct().with_batch_evaluator(network.clone()),
            config.with_leaf(LeafEvaluation::Evaluator),
        )
        .unwrap();
        let report = search.search(&position, &Limits::iterations(800));
        assert_eq!(report.stats.iterations, 800);
        let calls = network.calls.load(Ordering::Relaxed);
        let positions = network.positions.load(Ordering::Relaxed);
        assert!(positions <= 800 && positions > 700, "{positions}");
        assert!(calls <= 800usize.div_ceil(batch_size), "{calls}");
        if batch_size == 8 {
            assert!(calls >= 700 / 8, "{calls}");
        }
    }
    // A batch of one is the plain evaluator, number for number.
    let sequential = Mcts::new(
        MctsKnowledge::uct().with_evaluator(PositionalEvaluator),
        MctsConfig::default().with_leaf(LeafEvaluation::Evaluator),
    )
    .unwrap();
    let batched = Mcts::new(
        MctsKnowledge::uct().with_batch_evaluator(Counted::default()),
        MctsConfig::default()
            .with_leaf(LeafEvaluation::Evaluator)
            .with_parallelism(Parallelism::Tree),
    )
    .unwrap();
    same_searches(sequential, batched, &[position], &Limits::iterations(600));
}

fn two_threads(config: MctsConfig) -> MctsConfig {
    config.with_threads(2).with_parallelism(Parallelism::Tree)
}

#[test]
fn two_threads_keep_the_contract() {
    let options = ContractOptions::default();
    for sync in [StatsSync::Atomic, StatsSync::Mutex] {
        for batch_size in [1, 4] {
            let config = two_threads(MctsConfig::default())
                .with_stats_sync(sync)
                .with_batch_size(batch_size);
            check_limits_contract(
                || Mcts::new(MctsKnowledge::uct(), config.clone()).unwrap(),
                &TicTacToe::new(),
                &options,
            )
            .unwrap();
            check_limits_contract(
                || Mcts::new(MctsKnowledge::rave(Rave::new()), config.clone()).unwrap(),
                &Nim::with_extra_turns(&[3, 2, 2]),
                &options,
            )
            .unwrap();
        }
    }
    let config = two_threads(MctsConfig::default());
    check_limits_contract(
        || {
            Mcts::new(
                MctsKnowledge::rave(Rave::new()).with_playout(RandomPlayout),
                config.clone(),
            )
            .unwrap()
            .with_root_check(same_hash)
        },
        &Board::start(),
        &options,
    )
    .unwrap();
    check_limits_contract(
        || {
            Mcts::new(
                MctsKnowledge::uct().with_evaluator(PositionalEvaluator),
                config
                    .clone()
                    .with_batch_size(8)
                    .with_leaf(LeafEvaluation::Evaluator),
            )
            .unwrap()
            .with_root_check(same_hash)
        },
        &Board::start(),
        &options,
    )
    .unwrap();
    // One thread with batches is deterministic.
    let batched = MctsConfig::default().with_batch_size(4).with_seed(3);
    let positions = random_positions(&TicTacToe::new(), 5, 4);
    check_repeatable(
        || {
            Mcts::new(
                MctsKnowledge::rave(Rave::new()).with_evaluator(TicTacToeHeuristic),
                batched.clone().with_leaf(LeafEvaluation::Evaluator),
            )
            .unwrap()
        },
        &positions,
        &Limits::iterations(500),
    )
    .unwrap();
}

#[test]
fn two_threads_find_wins_and_defences() {
    let wins = tactical_cases(&TicTacToe::new(), 1, 6, 11);
    let defences = tactical_cases(&TicTacToe::new(), 2, 6, 12);
    for sync in [StatsSync::Atomic, StatsSync::Mutex] {
        let config = two_threads(MctsConfig::default()).with_stats_sync(sync);
        let mut uct = Mcts::new(MctsKnowledge::uct(), config.clone()).unwrap();
        check_tactics(&mut uct, &wins, &Limits::iterations(2_000)).unwrap();
        check_tactics(&mut uct, &defences, &Limits::iterations(4_000)).unwrap();
        let mut rave =
            Mcts::new(MctsKnowledge::rave(Rave::new()), config.with_batch_size(4)).unwrap();
        check_tactics(&mut rave, &wins, &Limits::iterations(2_000)).unwrap();
    }
    let nim = tactical_cases(&Nim::with_extra_turns(&[3, 2, 2]), 3, 8, 5);
    let mut uct = Mcts::new(MctsKnowledge::uct(), two_threads(MctsConfig::default())).unwrap();
    check_tactics(&mut uct, &nim, &Limits::iterations(3_000)).unwrap();
}

#[test]
fn two_threads_converge_to_minimax_and_prove_the_toys() {
    let nim = random_positions(&Nim::with_extra_turns(&[2, 3, 2]), 12, 9);
    let mut searcher = Mcts::new(
        MctsKnowledge::rave(Rave::new()),
        two_threads(MctsConfig::default()),
    )
    .unwrap();
    check_against_minimax(
        &mut searcher,
        &nim,
        &Limits::iterations(30_000),
        &OutcomeEvaluator,
        0.1,
    )
    .unwrap();
    let trees: Vec<TreeGame> = (0..6).map(explicit_tree).collect();
    for tree in &trees {
        let positions = random_positions(tree, 3, 1);
        let mut searcher = Mcts::new(
            MctsKnowledge::uct().with_evaluator(TreeEvaluator),
            two_threads(MctsConfig::default().with_seed(2)).with_leaf(LeafEvaluation::Evaluator),
        )
        .unwrap();
        check_against_minimax(
            &mut searcher,
            &positions,
            &Limits::iterations(40_000),
            &OutcomeEvaluator,
            0.1,
        )
        .unwrap();
    }
}

/// Positions the sequential solver proves within a budget are proven on a
/// shared tree under two threads too, with the same value. The budget is
/// generous: the iterations a proof takes vary widely with the order of
/// the simulations (from 31,000 to 261,000 over 12 seeds of the
/// sequential search on one opening, 49,000 to 631,000 on two threads),
/// and two threads' searches differ from the sequential one.
#[test]
fn two_threads_prove_what_one_thread_proves() {
    let limits = Limits::iterations(60_000);
    let mut proven = 0;
    for position in random_positions(&TicTacToe::new(), 40, 13) {
        let mut sequential = Mcts::new(MctsKnowledge::uct(), MctsConfig::default()).unwrap();
        let expected = sequential.search(&position, &limits);
        if expected.stats.stop != StopReason::Solved {
            continue;
        }
        proven += 1;
        for sync in [StatsSync::Atomic, StatsSync::Mutex] {
            // The threads' interleaving is not seeded, so a search now and
            // then needs far more iterations than usual (once more than
            // 2,000,000 in CI): up to three searches with different seeds,
            // one of which must prove the position, every proof with the
            // sequential value.
            let mut solved = false;
            for seed in 0..3 {
                let config = two_threads(MctsConfig::default().with_seed(seed));
                let mut shared =
                    Mcts::new(MctsKnowledge::uct(), config.with_stats_sync(sync)).unwrap();
                let budget = Limits::iterations(2_000_000);
                let report = shared.search(&position, &budget);
                shared.check_visit_counts().unwrap();
                if report.stats.stop == StopReason::Solved {
                    assert_eq!(report.value, expected.value, "{position:?}");
                    solved = true;
                    break;
                }
            }
            assert!(solved, "{sync:?}: {position:?} never proven");
        }
    }
    assert!(proven >= 10, "only {proven} positions proven");
}

#[test]
fn a_shared_tree_stays_under_its_memory_cap() {
    for sync in [StatsSync::Atomic, StatsSync::Mutex] {
        let config = two_threads(MctsConfig::default())
            .with_stats_sync(sync)
            .with_max_nodes(3_000);
        let mut searcher = Mcts::new(MctsKnowledge::rave(Rave::new()), config).unwrap();
        let report = searcher.search(&Board::start(), &Limits::time(Duration::from_millis(300)));
        assert_eq!(report.stats.stop, StopReason::Time);
        assert!(searcher.tree_nodes() <= 3_000);
        assert!(report.stats.iterations > 6_000, "{:?}", report.stats);
        // Nodes (at most 64 bytes here) and AMAF entries (at most 32).
        assert!(
            searcher.memory_bytes() <= 3_000 * 96,
            "{}",
            searcher.memory_bytes()
        );
    }
}

#[test]
fn tree_mode_names_and_reuse() {
    let config = two_threads(MctsConfig::default()).with_seed(4);
    let mut searcher = Mcts::new(MctsKnowledge::uct(), config).unwrap();
    let state = TicTacToe::new();
    let report = searcher.search(&state, &Limits::iterations(3_000));
    assert_eq!(report.stats.iterations, 3_000);
    assert_eq!(searcher.root_visits(), 3_000);
    let best = report.best.unwrap();
    let child_visits = report
        .moves
        .iter()
        .find(|info| info.mv == best)
        .unwrap()
        .visits;
    searcher.advance(best);
    assert_eq!(searcher.root_visits(), child_visits);
    let mut next = state.clone();
    next.play(best);
    let again = searcher.search(&next, &Limits::iterations(1_000));
    assert_eq!(searcher.root_visits(), child_visits + 1_000);
    assert!(next.is_legal(again.best.unwrap()));
    assert_eq!(searcher.name(), "uct");
}

/// Many short searches from `positions` on 2 threads, each followed by
/// the visit check; fresh searches also give the root exactly the
/// simulations run, and searches after a move add them to what was kept.
fn visits_add_up<G, S>(mut make: impl FnMut(u64) -> S, positions: &[G], iterations: u64)
where
    G: Game,
    S: Searcher<G>,
    S: VisitChecked,
{
    for (index, position) in positions.iter().enumerate() {
        let mut searcher = make(index as u64);
        let report = searcher.search(position, &Limits::iterations(iterations));
        searcher
            .check()
            .unwrap_or_else(|error| panic!("position {index}: {error} in {position:?}"));
        if report.stats.stop == StopReason::Iterations {
            assert_eq!(report.stats.iterations, iterations, "{position:?}");
            assert_eq!(searcher.visits(), iterations, "{position:?}");
        }
        let Some(best) = report.best else { continue };
        let kept = report
            .moves
            .iter()
            .find(|info| info.mv == best)
            .map_or(0, |info| info.visits);
        let mut next = position.clone();
        next.play(best);
        searcher.advance(best);
        if next.outcome().is_some() {
            continue;
        }
        let again = searcher.search(&next, &Limits::iterations(iterations / 2));
        searcher
            .check()
            .unwrap_or_else(|error| panic!("position {index}, reused: {error} in {next:?}"));
        if again.stats.stop == StopReason::Iterations && kept > 0 {
            assert_eq!(searcher.visits(), kept + iterations / 2, "{next:?}");
        }
    }
}

/// Searchers whose shared tree can be checked.
trait VisitChecked {
    fn check(&self) -> Result<(), mcts_rave::VisitCountError>;
    fn visits(&self) -> u64;
}

impl<G, T, P, E> VisitChecked for Mcts<G, T, P, E>
where
    G: Game,
    T: TreePolicy<G>,
    P: game_traits::Playout<G> + Clone + Send,
    E: game_traits::Evaluator<G>,
{
    fn check(&self) -> Result<(), mcts_rave::VisitCountError> {
        self.check_visit_counts()
    }

    fn visits(&self) -> u64 {
        self.root_visits()
    }
}

#[test]
fn visit_counts_add_up_under_two_threads() {
    let tic_tac_toe = random_positions(&TicTacToe::new(), 30, 21);
    let nim = random_positions(&Nim::with_extra_turns(&[3, 2, 2]), 30, 22);
    let trees: Vec<TreeGame> = (0..10)
        .flat_map(|seed| random_positions(&explicit_tree(seed), 3, seed))
        .collect();
    let endless = vec![Endless::new(3); 10];
    let othello = random_positions(&Board::start(), 12, 23);
    for sync in [StatsSync::Atomic, StatsSync::Mutex] {
        for batch_size in [1, 4] {
            let config = |seed: u64| {
                two_threads(MctsConfig::default())
                    .with_seed(seed)
                    .with_stats_sync(sync)
                    .with_batch_size(batch_size)
            };
            visits_add_up(
                |seed| Mcts::new(MctsKnowledge::uct(), config(seed)).unwrap(),
                &tic_tac_toe,
                300,
            );
            visits_add_up(
                |seed| Mcts::new(MctsKnowledge::rave(Rave::new()), config(seed)).unwrap(),
                &tic_tac_toe,
                300,
            );
            visits_add_up(
                |seed| Mcts::new(MctsKnowledge::rave(Rave::new()), config(seed)).unwrap(),
                &nim,
                300,
            );
            visits_add_up(
                |seed| {
                    Mcts::new(
                        MctsKnowledge::uct().with_evaluator(TreeEvaluator),
                        config(seed).with_leaf(LeafEvaluation::Evaluator),
                    )
                    .unwrap()
                },
                &trees,
                300,
            );
            visits_add_up(
                |seed| {
                    Mcts::new(
                        MctsKnowledge::rave(Rave::new()),
                        config(seed).with_max_playout_plies(20),
                    )
                    .unwrap()
                },
                &endless,
                300,
            );
            visits_add_up(
                |seed| {
                    Mcts::new(
                        MctsKnowledge::rave(Rave::new()).with_playout(RandomPlayout),
                        config(seed),
                    )
                    .unwrap()
                    .with_root_check(same_hash)
                },
                &othello,
                200,
            );
            visits_add_up(
                |seed| {
                    Mcts::new(
                        MctsKnowledge::uct().with_evaluator(PositionalEvaluator),
                        config(seed).with_leaf(LeafEvaluation::Evaluator),
                    )
                    .unwrap()
                    .with_root_check(same_hash)
                },
                &othello,
                300,
            );
        }
    }
}
