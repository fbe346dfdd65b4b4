//! Training: the loss of AlphaZero (cross-entropy to the search's policy,
//! squared error to the value target), Adam with decoupled weight decay
//! (AdamW, Loshchilov & Hutter 2019), a learning-rate schedule, and
//! checkpoints that resume exactly.

use std::path::Path;

use candle_core::{Device, Tensor, Var};
use game_traits::{PlaneEncoding, Range};

use crate::file::{self, NET_PREFIX};
use crate::net::{NetSpec, Network, forward, log_softmax};
use crate::sample::TrainingBatch;
use crate::{Architecture, NetError, TrainError};

/// Adam's first-moment decay (`beta1`).
const BETA1: f64 = 0.9;
/// Adam's second-moment decay (`beta2`).
const BETA2: f64 = 0.999;
/// Adam's `epsilon`.
const EPSILON: f64 = 1e-8;

/// How the trainer learns.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct TrainConfig {
    /// Samples per step (default 256).
    pub batch_size: usize,
    /// The peak learning rate (default 0.002).
    pub learning_rate: f64,
    /// Steps over which the rate rises linearly from 0 to its peak
    /// (default 100).
    pub warmup_steps: u64,
    /// Steps after which the rate is multiplied by `decay_factor`, in
    /// increasing order (default none).
    pub decay_steps: Vec<u64>,
    /// The factor at each of `decay_steps` (default 0.3).
    pub decay_factor: f64,
    /// Decoupled weight decay on the weights, not the biases (default
    /// 1e-4).
    pub weight_decay: f64,
    /// The weight of the value loss against the policy loss (default 1).
    pub value_weight: f64,
    /// The weight of the search value in the value target (default 0: the
    /// game's result alone).
    pub search_value_weight: f32,
    /// Turn samples by the game's symmetries (default on).
    pub augment: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            batch_size: 256,
            learning_rate: 0.002,
            warmup_steps: 100,
            decay_steps: Vec::new(),
            decay_factor: 0.3,
            weight_decay: 1e-4,
            value_weight: 1.0,
            search_value_weight: 0.0,
            augment: true,
        }
    }
}

impl TrainConfig {
    /// Checks every setting.
    ///
    /// # Errors
    ///
    /// [`TrainError::Range`] or [`TrainError::Config`] naming the first
    /// setting refused.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |name, value: String, expected: &str| {
            Err(TrainError::Config {
                name,
                value,
                expected: expected.to_string(),
            })
        };
        Range::check_count("batch_size", self.batch_size as u64, 1, 1 << 16)?;
        if !(self.learning_rate.is_finite()
            && self.learning_rate > 0.0
            && self.learning_rate < 10.0)
        {
            return bad(
                "learning_rate",
                self.learning_rate.to_string(),
                "a number in (0, 10)",
            );
        }
        if !(self.decay_factor.is_finite() && self.decay_factor > 0.0 && self.decay_factor <= 1.0) {
            return bad(
                "decay_factor",
                self.decay_factor.to_string(),
                "a number in (0, 1]",
            );
        }
        if self.decay_steps.windows(2).any(|pair| pair[0] >= pair[1]) {
            return bad(
                "decay_steps",
                format!("{:?}", self.decay_steps),
                "increasing steps",
            );
        }
        if !(self.weight_decay.is_finite() && (0.0..1.0).contains(&self.weight_decay)) {
            return bad(
                "weight_decay",
                self.weight_decay.to_string(),
                "a number in [0, 1)",
            );
        }
        Range::AtLeast(0.0).check("value_weight", self.value_weight)?;
        Range::PROBABILITY.check("search_value_weight", f64::from(self.search_value_weight))?;
        Ok(())
    }

    /// The learning rate of step `step` (counted from 0): linear warm-up,
    /// then the peak times `decay_factor` per decay step passed.
    pub fn learning_rate_at(&self, step: u64) -> f64 {
        let warm = if step < self.warmup_steps {
            (step + 1) as f64 / self.warmup_steps as f64
        } else {
            1.0
        };
        let decays = self.decay_steps.iter().filter(|&&at| step >= at).count();
        self.learning_rate * warm * self.decay_factor.powi(decays as i32)
    }
}

/// The losses of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Losses {
    /// Cross-entropy of the network's policy to the target policy.
    pub policy: f32,
    /// Mean squared error of the value to the value target.
    pub value: f32,
}

impl Losses {
    /// `policy + value_weight * value`.
    pub fn total(&self, value_weight: f64) -> f32 {
        self.policy + value_weight as f32 * self.value
    }
}

/// A network being trained, with its optimiser state.
pub struct Trainer {
    spec: NetSpec,
    config: TrainConfig,
    variables: Vec<Var>,
    first_moments: Vec<Tensor>,
    second_moments: Vec<Tensor>,
    decays: Vec<bool>,
    step: u64,
    device: Device,
}

