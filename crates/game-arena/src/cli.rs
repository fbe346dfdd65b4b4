//! The `game-arena` command line, over any [`Registry`]: round robin,
//! gauntlet, SPRT match or budget sweep, with a table of score, Elo
//! difference (95% interval) and likelihood of superiority; results as
//! JSON lines that resume after a crash and merge across shards.
//!
//! ```text
//! game-arena                                           # the default Othello round robin
//! game-arena --list                                    # searchers, settings, games
//! game-arena uct:iters=2000 rave:iters=2000 greedy \
//!     --game othello --games 20 --out results.jsonl    # --resume to continue
//! game-arena rave uct --sprt 0,5 --games 2000       # nElo bounds, game pairs
//! game-arena rave uct --sprt 0,50 --sprt-model trinomial
//! game-arena uct greedy random --sweep iters=250,500,1000 --svg sweep.svg
//! game-arena ... --shard 3/8 --out part3.jsonl
//! game-arena merge part*.jsonl --out all.jsonl
//! ```
//!
//! `cargo install game-arena --features cli` installs it with the
//! built-in games. A crate with games or searchers of its own gets the
//! same command line over its own registry with a `main` of one line:
//!
//! ```no_run
//! use game_arena::Registry;
//!
//! fn main() -> std::process::ExitCode {
//!     // Registry::builtin().game(GameSetup::<MyGame>::new()...) in a real crate.
//!     game_arena::cli::main(&Registry::builtin())
//! }
//! ```
//!
//! Games are deterministic given the seed when every budget is in
//! iterations or depth (not milliseconds), so a resumed tournament gives
//! the same totals as an uninterrupted one and merged shards give the
//! same games as one run. Exit codes: 0 on success, 1 when the tournament
//! fails (a file cannot be written, a results file holds another
//! tournament), 2 for a bad argument (with the usage line).

use std::ffi::OsString;
use std::fmt::Display;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::arena::{ArenaGame, Registry};
use crate::registry::{BUDGET_KEYS, SEARCHERS, SearcherInfo};
use crate::stats::{Sprt, SprtModel};
use crate::tournament::{
    Adjudication, FORMAT_VERSION, GameRecord, Header, Pairing, Shard, Summary, TournamentError,
    merge, open_results, read_results, write_results,
};

/// The default tournament: built-in searchers only, so it runs on any
/// game; about a minute on Othello in a release build on two cores.
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
    name = "game-arena",
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
    /// rave, gumbel, puct, greedy and random.
    searchers: Vec<String>,
    /// The game (see --list). Default: the registry's first, Othello for
    /// the built-in games.
    #[arg(short, long)]
    game: Option<String>,
    /// Games per pairing (rounded up to even: each opening with both
    /// colours). Default: 16, or with --openings two per opening.
    #[arg(short = 'n', long)]
    games: Option<u32>,
    /// Random plies before each game; 0 plays every game from the start
    /// position. Not used with --openings.
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Openings from this file, one per line, each played with both
    /// colours in every pairing, in the file's order (and again from the
    /// top if --games asks for more). Othello: a board and side (OBF) or
    /// moves like f5d6c3 (the XOT lists); Gomoku: Gomocup offsets from the
    /// centre like 0,0, 1,-1 or moves like h8 i9, after an optional rule
    /// (renju: 0,0, 1,-1; freestyle without one); other games: a position
    /// or moves separated by spaces. Blank lines and lines starting with
    /// # are skipped.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Score a game as soon as its result is known for sure: Othello by
    /// the exact solver at 14 empty squares or fewer, Gomoku when the
    /// player to move has a victory by continuous fours (VCF). The
    /// record says why.
    #[arg(long)]
    adjudicate: bool,
    /// Stop every game after this many plies from its opening, scored as
    /// a draw.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: Option<u32>,
    /// Seed of the openings and the searchers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time (default: the machine's cores).
    #[arg(short = 'j', long)]
    threads: Option<usize>,
    /// The first searcher against each of the others (default: every
    /// searcher against every other).
    #[arg(long)]
    gauntlet: bool,
    /// Play the first searcher against the second until the SPRT of H0
    /// "Elo difference ELO0" against H1 "ELO1" is decided (or --games run
    /// out). The bounds are normalized Elo with the default
    /// --sprt-model, logistic Elo with the others.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = parse_sprt_bounds)]
    sprt: Option<(f64, f64)>,
    /// The SPRT's statistics: pentanomial (game pairs, bounds in
    /// normalized Elo, as fastchess by default), pentanomial-logistic
    /// (game pairs, logistic Elo) or trinomial (single games, logistic
    /// Elo, the model of results files written before there were models).
    /// Default: pentanomial, or with --resume the model of the file.
    #[arg(long, value_name = "MODEL", value_parser = clap::value_parser!(SprtModel))]
    sprt_model: Option<SprtModel>,
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
    /// Also save each game in its game's usual format in this directory,
    /// as it ends: game-<id>.ggf for Othello, game-<id>.psq (as the
    /// Gomocup manager saves games) for Gomoku.
    #[arg(long, value_name = "DIR")]
    records: Option<PathBuf>,
    /// Continue the tournament held in --out.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Play only part i of n of the tournament (merge the parts with
    /// `merge`).
    #[arg(long, value_name = "I/N", value_parser = clap::value_parser!(Shard))]
    shard: Option<Shard>,
    /// No progress line.
    #[arg(short, long)]
    quiet: bool,
    /// List the searchers, their settings and the games, and exit.
    #[arg(long)]
    list: bool,
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

