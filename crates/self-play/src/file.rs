//! Networks in safetensors files: the weights as `f32` tensors, and in the
//! metadata the format version, the game's encoding, the planes, the
//! policy size, the architecture and a checksum of every tensor.
//!
//! | metadata key | example |
//! |---|---|
//! | `format` | `game-search-net` |
//! | `format_version` | `1` |
//! | `encoding` | `othello/v1` |
//! | `planes` | `4x8x8` |
//! | `policy_len` | `65` |
//! | `architecture` | `resnet:channels=32,blocks=4,value=64` |
//! | `checksum` | FNV-1a 64 of the tensors' names and bytes, by name, in hex |
//!
//! Weights are named `net.<parameter>` (`net.stem.weight`); a training
//! checkpoint adds the optimiser's moments (`adam.m.<parameter>`,
//! `adam.v.<parameter>`) and training metadata. Files are written to a
//! temporary name and renamed, so a killed process never leaves half a
//! file under the real name.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use candle_core::{Device, Tensor};
use game_traits::{FNV1A_64_OFFSET, PlaneEncoding, PlaneShape, fnv1a_64};
use safetensors::{Dtype, SafeTensors, tensor::TensorView};

use crate::net::{NetSpec, Network};
use crate::{Architecture, NetError};

/// The `format` metadata value of every network file.
pub const FORMAT: &str = "game-search-net";
/// The format version written and read.
pub const FORMAT_VERSION: u32 = 1;

/// The prefix of a network's weights.
const NET: &str = "net.";

/// A file's contents, read and checked.
pub(crate) struct NetFile {
    pub(crate) spec: NetSpec,
    pub(crate) metadata: HashMap<String, String>,
    /// Every tensor by name, as `f32` values.
    pub(crate) tensors: HashMap<String, Vec<f32>>,
}

impl NetFile {
    /// The values of the tensors `prefix` + each parameter's name, in
    /// parameter order, each checked against its shape.
    pub(crate) fn group(&self, prefix: &str, origin: &str) -> Result<Vec<Vec<f32>>, NetError> {
        self.spec
            .parameters()
            .iter()
            .map(|parameter| {
                let name = format!("{prefix}{}", parameter.name);
                self.tensors
                    .get(&name)
                    .cloned()
                    .ok_or(NetError::MissingTensor {
                        origin: origin.to_string(),
                        name,
                    })
            })
            .collect()
    }
}

/// The checksum of tensors given by name (so independent of the order the
/// file keeps them in).
fn checksum<'a>(tensors: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> u64 {
    let sorted: BTreeMap<&str, &[u8]> = tensors.into_iter().collect();
    sorted
        .into_iter()
        .fold(FNV1A_64_OFFSET, |hash, (name, bytes)| {
            fnv1a_64(fnv1a_64(hash, name.as_bytes()), bytes)
        })
}

fn to_bytes(values: &[f32]) -> Vec<u8> {
    values
        .iter()
        .flat_map(|value| value.to_le_bytes())
        .collect()
}

