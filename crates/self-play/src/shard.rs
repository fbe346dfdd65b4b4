//! Replay shards: the samples of some self-play games in one file, so that
//! self-play workers (other processes, other machines on a shared file
//! system) hand their games to the trainer.
//!
//! Layout (little-endian): the magic `GSSHARD1`; a `u32` header length and
//! a JSON header ([`ShardHeader`]: encoding, planes, policy size, games,
//! samples, who made it); the samples, each a kind byte (0: planes as bits,
//! 1: as `f32`), the planes, a `u32` count of policy entries, each a `u32`
//! index and an `f32` probability, then the outcome and the search value
//! (`f32`); and an FNV-1a 64 checksum of every byte before it. Shards are
//! written to a temporary name and renamed, so a reader never sees half a
//! shard under a shard's name.

use std::path::{Path, PathBuf};

use game_traits::{FNV1A_64_OFFSET, PlaneShape, fnv1a_64};

use crate::ShardError;
use crate::file::write_atomically;
use crate::sample::{Planes, Sample};

const MAGIC: &[u8; 8] = b"GSSHARD1";
/// The file extension of shards.
pub const EXTENSION: &str = "shard";

/// What a shard holds and where it came from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ShardHeader {
    /// The game's encoding.
    pub encoding: String,
    /// The planes' shape, `CxHxW`.
    pub planes: String,
    /// Policy outputs.
    pub policy_len: usize,
    /// Games played.
    pub games: u64,
    /// Samples.
    pub samples: u64,
    /// The training step of the network that played them.
    pub network_step: u64,
    /// The first game's number (games are numbered across workers).
    pub first_game: u64,
    /// Who wrote it (`local`, `worker 2/8`).
    pub writer: String,
}

/// A shard read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Shard {
    /// Its header.
    pub header: ShardHeader,
    /// Its samples, game after game.
    pub samples: Vec<Sample>,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_64(FNV1A_64_OFFSET, bytes)
}

/// Writes `samples` with `header` to `path` (its `samples` count is set
/// from the slice).
///
/// # Errors
///
/// [`ShardError::Io`] if the file cannot be written.
pub fn write_shard(
    path: &Path,
    header: &ShardHeader,
    samples: &[Sample],
) -> Result<(), ShardError> {
    let mut header = header.clone();
    header.samples = samples.len() as u64;
    let json = serde_json::to_vec(&header).unwrap_or_default();
    let mut bytes = Vec::with_capacity(64 + samples.len() * 64);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&(json.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&json);
    for sample in samples {
        match &sample.planes {
            Planes::Bits(bits) => {
                bytes.push(0);
                for word in bits {
                    bytes.extend_from_slice(&word.to_le_bytes());
                }
            }
            Planes::Values(values) => {
                bytes.push(1);
                for value in values {
                    bytes.extend_from_slice(&value.to_le_bytes());
                }
            }
        }
        bytes.extend_from_slice(&(sample.policy.len() as u32).to_le_bytes());
        for &(index, probability) in &sample.policy {
            bytes.extend_from_slice(&index.to_le_bytes());
            bytes.extend_from_slice(&probability.to_le_bytes());
        }
        bytes.extend_from_slice(&sample.outcome.to_le_bytes());
        bytes.extend_from_slice(&sample.search_value.to_le_bytes());
    }
    let sum = fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    write_atomically(path, &bytes).map_err(|source| ShardError::Io {
        action: "write",
        path: path.to_path_buf(),
        source,
    })
}

/// Reads bytes in order, failing as "truncated" past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Option<&'a [u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(count)?)?;
        self.at += count;
        Some(slice)
    }

    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32(&mut self) -> Option<f32> {
        self.u32().map(f32::from_bits)
    }

    fn u64(&mut self) -> Option<u64> {
        self.take(8)
            .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
    }
}

