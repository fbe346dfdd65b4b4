//! The Gomocup brain, through a scripted session: once in process through
//! `gomoku_renju::protocol::Brain`, and once through the real `pbrain-gomoku`
//! example binary's stdin and stdout (built by `cargo test` with the other
//! examples; built here if missing). Every command of the protocol,
//! malformed and unknown lines, `BOARD` with both stone kinds, each rule,
//! and every move answered within `timeout_turn`.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, MutexGuard, OnceLock, mpsc};
use std::time::{Duration, Instant};

use game_traits::{Game, GreedySearcher, Player, Searcher};
use gomoku_renju::protocol::{Brain, Flow};
use gomoku_renju::{
    Gomoku, Move, OnFocused, PatternEvaluator, Rule, TacticalConfig, TacticalSearcher,
};

/// One side of a conversation with a brain.
trait Session {
    /// Sends a line that gets no answer.
    fn tell(&mut self, line: &str);
    /// Sends a line and returns the answer (after any `MESSAGE` lines, which
    /// are returned too) and how long it took.
    fn ask(&mut self, line: &str) -> (String, Vec<String>, Duration);
    /// Sends `END` and checks that the brain stops without a word.
    fn end(self);
}

/// The brain in this process.
struct InProcess<F: FnMut(&gomoku_renju::protocol::Settings) -> S, S: game_traits::Searcher<Gomoku>>
{
    brain: Brain<S, F>,
}

impl<F, S> Session for InProcess<F, S>
where
    F: FnMut(&gomoku_renju::protocol::Settings) -> S,
    S: game_traits::Searcher<Gomoku>,
{
    fn tell(&mut self, line: &str) {
        let mut out = Vec::new();
        assert_eq!(
            self.brain.handle_line(line, &mut out).unwrap(),
            Flow::Continue
        );
        assert!(
            out.is_empty(),
            "{line:?} was answered {:?}",
            String::from_utf8_lossy(&out)
        );
    }

    fn ask(&mut self, line: &str) -> (String, Vec<String>, Duration) {
        let started = Instant::now();
        let mut out = Vec::new();
        assert_eq!(
            self.brain.handle_line(line, &mut out).unwrap(),
            Flow::Continue
        );
        let elapsed = started.elapsed();
        let text = String::from_utf8(out).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let answer = lines
            .pop()
            .unwrap_or_else(|| panic!("{line:?} got no answer"));
        (answer, lines, elapsed)
    }

    fn end(mut self) {
        let mut out = Vec::new();
        assert_eq!(self.brain.handle_line("END", &mut out).unwrap(), Flow::End);
        assert!(out.is_empty());
    }
}

/// The example binary, through pipes.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl Process {
    fn start(path: &PathBuf, args: &[&str]) -> Process {
        let mut child = Command::new(path)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {}: {error}", path.display()));
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Process {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        // The manager ends lines with CR LF.
        write!(self.stdin, "{line}\r\n").unwrap();
        self.stdin.flush().unwrap();
    }
}

impl Session for Process {
    fn tell(&mut self, line: &str) {
        self.send(line);
        // Nothing may come back (checked by the next answer being the
        // right one; a stray line would be read as that answer).
    }

    fn ask(&mut self, line: &str) -> (String, Vec<String>, Duration) {
        let started = Instant::now();
        self.send(line);
        let mut messages = Vec::new();
        loop {
            let answer = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no answer to {line:?} within 30 s"));
            if answer.starts_with("MESSAGE") || answer.starts_with("DEBUG") {
                messages.push(answer);
                continue;
            }
            return (answer, messages, started.elapsed());
        }
    }

    fn end(mut self) {
        self.send("END");
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "END did not end the brain"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        if let Ok(line) = self.lines.try_recv() {
            panic!("the brain wrote {line:?} after END");
        }
    }
}

/// `x,y` as a move on a `size` board.
fn parse_move(answer: &str, size: usize) -> Move {
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("{answer:?} is not a move"));
    Move::from_protocol(x.trim().parse().unwrap(), y.trim().parse().unwrap(), size)
        .unwrap_or_else(|| panic!("{answer:?} is off the board"))
}

/// `mv` as `x,y`.
fn coordinates(mv: Move, size: usize) -> String {
    let (x, y) = mv.to_protocol(size).unwrap();
    format!("{x},{y}")
}

