//! serde refuses exactly what the validating constructors and parsers
//! refuse: boards, squares and moves through their text forms, transcripts
//! by replaying their moves, OBF problems through the checks of their
//! parser, evaluator weights and playout probabilities through their
//! `validate`/`try_new`.
#![cfg(feature = "serde")]

use bitboard_othello::{
    Board, CornerFirstPlayout, HeuristicEvaluator, HeuristicPolicy, Move, ObfError, ObfProblem,
    Square, Transcript, TranscriptError,
};
use game_traits::Game;
use game_traits::testing::{check_parser_and_serde_agree, check_serde_round_trip};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};

/// The moves of a random game from the start, `plies` at most, passes
/// included.
fn random_moves(seed: u64, plies: usize) -> Vec<Move> {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let mut board = Board::start();
    let mut legal = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..plies {
        board.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.random_range(..legal.len())];
        board.play(mv);
        moves.push(mv);
    }
    moves
}

fn board_after(moves: &[Move]) -> Board {
    let mut board = Board::start();
    for &mv in moves {
        board.play(mv);
    }
    board
}

fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        8 => (0usize..64).prop_map(|index| Move::Place(Square::new(index).unwrap())),
        1 => Just(Move::Pass),
    ]
}

/// Board texts: positions of random games, some with one character
/// replaced, and near-miss strings.
fn board_text() -> impl Strategy<Value = String> {
    let reached = (any::<u64>(), 0usize..70, 0usize..70, "[-XOxo.*BW_?; ]").prop_map(
        |(seed, plies, position, replacement)| {
            let board = board_after(&random_moves(seed, plies));
            let mut chars: Vec<char> = board.to_string().chars().collect();
            if position < chars.len() {
                chars.splice(position..=position, replacement.chars());
            }
            chars.into_iter().collect::<String>()
        },
    );
    prop_oneof![reached, "[-XO]{60,66} [XOBWxo]{0,2};?"]
}

/// A random game's moves from the start, then with probability 1/2 one
/// change: a move replaced by a random one, a forced pass dropped, or a
/// move repeated.
fn recorded_moves() -> impl Strategy<Value = Vec<Move>> {
    (
        any::<u64>(),
        0usize..121,
        0usize..6,
        any::<prop::sample::Index>(),
        any_move(),
    )
        .prop_map(|(seed, plies, change, index, replacement)| {
            let mut moves = random_moves(seed, plies);
            if moves.is_empty() {
                return moves;
            }
            let at = index.index(moves.len());
            match change {
                0 => moves[at] = replacement,
                1 => {
                    if let Some(pass) = moves.iter().position(|mv| mv.is_pass()) {
                        moves.remove(pass);
                    } else {
                        moves.remove(at);
                    }
                }
                2 => moves.insert(at, moves[at]),
                _ => {}
            }
            moves
        })
}

/// A position of a random game and random move/score pairs: moves legal
/// there or random, scores in or out of range.
fn obf_problem() -> impl Strategy<Value = (Board, Vec<(Move, i32)>)> {
    (
        any::<u64>(),
        0usize..120,
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                any::<bool>(),
                any_move(),
                prop_oneof![6 => -64i32..=64, 1 => -80i32..80, 1 => any::<i32>()],
            ),
            0..5,
        ),
    )
        .prop_map(|(seed, plies, pairs)| {
            let board = board_after(&random_moves(seed, plies));
            let mut legal = Vec::new();
            board.legal_moves(&mut legal);
            let scores = pairs
                .into_iter()
                .map(|(index, pick_legal, random, score)| {
                    let mv = if pick_legal && !legal.is_empty() {
                        legal[index.index(legal.len())]
                    } else {
                        random
                    };
                    (mv, score)
                })
                .collect();
            (board, scores)
        })
}

/// The OBF line of `board` and `scores`, as files write it.
fn obf_line(board: &Board, scores: &[(Move, i32)]) -> String {
    let mut line = format!("{board};");
    for (mv, score) in scores {
        let name = match mv {
            Move::Place(square) => square.to_string().to_uppercase(),
            Move::Pass => "PA".to_string(),
        };
        line.push_str(&format!(" {name}:{score:+};"));
    }
    line
}

