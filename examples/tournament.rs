//! Any searchers against each other on any game: round robin, gauntlet,
//! SPRT match or budget sweep, with a table of score, Elo difference (95%
//! interval) and likelihood of superiority.
//!
//! ```text
//! cargo run --release --example tournament                 # the default Othello round robin
//! cargo run --release --example tournament -- --list       # searchers, settings, games
//! cargo run --release --example tournament -- uct:iters=2000 rave:iters=2000 greedy \
//!     --game othello --games 20 --out results.jsonl         # JSON lines, --resume to continue
//! cargo run --release --example tournament -- rave uct --sprt 0,50 --games 2000
//! cargo run --release --example tournament -- uct greedy random \
//!     --sweep iters=250,500,1000,2000 --svg sweep.svg        # score against budget
//! cargo run --release --example tournament -- ... --shard 3/8 --out part3.jsonl
//! cargo run --release --example tournament -- merge part*.jsonl --out all.jsonl
//! ```
//!
//! Games are deterministic given the seed when every budget is in
//! iterations or depth (not milliseconds), so a resumed tournament gives
//! the same totals as an uninterrupted one and merged shards give the
//! same games as one run.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use clap::{Args, Parser, Subcommand};
use game_arena::registry::GameSetup;
use game_arena::registry::{
    BUDGET_KEYS, GAMES, GameVisitor, RegistryGame, SEARCHERS, SearcherSpec, visit_game,
};
use game_arena::stats::Sprt;
use game_arena::tournament::{
    FORMAT_VERSION, GameRecord, Header, Pairing, Shard, Summary, TournamentError, budget_warnings,
    merge, open_results, play, write_results,
};
use indicatif::{ProgressBar, ProgressStyle};

#[path = "common/cli.rs"]
mod cli;

/// The default tournament: our searchers on Othello, about a minute in a
/// release build on two cores.
const DEFAULT_SEARCHERS: &[&str] = &[
    "uct:iters=3000",
    "rave:iters=3000",
    "gumbel:sims=64,k=4",
    "puct:sims=64",
    "greedy",
    "random",
];

#[derive(Parser, Debug)]
#[command(
    name = "tournament",
    about = "Any searchers against each other on any game, with Elo, confidence intervals and SPRT",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Join the results files of a tournament's shards and print its table.
    Merge {
        /// The shards' results files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged results here.
        #[arg(short, long)]
        out: Option<PathBuf>,
        /// For a budget sweep: write the chart here.
        #[arg(long)]
        svg: Option<PathBuf>,
    },
}

#[derive(Args, Debug)]
struct RunArgs {
    /// Searcher specs, name[:key=value,...] (see --list). Default: uct,
    /// rave, gumbel, puct, greedy and random on Othello.
    #[arg(value_parser = clap::value_parser!(SearcherSpec))]
    searchers: Vec<SearcherSpec>,
    /// The game.
    #[arg(short, long, default_value = "othello", value_parser = game_names())]
    game: String,
    /// Games per pairing (rounded up to even: each opening with both colours).
    #[arg(short = 'n', long, default_value_t = 16)]
    games: u32,
    /// Random plies before each game; 0 plays every game from the start
    /// position.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Seed of the openings and the searchers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time.
    #[arg(short = 'j', long, default_value_t = default_threads())]
    threads: usize,
    /// The first searcher against each of the others (default: every
    /// searcher against every other).
    #[arg(long)]
    gauntlet: bool,
    /// Play the first searcher against the second until the SPRT of H0
    /// "Elo difference ELO0" against H1 "ELO1" is decided (or --games run
    /// out).
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt_bounds)]
    sprt: Option<(f64, f64)>,
    /// SPRT false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// SPRT false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Sweep a setting of the first searcher over these values; each
    /// variant plays every other searcher.
    #[arg(long, value_name = "KEY=V1,V2,...")]
    sweep: Option<String>,
    /// For a sweep: write the chart of score against the swept value here.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Write the results as JSON lines here.
    #[arg(short, long)]
    out: Option<PathBuf>,
    /// Continue the tournament held in --out.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Play only part i of n of the tournament (merge the parts with
    /// `tournament merge`).
    #[arg(long, value_name = "I/N", value_parser = clap::value_parser!(Shard))]
    shard: Option<Shard>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// List the searchers, their settings and the games, and exit.
    #[arg(long)]
    list: bool,
}

