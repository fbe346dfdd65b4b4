//! The pattern evaluator: symmetric by construction, a weights format that
//! refuses every damaged file with its own error, and a trainer that fits.

use std::sync::Arc;

use bitboard_othello::pattern::{MAX_PHASES, WEIGHTS_FORMAT_VERSION};
use bitboard_othello::{
    Board, ConfigError, FitConfig, FitError, HeuristicEvaluator, LabelError, LabelledPosition,
    Move, PatternEvaluator, PatternPolicy, PatternTrainer, PatternWeights, Symmetry, WeightsError,
};
use game_traits::{Evaluator, FNV1A_64_OFFSET, Game, PolicyEvaluator, fnv1a_64};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Bytes of a weights file with `weights` and a correct checksum.
fn file_with(phases: u32, per_phase: u32, version: u32, weights: &[i16]) -> Vec<u8> {
    let mut bytes = b"OTHPATW\0".to_vec();
    for word in [version, phases, per_phase] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    for weight in weights {
        bytes.extend_from_slice(&weight.to_le_bytes());
    }
    let checksum = fnv1a_64(FNV1A_64_OFFSET, &bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes
}

/// Weights drawn at random, `-spread..=spread` in stored units.
fn random_weights(phases: usize, spread: i16, seed: u64) -> PatternWeights {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let weights: Vec<i16> = (0..phases * PatternWeights::per_phase())
        .map(|_| rng.random_range(-spread..=spread))
        .collect();
    let per_phase = PatternWeights::per_phase() as u32;
    PatternWeights::from_bytes(&file_with(
        phases as u32,
        per_phase,
        WEIGHTS_FORMAT_VERSION,
        &weights,
    ))
    .expect("a well-formed file")
}

/// Positions of random games, `count` of them, none finished.
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut positions = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    while positions.len() < count {
        let mut board = Board::start();
        while !board.is_game_over() && positions.len() < count {
            positions.push(board.clone());
            moves.clear();
            board.legal_moves(&mut moves);
            board.play(moves[rng.random_range(0..moves.len())]);
        }
    }
    positions
}

#[test]
fn the_value_is_the_same_in_all_eight_orientations() {
    let weights = random_weights(6, 2000, 1);
    for board in random_positions(300, 2) {
        let expected = weights.discs(&board);
        for symmetry in Symmetry::ALL {
            let image = Board::from_player_opponent(
                symmetry.apply_bitboard(board.player()),
                symmetry.apply_bitboard(board.opponent()),
                board.to_move(),
            )
            .unwrap();
            assert_eq!(
                weights.discs(&image),
                expected,
                "{board} under {symmetry:?}"
            );
        }
    }
}

#[test]
fn values_are_discs_over_64_and_exact_at_the_end() {
    let weights = Arc::new(random_weights(4, 3000, 3));
    let evaluator = PatternEvaluator::new(Arc::clone(&weights));
    for board in random_positions(200, 4) {
        let expected = (weights.discs(&board) / 64.0).clamp(-1.0, 1.0);
        assert_eq!(evaluator.value(&board), expected);
    }
    let finished: Board = format!("{}OO- X", "X".repeat(61)).parse().unwrap();
    let mut over = finished.clone();
    over.play("h8".parse().unwrap());
    assert!(over.is_game_over());
    assert_eq!(evaluator.discs(&over), over.final_score() as f32);
    assert_eq!(evaluator.value(&over), over.final_score() as f32 / 64.0);
}

#[test]
fn weights_survive_a_round_trip_through_a_file() {
    let weights = random_weights(3, i16::MAX, 5);
    assert_eq!(
        PatternWeights::from_bytes(&weights.to_bytes()).unwrap(),
        weights
    );
    let path = std::env::temp_dir().join(format!("patterns-{}.bin", std::process::id()));
    weights.write(&path).unwrap();
    assert_eq!(PatternWeights::read(&path).unwrap(), weights);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn every_damaged_file_gets_its_own_error() {
    let per_phase = PatternWeights::per_phase() as u32;
    let good = PatternWeights::zeros(2).to_bytes();
    assert!(PatternWeights::from_bytes(&good).is_ok());

    let mut flipped = good.clone();
    flipped[100] ^= 1;
    assert!(matches!(
        PatternWeights::from_bytes(&flipped),
        Err(WeightsError::Checksum { .. })
    ));
    for cut in [good.len() - 1, good.len() / 2, 21, 13] {
        let error = PatternWeights::from_bytes(&good[..cut]).unwrap_err();
        assert!(
            matches!(error, WeightsError::Length { found, .. } if found == cut),
            "{error}"
        );
    }
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        PatternWeights::from_bytes(&longer),
        Err(WeightsError::Length { .. })
    ));
    for bytes in [&b""[..], b"OTHPAT", b"GGF(;PB[x]"] {
        assert!(matches!(
            PatternWeights::from_bytes(bytes),
            Err(WeightsError::NotWeights)
        ));
    }
    let zeros = vec![0i16; 2 * per_phase as usize];
    let version = WEIGHTS_FORMAT_VERSION;
    let error =
        PatternWeights::from_bytes(&file_with(2, per_phase, version + 1, &zeros)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "weights format version 3, this library reads version 2"
    );
    // Version 1 had no mobility tables: its weights mean something else.
    let error = PatternWeights::from_bytes(&file_with(2, per_phase, 1, &zeros)).unwrap_err();
    assert!(
        matches!(error, WeightsError::Version { found: 1 }),
        "{error}"
    );
    for phases in [0, MAX_PHASES as u32 + 1] {
        let error =
            PatternWeights::from_bytes(&file_with(phases, per_phase, version, &[])).unwrap_err();
        assert!(matches!(error, WeightsError::Phases { found } if found == phases));
    }
    let error =
        PatternWeights::from_bytes(&file_with(1, per_phase - 1, version, &zeros)).unwrap_err();
    assert!(matches!(error, WeightsError::PatternSet { .. }), "{error}");

    let missing = std::env::temp_dir().join("no-such-dir-for-patterns/weights.bin");
    let error = PatternWeights::read(&missing).unwrap_err();
    assert!(matches!(error, WeightsError::Io { .. }));
    assert!(
        error
            .to_string()
            .starts_with(&missing.display().to_string())
    );
}

