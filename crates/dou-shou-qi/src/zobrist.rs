//! Zobrist keys, chosen so that rotating the board and swapping the sides
//! maps every hash through one cheap function ([`flip_hash`]).
//!
//! The second player's key for a piece on square `s` is the first player's
//! key for the same animal on the rotated square `62 - s`, with its 32-bit
//! halves swapped; the side-to-move key has equal halves. Swapping halves is
//! linear over XOR and its own inverse, so the hash of the flipped position
//! is `flip_hash(hash)`, and a repetition history survives a color flip.

use game_traits::zobrist::{keys, mix64};

use crate::board::SQUARES;

const SEED: u64 = 0x4a75_6e67_6c65_2024;

const FIRST_PLAYER_KEYS: [u64; 8 * SQUARES] = keys(SEED);

/// `PIECE_KEYS[code][square]` for board codes `1..=16` (row 0 is empty).
pub(crate) const PIECE_KEYS: [[u64; 64]; 17] = {
    let mut table = [[0; 64]; 17];
    let mut animal = 0;
    while animal < 8 {
        let mut square = 0;
        while square < SQUARES {
            let key = FIRST_PLAYER_KEYS[animal * SQUARES + square];
            table[1 + animal][square] = key;
            table[9 + animal][SQUARES - 1 - square] = key.rotate_left(32);
            square += 1;
        }
        animal += 1;
    }
    table
};

/// XORed in when the second player is to move.
pub(crate) const SECOND_TO_MOVE_KEY: u64 = {
    let half = mix64(SEED ^ 0x5151_5151) & 0xffff_ffff;
    half << 32 | half
};

/// The hash of the color-flipped position, given the hash of a position.
#[inline]
pub(crate) const fn flip_hash(hash: u64) -> u64 {
    hash.rotate_left(32) ^ SECOND_TO_MOVE_KEY
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_flip_consistently() {
        let mut all: Vec<u64> = PIECE_KEYS[1..]
            .iter()
            .flat_map(|row| row[..SQUARES].iter().copied())
            .collect();
        all.push(SECOND_TO_MOVE_KEY);
        let count = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), count);
        assert_eq!(SECOND_TO_MOVE_KEY.rotate_left(32), SECOND_TO_MOVE_KEY);
        for (code, keys) in PIECE_KEYS.iter().enumerate().skip(1) {
            let flipped_code = if code > 8 { code - 8 } else { code + 8 };
            for square in 0..SQUARES {
                assert_eq!(
                    keys[square].rotate_left(32),
                    PIECE_KEYS[flipped_code][SQUARES - 1 - square]
                );
            }
        }
    }
}
