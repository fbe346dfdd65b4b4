//! Training a network for a game of the registry with the `self-play`
//! crate: presets per game, the game's hand-written policy as the fixed
//! opponent of every checkpoint, and the three ways to run (one process,
//! self-play workers, a trainer fed by workers). The `train` example is a
//! command line over [`train`].

use std::path::PathBuf;
use std::time::Duration;

use game_traits::PlaneEncoding;
use self_play::arena::{Opponent, play_searcher};
use self_play::{Event, Run, RunConfig, SearchKind, TrainError, run_worker};

use crate::registry::RegistryGame;

/// The games a network can be trained for, by registry name.
pub const TRAINABLE: &[&str] = &["tictactoe", "othello", "gomoku", "jungle"];

/// How one `train` command runs.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Mode {
    /// Self-play and training in turn in this process.
    Local,
    /// Self-play only: worker `index` of `count` (from 1) writes shards.
    Worker {
        /// This worker, from 1.
        index: u32,
        /// The number of workers.
        count: u32,
    },
    /// Training only, on the shards that workers write.
    Trainer,
}

/// A `train` command: the game, the run directory, how long, and what to
/// change from the game's preset.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainCommand {
    /// The game's registry name.
    pub game: String,
    /// The run directory.
    pub dir: PathBuf,
    /// Training time (over every resumption); for a worker, its own time.
    pub minutes: f64,
    /// Go on with the run in `dir` rather than start one.
    pub resume: bool,
    /// How to run.
    pub mode: Mode,
    /// The settings of a new run (ignored when resuming: the run's own are
    /// read back).
    pub config: RunConfig,
    /// For a worker: stop after this many shards.
    pub max_shards: Option<u64>,
    /// Copy the best network here at the end.
    pub export: Option<PathBuf>,
}

/// The preset of `game` (a name of [`TRAINABLE`]): the settings the
/// `train` example starts from.
pub fn preset(game: &str) -> Option<RunConfig> {
    let mut config = RunConfig::default();
    match game {
        "tictactoe" => {
            config.architecture = "mlp:128,128".to_string();
            config.self_play.simulations = 16;
            config.self_play.considered_actions = 9;
            config.self_play.games_at_once = 64;
            config.self_play.opening_plies = 6;
            config.games_per_round = 128;
            config.train.batch_size = 128;
            config.train.learning_rate = 0.003;
            config.train.warmup_steps = 20;
            config.train.search_value_weight = 0.5;
            config.sample_reuse = 12.0;
            config.window = 20_000;
            config.min_samples = 500;
            config.checkpoint_every = 300;
            config.evaluation.simulations = 16;
            config.evaluation.considered_actions = 9;
            config.evaluation.opening_plies = 2;
        }
        "othello" => {
            // An MLP: on two cores it plays about ten times as many
            // self-play games as a residual network of 32 channels, and
            // learned faster in equal time (docs/results.md).
            config.architecture = "mlp:1024,512".to_string();
            config.self_play.simulations = 32;
            config.self_play.games_at_once = 128;
            config.self_play.opening_plies = 4;
            config.games_per_round = 256;
            config.sample_reuse = 4.0;
            config.window = 1_000_000;
            config.min_samples = 10_000;
            config.checkpoint_every = 5_000;
            config.train.decay_steps = vec![60_000, 85_000];
        }
        "gomoku" => {
            config.architecture = "resnet:channels=32,blocks=4,value=64".to_string();
            config.self_play.simulations = 32;
            config.self_play.games_at_once = 32;
            config.self_play.opening_plies = 2;
            config.games_per_round = 32;
            config.window = 200_000;
            config.min_samples = 2_000;
            config.checkpoint_every = 500;
            config.evaluation.openings = 5;
        }
        "jungle" => {
            config.architecture = "resnet:channels=32,blocks=4,value=64".to_string();
            config.self_play.simulations = 32;
            config.self_play.opening_plies = 4;
            config.self_play.max_plies = 300;
            config.evaluation.max_plies = 300;
            config.games_per_round = 64;
            config.min_samples = 2_000;
            config.checkpoint_every = 500;
            config.evaluation.openings = 5;
        }
        _ => return None,
    }
    Some(config)
}

/// The fixed opponent of every checkpoint: the game's hand-written policy
/// in the same search at the same simulations.
///
/// # Errors
///
/// [`TrainError::Searcher`] for settings the searcher refuses.
pub fn heuristic_opponent<G: RegistryGame + PlaneEncoding>(
    config: &RunConfig,
) -> Result<Opponent<G>, TrainError> {
    let evaluation = config.evaluation.clone();
    // Built once to check the settings, so the factory cannot fail.
    play_searcher::<G, _>(
        G::policy(),
        evaluation.search,
        evaluation.simulations,
        evaluation.considered_actions,
        0,
    )?;
    let name = match evaluation.search {
        SearchKind::Gumbel => "gumbel+heuristic",
        SearchKind::Puct => "puct+heuristic",
    };
    Ok(Opponent::new(name, move |seed| {
        play_searcher::<G, _>(
            G::policy(),
            evaluation.search,
            evaluation.simulations,
            evaluation.considered_actions,
            seed,
        )
        .unwrap_or_else(|_| unreachable!("checked when the opponent was made"))
    }))
}

/// Runs `command` on game `G`, reporting progress to `events`; returns
/// the run directory's best network file.
///
/// # Errors
///
/// The run's errors (settings, files, a non-finite loss).
pub fn train<G: RegistryGame + PlaneEncoding>(
    command: &TrainCommand,
    events: &mut dyn FnMut(Event),
) -> Result<PathBuf, TrainError> {
    let budget = Duration::from_secs_f64(command.minutes.max(0.0) * 60.0);
    let start = G::start();
    let dir = &command.dir;
    match command.mode {
        Mode::Worker { index, count } => {
            run_worker(
                dir,
                &start,
                index,
                count,
                budget,
                command.max_shards,
                events,
            )?;
        }
        Mode::Local | Mode::Trainer => {
            let mut run = if command.resume {
                Run::resume(dir, start)?
            } else {
                Run::create(dir, start, command.config.clone())?
            };
            let opponents = [heuristic_opponent::<G>(run.config())?];
            if command.mode == Mode::Trainer {
                run.train_from_workers(budget, Duration::from_millis(500), &opponents, events)?;
            } else {
                run.train_for(budget, &opponents, events)?;
            }
        }
    }
    let best = dir.join("best.safetensors");
    if let Some(export) = &command.export {
        std::fs::copy(&best, export).map_err(|error| TrainError::Run {
            action: "copy the best network to",
            path: export.clone(),
            reason: error.to_string(),
        })?;
    }
    Ok(best)
}
