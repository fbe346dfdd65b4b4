//! Positions as input planes for neural networks ([`PlaneEncoding`]), the
//! shape of those planes ([`PlaneShape`]) and the symmetries of a board
//! that turn one training sample into several ([`GridSymmetry`]).

use std::fmt;

use crate::ActionSpace;

/// The shape of the input planes of a position: `channels` planes of
/// `height` rows by `width` columns, stored channel by channel, each
/// plane row by row (the `C x H x W` layout of convolutional networks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlaneShape {
    /// Planes (features per cell).
    pub channels: usize,
    /// Rows of each plane.
    pub height: usize,
    /// Columns of each plane.
    pub width: usize,
}

impl PlaneShape {
    /// `channels` planes of `height` x `width`.
    pub const fn new(channels: usize, height: usize, width: usize) -> Self {
        PlaneShape {
            channels,
            height,
            width,
        }
    }

    /// The number of values: `channels * height * width`.
    pub const fn len(&self) -> usize {
        self.channels * self.height * self.width
    }

    /// Whether the shape holds no value.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Cells per plane: `height * width`.
    pub const fn cells(&self) -> usize {
        self.height * self.width
    }

    /// Where the value of `channel` at (`row`, `col`) is stored.
    pub const fn offset(&self, channel: usize, row: usize, col: usize) -> usize {
        (channel * self.height + row) * self.width + col
    }
}

impl fmt::Display for PlaneShape {
    /// `4x8x8`: channels, height, width.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}x{}", self.channels, self.height, self.width)
    }
}

/// One of the eight symmetries of a square grid (the dihedral group),
/// acting on (`row`, `col`) of a `height` x `width` grid. The four that
/// swap rows and columns ([`transposes`](GridSymmetry::transposes)) only
/// apply to square grids.
///
/// | symmetry | image of (`row`, `col`) |
/// |---|---|
/// | `Identity` | (`row`, `col`) |
/// | `FlipVertical` | (`h-1-row`, `col`) |
/// | `FlipHorizontal` | (`row`, `w-1-col`) |
/// | `Rotate180` | (`h-1-row`, `w-1-col`) |
/// | `Transpose` | (`col`, `row`) |
/// | `AntiTranspose` | (`w-1-col`, `h-1-row`) |
/// | `Rotate90` | (`col`, `h-1-row`) |
/// | `Rotate270` | (`w-1-col`, `row`) |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GridSymmetry {
    /// Every cell stays.
    Identity,
    /// Top and bottom swapped.
    FlipVertical,
    /// Left and right swapped.
    FlipHorizontal,
    /// A half turn.
    Rotate180,
    /// Mirrored in the main diagonal.
    Transpose,
    /// Mirrored in the other diagonal.
    AntiTranspose,
    /// A quarter turn.
    Rotate90,
    /// A quarter turn the other way.
    Rotate270,
}

impl GridSymmetry {
    /// All eight, `Identity` first: the symmetries of a square board whose
    /// rules look the same from every side (Othello, Gomoku, tic-tac-toe).
    pub const ALL: [GridSymmetry; 8] = [
        GridSymmetry::Identity,
        GridSymmetry::FlipVertical,
        GridSymmetry::FlipHorizontal,
        GridSymmetry::Rotate180,
        GridSymmetry::Transpose,
        GridSymmetry::AntiTranspose,
        GridSymmetry::Rotate90,
        GridSymmetry::Rotate270,
    ];

    /// The identity alone: a game with no symmetry to exploit.
    pub const IDENTITY: [GridSymmetry; 1] = [GridSymmetry::Identity];

