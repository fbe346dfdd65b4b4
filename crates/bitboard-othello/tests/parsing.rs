//! Malformed input gets an error, never a panic.

use bitboard_othello::{Board, Move, ObfProblem, Square, Transcript};
use proptest::prelude::*;

fn parse_everything(text: &str) {
    let _ = text.parse::<Board>();
    let _ = text.parse::<Move>();
    let _ = text.parse::<Square>();
    let _ = text.parse::<Transcript>();
    let _ = text.parse::<ObfProblem>();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(text in any::<String>()) {
        parse_everything(&text);
    }

    #[test]
    fn near_miss_strings_never_panic(text in "[-XOxo.* ;:+0-9a-hA-HpPsSé]{0,90}") {
        parse_everything(&text);
    }

    #[test]
    fn mutated_boards_and_transcripts_never_panic(
        index in 0usize..70,
        ch in any::<char>(),
        cut in 0usize..90,
    ) {
        let good = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C6:+28;";
        let mut chars: Vec<char> = good.chars().collect();
        if index < chars.len() {
            chars[index] = ch;
        }
        let mutated: String = chars.iter().collect();
        parse_everything(&mutated);
        parse_everything(&mutated[..mutated.char_indices().nth(cut).map_or(mutated.len(), |(i, _)| i)]);
        let transcript = "f5d6c3d3c4f4f6f3e6e7";
        let mut chars: Vec<char> = transcript.chars().collect();
        if index < chars.len() {
            chars[index] = ch;
        }
        let _ = chars.iter().collect::<String>().parse::<Transcript>();
    }
}

#[test]
fn every_error_names_the_problem() {
    let good = "---------------------------OX------XO---------------------------";
    let cases = [
        (format!("{} X", &good[..60]), "60 squares"),
        (format!("{good}-- X"), "66 squares"),
        (
            format!("{}Q{} X", &good[..5], &good[6..]),
            "'Q' for square f1",
        ),
        (format!("{good} Y"), "side to move \"Y\""),
        (good.to_string(), "missing side"),
    ];
    for (text, expected) in cases {
        let error = text.parse::<Board>().unwrap_err().to_string();
        assert!(error.contains(expected), "{text:?}: {error}");
    }
    let error = "f5d6c3x3".parse::<Transcript>().unwrap_err().to_string();
    assert!(error.contains("ply 4"), "{error}");
    let error = "f5d6c3c3".parse::<Transcript>().unwrap_err().to_string();
    assert!(error.contains("illegal move c3 at ply 4"), "{error}");
    let error = "j4".parse::<Move>().unwrap_err().to_string();
    assert!(error.contains("'j'"), "{error}");
    let error = format!("{good} X; D3:+70")
        .parse::<ObfProblem>()
        .unwrap_err()
        .to_string();
    assert!(error.contains("pair 1") && error.contains("+70"), "{error}");
}

#[cfg(feature = "serde")]
#[test]
fn serde_uses_the_text_forms() {
    let board = Board::start();
    let json = serde_json::to_string(&board).unwrap();
    assert_eq!(json, format!("\"{board}\""));
    assert_eq!(serde_json::from_str::<Board>(&json).unwrap(), board);
    assert_eq!(serde_json::to_string(&Move::Pass).unwrap(), "\"pass\"");
    assert_eq!(
        serde_json::from_str::<Move>("\"D3\"").unwrap(),
        Move::Place(Square::D3)
    );
    assert!(serde_json::from_str::<Board>("\"XO X\"").is_err());
    assert!(serde_json::from_str::<Square>("\"i9\"").is_err());
}
