//! The RAVE experiment on Othello: UCT, RAVE, the greedy positional player
//! and a random player in a round robin at the same number of playouts per
//! move, then RAVE's self-play study of its bias `b`: RAVE at several
//! biases against RAVE at the default (the variant at the default plays
//! itself, a check that colours are balanced).
//!
//! ```text
//! cargo run --release --example othello_rave
//! cargo run --release --example othello_rave -- --iters 10000 --games 100 --bias 0.05,0.2,1
//! ```
//!
//! RAVE: Gelly & Silver, "Monte-Carlo tree search and rapid action value
//! estimation in computer Go", Artificial Intelligence 175 (2011); the
//! minimum-MSE schedule and the bias `b` are in mcts-rave's docs.

use clap::Parser;
use game_arena::registry::GameSetup;
use game_arena::registry::SearcherSpec;
use game_arena::tournament::{FORMAT_VERSION, Header, Pairing, Summary, play};

#[path = "common/cli.rs"]
mod cli;

#[derive(Parser, Debug)]
#[command(
    name = "othello_rave",
    about = "UCT against RAVE on Othello, and RAVE's bias in self-play"
)]
struct Cli {
    /// Playouts per move for UCT and RAVE.
    #[arg(long, default_value_t = 1000)]
    iters: u64,
    /// Games per pairing (each opening with both colours).
    #[arg(short = 'n', long, default_value_t = 10)]
    games: u32,
    /// RAVE biases of the self-play study.
    #[arg(long, default_value = "0.05,0.2,1", value_delimiter = ',')]
    bias: Vec<f64>,
    /// Games played at the same time.
    #[arg(short = 'j', long, default_value_t = 2)]
    threads: usize,
    /// Seed of the openings and the searchers.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
}

fn main() {
    let args: Cli = cli::parse();
    let header = |searchers: Vec<String>, pairing| Header {
        version: FORMAT_VERSION,
        game: "othello".to_string(),
        searchers,
        pairing,
        games_per_pair: args.games.max(1).next_multiple_of(2),
        opening_plies: 4,
        book: Vec::new(),
        adjudication: Default::default(),
        seed: args.seed,
        sprt: None,
        shard: None,
    };
    let iters = args.iters;
    let round_robin = header(
        vec![
            format!("uct:iters={iters}"),
            format!("rave:iters={iters}"),
            "greedy".to_string(),
            "random".to_string(),
        ],
        Pairing::RoundRobin,
    );
    println!(
        "Settings: {} playouts per move for UCT (c = 1) and RAVE (c = 0.25, b = 0.2),",
        iters
    );
    println!(
        "uniform random playouts; greedy = one ply of the heuristic evaluator; {} games per pairing,",
        round_robin.games_per_pair
    );
    println!(
        "openings of 4 random plies, each with both colours; seed {}.\n",
        args.seed
    );
    report(&round_robin, args.threads);

    let base: SearcherSpec = format!("rave:iters={iters}")
        .parse()
        .unwrap_or_else(|e| cli::usage_error::<Cli>(e));
    let values: Vec<String> = args.bias.iter().map(ToString::to_string).collect();
    let mut searchers: Vec<String> = values
        .iter()
        .map(|bias| {
            base.with_setting("bias", bias)
                .unwrap_or_else(|e| cli::usage_error::<Cli>(e))
                .to_string()
        })
        .collect();
    searchers.push(base.to_string());
    let sweep = header(
        searchers,
        Pairing::Sweep {
            key: "bias".to_string(),
            variants: values.len(),
            values,
        },
    );
    println!("\nRAVE self-play: each bias against RAVE at the default bias 0.2.\n");
    report(&sweep, args.threads);
}

fn report(header: &Header, threads: usize) {
    let clock = std::time::Instant::now();
    let games = play(
        &GameSetup::<bitboard_othello::Board>::new(),
        header,
        &[],
        threads,
        &|_| {},
    )
    .unwrap_or_else(|error| {
        eprintln!("error: {error}");
        std::process::exit(1);
    });
    println!("{}", Summary::new(header, &games));
    println!("({:.1} s)", clock.elapsed().as_secs_f64());
}
