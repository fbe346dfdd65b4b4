//! Strength on Othello: Gumbel AlphaZero against PUCT at equal simulations,
//! and each against the greedy positional player, with 95% confidence
//! intervals (Wilson), both searchers using `HeuristicPolicy`.
//!
//! ```text
//! cargo run --release -p gumbel-az --example gumbel_strength -- \
//!     --games 1000 --sims 8,16,32,64 --threads 2 --seed 2026
//! ```
//!
//! Players:
//!
//! * `gumbel`: the reference settings (k = 16, gumbel_scale = 1, c_visit 50,
//!   c_scale 0.1), changed by `--k`, `--gumbel-scale`, `--c-visit`,
//!   `--c-scale`;
//! * `gumbel-play`: k = 4 and no root noise (a deterministic player);
//! * `puct`: c_puct 1.25, unvisited moves valued at the parent's mean,
//!   changed by `--c-puct` and `--first-play parent|V`;
//! * `puct-az`: as `puct`, but unvisited moves count as a loss, as in the
//!   AlphaZero pseudocode (`Q = 0` on its `[0, 1]` scale);
//! * `greedy`: `GreedySearcher` with `PositionalEvaluator`.
//!
//! Other options: `--pairings a:b,c:d` (default: every Gumbel player
//! against both PUCT players, and all four against greedy), `--games N`
//! games per pairing (each opening twice, colours swapped), `--threads T`,
//! `--seed S`, `--opening-plies P` (default 6), `--reuse true|false` (keep
//! the subtree of the move played), `--logit-scale L` (multiplies the
//! policy's logits for every player).

use std::process::ExitCode;
use std::time::Instant;

use bitboard_othello::{Board, HeuristicPolicy, PositionalEvaluator};
use game_traits::{GreedySearcher, Limits, Searcher, SeriesOptions, play_series};
use gumbel_az::{CompletedQ, FirstPlay, GumbelAz, GumbelConfig, Puct, PuctConfig};

const DEFAULT_PAIRINGS: &str = "gumbel-play:puct,gumbel-play:puct-az,gumbel:puct,gumbel:puct-az,\
                                gumbel-play:greedy,gumbel:greedy,puct:greedy,puct-az:greedy";

struct Options {
    games: u32,
    sims: Vec<u64>,
    threads: usize,
    seed: u64,
    opening_plies: usize,
    pairings: Vec<(String, String)>,
    gumbel: GumbelConfig,
    puct: PuctConfig,
    policy: HeuristicPolicy,
}

fn parse_pairings(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split(',')
        .map(|pairing| {
            pairing
                .split_once(':')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| format!("pairing {pairing:?} is not of the form a:b"))
        })
        .collect()
}

