//! Both searchers as players: tactics found by brute force on toy games
//! (either side to move, turns alternating or not), perspective under
//! colour flips, budgets, seeds, errors and tree reuse.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use game_traits::testing::{
    Invariants, Nim, Tactic, TacticalCase, TicTacToe, TicTacToeHeuristic, TreeEvaluator,
    check_tactics, child_value, minimax, tactical_cases,
};
use game_traits::{
    Evaluator, Game, Limits, OutcomeEvaluator, Player, PolicyEvaluator, Searcher, StopReason,
    UniformPrior, play_match,
};
use gumbel_az::{
    CompletedQ, ConfigError, DirichletNoise, FirstPlay, GumbelAz, GumbelConfig, NoiseError, Puct,
    PuctConfig,
};

fn gumbel<E>(evaluator: E, seed: u64) -> GumbelAz<TicTacToe, E>
where
    E: game_traits::PolicyEvaluator<TicTacToe>,
{
    GumbelAz::new(evaluator, GumbelConfig::default().with_seed(seed)).unwrap()
}

/// A policy for tic-tac-toe from one ply of the heuristic: each move's
/// logit is the heuristic's opinion of the position it leads to.
#[derive(Clone, Copy, Debug)]
struct OnePlyPolicy;

impl PolicyEvaluator<TicTacToe> for OnePlyPolicy {
    fn evaluate(&self, state: &TicTacToe, moves: &[u8], logits: &mut [f32]) -> f32 {
        for (logit, &mv) in logits.iter_mut().zip(moves) {
            let mut child = state.clone();
            child.play(mv);
            *logit = -3.0 * TicTacToeHeuristic.value(&child);
        }
        TicTacToeHeuristic.value(state)
    }
}

fn tic_tac_toe_cases() -> (Vec<TacticalCase<TicTacToe>>, Vec<TacticalCase<TicTacToe>>) {
    let wins = tactical_cases(&TicTacToe::new(), 1, 6, 11);
    let defences: Vec<_> = tactical_cases(&TicTacToe::new(), 2, 6, 12)
        .into_iter()
        .filter(|case| case.tactic == Tactic::Defend)
        .collect();
    assert!(wins.len() >= 12 && defences.len() >= 6);
    for player in Player::BOTH {
        assert!(wins.iter().any(|case| case.state.to_move() == player));
        assert!(defences.iter().any(|case| case.state.to_move() == player));
    }
    (wins, defences)
}

#[test]
fn both_find_wins_and_defences_in_tic_tac_toe() {
    let (wins, defences) = tic_tac_toe_cases();
    let limits = Limits::iterations(200);
    for gumbel_scale in [0.0, 1.0] {
        let config = GumbelConfig::default().with_gumbel_scale(gumbel_scale);
        let mut searcher = GumbelAz::new(OnePlyPolicy, config).unwrap();
        check_tactics(&mut searcher, &wins, &limits).unwrap();
        check_tactics(&mut searcher, &defences, &limits).unwrap();
    }
    // A flat prior is enough for immediate wins, once noise is off.
    let flat = UniformPrior(TicTacToeHeuristic);
    let deterministic = GumbelConfig::default().with_gumbel_scale(0.0);
    check_tactics(
        &mut GumbelAz::new(flat, deterministic).unwrap(),
        &wins,
        &limits,
    )
    .unwrap();
    let mut puct = Puct::with_defaults(flat);
    check_tactics(&mut puct, &wins, &limits).unwrap();
    check_tactics(&mut puct, &defences, &limits).unwrap();
    let mut puct = Puct::with_defaults(OnePlyPolicy);
    check_tactics(&mut puct, &wins, &limits).unwrap();
    check_tactics(&mut puct, &defences, &limits).unwrap();
}

/// With noise Gumbel samples among good moves; judged by full-depth
/// minimax, a won position stays won and a defensible one is not lost.
#[test]
fn noisy_gumbel_keeps_the_game_theoretic_value() {
    let (mut cases, defences) = tic_tac_toe_cases();
    cases.extend(defences);
    for seed in 0..4 {
        let config = GumbelConfig::default().with_seed(seed);
        let mut searcher = GumbelAz::new(OnePlyPolicy, config).unwrap();
        for case in &cases {
            searcher.reset();
            let best = searcher
                .search(&case.state, &Limits::iterations(100))
                .best
                .unwrap();
            let exact = minimax(&case.state, None, &OutcomeEvaluator);
            let chosen = child_value(&case.state, best, None, &OutcomeEvaluator);
            assert_eq!(chosen, exact, "seed {seed}: {:?} played {best}", case.state);
        }
    }
}

