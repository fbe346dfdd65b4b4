//! The invariant harness: property tests that any [`Game`] implementation
//! must pass, run over random legal games with proptest.

use std::collections::HashSet;
use std::fmt::{self, Debug, Display};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;

use proptest::collection::vec;
use proptest::prelude::any;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

use crate::zobrist::mix64;
use crate::{
    ActionSpace, ColorFlip, Evaluator, Game, InformationSet, Limits, Outcome, PolicyEvaluator,
    PositionHash, Searcher,
};

/// The invariants the harness checks. Each violation names one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Invariant {
    /// `outcome()` is `None` exactly when `legal_moves` is non-empty, and
    /// `is_over` agrees.
    MovesMatchOutcome,
    /// `legal_moves` holds no move twice.
    NoDuplicateMoves,
    /// `legal_moves` clears its buffer and gives the same list every time.
    StableMoveList,
    /// Every legal move is accepted by `is_legal` and `try_play`, and
    /// `try_play` and `play` reach the same position.
    LegalMovesPlay,
    /// A move that is not legal is refused by `is_legal` and `try_play`, and
    /// the refused `try_play` leaves the position unchanged.
    IllegalMovesRefused,
    /// Playing a move on a clone leaves the original unchanged.
    CloneIndependent,
    /// The incremental hash equals the hash of the same position rebuilt
    /// from its text form.
    HashMatchesRebuilt,
    /// `Display` then `FromStr` gives the same position.
    TextRoundTrip,
    /// Serializing then deserializing gives the same position.
    SerdeRoundTrip,
    /// `action_index` is in range and injective on legal moves, and
    /// `action` inverts it.
    ActionIndex,
    /// Every game ends within the stated number of plies.
    Terminates,
    /// A scripted game ends with the stated outcome.
    ExpectedOutcome,
    /// Flipping twice is the identity; the flipped position has the other
    /// player to move, the mapped legal moves and the flipped outcome.
    ColorFlip,
    /// Evaluator values are finite, in `[-1, 1]`, and agree in sign with the
    /// outcome at finished positions.
    EvaluatorRange,
    /// Policy evaluators give finite logits and values in `[-1, 1]`.
    PolicyEvaluatorRange,
    /// The evaluator gives the same value to a position and its flip.
    EvaluatorFlip,
    /// A searcher gives the same value to a position and its flip.
    SearcherFlip,
    /// Every sampled world of an information set is consistent with it.
    InformationSet,
    /// The game panicked.
    NoPanic,
}

impl Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Debug::fmt(self, f)
    }
}

/// A broken invariant: which, where, and what was seen.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invariant {invariant} violated after moves [{}] at position {position}: {detail}", moves.join(", "))]
#[non_exhaustive]
pub struct InvariantViolation {
    /// The invariant.
    pub invariant: Invariant,
    /// What was seen.
    pub detail: String,
    /// The moves from the start position to the failing position (after
    /// shrinking: a short, simple game).
    pub moves: Vec<String>,
    /// The failing position (its `Debug` form).
    pub position: String,
}

/// A check failure before the moves and position are attached.
type Failure = (Invariant, String);

fn fail<T>(invariant: Invariant, detail: impl Into<String>) -> Result<T, Failure> {
    Err((invariant, detail.into()))
}

fn debug_string<T: Debug + ?Sized>(value: &T) -> String {
    format!("{value:?}")
}

type PositionCheck<G> = Box<dyn Fn(&G, &[<G as Game>::Move]) -> Result<(), Failure>>;

