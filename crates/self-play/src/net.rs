//! The policy-value network: its architecture, its parameters, and the
//! forward pass on candle tensors.

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use candle_core::{D, DType, Device, Tensor};
use game_traits::{PlaneEncoding, PlaneShape};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::NetError;

/// The most channels, blocks, hidden units or layers an architecture
/// accepts: far above what trains on a CPU, low enough that a typo does not
/// ask for terabytes.
pub const MAX_WIDTH: usize = 4096;
/// The most residual blocks or hidden layers.
pub const MAX_DEPTH: usize = 64;

/// The shape of a network. Both kinds end in the two heads of AlphaZero:
/// a policy (one logit per policy index) and a value (`tanh`, in
/// `[-1, 1]`, for the player to move).
///
/// Text form (as the metadata of a saved network and the command line
/// write it): `resnet:channels=32,blocks=4,value=64` or `mlp:256,256`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Architecture {
    /// A residual convolutional network (He et al. 2016, as AlphaZero
    /// uses it, without batch normalisation): a 3x3 convolution to
    /// `channels`, `blocks` residual blocks of two 3x3 convolutions; the
    /// policy head a 1x1 convolution to 2 planes and a linear layer, the
    /// value head a 1x1 convolution to 1 plane, a hidden layer of
    /// `value_hidden` units and a linear layer to the value. Each block's
    /// second convolution starts small, so a fresh network is close to its
    /// stem and trains without normalisation layers.
    Residual {
        /// Channels of every convolution of the trunk.
        channels: usize,
        /// Residual blocks.
        blocks: usize,
        /// Hidden units of the value head.
        value_hidden: usize,
    },
    /// A multilayer perceptron on the flattened planes: hidden layers of
    /// these widths (ReLU), then the two heads as linear layers.
    Mlp {
        /// The width of each hidden layer, input side first.
        hidden: Vec<usize>,
    },
}

impl Architecture {
    /// A residual network.
    pub fn residual(channels: usize, blocks: usize, value_hidden: usize) -> Architecture {
        Architecture::Residual {
            channels,
            blocks,
            value_hidden,
        }
    }

    /// A multilayer perceptron.
    pub fn mlp(hidden: impl Into<Vec<usize>>) -> Architecture {
        Architecture::Mlp {
            hidden: hidden.into(),
        }
    }

    /// Checks the sizes.
    ///
    /// # Errors
    ///
    /// [`NetError::Architecture`] for a size of 0, a width above
    /// [`MAX_WIDTH`] or a depth above [`MAX_DEPTH`].
    pub fn validate(&self) -> Result<(), NetError> {
        let bad = |reason: String| {
            Err(NetError::Architecture {
                text: self.to_string(),
                reason,
            })
        };
        let check_width = |name: &str, width: usize| {
            if width == 0 || width > MAX_WIDTH {
                Err(format!("{name} must be 1 to {MAX_WIDTH}, not {width}"))
            } else {
                Ok(())
            }
        };
        match self {
            Architecture::Residual {
                channels,
                blocks,
                value_hidden,
            } => {
                if let Err(reason) =
                    check_width("channels", *channels).and(check_width("value", *value_hidden))
                {
                    return bad(reason);
                }
                if *blocks > MAX_DEPTH {
                    return bad(format!("blocks must be 0 to {MAX_DEPTH}, not {blocks}"));
                }
            }
            Architecture::Mlp { hidden } => {
                if hidden.is_empty() || hidden.len() > MAX_DEPTH {
                    return bad(format!(
                        "an MLP needs 1 to {MAX_DEPTH} hidden layers, not {}",
                        hidden.len()
                    ));
                }
                for &width in hidden {
                    if let Err(reason) = check_width("a hidden layer", width) {
                        return bad(reason);
                    }
                }
            }
        }
        Ok(())
    }