    /// Whether this symmetry swaps rows and columns (so needs a square
    /// grid).
    pub const fn transposes(self) -> bool {
        matches!(
            self,
            GridSymmetry::Transpose
                | GridSymmetry::AntiTranspose
                | GridSymmetry::Rotate90
                | GridSymmetry::Rotate270
        )
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> GridSymmetry {
        match self {
            GridSymmetry::Rotate90 => GridSymmetry::Rotate270,
            GridSymmetry::Rotate270 => GridSymmetry::Rotate90,
            other => other,
        }
    }

    /// The image of cell (`row`, `col`) of a `height` x `width` grid.
    pub const fn apply(
        self,
        row: usize,
        col: usize,
        height: usize,
        width: usize,
    ) -> (usize, usize) {
        let (last_row, last_col) = (height - 1, width - 1);
        match self {
            GridSymmetry::Identity => (row, col),
            GridSymmetry::FlipVertical => (last_row - row, col),
            GridSymmetry::FlipHorizontal => (row, last_col - col),
            GridSymmetry::Rotate180 => (last_row - row, last_col - col),
            GridSymmetry::Transpose => (col, row),
            GridSymmetry::AntiTranspose => (last_col - col, last_row - row),
            GridSymmetry::Rotate90 => (col, last_row - row),
            GridSymmetry::Rotate270 => (last_col - col, row),
        }
    }

    /// The image of cell `index` (row by row) of a `height` x `width` grid.
    pub const fn apply_cell(self, index: usize, height: usize, width: usize) -> usize {
        let (row, col) = self.apply(index / width, index % width, height, width);
        row * width + col
    }

    /// Writes into `to` the planes `from` (of `shape`) with every plane
    /// moved by this symmetry: the value of cell `c` lands on the image of
    /// `c`.
    ///
    /// # Panics
    ///
    /// If `from` or `to` is not `shape.len()` long, or the symmetry
    /// transposes a grid that is not square.
    pub fn transform_planes(self, shape: PlaneShape, from: &[f32], to: &mut [f32]) {
        assert_eq!(from.len(), shape.len(), "planes of shape {shape}");
        assert_eq!(to.len(), shape.len(), "planes of shape {shape}");
        assert!(
            !self.transposes() || shape.height == shape.width,
            "{self:?} needs a square grid, not {shape}"
        );
        let cells = shape.cells();
        for cell in 0..cells {
            let image = self.apply_cell(cell, shape.height, shape.width);
            for channel in 0..shape.channels {
                to[channel * cells + image] = from[channel * cells + cell];
            }
        }
    }
}

/// A position written as input planes for a neural network, seen from the
/// player to move, with a dense policy index for every move.
///
/// * **Planes** ([`encode_planes`](PlaneEncoding::encode_planes)): a
///   [`PlaneShape`] of finite values, usually 0 and 1 ("my pieces", "the
///   opponent's pieces", "a constant plane" so that convolutions see the
///   edge). The planes describe the position from the point of view of
///   the player to move, never by colour: then a position and its
///   [`ColorFlip`](crate::ColorFlip) are encoded the same, which is what a
///   network's value (for the player to move) needs, and the harness
///   checks it (`Invariants::color_flip_encoding`).
/// * **Policy**: one output per index `0..policy_len()`;
///   [`policy_index`](PlaneEncoding::policy_index) says which one rates a
///   move. By default it is the game's action index. A game whose encoding
///   turns the board for the second player (Jungle rotates it) turns the
///   moves the same way, so that a move and its flip have the same index.
/// * **Symmetries** ([`symmetries`](PlaneEncoding::symmetries)): the board
///   symmetries that leave the rules unchanged, with how each moves the
///   policy indices; self-play uses them to turn one sample into several.
/// * **Name** ([`encoding`](PlaneEncoding::encoding)): the game, its
///   variant and the encoding's version. A saved network records it and
///   refuses positions of any other.
///
/// # Example
///
/// A toy game on a row of four cells, where players take turns to claim a
/// cell (rules elided to the essentials):
///
/// ```
/// use game_traits::{ActionSpace, Game, Outcome, PlaneEncoding, PlaneShape, Player};
///
/// #[derive(Clone, Debug)]
/// struct Row { cells: [Option<Player>; 4], to_move: Player }
///
/// impl Game for Row {
///     type Move = u8;
///     fn to_move(&self) -> Player { self.to_move }
///     fn legal_moves(&self, out: &mut Vec<u8>) {
///         out.clear();
///         out.extend((0..4).filter(|&c| self.cells[usize::from(c)].is_none()));
///     }
///     fn play(&mut self, cell: u8) {
///         self.cells[usize::from(cell)] = Some(self.to_move);
///         self.to_move = self.to_move.opponent();
///     }
///     fn outcome(&self) -> Option<Outcome> {
///         self.cells.iter().all(Option::is_some).then_some(Outcome::Draw)
///     }
/// }
///
/// impl ActionSpace for Row {
///     fn num_actions(&self) -> usize { 4 }
///     fn action_index(&self, cell: u8) -> usize { usize::from(cell) }
///     fn action(&self, index: usize) -> Option<u8> { u8::try_from(index).ok().filter(|&c| c < 4) }
/// }
///
/// impl PlaneEncoding for Row {
///     fn encoding(&self) -> String { "row4/v1".to_string() }
///     fn plane_shape(&self) -> PlaneShape { PlaneShape::new(2, 1, 4) }
///     fn encode_planes(&self, planes: &mut [f32]) {
///         planes.fill(0.0);
///         for (cell, owner) in self.cells.iter().enumerate() {
///             match owner {
///                 // Plane 0: the mover's cells; plane 1: the opponent's.
///                 Some(p) if *p == self.to_move => planes[cell] = 1.0,
///                 Some(_) => planes[4 + cell] = 1.0,
///                 None => {}
///             }
///         }
///     }
/// }
///
/// let mut row = Row { cells: [None; 4], to_move: Player::First };
/// row.play(2);
/// let mut planes = vec![0.0; row.plane_shape().len()];
/// row.encode_planes(&mut planes);
/// // Second to move: the first player's cell is the opponent's.
/// assert_eq!(planes, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]);
/// assert_eq!(row.policy_index(3), 3);
/// ```
pub trait PlaneEncoding: ActionSpace {
    /// The game, its variant and the encoding's version (`"othello/v1"`,
    /// `"gomoku-15-freestyle/v1"`): a network trained on one encoding
    /// refuses every other.
    fn encoding(&self) -> String;

