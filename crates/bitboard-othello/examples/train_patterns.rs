//! Trains the pattern evaluator from data made here, in one command:
//!
//! ```text
//! cargo run --release -p bitboard-othello --example train_patterns -- \
//!     [--games N] [--seed S] [--threads T] [--out DIR] [--epochs E] \
//!     [--phases P] [--solve-empties LOW-HIGH]
//! ```
//!
//! 1. **Games.** `N` games (default 4,000), each from its own seed: a
//!    random opening of 4 to 20 plies, then moves by the heuristic
//!    evaluator one ply deep with one move in six random, so that the
//!    positions are varied but not absurd.
//! 2. **Exact labels.** In each game one position with 20 to 24 empty
//!    squares (`--solve-empties`) is solved exactly, and so is every
//!    position on the line of best play from it to the end.
//!    A solve at 20 to 24 empties takes about a second of one core with
//!    the solver's own ordering, so the default run is hours long; a
//!    smaller range (`--solve-empties 14-18`) makes a quick run.
//! 3. **Held-out set.** Every tenth game is kept apart: its solved
//!    positions are the test set, from games that are not trained on.
//! 4. **Fit.** Least squares with a ridge penalty
//!    (`bitboard_othello::PatternTrainer`), then the mean absolute error on
//!    the held-out set, by phase, beside `HeuristicEvaluator`'s (its value
//!    scaled to discs by the factor that fits the training set best).
//!
//! Writes `DIR/train.txt`, `DIR/test.txt` (one `<board> <side> <score>`
//! line a position) and `DIR/patterns.bin` (default `DIR` is
//! `target/pattern-training`, outside git).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use bitboard_othello::{
    Board, FitConfig, FitError, HeuristicEvaluator, LabelledPosition, Move, PatternTrainer, Solver,
};
use game_traits::{Evaluator, Game};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

