//! The position as input planes for a neural network.

use game_traits::{ActionSpace, Game, PlaneEncoding, PlaneShape, Player};

use crate::{Jungle, Move};

/// Planes per side: one per animal, rat to elephant.
const ANIMALS: usize = 8;
const CELLS: usize = 63;

/// Eighteen 9x7 planes, from the point of view of the player to move,
/// with the board turned so that the player to move always starts at the
/// bottom (rank 1 at row 0): the mover's animals (one plane each, rat to
/// elephant), the opponent's, a plane of ones, and a plane holding the
/// no-capture clock as a fraction of its limit (0 without a limit). The
/// policy is the action space turned the same way: the second player's
/// move is rated at the index of the move turned by half a turn, so that a
/// move and its colour flip share an index.
///
/// The encoding's name carries the rule switches (`jungle[standard]/v1`).
impl PlaneEncoding for Jungle {
    fn encoding(&self) -> String {
        format!("jungle[{}]/v1", self.rules)
    }

    fn plane_shape(&self) -> PlaneShape {
        PlaneShape::new(2 * ANIMALS + 2, 9, 7)
    }

    fn encode_planes(&self, planes: &mut [f32]) {
        let mover = self.to_move;
        planes[..2 * ANIMALS * CELLS].fill(0.0);
        for (square, &code) in self.board[..CELLS].iter().enumerate() {
            if code == 0 {
                continue;
            }
            let owner = if code <= 8 {
                Player::First
            } else {
                Player::Second
            };
            let animal = usize::from((code - 1) % 8);
            let plane = if owner == mover {
                animal
            } else {
                ANIMALS + animal
            };
            let cell = if mover == Player::First {
                square
            } else {
                CELLS - 1 - square
            };
            planes[plane * CELLS + cell] = 1.0;
        }
        planes[2 * ANIMALS * CELLS..(2 * ANIMALS + 1) * CELLS].fill(1.0);
        let limit = self.rules.no_capture_limit;
        let clock = if limit == 0 {
            0.0
        } else {
            (f32::from(self.clock) / f32::from(limit)).min(1.0)
        };
        planes[(2 * ANIMALS + 1) * CELLS..].fill(clock);
    }

    fn policy_index(&self, mv: Move) -> usize {
        match self.to_move() {
            Player::First => self.action_index(mv),
            Player::Second => self.action_index(mv.rotated()),
        }
    }
}
