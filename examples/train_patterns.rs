//! Trains the pattern evaluator from data made here, in one command:
//!
//! ```text
//! cargo run --release --example train_patterns -- \
//!     [--games N] [--seed S] [--threads T] [--out DIR] [--epochs E] \
//!     [--phases P] [--solve-empties LOW-HIGH] [--held-out-every K] \
//!     [--bootstrap-positions B] [--bootstrap-depth D] [--l2 L] \
//!     [--phase-spread S] [--fit-only] [--evaluate FILE]
//! ```
//!
//! 1. **Games.** `N` games (default 4,000), each from its own seed: a
//!    random opening of 4 to 20 plies, then moves by the heuristic
//!    evaluator one ply deep with one move in six random, so that the
//!    positions are varied but not absurd.
//! 2. **Exact labels.** In each game one position with 20 to 24 empty
//!    squares (`--solve-empties`) is solved exactly, and so is every
//!    position on the line of best play from it to the end. A solve at 20
//!    to 24 empties takes a few seconds of one core, so the default run is
//!    hours long; a smaller range (`--solve-empties 14-18`) makes a quick
//!    run. Each game's positions are written as soon as it is solved, so
//!    an interrupted run keeps what it labelled (`--fit-only` fits it).
//! 3. **Held-out set.** Every `K`th game (default 10; 1: every game) is
//!    kept apart: its solved positions are the test set, from games that
//!    are not trained on.
//! 4. **Fit.** Least squares with a ridge penalty `L` (default 1)
//!    (`bitboard_othello::PatternTrainer`) on the exact labels, each
//!    position also training the phases within `S` empty squares of its
//!    own (default 0).
//! 5. **Bootstrap, phase by phase.** For each phase above those the solved
//!    positions reach, `B` positions (default 20,000) of that phase from
//!    fresh games are labelled by alpha-beta `D` plies deep (default 6)
//!    on the weights fitted so far, whose leaves lie in the phases
//!    already fitted, and the phase is fitted on them; then the next, up
//!    to the opening.
//! 6. **Report.** The mean absolute error on the held-out set, by empties,
//!    beside `HeuristicEvaluator`'s (its value scaled to discs by the
//!    factor that fits the training set best).
//!
//! The shipped weights (`crates/bitboard-othello/weights/patterns.bin`) came from
//! `--games 4000 --solve-empties 20-24 --held-out-every 5 --out DIR`,
//! stopped after 2,200 games (70 minutes on two cores; the games each
//! thread finished, so `--games 2200` labels nearly the same ones), then
//! `--fit-only --out DIR --l2 10 --phase-spread 4 --epochs 300` with the
//! default bootstrap (2 minutes).
//!
//! `--evaluate FILE` fits nothing: it reports the held-out error of the
//! weights in `FILE` on `DIR/test.txt` (labelled first unless
//! `--fit-only`). The held-out figure for the shipped weights adds to
//! the 1,320 held-out positions of that run those of 260 fresh games,
//! `--seed 2 --games 260 --held-out-every 1 --evaluate
//! crates/bitboard-othello/weights/patterns.bin --out DIR2`, both
//! `test.txt` files together in one directory, then `--fit-only
//! --evaluate` on it.
//!
//! Writes `DIR/train.txt`, `DIR/test.txt` and `DIR/bootstrap.txt` (one
//! `<board> <side> <score>` line a position) and `DIR/patterns.bin`
//! (default `DIR` is `target/pattern-training`, outside git).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, mpsc};
use std::time::Instant;

