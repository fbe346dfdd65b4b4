//! serde refuses exactly what the validating constructors and parsers
//! refuse: positions, squares and moves through their text forms, layouts,
//! piece ids and hidden rules through their checks, referees and
//! information sets by replaying what they were built from, the evaluator
//! and the playout policy through `validate`.
#![cfg(feature = "serde")]

use dou_shou_qi::hidden::{
    HiddenError, HiddenInfoSet, HiddenRules, Layout, Observation, PieceId, Referee, Reveal, Setup,
};
use dou_shou_qi::{
    Animal, FailedAttack, Jungle, JungleEvaluator, JunglePlayout, Move, PositionError, Rules,
    START_POSITION, Square,
};
use game_traits::testing::{check_parser_and_serde_agree, check_serde_agrees};
use game_traits::{Game, Player, Playout};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde_json::{Value, json};

/// Position strings: positions of random games, some with one character
/// replaced, and strings of the position alphabet.
fn position_text() -> impl Strategy<Value = String> {
    let reached = (
        any::<u64>(),
        0usize..80,
        any::<prop::sample::Index>(),
        "[rcdwptleRCDWPTLE0-9/ wbx]",
        any::<bool>(),
    )
        .prop_map(|(seed, plies, position, replacement, mutate)| {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut game = Jungle::new();
            let mut moves = Vec::new();
            for _ in 0..plies {
                game.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                game.play(moves[rng.random_range(..moves.len())]);
            }
            let mut text: Vec<char> = game.to_string().chars().collect();
            if mutate {
                let position = position.index(text.len());
                text.splice(position..=position, replacement.chars());
            }
            text.into_iter().collect::<String>()
        });
    prop_oneof![reached, "[rcdwptleRCDWPTLE0-9/ wb-]{0,50}"]
}

/// Rule sets, two in three of them playable as Hidden Jungle.
fn any_rules() -> impl Strategy<Value = Rules> {
    (any::<[bool; 7]>(), 0usize..4, prop::bool::weighted(0.2)).prop_map(
        |(flags, failed, across)| {
            let mut rules = Rules::hidden_default();
            rules.dog_over_wolf = flags[0];
            rules.equal_rank_mutual_capture = flags[1];
            rules.elephant_captures_rat = flags[2];
            rules.rat_capture_across_bank = across && flags[3];
            rules.traps_any_side = flags[4];
            rules.trap_attacker_zero = flags[5];
            rules.repetition_draw = flags[6];
            rules.failed_attack = [
                FailedAttack::Illegal,
                FailedAttack::AttackerDies,
                FailedAttack::Bounce,
                FailedAttack::AttackerDies,
            ][failed];
            rules
        },
    )
}

fn any_hidden_rules() -> impl Strategy<Value = HiddenRules> {
    (any_rules(), any::<bool>(), 0usize..5).prop_map(|(rules, both, setup)| {
        let reveal = if both {
            Reveal::Both
        } else {
            Reveal::LoserOnly
        };
        let setup = [
            Setup::Random,
            Setup::Chosen,
            Setup::Random,
            Setup::Chosen,
            Setup::Standard,
        ][setup];
        HiddenRules::new(rules, reveal, setup)
    })
}

/// Eight animals: a random permutation, one time in four with one animal
/// overwritten (then most likely not a permutation).
fn animals() -> impl Strategy<Value = [Animal; 8]> {
    (
        any::<u64>(),
        prop::bool::weighted(0.25),
        0usize..8,
        0usize..8,
    )
        .prop_map(|(seed, spoil, slot, animal)| {
            let mut animals = Layout::random(&mut Pcg64Mcg::seed_from_u64(seed)).animals();
            if spoil {
                animals[slot] = Animal::ALL[animal];
            }
            animals
        })
}

/// The moves of a random game under `rules` and `layouts`, attacks
/// favoured, then with probability 1/2 one move replaced or repeated.
fn referee_moves(
    rules: HiddenRules,
    layouts: [Layout; 2],
    seed: u64,
    plies: usize,
    change: usize,
) -> Vec<Move> {
    let mut moves = Vec::new();
    if let Ok(mut referee) = Referee::new(rules, layouts) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut legal = Vec::new();
        for _ in 0..plies {
            referee.world().legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.random_range(..legal.len())];
            referee.play(mv).unwrap();
            moves.push(mv);
        }
    } else {
        moves.push("a3a4".parse().unwrap());
    }
    let at = (seed as usize) % moves.len().max(1);
    match change {
        0 if !moves.is_empty() => moves[at] = "b2b3".parse().unwrap(),
        1 if !moves.is_empty() => moves.insert(at, moves[at]),
        _ => {}
    }
    moves
}