    /// Every parameter: name, shape and how it starts, for planes of
    /// `planes` and `policy_len` policy outputs.
    pub(crate) fn parameters(&self, planes: PlaneShape, policy_len: usize) -> Vec<Parameter> {
        let mut list = Vec::new();
        match self {
            Architecture::Residual {
                channels,
                blocks,
                value_hidden,
            } => {
                let (c, cells) = (*channels, planes.cells());
                // Convolution weights are [outputs, rows, columns, inputs],
                // the order of the patches `conv` multiplies them with.
                push_layer(
                    &mut list,
                    "stem",
                    &[c, 3, 3, planes.channels],
                    Init::He(1.0),
                );
                for block in 0..*blocks {
                    let shape = [c, 3, 3, c];
                    push_layer(
                        &mut list,
                        &format!("block{block}.conv1"),
                        &shape,
                        Init::He(1.0),
                    );
                    push_layer(
                        &mut list,
                        &format!("block{block}.conv2"),
                        &shape,
                        Init::He(0.1),
                    );
                }
                push_layer(&mut list, "policy.conv", &[2, 1, 1, c], Init::He(1.0));
                push_layer(&mut list, "value.conv", &[1, 1, 1, c], Init::He(1.0));
                push_layer(
                    &mut list,
                    "policy.fc",
                    &[policy_len, 2 * cells],
                    Init::He(0.1),
                );
                push_layer(
                    &mut list,
                    "value.fc1",
                    &[*value_hidden, cells],
                    Init::He(1.0),
                );
                push_layer(&mut list, "value.fc2", &[1, *value_hidden], Init::He(0.1));
            }
            Architecture::Mlp { hidden } => {
                let mut inputs = planes.len();
                for (layer, &width) in hidden.iter().enumerate() {
                    push_layer(
                        &mut list,
                        &format!("layer{layer}"),
                        &[width, inputs],
                        Init::He(1.0),
                    );
                    inputs = width;
                }
                push_layer(&mut list, "policy", &[policy_len, inputs], Init::He(0.1));
                push_layer(&mut list, "value", &[1, inputs], Init::He(0.1));
            }
        }
        list
    }

    /// Multiply-adds of one position's forward pass, for planes of
    /// `planes` and `policy_len` outputs (twice this is the FLOPs).
    pub fn multiply_adds(&self, planes: PlaneShape, policy_len: usize) -> u64 {
        let cells = planes.cells() as u64;
        self.parameters(planes, policy_len)
            .iter()
            .filter(|parameter| parameter.name.ends_with(".weight"))
            .map(|parameter| {
                let weights: u64 = parameter.shape.iter().map(|&n| n as u64).product();
                // A convolution applies its weights at every cell.
                if parameter.shape.len() == 4 {
                    weights * cells
                } else {
                    weights
                }
            })
            .sum()
    }
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Architecture::Residual {
                channels,
                blocks,
                value_hidden,
            } => write!(
                f,
                "resnet:channels={channels},blocks={blocks},value={value_hidden}"
            ),
            Architecture::Mlp { hidden } => {
                let widths: Vec<String> = hidden.iter().map(usize::to_string).collect();
                write!(f, "mlp:{}", widths.join(","))
            }
        }
    }
}

impl FromStr for Architecture {
    type Err = NetError;

