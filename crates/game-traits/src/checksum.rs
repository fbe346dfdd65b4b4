//! FNV-1a, 64 bits: the checksum of the workspace's binary files (network
//! weights, sample shards, pattern weights). Not a cryptographic hash: it
//! catches truncation, bit rot and files of another format, not tampering.

/// The FNV-1a 64-bit offset basis: the hash of no bytes.
pub const FNV1A_64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

const FNV1A_64_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Continues the FNV-1a 64-bit hash `hash` over `bytes`; start from
/// [`FNV1A_64_OFFSET`].
///
/// ```
/// use game_traits::{FNV1A_64_OFFSET, fnv1a_64};
///
/// // The published test vector for "a".
/// assert_eq!(fnv1a_64(FNV1A_64_OFFSET, b"a"), 0xaf63_dc4c_8601_ec8c);
/// // Hashing in pieces is hashing the whole.
/// let whole = fnv1a_64(FNV1A_64_OFFSET, b"foobar");
/// assert_eq!(fnv1a_64(fnv1a_64(FNV1A_64_OFFSET, b"foo"), b"bar"), whole);
/// ```
#[must_use]
pub fn fnv1a_64(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(FNV1A_64_PRIME)
    })
}
