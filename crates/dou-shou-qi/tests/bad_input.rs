//! Bad input gets an error naming the problem, never a panic.

use dou_shou_qi::{Animal, Jungle, Move, PositionError, Rules, Square};
use game_traits::{Game, Player};
use proptest::prelude::*;

fn parse(text: &str) -> Result<Jungle, PositionError> {
    text.parse()
}

#[test]
fn malformed_position_strings_name_the_problem() {
    let cases: [(&str, &str); 10] = [
        ("", "fields"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L", "fields"),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1 extra",
            "fields",
        ),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1 w", "ranks"),
        ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X w", "'X'"),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T6L w",
            "rank 1 describes 8 squares",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4L w",
            "rank 1 describes 6 squares",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x",
            "side to move \"x\"",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w -3",
            "clock \"-3\"",
        ),
        (
            "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 0",
            "move number \"0\"",
        ),
    ];
    for (text, expected) in cases {
        let error = parse(text).expect_err(text).to_string();
        assert!(error.contains(expected), "{text:?}: {error}");
    }
}

#[test]
fn impossible_positions_name_the_problem() {
    // Two elephants on one side.
    let error = parse("7/7/7/7/7/7/7/7/E5E w").unwrap_err();
    assert!(matches!(
        error,
        PositionError::DuplicatePiece { piece, .. } if piece.animal == Animal::Elephant && piece.owner == Player::First
    ));
    assert!(error.to_string().contains("two E pieces"), "{error}");
    // A piece in its own den.
    let error = parse("3l3/7/7/7/7/7/7/7/7 w").unwrap_err();
    assert!(
        matches!(error, PositionError::PieceInOwnDen { square, .. } if square.to_string() == "d9")
    );
    assert!(error.to_string().contains("own den"), "{error}");
    // A non-rat in water.
    let error = parse("7/7/7/7/1D5/7/7/7/7 w").unwrap_err();
    assert!(
        matches!(error, PositionError::NonRatInWater { square, .. } if square.to_string() == "b5")
    );
    assert!(error.to_string().contains("water"), "{error}");
    // A rat in water is fine, and so is a piece in the enemy den (decided).
    assert!(parse("7/7/7/7/1r5/7/7/7/7 w").is_ok());
    let decided = parse("3L3/7/7/7/7/7/7/7/e6 b").unwrap();
    assert_eq!(
        decided.outcome(),
        Some(game_traits::Outcome::Win(Player::First))
    );
    // But not both dens entered.
    assert_eq!(
        parse("3L3/7/7/7/7/7/7/7/3l3 b").unwrap_err(),
        PositionError::BothDensEntered
    );
    // Building from pieces checks the same, and doubled squares.
    let square: Square = "a1".parse().unwrap();
    let piece = dou_shou_qi::Piece::new(Player::First, Animal::Cat);
    let other = dou_shou_qi::Piece::new(Player::Second, Animal::Dog);
    assert_eq!(
        Jungle::from_pieces(
            [(square, piece), (square, other)],
            Player::First,
            0,
            1,
            Rules::default()
        )
        .unwrap_err(),
        PositionError::SquareTaken { square }
    );
}

#[test]
fn illegal_moves_are_refused_without_change() {
    // Into water (not a rat), onto its own den, the other side's piece, no piece.
    let cases = [
        ("6e/7/7/7/3D3/7/7/7/7 w", "d5c5"),
        ("6e/7/7/7/7/7/7/3D3/7 w", "d2d1"),
        ("6e/7/7/7/7/7/7/3D3/7 w", "g9g8"),
        ("6e/7/7/7/7/7/7/3D3/7 w", "a1a2"),
    ];
    for (fen, text) in cases {
        let mut game = parse(fen).unwrap();
        let before = game.clone();
        let mv: Move = text.parse().unwrap();
        assert!(!game.is_legal(mv), "{fen}: {text}");
        let error = game.try_play(mv).unwrap_err();
        assert_eq!(error.mv, mv);
        assert!(!error.game_over);
        assert_eq!(game, before);
    }
    // After the end every move is refused, flagged as such.
    let mut over = parse("3L3/7/7/7/7/7/7/7/e6 b").unwrap();
    let error = over.try_play("a1a2".parse().unwrap()).unwrap_err();
    assert!(error.game_over);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary text never panics any parser.
    #[test]
    fn random_strings_never_panic(text in ".{0,80}") {
        let _ = text.parse::<Jungle>();
        let _ = text.parse::<Move>();
        let _ = text.parse::<Square>();
    }

    /// Strings made of the position alphabet reach deep into the parser.
    #[test]
    fn position_like_strings_never_panic(text in "[rcdwptleRCDWPTLE0-9/ wb-]{0,70}") {
        if let Ok(game) = text.parse::<Jungle>() {
            // Whatever parses prints back to something that parses the same.
            let again: Jungle = game.to_string().parse().unwrap();
            prop_assert_eq!(again.to_string(), game.to_string());
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let _ = game.outcome();
        }
    }

    /// Random edits of a valid position string give errors or positions, never panics.
    #[test]
    fn mutated_positions_never_panic(position in 0usize..60, replacement in "[rcdwptleRCDWPTLE0-9/ x]") {
        let mut text: Vec<char> = dou_shou_qi::START_POSITION.chars().collect();
        if position < text.len() {
            text[position] = replacement.chars().next().unwrap();
        }
        let text: String = text.into_iter().collect();
        if let Ok(game) = text.parse::<Jungle>() {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            prop_assert_eq!(game.to_string().parse::<Jungle>().unwrap().to_string(), game.to_string());
        }
    }

    /// Move text of the right shape.
    #[test]
    fn move_like_strings_never_panic(text in "[a-i0-9]{4}") {
        if let Ok(mv) = text.parse::<Move>() {
            prop_assert_eq!(mv.to_string(), text);
        }
    }
}
