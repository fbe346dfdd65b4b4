//! The invariant harness passes on every toy game, and fails — naming the
//! right invariant — on games broken on purpose, one bug each.
#![cfg(feature = "testing")]

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use game_traits::testing::{
    ExplicitTree, Invariant, Invariants, MinimaxSearcher, Nim, NimMove, PlayStyle, RandomTree,
    TicTacToe, TicTacToeHeuristic, TreeEvaluator, check_information_set,
};
use game_traits::{
    ActionSpace, ColorFlip, Evaluator, FnEvaluator, Game, InformationSet, Limits, Outcome,
    OutcomeEvaluator, Player, PolicyEvaluator, PositionHash, SearchReport, Searcher, UniformPrior,
};
use proptest::prelude::*;
use rand::SeedableRng;

#[test]
fn tic_tac_toe_passes_every_check() {
    let invariants = Invariants::new(TicTacToe::new(), 9)
        .text()
        .position_hash()
        .hash_key(TicTacToe::clone)
        .action_space()
        .color_flip()
        .evaluator(TicTacToeHeuristic)
        .color_flip_evaluator(TicTacToeHeuristic)
        .policy_evaluator(UniformPrior(TicTacToeHeuristic))
        .color_flip_searcher(MinimaxSearcher::new, Limits::depth(2), 0.0)
        .expect_outcome([0, 3, 1, 4, 2], Some(Outcome::Win(Player::First)))
        .expect_outcome([4, 0, 8, 2, 1, 7, 6, 3, 5], Some(Outcome::Draw))
        .expect_outcome([4, 0], None);
    #[cfg(feature = "serde")]
    let invariants = invariants.serde();
    invariants.assert();
}

#[test]
fn nim_passes_every_check_with_and_without_extra_turns() {
    for start in [Nim::new(&[3, 4, 5]), Nim::with_extra_turns(&[3, 1, 4, 2])] {
        let plies = start.heaps().iter().map(|&size| usize::from(size)).sum();
        let invariants = Invariants::new(start, plies)
            .text()
            .hash_key(Nim::clone)
            .action_space()
            .color_flip()
            .evaluator(OutcomeEvaluator)
            .color_flip_evaluator(OutcomeEvaluator)
            .color_flip_searcher(MinimaxSearcher::new, Limits::depth(3), 0.0);
        #[cfg(feature = "serde")]
        let invariants = invariants.serde();
        invariants.assert();
    }
}

#[test]
fn random_explicit_trees_pass_every_check() {
    for seed in 0..10 {
        let shape = RandomTree {
            same_player_probability: 0.3,
            ..RandomTree::default()
        };
        let tree = ExplicitTree::random(&shape, &mut rand_pcg::Pcg64Mcg::seed_from_u64(seed));
        let root = Arc::new(tree).root();
        Invariants::new(root, shape.max_depth as usize)
            .cases(16)
            .action_space()
            .evaluator(TreeEvaluator)
            .policy_evaluator(TreeEvaluator)
            .assert();
    }
}