/// Finite weights, with NaN and infinities now and then (JSON writes them
/// as `null`, which serde must refuse as `validate` does).
fn weight() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => (-4096i32..4096).prop_map(|n| n as f32 / 256.0),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn board_serde_agrees_with_the_parser(text in board_text()) {
        check_parser_and_serde_agree::<Board>(&text)?;
    }

    #[test]
    fn square_and_move_serde_agree_with_the_parser(text in "[a-jA-J][0-9]|[a-jA-J]?[0-9]{0,2}|pa(ss)?|PASS|.{0,3}") {
        check_parser_and_serde_agree::<Square>(&text)?;
        check_parser_and_serde_agree::<Move>(&text)?;
    }

    /// serde takes a start and a move list with every pass written; the
    /// parser reads the same moves (passes as `pa`) and may add forced
    /// passes the text leaves out. So: whatever serde accepts, the parser
    /// reads as the same transcript; whatever the parser reads without
    /// adding a pass, serde accepts.
    #[test]
    fn transcript_serde_agrees_with_the_parser(moves in recorded_moves()) {
        let built = Transcript::from_moves(Board::start(), moves.clone());
        let json = serde_json::json!({ "start": Board::start(), "moves": moves }).to_string();
        let deserialized = serde_json::from_str::<Transcript>(&json);
        prop_assert_eq!(deserialized.is_ok(), built.is_ok());
        let text: String = moves
            .iter()
            .map(|mv| if mv.is_pass() { "pa".to_string() } else { mv.to_string() })
            .collect();
        let parsed = text.parse::<Transcript>();
        match deserialized {
            Ok(transcript) => {
                prop_assert_eq!(parsed.as_ref(), Ok(&transcript), "{}", text);
                prop_assert_eq!(transcript.moves(), &moves[..]);
                check_serde_round_trip(&transcript)?;
            }
            Err(_) => {
                let same_moves = parsed.as_ref().is_ok_and(|parsed| parsed.moves() == &moves[..]);
                prop_assert!(!same_moves, "{} parses but {} is refused", text, json);
            }
        }
    }

    #[test]
    fn obf_serde_agrees_with_the_parser((board, scores) in obf_problem()) {
        let line = obf_line(&board, &scores);
        let parsed = line.parse::<ObfProblem>();
        let json = serde_json::json!({ "board": board, "scores": scores }).to_string();
        let deserialized = serde_json::from_str::<ObfProblem>(&json);
        let built = ObfProblem::new(board, scores);
        prop_assert_eq!(&deserialized.as_ref().ok(), &built.as_ref().ok());
        match (parsed, deserialized) {
            (Ok(parsed), Ok(deserialized)) => {
                prop_assert_eq!(&parsed, &deserialized);
                check_serde_round_trip(&parsed)?;
            }
            (Err(_), Err(_)) => {}
            (parsed, deserialized) => {
                prop_assert!(false, "{line:?}: FromStr gives {parsed:?}, serde gives {deserialized:?}");
            }
        }
    }

    #[test]
    fn evaluator_serde_agrees_with_validate(
        positional in weight(),
        mobility in weight(),
        corners in weight(),
        weight_scale in weight(),
        mobility_penalty in weight(),
    ) {
        let evaluator = HeuristicEvaluator { positional, mobility, corners };
        let json = serde_json::to_string(&evaluator).unwrap();
        let back = serde_json::from_str::<HeuristicEvaluator>(&json);
        prop_assert_eq!(back.is_ok(), evaluator.validate().is_ok(), "{}", json);
        if back.is_ok() {
            check_serde_round_trip(&evaluator)?;
        }
        let policy = HeuristicPolicy { evaluator, weight_scale, mobility_penalty };
        let json = serde_json::to_string(&policy).unwrap();
        let back = serde_json::from_str::<HeuristicPolicy>(&json);
        prop_assert_eq!(back.is_ok(), policy.validate().is_ok(), "{}", json);
        if back.is_ok() {
            check_serde_round_trip(&policy)?;
        }
    }

    #[test]
    fn corner_first_serde_agrees_with_try_new(
        probability in prop_oneof![
            4 => (0i32..=1024).prop_map(|n| f64::from(n) / 1024.0),
            2 => (-2048i32..4096).prop_map(|n| f64::from(n) / 1024.0),
            1 => Just(f64::NAN),
        ],
    ) {
        let json = format!("{{\"corner_probability\":{}}}", serde_json::to_string(&probability).unwrap());
        let back = serde_json::from_str::<CornerFirstPlayout>(&json);
        let built = CornerFirstPlayout::try_new(probability);
        prop_assert_eq!(back.is_ok(), built.is_ok(), "{}", json);
        if let Ok(playout) = built {
            prop_assert_eq!(back.unwrap(), playout);
            prop_assert_eq!(playout.corner_probability(), probability);
            check_serde_round_trip(&playout)?;
        }
    }
}

/// A position where White has no move and must pass, Black to move next.
fn white_must_pass() -> Board {
    format!("{}OO- O", "X".repeat(61)).parse().unwrap()
}

