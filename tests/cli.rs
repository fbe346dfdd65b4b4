//! The `tournament`, `play` and `nboard` examples driven through their
//! real command line, stdin and stdout.
//!
//! `cargo test` builds the package's examples next to the test binaries
//! (`target/<profile>/examples/`); these tests run them from there.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::example;

fn run(name: &str, args: &[&str], stdin: &str) -> Output {
    run_bytes(name, args, stdin.as_bytes())
}

/// [`run`] with any bytes on stdin, UTF-8 or not.
fn run_bytes(name: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(example(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    // An example that refuses its arguments exits before it reads stdin.
    if let Err(error) = child.stdin.take().expect("piped stdin").write_all(stdin) {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    child.wait_with_output().expect("the example ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory for one test's files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("game-search-cli-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// The tables a tournament prints, from the title line to the end of the
/// pairings (without the timing line).
fn tables(stdout: &str, game: &str) -> String {
    let start = stdout
        .find(&format!("\n{game} "))
        .unwrap_or_else(|| panic!("no table in {stdout}"));
    let end = ["played in", "merged results in"]
        .iter()
        .filter_map(|marker| stdout.find(marker))
        .min()
        .unwrap_or(stdout.len());
    stdout[start..end].trim().to_string()
}

/// The game lines of a results file, sorted by id.
fn games(path: &Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .expect("a results file")
        .lines()
        .filter(|line| line.contains("\"type\":\"game\""))
        .map(str::to_string)
        .collect();
    lines.sort_by_key(|line| {
        let id = line.split("\"id\":").nth(1).expect("an id");
        id.split(',')
            .next()
            .unwrap_or("")
            .parse::<u64>()
            .expect("a number")
    });
    lines
}

fn assert_usage_error(output: &Output) {
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("Usage:"), "{stderr}");
}

#[test]
fn bad_arguments_give_usage_and_exit_code_2() {
    for args in [
        &["uct:c=fast"][..],
        &["uct:speed=3", "random"],
        &["--game", "chess"],
        &["--games", "many"],
        &["--bogus"],
        &["random", "random"],
        &["random", "greedy", "--shard", "3/2"],
        &["random", "greedy", "--sprt", "50"],
        &["--resume"],
        &["merge"],
    ] {
        let output = run("tournament", args, "");
        assert_usage_error(&output);
    }
    assert_usage_error(&run("play", &["--engine", "nonsense"], ""));
    assert_usage_error(&run(
        "play",
        &["--game", "othello", "--position", "xyz"],
        "",
    ));
    assert_usage_error(&run("nboard", &["--solve", "99"], ""));
    assert_usage_error(&run("nboard", &["--engine", "uct:iters=-1"], ""));
    assert_usage_error(&run("jungle_pimc", &["--worlds", "0"], ""));
    assert_usage_error(&run("jungle_pimc", &["--opponent", "oracle"], ""));
    // The list of searchers is not an error.
    let list = run("tournament", &["--list"], "");
    assert!(list.status.success());
    assert!(text(&list.stdout).contains("rave"));
}

const TOURNAMENT: &[&str] = &[
    "random",
    "greedy",
    "uct:iters=100",
    "--game",
    "tictactoe",
    "--games",
    "6",
    "--opening-plies",
    "2",
    "--seed",
    "5",
    "--quiet",
];

fn tournament(extra: &[&str]) -> Output {
    let args: Vec<&str> = TOURNAMENT.iter().chain(extra).copied().collect();
    let output = run("tournament", &args, "");
    assert!(output.status.success(), "{}", text(&output.stderr));
    output
}

#[test]
fn adjudication_ends_games_and_the_records_say_why() {
    let dir = scratch("adjudicate");
    let out = dir.join("adjudicated.jsonl");
    let out_path = out.to_str().expect("a UTF-8 path");
    let args = [
        "random",
        "greedy",
        "--game",
        "othello",
        "--games",
        "4",
        "--adjudicate",
        "--out",
        out_path,
        "--quiet",
    ];
    let output = run("tournament", &args, "");
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(stdout.contains("4 of 4 games (4 adjudicated)"), "{stdout}");
    for record in games(&out) {
        assert!(
            record.contains("\"adjudicated\":\"solved exactly at 14 empties"),
            "{record}"
        );
    }
    let capped = run(
        "tournament",
        &[
            "random",
            "greedy",
            "--game",
            "tictactoe",
            "--games",
            "2",
            // Two opening plies and one more: no line of three yet, so the
            // cap ends both games whatever the opening.
            "--opening-plies",
            "2",
            "--max-plies",
            "1",
            "--quiet",
        ],
        "",
    );
    assert!(capped.status.success(), "{}", text(&capped.stderr));
    assert!(
        text(&capped.stdout).contains("+0 =2 -0"),
        "{}",
        text(&capped.stdout)
    );
    let zero = run("tournament", &["random", "greedy", "--max-plies", "0"], "");
    assert_eq!(zero.status.code(), Some(2));
    assert!(
        text(&zero.stderr).contains("--max-plies"),
        "{}",
        text(&zero.stderr)
    );
}

#[test]
fn records_save_each_game_in_its_usual_format() {
    let dir = scratch("records");
    let saved = dir.join("ggf");
    let saved_path = saved.to_str().expect("a UTF-8 path");
    let output = run(
        "tournament",
        &[
            "random",
            "greedy",
            "--game",
            "othello",
            "--games",
            "2",
            "--records",
            saved_path,
            "--quiet",
        ],
        "",
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(
        text(&output.stdout).contains("game records in"),
        "{}",
        text(&output.stdout)
    );
    for id in 0..2 {
        let ggf = std::fs::read_to_string(saved.join(format!("game-{id}.ggf"))).expect("saved");
        let (start, moves) = game_arena::nboard::parse_ggf(&ggf).expect("a GGF game");
        assert_eq!(start, bitboard_othello::Board::start());
        assert!(moves.len() > 50, "{ggf}");
        let black = if id == 0 { "random" } else { "greedy" };
        assert!(ggf.contains(&format!("PB[{black}]")), "{ggf}");
    }
    // A game without a record format says so.
    let none = run(
        "tournament",
        &[
            "random",
            "greedy",
            "--game",
            "tictactoe",
            "--games",
            "2",
            "--records",
            saved_path,
            "--quiet",
        ],
        "",
    );
    assert!(none.status.success(), "{}", text(&none.stderr));
    assert!(
        text(&none.stderr).contains("has no game record format"),
        "{}",
        text(&none.stderr)
    );
}

#[test]
fn openings_come_from_a_file_each_with_both_colours() {
    let dir = scratch("openings");
    let book = dir.join("openings.txt");
    std::fs::write(&book, "# corner, then centre and corner\n0\n\n  4 0  \n").expect("written");
    let book_path = book.to_str().expect("a UTF-8 path");
    let out = dir.join("book.jsonl");
    let out_path = out.to_str().expect("a UTF-8 path");
    let args = [
        "random",
        "greedy",
        "--game",
        "tictactoe",
        "--openings",
        book_path,
        "--out",
        out_path,
        "--quiet",
    ];
    let output = run("tournament", &args, "");
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    // Two openings: two games each by default, one with each colour.
    assert!(
        stdout.contains("4 games per pairing (2 openings from a book of 2"),
        "{stdout}"
    );
    let records = games(&out);
    assert_eq!(records.len(), 4);
    for (record, opening) in records.iter().zip(["\"0 ", "\"0 ", "\"4 0 ", "\"4 0 "]) {
        assert!(record.contains(&format!("\"moves\":{opening}")), "{record}");
    }
    assert!(records[0].contains("\"first\":0") && records[1].contains("\"first\":1"));
    // Resuming needs the same book; the file's header holds it.
    let resumed = run("tournament", &[&args[..], &["--resume"]].concat(), "");
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert!(text(&resumed.stdout).contains("(4 already played)"));
    // A bad line is named by file and line; nothing is played.
    std::fs::write(&book, "0\n# fine so far\n4 4\n").expect("written");
    let bad = run(
        "tournament",
        &[
            "random",
            "greedy",
            "--game",
            "tictactoe",
            "--openings",
            book_path,
        ],
        "",
    );
    assert_usage_error(&bad);
    let stderr = text(&bad.stderr);
    assert!(
        stderr.contains("openings.txt:3: opening \"4 4\": move 2 (4)"),
        "{stderr}"
    );
    for contents in ["# only comments\n\n", ""] {
        std::fs::write(&book, contents).expect("written");
        let empty = run(
            "tournament",
            &[
                "random",
                "greedy",
                "--game",
                "tictactoe",
                "--openings",
                book_path,
            ],
            "",
        );
        assert_usage_error(&empty);
        assert!(text(&empty.stderr).contains("holds no opening"));
    }
    let missing = run(
        "tournament",
        &["random", "greedy", "--openings", "/no/such/book"],
        "",
    );
    assert_usage_error(&missing);
    assert!(text(&missing.stderr).contains("cannot read openings /no/such/book"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_tournament_gives_the_same_totals() {
    let dir = scratch("resume");
    let whole = dir.join("whole.jsonl");
    let whole_path = whole.to_str().expect("a UTF-8 path");
    let full = tournament(&["--out", whole_path, "--threads", "2"]);
    let full_tables = tables(&text(&full.stdout), "tictactoe");
    assert!(full_tables.contains("18 of 18 games"), "{full_tables}");
    // Without --resume an existing file is refused, untouched.
    let refused = run(
        "tournament",
        &TOURNAMENT
            .iter()
            .chain(&["--out", whole_path])
            .copied()
            .collect::<Vec<_>>(),
        "",
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("--resume"));
    // Interrupted after 7 games, in the middle of the 8th line.
    let contents = std::fs::read_to_string(&whole).expect("results");
    let lines: Vec<&str> = contents.lines().collect();
    let partial = dir.join("partial.jsonl");
    let mut cut = lines[..8].join("\n");
    cut.push('\n');
    cut.push_str(&lines[8][..lines[8].len() / 2]);
    std::fs::write(&partial, cut).expect("written");
    let partial_path = partial.to_str().expect("a UTF-8 path");
    let resumed = tournament(&["--out", partial_path, "--resume", "--threads", "1"]);
    let resumed_stdout = text(&resumed.stdout);
    assert!(
        resumed_stdout.contains("(7 already played)"),
        "{resumed_stdout}"
    );
    assert_eq!(tables(&resumed_stdout, "tictactoe"), full_tables);
    assert_eq!(games(&partial), games(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_killed_tournament_resumes_to_the_same_totals() {
    let dir = scratch("kill");
    let args = [
        "uct:iters=200",
        "rave:iters=200",
        "--game",
        "othello",
        "--games",
        "6",
        "--threads",
        "1",
        "--quiet",
    ];
    let whole = dir.join("whole.jsonl");
    let mut with_out: Vec<&str> = args.to_vec();
    with_out.extend(["--out", whole.to_str().expect("UTF-8")]);
    let full = run("tournament", &with_out, "");
    assert!(full.status.success(), "{}", text(&full.stderr));
    let killed = dir.join("killed.jsonl");
    let killed_path = killed.to_str().expect("UTF-8");
    let mut with_killed: Vec<&str> = args.to_vec();
    with_killed.extend(["--out", killed_path]);
    let mut child = Command::new(example("tournament"))
        .args(&with_killed)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let clock = Instant::now();
    while clock.elapsed() < Duration::from_secs(60) {
        let lines = std::fs::read_to_string(&killed).map_or(0, |text| text.lines().count());
        if lines >= 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
    with_killed.push("--resume");
    let resumed = run("tournament", &with_killed, "");
    assert!(resumed.status.success(), "{}", text(&resumed.stderr));
    assert_eq!(
        tables(&text(&resumed.stdout), "othello"),
        tables(&text(&full.stdout), "othello")
    );
    assert_eq!(games(&killed), games(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merged_shards_equal_the_unsharded_run() {
    let dir = scratch("shards");
    let whole = dir.join("whole.jsonl");
    let full = tournament(&["--out", whole.to_str().expect("UTF-8")]);
    let mut shards = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let path = dir.join(format!("shard{}.jsonl", &shard[..1]));
        tournament(&["--shard", shard, "--out", path.to_str().expect("UTF-8")]);
        shards.push(path);
    }
    let merged = dir.join("merged.jsonl");
    let mut args = vec!["merge"];
    args.extend(shards.iter().map(|path| path.to_str().expect("UTF-8")));
    args.extend(["--out", merged.to_str().expect("UTF-8")]);
    let output = run("tournament", &args, "");
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert_eq!(games(&merged), games(&whole));
    let merged_tables = {
        let stdout = text(&output.stdout);
        format!("\n{stdout}")
    };
    assert_eq!(
        tables(&merged_tables, "tictactoe"),
        tables(&text(&full.stdout), "tictactoe")
    );
    // A shard of another tournament is refused.
    let other = dir.join("other.jsonl");
    let other_args: Vec<&str> = ["random", "greedy", "--game", "nim", "--quiet", "--out"]
        .into_iter()
        .chain([other.to_str().expect("UTF-8")])
        .collect();
    assert!(run("tournament", &other_args, "").status.success());
    let refused = run(
        "tournament",
        &[
            "merge",
            shards[0].to_str().expect("UTF-8"),
            other.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(refused.status.code(), Some(1));
    assert!(text(&refused.stderr).contains("another tournament"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_sweep_draws_its_chart() {
    let dir = scratch("sweep");
    let svg = dir.join("sweep.svg");
    let output = run(
        "tournament",
        &[
            "minimax",
            "random",
            "--game",
            "tictactoe",
            "--sweep",
            "depth=1,2,4",
            "--games",
            "4",
            "--quiet",
            "--svg",
            svg.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let chart = std::fs::read_to_string(&svg).expect("the chart");
    assert!(chart.starts_with("<svg") && chart.contains("vs random"));
    assert_eq!(chart.matches("<circle").count(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `play` example on `game` against `engine`, its record saved to
/// `record`, fed `script`.
fn play(game: &str, engine: &str, record: &Path, script: &str) -> Output {
    run(
        "play",
        &[
            "--game",
            game,
            "--engine",
            engine,
            "--save",
            record.to_str().expect("UTF-8"),
        ],
        script,
    )
}

#[test]
fn play_answers_bad_moves_and_saves_the_record() {
    let dir = scratch("play");
    let record = dir.join("record.txt");
    let output = play(
        "othello",
        "uct:iters=200",
        &record,
        "z9\na1\nf5\nhint\nundo\nf5\nquit\n",
    );
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(stdout.contains("error: \"z9\" is not a move"), "{stdout}");
    assert!(stdout.contains("error: a1 is not legal here"), "{stdout}");
    assert!(stdout.contains("principal variation"), "{stdout}");
    assert!(stdout.contains("Took back"), "{stdout}");
    assert!(stdout.contains("[X]"), "the last move is marked: {stdout}");
    let saved = std::fs::read_to_string(&record).expect("the record");
    assert!(saved.starts_with("f5"), "{saved}");
    assert_eq!(saved.trim().len(), 4, "f5 and the engine's reply: {saved}");
    // A whole tic-tac-toe game against perfect play, and the end of input.
    let record = dir.join("ttt.txt");
    let output = play(
        "tictactoe",
        "minimax:depth=9",
        &record,
        "4\n0\n1\n2\n3\n5\n6\n7\n8\n",
    );
    assert!(output.status.success());
    assert!(text(&output.stdout).contains("Game over"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nboard_session_through_stdin_and_stdout() {
    let script = "nboard 2\n\
        set depth 6\n\
        set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)\n\
        ping 1\n\
        go\n\
        hint 2\n\
        move Q9\n\
        set depth\n\
        bogus command\n\
        move D6\n\
        ping 2\n\
        learn\n\
        quit\n";
    let output = run(
        "nboard",
        &["--engine", "uct:iters=300", "--solve", "12"],
        script,
    );
    assert!(output.status.success());
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("set myname game-search"), "{stdout}");
    assert_eq!(lines[1], "pong 1");
    assert!(
        lines.iter().any(|line| line.starts_with("=== ")),
        "{stdout}"
    );
    assert_eq!(
        lines
            .iter()
            .filter(|line| line.starts_with("search "))
            .count(),
        2,
        "{stdout}"
    );
    assert_eq!(lines[lines.len() - 2], "pong 2");
    assert_eq!(lines[lines.len() - 1], "learned");
    assert_eq!(stderr.lines().count(), 2, "{stderr}");
    assert!(stderr.contains("Q9"), "{stderr}");
    assert!(
        stderr.contains("set depth") || stderr.contains("depth"),
        "{stderr}"
    );
}

#[test]
fn nboard_reports_any_bytes_and_goes_on_until_quit() {
    let mut script = b"nboard 2\n\xFF\n\xFE\xFFmove F5\n\x00\x1b[2J\r\nset depth \xC3\n".to_vec();
    // A line far longer than any command.
    script.extend(std::iter::repeat_n(b'x', 1 << 20));
    script.extend_from_slice(b"\nmove F5\nping 5\ngo\nquit\nping 6\n");
    let output = run_bytes("nboard", &["--engine", "random", "--solve", "0"], &script);
    let stdout = text(&output.stdout);
    let stderr = text(&output.stderr);
    assert!(output.status.success(), "{}: {stderr}", output.status);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "pong 5", "{stdout}");
    assert_eq!(lines[1], "status thinking", "{stdout}");
    // Black's F5 was played: White answers one of D6, F4, F6.
    let reply = lines[2].strip_prefix("=== ").expect("a move reply");
    assert!(
        ["D6/", "F4/", "F6/"].iter().any(|mv| reply.starts_with(mv)),
        "{stdout}"
    );
    // `quit` ends the session: `ping 6` is not answered.
    assert_eq!(lines.len(), 4, "{stdout}");
    let errors: Vec<&str> = stderr.lines().collect();
    assert_eq!(errors.len(), 4, "{stderr}");
    assert_eq!(
        errors
            .iter()
            .filter(|line| line.contains("not valid UTF-8"))
            .count(),
        3,
        "{stderr}"
    );
    assert!(errors[3].contains("longer than"), "{stderr}");
}

#[test]
fn jungle_pimc_prints_its_settings_and_table() {
    let output = run(
        "jungle_pimc",
        &[
            "--opponent",
            "random",
            "--deals",
            "1",
            "--depth",
            "1",
            "--worlds",
            "4",
            "--seed",
            "9",
        ],
        "",
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("1 deals x 2 colours, seed 9"), "{stdout}");
    assert!(
        stdout.contains("PIMC: 4 worlds, alpha-beta depth 1"),
        "{stdout}"
    );
    let row = stdout
        .lines()
        .find(|line| line.starts_with("| PIMC | random |"))
        .unwrap_or_else(|| panic!("no result row in {stdout}"));
    let games: u32 = row.split('|').nth(3).unwrap().trim().parse().unwrap();
    assert_eq!(games, 2, "{row}");
}

/// The network shipped in `nets/` as an engine of `play` and `nboard`.
fn shipped_net_engine() -> String {
    let net = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets/othello.safetensors");
    format!("gumbel:sims=16,net={}", net.display())
}

#[test]
fn the_shipped_network_plays_in_play_and_nboard() {
    let engine = shipped_net_engine();
    let dir = scratch("shipped-net");
    let record = dir.join("record.txt");
    let output = play("othello", &engine, &record, "f5\nhint\nquit\n");
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    assert!(stdout.contains("gumbel plays"), "{stdout}");
    assert!(stdout.contains("principal variation"), "{stdout}");
    let saved = std::fs::read_to_string(&record).expect("the record");
    assert_eq!(saved.trim().len(), 4, "f5 and the network's reply: {saved}");

    let script = "nboard 2\n\
        set game (;GM[Othello]PC[NBoard]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)\n\
        go\n\
        hint 2\n\
        quit\n";
    let output = run("nboard", &["--engine", &engine], script);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let first_moves = ["D3", "C4", "F5", "E6"];
    let played = stdout
        .lines()
        .find_map(|line| line.strip_prefix("=== "))
        .unwrap_or_else(|| panic!("no move in {stdout}"));
    assert!(
        first_moves.iter().any(|mv| played.starts_with(mv)),
        "{stdout}"
    );
    let hints = stdout
        .lines()
        .filter(|line| line.starts_with("search "))
        .count();
    assert_eq!(hints, 2, "{stdout}");

    // The registry lists the key, and a missing file is refused by name.
    let list = run("tournament", &["--list"], "");
    assert!(
        text(&list.stdout).contains("net "),
        "{}",
        text(&list.stdout)
    );
    let missing = dir.join("missing.safetensors");
    let output = run(
        "play",
        &[
            "--game",
            "othello",
            "--engine",
            &format!("gumbel:net={}", missing.display()),
        ],
        "quit\n",
    );
    assert!(!output.status.success());
    assert!(
        text(&output.stderr).contains("missing.safetensors"),
        "{}",
        text(&output.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