/// Asks for a move and checks it: legal in `game` (which it is played on),
/// and answered within `limit`.
fn ask_move(session: &mut impl Session, line: &str, game: &mut Gomoku, limit: Duration) -> Move {
    let (answer, _, elapsed) = session.ask(line);
    let mv = parse_move(&answer, game.size());
    assert!(
        game.is_legal(mv),
        "{line:?} answered {answer} ({mv}), not legal in\n{game}"
    );
    game.play(mv);
    assert!(
        elapsed < limit,
        "{line:?} answered after {elapsed:?} (limit {limit:?})"
    );
    mv
}

fn expect(session: &mut impl Session, line: &str, start: &str) {
    let (answer, _, _) = session.ask(line);
    assert!(
        answer.starts_with(start),
        "{line:?} answered {answer:?}, expected {start}..."
    );
}

/// The session: every command, malformed and unknown lines, both stone
/// kinds in BOARD, each rule; `turn_ms` is the time per move.
fn scripted_session(mut session: impl Session, turn_ms: u64) {
    let limit = Duration::from_millis(turn_ms);
    // Settings first (no answers), then the board.
    for line in [
        format!("INFO timeout_turn {turn_ms}"),
        "INFO timeout_match 600000".to_string(),
        "INFO max_memory 83886080".to_string(),
        "INFO rule 0".to_string(),
        "INFO game_type 1".to_string(),
        "INFO folder /tmp".to_string(),
        "INFO evaluate 3,4".to_string(),
        "INFO some_future_key 12".to_string(),
    ] {
        session.tell(&line);
    }
    expect(&mut session, "START 1", "ERROR");
    expect(&mut session, "START x", "ERROR");
    expect(&mut session, "BEGIN", "ERROR"); // no board yet
    expect(&mut session, "START 20", "OK");
    expect(&mut session, "RECTSTART 20,15", "ERROR");
    expect(&mut session, "RECTSTART 15,15", "OK");
    let (about, _, _) = session.ask("ABOUT");
    assert!(about.contains("name=\"pbrain-gomoku\""), "{about}");
    let mut game = Gomoku::with_rule(Rule::Freestyle);
    session.tell("INFO time_left 590000");
    let first = ask_move(&mut session, "BEGIN", &mut game, limit);
    assert_eq!(
        first,
        "h8".parse().unwrap(),
        "the first move on an empty board"
    );
    // The opponent: a far move, then one ply of the pattern evaluator.
    let mut opponent = GreedySearcher::new(PatternEvaluator::default());
    for turn in 0..4 {
        session.tell("INFO time_left 580000");
        let mv: Move = if turn == 0 {
            "a1".parse().unwrap()
        } else {
            opponent
                .search(&game, &game_traits::Limits::none())
                .best
                .unwrap()
        };
        game.play(mv);
        ask_move(
            &mut session,
            &format!("TURN {}", coordinates(mv, 15)),
            &mut game,
            limit,
        );
        if game.is_over() {
            break;
        }
    }
    // Malformed, illegal and unknown lines get errors; the brain goes on.
    expect(&mut session, "TURN", "ERROR");
    expect(&mut session, "TURN 3", "ERROR");
    expect(&mut session, "TURN a,b", "ERROR");
    expect(&mut session, "TURN 15,0", "ERROR");
    expect(&mut session, "TURN -1,0", "ERROR");
    expect(
        &mut session,
        &format!("TURN {}", coordinates(first, 15)),
        "ERROR",
    );
    expect(&mut session, "SUGGEST", "UNKNOWN");
    expect(&mut session, "HELLO there", "UNKNOWN");
    expect(&mut session, "takeback 0,0", "ERROR"); // no stone there
    expect(&mut session, "BEGIN", "ERROR"); // not on an empty board

    // A new game of the same size.
    expect(&mut session, "RESTART", "OK");
    let mut game = Gomoku::with_rule(Rule::Freestyle);
    // A malformed INFO value is ignored and reported as a MESSAGE before
    // the next answer.
    session.tell("INFO timeout_turn soon");
    let mv: Move = "c3".parse().unwrap();
    game.play(mv);
    let (answer, messages, elapsed) = session.ask(&format!("TURN {}", coordinates(mv, 15)));
    assert!(
        messages.iter().any(|line| line.contains("timeout_turn")),
        "{messages:?}"
    );
    assert!(elapsed < limit, "{elapsed:?}");
    let reply = parse_move(&answer, 15);
    assert!(game.is_legal(reply));
    game.play(reply);
    // TAKEBACK removes the brain's stone; PLAY imposes it again.
    let (answer, _, _) = session.ask(&format!("TAKEBACK {}", coordinates(reply, 15)));
    assert_eq!(answer, "OK");
    let (answer, _, _) = session.ask(&format!("PLAY {}", coordinates(reply, 15)));
    assert_eq!(answer, coordinates(reply, 15));
    // Lower case and extra spaces are accepted.
    let mv: Move = "n2".parse().unwrap();
    game.play(mv);
    ask_move(
        &mut session,
        &format!("turn  {} ", coordinates(mv, 15)),
        &mut game,
        limit,
    );

    // BOARD with both stone kinds: as many own stones as the opponent's
    // makes the brain Black.
    expect(&mut session, "RESTART", "OK");
    let own: [Move; 2] = ["h8".parse().unwrap(), "h9".parse().unwrap()];
    let opponent: [Move; 2] = ["i9".parse().unwrap(), "j10".parse().unwrap()];
    let board_lines = |own: &[Move], opponent: &[Move]| -> Vec<String> {
        let mut lines = vec!["BOARD".to_string()];
        for (stones, field) in [(own, 1), (opponent, 2)] {
            for &stone in stones {
                lines.push(format!("{},{field}", coordinates(stone, 15)));
            }
        }
        lines
    };
    for line in board_lines(&own, &opponent) {
        session.tell(&line);
    }
    let mut black =
        Gomoku::from_stones(15, Rule::Freestyle, &own, &opponent, Player::First).unwrap();
    ask_move(&mut session, "DONE", &mut black, limit);
    // One own stone fewer: the brain is White.
    expect(&mut session, "RESTART", "OK");
    for line in board_lines(&own[..1], &opponent) {
        session.tell(&line);
    }
    let mut white =
        Gomoku::from_stones(15, Rule::Freestyle, &opponent, &own[..1], Player::Second).unwrap();
    ask_move(&mut session, "DONE", &mut white, limit);
    // A malformed BOARD line is reported at DONE.
    expect(&mut session, "RESTART", "OK");
    for line in ["BOARD", "7,7,1", "7,8", "DONE"] {
        if line == "DONE" {
            expect(&mut session, line, "ERROR");
        } else {
            session.tell(line);
        }
    }
    for line in ["BOARD", "7,7,1", "7,7,2", "DONE"] {
        if line == "DONE" {
            expect(&mut session, line, "ERROR");
        } else {
            session.tell(line);
        }
    }

    // Standard rule: an overline does not win, so the brain blocks White's
    // four on the way to five; and plays on.
    session.tell("INFO rule 1");
    expect(&mut session, "RESTART", "OK");
    let own: Vec<Move> = ["a1", "c1", "e1"]
        .iter()
        .map(|name| name.parse().unwrap())
        .collect();
    let opponent: Vec<Move> = ["h8", "h9", "h10", "h11"]
        .iter()
        .map(|name| name.parse().unwrap())
        .collect();
    let mut standard =
        Gomoku::from_stones(15, Rule::Standard, &opponent, &own, Player::Second).unwrap();
    for line in board_lines(&own, &opponent) {
        session.tell(&line);
    }
    let block = ask_move(&mut session, "DONE", &mut standard, limit);
    assert!(
        ["h7", "h12"].contains(&block.to_string().as_str()),
        "{block}"
    );

    // Renju: the brain, Black, never plays a forbidden cell. i8 would make
    // two open threes (g8-h8-i8 and i8-i9-i10).
    session.tell("INFO rule 4");
    expect(&mut session, "RESTART", "OK");
    let own: Vec<Move> = ["g8", "h8", "i9", "i10"]
        .iter()
        .map(|name| name.parse().unwrap())
        .collect();
    let opponent: Vec<Move> = ["a15", "c15", "e15", "o1"]
        .iter()
        .map(|name| name.parse().unwrap())
        .collect();
    let mut renju = Gomoku::from_stones(15, Rule::Renju, &own, &opponent, Player::First).unwrap();
    assert!(renju.is_forbidden("i8".parse().unwrap()));
    for line in board_lines(&own, &opponent) {
        session.tell(&line);
    }
    let mv = ask_move(&mut session, "DONE", &mut renju, limit);
    assert!(!renju.is_forbidden(mv));
    // The opponent (White) answers; the brain goes on, still never
    // forbidden.
    let reply: Move = "o15".parse().unwrap();
    renju.play(reply);
    ask_move(
        &mut session,
        &format!("TURN {}", coordinates(reply, 15)),
        &mut renju,
        limit,
    );
    // As White, the brain must answer a Black forbidden move with ERROR.
    expect(&mut session, "RESTART", "OK");
    let mut as_white =
        Gomoku::from_stones(15, Rule::Renju, &own, &opponent[..3], Player::Second).unwrap();
    for line in board_lines(&opponent[..3], &own) {
        session.tell(&line);
    }
    let block = ask_move(&mut session, "DONE", &mut as_white, limit);
    let forbidden: Move = "i8".parse().unwrap();
    let (answer, _, _) = session.ask(&format!("TURN {}", coordinates(forbidden, 15)));
    assert!(answer.starts_with("ERROR"), "{answer}");
    if block != forbidden {
        assert!(answer.contains("forbidden"), "{answer}");
    }

    // An unsupported rule is reported at the next command.
    session.tell("INFO rule 8");
    expect(&mut session, "RESTART", "ERROR");
    session.tell("INFO rule 0");
    expect(&mut session, "RESTART", "OK");
    session.end();
}