proptest! {
    /// `try_play` refuses every illegal square and leaves the position
    /// unchanged; it accepts every legal one.
    #[test]
    fn try_play_refuses_illegal_moves_without_change(
        prefix in proptest::collection::vec(0u8..9, 0..9),
        square in 0u8..12,
    ) {
        let mut game = TicTacToe::new();
        for &candidate in &prefix {
            let _ = game.try_play(candidate);
        }
        let before = game.clone();
        let legal = game.is_legal(square);
        match game.try_play(square) {
            Ok(()) => prop_assert!(legal),
            Err(error) => {
                prop_assert!(!legal);
                prop_assert_eq!(error.mv, square);
                prop_assert_eq!(&game, &before);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Broken games: tic-tac-toe with one bug each, chosen by a const parameter.

const NO_BUG: u8 = 0;
const DUPLICATE_MOVE: u8 = 1;
const MOVES_WHEN_OVER: u8 = 2;
const BUFFER_NOT_CLEARED: u8 = 3;
const REFUSES_CENTRE: u8 = 4;
const ACCEPTS_OCCUPIED: u8 = 5;
const REFUSAL_CHANGES_SIDE: u8 = 6;
const CLONES_SHARE_STATE: u8 = 7;
const STALE_HASH: u8 = 8;
const TEXT_LOSES_SIDE: u8 = 9;
const ACTION_INDEX_COLLISION: u8 = 10;
const ACTION_NOT_INVERTED: u8 = 11;
const CENTRE_CLEARS_BOARD: u8 = 12;
const FIRST_ALWAYS_WINS: u8 = 13;
const WINNER_SWAPPED: u8 = 14;
const FLIP_KEEPS_SIDE: u8 = 15;
const FLIP_MOVE_SHIFTS: u8 = 16;
const PANICS_ON_CORNER: u8 = 17;
#[cfg(feature = "serde")]
const SERDE_DROPS_STONE: u8 = 18;
const TEXT_DROPS_PLY_COUNT: u8 = 19;
const HASH_IGNORES_SIDE: u8 = 20;

#[derive(Clone)]
struct Broken<const BUG: u8> {
    game: TicTacToe,
    hash: u64,
    /// Stones on the board: part of the state, left out of the text form
    /// (which is fine as long as parsing recounts them).
    plies: u8,
    plays: Arc<AtomicU32>,
}

impl<const BUG: u8> Broken<BUG> {
    fn new() -> Self {
        Broken::wrap(TicTacToe::new())
    }

    fn wrap(game: TicTacToe) -> Self {
        Broken {
            hash: game.position_hash(),
            plies: stones(&game),
            game,
            plays: Arc::new(AtomicU32::new(0)),
        }
    }
}

fn stones(game: &TicTacToe) -> u8 {
    (0..9)
        .filter(|&square| game.stone(square).is_some())
        .count() as u8
}

impl<const BUG: u8> fmt::Debug for Broken<BUG> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (ply {}, shared plays {})",
            self.game,
            self.plies,
            self.plays.load(Ordering::Relaxed)
        )
    }
}

impl<const BUG: u8> Game for Broken<BUG> {
    type Move = u8;

    fn to_move(&self) -> Player {
        self.game.to_move()
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if BUG == BUFFER_NOT_CLEARED {
            let mut fresh = Vec::new();
            self.game.legal_moves(&mut fresh);
            out.extend(fresh);
            return;
        }
        if BUG == MOVES_WHEN_OVER && self.game.outcome().is_some() {
            out.clear();
            out.extend((0..9).filter(|&square| self.game.stone(square).is_none()));
            return;
        }
        self.game.legal_moves(out);
        if BUG == DUPLICATE_MOVE && out.len() > 1 {
            out.push(out[0]);
        }
    }

    fn play(&mut self, square: u8) {
        if BUG == CLONES_SHARE_STATE {
            self.plays.fetch_add(1, Ordering::Relaxed);
        }
        if BUG == PANICS_ON_CORNER && square == 8 {
            panic!("square 8 is cursed");
        }
        if BUG == CENTRE_CLEARS_BOARD && square == 4 {
            let side = self.game.to_move().opponent();
            let text = format!(
                "......... {}",
                if side == Player::First { 'x' } else { 'o' }
            );
            self.game = text.parse().unwrap();
        } else {
            self.game.play(square);
        }
        if !(BUG == STALE_HASH && square == 8) {
            self.hash = self.game.position_hash();
        }
        self.plies = stones(&self.game);
    }

    fn outcome(&self) -> Option<Outcome> {
        let outcome = self.game.outcome();
        match (BUG, outcome) {
            (FIRST_ALWAYS_WINS, Some(Outcome::Win(_))) => Some(Outcome::Win(Player::First)),
            (WINNER_SWAPPED, Some(outcome)) => Some(outcome.flipped()),
            _ => outcome,
        }
    }

    fn is_legal(&self, square: u8) -> bool {
        match BUG {
            REFUSES_CENTRE if square == 4 => false,
            ACCEPTS_OCCUPIED if square < 9 && self.outcome().is_none() => true,
            _ => self.game.is_legal(square),
        }
    }

    fn try_play(&mut self, square: u8) -> Result<(), game_traits::IllegalMove<u8>> {
        if BUG == REFUSAL_CHANGES_SIDE && !self.is_legal(square) {
            // Refuses, but only after swapping the sides.
            self.game = self.game.color_flipped();
            return Err(game_traits::IllegalMove::new(square));
        }
        if self.is_legal(square) {
            if BUG == ACCEPTS_OCCUPIED && !self.game.is_legal(square) {
                // Pretend to play: the move is "accepted" without effect.
                return Ok(());
            }
            self.play(square);
            Ok(())
        } else {
            Err(game_traits::IllegalMove::new(square))
        }
    }
}

impl<const BUG: u8> PositionHash for Broken<BUG> {
    fn position_hash(&self) -> u64 {
        if BUG == HASH_IGNORES_SIDE && self.game.to_move() == Player::Second {
            // The empty board with `o` to move hashes to the side key alone.
            return self.hash ^ TicTacToe::new().color_flipped().position_hash();
        }
        self.hash
    }
}

impl<const BUG: u8> ActionSpace for Broken<BUG> {
    fn num_actions(&self) -> usize {
        9
    }

    fn action_index(&self, square: u8) -> usize {
        if BUG == ACTION_INDEX_COLLISION && square == 8 {
            7
        } else {
            usize::from(square)
        }
    }

    fn action(&self, index: usize) -> Option<u8> {
        if BUG == ACTION_NOT_INVERTED && index == 3 {
            return Some(5);
        }
        self.game.action(index)
    }
}

impl<const BUG: u8> ColorFlip for Broken<BUG> {
    fn color_flipped(&self) -> Self {
        let flipped = self.game.color_flipped();
        if BUG == FLIP_KEEPS_SIDE {
            let text = flipped.to_string();
            let (board, side) = text.split_at(9);
            let side = if side.trim() == "x" { "o" } else { "x" };
            return Broken::wrap(format!("{board} {side}").parse().unwrap());
        }
        Broken::wrap(flipped)
    }

    fn flip_move(square: u8) -> u8 {
        if BUG == FLIP_MOVE_SHIFTS {
            (square + 1) % 9
        } else {
            square
        }
    }
}

impl<const BUG: u8> fmt::Display for Broken<BUG> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if BUG == TEXT_LOSES_SIDE {
            let text = self.game.to_string();
            return write!(f, "{} x", &text[..9]);
        }
        write!(f, "{}", self.game)
    }
}

