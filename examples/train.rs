//! Trains a policy-value network for a game by self-play (Gumbel
//! AlphaZero by default), with checkpoints evaluated against the best
//! network so far and the game's hand-written policy, a log, and a chart.
//!
//! ```text
//! cargo run --release --example train -- --game tictactoe --minutes 3
//! cargo run --release --example train -- --game othello --minutes 90 --dir runs/othello
//! cargo run --release --example train -- --game othello --dir runs/othello --resume --minutes 120
//! # Self-play in other processes (any batch system, a shared directory):
//! cargo run --release --example train -- --game othello --dir runs/o --minutes 0    # create the run
//! cargo run --release --example train -- --game othello --dir runs/o --worker --shard 1/2 --minutes 60
//! cargo run --release --example train -- --game othello --dir runs/o --worker --shard 2/2 --minutes 60
//! cargo run --release --example train -- --game othello --dir runs/o --trainer --resume --minutes 60
//! ```
//!
//! The trained network then plays by name: `gumbel:net=runs/othello/best.safetensors`
//! in the tournament, `play` and `nboard` examples (`puct:net=` and
//! `alphabeta:net=` too).

use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;
use game_arena::registry::RegistryGame;
use game_arena::training::{Mode, TRAINABLE, TrainCommand, preset, train};
use game_traits::PlaneEncoding;
use game_traits::testing::TicTacToe;
use indicatif::{ProgressBar, ProgressStyle};
use self_play::{Event, SearchKind};

#[path = "common/cli.rs"]
mod cli;

#[derive(Parser, Debug)]
#[command(
    name = "train",
    about = "Train a policy-value network for a game by self-play (AlphaZero with Gumbel search)"
)]
struct Cli {
    /// The game: tictactoe, othello, gomoku (15x15 freestyle) or jungle.
    #[arg(long, default_value = "tictactoe")]
    game: String,
    /// Training time in minutes (over every resumption); 0 only creates the run.
    #[arg(long, default_value_t = 3.0)]
    minutes: f64,
    /// The run directory (default runs/<game>).
    #[arg(long)]
    dir: Option<PathBuf>,
    /// Go on with the run in --dir from its last checkpoint.
    #[arg(long)]
    resume: bool,
    /// Self-play only, writing shards for a trainer (needs --shard).
    #[arg(long, requires = "shard", conflicts_with = "trainer")]
    worker: bool,
    /// This worker's part, i/n with 1 <= i <= n.
    #[arg(long, requires = "worker")]
    shard: Option<String>,
    /// Training only, on the workers' shards.
    #[arg(long)]
    trainer: bool,
    /// Stop a worker after this many shards.
    #[arg(long, requires = "worker")]
    max_shards: Option<u64>,
    /// The network: resnet:channels=C,blocks=B,value=V or mlp:W1,W2,...
    #[arg(long)]
    net: Option<String>,
    /// The self-play search: gumbel or puct.
    #[arg(long)]
    search: Option<String>,
    /// Simulations per move in self-play and in the evaluations.
    #[arg(long)]
    sims: Option<u64>,
    /// Self-play games played at once, sharing each network batch.
    #[arg(long)]
    games_at_once: Option<usize>,
    /// Self-play games per round (and per shard).
    #[arg(long)]
    games_per_round: Option<usize>,
    /// Training steps between checkpoints.
    #[arg(long)]
    checkpoint_every: Option<u64>,
    /// Openings per evaluation match (each with both colours).
    #[arg(long)]
    eval_openings: Option<u32>,
    /// The peak learning rate.
    #[arg(long)]
    lr: Option<f64>,
    /// Steps at which the learning rate is multiplied by 0.3, comma-separated.
    #[arg(long)]
    lr_drops: Option<String>,
    /// The seed of the network, the batches, self-play and the evaluations.
    #[arg(long)]
    seed: Option<u64>,
    /// Copy the best network here at the end.
    #[arg(long)]
    export: Option<PathBuf>,
}

