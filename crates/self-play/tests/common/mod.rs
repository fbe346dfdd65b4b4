//! Tic-tac-toe with its encoding broken on purpose, for the tests of what
//! a network does with a game that encodes badly.

use game_traits::testing::TicTacToe;
use game_traits::{ActionSpace, Game, Outcome, PlaneEncoding, PlaneShape, Player};

/// Keeps the encoding's name but grows a fourth (empty) plane: a network
/// of the old shape must refuse it.
pub(crate) const WIDER: u8 = 0;
/// Planes of 1e30 where they should be 1: finite, so shards take them,
/// but the gradient overflows.
pub(crate) const LOUD: u8 = 1;

/// Tic-tac-toe with the encoding `KIND` names.
#[derive(Clone, Debug)]
pub(crate) struct Recoded<const KIND: u8>(pub(crate) TicTacToe);

impl<const KIND: u8> Game for Recoded<KIND> {
    type Move = u8;
    fn to_move(&self) -> Player {
        self.0.to_move()
    }
    fn legal_moves(&self, out: &mut Vec<u8>) {
        self.0.legal_moves(out);
    }
    fn play(&mut self, mv: u8) {
        self.0.play(mv);
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
}

impl<const KIND: u8> ActionSpace for Recoded<KIND> {
    fn num_actions(&self) -> usize {
        9
    }
    fn action_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }
    fn action(&self, index: usize) -> Option<u8> {
        self.0.action(index)
    }
}

impl<const KIND: u8> PlaneEncoding for Recoded<KIND> {
    fn encoding(&self) -> String {
        match KIND {
            LOUD => "loud-tictactoe/v1".to_string(),
            _ => self.0.encoding(),
        }
    }
    fn plane_shape(&self) -> PlaneShape {
        match KIND {
            WIDER => PlaneShape::new(4, 3, 3),
            _ => self.0.plane_shape(),
        }
    }
    fn encode_planes(&self, planes: &mut [f32]) {
        planes.fill(0.0);
        self.0.encode_planes(&mut planes[..27]);
        if KIND == LOUD {
            for value in planes {
                *value *= 1e30;
            }
        }
    }
}