impl<const BUG: u8> FromStr for Broken<BUG> {
    type Err = game_traits::testing::ParseTicTacToeError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut parsed = Broken::wrap(text.parse()?);
        if BUG == TEXT_DROPS_PLY_COUNT {
            parsed.plies = 0;
        }
        Ok(parsed)
    }
}

#[cfg(feature = "serde")]
impl<const BUG: u8> serde::Serialize for Broken<BUG> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut text = self.game.to_string();
        if BUG == SERDE_DROPS_STONE {
            text = text.replacen('x', ".", 1);
        }
        serializer.serialize_str(&text)
    }
}

#[cfg(feature = "serde")]
impl<'de, const BUG: u8> serde::Deserialize<'de> for Broken<BUG> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The full set of checks, as for the real tic-tac-toe.
fn all_checks<const BUG: u8>() -> Invariants<Broken<BUG>> {
    let invariants = Invariants::new(Broken::<BUG>::new(), 9)
        .cases(128)
        .text()
        .position_hash()
        .hash_key(|broken: &Broken<BUG>| broken.game.clone())
        .action_space()
        .color_flip()
        .expect_outcome([0, 3, 1, 5, 2], Some(Outcome::Win(Player::First)));
    #[cfg(feature = "serde")]
    let invariants = invariants.serde();
    invariants
}

fn violated<G: Game>(invariants: Invariants<G>) -> Invariant {
    match invariants.check() {
        Ok(()) => panic!("a bug of {:?} went unnoticed", std::any::type_name::<G>()),
        Err(violation) => {
            // The report names the moves and the position.
            assert!(violation.to_string().contains("after moves"), "{violation}");
            violation.invariant
        }
    }
}

#[test]
fn the_unbroken_wrapper_passes() {
    all_checks::<NO_BUG>().assert();
}