fn main() {
    cli::tune_environment();
    let args: Cli = cli::parse();
    let Some(mut config) = preset(&args.game) else {
        cli::usage_error::<Cli>(format!(
            "unknown game {:?}; trainable games: {}",
            args.game,
            TRAINABLE.join(", ")
        ))
    };
    if let Some(net) = &args.net {
        config.architecture = net.clone();
    }
    if let Some(search) = &args.search {
        let kind = match search.as_str() {
            "gumbel" => SearchKind::Gumbel,
            "puct" => SearchKind::Puct,
            other => {
                cli::usage_error::<Cli>(format!("--search {other:?}: expected gumbel or puct"))
            }
        };
        config.self_play.search = kind;
        config.evaluation.search = kind;
    }
    if let Some(sims) = args.sims {
        config.self_play.simulations = sims;
        config.evaluation.simulations = sims;
    }
    if let Some(games) = args.games_at_once {
        config.self_play.games_at_once = games;
    }
    if let Some(games) = args.games_per_round {
        config.games_per_round = games;
    }
    if let Some(every) = args.checkpoint_every {
        config.checkpoint_every = every;
    }
    if let Some(openings) = args.eval_openings {
        config.evaluation.openings = openings;
    }
    if let Some(lr) = args.lr {
        config.train.learning_rate = lr;
    }
    if let Some(drops) = &args.lr_drops {
        config.train.decay_steps = drops
            .split(',')
            .map(|step| {
                step.trim().parse().unwrap_or_else(|_| {
                    cli::usage_error::<Cli>(format!("--lr-drops: {step:?} is not a step number"))
                })
            })
            .collect();
    }
    if let Some(seed) = args.seed {
        config.seed = seed;
        config.self_play.seed = seed;
    }
    let mode = if args.worker {
        let shard = args.shard.as_deref().unwrap_or_default();
        let parsed = shard.split_once('/').and_then(|(index, count)| {
            let (index, count) = (
                index.trim().parse::<u32>().ok()?,
                count.trim().parse::<u32>().ok()?,
            );
            (index >= 1 && index <= count).then_some((index, count))
        });
        let Some((index, count)) = parsed else {
            cli::usage_error::<Cli>(format!(
                "bad shard {shard:?}: expected i/n with 1 <= i <= n, like 2/8"
            ))
        };
        Mode::Worker { index, count }
    } else if args.trainer {
        Mode::Trainer
    } else {
        Mode::Local
    };
    if !args.minutes.is_finite() || args.minutes < 0.0 {
        cli::usage_error::<Cli>(format!(
            "--minutes {}: expected a number >= 0",
            args.minutes
        ));
    }
    let command = TrainCommand {
        dir: args
            .dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("runs").join(&args.game)),
        game: args.game.clone(),
        minutes: args.minutes,
        resume: args.resume,
        mode,
        config,
        max_shards: args.max_shards,
        export: args.export.clone(),
    };
    let result = match args.game.as_str() {
        "tictactoe" => run::<TicTacToe>(&command),
        "othello" => run::<bitboard_othello::Board>(&command),
        "gomoku" => run::<gomoku_renju::Focused>(&command),
        _ => run::<dou_shou_qi::Jungle>(&command),
    };
    match result {
        Ok(best) => println!("best network: {}", best.display()),
        Err(error) => {
            eprintln!("error: {error}");
            std::process::exit(1);
        }
    }
}

fn run<G: RegistryGame + PlaneEncoding>(
    command: &TrainCommand,
) -> Result<PathBuf, self_play::TrainError> {
    let seconds = (command.minutes * 60.0).round() as u64;
    let bar = ProgressBar::new(seconds.max(1));
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} s  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let started = Instant::now();
    let mut games = 0;
    let mut last_elo = String::new();
    let mut on_event = |event: Event| {
        bar.set_position(started.elapsed().as_secs().min(seconds));
        match event {
            Event::SelfPlay { games: played, .. } => games = played,
            Event::Trained { step, losses } => bar.set_message(format!(
                "step {step}, games {games}, loss {:.3} + {:.3}{last_elo}",
                losses.policy, losses.value
            )),
            Event::Checkpoint(record) => {
                let matches: Vec<String> = record
                    .matches
                    .iter()
                    .map(|m| {
                        format!(
                            "{} {:+.0} ({:+.0}, {:+.0})",
                            m.opponent, m.elo, m.elo_low, m.elo_high
                        )
                    })
                    .collect();
                last_elo = format!(", Elo vs {}", matches.join(", "));
                let line = format!(
                    "step {} at {:.1} min: {} games, loss {:.3} + {:.3}, {}{}",
                    record.step,
                    record.seconds / 60.0,
                    record.games,
                    record.policy_loss,
                    record.value_loss,
                    matches.join(", "),
                    if record.promoted { ", new best" } else { "" }
                );
                if bar.is_hidden() {
                    println!("{line}");
                } else {
                    bar.println(line);
                }
            }
            Event::Waiting => bar.set_message("waiting for workers' shards"),
            _ => {}
        }
    };
    let result = train::<G>(command, &mut on_event);
    bar.finish_and_clear();
    result
}