use bitboard_othello::{
    Board, FitConfig, FitError, HeuristicEvaluator, LabelledPosition, Move, PatternEvaluator,
    PatternTrainer, PatternWeights, Solver,
};
use game_traits::{Evaluator, Game, Limits, Searcher};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};
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
    held_out_every: usize,
    bootstrap_positions: usize,
    bootstrap_depth: u32,
    l2: f32,
    phase_spread: u32,
    fit_only: bool,
    /// Weights to measure on the held-out set instead of fitting.
    evaluate: Option<PathBuf>,
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
        held_out_every: 10,
        bootstrap_positions: 20_000,
        bootstrap_depth: 6,
        l2: 1.0,
        phase_spread: 0,
        fit_only: false,
        evaluate: None,
    };
    let mut arguments = std::env::args().skip(1);
    while let Some(flag) = arguments.next() {
        if flag == "--fit-only" {
            options.fit_only = true;
            continue;
        }
        let text = arguments
            .next()
            .ok_or_else(|| format!("{flag} needs a value"))?;
        let number = || {
            text.parse::<u64>()
                .map_err(|_| format!("{flag}: {text:?} is not a whole number"))
        };
        match flag.as_str() {
            "--games" => options.games = number()? as usize,
            "--seed" => options.seed = number()?,
            "--threads" => options.threads = (number()? as usize).max(1),
            "--epochs" => options.epochs = number()? as usize,
            "--phases" => options.phases = (number()? as usize).clamp(1, 60),
            "--held-out-every" => options.held_out_every = (number()? as usize).max(1),
            "--bootstrap-positions" => options.bootstrap_positions = number()? as usize,
            "--phase-spread" => options.phase_spread = (number()? as u32).min(59),
            "--bootstrap-depth" => options.bootstrap_depth = (number()? as u32).clamp(1, 20),
            "--l2" => {
                options.l2 = text
                    .parse::<f32>()
                    .ok()
                    .filter(|l2| l2.is_finite() && *l2 >= 0.0)
                    .ok_or_else(|| format!("--l2: {text:?} is not a number of at least 0"))?;
            }
            "--out" => options.out = PathBuf::from(&text),
            "--evaluate" => options.evaluate = Some(PathBuf::from(&text)),
            "--solve-empties" => {
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

/// A game from `rng` (a random opening of 4 to 20 plies, then the
/// heuristic one ply deep with one move in six random) played until at
/// most `empties` squares are empty; `None` if it ended first.
fn game_position(rng: &mut Pcg64Mcg, empties: u32) -> Option<Board> {
    let evaluator = HeuristicEvaluator::default();
    let opening = rng.random_range(4..=20);
    let mut board = Board::start();
    let mut moves = Vec::new();
    let mut ply = 0;
    while !board.is_game_over() && board.empty_count() > empties {
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
    (!board.is_game_over()).then_some(board)
}

/// One game's positions from `seed`: the solved one and those along its
/// principal variation, all with exact scores.
fn labelled_game(seed: u64, empties: (u32, u32), solver: &mut Solver) -> Vec<LabelledPosition> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let target = rng.random_range(empties.0..=empties.1);
    let Some(mut board) = game_position(&mut rng, target) else {
        return Vec::new();
    };
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

fn lines(positions: &[LabelledPosition]) -> String {
    positions
        .iter()
        .map(|position| format!("{position}\n"))
        .collect()
}

fn read_positions(path: &Path) -> Result<Vec<LabelledPosition>, String> {
    let text =
        std::fs::read_to_string(path).map_err(|error| format!("{}: {error}", path.display()))?;
    LabelledPosition::parse_lines(&text).map_err(|error| format!("{}: {error}", path.display()))
}

/// Labels the games of `options` with the solver on `options.threads`
/// threads, appending each game's positions to `train.txt` or `test.txt`
/// as it finishes, then writes both files again in game order, so that
/// the fit does not depend on which thread finished first.
fn label_games(options: &Options) -> Result<(), String> {
    let started = Instant::now();
    let seeds: Vec<u64> = (0..options.games as u64)
        .map(|game| options.seed.wrapping_mul(1_000_003).wrapping_add(game))
        .collect();
    let open = |name: &str| {
        std::fs::File::create(options.out.join(name)).map_err(|error| format!("{name}: {error}"))
    };
    let (mut train_file, mut test_file) = (open("train.txt")?, open("test.txt")?);
    let mut games: Vec<Vec<LabelledPosition>> = vec![Vec::new(); seeds.len()];
    let empties = options.solve_empties;
    std::thread::scope(|scope| -> Result<(), String> {
        let (sender, receiver) = mpsc::channel();
        for thread in 0..options.threads {
            let sender = sender.clone();
            let seeds = &seeds;
            let threads = options.threads;
            scope.spawn(move || {
                let mut solver = Solver::default();
                for index in (thread..seeds.len()).step_by(threads) {
                    let positions = labelled_game(seeds[index], empties, &mut solver);
                    if sender.send((index, positions)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        for (done, (index, positions)) in receiver.into_iter().enumerate() {
            let file = if index % options.held_out_every == 0 {
                &mut test_file
            } else {
                &mut train_file
            };
            file.write_all(lines(&positions).as_bytes())
                .and_then(|()| file.flush())
                .map_err(|error| format!("writing labels: {error}"))?;
            games[index] = positions;
            if (done + 1) % 100 == 0 {
                println!(
                    "labelled {} of {} games ({:.0} s)",
                    done + 1,
                    seeds.len(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        Ok(())
    })?;
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (index, game) in games.into_iter().enumerate() {
        if index % options.held_out_every == 0 {
            test.extend(game);
        } else {
            train.extend(game);
        }
    }
    for (name, positions) in [("train.txt", &train), ("test.txt", &test)] {
        std::fs::write(options.out.join(name), lines(positions))
            .map_err(|error| format!("{name}: {error}"))?;
    }
    println!(
        "{} games: {} training positions, {} held-out ({:.1} s)",
        options.games,
        train.len(),
        test.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `count` positions from fresh games (seeds apart from the labelled
/// games'), each with `low` to `high` empty squares, labelled by
/// alpha-beta `depth` plies deep on `trainer`'s current weights, on
/// `threads` threads.
fn bootstrap_band(
    options: &Options,
    trainer: &PatternTrainer,
    (low, high): (u32, u32),
) -> Vec<LabelledPosition> {
    let evaluator = PatternEvaluator::new(Arc::new(trainer.weights()));
    let count = options.bootstrap_positions;
    let threads = options.threads;
    let depth = options.bootstrap_depth;
    let base = options.seed.wrapping_mul(7_000_003) ^ (u64::from(low) << 40);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|thread| {
                let evaluator = evaluator.clone();
                scope.spawn(move || {
                    let config = AlphaBetaConfig::default().with_table_entries(1 << 18);
                    let mut searcher = AlphaBeta::new(evaluator, config)
                        .expect("a valid alpha-beta configuration");
                    let limits = Limits::depth(depth);
                    let mut positions = Vec::new();
                    for index in (thread..count).step_by(threads) {
                        let mut rng = Pcg64Mcg::seed_from_u64(base.wrapping_add(index as u64));
                        let target = rng.random_range(low..=high);
                        let Some(board) = game_position(&mut rng, target) else {
                            continue;
                        };
                        let report = searcher.search(&board, &limits);
                        positions.push((
                            index,
                            LabelledPosition {
                                board,
                                score: (report.value * 64.0).round().clamp(-64.0, 64.0) as i8,
                            },
                        ));
                    }
                    positions
                })
            })
            .collect();
        let mut positions: Vec<(usize, LabelledPosition)> = workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("a labelling thread panicked"))
            .collect();
        positions.sort_by_key(|&(index, _)| index);
        positions
            .into_iter()
            .map(|(_, position)| position)
            .collect()
    })
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

/// Prints the held-out errors by empties, and over the solved range.
fn report(
    options: &Options,
    weights: &PatternWeights,
    train: &[LabelledPosition],
    test: &[LabelledPosition],
) {
    let heuristic = HeuristicEvaluator::default();
    let scale = heuristic_scale(train, &heuristic);
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
    let within = |low: u32, high: u32| -> Vec<LabelledPosition> {
        test.iter()
            .filter(|position| (low..=high).contains(&position.board.empty_count()))
            .cloned()
            .collect()
    };
    let (low, high) = options.solve_empties;
    for empties in low..=high {
        row(empties.to_string(), &within(empties, empties));
    }
    row(format!("{low}-{high}"), &within(low, high));
    row("all held out".to_string(), test);
}

fn run(options: &Options) -> Result<(), String> {
    std::fs::create_dir_all(&options.out)
        .map_err(|error| format!("{}: {error}", options.out.display()))?;
    if !options.fit_only {
        label_games(options)?;
    }
    let train = read_positions(&options.out.join("train.txt"))?;
    let test = read_positions(&options.out.join("test.txt"))?;
    if let Some(path) = &options.evaluate {
        let weights = PatternWeights::read(path).map_err(|error| error.to_string())?;
        println!("weights {}, not fitted here", path.display());
        // With nothing trained on here, the heuristic's scale is fitted on
        // the held-out positions themselves (which only flatters it).
        let scale_from = if train.is_empty() { &test } else { &train };
        report(options, &weights, scale_from, &test);
        return Ok(());
    }
    let config = FitConfig::default()
        .with_epochs(options.epochs)
        .with_l2(options.l2)
        .with_phase_spread(options.phase_spread);
    let fitting = Instant::now();
    let mut trainer = PatternTrainer::new(options.phases);
    let error = trainer.fit(&train, &config);
    println!(
        "exact labels: {} positions, {} epochs, training MAE {:.2} discs, RMSE {:.2} ({:.1} s)",
        train.len(),
        options.epochs,
        error.mean_absolute,
        error.root_mean_squared,
        fitting.elapsed().as_secs_f64()
    );
    report(options, &trainer.weights(), &train, &test);

    // The phases above the last one the solved positions reach, in turn.
    let mut bootstrap = Vec::new();
    let first_phase = trainer.phase_of_empties(options.solve_empties.1) + 1;
    for phase in first_phase..trainer.phases() {
        if options.bootstrap_positions == 0 {
            break;
        }
        let empties: Vec<u32> = (1..=60)
            .filter(|&empties| trainer.phase_of_empties(empties) == phase)
            .collect();
        let (low, high) = (empties[0], empties[empties.len() - 1]);
        let started = Instant::now();
        let band = bootstrap_band(options, &trainer, (low, high));
        let error = trainer.fit(&band, &config);
        println!(
            "empties {low}-{high}: {} positions searched {} plies deep, training MAE {:.2} ({:.1} s)",
            band.len(),
            options.bootstrap_depth,
            error.mean_absolute,
            started.elapsed().as_secs_f64()
        );
        bootstrap.extend(band);
    }
    std::fs::write(options.out.join("bootstrap.txt"), lines(&bootstrap))
        .map_err(|error| format!("bootstrap.txt: {error}"))?;
    let weights = trainer.weights();
    let path = options.out.join("patterns.bin");
    weights.write(&path).map_err(|error| error.to_string())?;
    println!(
        "weights: {} ({} bytes)",
        path.display(),
        weights.to_bytes().len()
    );
    Ok(())
}

fn main() -> ExitCode {
    match parse_options().and_then(|options| run(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("train_patterns: {message}");
            ExitCode::FAILURE
        }
    }
}
