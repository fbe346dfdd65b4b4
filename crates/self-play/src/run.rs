//! A training run in a directory: self-play rounds and training steps in
//! turn (or self-play in separate worker processes and a trainer that
//! picks up their shards), checkpoints evaluated against the best network
//! so far and fixed opponents, a log, a chart, and resumption after a
//! kill.
//!
//! ```text
//! run.json                  the run's settings (read back by --resume and by workers)
//! log.jsonl                 one line per checkpoint: step, time, games, losses, matches
//! chart.svg                 losses and Elo against training time
//! best.safetensors          the best network so far (a plain network file)
//! checkpoints/latest        the name of the newest checkpoint
//! checkpoints/step-N.safetensors   network, optimiser state and step
//! shards/local-SSSSSS.shard         this process's self-play samples, by sequence
//! shards/wIIIofNNN-SSSSSS.shard     worker I of N's (from 1), by sequence
//! ```

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use game_traits::PlaneEncoding;
use game_traits::zobrist::mix64;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::arena::{EvalConfig, MatchResult, Opponent, network_player, play_match};
use crate::chart::training_chart;
use crate::file::write_atomically;
use crate::shard::{ShardHeader, list_shards, read_shard, write_shard};
use crate::{
    Architecture, Augmenter, Losses, Network, ReplayWindow, SelfPlayConfig, TrainConfig,
    TrainError, Trainer, play_games,
};

/// Everything a run is set up with, saved as `run.json`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct RunConfig {
    /// The network's architecture, as text (`resnet:channels=32,blocks=4,value=64`).
    pub architecture: String,
    /// How self-play games are played.
    pub self_play: SelfPlayConfig,
    /// How the network learns.
    pub train: TrainConfig,
    /// How checkpoints are evaluated.
    pub evaluation: EvalConfig,
    /// Self-play games per round (and per shard) (default 64).
    pub games_per_round: usize,
    /// Training samples drawn per self-play sample taken in: the steps a
    /// round earns are `new samples * reuse / batch size` (default 4).
    pub sample_reuse: f64,
    /// Samples kept in the replay window (default 200,000).
    pub window: usize,
    /// No training before the window holds this many (default 2,000).
    pub min_samples: usize,
    /// Steps between checkpoints (default 500).
    pub checkpoint_every: u64,
    /// Seeds the network, the batches and the evaluations (self-play has
    /// its own seed).
    pub seed: u64,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            architecture: "resnet:channels=32,blocks=4,value=64".to_string(),
            self_play: SelfPlayConfig::default(),
            train: TrainConfig::default(),
            evaluation: EvalConfig::default(),
            games_per_round: 64,
            sample_reuse: 4.0,
            window: 200_000,
            min_samples: 2_000,
            checkpoint_every: 500,
            seed: 0,
        }
    }
}

impl RunConfig {
    /// Checks every setting.
    ///
    /// # Errors
    ///
    /// [`TrainError::Config`] (or the searcher's or architecture's error)
    /// for the first setting out of range.
    pub fn validate(&self) -> Result<Architecture, TrainError> {
        let bad = |name, value: String, expected: &str| {
            Err(TrainError::Config {
                name,
                value,
                expected: expected.to_string(),
            })
        };
        if self.games_per_round == 0 || self.games_per_round > 1 << 20 {
            return bad(
                "games_per_round",
                self.games_per_round.to_string(),
                "1 to 2^20",
            );
        }
        if !(self.sample_reuse.is_finite()
            && self.sample_reuse > 0.0
            && self.sample_reuse <= 1000.0)
        {
            return bad(
                "sample_reuse",
                self.sample_reuse.to_string(),
                "a number in (0, 1000]",
            );
        }
        if self.window == 0 {
            return bad("window", "0".to_string(), "at least 1");
        }
        if self.checkpoint_every == 0 {
            return bad("checkpoint_every", "0".to_string(), "at least 1");
        }
        if self.evaluation.openings == 0 {
            return bad("evaluation.openings", "0".to_string(), "at least 1");
        }
        self.self_play.validate()?;
        self.train.validate()?;
        let architecture: Architecture = self.architecture.parse()?;
        Ok(architecture)
    }
}

