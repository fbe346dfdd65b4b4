//! The brain's loop (`gomoku_renju::protocol::run`) fed random bytes: it never
//! panics, never stops before `END`, and after any garbage still answers
//! `START`, `BOARD` and `ABOUT` as it should.

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use game_traits::GreedySearcher;
use gomoku_renju::PatternEvaluator;
use gomoku_renju::protocol::{Brain, run};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

/// The input side of a pipe: chunks sent by the test, read as a stream.
/// The end of the input only comes when the test drops its sender, so the
/// loop can only stop early by itself.
struct PipeReader {
    chunks: Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    position: usize,
}

impl Read for PipeReader {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let length = available.len().min(buffer.len());
        buffer[..length].copy_from_slice(&available[..length]);
        self.consume(length);
        Ok(length)
    }
}

impl BufRead for PipeReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.position == self.chunk.len() {
            match self.chunks.recv() {
                Ok(chunk) => {
                    self.chunk = chunk;
                    self.position = 0;
                }
                // The sender is gone: the end of the input.
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.chunk[self.position..])
    }

    fn consume(&mut self, amount: usize) {
        self.position = (self.position + amount).min(self.chunk.len());
    }
}

/// The output side: every write goes to the test as it happens.
struct PipeWriter(Sender<Vec<u8>>);

impl Write for PipeWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0
            .send(bytes.to_vec())
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The brain's answers, line by line.
struct Answers {
    chunks: Receiver<Vec<u8>>,
    pending: Vec<u8>,
}

impl Answers {
    /// The next line, or `None` if the brain wrote none within `wait` (or
    /// stopped writing for good).
    fn next_line(&mut self, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        loop {
            if let Some(end) = self.pending.iter().position(|&byte| byte == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=end).collect();
                let line = String::from_utf8(line).expect("answers are UTF-8");
                return Some(line.trim_end().to_string());
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            self.pending.extend(self.chunks.recv_timeout(left).ok()?);
        }
    }
}

/// Pieces of real commands, so that garbage also holds commands that do
/// something (searches, boards, settings) in every state.
const FRAGMENTS: [&[u8]; 10] = [
    b"START 15\r\n",
    b"BOARD\r\n",
    b"10,10,1\r\n",
    b"DONE\r\n",
    b"TURN 7,7\r\n",
    b"BEGIN\r\n",
    b"INFO timeout_turn 1\r\n",
    b"\xFF",
    b"\r",
    b"\n",
];

/// A random byte sequence of 0 to 63 pieces: mostly bytes drawn uniformly
/// from 0..=255, one in eight a fragment of a command.
fn garbage(rng: &mut Pcg64) -> Vec<u8> {
    let pieces = rng.random_range(0..64);
    let mut bytes = Vec::new();
    for _ in 0..pieces {
        if rng.random_range(0..8) == 0 {
            bytes.extend_from_slice(FRAGMENTS[rng.random_range(0..FRAGMENTS.len())]);
        } else {
            bytes.push(rng.random::<u8>());
        }
    }
    bytes
}

const SEQUENCES: usize = 100_000;
const SEQUENCES_PER_BATCH: usize = 1_000;
const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// After a batch of garbage: end any half line and any `BOARD` block, then
/// a game whose position needs a real search, then `ABOUT` to mark the end.
const PROBE: &[u8] =
    b"\r\nDONE\r\nSTART 15\r\nINFO timeout_turn 1\r\nBOARD\r\n7,7,2\r\nDONE\r\nABOUT\r\n";

/// Reads answers up to the `ABOUT` answer and checks the two before it
/// (`MESSAGE` lines aside): `OK` to `START`, a move next to nothing but
/// the opponent's stone at 7,7 to `DONE`.
fn check_probe(answers: &mut Answers, batch: usize) {
    let mut recent: Vec<String> = Vec::new();
    loop {
        let Some(line) = answers.next_line(ANSWER_WAIT) else {
            panic!("batch {batch}: the brain stopped answering; last answers {recent:?}");
        };
        if line.starts_with("MESSAGE") {
            continue;
        }
        if line.starts_with("name=\"pbrain-gomoku\"") {
            break;
        }
        recent.push(line);
        if recent.len() > 2 {
            recent.remove(0);
        }
    }
    assert_eq!(recent.len(), 2, "batch {batch}: {recent:?}");
    assert_eq!(recent[0], "OK", "batch {batch}: {recent:?}");
    let coordinates: Option<Vec<u32>> = recent[1]
        .split(',')
        .map(|number| number.parse().ok())
        .collect();
    match coordinates.as_deref() {
        Some(&[x, y]) => {
            assert!(x < 15 && y < 15, "batch {batch}: {recent:?}");
            assert_ne!((x, y), (7, 7), "batch {batch}: the cell is taken");
        }
        _ => panic!("batch {batch}: no move answer to DONE: {recent:?}"),
    }
}

