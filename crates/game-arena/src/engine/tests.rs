//! The two clients against scripted fake engines: small POSIX `sh`
//! programs that answer well, crash, hang, answer nonsense or illegal
//! moves, or refuse to quit.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bitboard_othello::Board;
use game_traits::{Game, Limits, Searcher};
use gomoku_renju::{Focused, Gomoku, Move};

use super::*;

/// Writes `body` as a shell script in a fresh directory and returns the
/// command that runs it.
fn script(name: &str, body: &str) -> EngineCommand {
    let dir = std::env::temp_dir().join(format!("game-arena-fake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path: PathBuf = dir.join(format!("{name}.sh"));
    std::fs::write(&path, body).expect("the script is written");
    EngineCommand::new("sh").arg(path.display().to_string())
}

/// A Gomocup brain that answers `START` with `OK` and every `DONE` with
/// `answer` (`None`: it never answers a move).
fn brain(name: &str, answer: Option<&str>) -> EngineCommand {
    let reply = answer.map_or(String::new(), |answer| format!("echo '{answer}'"));
    script(
        name,
        &format!(
            "while read -r line; do\n  case \"$line\" in\n    START*) echo OK ;;\n    DONE*) {reply} ;;\n    END*) exit 0 ;;\n  esac\ndone\n",
            reply = if reply.is_empty() { ":" } else { &reply }
        ),
    )
}

/// An NBoard engine that answers `ping n` with `pong n` and `go` with
/// `answer`.
fn othello_engine(name: &str, answer: &str) -> EngineCommand {
    script(
        name,
        &format!(
            "while read -r cmd rest; do\n  case \"$cmd\" in\n    ping) echo \"pong $rest\" ;;\n    go) echo '{answer}' ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
        ),
    )
}

fn quick() -> EngineOptions {
    EngineOptions::default()
        .with_margin(Duration::from_millis(300))
        .with_startup(Duration::from_secs(5))
        .with_quit_grace(Duration::from_millis(300))
}

fn gomoku_start() -> Focused {
    Focused::new(Gomoku::new())
}

fn limits() -> Limits {
    Limits::time(Duration::from_millis(100))
}

/// Whether process `pid` is gone (reaped), as far as this system shows.
fn reaped(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        !std::path::Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}

#[test]
fn a_brain_that_answers_plays_its_move_and_is_reaped_when_dropped() {
    let mut engine = PbrainEngine::new(brain("good", Some("7,7")), quick());
    let game = gomoku_start();
    let report = engine.search(&game, &limits());
    assert_eq!(
        report.best,
        Move::from_protocol(7, 7, 15),
        "{:?}",
        engine.failure()
    );
    assert!(engine.failure().is_none());
    assert!(engine.is_running());
    let pid = engine.pid().expect("started");
    // A second search reuses the same process.
    let mut next = game.clone();
    next.play(report.best.expect("a move"));
    next.play(Move::from_protocol(8, 8, 15).expect("on the board"));
    let _ = engine.search(&next, &limits());
    assert_eq!(engine.pid(), Some(pid));
    drop(engine);
    assert!(reaped(pid), "process {pid} outlives its searcher");
}

#[test]
fn a_crashing_brain_forfeits_with_its_exit_status() {
    let command = script(
        "crash",
        "while read -r line; do\n  case \"$line\" in\n    START*) echo OK ;;\n    DONE*) exit 3 ;;\n  esac\ndone\n",
    );
    let mut engine = PbrainEngine::new(command, quick());
    let report = engine.search(&gomoku_start(), &limits());
    assert_eq!(report.best, None);
    let failure = engine.failure().expect("a reason");
    assert!(failure.contains("exited with status 3"), "{failure}");
    assert!(!engine.is_running());
    assert!(reaped(engine.pid().expect("it started")));
}

#[test]
fn a_hanging_brain_forfeits_on_time_and_is_killed() {
    let mut engine = PbrainEngine::new(brain("hang", None), quick());
    let clock = Instant::now();
    let report = engine.search(&gomoku_start(), &limits());
    let waited = clock.elapsed();
    assert_eq!(report.best, None);
    let failure = engine.failure().expect("a reason");
    assert!(failure.contains("no move within 0.4 s"), "{failure}");
    assert!(waited >= Duration::from_millis(400), "{waited:?}");
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    assert!(reaped(engine.pid().expect("it started")));
}

#[test]
fn illegal_and_malformed_answers_forfeit_with_what_was_wrong() {
    let cases = [
        (
            "off-board",
            "99,99",
            "illegal move 99,99: off the 15x15 board",
        ),
        ("taken", "7,7", "illegal move 7,7: the cell is taken"),
        ("far", "0,0", "outside the focused cells"),
        ("nonsense", "hello there", "malformed reply \"hello there\""),
    ];
    let mut game = gomoku_start();
    game.play(Move::from_protocol(7, 7, 15).expect("on the board"));
    for (name, answer, expected) in cases {
        let mut engine = PbrainEngine::new(brain(name, Some(answer)), quick());
        let report = engine.search(&game, &limits());
        assert_eq!(report.best, None, "{name}");
        let failure = engine.failure().expect("a reason");
        assert!(failure.contains(expected), "{name}: {failure}");
        assert!(reaped(engine.pid().expect("it started")), "{name}");
    }
}

#[test]
fn a_brain_that_never_says_ok_fails_the_handshake_and_a_missing_program_fails_to_start() {
    let silent = script("silent", "while read -r line; do :; done\n");
    let options = quick().with_startup(Duration::from_millis(200));
    let mut engine = PbrainEngine::new(silent, options);
    let report = engine.search(&gomoku_start(), &limits());
    assert_eq!(report.best, None);
    let failure = engine.failure().expect("a reason");
    assert!(
        failure.contains("failed the handshake: no answer to START 15"),
        "{failure}"
    );
    assert!(reaped(engine.pid().expect("it started")));

    let missing = EngineCommand::new("/nonexistent/pbrain-nothing");
    let mut engine = PbrainEngine::new(missing, quick());
    assert_eq!(engine.search(&gomoku_start(), &limits()).best, None);
    let failure = engine.failure().expect("a reason");
    assert!(
        failure.contains("cannot start engine /nonexistent/pbrain-nothing"),
        "{failure}"
    );
}

#[test]
fn an_engine_that_ignores_quit_is_killed_after_the_grace_period() {
    // It answers, then ignores END and the end of its input.
    let stubborn = script(
        "stubborn",
        "trap '' TERM\nwhile true; do\n  read -r line\n  case \"$line\" in\n    START*) echo OK ;;\n    DONE*) echo 7,7 ;;\n  esac\ndone\n",
    );
    let mut engine = PbrainEngine::new(stubborn, quick());
    assert!(engine.search(&gomoku_start(), &limits()).best.is_some());
    let pid = engine.pid().expect("started");
    let clock = Instant::now();
    drop(engine);
    assert!(clock.elapsed() < Duration::from_secs(2));
    assert!(reaped(pid), "process {pid} outlives its searcher");
}

#[test]
fn nboard_engines_answer_or_forfeit_with_their_reason() {
    let board = Board::start();
    let mut good = NboardEngine::new(othello_engine("nboard-good", "=== F5/2.5/0.1"), quick());
    let report = good.search(&board, &limits());
    assert_eq!(
        report.best,
        Some("f5".parse().expect("a move")),
        "{:?}",
        good.failure()
    );
    assert!((report.value - 2.5 / 64.0).abs() < 1e-6);
    // Edax separates the fields with spaces.
    let mut spaced =
        NboardEngine::new(othello_engine("nboard-spaced", "=== d3 -6.00 0.0"), quick());
    let report = spaced.search(&board, &limits());
    assert_eq!(
        report.best,
        Some("d3".parse().expect("a move")),
        "{:?}",
        spaced.failure()
    );
    assert!((report.value + 6.0 / 64.0).abs() < 1e-6);
    let pid = good.pid().expect("started");
    drop(good);
    assert!(reaped(pid));

    let cases = [
        (
            "nboard-illegal",
            "=== A1",
            "illegal move A1: not legal here (legal: D3 C4 F5 E6)",
        ),
        ("nboard-garbage", "=== Z9", "malformed reply"),
        ("nboard-chatter", "hello", "malformed reply \"hello\""),
    ];
    for (name, answer, expected) in cases {
        let mut engine = NboardEngine::new(othello_engine(name, answer), quick());
        assert_eq!(engine.search(&board, &limits()).best, None, "{name}");
        let failure = engine.failure().expect("a reason");
        assert!(failure.contains(expected), "{name}: {failure}");
    }
}

#[test]
fn the_registry_builds_engines_from_specs_and_refuses_a_spec_without_cmd() {
    let setup = crate::registry::GameSetup::<Focused>::new().searcher(&PBRAIN_INFO, pbrain_factory);
    let missing = setup.spec("pbrain:ms=100").expect("a spec");
    let error = setup.build(&missing, 0).err().expect("cmd is required");
    assert!(
        error.to_string().contains("cmd=PROGRAM is required"),
        "{error}"
    );
    let spec = setup
        .spec("pbrain:cmd=sh -c true,name=fake,ms=100")
        .expect("a spec");
    let engine = setup.build(&spec, 0).expect("an engine");
    assert_eq!(engine.name(), "fake");
}