fn game_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(GAMES.iter().map(|(name, _)| *name))
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn parse_sprt_bounds(text: &str) -> Result<(f64, f64), String> {
    let (elo0, elo1) = text
        .split_once(',')
        .ok_or_else(|| format!("expected ELO0,ELO1 like 0,50, got {text:?}"))?;
    let number = |part: &str| {
        part.trim()
            .parse::<f64>()
            .map_err(|_| format!("{part:?} is not a number"))
    };
    Ok((number(elo0)?, number(elo1)?))
}

/// Exits with the usage line and code 2.
fn usage_error(message: impl std::fmt::Display) -> ! {
    cli::usage_error::<Cli>(message)
}

fn main() {
    // Networks (`net=` settings) run fastest in the tuned environment.
    cli::tune_environment();
    let cli: Cli = cli::parse();
    let result = match cli.command {
        Some(Command::Merge { files, out, svg }) => run_merge(&files, out, svg),
        None if cli.run.list => {
            list();
            Ok(())
        }
        None => run(cli.run),
    };
    if let Err(error) = result {
        eprintln!("error: {error}");
        std::process::exit(1);
    }
}

fn list() {
    println!("Searchers (name[:key=value,...]); every one also takes the budget keys:");
    for key in BUDGET_KEYS {
        println!("    {:<10} {}", key.key, key.help);
    }
    for info in SEARCHERS {
        let budget = if info.default_budget.is_empty() {
            "needs no budget".to_string()
        } else {
            format!("default budget {}", info.default_budget)
        };
        println!("\n  {:<8} {} ({budget})", info.name, info.summary);
        for key in info.keys {
            let default = if key.default.is_empty() {
                String::new()
            } else {
                format!(" [default {}]", key.default)
            };
            println!("    {:<10} {}{default}", key.key, key.help);
        }
    }
    println!("\nGames (--game):");
    for (name, summary) in GAMES {
        println!("  {name:<10} {summary}");
    }
}

fn header_from(args: &RunArgs) -> Header {
    let mut searchers: Vec<String> = if args.searchers.is_empty() {
        if args.sweep.is_some() || args.sprt.is_some() {
            usage_error("--sweep and --sprt need searchers on the command line");
        }
        DEFAULT_SEARCHERS.iter().map(ToString::to_string).collect()
    } else {
        args.searchers.iter().map(ToString::to_string).collect()
    };
    let mut pairing = if args.gauntlet {
        Pairing::Gauntlet
    } else {
        Pairing::RoundRobin
    };
    if let Some(sweep) = &args.sweep {
        let (key, values) = sweep.split_once('=').unwrap_or_else(|| {
            usage_error(format!("--sweep expects KEY=V1,V2,..., got {sweep:?}"))
        });
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        let subject = &args.searchers[0];
        let variants: Vec<String> = values
            .iter()
            .map(|value| {
                subject
                    .with_setting(key, value)
                    .unwrap_or_else(|error| usage_error(error))
                    .to_string()
            })
            .collect();
        let count = variants.len();
        searchers = variants
            .into_iter()
            .chain(searchers.into_iter().skip(1))
            .collect();
        pairing = Pairing::Sweep {
            key: key.to_string(),
            values,
            variants: count,
        };
    }
    let sprt = args.sprt.map(|(elo0, elo1)| {
        Sprt::new(elo0, elo1, args.alpha, args.beta).unwrap_or_else(|error| usage_error(error))
    });
    Header {
        version: FORMAT_VERSION,
        game: args.game.clone(),
        searchers,
        pairing,
        games_per_pair: args.games.max(1).next_multiple_of(2),
        opening_plies: args.opening_plies,
        seed: args.seed,
        sprt,
        shard: args.shard,
    }
}