impl std::fmt::Debug for Trainer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trainer")
            .field("architecture", &self.spec.architecture.to_string())
            .field("step", &self.step)
            .finish_non_exhaustive()
    }
}

impl Trainer {
    /// A trainer for a fresh network of `architecture`, its weights drawn
    /// from `seed`.
    ///
    /// # Errors
    ///
    /// [`TrainError::Config`] for settings out of range,
    /// [`TrainError::Net`] for a bad architecture.
    pub fn new<G: PlaneEncoding>(
        prototype: &G,
        architecture: Architecture,
        config: TrainConfig,
        seed: u64,
    ) -> Result<Trainer, TrainError> {
        let network = Network::new(prototype, architecture, seed)?;
        Trainer::from_network(&network, config)
    }

    /// A trainer that goes on from `network`, with a fresh optimiser.
    ///
    /// # Errors
    ///
    /// [`TrainError::Config`] for settings out of range.
    pub fn from_network<G>(
        network: &Network<G>,
        config: TrainConfig,
    ) -> Result<Trainer, TrainError> {
        config.validate()?;
        let zeros = |tensor: &Tensor| tensor.zeros_like();
        let tensors = network.tensors();
        Ok(Trainer {
            spec: network.spec().clone(),
            config,
            variables: tensors
                .iter()
                .map(|tensor| Var::from_tensor(&tensor.copy()?))
                .collect::<candle_core::Result<_>>()?,
            first_moments: tensors
                .iter()
                .map(zeros)
                .collect::<candle_core::Result<_>>()?,
            second_moments: tensors
                .iter()
                .map(zeros)
                .collect::<candle_core::Result<_>>()?,
            decays: network
                .spec()
                .parameters()
                .iter()
                .map(|parameter| parameter.decays())
                .collect(),
            step: 0,
            device: network.device().clone(),
        })
    }

    /// Steps taken.
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The settings.
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// Replaces the settings (the schedule goes on from the current step).
    ///
    /// # Errors
    ///
    /// [`TrainError::Config`] for settings out of range.
    pub fn set_config(&mut self, config: TrainConfig) -> Result<(), TrainError> {
        config.validate()?;
        self.config = config;
        Ok(())
    }

    /// What the network is for.
    pub fn spec(&self) -> &NetSpec {
        &self.spec
    }