    /// Reads `resnet[:channels=C,blocks=B,value=V]` (defaults 32, 4, 64)
    /// or `mlp[:W1,W2,...]` (default 256,256).
    fn from_str(text: &str) -> Result<Architecture, NetError> {
        let bad = |reason: &str| NetError::Architecture {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let (kind, settings) = text.trim().split_once(':').unwrap_or((text.trim(), ""));
        let number = |value: &str| {
            value
                .trim()
                .parse::<usize>()
                .map_err(|_| bad(&format!("{value:?} is not a whole number")))
        };
        let architecture = match kind {
            "resnet" => {
                let (mut channels, mut blocks, mut value_hidden) = (32, 4, 64);
                for setting in settings.split(',').filter(|s| !s.trim().is_empty()) {
                    let (key, value) = setting
                        .split_once('=')
                        .ok_or_else(|| bad(&format!("{setting:?} is not key=value")))?;
                    match key.trim() {
                        "channels" => channels = number(value)?,
                        "blocks" => blocks = number(value)?,
                        "value" => value_hidden = number(value)?,
                        other => {
                            return Err(bad(&format!(
                                "unknown setting {other:?} (channels, blocks, value)"
                            )));
                        }
                    }
                }
                Architecture::residual(channels, blocks, value_hidden)
            }
            "mlp" => {
                let hidden = if settings.trim().is_empty() {
                    vec![256, 256]
                } else {
                    settings
                        .split(',')
                        .map(number)
                        .collect::<Result<Vec<_>, _>>()?
                };
                Architecture::mlp(hidden)
            }
            _ => {
                return Err(bad(
                    "expected resnet[:channels=C,blocks=B,value=V] or mlp[:W1,W2,...]",
                ));
            }
        };
        architecture.validate()?;
        Ok(architecture)
    }
}

/// Pushes a layer's weight (of `shape`: outputs first) and its bias.
fn push_layer(list: &mut Vec<Parameter>, name: &str, shape: &[usize], init: Init) {
    list.push(Parameter::new(
        format!("{name}.weight"),
        shape.to_vec(),
        init,
    ));
    list.push(Parameter::new(
        format!("{name}.bias"),
        vec![shape[0]],
        Init::Zero,
    ));
}

/// How a parameter starts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Init {
    /// Zero (biases).
    Zero,
    /// Normal with He's standard deviation `sqrt(2 / fan_in)`, times the
    /// factor (small for the layers that should start near zero).
    He(f64),
}

/// One parameter of an architecture.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Parameter {
    pub(crate) name: String,
    pub(crate) shape: Vec<usize>,
    pub(crate) init: Init,
}

impl Parameter {
    fn new(name: String, shape: Vec<usize>, init: Init) -> Parameter {
        Parameter { name, shape, init }
    }

    pub(crate) fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Weights get weight decay; biases do not.
    pub(crate) fn decays(&self) -> bool {
        self.name.ends_with(".weight")
    }

    /// Its starting values, from `rng`.
    pub(crate) fn initial_values(&self, rng: &mut Pcg64Mcg) -> Vec<f32> {
        match self.init {
            Init::Zero => vec![0.0; self.len()],
            Init::He(factor) => {
                let fan_in: usize = self.shape[1..].iter().product();
                let std = factor * (2.0 / fan_in.max(1) as f64).sqrt();
                (0..self.len())
                    .map(|_| (std * standard_normal(rng)) as f32)
                    .collect()
            }
        }
    }
}

/// A standard normal variate (Box-Muller), so that initial weights depend
/// on the seed alone.
fn standard_normal(rng: &mut Pcg64Mcg) -> f64 {
    use rand::RngExt;
    let u1: f64 = 1.0 - rng.random::<f64>();
    let u2: f64 = rng.random::<f64>();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// What a network is for: the encoding it reads, its shapes, its
/// architecture. Saved in the metadata of every network file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NetSpec {
    /// The game's [`PlaneEncoding::encoding`].
    pub encoding: String,
    /// The planes it reads.
    pub planes: PlaneShape,
    /// Its policy outputs.
    pub policy_len: usize,
    /// Its layers.
    pub architecture: Architecture,
}

impl NetSpec {
    /// The spec of a network of `architecture` for the games encoded as
    /// `prototype` is.
    pub fn for_game<G: PlaneEncoding>(prototype: &G, architecture: Architecture) -> NetSpec {
        NetSpec {
            encoding: prototype.encoding(),
            planes: prototype.plane_shape(),
            policy_len: prototype.policy_len(),
            architecture,
        }
    }

    pub(crate) fn parameters(&self) -> Vec<Parameter> {
        self.architecture.parameters(self.planes, self.policy_len)
    }

    /// Multiply-adds of one position's forward pass.
    pub fn multiply_adds(&self) -> u64 {
        self.architecture
            .multiply_adds(self.planes, self.policy_len)
    }

    /// Parameters in all.
    pub fn parameter_count(&self) -> usize {
        self.parameters().iter().map(Parameter::len).sum()
    }

