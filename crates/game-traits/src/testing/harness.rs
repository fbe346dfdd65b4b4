//! The invariant harness: property tests that any [`Game`] implementation
//! must pass, run over random legal games with proptest.

use std::cell::RefCell;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Debug, Display};
use std::hash::Hash;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;

use proptest::collection::vec;
use proptest::prelude::any;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

use crate::zobrist::mix64;
use crate::{
    ActionSpace, ColorFlip, Evaluator, Game, GridSymmetry, InformationSet, Limits, Outcome,
    PlaneEncoding, Player, PolicyEvaluator, PositionHash, Searcher,
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
    /// Positions met in a run that differ in the player to move, or in their
    /// hash key (see [`Invariants::hash_key`]), have different hashes.
    DistinctHashes,
    /// Positions met in a run with the same hash key and player to move have
    /// the same hash, however they were reached (see
    /// [`Invariants::hash_key`]).
    TranspositionHash,
    /// A position and its colour flip have different hashes.
    ColorFlipHash,
    /// `Display` then `FromStr` gives the same position: the same text,
    /// player to move, moves and outcome, and (for a text form that keeps
    /// the whole state) the same `Debug` form.
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
    /// The planes have the stated shape and finite values, the same on
    /// every call; policy indices are in range and distinct on legal
    /// moves; the symmetries start with the identity and fit the grid.
    PlaneEncoding,
    /// A position and its colour flip have the same planes, and a move
    /// and its flip the same policy index.
    EncodingFlip,
    /// A position moved by one of the encoding's symmetries has the moved
    /// planes, and its legal moves have the moved policy indices.
    EncodingSymmetry,
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

/// How a random game of the harness chooses its moves.
///
/// Uniformly random games rarely reach some states: the longest lines
/// (near the ply cap, the draw rules), the shortest ones (early wins,
/// wipe-outs), forced sequences (passes). The other styles steer towards
/// them using the number of legal moves each move leaves the next player
/// (none when it ends the game); one ply in eight stays uniformly random
/// so that games still differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PlayStyle {
    /// Every legal move equally likely.
    Uniform,
    /// Mostly a move that leaves the next player the most legal moves
    /// (so a game-ending move only when all are): long, quiet games that
    /// run into the ply cap and the draw rules.
    Long,
    /// Mostly a move that leaves the next player the fewest legal moves
    /// (game-ending moves first): early endings, forced replies, passes.
    Short,
}

impl PlayStyle {
    /// The index of the move to play, from the proptest choice and the
    /// number of legal moves after each move (0 exactly when it ends the
    /// game).
    fn pick(self, choice: u16, mobility: &[usize]) -> usize {
        let count = mobility.len();
        if self == PlayStyle::Uniform {
            return choice as usize % count;
        }
        let rank = (choice / 8) as usize;
        if choice.is_multiple_of(8) {
            return rank % count;
        }
        let target = match self {
            PlayStyle::Short => mobility.iter().min(),
            _ => mobility.iter().max(),
        };
        let Some(&target) = target else {
            return 0;
        };
        let best = mobility.iter().filter(|&&moves| moves == target).count();
        mobility
            .iter()
            .enumerate()
            .filter(|&(_, &moves)| moves == target)
            .nth(rank % best)
            .map_or(0, |(index, _)| index)
    }
}

/// What a passing run of the harness visited, from [`Invariants::run`].
///
/// Useful to assert that a run reaches the states a test is about (draws,
/// long games) rather than trusting that it does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Coverage {
    /// Random games played.
    pub games: u32,
    /// Positions checked in full: every position of every random and
    /// scripted game, and every finished position one move off a random
    /// game.
    pub positions: u64,
    /// The finished positions among them.
    pub finished_positions: u64,
    /// Positions one move off the random games whose outcome was checked
    /// against their legal moves.
    pub neighbours: u64,
    /// Random games won by the first player.
    pub first_wins: u32,
    /// Random games won by the second player.
    pub second_wins: u32,
    /// Random games drawn.
    pub draws: u32,
    /// The most plies a random game lasted.
    pub longest_game: usize,
    /// Distinct position hashes met (positions and their colour flips;
    /// 0 without [`Invariants::position_hash`]).
    pub distinct_hashes: usize,
}

impl Coverage {
    fn absorb(&mut self, game: &Coverage) {
        self.games += game.games;
        self.positions += game.positions;
        self.finished_positions += game.finished_positions;
        self.neighbours += game.neighbours;
        self.first_wins += game.first_wins;
        self.second_wins += game.second_wins;
        self.draws += game.draws;
        self.longest_game = self.longest_game.max(game.longest_game);
    }

    fn count_end(&mut self, outcome: Option<Outcome>, plies: usize) {
        self.games += 1;
        self.longest_game = self.longest_game.max(plies);
        match outcome {
            Some(Outcome::Win(Player::First)) => self.first_wins += 1,
            Some(Outcome::Win(Player::Second)) => self.second_wins += 1,
            Some(Outcome::Draw) => self.draws += 1,
            None => {}
        }
    }
}

/// A check failure before the moves and position are attached.
type Failure = (Invariant, String);

fn fail<T>(invariant: Invariant, detail: impl Into<String>) -> Result<T, Failure> {
    Err((invariant, detail.into()))
}

