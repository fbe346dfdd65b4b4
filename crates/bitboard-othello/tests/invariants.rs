//! The `game-traits` invariant harness on Othello, and properties of the
//! board: symmetries and colour flips commute with the rules and the
//! evaluators.

use bitboard_othello::{
    Board, HeuristicEvaluator, HeuristicPolicy, MAX_PLIES, Move, PositionalEvaluator, Symmetry,
};
use game_traits::testing::Invariants;
use game_traits::{ColorFlip, Evaluator, Game, Outcome, Player, PolicyEvaluator};
use proptest::prelude::*;

fn harness() -> Invariants<Board> {
    let harness = Invariants::new(Board::start(), MAX_PLIES)
        .text()
        .hash_key(Board::clone)
        .action_space()
        .color_flip()
        .evaluator(HeuristicEvaluator::default())
        .evaluator(PositionalEvaluator)
        .evaluator(HeuristicPolicy::default())
        .color_flip_evaluator(HeuristicEvaluator::default())
        .color_flip_evaluator(PositionalEvaluator)
        .policy_evaluator(HeuristicPolicy::default())
        .plane_encoding()
        .color_flip_encoding()
        .encoding_symmetries(|board: &Board, symmetry| board.symmetric(symmetry.into()));
    #[cfg(feature = "serde")]
    let harness = harness.serde();
    harness
}

#[test]
fn harness_invariants_hold_from_the_start() {
    // The shortest games: Black wipes White out after 9 plies.
    let wipeout: Vec<Move> = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"]
        .iter()
        .map(|name| name.parse().unwrap())
        .collect();
    harness()
        .expect_outcome(wipeout, Some(Outcome::Win(Player::First)))
        .cases(48)
        .assert();
}

#[test]
fn harness_invariants_hold_from_an_endgame_with_passes() {
    // FFO #40: 20 empties, so random games reach passes and full boards.
    let board: Board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"
        .parse()
        .unwrap();
    Invariants::new(board, MAX_PLIES)
        .text()
        .hash_key(Board::clone)
        .action_space()
        .color_flip()
        .evaluator(HeuristicEvaluator::default())
        .color_flip_evaluator(HeuristicEvaluator::default())
        .policy_evaluator(HeuristicPolicy::default())
        .plane_encoding()
        .color_flip_encoding()
        .cases(48)
        .seed(5)
        .assert();
}

/// A position after `choices` random moves from the start (move `i` is
/// `choices[i] % legal.len()`), possibly finished.
fn random_board(choices: &[u32]) -> Board {
    let mut board = Board::start();
    let mut moves = Vec::new();
    for &choice in choices {
        board.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        board.play(moves[choice as usize % moves.len()]);
    }
    board
}

fn legal(board: &Board) -> Vec<Move> {
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    moves.sort();
    moves
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn move_generation_commutes_with_the_symmetries(choices in prop::collection::vec(any::<u32>(), 0..70)) {
        let board = random_board(&choices);
        let moves = legal(&board);
        let evaluator = HeuristicEvaluator::default();
        let policy = HeuristicPolicy::default();
        let mut logits = vec![0.0; moves.len()];
        policy.evaluate(&board, &moves, &mut logits);
        for symmetry in Symmetry::ALL {
            let image = board.symmetric(symmetry);
            let mut mapped: Vec<Move> = moves.iter().map(|&mv| symmetry.apply_move(mv)).collect();
            mapped.sort();
            prop_assert_eq!(legal(&image), mapped, "{:?}", symmetry);
            prop_assert_eq!(image.mobility(), symmetry.apply_bitboard(board.mobility()));
            prop_assert_eq!(image.outcome(), board.outcome());
            prop_assert_eq!(image.symmetric(symmetry.inverse()), board.clone());
            for &mv in &moves {
                let mut played = board.clone();
                played.play(mv);
                let mut image_played = image.clone();
                image_played.play(symmetry.apply_move(mv));
                prop_assert_eq!(image_played, played.symmetric(symmetry));
            }
            prop_assert_eq!(evaluator.value(&image), evaluator.value(&board));
            prop_assert_eq!(PositionalEvaluator.value(&image), PositionalEvaluator.value(&board));
            let image_moves: Vec<Move> = moves.iter().map(|&mv| symmetry.apply_move(mv)).collect();
            let mut image_logits = vec![0.0; moves.len()];
            policy.evaluate(&image, &image_moves, &mut image_logits);
            prop_assert_eq!(&image_logits, &logits);
        }
        let (canonical, symmetry) = board.canonical();
        prop_assert_eq!(board.symmetric(symmetry), canonical.clone());
        for other in Symmetry::ALL {
            prop_assert_eq!(board.symmetric(other).canonical().0, canonical.clone());
        }
    }

    #[test]
    fn move_generation_commutes_with_color_flip(choices in prop::collection::vec(any::<u32>(), 0..70)) {
        let board = random_board(&choices);
        let flipped = board.color_flipped();
        prop_assert_eq!(flipped.to_move(), board.to_move().opponent());
        prop_assert_eq!(flipped.black(), board.white());
        prop_assert_eq!(flipped.white(), board.black());
        prop_assert_eq!(legal(&flipped), legal(&board));
        prop_assert_eq!(flipped.outcome(), board.outcome().map(Outcome::flipped));
        prop_assert_eq!(flipped.final_score(), board.final_score());
        for mv in legal(&board) {
            let mut played = board.clone();
            played.play(mv);
            let mut flipped_played = flipped.clone();
            flipped_played.play(Board::flip_move(mv));
            prop_assert_eq!(flipped_played, played.color_flipped());
        }
    }
}
