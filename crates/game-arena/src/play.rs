//! A person against a searcher in the terminal: the board with
//! coordinates and the last move marked, the legal moves, checked input,
//! `undo`, `hint` (the engine's principal variation and per-move
//! statistics), `new`, `quit`, and the game record written on exit.
//!
//! [`Session`] holds the game and the engine; [`Session::run`] reads
//! commands from any `BufRead` and writes to any `Write`, so the same code
//! serves the `play` example and the tests.

use std::io::{self, BufRead, Write};

use game_traits::{Player, SearchReport};

use crate::registry::{
    BoxedSearcher, RegistryError, RegistryGame, SearcherSpec, build_searcher, legal_move_list,
    parse_legal_move,
};

/// Who a person plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Humans {
    /// The first player (Black at Othello); the engine plays the second.
    First,
    /// The second player; the engine opens.
    Second,
    /// Both sides (the engine only gives hints).
    Both,
    /// Neither: the engine plays itself.
    Neither,
}

impl Humans {
    fn plays(self, player: Player) -> bool {
        match self {
            Humans::First => player == Player::First,
            Humans::Second => player == Player::Second,
            Humans::Both => true,
            Humans::Neither => false,
        }
    }
}

impl std::str::FromStr for Humans {
    type Err = String;

    fn from_str(text: &str) -> Result<Humans, String> {
        match text {
            "first" => Ok(Humans::First),
            "second" => Ok(Humans::Second),
            "both" => Ok(Humans::Both),
            "none" | "neither" => Ok(Humans::Neither),
            _ => Err(format!(
                "expected first, second, both or none, got {text:?}"
            )),
        }
    }
}

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `quit` was typed.
    Quit,
    /// The input ended.
    EndOfInput,
}

/// A game between people and an engine.
pub struct Session<G: RegistryGame> {
    start: G,
    moves: Vec<G::Move>,
    humans: Humans,
    spec: SearcherSpec,
    seed: u64,
    engine: BoxedSearcher<G>,
}

impl<G: RegistryGame> Session<G> {
    /// A session from `start`, the engine built from `spec` with `seed`.
    ///
    /// # Errors
    ///
    /// [`RegistryError`] if the engine cannot be built for this game.
    pub fn new(
        start: G,
        spec: SearcherSpec,
        humans: Humans,
        seed: u64,
    ) -> Result<Session<G>, RegistryError> {
        let engine = build_searcher::<G>(&spec, seed)?;
        Ok(Session {
            start,
            moves: Vec::new(),
            humans,
            spec,
            seed,
            engine,
        })
    }

    /// The current position.
    pub fn position(&self) -> G {
        let mut state = self.start.clone();
        for &mv in &self.moves {
            state.play(mv);
        }
        state
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// The game record so far, in the game's notation.
    pub fn record(&self) -> String {
        G::record(&self.start, &self.moves)
    }

    fn play_move(&mut self, mv: G::Move) {
        self.moves.push(mv);
        self.engine.advance(mv);
    }

    fn restart_engine(&mut self) -> Result<(), RegistryError> {
        self.engine = build_searcher::<G>(&self.spec, self.seed)?;
        Ok(())
    }

    /// Reads commands from `input` and answers on `out` until `quit` or
    /// the end of the input.
    ///
    /// # Errors
    ///
    /// Only I/O errors of `input` or `out`; bad moves and commands are
    /// answered with a message and the session goes on.
    pub fn run(&mut self, mut input: impl BufRead, out: &mut impl Write) -> io::Result<Ending> {
        writeln!(
            out,
            "{} against {} (you play {}). Type a move, or help.",
            G::NAME,
            self.spec,
            match self.humans {
                Humans::First => "first",
                Humans::Second => "second",
                Humans::Both => "both sides",
                Humans::Neither => "neither side",
            }
        )?;
        let mut show = true;
        loop {
            let state = self.position();
            if show {
                writeln!(out, "\n{}", state.draw(self.moves.last().copied()))?;
            }
            show = true;
            if let Some(outcome) = state.outcome() {
                writeln!(
                    out,
                    "Game over: {outcome}. Type new, undo or quit. Record: {}",
                    self.record()
                )?;
            } else if !self.humans.plays(state.to_move()) {
                let report = self.engine.search(&state, &self.spec.limits());
                let Some(mv) = report.best else {
                    writeln!(out, "The engine found no move.")?;
                    return Ok(Ending::Quit);
                };
                writeln!(
                    out,
                    "{} plays {} ({})",
                    self.spec.name(),
                    G::move_text(mv),
                    describe(&report)
                )?;
                self.play_move(mv);
                continue;
            } else {
                writeln!(
                    out,
                    "{} player to move; legal: {}",
                    state.to_move(),
                    legal_move_list(&state)
                )?;
            }
            write!(out, "> ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(Ending::EndOfInput);
            }
            let command = line.trim();
            match command.to_ascii_lowercase().as_str() {
                "" => show = false,
                "quit" | "exit" | "q" => return Ok(Ending::Quit),
                "help" | "?" => {
                    writeln!(
                        out,
                        "Commands: a move ({}), hint, undo, new, moves, record, quit.",
                        G::SUMMARY
                    )?;
                    show = false;
                }
                "moves" => {
                    writeln!(out, "legal: {}", legal_move_list(&state))?;
                    show = false;
                }
                "record" => {
                    writeln!(out, "{}", self.record())?;
                    show = false;
                }
                "new" => {
                    self.moves.clear();
                    if let Err(error) = self.restart_engine() {
                        writeln!(out, "error: {error}")?;
                    }
                    writeln!(out, "New game.")?;
                }
                "undo" => self.undo(out)?,
                "hint" => {
                    self.hint(&state, out)?;
                    show = false;
                }
                _ => match parse_legal_move(&state, command) {
                    Ok(mv) => self.play_move(mv),
                    Err(error) => {
                        writeln!(out, "error: {error}")?;
                        show = false;
                    }
                },
            }
        }
    }

    /// Takes back moves until a person is to move again, at least one.
    fn undo(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.moves.is_empty() {
            return writeln!(out, "Nothing to undo.");
        }
        let mut taken = Vec::new();
        while let Some(mv) = self.moves.pop() {
            taken.push(G::move_text(mv));
            let state = self.position();
            if self.humans.plays(state.to_move()) || self.humans == Humans::Neither {
                break;
            }
        }
        // The engine's tree follows the game; start it afresh.
        if let Err(error) = self.restart_engine() {
            writeln!(out, "error: {error}")?;
        }
        writeln!(out, "Took back {}.", taken.join(", "))
    }

    /// The engine's view of the position: principal variation and the
    /// statistics of its best root moves.
    fn hint(&mut self, state: &G, out: &mut impl Write) -> io::Result<()> {
        if state.is_over() {
            return writeln!(out, "The game is over.");
        }
        let report = self.engine.search(state, &self.spec.limits());
        let pv: Vec<String> = report.pv.iter().map(|&mv| G::move_text(mv)).collect();
        writeln!(
            out,
            "hint: {} ({}); principal variation: {}",
            report.best.map_or_else(|| "none".to_string(), G::move_text),
            describe(&report),
            pv.join(" ")
        )?;
        let mut moves = report.moves.clone();
        moves.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(
                b.value
                    .unwrap_or(f32::NEG_INFINITY)
                    .total_cmp(&a.value.unwrap_or(f32::NEG_INFINITY)),
            )
        });
        if !moves.is_empty() {
            writeln!(out, "  move      visits    value    prior")?;
        }
        for info in moves.iter().take(8) {
            let number =
                |value: Option<f32>| value.map_or_else(|| "-".to_string(), |v| format!("{v:+.3}"));
            writeln!(
                out,
                "  {:<8} {:>7}  {:>7}  {:>7}",
                G::move_text(info.mv),
                info.visits,
                number(info.value),
                info.prior
                    .map_or_else(|| "-".to_string(), |p| format!("{p:.3}"))
            )?;
        }
        // The search was for the person's side; the engine's tree now
        // holds it, which is where the game goes on from.
        Ok(())
    }
}

