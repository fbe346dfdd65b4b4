//! Configurations refuse out-of-range settings, and serde refuses exactly
//! what `validate` refuses.

use gumbel_az::{
    CompletedQ, ConfigError, DirichletNoise, FirstPlay, GumbelAz, GumbelConfig, Puct, PuctConfig,
};

#[test]
fn zero_default_simulations_are_refused() {
    let error = GumbelConfig::default()
        .with_default_simulations(0)
        .validate()
        .unwrap_err();
    assert!(
        matches!(
            error,
            ConfigError::Range(game_traits::RangeError {
                name: "default_simulations",
                ..
            })
        ),
        "{error}"
    );
    let error = PuctConfig::default()
        .with_default_simulations(0)
        .validate()
        .unwrap_err();
    assert!(error.to_string().contains("default_simulations"), "{error}");
    let evaluator = game_traits::UniformPrior(game_traits::OutcomeEvaluator);
    assert!(
        GumbelAz::<game_traits::testing::TicTacToe, _>::new(
            evaluator,
            GumbelConfig::default().with_default_simulations(0)
        )
        .is_err()
    );
    assert!(
        Puct::<game_traits::testing::TicTacToe, _>::new(
            evaluator,
            PuctConfig::default().with_default_simulations(0)
        )
        .is_err()
    );
    GumbelConfig::default().validate().unwrap();
    PuctConfig::default().validate().unwrap();
}

#[test]
fn non_finite_settings_are_refused() {
    for config in [
        GumbelConfig::default().with_gumbel_scale(f64::NAN),
        GumbelConfig::default().with_gumbel_scale(f64::INFINITY),
        GumbelConfig::default().with_completed_q(CompletedQ::default().with_c_visit(f64::NAN)),
        GumbelConfig::default().with_completed_q(CompletedQ::default().with_epsilon(0.0)),
    ] {
        assert!(config.validate().is_err(), "{config:?}");
    }
    for config in [
        PuctConfig::default().with_c_puct(f64::NAN),
        PuctConfig::default().with_first_play(FirstPlay::Fixed(f64::NAN)),
        PuctConfig::default().with_root_noise(Some(DirichletNoise::new(f64::INFINITY, 0.25))),
        PuctConfig::default().with_root_noise(Some(DirichletNoise::new(0.3, f64::NAN))),
    ] {
        assert!(config.validate().is_err(), "{config:?}");
    }
}

#[cfg(feature = "serde")]
mod serde_checks {
    use super::*;
    use proptest::prelude::*;
    use serde_json::{Value, json};

    /// Numbers JSON carries exactly, and now and then NaN or an infinity
    /// (JSON writes them as `null`, which must be refused).
    fn number(low: f64, high: f64) -> impl Strategy<Value = f64> {
        let steps = ((high - low) * 256.0) as i64;
        prop_oneof![
            10 => (0..=steps).prop_map(move |step| low + step as f64 / 256.0),
            1 => Just(f64::NAN),
            1 => Just(f64::INFINITY),
        ]
    }

    fn completed_q() -> impl Strategy<Value = CompletedQ> {
        (
            number(-8.0, 64.0),
            number(-1.0, 4.0),
            any::<bool>(),
            any::<bool>(),
            prop_oneof![Just(1e-8), number(-1.0, 1.0)],
        )
            .prop_map(|(c_visit, c_scale, rescale, mixed, epsilon)| {
                CompletedQ::default()
                    .with_c_visit(c_visit)
                    .with_c_scale(c_scale)
                    .with_rescale_values(rescale)
                    .with_use_mixed_value(mixed)
                    .with_epsilon(epsilon)
            })
    }

    fn first_play() -> impl Strategy<Value = FirstPlay> {
        prop_oneof![
            Just(FirstPlay::ParentValue),
            number(-1.5, 1.5).prop_map(FirstPlay::Fixed),
        ]
    }