fn run(args: RunArgs) -> Result<(), TournamentError> {
    let header = header_from(&args);
    if let Err(error) = header.validate() {
        usage_error(error);
    }
    let (writer, done) = match &args.out {
        Some(path) => {
            let (writer, done) = open_results(path, &header, args.resume)?;
            (Some(writer), done)
        }
        None => (None, Vec::new()),
    };
    let scheduled = header.ids().count();
    println!(
        "{} on {}: {} searchers, {} games{}, {} thread(s), seed {}",
        match header.pairing {
            Pairing::RoundRobin => "round robin",
            Pairing::Gauntlet => "gauntlet",
            Pairing::Sweep { .. } => "budget sweep",
        },
        header.game,
        header.searchers.len(),
        scheduled,
        if done.is_empty() {
            String::new()
        } else {
            format!(" ({} already played)", done.len())
        },
        args.threads,
        header.seed
    );
    for spec in &header.searchers {
        println!("  {spec}");
    }
    let progress = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(scheduled.saturating_sub(done.len()) as u64)
    };
    progress.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {per_sec}  elapsed {elapsed}  ETA {eta}",
        )
        .expect("a valid template"),
    );
    let write_error: Mutex<Option<TournamentError>> = Mutex::new(None);
    let on_game = |record: &GameRecord| {
        if let Some(writer) = &writer
            && let Err(error) = writer.append(record)
        {
            write_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(error);
        }
        progress.inc(1);
    };
    let clock = Instant::now();
    let new = visit_game(
        &header.game,
        Play {
            header: &header,
            done: &done,
            threads: args.threads,
            on_game: &on_game,
        },
    )??;
    progress.finish_and_clear();
    if let Some(error) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error);
    }
    let mut records = done;
    records.extend(new);
    let summary = Summary::new(&header, &records);
    println!(
        "\n{summary}\nplayed in {:.1} s{}",
        clock.elapsed().as_secs_f64(),
        args.out.as_ref().map_or_else(String::new, |path| format!(
            "; results in {}",
            path.display()
        ))
    );
    write_chart(&summary, args.svg)?;
    Ok(())
}

fn write_chart(summary: &Summary, svg: Option<PathBuf>) -> Result<(), TournamentError> {
    let Some(path) = svg else {
        return Ok(());
    };
    match summary.sweep_chart() {
        Some(chart) => {
            std::fs::write(&path, chart).map_err(|error| TournamentError::Io {
                path: path.clone(),
                message: error.to_string(),
            })?;
            println!("chart in {}", path.display());
        }
        None => eprintln!("warning: --svg draws budget sweeps with numeric values only"),
    }
    Ok(())
}

fn run_merge(
    files: &[PathBuf],
    out: Option<PathBuf>,
    svg: Option<PathBuf>,
) -> Result<(), TournamentError> {
    let (header, records) = merge(files)?;
    let missing = header.total_games() as usize - records.len();
    if missing > 0 {
        eprintln!(
            "warning: {missing} of {} games are in none of the files",
            header.total_games()
        );
    }
    if let Some(path) = &out {
        write_results(path, &header, &records)?;
    }
    let summary = Summary::new(&header, &records);
    println!("{summary}");
    if let Some(path) = out {
        println!("merged results in {}", path.display());
    }
    write_chart(&summary, svg)
}

/// Plays the tournament on the game its header names.
struct Play<'a> {
    header: &'a Header,
    done: &'a [GameRecord],
    threads: usize,
    on_game: &'a (dyn Fn(&GameRecord) + Sync),
}

impl GameVisitor for Play<'_> {
    type Output = Result<Vec<GameRecord>, TournamentError>;

    fn visit<G: RegistryGame>(self) -> Self::Output {
        let setup = GameSetup::<G>::new();
        let specs = self.header.validate_with(&setup)?;
        for warning in budget_warnings(&setup, &specs)? {
            eprintln!("{warning}");
        }
        play(&setup, self.header, self.done, self.threads, self.on_game)
    }
}
