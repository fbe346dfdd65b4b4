//! Training on tic-tac-toe: the loss falls within seconds, runs repeat
//! exactly, checkpoints resume, and a non-finite loss stops training with
//! the last good checkpoint kept.

use game_traits::Evaluator;
use game_traits::testing::TicTacToe;
use self_play::{
    Architecture, Event, Losses, Network, Run, RunConfig, TrainConfig, TrainError, Trainer,
    TrainingBatch,
};

mod common;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("self-play-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A run that trains a small network in seconds.
fn quick_config() -> RunConfig {
    let mut config = RunConfig::default();
    config.architecture = "mlp:32,32".to_string();
    config.self_play.simulations = 8;
    config.self_play.considered_actions = 9;
    config.self_play.games_at_once = 32;
    config.self_play.opening_plies = 4;
    config.games_per_round = 32;
    config.train.batch_size = 64;
    config.train.learning_rate = 0.003;
    config.train.warmup_steps = 10;
    config.sample_reuse = 8.0;
    config.window = 5_000;
    config.min_samples = 200;
    config.checkpoint_every = 50;
    config.evaluation.openings = 2;
    config.evaluation.simulations = 8;
    config.evaluation.considered_actions = 9;
    config.seed = 11;
    config
}

/// Every step's losses over `rounds` rounds of self-play and training.
fn losses_of(run: &mut Run<TicTacToe>, rounds: usize) -> Vec<Losses> {
    let mut losses = Vec::new();
    for _ in 0..rounds {
        run.self_play_round().unwrap();
        while run.steps_due() > 0 {
            losses.push(run.train_step().unwrap());
        }
    }
    losses
}

/// Rounds through the run's own loop, checkpoints included.
fn train_rounds(run: &mut Run<TicTacToe>, rounds: usize) {
    for _ in 0..rounds {
        run.self_play_round().unwrap();
        run.train_due(&[], &mut |_: Event| {}).unwrap();
    }
}

#[test]
fn the_loss_falls_and_the_checkpoint_round_trips() {
    let dir = scratch("falls");
    let mut run = Run::create(&dir, TicTacToe::new(), quick_config()).unwrap();
    let mut first = None;
    let mut last = Losses::default();
    for _ in 0..12 {
        run.self_play_round().unwrap();
        for _ in 0..40 {
            let losses = run.train_step().unwrap();
            first.get_or_insert(losses);
            last = losses;
        }
    }
    let first = first.unwrap();
    assert!(
        last.total(1.0) < 0.8 * first.total(1.0),
        "loss {first:?} -> {last:?}"
    );
    // A checkpoint holds the network, the optimiser and the step: resuming
    // gives the same network and the same next step.
    let record = run.checkpoint(&[]).unwrap();
    assert_eq!(record.step, run.trainer().step());
    assert_eq!(record.matches.len(), 1, "the best network so far");
    let path = dir.join(&record.file);
    let resumed = Trainer::resume(&path, &TicTacToe::new(), quick_config().train).unwrap();
    assert_eq!(resumed.step(), run.trainer().step());
    let (ours, theirs): (Network<TicTacToe>, Network<TicTacToe>) =
        (run.trainer().network().unwrap(), resumed.network().unwrap());
    let position = TicTacToe::from_moves(&[4, 0]).unwrap();
    assert_eq!(ours.value(&position), theirs.value(&position));
    // The checkpoint is a network file too.
    let loaded = Network::load(&path, &TicTacToe::new()).unwrap();
    assert_eq!(loaded.value(&position), ours.value(&position));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_seed_gives_the_same_losses() {
    let (a, b) = (scratch("same-a"), scratch("same-b"));
    let mut config = quick_config();
    config.checkpoint_every = 1_000_000;
    let mut first = Run::create(&a, TicTacToe::new(), config.clone()).unwrap();
    let mut second = Run::create(&b, TicTacToe::new(), config).unwrap();
    let (x, y) = (losses_of(&mut first, 8), losses_of(&mut second, 8));
    assert!(x.len() >= 100, "{} steps", x.len());
    assert_eq!(x, y);
    // Not a constant: the losses move.
    assert!(x.windows(2).any(|pair| pair[0] != pair[1]));
    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}

#[test]
fn a_resumed_run_goes_on_from_its_last_checkpoint_and_keeps_its_shards() {
    let dir = scratch("resume");
    let config = quick_config();
    let mut run = Run::create(&dir, TicTacToe::new(), config.clone()).unwrap();
    train_rounds(&mut run, 6);
    let (step, games) = (run.trainer().step(), run.games());
    let checkpointed = run.records().last().map_or(0, |record| record.step);
    assert!(checkpointed > 0 && checkpointed <= step);
    drop(run); // as a kill would leave it
    let mut resumed = Run::resume(&dir, TicTacToe::new()).unwrap();
    assert_eq!(resumed.trainer().step(), checkpointed);
    assert_eq!(resumed.games(), games, "every shard is taken in again");
    assert!(
        step - checkpointed <= config.checkpoint_every,
        "at most one interval lost"
    );
    // The steps lost are taken again, then training goes on.
    train_rounds(&mut resumed, 1);
    assert!(resumed.trainer().step() > step);
    // A second start in the same directory is refused.
    assert!(matches!(
        Run::create(&dir, TicTacToe::new(), config),
        Err(TrainError::Run { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_non_finite_loss_stops_training_and_leaves_the_weights() {
    let start = TicTacToe::new();
    let mut trainer =
        Trainer::new(&start, Architecture::mlp([16]), TrainConfig::default(), 1).unwrap();
    let before: Network<TicTacToe> = trainer.network().unwrap();
    let batch = TrainingBatch {
        size: 2,
        planes: vec![0.0; 27 * 2],
        policy: vec![1.0 / 9.0; 18],
        values: vec![0.0, f32::NAN],
    };
    let error = trainer.train_step(&batch).unwrap_err();
    assert!(
        matches!(error, TrainError::NonFiniteLoss { step: 0, .. }),
        "{error}"
    );
    assert_eq!(trainer.step(), 0);
    let after: Network<TicTacToe> = trainer.network().unwrap();
    assert_eq!(before.value(&start), after.value(&start));
}

/// Tic-tac-toe whose planes are 1e30 where they should be 1.
type Loud = common::Recoded<{ common::LOUD }>;

#[test]
fn a_run_whose_loss_diverges_stops_and_names_its_last_good_checkpoint() {
    let dir = scratch("diverge");
    let mut run: Run<Loud> =
        Run::create(&dir, common::Recoded(TicTacToe::new()), quick_config()).unwrap();
    run.self_play_round().unwrap();
    let error = run.train_step().unwrap_err();
    let TrainError::NonFiniteLoss { last_good, .. } = &error else {
        panic!("{error}");
    };
    assert!(last_good.ends_with("step-00000000.safetensors"), "{error}");
    assert!(error.to_string().contains("not finite"), "{error}");
    // The checkpoint named is whole, and the network is unchanged.
    let kept = Network::load(last_good, &common::Recoded(TicTacToe::new())).unwrap();
    let current: Network<Loud> = run.trainer().network().unwrap();
    let position = common::Recoded(TicTacToe::from_moves(&[4]).unwrap());
    assert_eq!(kept.value(&position), current.value(&position));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_settings_are_refused_with_their_name() {
    let mut config = quick_config();
    config.train.learning_rate = -1.0;
    let error = Run::create(scratch("bad"), TicTacToe::new(), config).unwrap_err();
    assert!(error.to_string().contains("learning_rate"), "{error}");
    let mut config = quick_config();
    config.self_play.simulations = 0;
    let error = Run::create(scratch("bad2"), TicTacToe::new(), config).unwrap_err();
    assert!(error.to_string().contains("simulations"), "{error}");
    let mut config = quick_config();
    config.architecture = "mlp:0".to_string();
    assert!(matches!(
        Run::create(scratch("bad3"), TicTacToe::new(), config),
        Err(TrainError::Net(_))
    ));
    assert!(matches!(
        Run::<TicTacToe>::resume(scratch("nothing-here"), TicTacToe::new()),
        Err(TrainError::Run { .. })
    ));
}