#[test]
fn random_bytes_never_stop_the_brain() {
    let (input, chunks) = mpsc::channel::<Vec<u8>>();
    let (output, written) = mpsc::channel::<Vec<u8>>();
    let (finished, session_end) = mpsc::channel::<io::Result<()>>();
    std::thread::spawn(move || {
        let mut brain = Brain::new(|_| GreedySearcher::new(PatternEvaluator::default()));
        let reader = PipeReader {
            chunks,
            chunk: Vec::new(),
            position: 0,
        };
        let result = run(&mut brain, reader, PipeWriter(output));
        let _ = finished.send(result);
    });
    let mut answers = Answers {
        chunks: written,
        pending: Vec::new(),
    };
    let mut rng = Pcg64::seed_from_u64(0x0067_6172_6261_6765);
    for batch in 0..SEQUENCES / SEQUENCES_PER_BATCH {
        let mut bytes = Vec::new();
        for _ in 0..SEQUENCES_PER_BATCH {
            bytes.extend(garbage(&mut rng));
        }
        input.send(bytes).unwrap();
        input.send(PROBE.to_vec()).unwrap();
        check_probe(&mut answers, batch);
    }
    // END stops the loop while the input is still open.
    input.send(b"END\r\nABOUT\r\n".to_vec()).unwrap();
    match session_end.recv_timeout(Duration::from_secs(10)) {
        Ok(result) => result.expect("the loop ends without an error"),
        Err(RecvTimeoutError::Timeout) => panic!("END did not stop the loop"),
        Err(RecvTimeoutError::Disconnected) => panic!("the loop panicked"),
    }
    assert_eq!(answers.next_line(Duration::from_millis(100)), None);
    drop(input);
}

#[test]
fn lines_are_read_as_bytes_and_long_ones_are_cut() {
    use gomoku_renju::protocol::{InputLine, LineProblem, MAX_LINE_BYTES, read_input_line};
    let mut long = vec![b'x'; 3 * MAX_LINE_BYTES];
    long.extend_from_slice(b"\r\nABOUT\r\n");
    let mut input: Vec<u8> = b"START 15\r\nTURN \xFF,7\n\r\n".to_vec();
    input.extend(long);
    input.extend_from_slice(b"last line without a newline");
    let mut reader = input.as_slice();
    let mut lines = Vec::new();
    while let Some(line) = read_input_line(&mut reader).unwrap() {
        lines.push(line);
    }
    assert_eq!(lines.len(), 6, "{lines:?}");
    assert_eq!(lines[0], InputLine::text("START 15"));
    assert_eq!(lines[1].text, "TURN \u{FFFD},7");
    assert_eq!(lines[1].problem, Some(LineProblem::NotUtf8));
    assert_eq!(lines[2], InputLine::text(""));
    assert_eq!(lines[3].problem, Some(LineProblem::TooLong));
    assert_eq!(lines[3].text.len(), MAX_LINE_BYTES);
    // The rest of the long line is skipped, not taken for lines.
    assert_eq!(lines[4], InputLine::text("ABOUT"));
    assert_eq!(lines[5], InputLine::text("last line without a newline"));
}

#[test]
fn bad_lines_are_answered_where_an_answer_is_due() {
    use gomoku_renju::protocol::{Flow, InputLine, LineProblem};
    let mut brain = Brain::new(|_| GreedySearcher::new(PatternEvaluator::default()));
    let bad = |text: &str| InputLine {
        text: text.to_string(),
        problem: Some(LineProblem::NotUtf8),
    };
    let mut out = Vec::new();
    let mut feed = |brain: &mut Brain<_, _>, line: InputLine| {
        let flow = brain
            .handle_input_at(&line, Instant::now(), &mut out)
            .unwrap();
        assert_eq!(flow, Flow::Continue, "{line:?}");
    };
    feed(&mut brain, bad("\u{FFFD}"));
    feed(&mut brain, InputLine::text("START 15"));
    // No answer to INFO: a MESSAGE before the next answer.
    feed(&mut brain, bad("INFO folder C:\\\u{FFFD}"));
    feed(&mut brain, InputLine::text("BOARD"));
    feed(&mut brain, bad("7,\u{FFFD},1"));
    feed(&mut brain, InputLine::text("DONE"));
    // END ends the brain, never a line that only looks like it.
    let flow = brain
        .handle_input_at(&bad("END"), Instant::now(), &mut out)
        .unwrap();
    assert_eq!(flow, Flow::Continue);
    let flow = brain
        .handle_input_at(&InputLine::text("END"), Instant::now(), &mut out)
        .unwrap();
    assert_eq!(flow, Flow::End);
    let out = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].starts_with("ERROR the line is not valid UTF-8"),
        "{out}"
    );
    assert_eq!(lines[1], "OK");
    assert!(lines[2].starts_with("MESSAGE ignored INFO"), "{out}");
    assert!(
        lines[3].starts_with("ERROR BOARD line 1: the line is not valid UTF-8"),
        "{out}"
    );
    assert!(
        lines[4].starts_with("ERROR the line is not valid UTF-8"),
        "{out}"
    );
    assert!(brain.settings().folder.is_none());
}
