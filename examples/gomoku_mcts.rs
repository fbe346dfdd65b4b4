//! MCTS on Gomoku: what the playout policy is worth. UCT and RAVE with
//! threat-aware playouts (win now, block a five, make or block a four,
//! answer an open three, else a random cell near the stones) against the
//! same searchers with uniformly random focused playouts, the one-ply
//! pattern player and alpha-beta, in a round robin at the same number of
//! playouts per move, on 15x15 freestyle; every searcher sees only the
//! cells within two of a stone (`gomoku_renju::Focused`).
//!
//! ```text
//! cargo run --release --example gomoku_mcts
//! cargo run --release --example gomoku_mcts -- --iters 20000 --games 40
//! ```

use clap::Parser;
use game_arena::registry::GameSetup;
use game_arena::tournament::{FORMAT_VERSION, Header, Pairing, Summary, play};

#[path = "common/cli.rs"]
mod cli;

#[derive(Parser, Debug)]
#[command(
    name = "gomoku_mcts",
    about = "UCT and RAVE with threat-aware or random playouts on Gomoku, in a round robin"
)]
struct Cli {
    /// Playouts per move for UCT and RAVE.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    iters: u64,
    /// Alpha-beta's depth.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=8))]
    depth: u32,
    /// Games per pairing (each opening with both colours).
    #[arg(short = 'n', long, default_value_t = 6)]
    games: u32,
    /// Games played at the same time.
    #[arg(short = 'j', long, default_value_t = 2)]
    threads: usize,
    /// Seed of the openings and the searchers.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
}

fn main() {
    let args: Cli = cli::parse();
    let iters = args.iters;
    let header = Header {
        version: FORMAT_VERSION,
        game: "gomoku".to_string(),
        searchers: vec![
            format!("uct:iters={iters},playout=heuristic"),
            format!("uct:iters={iters},playout=random"),
            format!("rave:iters={iters},playout=heuristic"),
            format!("rave:iters={iters},playout=random"),
            format!("alphabeta:depth={}", args.depth),
            "greedy".to_string(),
        ],
        pairing: Pairing::RoundRobin,
        games_per_pair: args.games.max(1).next_multiple_of(2),
        opening_plies: 2,
        book: Vec::new(),
        adjudication: Default::default(),
        seed: args.seed,
        sprt: None,
        shard: None,
    };
    println!(
        "Settings: Gomoku 15x15 freestyle, focused moves; {iters} playouts per move for UCT and RAVE"
    );
    println!(
        "(playout=heuristic: threat-aware playouts; playout=random: uniform focused playouts);"
    );
    println!(
        "alpha-beta to depth {} and greedy (one ply) with the pattern evaluator; {} games per pairing,",
        args.depth, header.games_per_pair
    );
    println!(
        "openings of 2 random focused plies, each with both colours; seed {}.\n",
        args.seed
    );
    let clock = std::time::Instant::now();
    let games = play(
        &GameSetup::<gomoku_renju::Focused>::new(),
        &header,
        &[],
        args.threads.max(1),
        &|_| {},
    )
    .unwrap_or_else(|error| {
        eprintln!("error: {error}");
        std::process::exit(1);
    });
    println!("{}", Summary::new(&header, &games));
    println!("({:.1} s)", clock.elapsed().as_secs_f64());
}