    /// Checks that positions like `prototype` fit this network.
    ///
    /// # Errors
    ///
    /// [`NetError::WrongGame`] for another encoding, [`NetError::WrongShape`]
    /// for other planes or policy size.
    pub fn check_game<G: PlaneEncoding>(
        &self,
        prototype: &G,
        origin: &str,
    ) -> Result<(), NetError> {
        let encoding = prototype.encoding();
        if encoding != self.encoding {
            return Err(NetError::WrongGame {
                origin: origin.to_string(),
                expected: encoding,
                found: self.encoding.clone(),
            });
        }
        let (planes, policy_len) = (prototype.plane_shape(), prototype.policy_len());
        if planes != self.planes || policy_len != self.policy_len {
            return Err(NetError::WrongShape {
                origin: origin.to_string(),
                expected: format!("planes {planes}, policy {policy_len}"),
                found: format!("planes {}, policy {}", self.planes, self.policy_len),
            });
        }
        Ok(())
    }
}

/// The forward pass over parameters in [`NetSpec::parameters`] order:
/// `input` is `(batch, channels, height, width)`; returns the policy
/// logits `(batch, policy_len)` and the values `(batch)`.
pub(crate) fn forward(
    spec: &NetSpec,
    parameters: &[Tensor],
    input: &Tensor,
) -> candle_core::Result<(Tensor, Tensor)> {
    let mut next = parameters.iter();
    let mut take = || {
        next.next()
            .ok_or_else(|| candle_core::Error::Msg("too few parameters".into()))
    };
    let batch = input.dim(0)?;
    match &spec.architecture {
        Architecture::Residual { blocks, .. } => {
            // The trunk runs on (batch, height, width, channels): each
            // convolution is one matrix product of the 3x3 patches of
            // every cell with the weights, which the matrix library does
            // at full speed.
            let mut conv = |x: &Tensor| -> candle_core::Result<Tensor> {
                let (weight, bias) = (take()?, take()?);
                let (outputs, k, _, inputs) = weight.dims4()?;
                let (b, h, w, _) = x.dims4()?;
                let patches = if k == 1 {
                    x.clone()
                } else {
                    crate::conv::patches(x, k)?
                };
                let rows = patches.reshape((b * h * w, k * k * inputs))?;
                let weights = weight.reshape((outputs, k * k * inputs))?;
                linear(&rows, &weights, bias)?.reshape((b, h, w, outputs))
            };
            let cells = input.permute((0, 2, 3, 1))?.contiguous()?;
            let mut trunk = conv(&cells)?.relu()?;
            for _ in 0..*blocks {
                let inner = conv(&trunk)?.relu()?;
                let outer = conv(&inner)?;
                trunk = (trunk + outer)?.relu()?;
            }
            let policy_planes = conv(&trunk)?.relu()?.flatten_from(1)?;
            let value_plane = conv(&trunk)?.relu()?.flatten_from(1)?;
            let policy = linear(&policy_planes, take()?, take()?)?;
            let hidden = linear(&value_plane, take()?, take()?)?.relu()?;
            let value = linear(&hidden, take()?, take()?)?.tanh()?;
            Ok((policy, value.reshape(batch)?))
        }
        Architecture::Mlp { hidden } => {
            let mut x = input.flatten_from(1)?;
            for _ in hidden {
                x = linear(&x, take()?, take()?)?.relu()?;
            }
            let policy = linear(&x, take()?, take()?)?;
            let value = linear(&x, take()?, take()?)?.tanh()?;
            Ok((policy, value.reshape(batch)?))
        }
    }
}

/// `x W^T + b`.
fn linear(x: &Tensor, weight: &Tensor, bias: &Tensor) -> candle_core::Result<Tensor> {
    x.matmul(&weight.t()?)?.broadcast_add(bias)
}

