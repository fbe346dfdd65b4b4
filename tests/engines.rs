//! External engines in the tournament command line: the workspace's own
//! Gomocup brain (`pbrain-gomoku`) and NBoard engine (`nboard`) played
//! against themselves through the arena's protocol clients, and scripted
//! fake engines that crash, hang and answer illegal moves, scored as
//! losses with their reasons while the tournament finishes.
#![cfg(unix)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;
use common::example;

fn scratch(test: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("game-search-engines-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn tournament(args: &[String]) -> Output {
    Command::new(example("tournament"))
        .args(args)
        .output()
        .expect("the tournament runs")
}

/// The game records of a results file.
fn games(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("a results file")
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("a JSON line"))
        .filter(|value| value["type"] == "game")
        .collect()
}

/// Plays `first` against `second` on `game` for `count` games and returns
/// the records, checking that the tournament succeeded.
fn play(
    test: &str,
    game: &str,
    first: String,
    second: String,
    count: usize,
) -> Vec<serde_json::Value> {
    let dir = scratch(test);
    let out = dir.join("results.jsonl");
    let args = vec![
        "--game".to_string(),
        game.to_string(),
        first,
        second,
        "--games".to_string(),
        count.to_string(),
        "--threads".to_string(),
        "2".to_string(),
        "--quiet".to_string(),
        "--out".to_string(),
        out.display().to_string(),
    ];
    let output = tournament(&args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let records = games(&out);
    let _ = std::fs::remove_dir_all(&dir);
    records
}

fn assert_played_out(records: &[serde_json::Value], count: usize) {
    assert_eq!(records.len(), count, "{records:?}");
    for record in records {
        assert!(record["forfeit"].is_null(), "{record}");
        let plies = record["plies"].as_u64().expect("plies");
        assert!(plies >= 9, "{record}");
        let moves = record["moves"].as_str().expect("moves");
        // The moves hold the 4 random opening plies before the played ones.
        assert_eq!(
            moves.split_whitespace().count() as u64,
            plies + 4,
            "{record}"
        );
    }
}

#[test]
fn our_brain_plays_itself_through_the_gomocup_client() {
    let brain = example("pbrain-gomoku");
    let spec = |name: &str| format!("pbrain:cmd={},ms=60,name={name}", brain.display());
    let records = play("pbrain", "gomoku", spec("black"), spec("white"), 10);
    assert_played_out(&records, 10);
}

#[test]
fn our_nboard_engine_plays_itself_through_the_nboard_client() {
    let engine = example("nboard");
    let spec = |depth: u32| {
        format!(
            "nboard:cmd={} --engine alphabeta --solve 8,depth={depth}",
            engine.display()
        )
    };
    let records = play("nboard", "othello", spec(3), spec(1), 10);
    assert_played_out(&records, 10);
    // The depths reach the engines: the two colours of one opening are
    // not the same game.
    let distinct: std::collections::HashSet<&str> = records
        .iter()
        .filter_map(|record| record["moves"].as_str())
        .collect();
    assert!(distinct.len() > 5, "{records:?}");
}

#[test]
fn crashing_hanging_and_illegal_engines_lose_with_reasons_and_the_tournament_finishes() {
    let dir = scratch("fakes");
    let fake = |name: &str, on_board: &str| {
        let path = dir.join(format!("{name}.sh"));
        let body = format!(
            "while read -r line; do\n  case \"$line\" in\n    START*) echo OK ;;\n    DONE*) {on_board} ;;\n    END*) exit 0 ;;\n  esac\ndone\n"
        );
        std::fs::write(&path, body).expect("a script");
        format!(
            "pbrain:cmd=sh {},ms=100,margin=200,name={name}",
            path.display()
        )
    };
    let out = dir.join("results.jsonl");
    let mut args: Vec<String> = [
        "--game",
        "gomoku",
        "--gauntlet",
        "--games",
        "2",
        "--quiet",
        "--threads",
        "2",
    ]
    .map(String::from)
    .to_vec();
    args.push("greedy".to_string());
    args.push(fake("crash", "exit 3"));
    args.push(fake("hang", ":"));
    args.push(fake("illegal", "echo 99,99"));
    args.push(fake("babble", "echo 'I resign, maybe'"));
    args.push("--out".to_string());
    args.push(out.display().to_string());
    let clock = Instant::now();
    let output = tournament(&args);
    assert!(clock.elapsed() < Duration::from_secs(60));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let records = games(&out);
    assert_eq!(records.len(), 8, "{records:?}");
    let reasons = [
        (1, "exited with status 3"),
        (2, "no move within 0.3 s"),
        (3, "illegal move 99,99: off the 15x15 board"),
        (4, "malformed reply \"I resign, maybe\""),
    ];
    for record in &records {
        let (first, second) = (record["first"].as_u64(), record["second"].as_u64());
        let fake_side = if first == Some(0) { second } else { first }.expect("a side");
        let (_, reason) = reasons
            .iter()
            .find(|(index, _)| *index == fake_side)
            .expect("a fake engine in every game");
        let forfeit = record["forfeit"]
            .as_str()
            .unwrap_or_else(|| panic!("no forfeit in {record}"));
        assert!(forfeit.contains(reason), "{forfeit}");
        let greedy_won = if first == Some(0) { "1-0" } else { "0-1" };
        assert_eq!(record["result"], greedy_won, "{record}");
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("greedy"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}
