//! Zobrist keys built at compile time, for [`PositionHash`](crate::PositionHash)
//! implementations.

/// The output function of SplitMix64 (Steele, Lea, Flood 2014): scrambles
/// a 64-bit value so that nearby inputs give unrelated outputs.
#[must_use]
pub const fn mix64(value: u64) -> u64 {
    let mut z = value;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `N` pseudo-random 64-bit keys derived from `seed`, usable in a `const`:
///
/// ```
/// use game_traits::zobrist::keys;
///
/// const SQUARE_KEYS: [u64; 64] = keys(0x0123);
/// assert_ne!(SQUARE_KEYS[0], SQUARE_KEYS[1]);
/// ```
#[must_use]
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        out[i] = mix64(state);
        i += 1;
    }
    out
}