/// Why the command line stopped.
enum Failure {
    /// A bad argument: reported with the usage line, exit code 2.
    Usage(String),
    /// The tournament failed: exit code 1.
    Run(TournamentError),
}

impl From<TournamentError> for Failure {
    fn from(error: TournamentError) -> Failure {
        Failure::Run(error)
    }
}

fn usage(message: impl Display) -> Failure {
    Failure::Usage(message.to_string())
}

/// Runs the command line of the process over `registry`.
pub fn main(registry: &Registry) -> ExitCode {
    run(registry, std::env::args_os())
}

/// Runs the command line `args` (the program name first) over
/// `registry`, printing to stdout and stderr; returns the exit code.
pub fn run<I, T>(registry: &Registry, args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    if let Err(error) = registry.check() {
        eprintln!("error: {error}");
        return ExitCode::FAILURE;
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => return clap_failure::<Cli>(&error),
    };
    let result = match cli.command {
        Some(Command::Merge { files, out, svg }) => run_merge(&files, out, svg),
        None if cli.run.list => {
            list(registry);
            Ok(())
        }
        None => run_tournament(registry, &cli.run),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            clap_failure::<Cli>(&Cli::command().error(ErrorKind::ValueValidation, message))
        }
        Err(Failure::Run(error)) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Parses the process's command line with clap; on a bad argument prints
/// clap's message and the usage line to stderr and exits with code 2
/// (`--help` and `--version` print and exit 0). For command lines of
/// one's own that behave like this one.
pub fn parse<P: Parser>() -> P {
    P::try_parse().unwrap_or_else(|error| std::process::exit(i32::from(clap_report::<P>(&error))))
}

/// Exits with `message` as a bad-argument error of command line `P`
/// (usage line, code 2).
pub fn usage_error<P: CommandFactory>(message: impl Display) -> ! {
    let error = P::command().error(ErrorKind::ValueValidation, message);
    std::process::exit(i32::from(clap_report::<P>(&error)))
}

fn clap_failure<P: CommandFactory>(error: &clap::Error) -> ExitCode {
    ExitCode::from(clap_report::<P>(error))
}

/// Prints a clap error (help and version to stdout, errors with the
/// usage line to stderr) and returns its exit code.
fn clap_report<P: CommandFactory>(error: &clap::Error) -> u8 {
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        print!("{}", error.render());
        return 0;
    }
    let text = error.render().to_string();
    eprint!("{text}");
    if !text.contains("Usage:") {
        eprintln!("\n{}", P::command().render_usage());
    }
    2
}

fn list(registry: &Registry) {
    println!("Searchers (name[:key=value,...]); every one also takes the budget keys:");
    for key in BUDGET_KEYS {
        println!("    {:<10} {}", key.key, key.help);
    }
    for info in SEARCHERS {
        list_searcher(info);
    }
    println!("\nGames (--game):");
    for game in registry.games() {
        println!("  {:<10} {}", game.name(), game.summary());
        for info in &game.searchers()[SEARCHERS.len()..] {
            list_searcher(info);
        }
        for (name, summary) in game.evaluators() {
            println!("    eval={name:<10} {summary}");
        }
    }
}

