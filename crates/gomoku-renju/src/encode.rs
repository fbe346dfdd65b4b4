//! The position as input planes for a neural network.

use game_traits::{Game, GridSymmetry, PlaneEncoding, PlaneShape, Player};

use crate::{Focused, Gomoku, Symmetry};

/// Four `size` x `size` planes, from the point of view of the player to
/// move: its stones, the opponent's stones, a plane of ones (so that a
/// convolution tells the edge from an empty cell), and under renju a plane
/// of ones when Black (who has the forbidden moves) is to move, zeros
/// otherwise; under the colour-symmetric rules it is all zeros, so that a
/// position and its colour flip are encoded alike. Cell `y * size + x` is
/// the cell at column `x`, row `y`; the policy is the action space (the
/// cells, then the pass). The rules keep all eight symmetries.
///
/// The encoding's name carries the size and the rule
/// (`gomoku-15-freestyle/v1`): a network is for one board and one rule.
impl PlaneEncoding for Gomoku {
    fn encoding(&self) -> String {
        format!("gomoku-{}-{}/v1", self.size(), self.rule().name())
    }

    fn plane_shape(&self) -> PlaneShape {
        PlaneShape::new(4, self.size(), self.size())
    }

    fn encode_planes(&self, planes: &mut [f32]) {
        let size = self.size();
        let cells = size * size;
        let mover = self.to_move();
        planes[..2 * cells].fill(0.0);
        for (plane, player) in [mover, mover.opponent()].into_iter().enumerate() {
            for stone in self.stones(player).iter() {
                planes[plane * cells + stone.index(size)] = 1.0;
            }
        }
        planes[2 * cells..3 * cells].fill(1.0);
        let black_restricted = !self.rule().is_color_symmetric() && mover == Player::First;
        planes[3 * cells..4 * cells].fill(f32::from(u8::from(black_restricted)));
    }

    fn symmetries(&self) -> &'static [GridSymmetry] {
        &GridSymmetry::ALL
    }
}

/// The full board's encoding: a network sees the same planes and rates
/// every cell, whatever the focus lets a search consider.
impl PlaneEncoding for Focused {
    fn encoding(&self) -> String {
        self.game().encoding()
    }

    fn plane_shape(&self) -> PlaneShape {
        self.game().plane_shape()
    }

    fn encode_planes(&self, planes: &mut [f32]) {
        self.game().encode_planes(planes);
    }

    fn symmetries(&self) -> &'static [GridSymmetry] {
        &GridSymmetry::ALL
    }
}

impl From<GridSymmetry> for Symmetry {
    /// The board symmetry that moves the cells of the planes as `grid`
    /// does (the grid's rows are `y`, its columns `x`).
    fn from(grid: GridSymmetry) -> Symmetry {
        match grid {
            GridSymmetry::Identity => Symmetry::Identity,
            GridSymmetry::FlipVertical => Symmetry::FlipVertical,
            GridSymmetry::FlipHorizontal => Symmetry::FlipHorizontal,
            GridSymmetry::Rotate180 => Symmetry::Rotate180,
            GridSymmetry::Transpose => Symmetry::Transpose,
            GridSymmetry::AntiTranspose => Symmetry::AntiTranspose,
            GridSymmetry::Rotate90 => Symmetry::Rotate90,
            GridSymmetry::Rotate270 => Symmetry::Rotate270,
        }
    }
}