/// The invariant harness for one game, configured by chaining.
///
/// [`Invariants::new`] sets up the checks every [`Game`] must pass (items 1,
/// 2, 3, 6 of the list below); each capability adds its checks when you opt
/// in, since only you know which traits your game implements:
///
/// | opt in | requires | checks |
/// |---|---|---|
/// | always | `Game` | moves empty exactly when the game is over; no duplicates; the list is stable; legal moves play, others are refused without change; clones are independent; games end within `max_plies` |
/// | [`text`](Invariants::text) | `Display + FromStr` | text round trip keeps the position, its moves and its outcome |
/// | [`position_hash`](Invariants::position_hash) | `PositionHash + Display + FromStr` | the incremental hash equals the hash of the position rebuilt from text |
/// | [`serde`](Invariants::serde) | `Serialize + DeserializeOwned` (feature `serde`) | JSON round trip keeps the position |
/// | [`action_space`](Invariants::action_space) | `ActionSpace` | indices in range, injective, inverted by `action`; every non-legal action is refused |
/// | [`color_flip`](Invariants::color_flip) | `ColorFlip` | flip twice is identity; flipped side to move, moves and outcome |
/// | [`evaluator`](Invariants::evaluator) | `Evaluator` | values finite, in `[-1, 1]`, with the outcome's sign at the end |
/// | [`policy_evaluator`](Invariants::policy_evaluator) | `PolicyEvaluator` | finite logits, value in `[-1, 1]` |
/// | [`color_flip_evaluator`](Invariants::color_flip_evaluator) | `ColorFlip`, `Evaluator` | equal values on flipped positions |
/// | [`color_flip_searcher`](Invariants::color_flip_searcher) | `ColorFlip`, `Searcher` | equal search values on flipped positions |
/// | [`expect_outcome`](Invariants::expect_outcome) | `Game` | a scripted game ends as stated |
///
/// Zero-sum outcomes (rewards summing to zero) need no check: [`Outcome`]
/// cannot express anything else.
///
/// Random games are driven by proptest from a fixed seed (so runs are
/// reproducible); a failure is shrunk to a short game and reported as an
/// [`InvariantViolation`] naming the invariant, the moves and the position.
///
/// # Example
///
/// ```
/// use game_traits::testing::{Invariants, TicTacToe, TicTacToeHeuristic};
///
/// Invariants::new(TicTacToe::new(), 9)
///     .text()
///     .position_hash()
///     .action_space()
///     .color_flip()
///     .evaluator(TicTacToeHeuristic)
///     .color_flip_evaluator(TicTacToeHeuristic)
///     .assert();
/// ```
pub struct Invariants<G: Game> {
    start: G,
    max_plies: usize,
    cases: u32,
    seed: u64,
    illegal_probes: usize,
    checks: Vec<PositionCheck<G>>,
    scenarios: Vec<(Vec<G::Move>, Option<Outcome>)>,
}

impl<G: Game> Invariants<G> {
    /// The basic checks, on random games from `start` that must end within
    /// `max_plies` plies. 64 games, seed 0.
    pub fn new(start: G, max_plies: usize) -> Self {
        Invariants {
            start,
            max_plies,
            cases: 64,
            seed: 0,
            illegal_probes: 32,
            checks: Vec::new(),
            scenarios: Vec::new(),
        }
    }

    /// Plays `cases` random games (default 64).
    #[must_use]
    pub fn cases(mut self, cases: u32) -> Self {
        self.cases = cases;
        self
    }

    /// Seeds the random games (default 0).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// At each position, offers at most this many moves that were legal
    /// elsewhere in the game but are not here, expecting refusals (default
    /// 32).
    #[must_use]
    pub fn illegal_probes(mut self, probes: usize) -> Self {
        self.illegal_probes = probes;
        self
    }

    fn with_check(
        mut self,
        check: impl Fn(&G, &[G::Move]) -> Result<(), Failure> + 'static,
    ) -> Self {
        self.checks.push(Box::new(check));
        self
    }

    /// Checks that the game played from the start position with `moves`
    /// (each legal) ends with `outcome` (`None`: not over yet).
    #[must_use]
    pub fn expect_outcome(
        mut self,
        moves: impl IntoIterator<Item = G::Move>,
        outcome: Option<Outcome>,
    ) -> Self {
        self.scenarios.push((moves.into_iter().collect(), outcome));
        self
    }