/// Reads the shard at `path`, which must hold samples of `encoding` with
/// planes of `shape` and `policy_len` outputs.
///
/// # Errors
///
/// [`ShardError::Io`] if it cannot be read; [`ShardError::NotAShard`] if it
/// is not a shard; [`ShardError::Corrupt`] if it is truncated, fails its
/// checksum or holds values out of range; [`ShardError::WrongGame`] if it
/// holds another game's samples.
pub fn read_shard(
    path: &Path,
    encoding: &str,
    shape: PlaneShape,
    policy_len: usize,
) -> Result<Shard, ShardError> {
    let bytes = std::fs::read(path).map_err(|source| ShardError::Io {
        action: "read",
        path: path.to_path_buf(),
        source,
    })?;
    let not_a_shard = |reason: &str| ShardError::NotAShard {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    let corrupt = |reason: &str| ShardError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    if bytes.get(..8) != Some(MAGIC.as_slice()) {
        return Err(not_a_shard("it does not start with GSSHARD1"));
    }
    if bytes.len() < 20 {
        return Err(corrupt("it ends before its header"));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let mut tail_reader = Reader { bytes: tail, at: 0 };
    if tail_reader.u64() != Some(fnv1a(body)) {
        return Err(corrupt(
            "its checksum does not match (truncated or damaged)",
        ));
    }
    let mut reader = Reader { bytes: body, at: 8 };
    let header_len = reader.u32().ok_or_else(|| corrupt("no header length"))? as usize;
    let json = reader
        .take(header_len)
        .ok_or_else(|| corrupt("it ends inside its header"))?;
    let header: ShardHeader = serde_json::from_slice(json)
        .map_err(|error| not_a_shard(&format!("bad header: {error}")))?;
    if header.encoding != encoding
        || header.planes != shape.to_string()
        || header.policy_len != policy_len
    {
        return Err(ShardError::WrongGame {
            path: path.to_path_buf(),
            expected: format!("{encoding} (planes {shape}, policy {policy_len})"),
            found: format!(
                "{} (planes {}, policy {})",
                header.encoding, header.planes, header.policy_len
            ),
        });
    }
    let truncated = || corrupt("it ends inside a sample");
    let values = shape.len();
    let mut samples = Vec::with_capacity(header.samples.min(1 << 24) as usize);
    for _ in 0..header.samples {
        let planes = match reader.take(1).ok_or_else(truncated)?[0] {
            0 => Planes::Bits(
                (0..values.div_ceil(64))
                    .map(|_| reader.u64())
                    .collect::<Option<_>>()
                    .ok_or_else(truncated)?,
            ),
            1 => {
                let planes: Vec<f32> = (0..values)
                    .map(|_| reader.f32())
                    .collect::<Option<_>>()
                    .ok_or_else(truncated)?;
                if planes.iter().any(|value| !value.is_finite()) {
                    return Err(corrupt("a plane value that is not finite"));
                }
                Planes::Values(planes)
            }
            kind => return Err(corrupt(&format!("unknown planes kind {kind}"))),
        };
        let entries = reader.u32().ok_or_else(truncated)? as usize;
        if entries > policy_len {
            return Err(corrupt(&format!(
                "{entries} policy entries for {policy_len} outputs"
            )));
        }
        let mut policy = Vec::with_capacity(entries);
        for _ in 0..entries {
            let index = reader.u32().ok_or_else(truncated)?;
            let probability = reader.f32().ok_or_else(truncated)?;
            if index as usize >= policy_len || !(0.0..=1.0).contains(&probability) {
                return Err(corrupt(&format!(
                    "policy entry ({index}, {probability}) out of range"
                )));
            }
            policy.push((index, probability));
        }
        let outcome = reader.f32().ok_or_else(truncated)?;
        let search_value = reader.f32().ok_or_else(truncated)?;
        if !(-1.0..=1.0).contains(&outcome) || !(-1.0..=1.0).contains(&search_value) {
            return Err(corrupt("a value target outside [-1, 1]"));
        }
        samples.push(Sample {
            planes,
            policy,
            outcome,
            search_value,
        });
    }
    if reader.at != body.len() {
        return Err(corrupt("bytes after the last sample"));
    }
    Ok(Shard { header, samples })
}

/// The shards in `dir`, by file name (which sorts them by writer and
/// sequence number).
///
/// # Errors
///
/// [`ShardError::Io`] if the directory cannot be listed.
pub fn list_shards(dir: &Path) -> Result<Vec<PathBuf>, ShardError> {
    let entries = std::fs::read_dir(dir).map_err(|source| ShardError::Io {
        action: "list",
        path: dir.to_path_buf(),
        source,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == EXTENSION))
        .collect();
    paths.sort();
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Sample> {
        vec![
            Sample {
                planes: Planes::pack(&[1.0, 0.0, 1.0]),
                policy: vec![(0, 0.25), (2, 0.75)],
                outcome: 1.0,
                search_value: 0.5,
            },
            Sample {
                planes: Planes::pack(&[0.5, 0.0, 1.0]),
                policy: vec![(1, 1.0)],
                outcome: -1.0,
                search_value: -0.25,
            },
        ]
    }

    fn header() -> ShardHeader {
        ShardHeader {
            encoding: "toy/v1".into(),
            planes: "1x1x3".into(),
            policy_len: 3,
            games: 2,
            samples: 0,
            network_step: 7,
            first_game: 10,
            writer: "test".into(),
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("self-play-shard-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn shards_round_trip_and_bad_ones_are_refused() {
        let dir = scratch("round-trip");
        let path = dir.join("a.shard");
        let shape = PlaneShape::new(1, 1, 3);
        write_shard(&path, &header(), &samples()).unwrap();
        let shard = read_shard(&path, "toy/v1", shape, 3).unwrap();
        assert_eq!(shard.samples, samples());
        assert_eq!(shard.header.samples, 2);
        assert_eq!(list_shards(&dir).unwrap(), vec![path.clone()]);

        // Another game.
        assert!(matches!(
            read_shard(&path, "other/v1", shape, 3),
            Err(ShardError::WrongGame { .. })
        ));
        // Truncated at every length, and one flipped bit.
        let bytes = std::fs::read(&path).unwrap();
        for cut in 0..bytes.len() {
            std::fs::write(&path, &bytes[..cut]).unwrap();
            let error = read_shard(&path, "toy/v1", shape, 3).unwrap_err();
            assert!(
                matches!(
                    error,
                    ShardError::Corrupt { .. } | ShardError::NotAShard { .. }
                ),
                "cut at {cut}: {error}"
            );
        }
        let mut flipped = bytes.clone();
        flipped[30] ^= 1;
        std::fs::write(&path, &flipped).unwrap();
        assert!(matches!(
            read_shard(&path, "toy/v1", shape, 3),
            Err(ShardError::Corrupt { .. })
        ));
        std::fs::write(&path, b"not a shard at all").unwrap();
        assert!(matches!(
            read_shard(&path, "toy/v1", shape, 3),
            Err(ShardError::NotAShard { .. })
        ));
        assert!(matches!(
            read_shard(&dir.join("missing.shard"), "toy/v1", shape, 3),
            Err(ShardError::Io { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
