//! Deserialization through the checks: each configuration type is read
//! into a plain mirror of its fields, then built and validated, so that
//! serde refuses what `validate` refuses.
//!
//! `DirichletNoise` and `FirstPlay` have no checks of their own: they are
//! checked by [`PuctConfig::validate`] inside a default configuration, so
//! the rules live in one place.

use crate::{CompletedQ, ConfigError, DirichletNoise, FirstPlay, GumbelConfig, PuctConfig};

/// A serialized [`GumbelConfig`] before [`GumbelConfig::validate`].
#[derive(serde::Deserialize)]
#[serde(rename = "GumbelConfig")]
pub(crate) struct GumbelConfigRaw {
    max_considered_actions: usize,
    gumbel_scale: f64,
    completed_q: CompletedQ,
    default_simulations: u64,
    seed: u64,
    reuse_tree: bool,
    record_paths: bool,
    #[serde(default = "default_tree_bytes")]
    max_tree_bytes: usize,
}

fn default_tree_bytes() -> usize {
    crate::DEFAULT_TREE_BYTES
}

impl TryFrom<GumbelConfigRaw> for GumbelConfig {
    type Error = ConfigError;

    fn try_from(raw: GumbelConfigRaw) -> Result<Self, ConfigError> {
        let config = GumbelConfig {
            max_considered_actions: raw.max_considered_actions,
            gumbel_scale: raw.gumbel_scale,
            completed_q: raw.completed_q,
            default_simulations: raw.default_simulations,
            seed: raw.seed,
            reuse_tree: raw.reuse_tree,
            record_paths: raw.record_paths,
            max_tree_bytes: raw.max_tree_bytes,
        };
        config.validate()?;
        Ok(config)
    }
}

/// A serialized [`PuctConfig`] before [`PuctConfig::validate`].
#[derive(serde::Deserialize)]
#[serde(rename = "PuctConfig")]
pub(crate) struct PuctConfigRaw {
    c_puct: f64,
    first_play: FirstPlay,
    root_noise: Option<DirichletNoise>,
    default_simulations: u64,
    seed: u64,
    reuse_tree: bool,
    #[serde(default = "default_tree_bytes")]
    max_tree_bytes: usize,
}

impl TryFrom<PuctConfigRaw> for PuctConfig {
    type Error = ConfigError;

    fn try_from(raw: PuctConfigRaw) -> Result<Self, ConfigError> {
        let config = PuctConfig {
            c_puct: raw.c_puct,
            first_play: raw.first_play,
            root_noise: raw.root_noise,
            default_simulations: raw.default_simulations,
            seed: raw.seed,
            reuse_tree: raw.reuse_tree,
            max_tree_bytes: raw.max_tree_bytes,
        };
        config.validate()?;
        Ok(config)
    }
}

/// A serialized [`CompletedQ`] before [`CompletedQ::validate`].
#[derive(serde::Deserialize)]
#[serde(rename = "CompletedQ")]
pub(crate) struct CompletedQRaw {
    c_visit: f64,
    c_scale: f64,
    rescale_values: bool,
    use_mixed_value: bool,
    epsilon: f64,
}

impl TryFrom<CompletedQRaw> for CompletedQ {
    type Error = ConfigError;

    fn try_from(raw: CompletedQRaw) -> Result<Self, ConfigError> {
        let completed_q = CompletedQ {
            c_visit: raw.c_visit,
            c_scale: raw.c_scale,
            rescale_values: raw.rescale_values,
            use_mixed_value: raw.use_mixed_value,
            epsilon: raw.epsilon,
        };
        completed_q.validate()?;
        Ok(completed_q)
    }
}

/// A serialized [`DirichletNoise`] before its check.
#[derive(serde::Deserialize)]
#[serde(rename = "DirichletNoise")]
pub(crate) struct DirichletNoiseRaw {
    alpha: f64,
    fraction: f64,
}

impl TryFrom<DirichletNoiseRaw> for DirichletNoise {
    type Error = ConfigError;

    fn try_from(raw: DirichletNoiseRaw) -> Result<Self, ConfigError> {
        let noise = DirichletNoise::new(raw.alpha, raw.fraction);
        PuctConfig::default()
            .with_root_noise(Some(noise))
            .validate()?;
        Ok(noise)
    }
}

/// A serialized [`FirstPlay`] before its check.
#[derive(serde::Deserialize)]
#[serde(rename = "FirstPlay")]
pub(crate) enum FirstPlayRaw {
    ParentValue,
    Fixed(f64),
}

impl TryFrom<FirstPlayRaw> for FirstPlay {
    type Error = ConfigError;

    fn try_from(raw: FirstPlayRaw) -> Result<Self, ConfigError> {
        let first_play = match raw {
            FirstPlayRaw::ParentValue => FirstPlay::ParentValue,
            FirstPlayRaw::Fixed(value) => FirstPlay::Fixed(value),
        };
        PuctConfig::default()
            .with_first_play(first_play)
            .validate()?;
        Ok(first_play)
    }
}