fn parse() -> Result<Options, String> {
    let mut options = Options {
        games: 200,
        sims: vec![8, 16, 32, 64],
        threads: 2,
        seed: 1,
        opening_plies: 6,
        pairings: parse_pairings(DEFAULT_PAIRINGS)?,
        gumbel: GumbelConfig::default(),
        puct: PuctConfig::default(),
        policy: HeuristicPolicy::default(),
    };
    let mut completed_q = CompletedQ::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("{flag} {value}: {e}");
        match flag.as_str() {
            "--games" => options.games = value.parse().map_err(|e| bad(&e))?,
            "--sims" => {
                options.sims = value
                    .split(',')
                    .map(str::parse)
                    .collect::<Result<_, _>>()
                    .map_err(|e| bad(&e))?;
            }
            "--threads" => options.threads = value.parse().map_err(|e| bad(&e))?,
            "--seed" => options.seed = value.parse().map_err(|e| bad(&e))?,
            "--opening-plies" => options.opening_plies = value.parse().map_err(|e| bad(&e))?,
            "--pairings" => options.pairings = parse_pairings(&value)?,
            "--k" => {
                let k = value.parse().map_err(|e| bad(&e))?;
                options.gumbel = options.gumbel.with_max_considered_actions(k);
            }
            "--gumbel-scale" => {
                let scale = value.parse().map_err(|e| bad(&e))?;
                options.gumbel = options.gumbel.with_gumbel_scale(scale);
            }
            "--c-visit" => {
                completed_q = completed_q.with_c_visit(value.parse().map_err(|e| bad(&e))?)
            }
            "--c-scale" => {
                completed_q = completed_q.with_c_scale(value.parse().map_err(|e| bad(&e))?)
            }
            "--c-puct" => {
                let c = value.parse().map_err(|e| bad(&e))?;
                options.puct = options.puct.with_c_puct(c);
            }
            "--first-play" => {
                let first_play = match value.as_str() {
                    "parent" => FirstPlay::ParentValue,
                    fixed => FirstPlay::Fixed(fixed.parse().map_err(|e| bad(&e))?),
                };
                options.puct = options.puct.with_first_play(first_play);
            }
            "--reuse" => {
                let reuse = value.parse().map_err(|e| bad(&e))?;
                options.gumbel = options.gumbel.with_reuse_tree(reuse);
                options.puct = options.puct.with_reuse_tree(reuse);
            }
            "--logit-scale" => {
                let scale: f32 = value.parse().map_err(|e| bad(&e))?;
                options.policy.weight_scale *= scale;
                options.policy.mobility_penalty *= scale;
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    options.gumbel = options.gumbel.with_completed_q(completed_q);
    options.gumbel.validate().map_err(|e| e.to_string())?;
    options.puct.validate().map_err(|e| e.to_string())?;
    if options.games < 2 || !options.games.is_multiple_of(2) {
        return Err("--games must be even and at least 2".into());
    }
    Ok(options)
}

/// A fresh player called `name`, seeded with `seed`.
fn player(options: &Options, name: &str, seed: u64) -> Result<Box<dyn Searcher<Board>>, String> {
    let policy = options.policy;
    let error = |e: gumbel_az::ConfigError| e.to_string();
    Ok(match name {
        "gumbel" => {
            Box::new(GumbelAz::new(policy, options.gumbel.clone().with_seed(seed)).map_err(error)?)
        }
        "gumbel-play" => {
            let config = options
                .gumbel
                .clone()
                .with_max_considered_actions(4)
                .with_gumbel_scale(0.0)
                .with_seed(seed);
            Box::new(GumbelAz::new(policy, config).map_err(error)?)
        }
        "puct" => Box::new(Puct::new(policy, options.puct.clone().with_seed(seed)).map_err(error)?),
        "puct-az" => {
            let config = options
                .puct
                .clone()
                .with_first_play(FirstPlay::Fixed(-1.0))
                .with_seed(seed);
            Box::new(Puct::new(policy, config).map_err(error)?)
        }
        "greedy" => Box::new(GreedySearcher::new(PositionalEvaluator)),
        other => return Err(format!("unknown player {other}")),
    })
}

fn run(options: &Options) -> Result<(), String> {
    for (a, b) in &options.pairings {
        player(options, a, 0)?;
        player(options, b, 0)?;
    }
    println!(
        "Othello, {} games per pairing ({} random opening plies, each opening twice), \
         seed {}, policy {:?}, gumbel {:?}, puct {:?}",
        options.games,
        options.opening_plies,
        options.seed,
        options.policy,
        options.gumbel,
        options.puct
    );
    println!();
    println!("| pairing | sims/move | W-D-L | score | 95% CI | time |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for &sims in &options.sims {
        for (a, b) in &options.pairings {
            let series = SeriesOptions::new(
                options.games / 2,
                options.opening_plies,
                Limits::iterations(sims),
            )
            .with_seed(options.seed)
            .with_threads(options.threads);
            let started = Instant::now();
            let make = |name: &str, seed: u64| {
                player(options, name, seed).unwrap_or_else(|_| unreachable!("checked above"))
            };
            let tally = play_series(
                &Board::start(),
                |seed| make(a, seed),
                |seed| make(b, seed),
                &series,
            )
            .map_err(|e| e.to_string())?
            .tally;
            let (low, high) = tally.confidence95();
            println!(
                "| {a} vs {b} | {sims} | {}-{}-{} | {:.1}% | {:.1}%-{:.1}% | {:.1} s |",
                tally.wins,
                tally.draws,
                tally.losses,
                100.0 * tally.score(),
                100.0 * low,
                100.0 * high,
                started.elapsed().as_secs_f64()
            );
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    match parse().and_then(|options| run(&options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("strength: {error}");
            ExitCode::FAILURE
        }
    }
}
