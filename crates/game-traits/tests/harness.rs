//! The invariant harness passes on every toy game, and fails — naming the
//! right invariant — on games broken on purpose, one bug each.
#![cfg(feature = "testing")]

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use game_traits::testing::{
    ExplicitTree, Invariant, Invariants, MinimaxSearcher, Nim, RandomTree, TicTacToe,
    TicTacToeHeuristic, TreeEvaluator, check_information_set,
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
            .position_hash()
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

#[derive(Clone)]
struct Broken<const BUG: u8> {
    game: TicTacToe,
    hash: u64,
    plays: Arc<AtomicU32>,
}

impl<const BUG: u8> Broken<BUG> {
    fn new() -> Self {
        Broken::wrap(TicTacToe::new())
    }

    fn wrap(game: TicTacToe) -> Self {
        Broken {
            hash: game.position_hash(),
            game,
            plays: Arc::new(AtomicU32::new(0)),
        }
    }
}

impl<const BUG: u8> fmt::Debug for Broken<BUG> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (shared plays {})",
            self.game,
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
        text.parse().map(Broken::wrap)
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
        .action_space()
        .color_flip()
        .expect_outcome([0, 3, 1, 5, 2], Some(Outcome::Win(Player::First)));
    #[cfg(feature = "serde")]
    let invariants = invariants.serde();
    invariants
}

fn violated<const BUG: u8>(invariants: Invariants<Broken<BUG>>) -> Invariant {
    match invariants.check() {
        Ok(()) => panic!("bug {BUG} went unnoticed"),
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