#[test]
fn the_trainer_fits_a_table_it_can_represent() {
    // Scores made by a table the pattern set can express: the fit must
    // bring the training error from the scores' spread to near zero.
    let teacher = random_weights(2, 200, 6);
    let data: Vec<LabelledPosition> = random_positions(3000, 7)
        .into_iter()
        .map(|board| {
            let score = teacher.discs(&board).round().clamp(-64.0, 64.0) as i8;
            LabelledPosition { board, score }
        })
        .collect();
    let untrained = FitError::measure(&data, |_| 0.0);
    let mut trainer = PatternTrainer::new(2);
    let fitted = trainer.fit(&data, &FitConfig::default().with_epochs(100).with_l2(0.01));
    assert!(untrained.mean_absolute > 4.0, "{untrained:?}");
    assert!(
        fitted.mean_absolute < 0.25 * untrained.mean_absolute,
        "{fitted:?} against {untrained:?}"
    );
    // Rounding to the stored fixed point changes little.
    let stored = trainer.weights();
    let rounded = FitError::measure(&data, |board| stored.discs(board));
    assert!((rounded.mean_absolute - fitted.mean_absolute).abs() < 0.05);
    // And a trainer restarted from the stored weights starts there.
    let restarted = PatternTrainer::from_weights(&stored);
    let again = FitError::measure(&data, |board| restarted.discs(board));
    assert!((again.mean_absolute - rounded.mean_absolute).abs() < 1e-6);
}

#[test]
fn a_phase_spread_trains_the_neighbouring_phases_and_no_others() {
    // Positions with 23 to 25 empty squares, 12 phases of five empties
    // (16-20, 21-25, 26-30, ...), every score +10.
    let data: Vec<LabelledPosition> = random_positions(6000, 8)
        .into_iter()
        .filter(|board| (23..=25).contains(&board.empty_count()))
        .map(|board| LabelledPosition { board, score: 10 })
        .collect();
    assert!(data.len() > 100, "{}", data.len());
    let estimates = |spread: u32| {
        let mut trainer = PatternTrainer::new(12);
        let config = FitConfig::default()
            .with_epochs(50)
            .with_phase_spread(spread);
        trainer.fit(&data, &config);
        // The mean estimate of positions of each phase, trained or not.
        [18, 23, 28, 33].map(|empties| {
            let boards: Vec<Board> = random_positions(6000, 9)
                .into_iter()
                .filter(|board| board.empty_count() == empties)
                .collect();
            let sum: f32 = boards.iter().map(|board| trainer.discs(board)).sum();
            sum / boards.len() as f32
        })
    };
    // Alone, only the own phase learns; two empties either side reach
    // 26-30 from 25 (and 21-25 itself), no further.
    let own = estimates(0);
    let spread = estimates(2);
    assert_eq!([own[0], own[2], own[3]], [0.0; 3], "{own:?}");
    assert!(own[1] > 5.0, "{own:?}");
    assert!(spread[1] > 5.0 && spread[2] > 5.0, "{spread:?}");
    assert_eq!([spread[0], spread[3]], [0.0; 2], "{spread:?}");
}

#[test]
fn labelled_lines_round_trip_and_bad_lines_name_their_number() {
    let board = Board::start();
    let line = LabelledPosition {
        board: board.clone(),
        score: -6,
    }
    .to_string();
    let text = format!("# a comment\n\n{line}\n");
    let parsed = LabelledPosition::parse_lines(&text).unwrap();
    assert_eq!(parsed, [LabelledPosition { board, score: -6 }]);

    let bad_score = format!("{line}\n{} 65\n", Board::start());
    assert_eq!(
        LabelledPosition::parse_lines(&bad_score).unwrap_err(),
        LabelError::Score {
            line: 2,
            found: "65".into()
        }
    );
    let no_score = format!("{}\n", Board::start());
    assert!(matches!(
        LabelledPosition::parse_lines(&no_score),
        Err(LabelError::Score { line: 1, .. })
    ));
    assert!(matches!(
        LabelledPosition::parse_lines("XXO X 4\n"),
        Err(LabelError::Board { line: 1, .. })
    ));
}

