//! The position as input planes for a neural network.

use game_traits::{GridSymmetry, PlaneEncoding, PlaneShape};

use crate::{Board, Symmetry};

/// Four 8x8 planes, from the point of view of the player to move: its
/// discs, the opponent's discs, its legal moves, and a plane of ones (so
/// that a convolution tells the edge from an empty square). Cell
/// `8 * row + col` is square `8 * row + col` (`a1` top left), and the
/// policy is the action space: the 64 squares, then the pass at 64. The
/// rules keep all eight symmetries of the board.
///
/// ```
/// use bitboard_othello::Board;
/// use game_traits::PlaneEncoding;
///
/// let start = Board::start();
/// let mut planes = vec![0.0; start.plane_shape().len()];
/// start.encode_planes(&mut planes);
/// // Two discs each, four legal moves, 64 ones.
/// let sums: Vec<f32> = planes.chunks(64).map(|plane| plane.iter().sum()).collect();
/// assert_eq!(sums, [2.0, 2.0, 4.0, 64.0]);
/// ```
impl PlaneEncoding for Board {
    fn encoding(&self) -> String {
        "othello/v1".to_string()
    }

    fn plane_shape(&self) -> PlaneShape {
        PlaneShape::new(4, 8, 8)
    }

    fn encode_planes(&self, planes: &mut [f32]) {
        let mobility = self.mobility();
        let (mine, rest) = planes.split_at_mut(64);
        let (theirs, rest) = rest.split_at_mut(64);
        let (moves, ones) = rest.split_at_mut(64);
        for square in 0..64 {
            let bit = 1u64 << square;
            mine[square] = f32::from(u8::from(self.player() & bit != 0));
            theirs[square] = f32::from(u8::from(self.opponent() & bit != 0));
            moves[square] = f32::from(u8::from(mobility & bit != 0));
        }
        ones.fill(1.0);
    }

    fn symmetries(&self) -> &'static [GridSymmetry] {
        &GridSymmetry::ALL
    }
}

impl From<GridSymmetry> for Symmetry {
    /// The board symmetry that moves the cells of the planes as `grid`
    /// does (the grid's rows are the ranks, its columns the files).
    fn from(grid: GridSymmetry) -> Symmetry {
        match grid {
            GridSymmetry::Identity => Symmetry::Identity,
            GridSymmetry::FlipVertical => Symmetry::FlipVertical,
            GridSymmetry::FlipHorizontal => Symmetry::MirrorHorizontal,
            GridSymmetry::Rotate180 => Symmetry::Rotate180,
            GridSymmetry::Transpose => Symmetry::Transpose,
            GridSymmetry::AntiTranspose => Symmetry::AntiTranspose,
            GridSymmetry::Rotate90 => Symmetry::Rotate90,
            GridSymmetry::Rotate270 => Symmetry::Rotate270,
        }
    }
}