    fn noise() -> impl Strategy<Value = DirichletNoise> {
        (number(-0.5, 2.0), number(-0.5, 1.5))
            .prop_map(|(alpha, fraction)| DirichletNoise::new(alpha, fraction))
    }

    fn simulations() -> impl Strategy<Value = u64> {
        prop_oneof![Just(0u64), 1u64..1_000, Just(u64::MAX)]
    }

    /// serde accepts `value` exactly when `valid`, and gives it back.
    fn serde_agrees<T>(value: &T, valid: bool) -> Result<(), TestCaseError>
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let json = serde_json::to_string(value).unwrap();
        let back = serde_json::from_str::<T>(&json);
        prop_assert_eq!(back.is_ok(), valid, "{}", json);
        if let Ok(back) = back {
            prop_assert_eq!(&back, value);
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn gumbel_config_serde_agrees_with_validate(
            k in 0usize..20,
            gumbel_scale in number(-1.0, 2.0),
            completed_q in completed_q(),
            default_simulations in simulations(),
            seed in any::<u64>(),
            reuse in any::<bool>(),
            record in any::<bool>(),
        ) {
            let config = GumbelConfig::default()
                .with_max_considered_actions(k)
                .with_gumbel_scale(gumbel_scale)
                .with_completed_q(completed_q)
                .with_default_simulations(default_simulations)
                .with_seed(seed)
                .with_reuse_tree(reuse)
                .with_record_paths(record);
            serde_agrees(&config, config.validate().is_ok())?;
            serde_agrees(&completed_q, completed_q.validate().is_ok())?;
        }

        #[test]
        fn puct_config_serde_agrees_with_validate(
            c_puct in number(-1.0, 4.0),
            first_play in first_play(),
            root_noise in prop::option::of(noise()),
            default_simulations in simulations(),
            seed in any::<u64>(),
            reuse in any::<bool>(),
        ) {
            let config = PuctConfig::default()
                .with_c_puct(c_puct)
                .with_first_play(first_play)
                .with_root_noise(root_noise)
                .with_default_simulations(default_simulations)
                .with_seed(seed)
                .with_reuse_tree(reuse);
            serde_agrees(&config, config.validate().is_ok())?;
            let valid = PuctConfig::default().with_first_play(first_play).validate().is_ok();
            serde_agrees(&first_play, valid)?;
            if let Some(noise) = root_noise {
                let valid = PuctConfig::default().with_root_noise(Some(noise)).validate().is_ok();
                serde_agrees(&noise, valid)?;
            }
        }
    }

    #[test]
    fn bad_settings_are_refused_by_name() {
        let mut gumbel: Value = serde_json::to_value(GumbelConfig::default()).unwrap();
        gumbel["default_simulations"] = json!(0);
        let error = serde_json::from_value::<GumbelConfig>(gumbel.clone()).unwrap_err();
        assert!(error.to_string().contains("default_simulations"), "{error}");
        gumbel["default_simulations"] = json!(64);
        gumbel["completed_q"]["c_scale"] = json!(-0.1);
        let error = serde_json::from_value::<GumbelConfig>(gumbel).unwrap_err();
        assert!(error.to_string().contains("c_scale"), "{error}");
        let mut puct: Value = serde_json::to_value(PuctConfig::default()).unwrap();
        puct["first_play"] = json!({ "Fixed": 2.0 });
        let error = serde_json::from_value::<PuctConfig>(puct.clone()).unwrap_err();
        assert!(error.to_string().contains("first_play"), "{error}");
        puct["first_play"] = json!("ParentValue");
        puct["root_noise"] = json!({ "alpha": 0.3, "fraction": 1.5 });
        let error = serde_json::from_value::<PuctConfig>(puct.clone()).unwrap_err();
        assert!(error.to_string().contains("fraction"), "{error}");
        puct["root_noise"] = json!({ "alpha": 0.3, "fraction": 0.25 });
        assert!(serde_json::from_value::<PuctConfig>(puct).is_ok());
    }
}
