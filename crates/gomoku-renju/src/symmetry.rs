//! The eight symmetries of the square board.

use game_traits::{Game, Player};

use crate::{Gomoku, Move};

/// One of the eight symmetries of a square board (the dihedral group of
/// order 8). Every rule here is invariant under all of them: a position's
/// image has the images of its legal moves, the same outcome and, under
/// renju, the images of its forbidden cells.
///
/// ```
/// use gomoku_renju::{Move, Symmetry};
///
/// let mv: Move = "b1".parse()?;
/// assert_eq!(Symmetry::Rotate90.apply(mv, 15).to_string(), "o2");
/// for symmetry in Symmetry::ALL {
///     assert_eq!(symmetry.inverse().apply(symmetry.apply(mv, 15), 15), mv);
/// }
/// # Ok::<(), gomoku_renju::ParseMoveError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Symmetry {
    /// Nothing moves.
    Identity,
    /// A quarter turn anticlockwise.
    Rotate90,
    /// A half turn.
    Rotate180,
    /// A quarter turn clockwise.
    Rotate270,
    /// Left and right swapped (`x` mirrored).
    FlipHorizontal,
    /// Top and bottom swapped (`y` mirrored).
    FlipVertical,
    /// Mirrored in the diagonal through `a1` (`x` and `y` swapped).
    Transpose,
    /// Mirrored in the other diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The image of `mv` on a `size` x `size` board (the pass maps to
    /// itself).
    #[must_use]
    pub fn apply(self, mv: Move, size: usize) -> Move {
        if mv.is_pass() {
            return mv;
        }
        let last = size as u8 - 1;
        let (x, y) = (mv.x(), mv.y());
        let (x, y) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (last - y, x),
            Symmetry::Rotate180 => (last - x, last - y),
            Symmetry::Rotate270 => (y, last - x),
            Symmetry::FlipHorizontal => (last - x, y),
            Symmetry::FlipVertical => (x, last - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (last - y, last - x),
        };
        Move::new(x, y)
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }
}

impl Gomoku {
    /// The image of the position under `symmetry`: stones moved, same
    /// player to move, rule and result.
    #[must_use]
    pub fn symmetric(&self, symmetry: Symmetry) -> Gomoku {
        let size = self.size();
        let map = |player| -> Vec<Move> {
            self.stones(player)
                .iter()
                .map(|mv| symmetry.apply(mv, size))
                .collect()
        };
        let mut image = Gomoku::with_stones(
            size,
            self.rule(),
            &map(Player::First),
            &map(Player::Second),
            self.to_move(),
        )
        .unwrap_or_else(|_| unreachable!("the image of a position is a position"));
        image.set_outcome(self.result());
        image
    }

    /// The least of the eight images (by their text), and the symmetry
    /// that gives it: one representative per class of symmetric positions,
    /// for opening books and caches.
    #[must_use]
    pub fn canonical(&self) -> (Gomoku, Symmetry) {
        Symmetry::ALL
            .into_iter()
            .map(|symmetry| (self.symmetric(symmetry), symmetry))
            .min_by_key(|(image, _)| image.to_line())
            .unwrap_or_else(|| unreachable!("there are eight symmetries"))
    }
}