/// `log(softmax(x))` along the last dimension, computed stably.
pub(crate) fn log_softmax(x: &Tensor) -> candle_core::Result<Tensor> {
    let shifted = x.broadcast_sub(&x.max_keepdim(D::Minus1)?)?;
    let log_sum = shifted.exp()?.sum_keepdim(D::Minus1)?.log()?;
    shifted.broadcast_sub(&log_sum)
}

/// A policy-value network for the positions of game `G`: the evaluator of
/// every searcher of the workspace (see the crate docs), saved and loaded
/// as safetensors ([`Network::save`], [`Network::load`]).
///
/// It is immutable and cheap to share (`Clone` copies handles to the same
/// weights); training works on a [`Trainer`](crate::Trainer), which hands
/// out networks.
pub struct Network<G> {
    spec: NetSpec,
    parameters: Vec<Tensor>,
    /// The parameters as the forward pass reads them fastest on more than
    /// one position: each matrix stored transposed, so that `x · wᵀ`
    /// multiplies by a contiguous matrix. Measured on the shipped net, it
    /// is 2x to 5x faster at batches 2 to 16 than through the strided
    /// view of `parameters`, and 20% slower on one position, where the
    /// product is a row of dot products: hence both copies.
    inference: Vec<Tensor>,
    device: Device,
    game: PhantomData<fn(&G)>,
}

impl<G> Clone for Network<G> {
    fn clone(&self) -> Self {
        Network {
            spec: self.spec.clone(),
            parameters: self.parameters.clone(),
            inference: self.inference.clone(),
            device: self.device.clone(),
            game: PhantomData,
        }
    }
}

impl<G> fmt::Debug for Network<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("encoding", &self.spec.encoding)
            .field("planes", &self.spec.planes.to_string())
            .field("architecture", &self.spec.architecture.to_string())
            .finish_non_exhaustive()
    }
}

impl<G: PlaneEncoding> Network<G> {
    /// A fresh network of `architecture` for the games encoded as
    /// `prototype` is (any position of the game: the start), its weights
    /// drawn from `seed`, on the CPU.
    ///
    /// # Errors
    ///
    /// [`NetError::Architecture`] for sizes out of range.
    pub fn new(prototype: &G, architecture: Architecture, seed: u64) -> Result<Self, NetError> {
        architecture.validate()?;
        let spec = NetSpec::for_game(prototype, architecture);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let values: Vec<Vec<f32>> = spec
            .parameters()
            .iter()
            .map(|parameter| parameter.initial_values(&mut rng))
            .collect();
        Network::from_values(spec, values, &Device::Cpu)
    }
}

impl<G> Network<G> {
    /// A network from its spec and parameter values in
    /// [`NetSpec::parameters`] order.
    pub(crate) fn from_values(
        spec: NetSpec,
        values: Vec<Vec<f32>>,
        device: &Device,
    ) -> Result<Self, NetError> {
        let parameters = spec
            .parameters()
            .iter()
            .zip(values)
            .map(|(parameter, values)| Tensor::from_vec(values, parameter.shape.as_slice(), device))
            .collect::<candle_core::Result<Vec<_>>>()?;
        Network::from_tensors(spec, parameters, device)
    }

    pub(crate) fn from_tensors(
        spec: NetSpec,
        parameters: Vec<Tensor>,
        device: &Device,
    ) -> Result<Self, NetError> {
        let inference = parameters
            .iter()
            .map(|tensor| match tensor.rank() {
                2 => tensor.t()?.contiguous()?.t(),
                _ => Ok(tensor.clone()),
            })
            .collect::<candle_core::Result<Vec<_>>>()?;
        Ok(Network {
            spec,
            parameters,
            inference,
            device: device.clone(),
            game: PhantomData,
        })
    }

    /// What the network is for.
    pub fn spec(&self) -> &NetSpec {
        &self.spec
    }

    /// The parameters, in [`NetSpec::parameters`] order.
    pub(crate) fn tensors(&self) -> &[Tensor] {
        &self.parameters
    }

