//! Bad input gets an error naming the problem, never a panic: positions,
//! moves, rules, stones and protocol lines; and the text forms round-trip.

use game_traits::{Game, GreedySearcher, Player};
use gomoku_renju::protocol::{Brain, Flow};
use gomoku_renju::{
    Gomoku, Move, OnFocused, ParsePositionError, PatternEvaluator, PositionError, Rule,
};
use proptest::prelude::*;

fn error(text: &str) -> String {
    text.parse::<Gomoku>().expect_err(text).to_string()
}

#[test]
fn malformed_positions_name_the_problem() {
    let rows = |count: usize, width: usize| vec![".".repeat(width); count].join("\n");
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "empty position"),
        ("   \n  ".to_string(), "empty position"),
        (format!("{}\nX", rows(4, 4)), "4 rows"),
        (format!("{}\nX", rows(23, 23)), "23 rows"),
        (
            format!("{}\n.....\nX", rows(14, 15)),
            "row 1 has 5 cells, expected 15",
        ),
        (
            format!("{}\n", rows(15, 15)),
            "player to move \"...............\"",
        ),
        (
            format!("{}\nZ freestyle", rows(15, 15)),
            "player to move \"Z\"",
        ),
        (format!("{}\nX caro", rows(15, 15)), "unknown rule \"caro\""),
        (
            format!("{}\nX freestyle now", rows(15, 15)),
            "unexpected \"now\"",
        ),
        (
            format!("{}\n.......#.......\nX", rows(14, 15)),
            "cell h1 is '#'",
        ),
        ("...../...../...../...../....".to_string(), "player to move"),
    ];
    for (text, expected) in cases {
        let message = error(&text);
        assert!(message.contains(expected), "{text:?}: {message}");
    }
    // Both players with five.
    let both = "XXXXX\nOOOOO\n.....\n.....\n.....\nX";
    assert!(matches!(
        both.parse::<Gomoku>(),
        Err(ParsePositionError::Position(PositionError::BothFive))
    ));
}

#[test]
fn stones_that_make_no_position_are_refused() {
    let a1: Move = "a1".parse().unwrap();
    let p16: Move = "p16".parse().unwrap();
    assert_eq!(
        Gomoku::from_stones(4, Rule::Freestyle, &[], &[], Player::First),
        Err(PositionError::Size { size: 4 })
    );
    assert_eq!(
        Gomoku::from_stones(15, Rule::Freestyle, &[p16], &[], Player::First),
        Err(PositionError::OffBoard { mv: p16, size: 15 })
    );
    assert_eq!(
        Gomoku::from_stones(15, Rule::Freestyle, &[a1], &[a1], Player::First),
        Err(PositionError::Occupied { mv: a1 })
    );
    assert!(
        Gomoku::from_stones(15, Rule::Freestyle, &[Move::PASS], &[], Player::First)
            .unwrap_err()
            .to_string()
            .contains("not on a 15x15 board")
    );
    // try_play refuses off-board cells, occupied cells and the pass.
    let mut game = Gomoku::with_size(9, Rule::Freestyle).unwrap();
    assert!(game.try_play("j1".parse().unwrap()).is_err());
    game.play(a1);
    let before = game.clone();
    assert!(game.try_play(a1).is_err());
    assert!(game.try_play(Move::PASS).is_err());
    assert_eq!(game, before);
}

#[test]
fn text_forms_round_trip() {
    let game: Gomoku = "
        . . . . .
        . X . . .
        . . O . .
        . . . X .
        . . . . .
        O standard"
        .parse()
        .unwrap();
    assert_eq!(
        game.to_string(),
        ".....\n.X...\n..O..\n...X.\n.....\nO standard"
    );
    assert_eq!(game.to_line(), "...../.X.../..O../...X./..... O standard");
    assert_eq!(game.to_line().parse::<Gomoku>().unwrap(), game);
    assert_eq!(game.to_string().parse::<Gomoku>().unwrap(), game);
    assert_eq!(
        format!("{game:?}"),
        "Gomoku(\"...../.X.../..O../...X./..... O standard\")"
    );
    // The rule may be left out (freestyle); lower case stones are fine.
    let short: Gomoku = "...../.x.../..o../...x./..... o".parse().unwrap();
    assert_eq!(short.rule(), Rule::Freestyle);
    assert_eq!(short.stone("b4".parse().unwrap()), Some(Player::First));
    assert!(game.pretty().contains("   a b c d e"));
}