/// Finite weights, with NaN and infinities now and then (JSON writes them
/// as `null`, which serde must refuse as `validate` does).
fn weight() -> impl Strategy<Value = f32> {
    prop_oneof![
        40 => (-4096i32..4096).prop_map(|n| n as f32 / 256.0),
        1 => Just(0.0),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn position_serde_agrees_with_the_parser(text in position_text()) {
        let parsed = text.parse::<Jungle>();
        let deserialized = serde_json::from_value::<Jungle>(json!({
            "position": text,
            "rules": Rules::default(),
        }));
        check_serde_agrees(&text, parsed, deserialized)?;
    }

    #[test]
    fn square_and_move_serde_agree_with_the_parser(text in "[a-iA-I][0-9]([a-i][0-9])?|.{0,4}") {
        check_parser_and_serde_agree::<Square>(&text)?;
        check_parser_and_serde_agree::<Move>(&text)?;
    }

    #[test]
    fn layout_serde_agrees_with_new(animals in animals()) {
        let deserialized = serde_json::from_value::<Layout>(json!(animals));
        check_serde_agrees(&format!("{animals:?}"), Layout::new(animals), deserialized)?;
    }

    #[test]
    fn piece_id_serde_agrees_with_new(index in 0u8..63) {
        let square = Square::new(index).unwrap();
        let built = PieceId::new(square).ok_or(());
        let deserialized = serde_json::from_value::<PieceId>(json!(square));
        if let Err(error) = &deserialized {
            prop_assert!(error.to_string().contains("no piece starts"), "{}", error);
        }
        check_serde_agrees(&square.to_string(), built, deserialized)?;
    }

    #[test]
    fn hidden_rules_serde_agree_with_check(rules in any_hidden_rules()) {
        let json = serde_json::to_value(rules).unwrap();
        let deserialized = serde_json::from_value::<HiddenRules>(json.clone());
        check_serde_agrees(&json.to_string(), rules.check().map(|()| rules), deserialized)?;
    }

    /// A referee deserializes exactly when `Referee::new` takes its rules
    /// and layouts and `play` takes each of its moves.
    #[test]
    fn referee_serde_agrees_with_replaying(
        rules in any_hidden_rules(),
        first in animals(),
        second in animals(),
        seed in any::<u64>(),
        plies in 0usize..40,
        change in 0usize..6,
    ) {
        let layouts = [Layout::new(first), Layout::new(second)];
        let usable = match layouts {
            [Ok(first), Ok(second)] => Some([first, second]),
            _ => None,
        };
        let moves = usable.map_or_else(Vec::new, |layouts| referee_moves(rules, layouts, seed, plies, change));
        let data = json!({ "rules": rules, "layouts": [first, second], "moves": moves });
        let replayed = usable.ok_or(()).and_then(|layouts| {
            let mut referee = Referee::new(rules, layouts).map_err(|_| ())?;
            for &mv in &moves {
                referee.play(mv).map_err(|_| ())?;
            }
            Ok(referee)
        });
        let deserialized = serde_json::from_value::<Referee>(data.clone());
        prop_assert_eq!(deserialized.is_ok(), replayed.is_ok(), "{}", data);
        if let (Ok(referee), Ok(back)) = (replayed, deserialized) {
            prop_assert_eq!(back.observations(), referee.observations());
            prop_assert_eq!(back.world(), referee.world());
            let again: Referee = serde_json::from_str(&serde_json::to_string(&back).unwrap()).unwrap();
            prop_assert_eq!(again.observations(), referee.observations());
        }
    }

    /// An information set deserializes exactly when
    /// `HiddenInfoSet::from_observations` takes what it was built from,
    /// here a true log perhaps altered in one field.
    #[test]
    fn information_set_serde_agrees_with_from_observations(
        seed in any::<u64>(),
        plies in 0usize..30,
        second in any::<bool>(),
        change in 0usize..6,
        at in any::<prop::sample::Index>(),
        slot in 0usize..8,
    ) {
        let rules = HiddenRules::default();
        let mut referee = Referee::random(rules, seed);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut legal = Vec::new();
        for _ in 0..plies {
            referee.world().legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            referee.play(legal[rng.random_range(..legal.len())]).unwrap();
        }
        let player = if second { Player::Second } else { Player::First };
        let mut observations: Vec<Observation> = referee.observations().to_vec();
        if !observations.is_empty() {
            let observation = &mut observations[at.index(referee.observations().len())];
            match change {
                0 => observation.mover = observation.mover.opponent(),
                1 => observation.piece = PieceId::from_slot(observation.mover, slot).unwrap(),
                2 => observation.revealed.push((observation.piece, Animal::ALL[slot])),
                3 => observation.outcome = Some(game_traits::Outcome::Draw),
                _ => {}
            }
        }
        let own = referee.layout(player);
        let data = json!({ "player": player, "rules": rules, "own": own, "observations": observations });
        let built = HiddenInfoSet::from_observations(player, rules, own, &observations);
        let deserialized = serde_json::from_value::<HiddenInfoSet>(data.clone());
        prop_assert_eq!(deserialized.is_ok(), built.is_ok(), "{}", data);
        if let (Ok(built), Ok(back)) = (built, deserialized) {
            prop_assert_eq!(format!("{back:?}"), format!("{built:?}"));
        }
    }

    #[test]
    fn evaluator_serde_agrees_with_validate(
        material_by_rank in [weight(), weight(), weight(), weight(), weight(), weight(), weight(), weight()],
        advancement in weight(),
        den_threat in weight(),
        trap_threat in weight(),
        scale in weight(),
    ) {
        let evaluator = JungleEvaluator { material_by_rank, advancement, den_threat, trap_threat, scale };
        let json = serde_json::to_string(&evaluator).unwrap();
        let deserialized = serde_json::from_str::<JungleEvaluator>(&json);
        check_serde_agrees(&json, evaluator.validate().map(|()| evaluator), deserialized)?;
    }

    #[test]
    fn playout_serde_agrees_with_new(
        redraw in prop_oneof![
            4 => (0i32..=1024).prop_map(|n| f64::from(n) / 1024.0),
            2 => (-2048i32..4096).prop_map(|n| f64::from(n) / 1024.0),
            1 => Just(f64::NAN),
        ],
    ) {
        let json = format!("{{\"redraw\":{}}}", serde_json::to_string(&redraw).unwrap());
        let deserialized = serde_json::from_str::<JunglePlayout>(&json);
        check_serde_agrees(&json, JunglePlayout::new(redraw), deserialized)?;
    }
}

const EIGHT_RATS: &str = r#"["Rat","Rat","Rat","Rat","Rat","Rat","Rat","Rat"]"#;

#[test]
fn a_layout_of_eight_rats_is_refused() {
    let error = serde_json::from_str::<Layout>(EIGHT_RATS).unwrap_err();
    assert!(error.to_string().contains("RRRRRRRR"), "{error}");
    assert!(matches!(
        Layout::try_from([Animal::Rat; 8]),
        Err(HiddenError::NotAPermutation { .. })
    ));
    let good = serde_json::to_string(&Layout::standard(Player::First)).unwrap();
    assert_eq!(
        good,
        r#"["Tiger","Lion","Cat","Dog","Elephant","Wolf","Leopard","Rat"]"#
    );
}

#[test]
fn a_referee_or_information_set_holding_eight_rats_is_refused() {
    let standard = serde_json::to_value(Layout::standard(Player::Second)).unwrap();
    let rats: Value = serde_json::from_str(EIGHT_RATS).unwrap();
    let referee = json!({
        "rules": HiddenRules::default(),
        "layouts": [rats, standard],
        "moves": [],
    });
    let error = serde_json::from_value::<Referee>(referee).unwrap_err();
    assert!(error.to_string().contains("eight animals once"), "{error}");
    let info = json!({
        "player": "First",
        "rules": HiddenRules::default(),
        "own": rats,
        "observations": [],
    });
    let error = serde_json::from_value::<HiddenInfoSet>(info).unwrap_err();
    assert!(error.to_string().contains("eight animals once"), "{error}");
}

#[test]
fn a_piece_id_that_is_not_a_start_square_is_refused() {
    let error = serde_json::from_str::<PieceId>("\"d5\"").unwrap_err();
    assert!(
        error.to_string().contains("no piece starts on d5"),
        "{error}"
    );
    let d5: Square = "d5".parse().unwrap();
    assert_eq!(
        PieceId::try_from(d5),
        Err(HiddenError::NotAStartSquare { square: d5 })
    );
    let c7: PieceId = serde_json::from_str("\"c7\"").unwrap();
    assert_eq!(c7.to_string(), "1@c7");
    assert_eq!(c7.slot(), 1);
    // Inside an observation of an information set, as well.
    let mut referee = Referee::random(HiddenRules::default(), 3);
    referee.play("a3a4".parse().unwrap()).unwrap();
    let mut info = serde_json::to_value(referee.information_set(Player::Second)).unwrap();
    info["observations"][0]["piece"] = Value::String("d5".to_string());
    let error = serde_json::from_value::<HiddenInfoSet>(info).unwrap_err();
    assert!(
        error.to_string().contains("no piece starts on d5"),
        "{error}"
    );
}

#[test]
fn unsupported_hidden_rules_are_refused() {
    let mut rules = serde_json::to_value(HiddenRules::default()).unwrap();
    rules["rules"]["failed_attack"] = Value::String("illegal".to_string());
    let error = serde_json::from_value::<HiddenRules>(rules).unwrap_err();
    assert!(error.to_string().contains("failed_attack"), "{error}");
}

#[test]
fn a_referee_with_an_illegal_move_is_refused() {
    let referee = json!({
        "rules": HiddenRules::default(),
        "layouts": [Layout::standard(Player::First), Layout::standard(Player::Second)],
        "moves": ["a3a4", "a3a4"],
    });
    let error = serde_json::from_value::<Referee>(referee).unwrap_err();
    assert!(error.to_string().contains("not a legal move"), "{error}");
}

#[test]
fn a_position_with_a_foreign_history_is_refused_with_a_typed_error() {
    let mut data = serde_json::to_value(Jungle::new()).unwrap();
    data["history"] = json!([1, 2, 3]);
    let error = serde_json::from_value::<Jungle>(data).unwrap_err();
    assert!(
        error.to_string().contains("repetition history ends with"),
        "{error}"
    );
    let game = Jungle::new();
    let error = PositionError::HistoryMismatch {
        last: Some(3),
        hash: game_traits::PositionHash::position_hash(&game),
    };
    assert!(error.to_string().contains("Some(3)"), "{error}");
    let data = json!({ "position": "7/7/7/7/7/7/7/7/E5E w", "rules": Rules::default() });
    let error = serde_json::from_value::<Jungle>(data).unwrap_err();
    assert!(error.to_string().contains("two E pieces"), "{error}");
    assert_eq!(
        serde_json::from_value::<Jungle>(
            json!({ "position": START_POSITION, "rules": Rules::default() })
        )
        .unwrap(),
        Jungle::new()
    );
}

#[test]
fn bad_evaluator_settings_are_refused() {
    let mut data = serde_json::to_value(JungleEvaluator::default()).unwrap();
    data["scale"] = json!(0.0);
    let error = serde_json::from_value::<JungleEvaluator>(data.clone()).unwrap_err();
    assert!(error.to_string().contains("scale"), "{error}");
    data["scale"] = json!(-1.0);
    assert!(serde_json::from_value::<JungleEvaluator>(data.clone()).is_err());
    data["scale"] = json!(12.0);
    data["material_by_rank"][3] = Value::Null;
    assert!(serde_json::from_value::<JungleEvaluator>(data).is_err());
    let nan = JungleEvaluator {
        advancement: f32::NAN,
        ..JungleEvaluator::default()
    };
    let error = nan.validate().unwrap_err();
    assert!(error.to_string().contains("advancement"), "{error}");
    let infinite_scale = JungleEvaluator {
        scale: f32::INFINITY,
        ..JungleEvaluator::default()
    };
    assert!(infinite_scale.validate().is_err());
    JungleEvaluator::default().validate().unwrap();
}

#[test]
fn bad_redraw_probabilities_are_refused_and_never_panic() {
    for json in [
        r#"{"redraw":1.5}"#,
        r#"{"redraw":-0.5}"#,
        r#"{"redraw":null}"#,
    ] {
        let error = serde_json::from_str::<JunglePlayout>(json).unwrap_err();
        assert!(
            error.to_string().contains("redraw") || json.contains("null"),
            "{json}: {error}"
        );
    }
    assert!(JunglePlayout::new(f64::NAN).is_err());
    assert!(JunglePlayout::new(1.5).is_err());
    assert_eq!(JunglePlayout::new(0.25), Ok(JunglePlayout { redraw: 0.25 }));
    // Set directly in the public field, a bad value is clamped when
    // playing: whole playouts run without a panic.
    let game = Jungle::new();
    let mut moves = Vec::new();
    for redraw in [f64::NAN, 1.5, -3.0, f64::INFINITY] {
        let mut playout = JunglePlayout { redraw };
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let mut state = game.clone();
        let (_, plies) = playout.play_out(&mut state, &mut rng, &mut moves, 300, |_, _| {});
        assert!(plies > 0);
    }
}