    /// Checks the `Display`/`FromStr` round trip: the reparsed position
    /// prints the same, has the same player to move, legal moves and
    /// outcome.
    #[must_use]
    pub fn text(self) -> Self
    where
        G: Display + FromStr,
        G::Err: Display,
    {
        self.with_check(|state, moves| {
            let text = state.to_string();
            let parsed: G = text.parse().or_else(|error| {
                fail(Invariant::TextRoundTrip, format!("{text:?} does not parse back: {error}"))
            })?;
            if parsed.to_string() != text {
                return fail(
                    Invariant::TextRoundTrip,
                    format!("{text:?} parses back as {:?}", parsed.to_string()),
                );
            }
            let mut parsed_moves = Vec::new();
            parsed.legal_moves(&mut parsed_moves);
            if parsed.to_move() != state.to_move()
                || parsed.outcome() != state.outcome()
                || !same_set(&parsed_moves, moves)
            {
                return fail(
                    Invariant::TextRoundTrip,
                    format!(
                        "{text:?} parses back with {:?} to move, outcome {:?}, moves {parsed_moves:?}; \
                         the original has {:?}, {:?}, {moves:?}",
                        parsed.to_move(),
                        parsed.outcome(),
                        state.to_move(),
                        state.outcome()
                    ),
                );
            }
            Ok(())
        })
    }

    /// Checks that the incremental hash equals the hash of the position
    /// rebuilt from its text form.
    #[must_use]
    pub fn position_hash(self) -> Self
    where
        G: PositionHash + Display + FromStr,
        G::Err: Display,
    {
        self.with_check(|state, _| {
            let text = state.to_string();
            let rebuilt: G = text.parse().or_else(|error| {
                fail(
                    Invariant::HashMatchesRebuilt,
                    format!("{text:?} does not parse back: {error}"),
                )
            })?;
            if rebuilt.position_hash() != state.position_hash() {
                return fail(
                    Invariant::HashMatchesRebuilt,
                    format!(
                        "incremental hash {:#018x}, rebuilt from {text:?}: {:#018x}",
                        state.position_hash(),
                        rebuilt.position_hash()
                    ),
                );
            }
            Ok(())
        })
    }

    /// Checks the serde round trip (through JSON): the deserialized position
    /// has the same `Debug` form.
    #[cfg(feature = "serde")]
    #[must_use]
    pub fn serde(self) -> Self
    where
        G: serde::Serialize + serde::de::DeserializeOwned,
    {
        self.with_check(|state, _| {
            let json = serde_json::to_string(state).or_else(|error| {
                fail(
                    Invariant::SerdeRoundTrip,
                    format!("does not serialize: {error}"),
                )
            })?;
            let back: G = serde_json::from_str(&json).or_else(|error| {
                fail(
                    Invariant::SerdeRoundTrip,
                    format!("{json} does not deserialize: {error}"),
                )
            })?;
            if debug_string(&back) != debug_string(state) {
                return fail(
                    Invariant::SerdeRoundTrip,
                    format!("{json} deserializes as {back:?}"),
                );
            }
            Ok(())
        })
    }

    /// Checks the action space: every legal move's index is in range,
    /// distinct, and maps back to the move; every action that is not legal
    /// here is refused by `is_legal` and `try_play`.
    #[must_use]
    pub fn action_space(self) -> Self
    where
        G: ActionSpace,
    {
        self.with_check(|state, moves| {
            let count = state.num_actions();
            let mut seen = HashSet::new();
            for &mv in moves {
                let index = state.action_index(mv);
                if index >= count {
                    return fail(
                        Invariant::ActionIndex,
                        format!("{mv:?} has index {index}, but there are {count} actions"),
                    );
                }
                if !seen.insert(index) {
                    return fail(
                        Invariant::ActionIndex,
                        format!("two legal moves share index {index}"),
                    );
                }
                if state.action(index) != Some(mv) {
                    return fail(
                        Invariant::ActionIndex,
                        format!(
                            "{mv:?} has index {index}, which maps back to {:?}",
                            state.action(index)
                        ),
                    );
                }
            }
            for index in (0..count).filter(|index| !seen.contains(index)) {
                if let Some(mv) = state.action(index) {
                    if state.action_index(mv) != index {
                        return fail(
                            Invariant::ActionIndex,
                            format!(
                                "action {index} is {mv:?}, whose index is {}",
                                state.action_index(mv)
                            ),
                        );
                    }
                    check_refused(state, mv)?;
                }
            }
            Ok(())
        })
    }