/// One line of `log.jsonl`: a checkpoint and how it played.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CheckpointRecord {
    /// Training steps so far.
    pub step: u64,
    /// Training time so far, in seconds (over every resumption).
    pub seconds: f64,
    /// Self-play games taken in so far.
    pub games: u64,
    /// Samples taken in so far.
    pub samples: u64,
    /// Mean policy loss over the steps since the last checkpoint.
    pub policy_loss: f32,
    /// Mean value loss over those steps.
    pub value_loss: f32,
    /// The learning rate at this step.
    pub learning_rate: f64,
    /// Its matches: against the best network so far (`best`), then each
    /// fixed opponent.
    pub matches: Vec<MatchResult>,
    /// Whether it became the best network.
    pub promoted: bool,
    /// Its file, relative to the run directory.
    pub file: String,
}

/// What happens during a run, for progress displays.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Event {
    /// A self-play round (or a worker's shard) was taken in.
    SelfPlay {
        /// Games taken in so far.
        games: u64,
        /// Samples in the replay window.
        window: usize,
    },
    /// Training steps were taken.
    Trained {
        /// Steps so far.
        step: u64,
        /// The losses of the last step.
        losses: Losses,
    },
    /// A checkpoint was written and evaluated.
    Checkpoint(CheckpointRecord),
    /// Waiting for workers' shards.
    Waiting,
}

/// A training run in its directory.
pub struct Run<G> {
    dir: PathBuf,
    config: RunConfig,
    start: G,
    trainer: Trainer,
    best: Network<G>,
    window: ReplayWindow,
    augmenter: Augmenter,
    ingested: HashSet<PathBuf>,
    games: u64,
    next_shard: u64,
    next_game: u64,
    records: Vec<CheckpointRecord>,
    seconds_before: f64,
    started: Instant,
    loss_sum: (f64, f64, u64),
}

impl<G> std::fmt::Debug for Run<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Run")
            .field("dir", &self.dir)
            .field("step", &self.trainer.step())
            .field("games", &self.games)
            .finish_non_exhaustive()
    }
}