#[test]
fn each_bug_is_caught_by_its_invariant() {
    assert_eq!(
        violated(all_checks::<DUPLICATE_MOVE>()),
        Invariant::NoDuplicateMoves
    );
    assert_eq!(
        violated(all_checks::<MOVES_WHEN_OVER>()),
        Invariant::MovesMatchOutcome
    );
    assert_eq!(
        violated(all_checks::<BUFFER_NOT_CLEARED>()),
        Invariant::StableMoveList
    );
    assert_eq!(
        violated(all_checks::<REFUSES_CENTRE>()),
        Invariant::LegalMovesPlay
    );
    assert_eq!(
        violated(all_checks::<ACCEPTS_OCCUPIED>()),
        Invariant::IllegalMovesRefused
    );
    assert_eq!(
        violated(all_checks::<REFUSAL_CHANGES_SIDE>()),
        Invariant::IllegalMovesRefused
    );
    assert_eq!(
        violated(all_checks::<CLONES_SHARE_STATE>()),
        Invariant::CloneIndependent
    );
    assert_eq!(
        violated(all_checks::<STALE_HASH>()),
        Invariant::HashMatchesRebuilt
    );
    assert_eq!(
        violated(all_checks::<TEXT_LOSES_SIDE>()),
        Invariant::TextRoundTrip
    );
    assert_eq!(
        violated(all_checks::<ACTION_INDEX_COLLISION>()),
        Invariant::ActionIndex
    );
    assert_eq!(
        violated(all_checks::<ACTION_NOT_INVERTED>()),
        Invariant::ActionIndex
    );
    assert_eq!(
        violated(all_checks::<CENTRE_CLEARS_BOARD>()),
        Invariant::Terminates
    );
    assert_eq!(
        violated(all_checks::<FIRST_ALWAYS_WINS>()),
        Invariant::ColorFlip
    );
    assert_eq!(
        violated(all_checks::<WINNER_SWAPPED>()),
        Invariant::ExpectedOutcome
    );
    assert_eq!(
        violated(all_checks::<FLIP_KEEPS_SIDE>()),
        Invariant::ColorFlip
    );
    assert_eq!(
        violated(all_checks::<FLIP_MOVE_SHIFTS>()),
        Invariant::ColorFlip
    );
    assert_eq!(
        violated(all_checks::<PANICS_ON_CORNER>()),
        Invariant::NoPanic
    );
    #[cfg(feature = "serde")]
    assert_eq!(
        violated(all_checks::<SERDE_DROPS_STONE>()),
        Invariant::SerdeRoundTrip
    );
    assert_eq!(
        violated(all_checks::<TEXT_DROPS_PLY_COUNT>()),
        Invariant::TextRoundTrip
    );
    assert_eq!(
        violated(all_checks::<HASH_IGNORES_SIDE>()),
        Invariant::ColorFlipHash
    );
}

#[test]
fn a_text_form_that_drops_state_passes_only_as_lossy_text() {
    // The ply count is lost, though the text prints, parses back, and has
    // the same moves, outcome and hash: only the whole-state check sees it.
    let lossy = || {
        Invariants::new(Broken::<TEXT_DROPS_PLY_COUNT>::new(), 9)
            .lossy_text()
            .position_hash()
    };
    lossy().assert();
    assert_eq!(violated(lossy().text()), Invariant::TextRoundTrip);
    // A lossy text form still rebuilds the hash.
    let stale = Invariants::new(Broken::<STALE_HASH>::new(), 9)
        .lossy_text()
        .position_hash();
    assert_eq!(violated(stale), Invariant::HashMatchesRebuilt);
}

#[test]
fn tic_tac_toe_needs_the_flip_to_expose_a_hash_without_the_side() {
    // Tic-tac-toe boards tell the side to move by their stone count, so no
    // two positions of a game differ only in it; the flipped start position
    // does.
    let hash_only = || {
        Invariants::new(Broken::<HASH_IGNORES_SIDE>::new(), 9)
            .text()
            .hash_key(|broken: &Broken<HASH_IGNORES_SIDE>| broken.game.clone())
    };
    hash_only().assert();
    assert_eq!(violated(hash_only().color_flip()), Invariant::ColorFlipHash);
}

#[test]
fn failures_are_shrunk_to_short_games() {
    // Hash goes stale on square 8: the shortest failing game plays 8 first.
    let violation = all_checks::<STALE_HASH>().check().unwrap_err();
    assert!(violation.moves.len() <= 4, "{violation}");
    assert_eq!(
        violation.moves.last().map(String::as_str),
        Some("8"),
        "{violation}"
    );
}

// ---------------------------------------------------------------------------
// Broken Nim: hashes that collide, and bugs only rare games reach.