#[test]
fn obf_problems_with_bad_scores_or_passes_are_refused() {
    let board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let json = |scores: &str| format!("{{\"board\":\"{board}\",\"scores\":{scores}}}");
    // Out of range: refused by the parser and now by serde.
    assert!(format!("{board}; A2:+99").parse::<ObfProblem>().is_err());
    let error = serde_json::from_str::<ObfProblem>(&json(r#"[["a2",99]]"#)).unwrap_err();
    assert!(error.to_string().contains("bad score"), "{error}");
    let error = serde_json::from_str::<ObfProblem>(&json(r#"[["a2",-65]]"#)).unwrap_err();
    assert!(error.to_string().contains("bad score"), "{error}");
    // A pass where Black has moves: refused by both.
    assert!(matches!(
        format!("{board}; PA:+0").parse::<ObfProblem>(),
        Err(ObfError::IllegalMove { pair: 1, .. })
    ));
    let error = serde_json::from_str::<ObfProblem>(&json(r#"[["a2",38],["pass",0]]"#)).unwrap_err();
    assert!(error.to_string().contains("pair 2"), "{error}");
    assert!(error.to_string().contains("not legal"), "{error}");
    // An occupied square.
    assert!(serde_json::from_str::<ObfProblem>(&json(r#"[["a1",0]]"#)).is_err());
    // A forced pass is a legal entry, through both doors.
    let forced = white_must_pass();
    let line = format!("{forced}; PA:-64;");
    let parsed: ObfProblem = line.parse().unwrap();
    let json = serde_json::to_string(&parsed).unwrap();
    assert_eq!(serde_json::from_str::<ObfProblem>(&json).unwrap(), parsed);
    assert_eq!(parsed.to_string(), line);
}

#[test]
fn transcripts_with_illegal_moves_are_refused() {
    let start = Board::start();
    let json = |moves: &str| format!("{{\"start\":\"{start}\",\"moves\":{moves}}}");
    let good: Transcript = serde_json::from_str(&json(r#"["f5","d6","c3"]"#)).unwrap();
    assert_eq!(good, "f5d6c3".parse().unwrap());
    // A repeated move.
    let error = serde_json::from_str::<Transcript>(&json(r#"["f5","f5"]"#)).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("recorded move f5 at ply 2 is not legal"),
        "{error}"
    );
    // A move that flips nothing, and a pass that is not forced.
    assert!(serde_json::from_str::<Transcript>(&json(r#"["a1"]"#)).is_err());
    assert!(serde_json::from_str::<Transcript>(&json(r#"["pass"]"#)).is_err());
    assert!(matches!(
        Transcript::from_moves(start.clone(), vec![Move::Place(Square::F5), Move::Pass]),
        Err(TranscriptError::IllegalRecordedMove {
            ply: 2,
            mv: Move::Pass,
            ..
        })
    ));
    // A move after the end of the game.
    let finished: Board = format!("{}O X", "X".repeat(63)).parse().unwrap();
    assert!(finished.is_game_over());
    assert!(matches!(
        Transcript::from_moves(finished, vec![Move::Pass]),
        Err(TranscriptError::IllegalRecordedMove { ply: 1, .. })
    ));
    // Forced passes must be written in the move list.
    let stuck = white_must_pass();
    assert!(Transcript::from_moves(stuck.clone(), vec![Move::Place(Square::H8)]).is_err());
    let with_pass =
        Transcript::from_moves(stuck.clone(), vec![Move::Pass, Move::Place(Square::H8)]).unwrap();
    assert_eq!(Transcript::parse_from(&stuck, "h8").unwrap(), with_pass);
}

#[test]
fn non_finite_weights_and_bad_probabilities_are_refused() {
    let error = serde_json::from_str::<HeuristicEvaluator>(
        r#"{"positional":0.01,"mobility":null,"corners":0.25}"#,
    );
    assert!(error.is_err());
    let evaluator = HeuristicEvaluator {
        mobility: f32::NAN,
        ..HeuristicEvaluator::default()
    };
    let error = evaluator.validate().unwrap_err();
    assert!(error.to_string().contains("mobility"), "{error}");
    let policy = HeuristicPolicy {
        weight_scale: f32::INFINITY,
        ..HeuristicPolicy::default()
    };
    assert!(
        policy
            .validate()
            .unwrap_err()
            .to_string()
            .contains("weight_scale")
    );
    HeuristicPolicy::default().validate().unwrap();
    for json in [
        r#"{"corner_probability":1.5}"#,
        r#"{"corner_probability":-0.1}"#,
        r#"{"corner_probability":null}"#,
    ] {
        assert!(
            serde_json::from_str::<CornerFirstPlayout>(json).is_err(),
            "{json}"
        );
    }
    let error = CornerFirstPlayout::try_new(f64::NAN).unwrap_err();
    assert!(error.to_string().contains("corner_probability"), "{error}");
    // `new` keeps clamping, so it never fails.
    assert_eq!(CornerFirstPlayout::new(2.0).corner_probability(), 1.0);
}