    /// Checks [`ColorFlip`]: flipping twice gives the position back; the
    /// flipped position has the other player to move, the flipped outcome,
    /// and exactly the mapped legal moves; `flip_move` is an involution.
    #[must_use]
    pub fn color_flip(self) -> Self
    where
        G: ColorFlip,
    {
        self.with_check(|state, moves| {
            let flipped = state.color_flipped();
            let back = flipped.color_flipped();
            if debug_string(&back) != debug_string(state) {
                return fail(
                    Invariant::ColorFlip,
                    format!("flipping twice gives {back:?}"),
                );
            }
            if flipped.to_move() != state.to_move().opponent() {
                return fail(
                    Invariant::ColorFlip,
                    format!(
                        "the flipped position has {:?} to move, like the original",
                        flipped.to_move()
                    ),
                );
            }
            if flipped.outcome() != state.outcome().map(Outcome::flipped) {
                return fail(
                    Invariant::ColorFlip,
                    format!(
                        "outcome {:?}, flipped position's outcome {:?}",
                        state.outcome(),
                        flipped.outcome()
                    ),
                );
            }
            let mapped: Vec<G::Move> = moves.iter().map(|&mv| G::flip_move(mv)).collect();
            let mut flipped_moves = Vec::new();
            flipped.legal_moves(&mut flipped_moves);
            if !same_set(&mapped, &flipped_moves) {
                return fail(
                    Invariant::ColorFlip,
                    format!("mapped moves {mapped:?}, flipped position's moves {flipped_moves:?}"),
                );
            }
            if let Some(&mv) = moves
                .iter()
                .find(|&&mv| G::flip_move(G::flip_move(mv)) != mv)
            {
                return fail(
                    Invariant::ColorFlip,
                    format!("flip_move twice changes {mv:?}"),
                );
            }
            Ok(())
        })
    }

