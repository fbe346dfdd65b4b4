//! Play against any searcher on any game in the terminal.
//!
//! ```text
//! cargo run --release --example play                          # Othello against alpha-beta
//! cargo run --release --example play -- --game jungle --engine uct:iters=20000
//! cargo run --release --example play -- --human second --engine gumbel:sims=64,k=4
//! ```
//!
//! Type a move (`f5`, `a3a4`, ...), `hint` for the engine's principal
//! variation and per-move statistics, `undo`, `new`, `moves`, `record` or
//! `quit`. The game record is saved on exit in the game's own notation.

use std::io::{self, Write};
use std::path::PathBuf;

use clap::Parser;
use game_arena::play::{Humans, Session};
use game_arena::registry::{GAMES, GameVisitor, RegistryGame, SearcherSpec, visit_game};

#[path = "common/cli.rs"]
mod cli;

#[derive(Parser, Debug)]
#[command(
    name = "play",
    about = "Play against any searcher on any game in the terminal"
)]
struct Cli {
    /// The game.
    #[arg(short, long, default_value = "othello", value_parser = game_names())]
    game: String,
    /// The engine: a searcher spec (see `tournament --list`); by default
    /// the game's own (`alphabeta:ms=1000,lmr=on` on Othello, `rave:iters=20000`
    /// elsewhere).
    #[arg(short, long)]
    engine: Option<SearcherSpec>,
    /// Which side you play: first, second, both or none.
    #[arg(long, default_value = "first")]
    human: Humans,
    /// The engine's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this position (the game's text form) instead of the
    /// start position.
    #[arg(long)]
    position: Option<String>,
    /// Save the game record here on exit (default: <game>-record.txt).
    #[arg(long)]
    save: Option<PathBuf>,
}

fn game_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(GAMES.iter().map(|(name, _)| *name))
}

fn main() {
    // Networks (`net=` settings) run fastest in the tuned environment.
    cli::tune_environment();
    let args: Cli = cli::parse();
    let save = args
        .save
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}-record.txt", args.game)));
    let result = visit_game(&args.game, Play { args: &args, save })
        .map_err(Box::<dyn std::error::Error>::from)
        .and_then(|played| played);
    if let Err(error) = result {
        eprintln!("error: {error}");
        std::process::exit(1);
    }
}

struct Play<'a> {
    args: &'a Cli,
    save: PathBuf,
}

impl GameVisitor for Play<'_> {
    type Output = Result<(), Box<dyn std::error::Error>>;

    fn visit<G: RegistryGame>(self) -> Self::Output {
        let start = match &self.args.position {
            Some(text) => {
                G::parse_position(text).unwrap_or_else(|error| cli::usage_error::<Cli>(error))
            }
            None => G::start(),
        };
        let engine = match &self.args.engine {
            Some(spec) => spec.clone(),
            None => G::DEFAULT_ENGINE.parse()?,
        };
        let mut session = Session::new(start, engine, self.args.human, self.args.seed)
            .unwrap_or_else(|error| cli::usage_error::<Cli>(error));
        let stdout = io::stdout();
        let mut out = stdout.lock();
        session.run(io::stdin().lock(), &mut out)?;
        out.flush()?;
        std::fs::write(&self.save, session.record() + "\n")?;
        println!("Game record saved to {}", self.save.display());
        Ok(())
    }
}
