//! Every scenario of `tests/data/scenarios.json` yields exactly the listed
//! legal moves (and result where given).

use dou_shou_qi::{Jungle, Move, Rules};
use game_traits::{ColorFlip, Game, Outcome, Player};
use serde_json::Value;

fn load() -> Value {
    let text = std::fs::read_to_string("tests/data/scenarios.json").expect("scenarios.json");
    serde_json::from_str(&text).expect("valid JSON")
}

/// The rules of a scenario: the standard rules with its `options` set.
fn rules_of(options: Option<&Value>) -> Rules {
    let mut rules = Rules::default();
    if let Some(Value::Object(options)) = options {
        for (name, value) in options {
            let text = match value {
                Value::Bool(on) => u8::from(*on).to_string(),
                Value::String(text) => text.clone(),
                Value::Number(number) => number.to_string(),
                other => panic!("option {name}: unexpected value {other}"),
            };
            rules.apply_switch(name, &text).expect("a known switch");
        }
    }
    rules
}

fn sorted_moves(game: &Jungle) -> Vec<String> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().map(Move::to_string).collect();
    names.sort();
    names
}

#[test]
fn every_scenario_has_exactly_the_listed_moves() {
    let data = load();
    let scenarios = data["scenarios"].as_array().expect("a scenario list");
    assert_eq!(scenarios.len(), 38);
    for scenario in scenarios {
        let id = scenario["id"].as_str().unwrap();
        let fen = scenario["fen"].as_str().unwrap();
        let rules = rules_of(scenario.get("options"));
        let game = Jungle::from_fen(fen, rules).unwrap_or_else(|error| panic!("{id}: {error}"));
        let expected_side = match scenario["side_to_move"].as_str().unwrap() {
            "w" => Player::First,
            _ => Player::Second,
        };
        assert_eq!(game.to_move(), expected_side, "{id}");
        let mut expected: Vec<String> = scenario["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|mv| mv.as_str().unwrap().to_string())
            .collect();
        expected.sort();
        assert_eq!(
            sorted_moves(&game),
            expected,
            "{id}: {}",
            scenario["description"]
        );
        // Every listed move is legal one by one, and the flip mirrors them.
        for name in &expected {
            let mv: Move = name.parse().unwrap();
            assert!(game.is_legal(mv), "{id}: {name}");
        }
        let flipped = game.color_flipped();
        let mut mirrored: Vec<String> = expected
            .iter()
            .map(|name| name.parse::<Move>().unwrap().rotated().to_string())
            .collect();
        mirrored.sort();
        assert_eq!(sorted_moves(&flipped), mirrored, "{id} flipped");
        if let Some(result) = scenario.get("result") {
            let expected = match result.as_str() {
                Some("w0") => Some(Outcome::Win(Player::First)),
                Some("w1") => Some(Outcome::Win(Player::Second)),
                Some("draw") => Some(Outcome::Draw),
                _ => None,
            };
            assert_eq!(game.outcome(), expected, "{id} result");
            assert_eq!(
                flipped.outcome(),
                expected.map(Outcome::flipped),
                "{id} flipped result"
            );
        }
    }
}

#[test]
fn den_entry_wins_and_ends_the_game() {
    let mut game: Jungle = "4W2/7/r6/7/7/7/7/7/7 w 0 1".parse().unwrap();
    game.try_play("e9d9".parse().unwrap()).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::First)));
    assert_eq!(game.count_moves(), 0);
    // A den entry on the ply that reaches the no-capture limit still wins.
    let mut late: Jungle = "4W2/7/r6/7/7/7/7/7/7 w 99 60".parse().unwrap();
    late.try_play("e9d9".parse().unwrap()).unwrap();
    assert_eq!(late.outcome(), Some(Outcome::Win(Player::First)));
    let mut other: Jungle = "4W2/7/r6/7/7/7/7/7/7 w 99 60".parse().unwrap();
    other.try_play("e9e8".parse().unwrap()).unwrap();
    assert_eq!(other.outcome(), Some(Outcome::Draw));
}

#[test]
fn extinction_loses_and_mutual_extinction_draws() {
    let mut game: Jungle = "7/7/7/7/3l3/3L3/7/7/7 w 0 1".parse().unwrap();
    game.try_play("d4d5".parse().unwrap()).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Win(Player::First)));
    let mut rules = Rules::default();
    rules.equal_rank_mutual_capture = true;
    let mut mutual = Jungle::from_fen("7/7/7/7/3l3/3L3/7/7/7 w 0 1", rules).unwrap();
    mutual.try_play("d4d5".parse().unwrap()).unwrap();
    assert_eq!(mutual.outcome(), Some(Outcome::Draw));
    // A failed attack that kills the attacker's last piece loses.
    rules.failed_attack = dou_shou_qi::FailedAttack::AttackerDies;
    let mut suicide = Jungle::from_fen("7/7/7/7/3l3/3C3/7/7/7 w 0 1", rules).unwrap();
    suicide.try_play("d4d5".parse().unwrap()).unwrap();
    assert_eq!(suicide.outcome(), Some(Outcome::Win(Player::Second)));
    assert_eq!(suicide.clock(), 0);
}

#[test]
fn bounce_passes_the_turn_without_resetting_the_clock() {
    let mut rules = Rules::default();
    rules.failed_attack = dou_shou_qi::FailedAttack::Bounce;
    let mut game = Jungle::from_fen("7/7/7/7/3l3/3C3/7/7/e6 w 7 1", rules).unwrap();
    game.try_play("d4d5".parse().unwrap()).unwrap();
    assert_eq!(game.to_string(), "7/7/7/7/3l3/3C3/7/7/e6 b 8 1");
    assert_eq!(game.outcome(), None);
}

#[test]
fn threefold_repetition_draws_in_play_and_the_clock_limit_draws() {
    let start = Jungle::new();
    let mut game = start.clone();
    let cycle: Vec<Move> = ["a1a2", "g9g8", "a2a1", "g8g9"]
        .iter()
        .map(|name| name.parse().unwrap())
        .collect();
    for mv in &cycle {
        game.try_play(*mv).unwrap();
    }
    assert_eq!(game.outcome(), None, "second occurrence");
    for (i, mv) in cycle.iter().enumerate() {
        game.try_play(*mv).unwrap();
        let expected = (i == 3).then_some(Outcome::Draw);
        assert_eq!(
            game.outcome(),
            expected,
            "after move {i} of the second cycle"
        );
    }
    // Without the repetition rule the game goes on.
    let mut rules = Rules::default();
    rules.repetition_draw = false;
    let mut free = Jungle::with_rules(rules);
    for mv in cycle.iter().chain(&cycle) {
        free.try_play(*mv).unwrap();
    }
    assert_eq!(free.outcome(), None);
    // The clock limit.
    let mut limited = Rules::default();
    limited.no_capture_limit = 6;
    limited.repetition_draw = false;
    let mut clocked = Jungle::with_rules(limited);
    for mv in cycle.iter().take(6).chain(&cycle[..2]) {
        if clocked.outcome().is_some() {
            break;
        }
        clocked.try_play(*mv).unwrap();
    }
    assert_eq!(clocked.clock(), 6);
    assert_eq!(clocked.outcome(), Some(Outcome::Draw));
    // The hard cap.
    let mut capped = Rules::default();
    capped.max_plies = 3;
    let mut short = Jungle::with_rules(capped);
    for mv in &cycle[..3] {
        short.try_play(*mv).unwrap();
    }
    assert_eq!(short.outcome(), Some(Outcome::Draw));
}
