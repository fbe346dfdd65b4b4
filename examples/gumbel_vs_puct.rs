//! The Gumbel AlphaZero comparison on Othello: Gumbel (Sequential Halving
//! over k = 4 actions, no root noise) against PUCT at 8, 16, 32 and 64
//! simulations per move, both with the same heuristic policy evaluator.
//!
//! ```text
//! cargo run --release --example gumbel_vs_puct
//! cargo run --release --example gumbel_vs_puct -- --games 1000 --sims 8,16,32,64
//! ```
//!
//! Danihelka, Guez, Schrittwieser & Silver, "Policy improvement by
//! planning with Gumbel", ICLR 2022: with few simulations, Gumbel's root
//! planning keeps improving the policy where PUCT does not.

use clap::Parser;
use game_arena::registry::GameSetup;
use game_arena::stats::{elo_estimate, likelihood_of_superiority};
use game_arena::tournament::{FORMAT_VERSION, Header, Pairing, Summary, play};

#[path = "common/cli.rs"]
mod cli;

#[derive(Parser, Debug)]
#[command(
    name = "gumbel_vs_puct",
    about = "Gumbel AlphaZero against PUCT on Othello at small budgets"
)]
struct Cli {
    /// Simulations per move.
    #[arg(long, default_value = "8,16,32,64", value_delimiter = ',')]
    sims: Vec<u64>,
    /// Games per budget (each opening with both colours).
    #[arg(short = 'n', long, default_value_t = 100)]
    games: u32,
    /// PUCT's value for unvisited moves: parent (the crate's default) or
    /// loss (AlphaZero's pseudocode).
    #[arg(long, default_value = "parent", value_parser = ["parent", "loss"])]
    fpu: String,
    /// Games played at the same time.
    #[arg(short = 'j', long, default_value_t = 2)]
    threads: usize,
    /// Seed of the openings and the searchers.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
}

fn main() {
    let args: Cli = cli::parse();
    let games = args.games.max(1).next_multiple_of(2);
    println!(
        "Settings: gumbel:k=4,scale=0 against puct:c=1.25,fpu={} with bitboard-othello's HeuristicPolicy;",
        args.fpu
    );
    println!(
        "{games} games per budget, openings of 4 random plies, each with both colours; seed {}.\n",
        args.seed
    );
    println!("sims  gumbel  games    +/=/-         score  Elo difference (95% CI)   LOS");
    let clock = std::time::Instant::now();
    for &sims in &args.sims {
        let header = Header {
            version: FORMAT_VERSION,
            game: "othello".to_string(),
            searchers: vec![
                format!("gumbel:iters={sims},k=4,scale=0"),
                format!("puct:iters={sims},fpu={}", args.fpu),
            ],
            pairing: Pairing::RoundRobin,
            games_per_pair: games,
            opening_plies: 4,
            book: Vec::new(),
            adjudication: Default::default(),
            seed: args.seed,
            sprt: None,
            shard: None,
        };
        if let Err(error) = header.validate() {
            cli::usage_error::<Cli>(error);
        }
        let records = play(
            &GameSetup::<bitboard_othello::Board>::new(),
            &header,
            &[],
            args.threads,
            &|_| {},
        )
        .unwrap_or_else(|error| {
            eprintln!("error: {error}");
            std::process::exit(1);
        });
        let summary = Summary::new(&header, &records);
        let tally = summary.pairs[0].tally;
        println!(
            "{sims:>4}  {:>6}  {:>5}  {:>11}  {:>6.1}%  {:<24}  {:>5.1}%",
            "vs puct",
            tally.games(),
            format!("+{} ={} -{}", tally.wins, tally.draws, tally.losses),
            100.0 * tally.score(),
            elo_estimate(&tally).to_string(),
            100.0 * likelihood_of_superiority(&tally)
        );
    }
    println!("\n({:.1} s)", clock.elapsed().as_secs_f64());
}