const NIM_HASH_IGNORES_SIDE: u8 = 1;
const NIM_HASH_IGNORES_LAST_HEAP: u8 = 2;
const NIM_HASH_COUNTS_PLIES: u8 = 3;
/// From heaps 3, 4, 5: one object left after the longest game (every move
/// takes one, 11 plies): no moves, yet not over.
const NIM_STUCK_NEAR_CAP: u8 = 4;
/// A game where every move emptied a heap ends without a winner.
const NIM_FAST_FINISH_UNDECIDED: u8 = 5;
/// The stored hash is not updated by moves that take three.
const NIM_STALE_HASH: u8 = 6;

/// Nim with a ply counter, which the text form carries (`"3,4,5 1 @0"`),
/// and a stored hash, which `Debug` shows.
#[derive(Clone, Debug)]
struct BrokenNim<const BUG: u8> {
    nim: Nim,
    plies: u32,
    hash: u64,
}

impl<const BUG: u8> BrokenNim<BUG> {
    fn new(heaps: &[u8]) -> Self {
        BrokenNim::with_hash(Nim::new(heaps), 0)
    }

    fn with_hash(nim: Nim, plies: u32) -> Self {
        let mut game = BrokenNim {
            nim,
            plies,
            hash: 0,
        };
        game.hash = game.fresh_hash();
        game
    }

    fn fresh_hash(&self) -> u64 {
        let nim = &self.nim;
        match BUG {
            NIM_HASH_IGNORES_SIDE if nim.to_move() == Player::Second => {
                nim.color_flipped().position_hash()
            }
            NIM_HASH_IGNORES_LAST_HEAP => {
                let mut heaps = nim.heaps().to_vec();
                *heaps.last_mut().unwrap() = 0;
                let mut without = Nim::new(&heaps);
                if without.to_move() != nim.to_move() {
                    without = without.color_flipped();
                }
                without.position_hash()
            }
            NIM_HASH_COUNTS_PLIES => {
                nim.position_hash() ^ game_traits::zobrist::mix64(u64::from(self.plies) + 1)
            }
            _ => nim.position_hash(),
        }
    }

    fn objects(&self) -> u32 {
        self.nim.heaps().iter().map(|&size| u32::from(size)).sum()
    }

    fn stuck(&self) -> bool {
        BUG == NIM_STUCK_NEAR_CAP && self.plies == 11 && self.objects() == 1
    }
}

impl<const BUG: u8> Game for BrokenNim<BUG> {
    type Move = NimMove;

    fn to_move(&self) -> Player {
        self.nim.to_move()
    }

    fn legal_moves(&self, out: &mut Vec<NimMove>) {
        self.nim.legal_moves(out);
        if self.stuck() {
            out.clear();
        }
    }

    fn play(&mut self, mv: NimMove) {
        self.nim.play(mv);
        self.plies += 1;
        if !(BUG == NIM_STALE_HASH && mv.take == 3) {
            self.hash = self.fresh_hash();
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        let heaps = self.nim.heaps().len() as u32;
        if BUG == NIM_FAST_FINISH_UNDECIDED && self.plies == heaps {
            return None;
        }
        if self.stuck() {
            return None;
        }
        self.nim.outcome()
    }

    fn is_legal(&self, mv: NimMove) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }
}

impl<const BUG: u8> PositionHash for BrokenNim<BUG> {
    fn position_hash(&self) -> u64 {
        self.hash
    }
}

impl<const BUG: u8> ColorFlip for BrokenNim<BUG> {
    fn color_flipped(&self) -> Self {
        BrokenNim::with_hash(self.nim.color_flipped(), self.plies)
    }

    fn flip_move(mv: NimMove) -> NimMove {
        mv
    }
}

impl<const BUG: u8> fmt::Display for BrokenNim<BUG> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} @{}", self.nim, self.plies)
    }
}

impl<const BUG: u8> FromStr for BrokenNim<BUG> {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (nim, plies) = text
            .rsplit_once(" @")
            .ok_or_else(|| format!("no ply count in {text:?}"))?;
        Ok(BrokenNim::with_hash(
            nim.parse().map_err(|error| format!("{error}"))?,
            plies.parse().map_err(|error| format!("{error}"))?,
        ))
    }
}

fn nim_checks<const BUG: u8>(heaps: &[u8]) -> Invariants<BrokenNim<BUG>> {
    let start = BrokenNim::<BUG>::new(heaps);
    let cap = start.objects() as usize;
    Invariants::new(start, cap).text()
}