/// Held by every test that checks answers against a turn time: run side by
/// side on a machine with few cores, their searches starve one another
/// past the limit.
fn one_timed_test_at_a_time() -> MutexGuard<'static, ()> {
    static TIMED: Mutex<()> = Mutex::new(());
    // A failed test poisons the lock; the others still run.
    TIMED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[test]
fn scripted_session_in_process() {
    let _serial = one_timed_test_at_a_time();
    // A quick searcher: the tactical layer around one ply of the pattern
    // evaluator.
    let brain = Brain::new(|_| {
        TacticalSearcher::new(
            OnFocused(GreedySearcher::new(PatternEvaluator::default())),
            TacticalConfig::default(),
        )
        .unwrap()
    });
    scripted_session(InProcess { brain }, 400);
}

/// The example binary, built (or found up to date) by cargo in release, as
/// a Gomocup manager runs it: the timed checks hold a brain to its turn
/// time, and an unoptimised build on a loaded machine can overshoot its
/// margin in the threat searches without telling us anything about the
/// brain users run. Cargo does not hold its lock while tests run, so this
/// works from inside a test; building once per test process, and always
/// (rather than using whatever binary is there), means a stale binary is
/// never tested.
fn brain_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY
        .get_or_init(|| {
            let exe = std::env::current_exe().unwrap();
            // <target>/<profile directory>/deps/protocol-<hash>
            let target_dir = exe
                .parent()
                .and_then(|deps| deps.parent())
                .and_then(|profile| profile.parent())
                .unwrap()
                .to_path_buf();
            let mut command = Command::new(env!("CARGO"));
            command
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    env!("CARGO_PKG_NAME"),
                    "--example",
                    "pbrain-gomoku",
                    "--release",
                ])
                .current_dir(env!("CARGO_MANIFEST_DIR"));
            let status = command.status().expect("cargo runs");
            assert!(status.success(), "building the brain failed");
            let binary = target_dir
                .join("release")
                .join("examples")
                .join(format!("pbrain-gomoku{}", std::env::consts::EXE_SUFFIX));
            assert!(binary.exists(), "{} was not built", binary.display());
            binary
        })
        .clone()
}