/// Value, effort and time of a search, for people.
fn describe<M>(report: &SearchReport<M>) -> String {
    let stats = &report.stats;
    let mut parts = vec![format!("value {:+.2}", report.value)];
    if stats.iterations > 0 {
        parts.push(format!("{} iterations", stats.iterations));
    } else if stats.nodes > 0 {
        parts.push(format!("{} nodes", stats.nodes));
    }
    parts.push(format!("{:.2} s", stats.elapsed.as_secs_f64()));
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use bitboard_othello::Board;
    use game_traits::Game;
    use game_traits::testing::TicTacToe;

    fn session<G: RegistryGame>(spec: &str, humans: Humans) -> Session<G> {
        Session::new(G::start(), spec.parse().unwrap(), humans, 3).unwrap()
    }

    fn run<G: RegistryGame>(session: &mut Session<G>, input: &str) -> (Ending, String) {
        let mut out = Vec::new();
        let ending = session.run(input.as_bytes(), &mut out).unwrap();
        (ending, String::from_utf8(out).unwrap())
    }

    #[test]
    fn bad_input_is_answered_and_the_game_goes_on() {
        let mut session = session::<Board>("random", Humans::First);
        let (ending, out) = run(&mut session, "z9\na1\nf5\nquit\n");
        assert_eq!(ending, Ending::Quit);
        assert!(out.contains("error: \"z9\" is not a move"), "{out}");
        assert!(
            out.contains("error: a1 is not legal here; legal moves: d3 c4 f5 e6"),
            "{out}"
        );
        // f5 was played, then the engine answered.
        assert_eq!(session.moves().len(), 2);
        assert_eq!(Board::move_text(session.moves()[0]), "f5");
        assert!(out.contains("random plays"), "{out}");
    }

    #[test]
    fn undo_takes_back_the_engine_reply_too() {
        let mut session = session::<Board>("uct:iters=200", Humans::First);
        let (ending, out) = run(&mut session, "f5\nundo\nundo\n");
        assert_eq!(ending, Ending::EndOfInput);
        assert!(out.contains("Took back"), "{out}");
        assert!(out.contains("Nothing to undo."), "{out}");
        assert!(session.moves().is_empty());
    }

    #[test]
    fn hint_shows_the_principal_variation_and_statistics() {
        let mut session = session::<TicTacToe>("uct:iters=500", Humans::Both);
        let (_, out) = run(&mut session, "hint\n4\nhint\nquit\n");
        assert!(out.contains("principal variation:"), "{out}");
        assert!(out.contains("visits"), "{out}");
        assert_eq!(session.moves(), &[4]);
    }

    #[test]
    fn the_engine_plays_itself_to_the_end_and_new_starts_again() {
        let mut session = session::<TicTacToe>("minimax:depth=9", Humans::Neither);
        let (_, out) = run(&mut session, "record\nnew\n");
        assert!(out.contains("Game over: draw"), "{out}");
        assert!(out.contains("New game."), "{out}");
        let mut played = TicTacToe::new();
        assert_eq!(session.moves().len(), 9);
        for &mv in session.moves() {
            played.try_play(mv).unwrap();
        }
        assert!(played.is_over());
        assert_eq!(session.record().split(' ').count(), 9);
    }
}