    /// The shape of the planes; the same for every position of a game.
    fn plane_shape(&self) -> PlaneShape;

    /// Writes this position's planes into `planes`, which is
    /// `plane_shape().len()` long, overwriting every value.
    fn encode_planes(&self, planes: &mut [f32]);

    /// The number of policy outputs; every [`policy_index`] is below it.
    /// By default the number of actions.
    ///
    /// [`policy_index`]: PlaneEncoding::policy_index
    fn policy_len(&self) -> usize {
        self.num_actions()
    }

    /// The policy output that rates `mv` here. By default its action
    /// index; distinct legal moves have distinct indices.
    fn policy_index(&self, mv: Self::Move) -> usize {
        self.action_index(mv)
    }

    /// The symmetries of the board under which the rules are unchanged,
    /// `Identity` first. By default the identity alone.
    fn symmetries(&self) -> &'static [GridSymmetry] {
        &GridSymmetry::IDENTITY
    }

    /// The policy index that `index` becomes when the board is moved by
    /// `symmetry`. By default indices below the plane's cell count are
    /// cells of the planes' grid, row by row, and move with it; the others
    /// (a pass) stay.
    fn policy_symmetry(&self, symmetry: GridSymmetry, index: usize) -> usize {
        let shape = self.plane_shape();
        if index < shape.cells() {
            symmetry.apply_cell(index, shape.height, shape.width)
        } else {
            index
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_the_dihedral_group_with_their_inverses() {
        let (height, width) = (5, 5);
        for symmetry in GridSymmetry::ALL {
            let mut images = std::collections::HashSet::new();
            for cell in 0..height * width {
                let image = symmetry.apply_cell(cell, height, width);
                assert!(image < height * width);
                images.insert(image);
                assert_eq!(
                    symmetry.inverse().apply_cell(image, height, width),
                    cell,
                    "{symmetry:?}"
                );
            }
            assert_eq!(
                images.len(),
                height * width,
                "{symmetry:?} is a permutation"
            );
        }
        // Eight distinct permutations.
        let permutations: std::collections::HashSet<Vec<usize>> = GridSymmetry::ALL
            .iter()
            .map(|symmetry| {
                (0..height * width)
                    .map(|cell| symmetry.apply_cell(cell, height, width))
                    .collect()
            })
            .collect();
        assert_eq!(permutations.len(), 8);
        // A quarter turn twice is a half turn.
        for cell in 0..25 {
            let twice = GridSymmetry::Rotate90.apply_cell(
                GridSymmetry::Rotate90.apply_cell(cell, 5, 5),
                5,
                5,
            );
            assert_eq!(twice, GridSymmetry::Rotate180.apply_cell(cell, 5, 5));
        }
    }

    #[test]
    fn non_transposing_symmetries_keep_rectangles() {
        let (height, width) = (9, 7);
        for symmetry in GridSymmetry::ALL.into_iter().filter(|s| !s.transposes()) {
            for cell in 0..height * width {
                let image = symmetry.apply_cell(cell, height, width);
                assert!(image < height * width);
                assert_eq!(symmetry.inverse().apply_cell(image, height, width), cell);
            }
        }
    }

    #[test]
    fn planes_move_cell_by_cell() {
        let shape = PlaneShape::new(2, 2, 2);
        // Channel 0 marks the top-left cell, channel 1 the top-right one.
        let from = [1.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0];
        let mut to = [9.0; 8];
        GridSymmetry::FlipVertical.transform_planes(shape, &from, &mut to);
        assert_eq!(to, [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0]);
        assert_eq!(shape.to_string(), "2x2x2");
        assert_eq!(shape.offset(1, 1, 0), 6);
    }
}
