//! The eight symmetries of the board (the dihedral group of the square).

use crate::{Move, Square};

/// One of the eight symmetries of the board. The rules of Othello are
/// invariant under all of them (the start position under four).
///
/// Square `(col, row)` maps to:
///
/// | symmetry | image |
/// |---|---|
/// | `Identity` | `(col, row)` |
/// | `FlipVertical` | `(col, 7 - row)` |
/// | `MirrorHorizontal` | `(7 - col, row)` |
/// | `Rotate180` | `(7 - col, 7 - row)` |
/// | `Transpose` | `(row, col)` (the `a1`-`h8` diagonal stays) |
/// | `AntiTranspose` | `(7 - row, 7 - col)` (the `h1`-`a8` diagonal stays) |
/// | `Rotate90` | `(7 - row, col)` |
/// | `Rotate270` | `(row, 7 - col)` |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Symmetry {
    /// Leaves every square in place.
    Identity,
    /// Swaps rank 1 with rank 8, 2 with 7, and so on.
    FlipVertical,
    /// Swaps file a with file h, b with g, and so on.
    MirrorHorizontal,
    /// Half a turn.
    Rotate180,
    /// Reflects in the `a1`-`h8` diagonal.
    Transpose,
    /// Reflects in the `h1`-`a8` diagonal.
    AntiTranspose,
    /// A quarter turn: `a1` goes to `h1`.
    Rotate90,
    /// A quarter turn the other way: `a1` goes to `a8`.
    Rotate270,
}

impl Symmetry {
    /// All eight, `Identity` first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipVertical,
        Symmetry::MirrorHorizontal,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The image of a bitboard: bit `s` moves to bit `apply_square(s)`.
    #[must_use]
    pub const fn apply_bitboard(self, bits: u64) -> u64 {
        match self {
            Symmetry::Identity => bits,
            Symmetry::FlipVertical => flip_vertical(bits),
            Symmetry::MirrorHorizontal => mirror_horizontal(bits),
            Symmetry::Rotate180 => bits.reverse_bits(),
            Symmetry::Transpose => transpose(bits),
            Symmetry::AntiTranspose => transpose(bits).reverse_bits(),
            Symmetry::Rotate90 => mirror_horizontal(transpose(bits)),
            Symmetry::Rotate270 => flip_vertical(transpose(bits)),
        }
    }

    /// The image of a square.
    #[must_use]
    pub const fn apply_square(self, square: Square) -> Square {
        let (col, row) = (square.col(), square.row());
        let (col, row) = match self {
            Symmetry::Identity => (col, row),
            Symmetry::FlipVertical => (col, 7 - row),
            Symmetry::MirrorHorizontal => (7 - col, row),
            Symmetry::Rotate180 => (7 - col, 7 - row),
            Symmetry::Transpose => (row, col),
            Symmetry::AntiTranspose => (7 - row, 7 - col),
            Symmetry::Rotate90 => (7 - row, col),
            Symmetry::Rotate270 => (row, 7 - col),
        };
        match Square::from_coords(col, row) {
            Some(square) => square,
            None => unreachable!(),
        }
    }

    /// The image of a move (a pass stays a pass).
    #[must_use]
    pub const fn apply_move(self, mv: Move) -> Move {
        match mv {
            Move::Place(square) => Move::Place(self.apply_square(square)),
            Move::Pass => Move::Pass,
        }
    }
}

/// Row `r` goes to row `7 - r`: the rows are the bytes.
const fn flip_vertical(bits: u64) -> u64 {
    bits.swap_bytes()
}

/// Column `c` goes to column `7 - c`: reverse the bits of every byte.
const fn mirror_horizontal(bits: u64) -> u64 {
    const ODD_COLS: u64 = 0x5555_5555_5555_5555;
    const COL_PAIRS: u64 = 0x3333_3333_3333_3333;
    const COL_QUADS: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let bits = ((bits >> 1) & ODD_COLS) | ((bits & ODD_COLS) << 1);
    let bits = ((bits >> 2) & COL_PAIRS) | ((bits & COL_PAIRS) << 2);
    ((bits >> 4) & COL_QUADS) | ((bits & COL_QUADS) << 4)
}

/// `(col, row)` goes to `(row, col)`, by three delta swaps: 4x4 blocks,
/// then 2x2 blocks, then single squares, each across the diagonal.
const fn transpose(bits: u64) -> u64 {
    // Squares whose partner is 28 bits lower: the top-right 4x4 block
    // (rows 0..4, cols 4..8) swaps with the bottom-left one.
    const BLOCK4: u64 = 0x0000_0000_F0F0_F0F0;
    const BLOCK2: u64 = 0x0000_CCCC_0000_CCCC;
    const BLOCK1: u64 = 0x00AA_00AA_00AA_00AA;
    let mut bits = bits;
    let t = (bits ^ (bits >> 28)) & BLOCK4;
    bits ^= t ^ (t << 28);
    let t = (bits ^ (bits >> 14)) & BLOCK2;
    bits ^= t ^ (t << 14);
    let t = (bits ^ (bits >> 7)) & BLOCK1;
    bits ^= t ^ (t << 7);
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow(symmetry: Symmetry, bits: u64) -> u64 {
        Square::all()
            .filter(|square| bits & square.bit() != 0)
            .fold(0, |image, square| {
                image | symmetry.apply_square(square).bit()
            })
    }

    #[test]
    fn bitboards_map_like_squares() {
        let mut state = 99u64;
        for _ in 0..2_000 {
            state = game_traits::zobrist::mix64(state);
            for symmetry in Symmetry::ALL {
                assert_eq!(
                    symmetry.apply_bitboard(state),
                    slow(symmetry, state),
                    "{symmetry:?}"
                );
                let back = symmetry
                    .inverse()
                    .apply_bitboard(symmetry.apply_bitboard(state));
                assert_eq!(back, state, "{symmetry:?}");
            }
        }
        assert_eq!(Symmetry::Rotate90.apply_square(Square::A1), Square::H1);
        assert_eq!(Symmetry::Rotate270.apply_square(Square::A1), Square::A8);
        assert_eq!(Symmetry::Transpose.apply_square(Square::B1), Square::A2);
    }

    #[test]
    fn symmetries_are_distinct() {
        let probe = Square::B1.bit() | Square::C1.bit() | Square::A3.bit();
        let images: std::collections::HashSet<u64> = Symmetry::ALL
            .iter()
            .map(|symmetry| symmetry.apply_bitboard(probe))
            .collect();
        assert_eq!(images.len(), 8);
    }
}