#[test]
fn the_unbroken_nim_wrapper_passes() {
    nim_checks::<NO_BUG>(&[3, 4, 5])
        .hash_key(|game: &BrokenNim<NO_BUG>| game.nim.clone())
        .color_flip()
        .assert();
}

#[test]
fn hash_collisions_are_caught() {
    // Nim reaches the same heaps with either side to move.
    assert_eq!(
        violated(nim_checks::<NIM_HASH_IGNORES_SIDE>(&[3, 4, 5]).position_hash()),
        Invariant::DistinctHashes
    );
    assert_eq!(
        violated(
            nim_checks::<NIM_HASH_IGNORES_SIDE>(&[3, 4, 5])
                .position_hash()
                .color_flip()
        ),
        Invariant::ColorFlipHash
    );
    // Ignoring a heap is seen only against a key that holds it: without
    // one, the harness can only compare the sides to move.
    let by_heaps = |game: &BrokenNim<NIM_HASH_IGNORES_LAST_HEAP>| game.nim.heaps().to_vec();
    nim_checks::<NIM_HASH_IGNORES_LAST_HEAP>(&[3, 4, 5])
        .position_hash()
        .assert();
    assert_eq!(
        violated(nim_checks::<NIM_HASH_IGNORES_LAST_HEAP>(&[3, 4, 5]).hash_key(by_heaps)),
        Invariant::DistinctHashes
    );
}

#[test]
fn a_stale_hash_shown_in_debug_is_the_hash_s_fault() {
    // The reparsed position differs in its `Debug` form too (the stored
    // hash), but the report names the hash.
    assert_eq!(
        violated(nim_checks::<NIM_STALE_HASH>(&[3, 4, 5]).position_hash()),
        Invariant::HashMatchesRebuilt
    );
    // Without the hash checks, the whole-state text check still sees it.
    assert_eq!(
        violated(nim_checks::<NIM_STALE_HASH>(&[3, 4, 5])),
        Invariant::TextRoundTrip
    );
}

#[test]
fn a_hash_of_the_path_is_caught_against_the_key() {
    // The hash takes in the ply count; the text carries it, so the rebuilt
    // hash agrees, but the same heaps reached in a different number of
    // plies hash differently.
    let by_position = |game: &BrokenNim<NIM_HASH_COUNTS_PLIES>| game.nim.clone();
    nim_checks::<NIM_HASH_COUNTS_PLIES>(&[3, 4, 5])
        .position_hash()
        .assert();
    assert_eq!(
        violated(nim_checks::<NIM_HASH_COUNTS_PLIES>(&[3, 4, 5]).hash_key(by_position)),
        Invariant::TranspositionHash
    );
}

#[test]
fn bugs_of_rare_games_are_caught_at_the_default_case_count() {
    // Only the longest game (every move takes one object, 12 plies) gets
    // stuck: uniformly random games practically never play it.
    let near_cap = || nim_checks::<NIM_STUCK_NEAR_CAP>(&[3, 4, 5]);
    near_cap().play_styles([PlayStyle::Uniform]).assert();
    let violation = near_cap().check().unwrap_err();
    assert_eq!(
        violation.invariant,
        Invariant::MovesMatchOutcome,
        "{violation}"
    );
    assert_eq!(violation.moves.len(), 11, "{violation}");
    assert_eq!(
        violated(near_cap().play_styles([PlayStyle::Long])),
        Invariant::MovesMatchOutcome
    );

    // Only a game where every move empties a heap (6 plies of 33 possible)
    // ends undecided: a few uniform games in ten thousand do that.
    let fast = || nim_checks::<NIM_FAST_FINISH_UNDECIDED>(&[3, 4, 5, 6, 7, 8]);
    fast().play_styles([PlayStyle::Uniform]).assert();
    let violation = fast().check().unwrap_err();
    assert_eq!(
        violation.invariant,
        Invariant::MovesMatchOutcome,
        "{violation}"
    );
    assert_eq!(violation.moves.len(), 6, "{violation}");
}