#[test]
fn scripted_session_through_the_binary() {
    let _serial = one_timed_test_at_a_time();
    let binary = brain_binary();
    let session = Process::start(&binary, &["--seed", "3"]);
    // A second per move: the brain's margin (a tenth) then also covers
    // scheduling delays on a loaded machine.
    scripted_session(session, 1000);
}

#[test]
fn the_binary_refuses_bad_arguments() {
    let binary = brain_binary();
    for args in [
        &["--searcher", "oracle"][..],
        &["--threads", "0"],
        &["--bogus", "1"],
    ] {
        let output = Command::new(&binary).args(args).output().unwrap();
        assert!(!output.status.success(), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn end_stops_a_search_at_once() {
    let _serial = one_timed_test_at_a_time();
    let binary = brain_binary();
    let mut session = Process::start(&binary, &[]);
    session.send("START 15");
    assert_eq!(
        session.lines.recv_timeout(Duration::from_secs(10)).unwrap(),
        "OK"
    );
    session.send("INFO timeout_turn 30000");
    session.send("BEGIN");
    assert_eq!(
        session.lines.recv_timeout(Duration::from_secs(40)).unwrap(),
        "7,7"
    );
    // A long think, interrupted.
    session.send("TURN 8,8");
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    session.end();
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

/// The next answer of the binary, or a failure saying what was asked.
fn next_answer(session: &mut Process, after: &str) -> String {
    loop {
        match session.lines.recv_timeout(Duration::from_secs(10)) {
            Ok(line) if line.starts_with("MESSAGE") => continue,
            Ok(line) => return line,
            Err(_) => panic!("no answer after {after:?}: the brain has stopped"),
        }
    }
}

#[test]
fn the_binary_answers_any_bytes_and_goes_on() {
    let _serial = one_timed_test_at_a_time();
    let binary = brain_binary();
    let mut session = Process::start(&binary, &["--searcher", "greedy"]);
    // Each line gets one answer, except INFO (none).
    let garbage: [(&[u8], &str); 9] = [
        (b"\xFF\r\n", "ERROR the line is not valid UTF-8"),
        (
            b"\x00\x01TURN \xFE,\xFF\r\n",
            "ERROR the line is not valid UTF-8",
        ),
        (b"START 0\r\n", "ERROR"),
        (b"START 99999\r\n", "ERROR"),
        (b"START 18446744073709551616\r\n", "ERROR"),
        (b"TURN -1,5\r\n", "ERROR"),
        (b"\x1b[2J\x00\r\n", "UNKNOWN"),
        (
            b"INFO timeout_turn \xFF\r\nINFO rule 99999999999\r\n",
            "(none)",
        ),
        // A lone CR is blank space inside a line.
        (b"ABOUT\rTURN 1,1\r\n", "name="),
    ];
    for (bytes, answer) in garbage {
        session.stdin.write_all(bytes).unwrap();
        // The INFO lines get no answer: the next line's answer comes next.
        if bytes.starts_with(b"INFO") {
            continue;
        }
        session.stdin.flush().unwrap();
        let after = String::from_utf8_lossy(bytes).into_owned();
        let got = next_answer(&mut session, &after);
        assert!(got.starts_with(answer), "{after:?} answered {got:?}");
    }
    // A line far longer than any command, then real commands.
    session.stdin.write_all(&vec![b'7'; 1 << 20]).unwrap();
    session.send("");
    let got = next_answer(&mut session, "a 1 MiB line");
    assert!(got.starts_with("ERROR the line is longer"), "{got:?}");
    expect(&mut session, "START 15", "OK");
    session.tell("INFO timeout_turn 300");
    expect(&mut session, "BEGIN", "7,7");
    let mut game = Gomoku::with_size(15, Rule::Freestyle).unwrap();
    game.play(parse_move("7,7", 15));
    game.play(parse_move("8,8", 15));
    ask_move(&mut session, "TURN 8,8", &mut game, Duration::from_secs(10));
    session.end();
}

#[test]
fn the_binary_ends_cleanly_when_its_output_is_closed() {
    let binary = brain_binary();
    let mut child = Command::new(&binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The manager is gone: nobody reads the answers.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"START 15\r\nABOUT\r\n").unwrap();
    stdin.flush().unwrap();
    let started = Instant::now();
    // Stdin stays open: only the failed write can end the brain.
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the brain goes on with nowhere to write"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    drop(stdin);
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(1), "{status}: {stderr}");
}

#[test]
fn every_searcher_of_the_binary_plays_within_the_turn_time() {
    let _serial = one_timed_test_at_a_time();
    let binary = brain_binary();
    let turn_ms = 300;
    let limit = Duration::from_millis(turn_ms);
    for (searcher, rule) in [
        ("puct", "0"),
        ("gumbel", "1"),
        ("rave", "4"),
        ("uct", "0"),
        ("alphabeta", "4"),
        ("alphabeta", "0"),
        ("greedy", "1"),
        ("random", "4"),
    ] {
        let mut session = Process::start(&binary, &["--searcher", searcher, "--seed", "2"]);
        session.tell(&format!("INFO timeout_turn {turn_ms}"));
        session.tell(&format!("INFO rule {rule}"));
        expect(&mut session, "START 15", "OK");
        let game_rule = match rule {
            "0" => Rule::Freestyle,
            "1" => Rule::Standard,
            _ => Rule::Renju,
        };
        let mut game = Gomoku::with_size(15, game_rule).unwrap();
        ask_move(&mut session, "BEGIN", &mut game, limit);
        // A few turns with the opponent's replies from the game itself.
        for _ in 0..3 {
            let reply = game.focus_moves().iter().next().unwrap();
            game.play(reply);
            if game.outcome().is_some() {
                break;
            }
            let line = format!("TURN {}", coordinates(reply, 15));
            ask_move(&mut session, &line, &mut game, limit);
            if game.outcome().is_some() {
                break;
            }
        }
        session.end();
    }
}
