//! Solves FFO endgame problems exactly and checks each score against
//! `tests/data/ffo40-59.tsv`, printing nodes, time and nodes per second.
//!
//! ```text
//! cargo run --release -p bitboard-othello --example ffo -- [FIRST-LAST] [--threads N] [--table-bits B] [--ordering WEIGHTS|heuristic]
//! ```
//!
//! `FIRST-LAST` is a range of problem numbers within 40-59 (default
//! `40-44`); each problem starts from an empty table of `2^B` entries
//! (default: the solver's default). The solver orders its moves far from
//! the end by the shipped pattern weights; `--ordering` names a weights
//! file written by `PatternWeights::write` to order by instead, or
//! `heuristic` for the mobility heuristic alone. Exits with an error on a
//! wrong score or best move.

use std::process::ExitCode;
use std::time::Instant;

use std::path::PathBuf;
use std::sync::Arc;

use bitboard_othello::{Board, Move, PatternEvaluator, PatternWeights, Solver, SolverConfig};

struct Problem {
    number: u32,
    board: Board,
    score: i32,
    best_moves: Vec<Move>,
}

fn problems() -> Vec<Problem> {
    include_str!("../tests/data/ffo40-59.tsv")
        .lines()
        .filter(|line| line.starts_with("ffo"))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            Problem {
                number: fields[0][3..].parse().expect("problem number"),
                board: format!("{} {}", fields[1], fields[2])
                    .parse()
                    .expect("board"),
                score: fields[4].parse().expect("score"),
                best_moves: fields[5]
                    .split(',')
                    .map(|name| name.parse().expect("move"))
                    .collect(),
            }
        })
        .collect()
}

/// What the command line asks for.
struct Arguments {
    first: u32,
    last: u32,
    threads: usize,
    table_bits: Option<u32>,
    ordering: Option<PathBuf>,
}

fn parse_arguments() -> Result<Arguments, String> {
    let (mut first, mut last, mut threads, mut table_bits) = (40, 44, 1, None);
    let mut ordering = None;
    let mut arguments = std::env::args().skip(1);
    while let Some(argument) = arguments.next() {
        if argument == "--threads" {
            threads = arguments
                .next()
                .and_then(|value| value.parse().ok())
                .filter(|&threads| threads >= 1)
                .ok_or("--threads takes a positive number")?;
        } else if argument == "--ordering" {
            ordering = Some(PathBuf::from(
                arguments
                    .next()
                    .ok_or("--ordering takes a weights file or `heuristic`")?,
            ));
        } else if argument == "--table-bits" {
            let range = Solver::MIN_TABLE_BITS..=Solver::MAX_TABLE_BITS;
            table_bits = Some(
                arguments
                    .next()
                    .and_then(|value| value.parse().ok())
                    .filter(|bits| range.contains(bits))
                    .ok_or_else(|| {
                        format!(
                            "--table-bits takes a number from {} to {}",
                            range.start(),
                            range.end()
                        )
                    })?,
            );
        } else if let Some((from, to)) = argument.split_once('-') {
            first = from.parse().map_err(|_| format!("bad range {argument}"))?;
            last = to.parse().map_err(|_| format!("bad range {argument}"))?;
        } else {
            first = argument
                .parse()
                .map_err(|_| format!("bad problem number {argument}"))?;
            last = first;
        }
    }
    if !(40..=59).contains(&first) || !(first..=59).contains(&last) {
        return Err(format!("problems {first}-{last} are not within 40-59"));
    }
    Ok(Arguments {
        first,
        last,
        threads,
        table_bits,
        ordering,
    })
}

fn main() -> ExitCode {
    let Arguments {
        first,
        last,
        threads,
        table_bits,
        ordering,
    } = match parse_arguments() {
        Ok(arguments) => arguments,
        Err(message) => {
            eprintln!("ffo: {message}");
            return ExitCode::FAILURE;
        }
    };
    let mut config = SolverConfig::default().with_threads(threads);
    if let Some(bits) = table_bits {
        config = config.with_table_bits(bits);
    }
    let mut solver = match Solver::new(config) {
        Ok(solver) => solver,
        Err(error) => {
            eprintln!("ffo: {error}");
            return ExitCode::FAILURE;
        }
    };
    if ordering.as_deref() == Some(std::path::Path::new("heuristic")) {
        solver = solver.with_ordering(None);
    } else if let Some(path) = ordering {
        match PatternWeights::read(&path) {
            Ok(weights) => {
                solver = solver.with_ordering(Some(&PatternEvaluator::new(Arc::new(weights))));
            }
            Err(error) => {
                eprintln!("ffo: {}: {error}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let (mut total_nodes, mut total_seconds) = (0u64, 0f64);
    for problem in problems()
        .iter()
        .filter(|problem| (first..=last).contains(&problem.number))
    {
        solver.clear();
        let started = Instant::now();
        let solution = solver.solve(&problem.board);
        let seconds = started.elapsed().as_secs_f64();
        let best = solution.best.expect("FFO problems are not finished games");
        println!(
            "ffo{} {:>2} empties  score {:+3}  best {best}  {:>11} nodes  {seconds:7.3} s  {:5.1} M nodes/s",
            problem.number,
            problem.board.empty_count(),
            solution.score,
            solution.nodes,
            solution.nodes as f64 / seconds / 1e6
        );
        if solution.score != problem.score || !problem.best_moves.contains(&best) {
            eprintln!(
                "ffo{}: expected {:+} with one of {:?}",
                problem.number, problem.score, problem.best_moves
            );
            return ExitCode::FAILURE;
        }
        total_nodes += solution.nodes;
        total_seconds += seconds;
    }
    println!(
        "total {total_nodes} nodes  {total_seconds:.3} s  {:.1} M nodes/s",
        total_nodes as f64 / total_seconds / 1e6
    );
    ExitCode::SUCCESS
}