#[test]
fn long_games_reach_the_ply_cap() {
    let uniform = Invariants::new(Nim::new(&[3, 4, 5]), 12)
        .play_styles([PlayStyle::Uniform])
        .run()
        .unwrap();
    let mixed = Invariants::new(Nim::new(&[3, 4, 5]), 12).run().unwrap();
    assert!(uniform.longest_game < 12, "{uniform:?}");
    assert_eq!(mixed.longest_game, 12, "{mixed:?}");
    assert_eq!(mixed.games, 64);
    assert!(mixed.neighbours > mixed.positions, "{mixed:?}");
    // Tic-tac-toe: all three results, and the hashes of a good share of
    // its 5,478 positions (and their flips) compared.
    let coverage = Invariants::new(TicTacToe::new(), 9)
        .hash_key(TicTacToe::clone)
        .color_flip()
        .run()
        .unwrap();
    assert!(coverage.first_wins > 0 && coverage.second_wins > 0 && coverage.draws > 0);
    assert!(coverage.distinct_hashes > 500, "{coverage:?}");
}

// ---------------------------------------------------------------------------
// Broken evaluators and searchers.

/// Value for the first player instead of the player to move: the classic
/// perspective bug.
fn first_player_view(state: &TicTacToe) -> f32 {
    let value = TicTacToeHeuristic.value(state);
    if state.to_move() == Player::First {
        value
    } else {
        -value
    }
}

#[test]
fn evaluator_bugs_are_caught() {
    let basic = || Invariants::new(TicTacToe::new(), 9);
    let out_of_range = basic().evaluator(FnEvaluator::new(|_: &TicTacToe| 1.5));
    assert_eq!(
        out_of_range.check().unwrap_err().invariant,
        Invariant::EvaluatorRange
    );

    let inverted = basic().evaluator(FnEvaluator::new(|state: &TicTacToe| {
        -TicTacToeHeuristic.value(state)
    }));
    assert_eq!(
        inverted.check().unwrap_err().invariant,
        Invariant::EvaluatorRange
    );

    let perspective = basic().color_flip_evaluator(FnEvaluator::new(first_player_view));
    assert_eq!(
        perspective.check().unwrap_err().invariant,
        Invariant::EvaluatorFlip
    );

    struct NanLogits;
    impl PolicyEvaluator<TicTacToe> for NanLogits {
        fn evaluate(&self, _: &TicTacToe, _: &[u8], logits: &mut [f32]) -> f32 {
            logits.fill(f32::NAN);
            0.0
        }
    }
    let nan = basic().policy_evaluator(NanLogits);
    assert_eq!(
        nan.check().unwrap_err().invariant,
        Invariant::PolicyEvaluatorRange
    );
}

/// Minimax with its value reported for the first player.
struct FirstPlayerMinimax(MinimaxSearcher);

impl Searcher<TicTacToe> for FirstPlayerMinimax {
    fn search(&mut self, state: &TicTacToe, limits: &Limits) -> SearchReport<u8> {
        let mut report = self.0.search(state, limits);
        report.value *= state.to_move().sign();
        report
    }
}

#[test]
fn searcher_perspective_bug_is_caught() {
    let invariants = Invariants::new(TicTacToe::new(), 9).color_flip_searcher(
        || FirstPlayerMinimax(MinimaxSearcher::new()),
        Limits::depth(2),
        0.0,
    );
    assert_eq!(
        invariants.check().unwrap_err().invariant,
        Invariant::SearcherFlip
    );
}

// ---------------------------------------------------------------------------
// Information sets.

/// Perfect knowledge of a tic-tac-toe game; optionally samples worlds with
/// a stone too many.
#[derive(Clone, Debug)]
struct Known {
    game: TicTacToe,
    broken: bool,
}

impl InformationSet for Known {
    type World = TicTacToe;

    fn player(&self) -> Player {
        Player::First
    }

    fn to_move(&self) -> Player {
        self.game.to_move()
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        self.game.legal_moves(out);
    }

    fn sample_world<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> TicTacToe {
        let mut world = self.game.clone();
        if self.broken && rng.next_u32().is_multiple_of(2) {
            let mut moves = Vec::new();
            world.legal_moves(&mut moves);
            world.play(moves[0]);
        }
        world
    }
}

#[test]
fn information_set_check_passes_and_fails() {
    let game = TicTacToe::from_moves(&[4, 0]).unwrap();
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    let good = Known {
        game: game.clone(),
        broken: false,
    };
    check_information_set(&good, 50, &mut rng).unwrap();
    let bad = Known { game, broken: true };
    let violation = check_information_set(&bad, 50, &mut rng).unwrap_err();
    assert_eq!(violation.invariant, Invariant::InformationSet);
}