    /// Checks that `evaluator` gives finite values in `[-1, 1]`, positive
    /// where the player to move has won, negative where they have lost and
    /// zero at draws.
    #[must_use]
    pub fn evaluator<E: Evaluator<G> + 'static>(self, evaluator: E) -> Self {
        self.with_check(move |state, _| {
            let value = evaluator.value(state);
            if !(-1.0..=1.0).contains(&value) {
                return fail(Invariant::EvaluatorRange, format!("value {value} is outside [-1, 1]"));
            }
            if let Some(outcome) = state.outcome() {
                let reward = outcome.reward(state.to_move());
                if value.signum() != reward.signum() && !(value == 0.0 && reward == 0.0) {
                    return fail(
                        Invariant::EvaluatorRange,
                        format!("value {value} at a finished game with reward {reward} for the player to move"),
                    );
                }
            }
            Ok(())
        })
    }

    /// Checks that `evaluator` gives finite logits, one per legal move, and
    /// a value in `[-1, 1]`.
    #[must_use]
    pub fn policy_evaluator<E: PolicyEvaluator<G> + 'static>(self, evaluator: E) -> Self {
        self.with_check(move |state, moves| {
            if moves.is_empty() {
                return Ok(());
            }
            let mut logits = vec![f32::NAN; moves.len()];
            let value = evaluator.evaluate(state, moves, &mut logits);
            if !(-1.0..=1.0).contains(&value) {
                return fail(
                    Invariant::PolicyEvaluatorRange,
                    format!("value {value} is outside [-1, 1]"),
                );
            }
            if let Some((mv, logit)) = moves
                .iter()
                .zip(&logits)
                .find(|(_, logit)| !logit.is_finite())
            {
                return fail(
                    Invariant::PolicyEvaluatorRange,
                    format!("logit {logit} for {mv:?}"),
                );
            }
            Ok(())
        })
    }

    /// Checks that `evaluator` gives a position and its flip the same value
    /// (within `1e-5`).
    #[must_use]
    pub fn color_flip_evaluator<E: Evaluator<G> + 'static>(self, evaluator: E) -> Self
    where
        G: ColorFlip,
    {
        self.with_check(move |state, _| {
            let value = evaluator.value(state);
            let flipped = evaluator.value(&state.color_flipped());
            if (value - flipped).abs() > 1e-5 {
                return fail(
                    Invariant::EvaluatorFlip,
                    format!("value {value}, flipped position's value {flipped}"),
                );
            }
            Ok(())
        })
    }

    /// Checks that a searcher gives a position and its flip the same value
    /// within `tolerance`. `make` builds a fresh searcher for each search;
    /// keep `limits` small, as every position of every game is searched
    /// twice.
    #[must_use]
    pub fn color_flip_searcher<S, F>(self, make: F, limits: Limits, tolerance: f32) -> Self
    where
        G: ColorFlip,
        S: Searcher<G>,
        F: Fn() -> S + 'static,
    {
        self.with_check(move |state, moves| {
            if moves.is_empty() {
                return Ok(());
            }
            let value = make().search(state, &limits).value;
            let flipped = make().search(&state.color_flipped(), &limits).value;
            if (value - flipped).abs() > tolerance || !value.is_finite() {
                return fail(
                    Invariant::SearcherFlip,
                    format!("search value {value}, flipped position's search value {flipped}"),
                );
            }
            Ok(())
        })
    }

    /// Runs every check.
    ///
    /// # Errors
    ///
    /// Returns the violation found, shrunk to a short game.
    pub fn check(&self) -> Result<(), InvariantViolation> {
        for (moves, outcome) in &self.scenarios {
            self.run_scenario(moves, *outcome)?;
        }
        let mut config = Config::with_cases(self.cases);
        config.failure_persistence = None;
        config.max_shrink_iters = 512;
        let mut seed = [0u8; 32];
        for (i, chunk) in seed.chunks_mut(8).enumerate() {
            chunk.copy_from_slice(&mix64(self.seed ^ (i as u64 + 1)).to_le_bytes());
        }
        let mut runner =
            TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
        let strategy = vec(any::<u32>(), self.max_plies);
        let result = runner.run(&strategy, |choices| {
            self.guarded_random_game(&choices)
                .map_err(|violation| TestCaseError::fail(violation.to_string()))
        });
        match result {
            Ok(()) => Ok(()),
            Err(TestError::Fail(_, choices)) => match self.guarded_random_game(&choices) {
                Err(violation) => Err(violation),
                Ok(()) => unreachable!(
                    "a failing case passed when run again; checks must be deterministic"
                ),
            },
            Err(TestError::Abort(reason)) => Err(InvariantViolation {
                invariant: Invariant::NoPanic,
                detail: format!("property test aborted: {reason}"),
                moves: Vec::new(),
                position: debug_string(&self.start),
            }),
        }
    }

    /// Runs every check and panics with the violation, for use in `#[test]`.
    ///
    /// # Panics
    ///
    /// If an invariant is violated.
    pub fn assert(&self) {
        if let Err(violation) = self.check() {
            panic!("{violation}");
        }
    }

    fn run_scenario(
        &self,
        moves: &[G::Move],
        expected: Option<Outcome>,
    ) -> Result<(), InvariantViolation> {
        let mut state = self.start.clone();
        let mut played = Vec::new();
        for &mv in moves {
            played.push(debug_string(&mv));
            if let Err(error) = state.try_play(mv) {
                return Err(InvariantViolation {
                    invariant: Invariant::ExpectedOutcome,
                    detail: format!("scripted move refused: {error}"),
                    moves: played,
                    position: debug_string(&state),
                });
            }
        }
        if state.outcome() != expected {
            return Err(InvariantViolation {
                invariant: Invariant::ExpectedOutcome,
                detail: format!("expected outcome {expected:?}, got {:?}", state.outcome()),
                moves: played,
                position: debug_string(&state),
            });
        }
        Ok(())
    }

    /// Plays one random game (move `i` is `choices[i] % legal.len()`),
    /// checking every position; turns panics into violations.
    fn guarded_random_game(&self, choices: &[u32]) -> Result<(), InvariantViolation> {
        let mut trail = Vec::new();
        let mut position = debug_string(&self.start);
        let result = catch_unwind(AssertUnwindSafe(|| {
            self.random_game(choices, &mut trail, &mut position)
        }));
        let failure = match result {
            Ok(Ok(())) => return Ok(()),
            Ok(Err(failure)) => failure,
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
                    .unwrap_or_else(|| "a panic without a message".to_string());
                (Invariant::NoPanic, format!("panicked: {message}"))
            }
        };
        Err(InvariantViolation {
            invariant: failure.0,
            detail: failure.1,
            moves: trail,
            position,
        })
    }

    fn random_game(
        &self,
        choices: &[u32],
        trail: &mut Vec<String>,
        position: &mut String,
    ) -> Result<(), Failure> {
        let mut state = self.start.clone();
        let mut moves = Vec::new();
        let mut seen_moves: Vec<G::Move> = Vec::new();
        let mut seen_set = HashSet::new();
        for &choice in choices {
            *position = debug_string(&state);
            state.legal_moves(&mut moves);
            self.check_position(&state, &moves, &seen_moves)?;
            if moves.is_empty() {
                return Ok(());
            }
            for &mv in &moves {
                if seen_set.insert(mv) {
                    seen_moves.push(mv);
                }
            }
            let mv = moves[choice as usize % moves.len()];
            let mut next = state.clone();
            next.play(mv);
            trail.push(debug_string(&mv));
            let mut again = Vec::new();
            state.legal_moves(&mut again);
            if debug_string(&state) != *position || again != moves {
                return fail(
                    Invariant::CloneIndependent,
                    format!("playing {mv:?} on a clone changed the original to {state:?}"),
                );
            }
            state = next;
        }
        *position = debug_string(&state);
        state.legal_moves(&mut moves);
        self.check_position(&state, &moves, &seen_moves)?;
        if moves.is_empty() {
            Ok(())
        } else {
            fail(
                Invariant::Terminates,
                format!("the game is not over after {} plies", self.max_plies),
            )
        }
    }

    fn check_position(
        &self,
        state: &G,
        moves: &[G::Move],
        seen_moves: &[G::Move],
    ) -> Result<(), Failure> {
        let outcome = state.outcome();
        if moves.is_empty() != outcome.is_some() {
            return fail(
                Invariant::MovesMatchOutcome,
                format!("outcome {outcome:?} with legal moves {moves:?}"),
            );
        }
        if state.is_over() != outcome.is_some() {
            return fail(
                Invariant::MovesMatchOutcome,
                format!(
                    "is_over() is {} but outcome() is {outcome:?}",
                    state.is_over()
                ),
            );
        }
        let legal: HashSet<G::Move> = moves.iter().copied().collect();
        if legal.len() != moves.len() {
            let mut seen = HashSet::new();
            let duplicate = moves.iter().find(|&&mv| !seen.insert(mv));
            return fail(
                Invariant::NoDuplicateMoves,
                format!("{duplicate:?} is listed twice in {moves:?}"),
            );
        }
        let mut again = moves.to_vec();
        again.extend_from_slice(moves);
        state.legal_moves(&mut again);
        if again != moves {
            return fail(
                Invariant::StableMoveList,
                format!("first call gave {moves:?}, a second call into a used buffer {again:?}"),
            );
        }
        let before = debug_string(state);
        for &mv in moves {
            if !state.is_legal(mv) {
                return fail(
                    Invariant::LegalMovesPlay,
                    format!("is_legal({mv:?}) is false for a listed move"),
                );
            }
            let mut checked = state.clone();
            if let Err(error) = checked.try_play(mv) {
                return fail(
                    Invariant::LegalMovesPlay,
                    format!("try_play refused a listed move: {error}"),
                );
            }
            let mut fast = state.clone();
            fast.play(mv);
            if debug_string(&checked) != debug_string(&fast) {
                return fail(
                    Invariant::LegalMovesPlay,
                    format!("{mv:?}: try_play reached {checked:?}, play reached {fast:?}"),
                );
            }
        }
        for &mv in seen_moves
            .iter()
            .filter(|mv| !legal.contains(mv))
            .take(self.illegal_probes)
        {
            check_refused(state, mv)?;
        }
        if debug_string(state) != before {
            return fail(
                Invariant::CloneIndependent,
                "trying moves on clones changed the original",
            );
        }
        for check in &self.checks {
            check(state, moves)?;
        }
        Ok(())
    }
}