#[test]
fn both_find_wins_in_nim_with_extra_turns() {
    // Extra turns: a player may move twice in a row, so perspective must
    // come from `to_move` at every node.
    let start = Nim::with_extra_turns(&[3, 2, 2]);
    let cases = tactical_cases(&start, 3, 5, 21);
    assert!(cases.len() >= 10);
    let evaluator = UniformPrior(OutcomeEvaluator);
    let limits = Limits::iterations(400);
    let mut gumbel = GumbelAz::new(evaluator, GumbelConfig::default().with_seed(3)).unwrap();
    check_tactics(&mut gumbel, &cases, &limits).unwrap();
    let mut puct = Puct::with_defaults(evaluator);
    check_tactics(&mut puct, &cases, &limits).unwrap();
}

#[test]
fn values_agree_under_colour_flip() {
    // The flipped position has the other player to move and the same value
    // for the mover: any sign slip shows up as a different search value.
    let evaluator = UniformPrior(TicTacToeHeuristic);
    Invariants::new(TicTacToe::new(), 9)
        .cases(24)
        .color_flip_searcher(move || gumbel(evaluator, 5), Limits::iterations(24), 1e-6)
        .color_flip_searcher(
            move || Puct::with_defaults(evaluator),
            Limits::iterations(24),
            1e-6,
        )
        .assert();
}

#[test]
fn finished_positions_get_no_move_and_their_exact_value() {
    let won = TicTacToe::from_moves(&[0, 3, 1, 4, 2]).unwrap();
    let evaluator = UniformPrior(TicTacToeHeuristic);
    let report = gumbel(evaluator, 0).search(&won, &Limits::iterations(10));
    assert_eq!(report.best, None);
    assert_eq!(report.value, -1.0);
    let report = Puct::with_defaults(evaluator).search(&won, &Limits::iterations(10));
    assert_eq!(report.best, None);
    assert_eq!(report.value, -1.0);
}

#[test]
fn the_stop_flag_and_time_limit_end_the_search() {
    let evaluator = UniformPrior(TicTacToeHeuristic);
    let stop = Arc::new(AtomicBool::new(true));
    let stopped = Limits::iterations(1_000).with_stop(stop);
    let report = gumbel(evaluator, 0).search(&TicTacToe::new(), &stopped);
    assert_eq!(report.stats.iterations, 0);
    assert!(report.best.is_some());
    let report = Puct::with_defaults(evaluator).search(&TicTacToe::new(), &stopped);
    assert_eq!(report.stats.iterations, 0);
    assert!(report.best.is_some());
    let timed = Limits::time(Duration::ZERO);
    assert_eq!(
        gumbel(evaluator, 0)
            .search(&TicTacToe::new(), &timed)
            .stats
            .iterations,
        0
    );
    // Without limits the configured default budget applies.
    let report = gumbel(evaluator, 0).search(&TicTacToe::new(), &Limits::none());
    assert_eq!(report.stats.iterations, 64);
    let report = Puct::with_defaults(evaluator).search(&TicTacToe::new(), &Limits::none());
    assert_eq!(report.stats.iterations, 64);
    // Under a time limit both search until the time is up: Gumbel in
    // complete schedules of doubling size, PUCT simulation by simulation
    // (or until the tree holds the whole game).
    let budget = Duration::from_millis(30);
    for report in [
        gumbel(evaluator, 0).search(&TicTacToe::new(), &Limits::time(budget)),
        Puct::with_defaults(evaluator).search(&TicTacToe::new(), &Limits::time(budget)),
    ] {
        assert!(report.stats.iterations > 64);
        assert!(matches!(
            report.stats.stop,
            StopReason::Time | StopReason::Exhausted
        ));
        if report.stats.stop == StopReason::Time {
            assert!(report.stats.elapsed >= budget);
        }
        assert!(report.stats.elapsed < budget + Duration::from_secs(1));
    }
}

#[test]
fn the_node_limit_caps_the_tree() {
    let evaluator = UniformPrior(TicTacToeHeuristic);
    let limits = Limits::iterations(1_000).with_nodes(50);
    let report = gumbel(evaluator, 0).search(&TicTacToe::new(), &limits);
    assert_eq!(report.stats.nodes, 50);
    assert!(report.stats.iterations < 1_000);
    let report = Puct::with_defaults(evaluator).search(&TicTacToe::new(), &limits);
    assert_eq!(report.stats.nodes, 50);
}

