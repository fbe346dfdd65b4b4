//! Your own evaluator in every searcher, in a few lines: a mobility and
//! corners evaluation of Othello, plugged into the greedy player,
//! alpha-beta, MCTS (evaluator leaves), Gumbel AlphaZero and PUCT (with a
//! uniform prior), each played against the same searcher with the crate's
//! own `HeuristicEvaluator` at the same budget. Every searcher is built
//! the same way, `new(knowledge, config)`.
//!
//! ```text
//! cargo run --release --example custom_evaluator
//! cargo run --release --example custom_evaluator -- --games 100
//! ```

use bitboard_othello::eval::CORNERS;
use bitboard_othello::{Board, HeuristicEvaluator};
use clap::Parser;
use game_arena::stats::elo_estimate;
use game_traits::{
    Evaluator, GreedySearcher, Limits, SeriesOptions, Tally, UniformPrior, play_series,
};
use gumbel_az::{GumbelAz, GumbelConfig, Puct, PuctConfig};
use mcts_rave::{LeafEvaluation, Mcts, MctsConfig, MctsKnowledge};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};

#[path = "common/cli.rs"]
mod cli;

/// The whole evaluator: mobility and corners for the player to move,
/// squashed into [-1, 1]; the exact result once the game is over.
#[derive(Clone, Copy, Debug)]
struct MobilityCorners;

impl Evaluator<Board> for MobilityCorners {
    fn value(&self, board: &Board) -> f32 {
        if board.is_game_over() {
            return board.final_score() as f32 / 64.0;
        }
        let mobility =
            board.mobility().count_ones() as f32 - board.opponent_mobility().count_ones() as f32;
        let corners = (board.player() & CORNERS).count_ones() as f32
            - (board.opponent() & CORNERS).count_ones() as f32;
        ((mobility + 4.0 * corners) / 12.0).tanh()
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "custom_evaluator",
    about = "Your own Othello evaluator in every searcher"
)]
struct Cli {
    /// Games per searcher (each opening with both colours).
    #[arg(short = 'n', long, default_value_t = 20)]
    games: u32,
    /// Games played at the same time.
    #[arg(short = 'j', long, default_value_t = 2)]
    threads: usize,
    /// Seed of the openings and the searchers.
    #[arg(long, default_value_t = 7)]
    seed: u64,
}

fn main() {
    let args: Cli = cli::parse();
    let games = args.games.max(2);
    let options = |limits: Limits| {
        SeriesOptions::new(games.div_ceil(2), 4, limits)
            .with_seed(args.seed)
            .with_threads(args.threads)
    };
    println!(
        "Settings: MobilityCorners (this file) against bitboard-othello's HeuristicEvaluator,"
    );
    println!(
        "the same searcher and budget on both sides; {} games each, openings of 4 random plies, seed {}.\n",
        games.next_multiple_of(2),
        args.seed
    );
    println!(
        "searcher                          budget      yours vs ours    score (95% CI)          Elo (95% CI)"
    );
    // Every searcher is built the same way: `new(knowledge, config)`, the
    // knowledge holding the evaluator, the config seeded per game.
    let mcts = |seed| {
        MctsConfig::default()
            .with_seed(seed)
            .with_leaf(LeafEvaluation::Evaluator)
    };
    let gumbel = |seed| {
        GumbelConfig::default()
            .with_seed(seed)
            .with_gumbel_scale(0.0)
    };
    let puct = |seed| PuctConfig::default().with_seed(seed);
    row(
        "greedy (one ply)",
        "-",
        play_series(
            &Board::start(),
            |_| GreedySearcher::new(MobilityCorners),
            |_| GreedySearcher::new(HeuristicEvaluator::default()),
            &options(Limits::none()),
        ),
    );
    row(
        "alpha-beta",
        "depth 3",
        play_series(
            &Board::start(),
            |_| AlphaBeta::new(MobilityCorners, AlphaBetaConfig::default()).expect(VALID),
            |_| {
                AlphaBeta::new(HeuristicEvaluator::default(), AlphaBetaConfig::default())
                    .expect(VALID)
            },
            &options(Limits::depth(3)),
        ),
    );
    row(
        "MCTS, evaluator at the leaves",
        "2000 iters",
        play_series(
            &Board::start(),
            |seed| {
                Mcts::new(
                    MctsKnowledge::uct().with_evaluator(MobilityCorners),
                    mcts(seed),
                )
                .expect(VALID)
            },
            |seed| {
                let knowledge = MctsKnowledge::uct().with_evaluator(HeuristicEvaluator::default());
                Mcts::new(knowledge, mcts(seed)).expect(VALID)
            },
            &options(Limits::iterations(2_000)),
        ),
    );
    row(
        "Gumbel AlphaZero, uniform prior",
        "64 sims",
        play_series(
            &Board::start(),
            |seed| GumbelAz::new(UniformPrior(MobilityCorners), gumbel(seed)).expect(VALID),
            |seed| {
                GumbelAz::new(UniformPrior(HeuristicEvaluator::default()), gumbel(seed))
                    .expect(VALID)
            },
            &options(Limits::iterations(64)),
        ),
    );
    row(
        "PUCT, uniform prior",
        "200 sims",
        play_series(
            &Board::start(),
            |seed| Puct::new(UniformPrior(MobilityCorners), puct(seed)).expect(VALID),
            |seed| Puct::new(UniformPrior(HeuristicEvaluator::default()), puct(seed)).expect(VALID),
            &options(Limits::iterations(200)),
        ),
    );
}

/// The settings above are all in range; `new` checks them all the same.
const VALID: &str = "valid settings";

fn row<M, E: std::fmt::Display>(
    name: &str,
    budget: &str,
    result: Result<game_traits::SeriesResult<M>, E>,
) {
    let tally: Tally = match result {
        Ok(series) => series.tally,
        Err(error) => {
            eprintln!("error: {name}: {error}");
            std::process::exit(1);
        }
    };
    let (low, high) = tally.confidence95();
    println!(
        "{name:<32}  {budget:<10}  {:>14}  {:>5.1}% ({:.1}%-{:.1}%)  {}",
        format!("+{} ={} -{}", tally.wins, tally.draws, tally.losses),
        100.0 * tally.score(),
        100.0 * low,
        100.0 * high,
        elo_estimate(&tally)
    );
}