#[cfg(feature = "serde")]
#[test]
fn serde_uses_the_text_forms() {
    let game: Gomoku = "...../.X.../..O../...X./..... O renju".parse().unwrap();
    let json = serde_json::to_string(&game).unwrap();
    assert_eq!(json, "\"...../.X.../..O../...X./..... O renju\"");
    assert_eq!(serde_json::from_str::<Gomoku>(&json).unwrap(), game);
    let focused = gomoku_renju::Focused::new(game.clone());
    assert_eq!(serde_json::to_string(&focused).unwrap(), json);
    assert_eq!(serde_json::to_string(&Move::new(7, 7)).unwrap(), "\"h8\"");
    assert_eq!(
        serde_json::from_str::<Rule>("\"renju\"").unwrap(),
        Rule::Renju
    );
    assert!(serde_json::from_str::<Gomoku>("\"XX\"").is_err());
    assert!(serde_json::from_str::<Move>("\"z99\"").is_err());
}

fn quick_brain() -> Brain<
    OnFocused<GreedySearcher<PatternEvaluator>>,
    impl FnMut(&gomoku_renju::protocol::Settings) -> OnFocused<GreedySearcher<PatternEvaluator>>,
> {
    Brain::new(|_| OnFocused(GreedySearcher::new(PatternEvaluator::default())))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Arbitrary text never panics the parsers.
    #[test]
    fn parsers_never_panic(text in ".{0,80}", rows in proptest::collection::vec("[.XOxo ]{0,22}", 0..24), side in "[XOxo ]{0,3}") {
        let _ = text.parse::<Gomoku>();
        let _ = text.parse::<Move>();
        let _ = text.parse::<Rule>();
        let drawn = format!("{}\n{side}", rows.join("\n"));
        if let Ok(game) = drawn.parse::<Gomoku>() {
            // Whatever parses prints back to the same position.
            prop_assert_eq!(game.to_string().parse::<Gomoku>().unwrap(), game.clone());
            prop_assert!(game.caches_are_consistent());
        }
    }

    /// Arbitrary protocol lines never panic the brain, and it keeps
    /// answering well-formed commands afterwards.
    #[test]
    fn the_brain_survives_any_line(lines in proptest::collection::vec(
        prop_oneof![
            ".{0,30}",
            "(START|TURN|BOARD|DONE|INFO|BEGIN|RESTART|TAKEBACK|PLAY|RECTSTART|ABOUT) ?[-0-9,a-z ]{0,12}",
            "[0-9]{1,2},[0-9]{1,2},[0-9]",
        ],
        0..12,
    )) {
        let mut brain = quick_brain();
        let mut out = Vec::new();
        for line in lines {
            if brain.handle_line(&line, &mut out).unwrap() == Flow::End {
                return Ok(());
            }
        }
        // Recover: close any BOARD block, then a fresh game.
        brain.handle_line("DONE", &mut out).unwrap();
        brain.handle_line("INFO rule 0", &mut out).unwrap();
        out.clear();
        brain.handle_line("START 15", &mut out).unwrap();
        brain.handle_line("INFO timeout_turn 50", &mut out).unwrap();
        brain.handle_line("BEGIN", &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let answers: Vec<&str> = text.lines().filter(|line| !line.starts_with("MESSAGE")).collect();
        prop_assert_eq!(answers.len(), 2, "{}", text);
        prop_assert_eq!(answers[0], "OK");
        prop_assert_eq!(answers[1], "7,7");
    }
}

#[test]
fn the_focused_game_refuses_far_moves_but_the_full_game_takes_them() {
    let mut game = gomoku_renju::Focused::new(Gomoku::new());
    game.play("h8".parse().unwrap());
    let far: Move = "a1".parse().unwrap();
    assert!(game.try_play(far).is_err());
    assert!(game.play_any(far).is_ok());
    assert!(game.play_any(far).is_err());
    assert_eq!(game.game().stone(far), Some(Player::Second));
}

#[path = "common/rapfi_bench.rs"]
mod rapfi_bench;

#[test]
fn the_rapfi_bench_positions_read_as_their_moves() {
    assert_eq!(
        rapfi_bench::moves("h8i10k9"),
        ["h8", "i10", "k9"].map(|text| text.parse::<Move>().unwrap())
    );
    let positions = rapfi_bench::positions();
    for (position, (rule, size, text)) in positions.iter().zip(rapfi_bench::RAPFI_BENCH) {
        let game = position.game();
        assert_eq!((game.rule(), game.size()), (rule, size));
        let moves = rapfi_bench::moves(text);
        assert_eq!(game.stone_count(), moves.len(), "{text}");
        for (ply, mv) in moves.into_iter().enumerate() {
            let stone = if ply % 2 == 0 {
                Player::First
            } else {
                Player::Second
            };
            assert_eq!(game.stone(mv), Some(stone), "{text}: {mv}");
        }
    }
}