fn list_searcher(info: &SearcherInfo) {
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

fn header_from(game: &dyn ArenaGame, args: &RunArgs) -> Result<Header, Failure> {
    let mut searchers: Vec<String> = if args.searchers.is_empty() {
        if args.sweep.is_some() || args.sprt.is_some() {
            return Err(usage(
                "--sweep and --sprt need searchers on the command line",
            ));
        }
        DEFAULT_SEARCHERS.iter().map(ToString::to_string).collect()
    } else {
        let specs = args
            .searchers
            .iter()
            .map(|text| game.spec(text).map(|spec| spec.to_string()))
            .collect::<Result<Vec<_>, _>>();
        specs.map_err(usage)?
    };
    let mut pairing = if args.gauntlet {
        Pairing::Gauntlet
    } else {
        Pairing::RoundRobin
    };
    if let Some(sweep) = &args.sweep {
        let (key, values) = sweep
            .split_once('=')
            .ok_or_else(|| usage(format!("--sweep expects KEY=V1,V2,..., got {sweep:?}")))?;
        let values: Vec<String> = values.split(',').map(|v| v.trim().to_string()).collect();
        let subject = game.spec(&searchers[0]).map_err(usage)?;
        let variants = values
            .iter()
            .map(|value| {
                subject
                    .with_setting(key, value)
                    .map(|spec| spec.to_string())
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(usage)?;
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
    let book = match &args.openings {
        Some(path) => read_openings(game, path)?,
        None => Vec::new(),
    };
    let games = args.games.unwrap_or(if book.is_empty() {
        16
    } else {
        u32::try_from(2 * book.len()).unwrap_or(u32::MAX)
    });
    let model = args.sprt_model.unwrap_or_default();
    let sprt = args
        .sprt
        .map(|(elo0, elo1)| {
            Sprt::new(elo0, elo1, args.alpha, args.beta).map(|sprt| sprt.with_model(model))
        })
        .transpose()
        .map_err(usage)?;
    Ok(Header {
        version: FORMAT_VERSION,
        game: game.name().to_string(),
        searchers,
        pairing,
        games_per_pair: games.max(1).next_multiple_of(2),
        opening_plies: if book.is_empty() {
            args.opening_plies
        } else {
            0
        },
        book,
        adjudication: Adjudication {
            by_game: args.adjudicate,
            max_plies: args.max_plies,
        },
        seed: args.seed,
        sprt,
        shard: args.shard,
    })
}

/// The openings of the file at `path`: its lines without blank lines and
/// `#` comments, each checked as an opening of `game`.
fn read_openings(game: &dyn ArenaGame, path: &Path) -> Result<Vec<String>, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| usage(format!("cannot read openings {}: {error}", path.display())))?;
    let mut book = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        game.check_opening(line)
            .map_err(|error| usage(format!("{}:{}: {error}", path.display(), number + 1)))?;
        book.push(line.to_string());
    }
    if book.is_empty() {
        return Err(usage(format!("{} holds no opening", path.display())));
    }
    Ok(book)
}

/// A one-line count of the games played, redrawn on a terminal's stderr.
struct Progress {
    total: usize,
    played: AtomicUsize,
    clock: Instant,
    shown: bool,
}

impl Progress {
    fn new(total: usize, quiet: bool) -> Progress {
        Progress {
            total,
            played: AtomicUsize::new(0),
            clock: Instant::now(),
            shown: !quiet && std::io::stderr().is_terminal(),
        }
    }

    fn game_done(&self) {
        let played = self.played.fetch_add(1, Ordering::Relaxed) + 1;
        if !self.shown {
            return;
        }
        let elapsed = self.clock.elapsed().as_secs_f64();
        let left = self.total.saturating_sub(played);
        let eta = elapsed / played as f64 * left as f64;
        let mut stderr = std::io::stderr().lock();
        let _ = write!(
            stderr,
            "\r{played}/{} games  elapsed {elapsed:.0} s  ETA {eta:.0} s ",
            self.total
        );
        let _ = stderr.flush();
    }

    fn finish(&self) {
        if self.shown {
            eprint!("\r{:60}\r", "");
        }
    }
}

fn run_tournament(registry: &Registry, args: &RunArgs) -> Result<(), Failure> {
    let game = match &args.game {
        Some(name) => registry.find(name).map_err(usage)?,
        None => registry
            .games()
            .next()
            .ok_or_else(|| usage("the registry holds no game"))?,
    };
    let mut header = header_from(game, args)?;
    if args.resume
        && args.sprt_model.is_none()
        && let (Some(sprt), Some(path)) = (&mut header.sprt, &args.out)
        && let Some(model) = sprt_model_of_file(path)
    {
        sprt.model = model;
    }
    let specs = game.validate(&header).map_err(usage)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
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
        threads,
        header.seed
    );
    for spec in &header.searchers {
        println!("  {spec}");
    }
    for warning in game
        .budget_warnings(&specs)
        .map_err(TournamentError::from)?
    {
        eprintln!("{warning}");
    }
    let records_dir = args.records.as_deref();
    if let Some(dir) = records_dir {
        std::fs::create_dir_all(dir).map_err(|error| TournamentError::Io {
            path: dir.to_path_buf(),
            message: error.to_string(),
        })?;
    }
    let unsaved = AtomicUsize::new(0);
    let save = |record: &GameRecord| -> Result<(), TournamentError> {
        let Some(dir) = records_dir else {
            return Ok(());
        };
        match game.game_file(&header, record) {
            Ok(Some(file)) => {
                let path = dir.join(format!("game-{}.{}", record.id, file.extension));
                std::fs::write(&path, file.text).map_err(|error| TournamentError::Io {
                    path,
                    message: error.to_string(),
                })
            }
            Ok(None) => {
                unsaved.fetch_add(1, Ordering::Relaxed);
                Ok(())
            }
            Err(error) => Err(TournamentError::Settings(format!(
                "game {} cannot be saved: {error}",
                record.id
            ))),
        }
    };
    for record in &done {
        save(record)?;
    }
    let progress = Progress::new(scheduled.saturating_sub(done.len()), args.quiet);
    let write_error: Mutex<Option<TournamentError>> = Mutex::new(None);
    let on_game = |record: &GameRecord| {
        let written = match &writer {
            Some(writer) => writer.append(record),
            None => Ok(()),
        };
        if let Err(error) = written.and_then(|()| save(record)) {
            write_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(error);
        }
        progress.game_done();
    };
    let clock = Instant::now();
    let new = game.play(&header, &done, threads, &on_game)?;
    progress.finish();
    if let Some(error) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(error.into());
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
    write_chart(&summary, args.svg.as_deref())?;
    if let Some(dir) = records_dir {
        match unsaved.into_inner() {
            0 => println!("game records in {}", dir.display()),
            count => eprintln!(
                "warning: {} has no game record format; --records saved none of {count} games",
                header.game
            ),
        }
    }
    Ok(())
}