#[test]
fn the_sample_data_holds_exact_scores() {
    // A sample of the pipeline's exact labels (the workspace example `train_patterns`),
    // re-solved here: each score is the solver's.
    let sample = LabelledPosition::parse_lines(include_str!("data/pattern-sample.txt")).unwrap();
    assert!(sample.len() >= 50);
    assert_exact_scores(&sample, 14);
}

/// Checks with the solver the score of every position of `positions`
/// with at most `max_empties` empty squares.
fn assert_exact_scores(positions: &[LabelledPosition], max_empties: u32) {
    let solved = positions
        .iter()
        .filter(|position| position.board.empty_count() <= max_empties);
    for position in solved {
        let solution = bitboard_othello::solve(&position.board);
        assert_eq!(
            solution.score,
            i32::from(position.score),
            "{}",
            position.board
        );
    }
}

#[test]
fn the_shipped_weights_load_and_beat_the_heuristic_on_held_out_positions() {
    // Positions of games the shipped weights were not trained on, with
    // their exact scores (the workspace example `train_patterns`, the held-out set).
    let held_out =
        LabelledPosition::parse_lines(include_str!("data/pattern-held-out.txt")).unwrap();
    assert!(held_out.len() >= 150, "{}", held_out.len());
    assert_exact_scores(&held_out, 12);
    let weights = PatternWeights::shipped();
    assert_eq!(weights.phases(), 12);
    let reread = PatternWeights::from_bytes(bitboard_othello::pattern::SHIPPED_WEIGHTS_BYTES);
    assert_eq!(reread.expect("the shipped file is well formed"), *weights);
    let evaluator = PatternEvaluator::default();
    let pattern = FitError::measure(&held_out, |board| evaluator.discs(board));
    // The heuristic at its best scale for these very positions (a
    // generous comparison), and a constant 0.
    let heuristic = HeuristicEvaluator::default();
    let unsquashed = |board: &Board| {
        f64::from(heuristic.value(board))
            .clamp(-0.999_999, 0.999_999)
            .atanh()
    };
    let (xy, xx) = held_out.iter().fold((0.0, 0.0), |(xy, xx), position| {
        let x = unsquashed(&position.board);
        (xy + x * f64::from(position.score), xx + x * x)
    });
    let scale = xy / xx;
    let baseline = FitError::measure(&held_out, |board| (scale * unsquashed(board)) as f32);
    let zero = FitError::measure(&held_out, |_| 0.0);
    assert!(
        pattern.mean_absolute < 0.75 * baseline.mean_absolute,
        "patterns {pattern:?} against the heuristic's {baseline:?}"
    );
    assert!(
        pattern.mean_absolute < 0.5 * zero.mean_absolute,
        "{pattern:?} against {zero:?}"
    );
}

#[test]
fn the_policy_rates_each_move_by_the_estimate_after_it() {
    let evaluator = PatternEvaluator::new(Arc::new(random_weights(12, 400, 8)));
    let policy = PatternPolicy::new(evaluator.clone())
        .with_temperature(2.5)
        .unwrap();
    let mut moves = Vec::new();
    let mut rated = 0;
    for board in random_positions(300, 9) {
        board.legal_moves(&mut moves);
        let mut logits = vec![f32::NAN; moves.len()];
        let value = policy.evaluate(&board, &moves, &mut logits);
        assert_eq!(value, evaluator.value(&board));
        assert_eq!(value, policy.value(&board));
        for (&mv, &logit) in moves.iter().zip(&logits) {
            let mut after = board.clone();
            after.play(mv);
            assert_eq!(logit, -evaluator.discs(&after) / 2.5, "{board:?} {mv}");
            rated += 1;
        }
        // The best-rated move leaves the opponent the worst estimate.
        let best = (0..moves.len())
            .max_by(|&a, &b| logits[a].total_cmp(&logits[b]))
            .unwrap();
        let worst_for_them = moves
            .iter()
            .map(|&mv| {
                let mut after = board.clone();
                after.play(mv);
                evaluator.discs(&after)
            })
            .fold(f32::INFINITY, f32::min);
        let mut after = board.clone();
        after.play(moves[best]);
        assert_eq!(evaluator.discs(&after), worst_for_them);
    }
    assert!(rated > 1_000);
}

#[test]
fn the_policy_refuses_a_temperature_that_is_not_positive() {
    let policy = PatternPolicy::new(PatternEvaluator::new(Arc::new(PatternWeights::zeros(6))));
    assert_eq!(policy.temperature(), PatternPolicy::DEFAULT_TEMPERATURE);
    for temperature in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let error = policy.clone().with_temperature(temperature).unwrap_err();
        assert!(matches!(error, ConfigError::Range(_)), "{error:?}");
        assert!(error.to_string().contains("temperature"), "{error}");
    }
    assert_eq!(policy.with_temperature(0.5).unwrap().temperature(), 0.5);
}