/// The planes of `state`, written into a buffer of NaN so that a value
/// the encoding never writes is seen.
fn encoded<G: PlaneEncoding>(state: &G) -> Vec<f32> {
    let mut planes = vec![f32::NAN; state.plane_shape().len()];
    state.encode_planes(&mut planes);
    planes
}

fn debug_string<T: Debug + ?Sized>(value: &T) -> String {
    format!("{value:?}")
}

type PositionCheck<G> = Box<dyn Fn(&G, &[<G as Game>::Move]) -> Result<(), Failure>>;

/// A failing random game: the violation and the moves that led to it.
struct Failed<G: Game> {
    violation: InvariantViolation,
    moves: Vec<G::Move>,
}

/// Reads a position's text back, given the original.
type Parser<G> = Box<dyn Fn(&str, &G) -> Result<G, String>>;

/// A registered text form: how to print and reparse a position.
struct TextForm<G> {
    print: fn(&G) -> String,
    /// Reads the text back; gets the original for what the text leaves out
    /// (rules, variant).
    parse: Parser<G>,
    /// The text keeps the whole state (its `Debug` form), not only what the
    /// hash covers.
    whole_state: bool,
}

/// The position hash and every hash met in the current run.
struct Hashing<G> {
    hash: fn(&G) -> u64,
    seen: RefCell<Box<dyn SeenHashes<G>>>,
}

/// The hashes met in a run, with the position each stands for.
trait SeenHashes<G> {
    /// Records a position; fails if its hash stands for another position
    /// or its key already had another hash.
    fn record(&mut self, state: &G, state_debug: &str, hash: u64) -> Result<(), Failure>;
    fn clear(&mut self);
    fn len(&self) -> usize;
}

/// Hashes by key: `key` names what the hash identifies (the player to move
/// is always added). Without a user key, `K = ()` and only the player to
/// move is compared.
struct KeyedHashes<K, F> {
    key: F,
    transpositions: bool,
    by_hash: HashMap<u64, (Player, K, String)>,
    by_key: HashMap<(Player, K), u64>,
}

impl<K, F> KeyedHashes<K, F> {
    fn new(key: F, transpositions: bool) -> Self {
        KeyedHashes {
            key,
            transpositions,
            by_hash: HashMap::new(),
            by_key: HashMap::new(),
        }
    }
}

impl<G, K, F> SeenHashes<G> for KeyedHashes<K, F>
where
    G: Game,
    K: Clone + Eq + Hash + Debug,
    F: Fn(&G) -> K,
{
    fn record(&mut self, state: &G, state_debug: &str, hash: u64) -> Result<(), Failure> {
        let side = state.to_move();
        let key = (self.key)(state);
        if let Some((other_side, other_key, other)) = self.by_hash.get(&hash) {
            if *other_side != side {
                return fail(
                    Invariant::DistinctHashes,
                    format!(
                        "hash {hash:#018x} stands for {state_debug} with {side:?} to move and \
                         for {other} with {other_side:?} to move: the hash must cover the \
                         player to move"
                    ),
                );
            }
            if *other_key != key {
                return fail(
                    Invariant::DistinctHashes,
                    format!(
                        "hash {hash:#018x} stands for {state_debug} (key {key:?}) and for \
                         {other} (key {other_key:?})"
                    ),
                );
            }
        }
        if self.transpositions {
            match self.by_key.entry((side, key.clone())) {
                Entry::Occupied(entry) if *entry.get() != hash => {
                    let other_hash = *entry.get();
                    let other = self.by_hash.get(&other_hash).map_or("?", |seen| &seen.2);
                    return fail(
                        Invariant::TranspositionHash,
                        format!(
                            "{state_debug} hashes to {hash:#018x}, but {other}, with the same \
                             key {key:?} and player to move, to {other_hash:#018x}"
                        ),
                    );
                }
                Entry::Occupied(_) => {}
                Entry::Vacant(entry) => {
                    entry.insert(hash);
                }
            }
        }
        self.by_hash
            .entry(hash)
            .or_insert_with(|| (side, key, state_debug.to_string()));
        Ok(())
    }

    fn clear(&mut self) {
        self.by_hash.clear();
        self.by_key.clear();
    }

    fn len(&self) -> usize {
        self.by_hash.len()
    }
}

/// The moves met so far in a game, offered where they are not legal.
struct MetMoves<M> {
    list: Vec<M>,
    set: HashSet<M>,
}

impl<M: Copy + Eq + Hash> MetMoves<M> {
    fn new() -> Self {
        MetMoves {
            list: Vec::new(),
            set: HashSet::new(),
        }
    }

    fn extend(&mut self, moves: &[M]) {
        for &mv in moves {
            if self.set.insert(mv) {
                self.list.push(mv);
            }
        }
    }
}