/// Writes `groups` (prefix, one tensor per parameter) of `spec`'s network
/// with `extra` metadata to `path`, through a temporary file.
pub(crate) fn write(
    path: &Path,
    spec: &NetSpec,
    groups: &[(&str, &[Tensor])],
    extra: &[(&str, String)],
) -> Result<(), NetError> {
    let parameters = spec.parameters();
    let mut named: Vec<(String, Vec<usize>, Vec<u8>)> = Vec::new();
    for (prefix, tensors) in groups {
        for (parameter, tensor) in parameters.iter().zip(tensors.iter()) {
            let values = tensor.flatten_all()?.to_vec1::<f32>()?;
            let name = format!("{prefix}{}", parameter.name);
            if values.iter().any(|value| !value.is_finite()) {
                return Err(NetError::NonFinite {
                    origin: path.display().to_string(),
                    name,
                });
            }
            named.push((name, parameter.shape.clone(), to_bytes(&values)));
        }
    }
    let sum = checksum(
        named
            .iter()
            .map(|(name, _, bytes)| (name.as_str(), bytes.as_slice())),
    );
    let mut metadata = HashMap::from([
        ("format".to_string(), FORMAT.to_string()),
        ("format_version".to_string(), FORMAT_VERSION.to_string()),
        ("encoding".to_string(), spec.encoding.clone()),
        ("planes".to_string(), spec.planes.to_string()),
        ("policy_len".to_string(), spec.policy_len.to_string()),
        ("architecture".to_string(), spec.architecture.to_string()),
        ("checksum".to_string(), format!("{sum:016x}")),
    ]);
    for (key, value) in extra {
        metadata.insert((*key).to_string(), value.clone());
    }
    let views = named
        .iter()
        .map(|(name, shape, bytes)| {
            TensorView::new(Dtype::F32, shape.clone(), bytes).map(|view| (name.clone(), view))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|error| NetError::Format {
            origin: path.display().to_string(),
            reason: error.to_string(),
        })?;
    let bytes =
        safetensors::serialize(views, Some(metadata)).map_err(|error| NetError::Format {
            origin: path.display().to_string(),
            reason: error.to_string(),
        })?;
    write_atomically(path, &bytes).map_err(|source| NetError::Io {
        action: "write",
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `bytes` to `path` through `path` + `.tmp` and a rename.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path)
}

/// Reads and checks a network file's bytes; `origin` names them in errors.
pub(crate) fn parse(bytes: &[u8], origin: &str) -> Result<NetFile, NetError> {
    let format_error = |error: safetensors::SafeTensorError| NetError::Format {
        origin: origin.to_string(),
        reason: error.to_string(),
    };
    let (_, header) = SafeTensors::read_metadata(bytes).map_err(format_error)?;
    let tensors = SafeTensors::deserialize(bytes).map_err(format_error)?;
    let metadata = header.metadata().clone().unwrap_or_default();
    let get = |key: &str| {
        metadata.get(key).ok_or_else(|| NetError::Metadata {
            origin: origin.to_string(),
            key: key.to_string(),
            problem: "is missing".to_string(),
        })
    };
    let unreadable = |key: &str, value: &str| NetError::Metadata {
        origin: origin.to_string(),
        key: key.to_string(),
        problem: format!("is unreadable: {value:?}"),
    };
    if get("format")? != FORMAT {
        return Err(NetError::Metadata {
            origin: origin.to_string(),
            key: "format".to_string(),
            problem: format!("is {:?}, not {FORMAT:?}", get("format")?),
        });
    }
    let version = get("format_version")?;
    if version.parse::<u32>() != Ok(FORMAT_VERSION) {
        return Err(NetError::Version {
            origin: origin.to_string(),
            expected: FORMAT_VERSION,
            found: version.clone(),
        });
    }
    let planes = get("planes")?;
    let planes = parse_shape(planes).ok_or_else(|| unreadable("planes", planes))?;
    let policy_len = get("policy_len")?;
    let policy_len = policy_len
        .parse::<usize>()
        .map_err(|_| unreadable("policy_len", policy_len))?;
    let architecture: Architecture = get("architecture")?.parse()?;
    let expected_sum = get("checksum")?;
    let spec = NetSpec {
        encoding: get("encoding")?.clone(),
        planes,
        policy_len,
        architecture,
    };

    let mut values = HashMap::new();
    let mut raw: Vec<(String, &[u8])> = Vec::new();
    for (name, view) in tensors.iter() {
        if view.dtype() != Dtype::F32 {
            return Err(NetError::WrongTensor {
                origin: origin.to_string(),
                name: name.to_string(),
                expected: "f32".to_string(),
                found: format!("{:?}", view.dtype()),
            });
        }
        raw.push((name.to_string(), view.data()));
    }
    let sum = checksum(raw.iter().map(|(name, bytes)| (name.as_str(), *bytes)));
    if format!("{sum:016x}") != *expected_sum {
        return Err(NetError::Corrupt {
            origin: origin.to_string(),
        });
    }
    let parameters = spec.parameters();
    for (name, view) in tensors.iter() {
        let base = name.split_once('.').map_or(name, |(_, rest)| rest);
        let base = base
            .strip_prefix("m.")
            .or_else(|| base.strip_prefix("v."))
            .unwrap_or(base);
        if let Some(parameter) = parameters.iter().find(|parameter| parameter.name == base)
            && view.shape() != parameter.shape.as_slice()
        {
            return Err(NetError::WrongTensor {
                origin: origin.to_string(),
                name: name.to_string(),
                expected: format!("{:?}", parameter.shape),
                found: format!("{:?}", view.shape()),
            });
        }
        let floats: Vec<f32> = view
            .data()
            .chunks_exact(4)
            .map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
            .collect();
        if floats.iter().any(|value| !value.is_finite()) {
            return Err(NetError::NonFinite {
                origin: origin.to_string(),
                name: name.to_string(),
            });
        }
        values.insert(name.to_string(), floats);
    }
    Ok(NetFile {
        spec,
        metadata,
        tensors: values,
    })
}

/// `4x8x8` as a shape.
fn parse_shape(text: &str) -> Option<PlaneShape> {
    let parts: Vec<usize> = text
        .split('x')
        .map(|part| part.parse().ok())
        .collect::<Option<_>>()?;
    match parts[..] {
        [channels, height, width] => Some(PlaneShape::new(channels, height, width)),
        _ => None,
    }
}

/// Reads `path`.
pub(crate) fn read(path: &Path) -> Result<NetFile, NetError> {
    let bytes = std::fs::read(path).map_err(|source| NetError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    })?;
    parse(&bytes, &path.display().to_string())
}

impl<G> Network<G> {
    /// Saves the network to `path` as safetensors (see the
    /// [`file`](crate::file) module for the layout), through a temporary
    /// file and a rename.
    ///
    /// # Errors
    ///
    /// [`NetError::Io`] if the file cannot be written,
    /// [`NetError::NonFinite`] if a weight is NaN or infinite (nothing is
    /// written).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), NetError> {
        write(path.as_ref(), self.spec(), &[(NET, self.tensors())], &[])
    }

    /// The network in `bytes` (a network file's contents), for the games
    /// encoded as `prototype` is; `origin` names the bytes in errors.
    ///
    /// # Errors
    ///
    /// As [`Network::load`].
    pub fn from_bytes(bytes: &[u8], prototype: &G, origin: &str) -> Result<Self, NetError>
    where
        G: PlaneEncoding,
    {
        let file = parse(bytes, origin)?;
        Network::from_file(&file, prototype, origin)
    }

    /// Loads the network saved at `path` (by [`save`](Network::save) or as
    /// a training checkpoint) for the games encoded as `prototype` is.
    ///
    /// # Errors
    ///
    /// [`NetError::Io`] if the file cannot be read; [`NetError::Format`]
    /// if it is not a whole safetensors file (truncated, say);
    /// [`NetError::Metadata`] or [`NetError::Version`] if it is not a
    /// network of this library's format; [`NetError::WrongGame`] if it was
    /// trained on another encoding; [`NetError::WrongShape`] if its planes
    /// or policy do not fit; [`NetError::MissingTensor`] or
    /// [`NetError::WrongTensor`] if its tensors do not fit its
    /// architecture; [`NetError::Corrupt`] if they fail their checksum;
    /// [`NetError::NonFinite`] for NaN weights.
    pub fn load(path: impl AsRef<Path>, prototype: &G) -> Result<Self, NetError>
    where
        G: PlaneEncoding,
    {
        let path = path.as_ref();
        let file = read(path)?;
        Network::from_file(&file, prototype, &path.display().to_string())
    }

    pub(crate) fn from_file(file: &NetFile, prototype: &G, origin: &str) -> Result<Self, NetError>
    where
        G: PlaneEncoding,
    {
        file.spec.check_game(prototype, origin)?;
        let values = file.group(NET, origin)?;
        Network::from_values(file.spec.clone(), values, &Device::Cpu)
    }
}

/// What a network file says it is, without loading it for a game: its
/// spec and its metadata (training checkpoints record their step and time).
///
/// # Errors
///
/// As [`Network::load`], except the checks against a game.
pub fn inspect(path: impl AsRef<Path>) -> Result<(NetSpec, HashMap<String, String>), NetError> {
    let file = read(path.as_ref())?;
    Ok((file.spec, file.metadata))
}

/// The weights' tensor prefix, for the trainer's checkpoints.
pub(crate) const NET_PREFIX: &str = NET;