struct Options {
    games: usize,
    seed: u64,
    threads: usize,
    out: PathBuf,
    epochs: usize,
    phases: usize,
    solve_empties: (u32, u32),
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        games: 4000,
        seed: 1,
        threads: 2,
        out: PathBuf::from("target/pattern-training"),
        epochs: 300,
        phases: 12,
        solve_empties: (20, 24),
    };
    let mut arguments = std::env::args().skip(1);
    while let Some(flag) = arguments.next() {
        let mut value = || {
            arguments
                .next()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        let number = |text: String| {
            text.parse::<u64>()
                .map_err(|_| format!("{flag}: {text:?} is not a whole number"))
        };
        match flag.as_str() {
            "--games" => options.games = number(value()?)? as usize,
            "--seed" => options.seed = number(value()?)?,
            "--threads" => options.threads = (number(value()?)? as usize).max(1),
            "--epochs" => options.epochs = number(value()?)? as usize,
            "--phases" => options.phases = (number(value()?)? as usize).clamp(1, 60),
            "--out" => options.out = PathBuf::from(value()?),
            "--solve-empties" => {
                let text = value()?;
                let range = text
                    .split_once('-')
                    .and_then(|(low, high)| Some((low.parse().ok()?, high.parse().ok()?)))
                    .filter(|&(low, high): &(u32, u32)| 1 <= low && low <= high && high <= 60);
                options.solve_empties = range.ok_or_else(|| {
                    format!("--solve-empties: {text:?} is not LOW-HIGH within 1-60")
                })?;
            }
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(options)
}

/// The move the heuristic prefers one ply deep (the lowest value for the
/// opponent after it).
fn heuristic_move(board: &Board, moves: &[Move], evaluator: &HeuristicEvaluator) -> Move {
    let mut best = (f32::INFINITY, moves[0]);
    for &mv in moves {
        let mut next = board.clone();
        next.play(mv);
        let value = evaluator.value(&next);
        if value < best.0 {
            best = (value, mv);
        }
    }
    best.1
}

/// One game's positions from `seed`: the solved one and those along its
/// principal variation, all with exact scores.
fn labelled_game(seed: u64, empties: (u32, u32), solver: &mut Solver) -> Vec<LabelledPosition> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let evaluator = HeuristicEvaluator::default();
    let opening = rng.random_range(4..=20);
    let target = rng.random_range(empties.0..=empties.1);
    let mut board = Board::start();
    let mut moves = Vec::new();
    let mut ply = 0;
    while !board.is_game_over() && board.empty_count() > target {
        moves.clear();
        board.legal_moves(&mut moves);
        let mv = if ply < opening || rng.random_range(0..6) == 0 {
            moves[rng.random_range(0..moves.len())]
        } else {
            heuristic_move(&board, &moves, &evaluator)
        };
        board.play(mv);
        ply += 1;
    }
    if board.is_game_over() {
        return Vec::new();
    }
    // The line of best play from the solved position, each position on
    // it solved again (cheap with the table kept): a principal variation
    // read from the table alone may hold a move that is only a bound.
    solver.clear();
    let mut positions = Vec::new();
    while !board.is_game_over() {
        let solution = solver.solve(&board);
        positions.push(LabelledPosition {
            board: board.clone(),
            score: solution.score as i8,
        });
        board.play(solution.best.expect("a position not over has a move"));
    }
    positions
}

fn write_positions(path: &std::path::Path, positions: &[LabelledPosition]) -> std::io::Result<()> {
    let text: String = positions
        .iter()
        .map(|position| format!("{position}\n"))
        .collect();
    std::fs::write(path, text)
}

/// The heuristic's value unsquashed: `atanh(v)`, in proportion to discs.
fn unsquashed(evaluator: &HeuristicEvaluator, board: &Board) -> f64 {
    f64::from(evaluator.value(board))
        .clamp(-0.999_999, 0.999_999)
        .atanh()
}

/// The factor `a` minimising `Σ (a·atanh(v) - score)²` over `positions`.
fn heuristic_scale(positions: &[LabelledPosition], evaluator: &HeuristicEvaluator) -> f64 {
    let (mut xy, mut xx) = (0f64, 0f64);
    for position in positions {
        let x = unsquashed(evaluator, &position.board);
        xy += x * f64::from(position.score);
        xx += x * x;
    }
    if xx > 0.0 { xy / xx } else { 0.0 }
}

fn main() -> ExitCode {
    let options = match parse_options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("train_patterns: {message}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(error) = std::fs::create_dir_all(&options.out) {
        eprintln!("train_patterns: {}: {error}", options.out.display());
        return ExitCode::FAILURE;
    }
    let started = Instant::now();
    let seeds: Vec<u64> = (0..options.games as u64)
        .map(|game| options.seed.wrapping_mul(1_000_003).wrapping_add(game))
        .collect();
    let chunk = seeds.len().div_ceil(options.threads).max(1);
    let games: Vec<Vec<LabelledPosition>> = std::thread::scope(|scope| {
        let workers: Vec<_> = seeds
            .chunks(chunk)
            .map(|seeds| {
                scope.spawn(move || {
                    let mut solver = Solver::default();
                    seeds
                        .iter()
                        .map(|&seed| labelled_game(seed, options.solve_empties, &mut solver))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a labelling thread panicked"))
            .collect()
    });
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (index, game) in games.into_iter().enumerate() {
        if index % 10 == 0 {
            // The solved position only.
            test.extend(game.into_iter().take(1));
        } else {
            train.extend(game);
        }
    }
    println!(
        "{} games: {} training positions, {} held-out ({:.1} s)",
        options.games,
        train.len(),
        test.len(),
        started.elapsed().as_secs_f64()
    );
    for (name, positions) in [("train.txt", &train), ("test.txt", &test)] {
        if let Err(error) = write_positions(&options.out.join(name), positions) {
            eprintln!("train_patterns: {name}: {error}");
            return ExitCode::FAILURE;
        }
    }

    let fitting = Instant::now();
    let mut trainer = PatternTrainer::new(options.phases);
    let config = FitConfig::default().with_epochs(options.epochs);
    let training_error = trainer.fit(&train, &config);
    println!(
        "fit: {} epochs, training MAE {:.2} discs, RMSE {:.2} ({:.1} s)",
        options.epochs,
        training_error.mean_absolute,
        training_error.root_mean_squared,
        fitting.elapsed().as_secs_f64()
    );
    let weights = trainer.weights();
    let heuristic = HeuristicEvaluator::default();
    let scale = heuristic_scale(&train, &heuristic);
    println!("held-out MAE in discs by empties (heuristic scaled by {scale:.2} atanh):");
    println!("| empties | positions | patterns | heuristic |");
    println!("|---|---|---|---|");
    let row = |label: String, positions: &[LabelledPosition]| {
        let pattern = FitError::measure(positions, |board| weights.discs(board));
        let baseline = FitError::measure(positions, |board| {
            (scale * unsquashed(&heuristic, board)) as f32
        });
        println!(
            "| {label} | {} | {:.2} | {:.2} |",
            positions.len(),
            pattern.mean_absolute,
            baseline.mean_absolute
        );
    };
    let (low, high) = options.solve_empties;
    for empties in low..=high {
        let positions: Vec<LabelledPosition> = test
            .iter()
            .filter(|position| position.board.empty_count() == empties)
            .cloned()
            .collect();
        row(empties.to_string(), &positions);
    }
    row(format!("{low}-{high}"), &test);
    let path = options.out.join("patterns.bin");
    if let Err(error) = weights.write(&path) {
        eprintln!("train_patterns: {error}");
        return ExitCode::FAILURE;
    }
    println!(
        "weights: {} ({} bytes)",
        path.display(),
        weights.to_bytes().len()
    );
    ExitCode::SUCCESS
}
