//! The `train` example through its command line: separate self-play
//! worker processes feeding one trainer, a run killed and resumed, a
//! trained network playing by name in the tournament, and bad arguments.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::example;

/// A tic-tac-toe run small enough to train in seconds.
const SMALL: &[&str] = &[
    "--game",
    "tictactoe",
    "--net",
    "mlp:32,32",
    "--sims",
    "8",
    "--games-per-round",
    "32",
    "--games-at-once",
    "32",
    "--checkpoint-every",
    "40",
    "--eval-openings",
    "2",
];

fn train(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(example("train"));
    command
        .args(SMALL)
        .arg("--dir")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn finish(child: Child) -> Output {
    let output = child.wait_with_output().expect("the example ends");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("game-search-train-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The log's records as (step, games) pairs.
fn log(dir: &Path) -> Vec<(u64, u64)> {
    let Ok(text) = std::fs::read_to_string(dir.join("log.jsonl")) else {
        return Vec::new();
    };
    text.lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            (
                value["step"].as_u64().expect("a step"),
                value["games"].as_u64().expect("a game count"),
            )
        })
        .collect()
}

#[test]
fn two_worker_processes_feed_one_trainer() {
    let dir = scratch("workers");
    // Create the run, then start the workers and the trainer together.
    finish(train(&dir, &["--minutes", "0"]).spawn().expect("starts"));
    let workers: Vec<Child> = ["1/2", "2/2"]
        .iter()
        .map(|shard| {
            train(
                &dir,
                &[
                    "--worker",
                    "--shard",
                    shard,
                    "--max-shards",
                    "4",
                    "--minutes",
                    "5",
                ],
            )
            .spawn()
            .expect("a worker starts")
        })
        .collect();
    let trainer = train(&dir, &["--trainer", "--resume", "--minutes", "0.4"])
        .spawn()
        .expect("the trainer starts");
    for worker in workers {
        finish(worker);
    }
    finish(trainer);
    let shards: Vec<String> = std::fs::read_dir(dir.join("shards"))
        .expect("a shard directory")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    for worker in ["w001of002", "w002of002"] {
        let count = shards
            .iter()
            .filter(|name| name.starts_with(worker))
            .count();
        assert_eq!(count, 4, "{worker}: {shards:?}");
    }
    // The trainer took in both workers' games (4 shards of 32 each) and
    // trained on them.
    let records = log(&dir);
    let &(step, games) = records.last().expect("checkpoints");
    assert_eq!(games, 2 * 4 * 32, "{records:?}");
    assert!(step > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_run_resumes_from_its_last_checkpoint() {
    let dir = scratch("resume");
    let mut child = train(&dir, &["--minutes", "3"]).spawn().expect("starts");
    let started = Instant::now();
    while log(&dir).len() < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no checkpoints"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().expect("the run is killed");
    let _ = child.wait();
    let before = log(&dir);
    let seconds: f64 = {
        let text = std::fs::read_to_string(dir.join("log.jsonl")).expect("a log");
        let last = text.lines().last().expect("a line");
        let value: serde_json::Value = serde_json::from_str(last).expect("JSON");
        value["seconds"].as_f64().expect("seconds")
    };
    // Resume for a few seconds more than the run had.
    let minutes = format!("{:.3}", (seconds + 4.0) / 60.0);
    let output = finish(
        train(&dir, &["--resume", "--minutes", &minutes])
            .spawn()
            .expect("starts"),
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("best network"));
    let after = log(&dir);
    // Every checkpoint logged before the kill is kept, and training went
    // on from the last one.
    assert_eq!(&after[..before.len()], &before[..], "{after:?}");
    assert!(after.len() > before.len());
    assert!(after.last().expect("records").0 > before.last().expect("records").0);
    // The trained network plays by name.
    let net = format!(
        "gumbel:sims=8,net={}",
        dir.join("best.safetensors").display()
    );
    let tournament = Command::new(example("tournament"))
        .args([
            net.as_str(),
            "random",
            "--game",
            "tictactoe",
            "--games",
            "4",
        ])
        .output()
        .expect("the tournament runs");
    assert!(
        tournament.status.success(),
        "{}",
        String::from_utf8_lossy(&tournament.stderr)
    );
    // Another game's network is refused with the reason.
    let wrong = Command::new(example("tournament"))
        .args([net.as_str(), "random", "--game", "othello", "--games", "2"])
        .output()
        .expect("the tournament runs");
    assert!(!wrong.status.success());
    let stderr = String::from_utf8_lossy(&wrong.stderr);
    assert!(stderr.contains("tictactoe/v1"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_are_refused() {
    let dir = scratch("bad");
    for args in [
        &["--game", "chess"][..],
        &["--worker"],
        &["--worker", "--shard", "3/2"],
        &["--worker", "--shard", "x"],
        &["--minutes", "-1"],
        &["--search", "alphabeta"],
        &["--lr-drops", "10,x"],
    ] {
        let output = Command::new(example("train"))
            .args(args)
            .arg("--dir")
            .arg(&dir)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("Usage:"), "{args:?}: {stderr}");
    }
    // Settings the run refuses, and a resume of nothing, exit 1 with the
    // reason.
    for (args, reason) in [
        (&["--net", "mlp:0"][..], "architecture"),
        (&["--resume"], "run.json"),
        (&["--lr", "100"], "learning_rate"),
    ] {
        let output = Command::new(example("train"))
            .args(["--game", "tictactoe", "--minutes", "0", "--dir"])
            .arg(scratch("bad-run"))
            .args(args)
            .output()
            .expect("runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(reason), "{args:?}: {stderr}");
    }
}