    /// The device the network computes on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The same network on `device`. The CPU is the default and the one
    /// tested; with candle's `cuda` or `metal` feature enabled in your own
    /// `Cargo.toml`, `Device::new_cuda(0)` moves it to a GPU.
    ///
    /// # Errors
    ///
    /// [`NetError::Tensor`] if the weights cannot be copied there.
    pub fn to_device(&self, device: &Device) -> Result<Self, NetError> {
        let parameters = self
            .parameters
            .iter()
            .map(|tensor| tensor.to_device(device))
            .collect::<candle_core::Result<Vec<_>>>()?;
        Network::from_tensors(self.spec.clone(), parameters, device)
    }

    /// Runs the network on `batch` positions whose planes are `planes`
    /// (`batch * planes.len()` values, position after position); returns
    /// the policy logits (`batch * policy_len`, position after position)
    /// and the values.
    ///
    /// # Errors
    ///
    /// [`NetError::WrongShape`] if `planes` is not `batch` positions long;
    /// [`NetError::Tensor`] if the computation fails.
    pub fn forward(
        &self,
        planes: Vec<f32>,
        batch: usize,
    ) -> Result<(Vec<f32>, Vec<f32>), NetError> {
        let shape = self.spec.planes;
        if planes.len() != batch * shape.len() || batch == 0 {
            return Err(NetError::WrongShape {
                origin: "forward".to_string(),
                expected: format!("{batch} positions of {shape}"),
                found: format!("{} values", planes.len()),
            });
        }
        let input = Tensor::from_vec(
            planes,
            (batch, shape.channels, shape.height, shape.width),
            &self.device,
        )?;
        let parameters = if batch == 1 {
            &self.parameters
        } else {
            &self.inference
        };
        let (policy, value) = forward(&self.spec, parameters, &input)?;
        let policy = policy
            .to_dtype(DType::F32)?
            .flatten_all()?
            .to_vec1::<f32>()?;
        let value = value.to_vec1::<f32>()?;
        Ok((policy, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_traits::Game;
    use game_traits::testing::TicTacToe;

    /// The transposed copies the network computes with give the numbers of
    /// the parameters as trained, on both architectures.
    #[test]
    fn inference_layout_computes_what_the_parameters_do() {
        for architecture in ["mlp:32,16", "resnet:channels=8,blocks=1"] {
            let architecture: Architecture = architecture.parse().unwrap();
            let network = Network::new(&TicTacToe::new(), architecture, 3).unwrap();
            let shape = network.spec().planes;
            let mut board = TicTacToe::new();
            let mut planes = Vec::new();
            for mv in [4, 0, 8] {
                let mut one = vec![0.0; shape.len()];
                board.encode_planes(&mut one);
                planes.extend(one);
                board.play(mv);
            }
            let (policy, values) = network.forward(planes.clone(), 3).unwrap();
            let (single, _) = network.forward(planes[..shape.len()].to_vec(), 1).unwrap();
            assert_eq!(single.len(), policy.len() / 3);
            for (found, expected) in single.iter().zip(&policy) {
                assert!(
                    (found - expected).abs() < 1e-5,
                    "{found} against {expected}"
                );
            }
            let input = Tensor::from_vec(
                planes,
                (3, shape.channels, shape.height, shape.width),
                &Device::Cpu,
            )
            .unwrap();
            let (expected_policy, expected_values) =
                forward(network.spec(), network.tensors(), &input).unwrap();
            let expected_policy = expected_policy
                .flatten_all()
                .unwrap()
                .to_vec1::<f32>()
                .unwrap();
            let expected_values = expected_values.to_vec1::<f32>().unwrap();
            for (found, expected) in policy.iter().zip(&expected_policy) {
                assert!(
                    (found - expected).abs() < 1e-5,
                    "{found} against {expected}"
                );
            }
            for (found, expected) in values.iter().zip(&expected_values) {
                assert!(
                    (found - expected).abs() < 1e-5,
                    "{found} against {expected}"
                );
            }
            assert_eq!(policy.len(), expected_policy.len());
            assert_eq!(values.len(), 3);
            assert!(
                network
                    .inference
                    .iter()
                    .any(|tensor| !tensor.is_contiguous())
            );
        }
    }
}
