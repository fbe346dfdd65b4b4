//! PIMC on Hidden Jungle (you see where the opponent's pieces are, not
//! which animal each is) against an opponent of your choice: a series of
//! random deals, each played with both colours, and a table of the score
//! with its 95% confidence interval.
//!
//! ```text
//! cargo run --release --example jungle_pimc
//! cargo run --release --example jungle_pimc -- --opponent cheat --deals 50 --worlds 40
//! ```
//!
//! Opponents: `random`; `naive` (the same alpha-beta on the one setup
//! closest to the standard layout that fits what it has seen); `cheat`
//! (the same alpha-beta seeing every animal: its margin is what hidden
//! information costs PIMC); `pimc-mcts` (PIMC over UCT instead of
//! alpha-beta, `--mcts-iters` playouts per decision shared by the worlds).
//! PIMC: Ginsberg, "GIB: Imperfect information in a computationally
//! challenging game", JAIR 14 (2001); the crate docs of `pimc-alphabeta`
//! say how worlds are sampled and root moves valued.

use clap::{Parser, ValueEnum};
use dou_shou_qi::hidden::{HiddenInfoSet, HiddenRules, Referee};
use dou_shou_qi::{Jungle, JungleEvaluator};
use game_traits::hidden::{Informed, Omniscient, play_hidden_series};
use game_traits::{Limits, RandomSearcher, SeriesOptions, SeriesResult};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig, Naive, Pimc, PimcConfig, RootValues};

#[path = "common/cli.rs"]
mod cli;

/// Who PIMC plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Opponent {
    /// Uniformly random legal moves.
    Random,
    /// Alpha-beta on the consistent setup closest to the standard layout.
    Naive,
    /// Alpha-beta on the true world (sees every animal).
    Cheat,
    /// PIMC over UCT.
    PimcMcts,
}

#[derive(Parser, Debug)]
#[command(
    name = "jungle_pimc",
    about = "PIMC over alpha-beta on Hidden Jungle against a chosen opponent"
)]
struct Cli {
    /// The opponent.
    #[arg(long, value_enum, default_value_t = Opponent::Naive)]
    opponent: Opponent,
    /// Deals; each is played twice, colours swapped.
    #[arg(long, default_value_t = 10)]
    deals: u32,
    /// Alpha-beta depth, in PIMC's worlds and in the baselines.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    /// Worlds PIMC samples per decision.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    worlds: u64,
    /// Playouts per decision of `pimc-mcts`, shared by its worlds.
    #[arg(long, default_value_t = 4_000, value_parser = clap::value_parser!(u64).range(1..))]
    mcts_iters: u64,
    /// Games played at the same time.
    #[arg(short = 'j', long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Seed of the deals and of the searchers.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Plies after which a game stops unfinished (scored a draw).
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
}

type AlphaBetaJungle = AlphaBeta<Jungle, JungleEvaluator>;

/// Alpha-beta with the near-exact root values PIMC averages best (see the
/// crate docs of `pimc-alphabeta`).
fn alpha_beta() -> AlphaBetaJungle {
    AlphaBeta::new(
        JungleEvaluator::default(),
        AlphaBetaConfig::default().with_root_values(RootValues::Near(0.1)),
    )
    .expect("valid settings")
}

fn pimc(worlds: usize, seed: u64) -> Pimc<HiddenInfoSet, AlphaBetaJungle> {
    Pimc::new(
        |_| alpha_beta(),
        PimcConfig::default().with_worlds(worlds).with_seed(seed),
    )
    .unwrap_or_else(|error| cli::usage_error::<Cli>(error))
}

fn print_row<M>(opponent: &str, series: &SeriesResult<M>, seconds: f64) {
    let tally = series.tally;
    let (low, high) = tally.confidence95();
    let plies: usize = series.games.iter().map(|game| game.plies).sum();
    let unfinished = series
        .games
        .iter()
        .filter(|game| game.outcome.is_none())
        .count();
    println!(
        "| PIMC | opponent | games | PIMC: +win =draw -loss | score | 95% CI | plies per game | unfinished | time |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    println!(
        "| PIMC | {opponent} | {} | +{} ={} -{} | {:.1}% | {:.1}%-{:.1}% | {:.0} | {unfinished} | {seconds:.0} s |",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * tally.score(),
        100.0 * low,
        100.0 * high,
        plies as f64 / series.games.len().max(1) as f64,
    );
}

fn main() {
    let args: Cli = cli::parse();
    let worlds = usize::try_from(args.worlds).unwrap_or(usize::MAX);
    let threads = usize::try_from(args.threads).unwrap_or(1);
    println!(
        "Hidden Jungle, default rules (random setups, the loser of a fight revealed), {} deals x 2 colours, seed {}, {} games at once, at most {} plies (unfinished = draw)",
        args.deals, args.seed, threads, args.max_plies
    );
    println!(
        "PIMC: {} worlds, alpha-beta depth {} per world (JungleEvaluator, near-exact root values)",
        worlds, args.depth
    );
    let limits = Limits::depth(args.depth);
    let opponent_limits = match args.opponent {
        Opponent::PimcMcts => Limits::iterations(args.mcts_iters),
        _ => limits.clone(),
    };
    let options = SeriesOptions::new(args.deals, 0, limits.clone())
        .with_limits(limits, opponent_limits)
        .with_seed(args.seed)
        .with_threads(threads)
        .with_max_plies(args.max_plies);
    let deal = |seed| Referee::random(HiddenRules::default(), seed);
    let me = |seed| Informed(pimc(worlds, seed));
    let started = std::time::Instant::now();
    let (name, series) = match args.opponent {
        Opponent::Random => (
            "random".to_string(),
            play_hidden_series(
                deal,
                me,
                |seed| Informed(RandomSearcher::new(seed)),
                &options,
            ),
        ),
        Opponent::Naive => (
            format!("naive alpha-beta d{}", args.depth),
            play_hidden_series(deal, me, |_| Informed(Naive(alpha_beta())), &options),
        ),
        Opponent::Cheat => (
            format!("cheating alpha-beta d{}", args.depth),
            play_hidden_series(deal, me, |_| Omniscient(alpha_beta()), &options),
        ),
        Opponent::PimcMcts => (
            format!("PIMC(UCT, {} playouts, {worlds} worlds)", args.mcts_iters),
            play_hidden_series(
                deal,
                me,
                |seed| {
                    Informed(
                        Pimc::new(
                            |world_seed| {
                                Mcts::new(
                                    MctsKnowledge::uct(),
                                    MctsConfig::default().with_seed(world_seed),
                                )
                                .expect("default settings are valid")
                            },
                            PimcConfig::default().with_worlds(worlds).with_seed(seed),
                        )
                        .unwrap_or_else(|error| cli::usage_error::<Cli>(error)),
                    )
                },
                &options,
            ),
        ),
    };
    match series {
        Ok(series) => print_row(&name, &series, started.elapsed().as_secs_f64()),
        Err(error) => {
            eprintln!("error: a searcher broke the rules: {error}");
            std::process::exit(1);
        }
    }
}