fn run_error(action: &'static str, path: &Path, reason: impl std::fmt::Display) -> TrainError {
    TrainError::Run {
        action,
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

fn read_text(path: &Path) -> Result<String, TrainError> {
    std::fs::read_to_string(path).map_err(|error| run_error("read", path, error))
}

fn write_text(path: &Path, text: &str) -> Result<(), TrainError> {
    write_atomically(path, text.as_bytes()).map_err(|error| run_error("write", path, error))
}

/// The writer tag of worker `index` (from 1) of `count` in shard names.
fn writer_tag(index: u32, count: u32) -> String {
    format!("w{index:03}of{count:03}")
}

/// The writer tag of the run's own self-play.
const LOCAL: &str = "local";

impl<G: PlaneEncoding> Run<G> {
    /// Starts a run in `dir` (created if missing; it must not hold a run
    /// yet) from `start`, writes `run.json` and the step-0 checkpoint.
    ///
    /// # Errors
    ///
    /// [`TrainError::Config`] (and kin) for bad settings;
    /// [`TrainError::Run`] if `dir` already holds a run or cannot be
    /// written.
    pub fn create(
        dir: impl AsRef<Path>,
        start: G,
        config: RunConfig,
    ) -> Result<Run<G>, TrainError> {
        let dir = dir.as_ref().to_path_buf();
        let architecture = config.validate()?;
        let settings = dir.join("run.json");
        if settings.exists() {
            return Err(run_error(
                "start a run in",
                &dir,
                "it already holds one (run.json): resume it, or choose another directory",
            ));
        }
        for sub in ["checkpoints", "shards"] {
            std::fs::create_dir_all(dir.join(sub))
                .map_err(|error| run_error("create", &dir.join(sub), error))?;
        }
        let json = serde_json::to_string_pretty(&config).unwrap_or_default();
        write_text(&settings, &json)?;
        let trainer = Trainer::new(&start, architecture, config.train.clone(), config.seed)?;
        let best = trainer.network()?;
        best.save(dir.join("best.safetensors"))?;
        let run = Run::assemble(dir, config, start, trainer, best, Vec::new());
        run.save_checkpoint()?;
        Ok(run)
    }

    /// Goes on with the run in `dir`: the newest checkpoint (network,
    /// optimiser, step), the log, and every shard in the replay window.
    /// Training steps taken after the newest checkpoint are lost (at most
    /// one checkpoint interval); the shards written after it are kept.
    ///
    /// # Errors
    ///
    /// [`TrainError::Run`] if `dir` holds no run; the checkpoint's and
    /// shards' errors if they cannot be read (a shard of another game
    /// included).
    pub fn resume(dir: impl AsRef<Path>, start: G) -> Result<Run<G>, TrainError> {
        let dir = dir.as_ref().to_path_buf();
        let config = read_config(&dir)?;
        config.validate()?;
        let latest = latest_checkpoint(&dir)?;
        let trainer = Trainer::resume(&latest, &start, config.train.clone())?;
        let best = Network::load(dir.join("best.safetensors"), &start)?;
        let log = dir.join("log.jsonl");
        let mut records = Vec::new();
        if log.exists() {
            for line in read_text(&log)?
                .lines()
                .filter(|line| !line.trim().is_empty())
            {
                let record: CheckpointRecord =
                    serde_json::from_str(line).map_err(|error| run_error("read", &log, error))?;
                // Records of checkpoints lost in a kill are dropped.
                if record.step <= trainer.step() {
                    records.push(record);
                }
            }
        }
        let mut run = Run::assemble(dir, config, start, trainer, best, records);
        run.ingest()?;
        Ok(run)
    }

    fn assemble(
        dir: PathBuf,
        config: RunConfig,
        start: G,
        trainer: Trainer,
        best: Network<G>,
        records: Vec<CheckpointRecord>,
    ) -> Run<G> {
        Run {
            augmenter: Augmenter::new(&start, config.train.augment),
            window: ReplayWindow::new(config.window),
            seconds_before: records.last().map_or(0.0, |record| record.seconds),
            dir,
            config,
            start,
            trainer,
            best,
            ingested: HashSet::new(),
            games: 0,
            next_shard: 0,
            next_game: 0,
            records,
            started: Instant::now(),
            loss_sum: (0.0, 0.0, 0),
        }
    }

    /// The settings.
    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// The run's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The trainer.
    pub fn trainer(&self) -> &Trainer {
        &self.trainer
    }

    /// The best network so far.
    pub fn best(&self) -> &Network<G> {
        &self.best
    }

    /// The checkpoints so far, as logged.
    pub fn records(&self) -> &[CheckpointRecord] {
        &self.records
    }

    /// Self-play games taken in.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The replay window.
    pub fn window(&self) -> &ReplayWindow {
        &self.window
    }

    /// Training time so far, over every resumption.
    pub fn seconds(&self) -> f64 {
        self.seconds_before + self.started.elapsed().as_secs_f64()
    }

    /// Plays one self-play round with the current network, writes it as a
    /// shard and takes it in.
    ///
    /// # Errors
    ///
    /// The self-play and shard errors.
    pub fn self_play_round(&mut self) -> Result<(), TrainError> {
        let network = self.trainer.network::<G>()?;
        let numbers: Vec<u64> =
            (self.next_game..self.next_game + self.config.games_per_round as u64).collect();
        let (games, _) = play_games(&self.start, &network, &self.config.self_play, &numbers)?;
        let samples: Vec<_> = games.into_iter().flat_map(|game| game.samples).collect();
        let header = self.shard_header(numbers.len() as u64, self.next_game, LOCAL.to_string());
        let path = self
            .dir
            .join("shards")
            .join(format!("{LOCAL}-{:06}.shard", self.next_shard));
        write_shard(&path, &header, &samples)?;
        self.ingest()?;
        Ok(())
    }

    fn shard_header(&self, games: u64, first_game: u64, writer: String) -> ShardHeader {
        ShardHeader {
            encoding: self.start.encoding(),
            planes: self.start.plane_shape().to_string(),
            policy_len: self.start.policy_len(),
            games,
            samples: 0,
            network_step: self.trainer.step(),
            first_game,
            writer,
        }
    }

    /// Takes in the shards not taken in yet (by name, so in writer and
    /// sequence order); returns how many.
    ///
    /// # Errors
    ///
    /// A shard that cannot be read or holds another game's samples.
    pub fn ingest(&mut self) -> Result<usize, TrainError> {
        let shards_dir = self.dir.join("shards");
        let mut count = 0;
        for path in list_shards(&shards_dir)? {
            if self.ingested.contains(&path) {
                continue;
            }
            let shard = read_shard(
                &path,
                &self.start.encoding(),
                self.start.plane_shape(),
                self.start.policy_len(),
            )?;
            self.games += shard.header.games;
            if shard.header.writer == LOCAL {
                self.next_game = self
                    .next_game
                    .max(shard.header.first_game + shard.header.games);
                let sequence = path
                    .file_stem()
                    .and_then(|stem| stem.to_str())
                    .and_then(|stem| stem.rsplit('-').next())
                    .and_then(|number| number.parse::<u64>().ok());
                if let Some(sequence) = sequence {
                    self.next_shard = self.next_shard.max(sequence + 1);
                }
            }
            self.window.extend(shard.samples);
            self.ingested.insert(path);
            count += 1;
        }
        Ok(count)
    }

    /// The training steps the samples taken in so far have earned and not
    /// yet used: `sample_reuse` samples drawn per sample taken in, once
    /// the window holds `min_samples`.
    pub fn steps_due(&self) -> u64 {
        if self.window.len() < self.config.min_samples {
            return 0;
        }
        let earned = self.window.added() as f64 * self.config.sample_reuse
            / self.config.train.batch_size as f64;
        (earned as u64).saturating_sub(self.trainer.step())
    }

    /// One training step on a batch drawn from the window; the batch
    /// depends on the seed and the step only.
    ///
    /// # Errors
    ///
    /// [`TrainError::NonFiniteLoss`] (naming the last good checkpoint) if
    /// the loss is NaN or infinite.
    pub fn train_step(&mut self) -> Result<Losses, TrainError> {
        let step = self.trainer.step();
        let mut rng = Pcg64Mcg::seed_from_u64(mix64(self.config.seed ^ mix64(step ^ 0x7A1)));
        let samples = self.window.draw(self.config.train.batch_size, &mut rng);
        let batch = self
            .augmenter
            .batch(&samples, self.config.train.search_value_weight, &mut rng);
        match self.trainer.train_step(&batch) {
            Ok(losses) => {
                self.loss_sum.0 += f64::from(losses.policy);
                self.loss_sum.1 += f64::from(losses.value);
                self.loss_sum.2 += 1;
                Ok(losses)
            }
            Err(TrainError::NonFiniteLoss {
                step,
                policy_loss,
                value_loss,
                ..
            }) => Err(TrainError::NonFiniteLoss {
                step,
                policy_loss,
                value_loss,
                last_good: latest_checkpoint(&self.dir)
                    .map_or_else(|_| "none".to_string(), |path| path.display().to_string()),
            }),
            Err(other) => Err(other),
        }
    }

    /// Takes the steps earned, writing and evaluating a checkpoint at each
    /// multiple of `checkpoint_every`.
    ///
    /// # Errors
    ///
    /// As [`train_step`](Run::train_step) and
    /// [`checkpoint`](Run::checkpoint).
    pub fn train_due(
        &mut self,
        opponents: &[Opponent<G>],
        events: &mut dyn FnMut(Event),
    ) -> Result<u64, TrainError> {
        let due = self.steps_due();
        let mut last = None;
        for _ in 0..due {
            last = Some(self.train_step()?);
            if self
                .trainer
                .step()
                .is_multiple_of(self.config.checkpoint_every)
            {
                if let Some(losses) = last.take() {
                    events(Event::Trained {
                        step: self.trainer.step(),
                        losses,
                    });
                }
                let record = self.checkpoint(opponents)?;
                events(Event::Checkpoint(record));
            }
        }
        if let Some(losses) = last {
            events(Event::Trained {
                step: self.trainer.step(),
                losses,
            });
        }
        Ok(due)
    }

    fn save_checkpoint(&self) -> Result<PathBuf, TrainError> {
        let name = format!("step-{:08}.safetensors", self.trainer.step());
        let path = self.dir.join("checkpoints").join(&name);
        self.trainer.save_checkpoint(
            &path,
            &[
                ("games", self.games.to_string()),
                ("seconds", format!("{:.1}", self.seconds())),
            ],
        )?;
        write_text(&self.dir.join("checkpoints").join("latest"), &name)?;
        Ok(path)
    }

    /// Writes a checkpoint, plays it against the best network so far and
    /// against `opponents`, promotes it if it beats the best by the
    /// configured score, logs it and redraws the chart.
    ///
    /// # Errors
    ///
    /// The checkpoint's write errors; [`TrainError::Match`] if a searcher
    /// fails in a match.
    pub fn checkpoint(
        &mut self,
        opponents: &[Opponent<G>],
    ) -> Result<CheckpointRecord, TrainError> {
        let path = self.save_checkpoint()?;
        let network = self.trainer.network::<G>()?;
        let evaluation = &self.config.evaluation;
        let player = network_player(&network, evaluation)?;
        let mut best = network_player(&self.best, evaluation)?;
        best.name = "best".to_string();
        let seed = mix64(self.config.seed ^ self.trainer.step());
        let mut matches = vec![play_match(&self.start, &player, &best, evaluation, seed)?];
        for opponent in opponents {
            matches.push(play_match(
                &self.start,
                &player,
                opponent,
                evaluation,
                seed,
            )?);
        }
        let promoted = matches[0].score > evaluation.promote_score;
        if promoted {
            network.save(self.dir.join("best.safetensors"))?;
            self.best = network;
        }
        let (policy_sum, value_sum, count) = self.loss_sum;
        let count = count.max(1) as f64;
        self.loss_sum = (0.0, 0.0, 0);
        let record = CheckpointRecord {
            step: self.trainer.step(),
            seconds: self.seconds(),
            games: self.games,
            samples: self.window.added(),
            policy_loss: (policy_sum / count) as f32,
            value_loss: (value_sum / count) as f32,
            learning_rate: self.trainer.config().learning_rate_at(self.trainer.step()),
            matches,
            promoted,
            file: format!(
                "checkpoints/{}",
                path.file_name()
                    .and_then(|name| name.to_str())
                    .unwrap_or_default()
            ),
        };
        self.records.push(record.clone());
        let log: String = self
            .records
            .iter()
            .map(|record| serde_json::to_string(record).unwrap_or_default() + "\n")
            .collect();
        write_text(&self.dir.join("log.jsonl"), &log)?;
        let title = format!(
            "{} - {}",
            self.start.encoding(),
            self.trainer.spec().architecture
        );
        write_text(
            &self.dir.join("chart.svg"),
            &training_chart(&title, &self.records),
        )?;
        Ok(record)
    }

    /// Self-play rounds and training in turn until `budget` of training
    /// time has passed (over every resumption), then a last checkpoint.
    ///
    /// # Errors
    ///
    /// The first error of self-play, training or a checkpoint; what was
    /// written before it stays.
    pub fn train_for(
        &mut self,
        budget: Duration,
        opponents: &[Opponent<G>],
        events: &mut dyn FnMut(Event),
    ) -> Result<(), TrainError> {
        while self.seconds() < budget.as_secs_f64() {
            self.self_play_round()?;
            events(Event::SelfPlay {
                games: self.games,
                window: self.window.len(),
            });
            self.train_due(opponents, events)?;
        }
        self.finish(opponents, events)
    }

    /// Trains on the shards that workers write, taking them in as they
    /// appear, until `budget` of training time has passed; then a last
    /// checkpoint. Polls the shard directory every `poll` when nothing is
    /// due.
    ///
    /// # Errors
    ///
    /// As [`train_for`](Run::train_for).
    pub fn train_from_workers(
        &mut self,
        budget: Duration,
        poll: Duration,
        opponents: &[Opponent<G>],
        events: &mut dyn FnMut(Event),
    ) -> Result<(), TrainError> {
        while self.seconds() < budget.as_secs_f64() {
            if self.ingest()? > 0 {
                events(Event::SelfPlay {
                    games: self.games,
                    window: self.window.len(),
                });
            }
            if self.train_due(opponents, events)? == 0 {
                events(Event::Waiting);
                std::thread::sleep(poll);
            }
        }
        self.finish(opponents, events)
    }

    fn finish(
        &mut self,
        opponents: &[Opponent<G>],
        events: &mut dyn FnMut(Event),
    ) -> Result<(), TrainError> {
        let last = self.records.last().map_or(0, |record| record.step);
        if self.trainer.step() > last {
            let record = self.checkpoint(opponents)?;
            events(Event::Checkpoint(record));
        }
        Ok(())
    }
}

/// The settings of the run in `dir`.
///
/// # Errors
///
/// [`TrainError::Run`] if `dir` holds no run or its `run.json` is
/// unreadable.
pub fn read_config(dir: &Path) -> Result<RunConfig, TrainError> {
    let path = dir.join("run.json");
    let text = read_text(&path)?;
    serde_json::from_str(&text).map_err(|error| run_error("read", &path, error))
}

/// The newest checkpoint of the run in `dir`.
///
/// # Errors
///
/// [`TrainError::Run`] if there is none.
pub fn latest_checkpoint(dir: &Path) -> Result<PathBuf, TrainError> {
    let pointer = dir.join("checkpoints").join("latest");
    let name = read_text(&pointer)?;
    Ok(dir.join("checkpoints").join(name.trim()))
}

/// A self-play worker: plays rounds with the run's newest checkpoint
/// (reloaded as the trainer writes new ones) and writes each as a shard
/// named for worker `index` (from 1, as `--shard i/n` counts) of `count`,
/// until `budget` has passed or `max_shards` are written. Workers' games
/// are numbered apart (`index - 1 + count * k`), so any number of them,
/// anywhere the run directory is shared, play different games.
///
/// # Errors
///
/// [`TrainError::Run`] if `dir` holds no run; [`TrainError::Config`] if
/// `index` is not in `1..=count`; network and shard errors.
pub fn run_worker<G: PlaneEncoding>(
    dir: impl AsRef<Path>,
    start: &G,
    index: u32,
    count: u32,
    budget: Duration,
    max_shards: Option<u64>,
    events: &mut dyn FnMut(Event),
) -> Result<u64, TrainError> {
    let dir = dir.as_ref();
    if index == 0 || index > count {
        return Err(TrainError::Config {
            name: "shard",
            value: format!("{index}/{count}"),
            expected: "i/n with 1 <= i <= n".to_string(),
        });
    }
    let config = read_config(dir)?;
    config.validate()?;
    let started = Instant::now();
    let tag = writer_tag(index, count);
    // Go on after the shards this worker already wrote.
    let mut sequence = list_shards(&dir.join("shards"))?
        .iter()
        .filter_map(|path| {
            path.file_stem()?
                .to_str()?
                .strip_prefix(&format!("{tag}-"))?
                .parse::<u64>()
                .ok()
        })
        .map(|sequence| sequence + 1)
        .max()
        .unwrap_or(0);
    let mut loaded: Option<(PathBuf, Network<G>, u64)> = None;
    let mut written = 0;
    while started.elapsed() < budget && max_shards.is_none_or(|max| written < max) {
        let latest = latest_checkpoint(dir)?;
        if loaded.as_ref().is_none_or(|(path, _, _)| *path != latest) {
            let (_, metadata) = crate::file::inspect(&latest)?;
            let step = metadata
                .get("step")
                .and_then(|step| step.parse().ok())
                .unwrap_or(0);
            loaded = Some((latest.clone(), Network::load(&latest, start)?, step));
        }
        let Some((_, network, step)) = &loaded else {
            unreachable!("loaded above")
        };
        let per_round = config.games_per_round as u64;
        let numbers: Vec<u64> = (0..per_round)
            .map(|game| (sequence * per_round + game) * u64::from(count) + u64::from(index - 1))
            .collect();
        let (games, _) = play_games(start, network, &config.self_play, &numbers)?;
        let samples: Vec<_> = games.into_iter().flat_map(|game| game.samples).collect();
        let header = ShardHeader {
            encoding: start.encoding(),
            planes: start.plane_shape().to_string(),
            policy_len: start.policy_len(),
            games: per_round,
            samples: 0,
            network_step: *step,
            first_game: numbers[0],
            writer: tag.clone(),
        };
        let path = dir
            .join("shards")
            .join(format!("{tag}-{sequence:06}.shard"));
        write_shard(&path, &header, &samples)?;
        sequence += 1;
        written += 1;
        events(Event::SelfPlay {
            games: written * per_round,
            window: samples.len(),
        });
    }
    Ok(written)
}