/// `mv` is not legal in `state`: it must be refused, without change.
fn check_refused<G: Game>(state: &G, mv: G::Move) -> Result<(), Failure> {
    if state.is_legal(mv) {
        return fail(
            Invariant::IllegalMovesRefused,
            format!("is_legal({mv:?}) is true for an unlisted move"),
        );
    }
    let mut copy = state.clone();
    let before = debug_string(&copy);
    if copy.try_play(mv).is_ok() {
        return fail(
            Invariant::IllegalMovesRefused,
            format!("try_play accepted the unlisted move {mv:?}"),
        );
    }
    if debug_string(&copy) != before {
        return fail(
            Invariant::IllegalMovesRefused,
            format!("the refused try_play({mv:?}) changed the position to {copy:?}"),
        );
    }
    Ok(())
}

fn same_set<M: Eq + std::hash::Hash + Copy>(a: &[M], b: &[M]) -> bool {
    let a: HashSet<M> = a.iter().copied().collect();
    let b: HashSet<M> = b.iter().copied().collect();
    a == b
}

/// Runs the basic invariants (those every [`Game`] must pass) on `cases`
/// random games from `start` that must end within `max_plies` plies, and
/// panics on a violation. For capability checks use [`Invariants`].
///
/// # Panics
///
/// If an invariant is violated.
pub fn check_game_invariants<G: Game>(start: G, max_plies: usize) {
    Invariants::new(start, max_plies).assert();
}