/// The invariant harness for one game, configured by chaining.
///
/// [`Invariants::new`] sets up the checks every [`Game`] must pass; each
/// capability adds its checks when you opt in, since only you know which
/// traits your game implements. Checks that need two capabilities (the
/// hash of a flipped position, the hash of a reparsed one) run when both
/// are on, whatever the order of the calls.
///
/// | opt in | the game provides | checks ([`Invariant`]) |
/// |---|---|---|
/// | always | `Game`, with a `Debug` form showing the whole state | moves empty exactly when the game is over ([`MovesMatchOutcome`](Invariant::MovesMatchOutcome)); no duplicates; the list is stable; legal moves play, others are refused without change; clones are independent; games end within `max_plies` ([`Terminates`](Invariant::Terminates)) |
/// | [`text`](Invariants::text) | `Display + FromStr` keeping the whole state | [`TextRoundTrip`](Invariant::TextRoundTrip): the reparsed position prints the same and has the same `Debug` form (so a text form that drops a ply counter fails) |
/// | [`text_with`](Invariants::text_with) | `Display`, and a parser told the original (for rules the text leaves out) | as `text` |
/// | [`lossy_text`](Invariants::lossy_text) | `Display + FromStr` keeping at least what the hash covers (a FEN without the repetition history) | the reparsed position prints the same and has the same player to move |
/// | [`position_hash`](Invariants::position_hash) | `PositionHash` | [`DistinctHashes`](Invariant::DistinctHashes): no hash met in the run stands for positions with different players to move; with a text form, [`HashMatchesRebuilt`](Invariant::HashMatchesRebuilt); with `color_flip`, [`ColorFlipHash`](Invariant::ColorFlipHash) |
/// | [`hash_key`](Invariants::hash_key) | `PositionHash`, and a key `Fn(&G) -> K` (`K: Clone + Eq + Hash + Debug`) naming what the hash identifies | `position_hash`, and: positions with different keys have different hashes ([`DistinctHashes`](Invariant::DistinctHashes)), positions with equal keys equal hashes ([`TranspositionHash`](Invariant::TranspositionHash)) |
/// | [`serde`](Invariants::serde) | `Serialize + DeserializeOwned` (feature `serde`) | JSON round trip keeps the `Debug` form |
/// | [`action_space`](Invariants::action_space) | `ActionSpace` | indices in range, injective, inverted by `action`; every non-legal action is refused |
/// | [`color_flip`](Invariants::color_flip) | `ColorFlip` | flip twice is identity; flipped side to move, moves and outcome; with `position_hash`, [`ColorFlipHash`](Invariant::ColorFlipHash) |
/// | [`evaluator`](Invariants::evaluator) | `Evaluator` | values finite, in `[-1, 1]`, with the outcome's sign at the end |
/// | [`policy_evaluator`](Invariants::policy_evaluator) | `PolicyEvaluator` | finite logits, value in `[-1, 1]` |
/// | [`color_flip_evaluator`](Invariants::color_flip_evaluator) | `ColorFlip`, `Evaluator` | equal values on flipped positions |
/// | [`color_flip_searcher`](Invariants::color_flip_searcher) | `ColorFlip`, `Searcher` | equal search values on flipped positions |
/// | [`plane_encoding`](Invariants::plane_encoding) | `PlaneEncoding` | [`PlaneEncoding`](Invariant::PlaneEncoding): planes of the stated shape, finite, repeatable; policy indices in range and distinct; symmetries start with the identity and fit the grid |
/// | [`color_flip_encoding`](Invariants::color_flip_encoding) | `ColorFlip`, `PlaneEncoding` | [`EncodingFlip`](Invariant::EncodingFlip): a position and its flip have equal planes, a move and its flip equal policy indices |
/// | [`encoding_symmetries`](Invariants::encoding_symmetries) | `PlaneEncoding`, and `Fn(&G, GridSymmetry) -> G` moving a position | [`EncodingSymmetry`](Invariant::EncodingSymmetry): the moved position has the moved planes and the moved policy indices |
/// | [`expect_outcome`](Invariants::expect_outcome) | `Game` | a scripted game ends as stated (and each of its positions passes every check) |
///
/// Zero-sum outcomes (rewards summing to zero) need no check: [`Outcome`]
/// cannot express anything else.
///
/// # The `Debug` form is the state
///
/// The harness compares positions by their `Debug` form: after a refused
/// move, after `try_play` against `play`, across a text or serde round trip
/// and a double colour flip. `Debug` must therefore show everything the
/// rules depend on (ply counters, repetition history, rule switches, or a
/// digest of them), the same way every time, and nothing that can differ
/// between equal positions (capacities, addresses, warm caches).
///
/// # Which positions are checked
///
/// Each case is one random game from the start position, driven by
/// proptest from a fixed seed (so runs are reproducible) in one of the
/// [`PlayStyle`]s (by default a third each of uniform, long and short
/// games), until it ends or reaches `max_plies`. Every position of the game
/// is checked in full; every position one move off it has its outcome
/// checked against its legal moves, and those where the game ends (every
/// way to finish from any position the game passed through) are checked in
/// full. Scripted games ([`expect_outcome`](Invariants::expect_outcome))
/// are checked in full at every position. The hashes of all of these, and
/// of their colour flips, are compared across the whole run.
///
/// A failure is shrunk to a short game and reported as an
/// [`InvariantViolation`] naming the invariant, the moves and the
/// position; [`run`](Invariants::run) tells what a passing run visited.
///
/// # Example
///
/// ```
/// use game_traits::testing::{Invariants, TicTacToe, TicTacToeHeuristic};
///
/// Invariants::new(TicTacToe::new(), 9)
///     .text()
///     // The hash identifies the whole position; the key is its text form,
///     // not the struct, which stores the hash itself.
///     .hash_key(TicTacToe::to_string)
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
    styles: Vec<PlayStyle>,
    checks: Vec<PositionCheck<G>>,
    scenarios: Vec<(Vec<G::Move>, Option<Outcome>)>,
    text: Option<TextForm<G>>,
    hashing: Option<Hashing<G>>,
    flip: Option<fn(&G) -> G>,
    coverage: RefCell<Coverage>,
}

