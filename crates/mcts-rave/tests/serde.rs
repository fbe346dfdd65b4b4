//! serde refuses exactly what `validate` refuses: configurations and RAVE
//! schedules come in through their checks.
#![cfg(feature = "serde")]

use mcts_rave::{LeafEvaluation, MctsConfig, Rave, RaveSchedule};
use proptest::prelude::*;

/// Numbers JSON carries exactly, NaN and infinities now and then (JSON
/// writes them as `null`, which must be refused).
fn number() -> impl Strategy<Value = f32> {
    prop_oneof![
        10 => (-1024i32..4096).prop_map(|n| n as f32 / 256.0),
        1 => Just(f32::NAN),
        1 => Just(f32::INFINITY),
        1 => Just(f32::NEG_INFINITY),
    ]
}

fn leaf() -> impl Strategy<Value = LeafEvaluation> {
    prop_oneof![
        Just(LeafEvaluation::Playout),
        Just(LeafEvaluation::Evaluator),
        any::<u32>().prop_map(|depth| LeafEvaluation::PlayoutCutoff { depth }),
    ]
}

fn config() -> impl Strategy<Value = MctsConfig> {
    (
        number(),
        prop_oneof![0usize..4, 250usize..260],
        any::<u64>(),
        leaf(),
        prop_oneof![
            0u64..10,
            1_000u64..2_000,
            Just(u64::from(u32::MAX)),
            Just(1 << 33)
        ],
        prop_oneof![Just(0u64), 1u64..100_000],
        any::<bool>(),
        prop_oneof![Just(0u32), 1u32..20_000],
    )
        .prop_map(
            |(exploration, threads, seed, leaf, max_nodes, iterations, reuse, plies)| {
                MctsConfig::default()
                    .with_exploration(exploration)
                    .with_threads(threads)
                    .with_seed(seed)
                    .with_leaf(leaf)
                    .with_max_nodes(max_nodes)
                    .with_default_iterations(iterations)
                    .with_reuse_tree(reuse)
                    .with_max_playout_plies(plies)
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn config_serde_agrees_with_validate(config in config()) {
        let json = serde_json::to_string(&config).unwrap();
        let back = serde_json::from_str::<MctsConfig>(&json);
        prop_assert_eq!(back.is_ok(), config.validate().is_ok(), "{}", json);
        if let Ok(back) = back {
            prop_assert_eq!(back, config);
        }
    }

    #[test]
    fn rave_serde_agrees_with_validate(parameter in number(), equivalence in any::<bool>()) {
        let rave = if equivalence {
            Rave::equivalence(parameter)
        } else {
            Rave::minimum_mse(parameter)
        };
        let json = serde_json::to_string(&rave).unwrap();
        let back = serde_json::from_str::<Rave>(&json);
        // Infinity is valid but JSON cannot carry it (see `RaveSchedule`).
        let expected = rave.validate().is_ok() && parameter.is_finite();
        prop_assert_eq!(back.is_ok(), expected, "{}", json);
        if let Ok(back) = back {
            prop_assert_eq!(back, rave);
        }
        let schedule = serde_json::from_str::<RaveSchedule>(&serde_json::to_string(&rave.schedule()).unwrap());
        prop_assert_eq!(schedule.is_ok(), expected);
    }
}

#[test]
fn bad_configurations_are_refused_by_name() {
    let good = serde_json::to_value(MctsConfig::default()).unwrap();
    for (field, value, name) in [
        ("exploration", serde_json::json!(-1.0), "exploration"),
        ("exploration", serde_json::Value::Null, "null"),
        ("threads", serde_json::json!(0), "threads"),
        ("max_nodes", serde_json::json!(1), "max_nodes"),
        (
            "default_iterations",
            serde_json::json!(0),
            "default_iterations",
        ),
        (
            "max_playout_plies",
            serde_json::json!(0),
            "max_playout_plies",
        ),
    ] {
        let mut data = good.clone();
        data[field] = value;
        let error = serde_json::from_value::<MctsConfig>(data).unwrap_err();
        assert!(error.to_string().contains(name), "{field}: {error}");
    }
    assert_eq!(
        serde_json::from_value::<MctsConfig>(good).unwrap(),
        MctsConfig::default()
    );
    let error =
        serde_json::from_str::<Rave>(r#"{"schedule":{"MinimumMse":{"bias":-0.5}}}"#).unwrap_err();
    assert!(error.to_string().contains("bias = -0.5"), "{error}");
    let error = serde_json::from_str::<RaveSchedule>(r#"{"Equivalence":{"k":-1}}"#).unwrap_err();
    assert!(error.to_string().contains("k = -1"), "{error}");
    assert!(
        RaveSchedule::MinimumMse { bias: f32::NAN }
            .validate()
            .is_err()
    );
    assert!(Rave::minimum_mse(f32::INFINITY).validate().is_ok());
}