/// Checks an information set against `samples` sampled worlds: each world
/// has the same player to move, is not over exactly when the information set
/// has moves, and, when it is the information set's owner's turn, has
/// exactly the information set's legal moves.
///
/// # Errors
///
/// Returns the first inconsistency found.
pub fn check_information_set<I: InformationSet, R: rand::Rng + ?Sized>(
    info: &I,
    samples: usize,
    rng: &mut R,
) -> Result<(), InvariantViolation> {
    let mut known = Vec::new();
    info.legal_moves(&mut known);
    let mut world_moves = Vec::new();
    for sample in 0..samples {
        let world = info.sample_world(rng);
        world.legal_moves(&mut world_moves);
        let detail = if world.to_move() != info.to_move() {
            Some(format!(
                "world {sample} has {:?} to move, the information set {:?}",
                world.to_move(),
                info.to_move()
            ))
        } else if (info.to_move() == info.player() && !same_set(&known, &world_moves))
            || world_moves.is_empty() != known.is_empty()
        {
            Some(format!(
                "world {sample} has moves {world_moves:?}, the information set {known:?}"
            ))
        } else {
            None
        };
        if let Some(detail) = detail {
            return Err(InvariantViolation {
                invariant: Invariant::InformationSet,
                detail,
                moves: Vec::new(),
                position: debug_string(&world),
            });
        }
    }
    Ok(())
}