/// The SPRT model of the results file at `path`, if it can be read and
/// holds an SPRT (a file too old to name one reads as trinomial).
fn sprt_model_of_file(path: &Path) -> Option<SprtModel> {
    let text = std::fs::read_to_string(path).ok()?;
    let (header, _, _) = read_results(path, &text).ok()?;
    header.sprt.map(|sprt| sprt.model)
}

fn write_chart(summary: &Summary, svg: Option<&Path>) -> Result<(), TournamentError> {
    let Some(path) = svg else {
        return Ok(());
    };
    match summary.sweep_chart() {
        Some(chart) => {
            std::fs::write(path, chart).map_err(|error| TournamentError::Io {
                path: path.to_path_buf(),
                message: error.to_string(),
            })?;
            println!("chart in {}", path.display());
        }
        None => eprintln!("warning: --svg draws budget sweeps with numeric values only"),
    }
    Ok(())
}

fn run_merge(files: &[PathBuf], out: Option<PathBuf>, svg: Option<PathBuf>) -> Result<(), Failure> {
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
    write_chart(&summary, svg.as_deref())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn bad_arguments_exit_with_code_2() {
        let registry = Registry::builtin();
        for args in [
            &["game-arena", "uct:c=fast"][..],
            &["game-arena", "--game", "chess"],
            &["game-arena", "random", "random", "--game", "tictactoe"],
            &["game-arena", "random", "greedy", "--sprt", "50"],
            &[
                "game-arena",
                "random",
                "greedy",
                "--sprt",
                "0,5",
                "--sprt-model",
                "binomial",
            ],
            &["game-arena", "--sweep", "iters=1"],
        ] {
            assert_eq!(run(&registry, args), ExitCode::from(2), "{args:?}");
        }
    }

    #[test]
    fn resuming_an_old_sprt_file_keeps_its_trinomial_model() {
        let registry = Registry::builtin();
        let dir = std::env::temp_dir().join(format!("cli-old-sprt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.jsonl");
        let _ = std::fs::remove_file(&path);
        let out = path.to_str().unwrap();
        let args = |extra: &[&'static str]| {
            let mut args = vec![
                "game-arena",
                "random",
                "greedy",
                "--game",
                "tictactoe",
                "--games",
                "4",
                "--sprt",
                "0,50",
                "--threads",
                "1",
                "--quiet",
                "--out",
            ];
            args.push(out);
            args.extend_from_slice(extra);
            args.into_iter().map(String::from).collect::<Vec<_>>()
        };
        assert_eq!(
            run(&registry, args(&["--sprt-model", "trinomial"])),
            ExitCode::SUCCESS
        );
        // A file of a version without models: no model in its header.
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(r#","model":"trinomial""#), "{text}");
        std::fs::write(&path, text.replacen(r#","model":"trinomial""#, "", 1)).unwrap();
        assert_eq!(sprt_model_of_file(&path), Some(SprtModel::Trinomial));
        // Without --sprt-model, --resume takes the file's model.
        assert_eq!(run(&registry, args(&["--resume"])), ExitCode::SUCCESS);
        // Another model is another tournament.
        assert_eq!(
            run(
                &registry,
                args(&["--resume", "--sprt-model", "pentanomial"])
            ),
            ExitCode::FAILURE
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_tiny_tournament_runs() {
        let registry = Registry::builtin();
        let args = [
            "game-arena",
            "random",
            "greedy",
            "--game",
            "tictactoe",
            "--games",
            "2",
            "--threads",
            "1",
            "--quiet",
        ];
        assert_eq!(run(&registry, args), ExitCode::SUCCESS);
    }
}
