//! An engine's child process: piped stdin and stdout, a writer thread and a
//! reader thread, so that no read or write can block the caller, and a
//! `Drop` that always reaps the child.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::time::{Duration, Instant};

use super::{EngineCommand, EngineError};

/// The longest line kept from an engine; longer lines are cut into pieces
/// of this many bytes.
const MAX_LINE: u64 = 64 * 1024;
/// Lines read ahead of the caller; a chattier engine waits for the caller.
const LINE_QUEUE: usize = 256;
/// How often a wait with a stop flag looks at the flag.
const STOP_POLL: Duration = Duration::from_millis(10);
/// How long an engine whose output closed may take to exit before it is
/// reported as alive (and killed).
const EXIT_WAIT: Duration = Duration::from_millis(200);

/// Why a wait for a line ended without one.
#[derive(Debug)]
pub(crate) enum NoLine {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited or crashed); the text says
    /// how it ended.
    Closed(String),
    /// The stop flag was set.
    Stopped,
}

/// A running engine.
pub(crate) struct EngineProcess {
    child: Child,
    program: String,
    input: Option<Sender<Vec<u8>>>,
    lines: Receiver<String>,
    quit: &'static str,
    line_end: &'static str,
    grace: Duration,
    reaped: bool,
}

impl EngineProcess {
    /// Starts `command` with piped stdin and stdout (stderr discarded).
    /// `quit` is the line that asks the engine to end, `line_end` what ends
    /// every line sent.
    pub(crate) fn spawn(
        command: &EngineCommand,
        quit: &'static str,
        line_end: &'static str,
        grace: Duration,
    ) -> Result<EngineProcess, EngineError> {
        let mut child = Command::new(command.program())
            .args(command.arguments())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| EngineError::Spawn {
                program: command.program().to_string(),
                source,
            })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(EngineError::Spawn {
                    program: command.program().to_string(),
                    source: std::io::Error::other("the child's pipes are missing"),
                });
            }
        };
        let (input, to_write) = mpsc::channel::<Vec<u8>>();
        std::thread::spawn(move || write_lines(stdin, &to_write));
        let (line_sender, lines) = mpsc::sync_channel::<String>(LINE_QUEUE);
        std::thread::spawn(move || read_lines(stdout, &line_sender));
        Ok(EngineProcess {
            child,
            program: command.program().to_string(),
            input: Some(input),
            lines,
            quit,
            line_end,
            grace,
            reaped: false,
        })
    }

    /// The child's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The program, for messages.
    pub(crate) fn program(&self) -> &str {
        &self.program
    }

    /// Sends one line (the line end is added). Never blocks: a failed
    /// write shows up as the engine's output closing.
    pub(crate) fn send(&mut self, line: &str) {
        if let Some(input) = &self.input {
            let mut bytes = Vec::with_capacity(line.len() + 2);
            bytes.extend_from_slice(line.as_bytes());
            bytes.extend_from_slice(self.line_end.as_bytes());
            let _ = input.send(bytes);
        }
    }

    /// The next non-empty line (a trailing CR removed), waiting until
    /// `deadline` at most, or until `stop` is set.
    pub(crate) fn recv(
        &mut self,
        deadline: Instant,
        stop: Option<&Arc<AtomicBool>>,
    ) -> Result<String, NoLine> {
        loop {
            if stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                return Err(NoLine::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(NoLine::Timeout);
            }
            let mut wait = deadline - now;
            if stop.is_some() {
                wait = wait.min(STOP_POLL);
            }
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    let line = line.trim_end_matches(['\r', '\n']).trim();
                    if !line.is_empty() {
                        return Ok(line.to_string());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(NoLine::Closed(self.how_it_ended()));
                }
            }
        }
    }

    /// After the output closed: how the engine ended ("exited with status
    /// 1"), waiting a moment for it to exit; an engine still running is
    /// killed.
    fn how_it_ended(&mut self) -> String {
        let started = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return describe_exit(status);
                }
                Ok(None) if started.elapsed() < EXIT_WAIT => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => {
                    self.kill();
                    return "closed its output".to_string();
                }
                Err(error) => return format!("could not be waited for ({error})"),
            }
        }
    }

    /// Kills the engine at once and reaps it (for an engine that failed:
    /// no quit command, no grace).
    pub(crate) fn kill(&mut self) {
        self.input = None;
        if !self.reaped {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.reaped = true;
        }
    }
}

impl Drop for EngineProcess {
    /// Asks the engine to quit, gives it the grace period, then kills it;
    /// the child is always reaped.
    fn drop(&mut self) {
        if self.reaped {
            return;
        }
        let quit = self.quit;
        self.send(quit);
        // Closing stdin tells the engine the session is over, too.
        self.input = None;
        let deadline = Instant::now() + self.grace;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) => {
                    self.reaped = true;
                    return;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        self.kill();
    }
}

/// "exited with status 1", "was killed (signal: 9 (SIGKILL))".
fn describe_exit(status: ExitStatus) -> String {
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => format!("was killed ({status})"),
    }
}

/// The writer thread: writes each line and flushes it; ends when the
/// engine's input breaks or the process handle is dropped.
fn write_lines(mut stdin: ChildStdin, lines: &Receiver<Vec<u8>>) {
    for bytes in lines {
        if stdin
            .write_all(&bytes)
            .and_then(|()| stdin.flush())
            .is_err()
        {
            break;
        }
    }
}

/// The reader thread: reads the engine's output byte-wise up to each
/// newline (any bytes: invalid UTF-8 is replaced, overlong lines are cut)
/// and hands the lines over; ends at the end of the output or when the
/// process handle is dropped.
fn read_lines(stdout: ChildStdout, lines: &SyncSender<String>) {
    let mut reader = BufReader::new(stdout);
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buffer).into_owned();
                if lines.send(line).is_err() {
                    break;
                }
            }
        }
    }
}