    /// The network as it is now (a copy, for self-play and evaluation).
    ///
    /// # Errors
    ///
    /// [`TrainError::Net`] if the weights cannot be copied.
    pub fn network<G>(&self) -> Result<Network<G>, TrainError> {
        let tensors = self
            .variables
            .iter()
            .map(|variable| variable.as_tensor().copy())
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Network::from_tensors(
            self.spec.clone(),
            tensors,
            &self.device,
        )?)
    }

    fn inputs(&self, batch: &TrainingBatch) -> candle_core::Result<(Tensor, Tensor, Tensor)> {
        let shape = self.spec.planes;
        let planes = Tensor::from_slice(
            &batch.planes,
            (batch.size, shape.channels, shape.height, shape.width),
            &self.device,
        )?;
        let policy = Tensor::from_slice(
            &batch.policy,
            (batch.size, self.spec.policy_len),
            &self.device,
        )?;
        let values = Tensor::from_slice(&batch.values, batch.size, &self.device)?;
        Ok((planes, policy, values))
    }

    fn losses(&self, batch: &TrainingBatch) -> candle_core::Result<(Tensor, Tensor)> {
        let (planes, policy_target, value_target) = self.inputs(batch)?;
        let parameters: Vec<Tensor> = self
            .variables
            .iter()
            .map(|v| v.as_tensor().clone())
            .collect();
        let (logits, values) = forward(&self.spec, &parameters, &planes)?;
        let size = batch.size as f64;
        let policy_loss = (policy_target * log_softmax(&logits)?)?
            .sum_all()?
            .affine(-1.0 / size, 0.0)?;
        let value_loss = (values - value_target)?.sqr()?.mean_all()?;
        Ok((policy_loss, value_loss))
    }

    /// The losses on `batch`, without learning from it.
    ///
    /// # Errors
    ///
    /// [`TrainError::Net`] if the computation fails.
    pub fn evaluate(&self, batch: &TrainingBatch) -> Result<Losses, TrainError> {
        let (policy, value) = self.losses(batch)?;
        Ok(Losses {
            policy: policy.to_scalar::<f32>()?,
            value: value.to_scalar::<f32>()?,
        })
    }

    /// One step of AdamW on `batch`; returns its losses (before the step).
    ///
    /// # Errors
    ///
    /// [`TrainError::NonFiniteLoss`] if a loss or the gradient's norm is
    /// NaN or infinite: the weights are left as they were (`last_good` names no checkpoint
    /// here; the run loop fills it in). [`TrainError::Net`] if the
    /// computation fails.
    pub fn train_step(&mut self, batch: &TrainingBatch) -> Result<Losses, TrainError> {
        let (policy, value) = self.losses(batch)?;
        let losses = Losses {
            policy: policy.to_scalar::<f32>()?,
            value: value.to_scalar::<f32>()?,
        };
        if !losses.policy.is_finite() || !losses.value.is_finite() {
            return Err(TrainError::NonFiniteLoss {
                step: self.step,
                policy_loss: losses.policy,
                value_loss: losses.value,
                last_good: "none".to_string(),
            });
        }
        let total = (policy + value.affine(self.config.value_weight, 0.0)?)?;
        let gradients = total.backward()?;
        // The squared norm of the gradient: Adam's second moments would
        // hold it, so it must be finite too.
        let mut squared = 0.0f32;
        for variable in &self.variables {
            if let Some(gradient) = gradients.get(variable.as_tensor()) {
                squared += gradient.sqr()?.sum_all()?.to_scalar::<f32>()?;
            }
        }
        if !squared.is_finite() {
            return Err(TrainError::NonFiniteLoss {
                step: self.step,
                policy_loss: losses.policy,
                value_loss: losses.value,
                last_good: "none".to_string(),
            });
        }
        self.apply(&gradients)?;
        Ok(losses)
    }

    fn apply(&mut self, gradients: &candle_core::backprop::GradStore) -> candle_core::Result<()> {
        let rate = self.config.learning_rate_at(self.step);
        self.step += 1;
        let t = self.step as i32;
        let (correct1, correct2) = (1.0 - BETA1.powi(t), 1.0 - BETA2.powi(t));
        for (index, variable) in self.variables.iter().enumerate() {
            let Some(gradient) = gradients.get(variable.as_tensor()) else {
                continue;
            };
            let m = ((&self.first_moments[index] * BETA1)? + (gradient * (1.0 - BETA1))?)?;
            let v = ((&self.second_moments[index] * BETA2)? + (gradient.sqr()? * (1.0 - BETA2))?)?;
            let step = ((&m / correct1)? / ((&v / correct2)?.sqrt()? + EPSILON)?)?;
            let weights = variable.as_tensor().detach();
            let decayed = if self.decays[index] {
                (&weights * (1.0 - rate * self.config.weight_decay))?
            } else {
                weights
            };
            variable.set(&(decayed - (step * rate)?)?)?;
            self.first_moments[index] = m;
            self.second_moments[index] = v;
        }
        Ok(())
    }

    /// Saves the network, the optimiser's moments, the step and `extra`
    /// metadata to `path`: a network file that [`Network::load`] reads and
    /// [`Trainer::resume`] continues from exactly.
    ///
    /// # Errors
    ///
    /// [`NetError::Io`] if it cannot be written; [`NetError::NonFinite`]
    /// (nothing written) for a NaN weight.
    pub fn save_checkpoint(&self, path: &Path, extra: &[(&str, String)]) -> Result<(), NetError> {
        let weights: Vec<Tensor> = self
            .variables
            .iter()
            .map(|v| v.as_tensor().clone())
            .collect();
        let mut metadata = vec![("step", self.step.to_string())];
        metadata.extend(extra.iter().cloned());
        file::write(
            path,
            &self.spec,
            &[
                (NET_PREFIX, &weights),
                ("adam.m.", &self.first_moments),
                ("adam.v.", &self.second_moments),
            ],
            &metadata,
        )
    }

    /// The trainer saved at `path` by [`save_checkpoint`](Trainer::save_checkpoint),
    /// for the games encoded as `prototype` is, with `config`.
    ///
    /// # Errors
    ///
    /// As [`Network::load`], and [`NetError::MissingTensor`] for a network
    /// file without optimiser state; [`TrainError::Config`] for settings
    /// out of range.
    pub fn resume<G: PlaneEncoding>(
        path: &Path,
        prototype: &G,
        config: TrainConfig,
    ) -> Result<Trainer, TrainError> {
        let origin = path.display().to_string();
        let contents = file::read(path)?;
        let network: Network<G> = Network::from_file(&contents, prototype, &origin)?;
        let mut trainer = Trainer::from_network(&network, config)?;
        let tensors = |prefix: &str| -> Result<Vec<Tensor>, NetError> {
            contents
                .group(prefix, &origin)?
                .into_iter()
                .zip(contents.spec.parameters())
                .map(|(values, parameter)| {
                    Tensor::from_vec(values, parameter.shape.as_slice(), &trainer.device)
                        .map_err(NetError::from)
                })
                .collect()
        };
        trainer.first_moments = tensors("adam.m.")?;
        trainer.second_moments = tensors("adam.v.")?;
        trainer.step = contents
            .metadata
            .get("step")
            .and_then(|step| step.parse().ok())
            .ok_or_else(|| NetError::Metadata {
                origin: origin.clone(),
                key: "step".to_string(),
                problem: "is missing or unreadable".to_string(),
            })?;
        Ok(trainer)
    }
}