impl<G: Game> Invariants<G> {
    /// The basic checks, on random games from `start` that must end within
    /// `max_plies` plies. 64 games, seed 0, every [`PlayStyle`].
    ///
    /// `max_plies` is the longest game the rules allow: the board size for
    /// a placement game (tic-tac-toe 9, Gomoku 15x15 225), the move cap of
    /// a game with one (Jungle's draw rule), or for a game whose length the
    /// rules bound only loosely (Kalah, where extra turns make games
    /// longer), a bound proved from the rules, such as the seeds that must
    /// reach the stores. A random game still running at `max_plies` is
    /// reported as a game that does not end, so a bound too tight fails
    /// correct rules, and one far too loose lets a game that never ends go
    /// on for that many plies before it is caught.
    pub fn new(start: G, max_plies: usize) -> Self {
        Invariants {
            start,
            max_plies,
            cases: 64,
            seed: 0,
            illegal_probes: 32,
            styles: vec![PlayStyle::Uniform, PlayStyle::Long, PlayStyle::Short],
            checks: Vec::new(),
            scenarios: Vec::new(),
            text: None,
            hashing: None,
            flip: None,
            coverage: RefCell::new(Coverage::default()),
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

    /// Plays the random games in these styles, each case picking one at
    /// random (default: all of them). An empty list means
    /// [`PlayStyle::Uniform`].
    #[must_use]
    pub fn play_styles(mut self, styles: impl IntoIterator<Item = PlayStyle>) -> Self {
        self.styles = styles.into_iter().collect();
        if self.styles.is_empty() {
            self.styles.push(PlayStyle::Uniform);
        }
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
    /// (each legal) ends with `outcome` (`None`: not over yet), and runs
    /// every check on each position on the way: script the rare states you
    /// know of (a wipe-out, a draw by the clock).
    #[must_use]
    pub fn expect_outcome(
        mut self,
        moves: impl IntoIterator<Item = G::Move>,
        outcome: Option<Outcome>,
    ) -> Self {
        self.scenarios.push((moves.into_iter().collect(), outcome));
        self
    }

    /// Checks the `Display`/`FromStr` round trip of a text form that keeps
    /// the whole state: the reparsed position prints the same, has the same
    /// player to move, legal moves and outcome, and the same `Debug` form.
    /// With [`position_hash`](Invariants::position_hash), its hash must
    /// also equal the incremental one.
    ///
    /// For a text form read in a context it does not carry (rules, a
    /// variant), use [`text_with`](Invariants::text_with); for one that
    /// deliberately leaves state out, [`lossy_text`](Invariants::lossy_text).
    #[must_use]
    pub fn text(self) -> Self
    where
        G: Display + FromStr,
        G::Err: Display,
    {
        self.text_with(|text: &str, _: &G| text.parse::<G>())
    }

    /// As [`text`](Invariants::text), reading the text back with `parse`,
    /// which is also given the original position for what the text does
    /// not carry (the rules, say).
    #[must_use]
    pub fn text_with<F, E>(mut self, parse: F) -> Self
    where
        G: Display,
        F: Fn(&str, &G) -> Result<G, E> + 'static,
        E: Display,
    {
        self.text = Some(TextForm {
            print: G::to_string,
            parse: Box::new(move |text, original| {
                parse(text, original).map_err(|error| error.to_string())
            }),
            whole_state: true,
        });
        self
    }

    /// Checks a text form that deliberately leaves part of the state out
    /// (a position string without the repetition history): the reparsed
    /// position prints the same and has the same player to move, and, with
    /// [`position_hash`](Invariants::position_hash), the same hash. Ignored
    /// if [`text`](Invariants::text) is also on.
    #[must_use]
    pub fn lossy_text(mut self) -> Self
    where
        G: Display + FromStr,
        G::Err: Display,
    {
        if self.text.is_none() {
            self.text = Some(TextForm {
                print: G::to_string,
                parse: Box::new(|text, _| text.parse::<G>().map_err(|error| error.to_string())),
                whole_state: false,
            });
        }
        self
    }

    /// Checks the position hash: across the whole run (random games, the
    /// positions one move off them, scripted games and colour flips), no
    /// hash stands for positions with different players to move. With a
    /// text form, the incremental hash equals the hash of the reparsed
    /// position; with [`color_flip`](Invariants::color_flip), a position
    /// and its flip hash differently.
    ///
    /// To compare more than the player to move, say what the hash
    /// identifies with [`hash_key`](Invariants::hash_key).
    #[must_use]
    pub fn position_hash(mut self) -> Self
    where
        G: PositionHash,
    {
        if self.hashing.is_none() {
            let side_only = KeyedHashes::new(|_: &G| (), false);
            self.hashing = Some(Hashing {
                hash: G::position_hash,
                seen: RefCell::new(Box::new(side_only)),
            });
        }
        self
    }

    /// Turns on [`position_hash`](Invariants::position_hash) and states
    /// what the hash identifies: `key` maps a position to it (the player to
    /// move is always added). Across the run, positions with different keys
    /// must have different hashes (a collision among thousands of
    /// positions is a bug, not bad luck) and positions with equal keys equal
    /// hashes, however they were reached.
    ///
    /// The key must not contain the hash. For a hash of the whole state,
    /// key on the state without it: the position itself
    /// (`.hash_key(MyGame::clone)`, given `Eq + Hash`) only if the struct
    /// does not store its hash, else its text form
    /// (`.hash_key(MyGame::to_string)`) or the fields the hash is made
    /// from (`.hash_key(|g: &MyGame| (g.board, g.to_move))`). A key that
    /// holds a stored, incrementally updated hash differs whenever that
    /// hash does, so a wrong update could never show as equal keys with
    /// different hashes. A hash that leaves out counters names the rest
    /// (Jungle: the board string).
    #[must_use]
    pub fn hash_key<K, F>(mut self, key: F) -> Self
    where
        G: PositionHash,
        K: Clone + Eq + Hash + Debug + 'static,
        F: Fn(&G) -> K + 'static,
    {
        self.hashing = Some(Hashing {
            hash: G::position_hash,
            seen: RefCell::new(Box::new(KeyedHashes::new(key, true))),
        });
        self
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
    /// here is refused by `is_legal` and `try_play`, without change.
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
            let mut before = None;
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
                    let before = before.get_or_insert_with(|| debug_string(state));
                    check_refused(state, mv, before)?;
                }
            }
            Ok(())
        })
    }

    /// Checks [`ColorFlip`]: flipping twice gives the position back; the
    /// flipped position has the other player to move, the flipped outcome,
    /// and exactly the mapped legal moves; `flip_move` is an involution.
    /// With [`position_hash`](Invariants::position_hash), a position and its
    /// flip hash differently, and flipped positions join the run's hash
    /// comparisons.
    #[must_use]
    pub fn color_flip(mut self) -> Self
    where
        G: ColorFlip,
    {
        self.flip = Some(G::color_flipped);
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

    /// Checks [`PlaneEncoding`]: the planes have `plane_shape().len()`
    /// values, all finite, and encoding twice gives the same planes (into
    /// a buffer full of NaN, so a value left unwritten shows); the shape and
    /// the encoding's name are the start position's; every legal move's
    /// policy index is below `policy_len()` and distinct; the symmetries
    /// start with the identity, transpose only square grids, and move the
    /// policy indices by a permutation that the inverse symmetry undoes.
    #[must_use]
    pub fn plane_encoding(self) -> Self
    where
        G: PlaneEncoding,
    {
        let shape = self.start.plane_shape();
        let name = self.start.encoding();
        self.with_check(move |state, moves| {
            if state.plane_shape() != shape || state.encoding() != name {
                return fail(
                    Invariant::PlaneEncoding,
                    format!(
                        "encoding {:?} of shape {}, but the start position's is {name:?} of shape {shape}",
                        state.encoding(),
                        state.plane_shape()
                    ),
                );
            }
            let planes = encoded(state);
            if let Some(at) = planes.iter().position(|value| !value.is_finite()) {
                return fail(
                    Invariant::PlaneEncoding,
                    format!("plane value {} at offset {at} of {shape} is not finite (or was never written)", planes[at]),
                );
            }
            if encoded(state) != planes {
                return fail(Invariant::PlaneEncoding, "encoding twice gives different planes");
            }
            let policy_len = state.policy_len();
            let mut seen = HashSet::new();
            for &mv in moves {
                let index = state.policy_index(mv);
                if index >= policy_len {
                    return fail(
                        Invariant::PlaneEncoding,
                        format!("{mv:?} has policy index {index}, but the policy has {policy_len}"),
                    );
                }
                if !seen.insert(index) {
                    return fail(
                        Invariant::PlaneEncoding,
                        format!("two legal moves share policy index {index}"),
                    );
                }
            }
            let symmetries = state.symmetries();
            if symmetries.first() != Some(&GridSymmetry::Identity) {
                return fail(
                    Invariant::PlaneEncoding,
                    format!("symmetries {symmetries:?} do not start with the identity"),
                );
            }
            for &symmetry in symmetries {
                if symmetry.transposes() && shape.height != shape.width {
                    return fail(
                        Invariant::PlaneEncoding,
                        format!("{symmetry:?} on planes of {shape}, which are not square"),
                    );
                }
                let mut images = HashSet::new();
                for index in 0..policy_len {
                    let image = state.policy_symmetry(symmetry, index);
                    let back = state.policy_symmetry(symmetry.inverse(), image);
                    if image >= policy_len || back != index || !images.insert(image) {
                        return fail(
                            Invariant::PlaneEncoding,
                            format!(
                                "{symmetry:?} takes policy index {index} to {image}, which the inverse takes to {back}: not a permutation of 0..{policy_len}"
                            ),
                        );
                    }
                }
            }
            Ok(())
        })
    }

    /// Checks that a position and its colour flip have the same planes
    /// (the encoding sees the position from the player to move), and that
    /// every legal move has the policy index of its flip in the flipped
    /// position.
    #[must_use]
    pub fn color_flip_encoding(self) -> Self
    where
        G: PlaneEncoding + ColorFlip,
    {
        self.with_check(|state, moves| {
            let flipped = state.color_flipped();
            let planes = encoded(state);
            let flipped_planes = encoded(&flipped);
            if let Some(at) = (0..planes.len()).find(|&at| planes[at] != flipped_planes[at]) {
                let shape = state.plane_shape();
                let (channel, cell) = (at / shape.cells(), at % shape.cells());
                return fail(
                    Invariant::EncodingFlip,
                    format!(
                        "plane {channel}, cell {cell}: {} here, {} in the flipped position (planes must describe the position from the player to move)",
                        planes[at], flipped_planes[at]
                    ),
                );
            }
            for &mv in moves {
                let index = state.policy_index(mv);
                let flipped_index = flipped.policy_index(G::flip_move(mv));
                if index != flipped_index {
                    return fail(
                        Invariant::EncodingFlip,
                        format!("{mv:?} has policy index {index}, its flip {flipped_index}"),
                    );
                }
            }
            Ok(())
        })
    }

    /// Checks the encoding's symmetries against the game: `transform(state,
    /// symmetry)` is the position moved by `symmetry` (written by the test,
    /// from the game's own symmetry code). For every symmetry of
    /// [`PlaneEncoding::symmetries`], the moved position's planes are the
    /// moved planes, and its legal moves' policy indices are exactly the
    /// moved indices of this position's legal moves.
    #[must_use]
    pub fn encoding_symmetries<F>(self, transform: F) -> Self
    where
        G: PlaneEncoding,
        F: Fn(&G, GridSymmetry) -> G + 'static,
    {
        self.with_check(move |state, moves| {
            let shape = state.plane_shape();
            let planes = encoded(state);
            let mut moved = vec![0.0; shape.len()];
            let mut moved_moves = Vec::new();
            for &symmetry in state.symmetries() {
                let image = transform(state, symmetry);
                symmetry.transform_planes(shape, &planes, &mut moved);
                if encoded(&image) != moved {
                    return fail(
                        Invariant::EncodingSymmetry,
                        format!("{symmetry:?}: the moved position {image:?} has other planes than the moved planes"),
                    );
                }
                let mut expected: Vec<usize> = moves
                    .iter()
                    .map(|&mv| state.policy_symmetry(symmetry, state.policy_index(mv)))
                    .collect();
                image.legal_moves(&mut moved_moves);
                let mut found: Vec<usize> =
                    moved_moves.iter().map(|&mv| image.policy_index(mv)).collect();
                expected.sort_unstable();
                found.sort_unstable();
                if expected != found {
                    return fail(
                        Invariant::EncodingSymmetry,
                        format!(
                            "{symmetry:?}: moved policy indices {expected:?}, the moved position's {found:?}"
                        ),
                    );
                }
            }
            Ok(())
        })
    }

    /// Runs every check and tells what the run visited.
    ///
    /// # Errors
    ///
    /// Returns the violation found, shrunk to a short game.
    pub fn run(&self) -> Result<Coverage, InvariantViolation> {
        *self.coverage.borrow_mut() = Coverage::default();
        if let Some(hashing) = &self.hashing {
            hashing.seen.borrow_mut().clear();
        }
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
        let strategy = (0..self.styles.len(), vec(any::<u16>(), self.max_plies));
        let result = runner.run(&strategy, |(style, choices)| {
            self.guarded_random_game(self.styles[style], &choices)
                .map_err(|failed| TestCaseError::fail(failed.violation.to_string()))
        });
        match result {
            Ok(()) => {
                let mut coverage = self.coverage.borrow().clone();
                if let Some(hashing) = &self.hashing {
                    coverage.distinct_hashes = hashing.seen.borrow().len();
                }
                Ok(coverage)
            }
            Err(TestError::Fail(_, (style, choices))) => {
                match self.guarded_random_game(self.styles[style], &choices) {
                    Err(failed) => Err(self.shorten(failed)),
                    Ok(()) => unreachable!(
                        "a failing case passed when run again; checks must be deterministic"
                    ),
                }
            }
            Err(TestError::Abort(reason)) => Err(InvariantViolation {
                invariant: Invariant::NoPanic,
                detail: format!("property test aborted: {reason}"),
                moves: Vec::new(),
                position: debug_string(&self.start),
            }),
        }
    }

    /// Runs every check.
    ///
    /// # Errors
    ///
    /// Returns the violation found, shrunk to a short game.
    pub fn check(&self) -> Result<(), InvariantViolation> {
        self.run().map(|_| ())
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

    /// Shortens a failing game further than proptest can (it simplifies
    /// each choice, which rarely removes a move): drops one move, or two
    /// in a row, wherever the rest stays legal and still breaks the same
    /// invariant sooner. At most 512 tries. (A game that does not end
    /// cannot be shortened.)
    fn shorten(&self, mut best: Failed<G>) -> InvariantViolation {
        if best.violation.invariant == Invariant::Terminates {
            return best.violation;
        }
        let mut tries = 0;
        while let Some(shorter) = self.shorter(&best, &mut tries) {
            best = shorter;
        }
        best.violation
    }

    /// The first game with one or two moves of `best` dropped that breaks
    /// the same invariant sooner.
    fn shorter(&self, best: &Failed<G>, tries: &mut u32) -> Option<Failed<G>> {
        for drop in 1..=2 {
            for at in 0..best.moves.len().saturating_sub(drop - 1) {
                if *tries >= 512 {
                    return None;
                }
                *tries += 1;
                let mut moves = best.moves.clone();
                moves.drain(at..at + drop);
                let replayed = catch_unwind(AssertUnwindSafe(|| self.choices_for(&moves)));
                let Ok(Some(choices)) = replayed else {
                    continue;
                };
                if let Err(failed) = self.guarded_random_game(PlayStyle::Uniform, &choices)
                    && failed.violation.invariant == best.violation.invariant
                    && failed.moves.len() < best.moves.len()
                {
                    return Some(failed);
                }
            }
        }
        None
    }

    /// The choices that make a uniform random game play `moves` (then the
    /// first legal move), if they are legal.
    fn choices_for(&self, moves: &[G::Move]) -> Option<Vec<u16>> {
        if moves.len() > self.max_plies {
            return None;
        }
        let mut state = self.start.clone();
        let mut legal = Vec::new();
        let mut choices = Vec::with_capacity(self.max_plies);
        for &mv in moves {
            state.legal_moves(&mut legal);
            let index = legal.iter().position(|&candidate| candidate == mv)?;
            choices.push(u16::try_from(index).ok()?);
            state.play(mv);
        }
        choices.resize(self.max_plies, 0);
        Some(choices)
    }

    /// Plays a scripted game, checking every position, and compares its
    /// end with `expected`.
    fn run_scenario(
        &self,
        moves: &[G::Move],
        expected: Option<Outcome>,
    ) -> Result<(), InvariantViolation> {
        let mut state = self.start.clone();
        let mut played = Vec::new();
        let mut met = MetMoves::new();
        let mut legal = Vec::new();
        let mut coverage = Coverage::default();
        let mut moves = moves.iter();
        let failure = loop {
            let checked = catch_unwind(AssertUnwindSafe(|| {
                let state_debug = debug_string(&state);
                state.legal_moves(&mut legal);
                self.check_position(&state, &state_debug, &legal, &met.list, None, &mut coverage)
            }));
            match checked {
                Ok(Ok(())) => {}
                Ok(Err(failure)) => break failure,
                Err(panic) => break (Invariant::NoPanic, panic_message(panic)),
            }
            let Some(&mv) = moves.next() else {
                if state.outcome() == expected {
                    self.coverage.borrow_mut().absorb(&coverage);
                    return Ok(());
                }
                break (
                    Invariant::ExpectedOutcome,
                    format!("expected outcome {expected:?}, got {:?}", state.outcome()),
                );
            };
            met.extend(&legal);
            played.push(debug_string(&mv));
            if let Err(error) = state.try_play(mv) {
                break (
                    Invariant::ExpectedOutcome,
                    format!("scripted move refused: {error}"),
                );
            }
        };
        Err(InvariantViolation {
            invariant: failure.0,
            detail: failure.1,
            moves: played,
            position: debug_string(&state),
        })
    }

    /// Plays one random game in `style` (move `i` is chosen by
    /// `choices[i]`), checking every position; turns panics into
    /// violations.
    fn guarded_random_game(&self, style: PlayStyle, choices: &[u16]) -> Result<(), Failed<G>> {
        let mut trail = Vec::new();
        let mut position = debug_string(&self.start);
        let mut coverage = Coverage::default();
        let result = catch_unwind(AssertUnwindSafe(|| {
            self.random_game(style, choices, &mut trail, &mut position, &mut coverage)
        }));
        let failure = match result {
            Ok(Ok(())) => {
                self.coverage.borrow_mut().absorb(&coverage);
                return Ok(());
            }
            Ok(Err(failure)) => failure,
            Err(panic) => (Invariant::NoPanic, panic_message(panic)),
        };
        Err(Failed {
            violation: InvariantViolation {
                invariant: failure.0,
                detail: failure.1,
                moves: trail.iter().map(debug_string).collect(),
                position,
            },
            moves: trail,
        })
    }

    fn random_game(
        &self,
        style: PlayStyle,
        choices: &[u16],
        trail: &mut Vec<G::Move>,
        position: &mut String,
        coverage: &mut Coverage,
    ) -> Result<(), Failure> {
        let mut state = self.start.clone();
        let mut moves = Vec::new();
        let mut next_moves = Vec::new();
        let mut children = Vec::new();
        let mut mobility = Vec::new();
        let mut met = MetMoves::new();
        for &choice in choices {
            *position = debug_string(&state);
            state.legal_moves(&mut moves);
            self.check_position(
                &state,
                position,
                &moves,
                &met.list,
                Some(&mut children),
                coverage,
            )?;
            if moves.is_empty() {
                coverage.count_end(state.outcome(), trail.len());
                return Ok(());
            }
            met.extend(&moves);
            mobility.clear();
            for (&mv, child) in moves.iter().zip(&children) {
                child.legal_moves(&mut next_moves);
                mobility.push(next_moves.len());
                coverage.neighbours += 1;
                let over = child.outcome().is_some();
                if !over && !next_moves.is_empty() && !child.is_over() {
                    continue;
                }
                // A way to finish (or an inconsistent position): check it
                // in full.
                trail.push(mv);
                let state_debug = std::mem::replace(position, debug_string(child));
                self.check_position(child, position, &next_moves, &met.list, None, coverage)?;
                *position = state_debug;
                trail.pop();
            }
            let index = style.pick(choice, &mobility);
            trail.push(moves[index]);
            state = children.swap_remove(index);
        }
        *position = debug_string(&state);
        state.legal_moves(&mut moves);
        self.check_position(&state, position, &moves, &met.list, None, coverage)?;
        if moves.is_empty() {
            coverage.count_end(state.outcome(), trail.len());
            Ok(())
        } else {
            fail(
                Invariant::Terminates,
                format!("the game is not over after {} plies", self.max_plies),
            )
        }
    }

    /// Every check at one position. `state_debug` is its `Debug` form;
    /// `children`, if given, receives the position after each legal move.
    fn check_position(
        &self,
        state: &G,
        state_debug: &str,
        moves: &[G::Move],
        met_moves: &[G::Move],
        mut children: Option<&mut Vec<G>>,
        coverage: &mut Coverage,
    ) -> Result<(), Failure> {
        coverage.positions += 1;
        let outcome = state.outcome();
        if outcome.is_some() {
            coverage.finished_positions += 1;
        }
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
        if let Some(children) = children.as_deref_mut() {
            children.clear();
        }
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
            if let Some(children) = children.as_deref_mut() {
                children.push(fast);
            }
        }
        for &mv in met_moves
            .iter()
            .filter(|mv| !legal.contains(mv))
            .take(self.illegal_probes)
        {
            check_refused(state, mv, state_debug)?;
        }
        if debug_string(state) != state_debug {
            return fail(
                Invariant::CloneIndependent,
                "trying moves on clones changed the original",
            );
        }
        self.check_text(state, state_debug, moves)?;
        for check in &self.checks {
            check(state, moves)?;
        }
        self.check_hash(state, state_debug)
    }

    /// The text round trip, and the hash of the reparsed position (before
    /// the whole-state comparison, so that a stale hash shown in `Debug` is
    /// reported as the hash's fault).
    fn check_text(&self, state: &G, state_debug: &str, moves: &[G::Move]) -> Result<(), Failure> {
        let Some(text_form) = &self.text else {
            return Ok(());
        };
        let text = (text_form.print)(state);
        let parsed = (text_form.parse)(&text, state).or_else(|error| {
            fail(
                Invariant::TextRoundTrip,
                format!("{text:?} does not parse back: {error}"),
            )
        })?;
        let reprinted = (text_form.print)(&parsed);
        if reprinted != text {
            return fail(
                Invariant::TextRoundTrip,
                format!("{text:?} parses back as {reprinted:?}"),
            );
        }
        if parsed.to_move() != state.to_move() {
            return fail(
                Invariant::TextRoundTrip,
                format!(
                    "{text:?} parses back with {:?} to move, the original has {:?}",
                    parsed.to_move(),
                    state.to_move()
                ),
            );
        }
        if let Some(hashing) = &self.hashing {
            let hash = (hashing.hash)(state);
            let rebuilt = (hashing.hash)(&parsed);
            if rebuilt != hash {
                return fail(
                    Invariant::HashMatchesRebuilt,
                    format!(
                        "incremental hash {hash:#018x}, rebuilt from {text:?}: {rebuilt:#018x}"
                    ),
                );
            }
        }
        if !text_form.whole_state {
            return Ok(());
        }
        let mut parsed_moves = Vec::new();
        parsed.legal_moves(&mut parsed_moves);
        if parsed.outcome() != state.outcome() || !same_set(&parsed_moves, moves) {
            return fail(
                Invariant::TextRoundTrip,
                format!(
                    "{text:?} parses back with outcome {:?}, moves {parsed_moves:?}; \
                     the original has {:?}, {moves:?}",
                    parsed.outcome(),
                    state.outcome()
                ),
            );
        }
        let parsed_debug = debug_string(&parsed);
        if parsed_debug != state_debug {
            return fail(
                Invariant::TextRoundTrip,
                format!(
                    "{text:?} parses back as {parsed_debug}: the text form leaves part of the \
                     state out"
                ),
            );
        }
        Ok(())
    }

    /// The hash checks against the colour flip and against every hash
    /// met so far in the run.
    fn check_hash(&self, state: &G, state_debug: &str) -> Result<(), Failure> {
        let Some(hashing) = &self.hashing else {
            return Ok(());
        };
        let hash = (hashing.hash)(state);
        let mut seen = hashing.seen.borrow_mut();
        seen.record(state, state_debug, hash)?;
        if let Some(flip) = self.flip {
            let flipped = flip(state);
            let flipped_hash = (hashing.hash)(&flipped);
            if flipped_hash == hash {
                return fail(
                    Invariant::ColorFlipHash,
                    format!("the position and its flip {flipped:?} both hash to {hash:#018x}"),
                );
            }
            seen.record(&flipped, &debug_string(&flipped), flipped_hash)
                .map_err(|(invariant, detail)| {
                    (invariant, format!("at the colour flip: {detail}"))
                })?;
        }
        Ok(())
    }
}

fn panic_message(panic: Box<dyn std::any::Any + Send>) -> String {
    let message = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
        .unwrap_or_else(|| "a panic without a message".to_string());
    format!("panicked: {message}")
}

/// `mv` is not legal in `state` (whose `Debug` form is `before`): it must
/// be refused, without change.
fn check_refused<G: Game>(state: &G, mv: G::Move, before: &str) -> Result<(), Failure> {
    if state.is_legal(mv) {
        return fail(
            Invariant::IllegalMovesRefused,
            format!("is_legal({mv:?}) is true for an unlisted move"),
        );
    }
    let mut copy = state.clone();
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