#[test]
fn searches_are_seeded() {
    let evaluator = UniformPrior(TicTacToeHeuristic);
    let game = TicTacToe::from_moves(&[4]).unwrap();
    let limits = Limits::iterations(40);
    let run = |seed| {
        let mut searcher = gumbel(evaluator, seed);
        (0..8)
            .map(|_| searcher.analyse(&game, &limits).noise)
            .collect::<Vec<_>>()
    };
    assert_eq!(run(3), run(3));
    assert_ne!(run(3), run(4));
    // `reset` restarts the noise sequence.
    let mut searcher = gumbel(evaluator, 9);
    let first = searcher.analyse(&game, &limits);
    searcher.reset();
    let again = searcher.analyse(&game, &limits);
    assert_eq!((again.noise, again.visits), (first.noise, first.visits));
    // PUCT's Dirichlet noise too.
    let noisy = PuctConfig::default().with_root_noise(Some(DirichletNoise::new(0.3, 0.25)));
    let puct_run = |seed| {
        let mut searcher = Puct::new(evaluator, noisy.clone().with_seed(seed)).unwrap();
        (0..4)
            .map(|_| searcher.search(&game, &limits).moves)
            .map(|moves| moves.iter().map(|info| info.visits).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    assert_eq!(puct_run(1), puct_run(1));
    assert_ne!(puct_run(1), puct_run(2));
}

#[test]
fn bad_settings_and_noise_are_refused() {
    let evaluator = UniformPrior(TicTacToeHeuristic);
    let refuse = |config: GumbelConfig| GumbelAz::<TicTacToe, _>::new(evaluator, config).err();
    assert!(matches!(
        refuse(GumbelConfig::default().with_max_considered_actions(0)),
        Some(ConfigError::Range(game_traits::RangeError {
            name: "max_considered_actions",
            ..
        }))
    ));
    assert!(matches!(
        refuse(GumbelConfig::default().with_gumbel_scale(f64::NAN)),
        Some(ConfigError::Range(game_traits::RangeError {
            name: "gumbel_scale",
            ..
        }))
    ));
    assert!(matches!(
        refuse(GumbelConfig::default().with_completed_q(CompletedQ::default().with_c_scale(-0.1))),
        Some(ConfigError::Range(game_traits::RangeError {
            name: "c_scale",
            ..
        }))
    ));
    let refuse_puct = |config: PuctConfig| Puct::<TicTacToe, _>::new(evaluator, config).err();
    assert!(refuse_puct(PuctConfig::default().with_c_puct(-1.0)).is_some());
    assert!(refuse_puct(PuctConfig::default().with_first_play(FirstPlay::Fixed(2.0))).is_some());
    assert!(
        refuse_puct(PuctConfig::default().with_root_noise(Some(DirichletNoise::new(0.0, 0.25))))
            .is_some()
    );
    assert!(
        refuse_puct(PuctConfig::default().with_root_noise(Some(DirichletNoise::new(0.3, 1.5))))
            .is_some()
    );
    let message = refuse(GumbelConfig::default().with_gumbel_scale(-1.0))
        .unwrap()
        .to_string();
    assert!(message.contains("gumbel_scale = -1"), "{message}");

    let game = TicTacToe::from_moves(&[4]).unwrap();
    let mut searcher = gumbel(evaluator, 0);
    let limits = Limits::iterations(8);
    assert_eq!(
        searcher.analyse_with_noise(&game, &limits, &[0.0; 3]).err(),
        Some(NoiseError::Length {
            expected: 9,
            got: 3
        })
    );
    let mut noise = [0.0; 9];
    noise[0] = f64::NAN;
    assert!(matches!(
        searcher.analyse_with_noise(&game, &limits, &noise),
        Err(NoiseError::NotFinite { action: 0, .. })
    ));
    // Square 4 is taken: its entry is never read.
    noise[0] = 0.0;
    noise[4] = f64::INFINITY;
    assert!(searcher.analyse_with_noise(&game, &limits, &noise).is_ok());
}

#[test]
fn puct_keeps_statistics_of_the_subtree_played() {
    let evaluator = UniformPrior(TicTacToeHeuristic);
    let mut puct = Puct::with_defaults(evaluator);
    let mut game = TicTacToe::new();
    let first = puct.search(&game, &Limits::iterations(300));
    let best = first.best.unwrap();
    let kept = first
        .moves
        .iter()
        .find(|info| info.mv == best)
        .unwrap()
        .visits;
    puct.advance(best);
    game.play(best);
    let second = puct.search(&game, &Limits::iterations(10));
    let visits: u64 = second.moves.iter().map(|info| info.visits).sum();
    // The child had `kept` visits: one was its own evaluation.
    assert_eq!(visits, kept - 1 + 10);
    // A search of another position starts afresh.
    let other = TicTacToe::from_moves(&[0]).unwrap();
    let third = puct.search(&other, &Limits::iterations(10));
    assert_eq!(third.moves.iter().map(|info| info.visits).sum::<u64>(), 10);
}

#[test]
fn matches_between_the_searchers_finish() {
    let evaluator = UniformPrior(TicTacToeHeuristic);
    let mut a = gumbel(evaluator, 1);
    let mut b = Puct::with_defaults(evaluator);
    let record = play_match(&TicTacToe::new(), &mut a, &mut b, &Limits::iterations(100)).unwrap();
    assert!(record.outcome.is_some());
    // Two strong-enough players draw tic-tac-toe.
    assert_eq!(record.outcome, Some(game_traits::Outcome::Draw));
}

#[test]
fn explicit_tree_searches_work_through_the_uniform_prior() {
    // Any Evaluator works: the explicit tree's values with a flat prior.
    let tree = Arc::new(game_traits::testing::ExplicitTree::random(
        &game_traits::testing::RandomTree::default(),
        &mut <rand_pcg::Pcg64Mcg as rand::SeedableRng>::seed_from_u64(4),
    ));
    let mut searcher = GumbelAz::new(UniformPrior(TreeEvaluator), GumbelConfig::default()).unwrap();
    let report = searcher.search(&tree.root(), &Limits::iterations(30));
    assert!(report.moves.iter().all(|info| info.prior.is_some()));
    let priors: Vec<f32> = report
        .moves
        .iter()
        .map(|info| info.prior.unwrap())
        .collect();
    assert!(priors.windows(2).all(|pair| pair[0] == pair[1]));
}

#[test]
fn othello_values_agree_under_colour_flip() {
    use bitboard_othello::{Board, HeuristicPolicy, MAX_PLIES};
    // Passes are real moves here; a flipped board must search the same.
    Invariants::new(Board::start(), MAX_PLIES)
        .cases(6)
        .color_flip_searcher(
            || GumbelAz::new(HeuristicPolicy::default(), GumbelConfig::default()).unwrap(),
            Limits::iterations(16),
            1e-6,
        )
        .color_flip_searcher(
            || Puct::with_defaults(HeuristicPolicy::default()),
            Limits::iterations(16),
            1e-6,
        )
        .assert();
}

#[test]
fn othello_games_between_the_searchers_are_legal_and_finish() {
    use bitboard_othello::{Board, HeuristicPolicy};
    let mut gumbel = GumbelAz::new(HeuristicPolicy::default(), GumbelConfig::default()).unwrap();
    let mut puct = Puct::with_defaults(HeuristicPolicy::default());
    let record = play_match(
        &Board::start(),
        &mut gumbel,
        &mut puct,
        &Limits::iterations(32),
    )
    .unwrap();
    assert!(record.outcome.is_some());
    assert!(record.moves.len() >= 50);
}

/// A pattern policy on weights fitted to the disc difference of positions
/// of a few random games, so that they are not all zero.
fn fitted_pattern_policy() -> bitboard_othello::PatternPolicy {
    use bitboard_othello::{
        Board, FitConfig, LabelledPosition, PatternEvaluator, PatternPolicy, PatternTrainer,
    };
    let mut labels = Vec::new();
    let mut moves = Vec::new();
    for game in 0..6usize {
        let mut board = Board::start();
        while !board.is_game_over() {
            let discs = board.player().count_ones() as i8 - board.opponent().count_ones() as i8;
            labels.push(LabelledPosition {
                board: board.clone(),
                score: discs,
            });
            board.legal_moves(&mut moves);
            board.play(moves[(labels.len() + game) % moves.len()]);
        }
    }
    let mut trainer = PatternTrainer::new(6);
    trainer.fit(&labels, &FitConfig::default().with_epochs(5));
    let policy = PatternPolicy::new(PatternEvaluator::new(Arc::new(trainer.weights())));
    assert!(
        labels
            .iter()
            .any(|label| policy.evaluator().discs(&label.board) != 0.0)
    );
    policy
}

#[test]
fn othello_searches_on_the_pattern_policy_flip_with_the_colours_and_finish_games() {
    use bitboard_othello::{Board, MAX_PLIES};
    let policy = fitted_pattern_policy();
    let (for_gumbel, for_puct) = (policy.clone(), policy.clone());
    Invariants::new(Board::start(), MAX_PLIES)
        .cases(4)
        .color_flip_searcher(
            move || GumbelAz::new(for_gumbel.clone(), GumbelConfig::default()).unwrap(),
            Limits::iterations(16),
            1e-6,
        )
        .color_flip_searcher(
            move || Puct::with_defaults(for_puct.clone()),
            Limits::iterations(16),
            1e-6,
        )
        .assert();
    let mut gumbel = GumbelAz::new(policy.clone(), GumbelConfig::default()).unwrap();
    let mut puct = Puct::with_defaults(policy);
    let record = play_match(
        &Board::start(),
        &mut gumbel,
        &mut puct,
        &Limits::iterations(32),
    )
    .unwrap();
    assert!(record.outcome.is_some());
    assert!(record.moves.len() >= 50);
}
