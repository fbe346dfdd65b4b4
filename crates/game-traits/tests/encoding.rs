//! The encoding checks of the invariant harness pass on tic-tac-toe and
//! catch encodings broken on purpose, one bug each, naming the right
//! invariant.
#![cfg(feature = "testing")]

use game_traits::testing::{Invariant, Invariants, TicTacToe};
use game_traits::{
    ActionSpace, ColorFlip, Game, GridSymmetry, Outcome, PlaneEncoding, PlaneShape, Player,
};

#[test]
fn tic_tac_toe_encodes_from_the_player_to_move_with_eight_symmetries() {
    let coverage = Invariants::new(TicTacToe::new(), 9)
        .plane_encoding()
        .color_flip_encoding()
        .encoding_symmetries(TicTacToe::symmetric)
        .run()
        .unwrap();
    assert!(coverage.positions > 300, "{coverage:?}");
    let game = TicTacToe::from_moves(&[4, 0]).unwrap();
    let mut planes = vec![0.0; 27];
    game.encode_planes(&mut planes);
    // x (first) to move: its centre stone on plane 0, o's corner on plane 1.
    assert_eq!(planes[4], 1.0);
    assert_eq!(planes[9], 1.0);
    assert_eq!(planes.iter().sum::<f32>(), 2.0 + 9.0);
}

const NO_BUG: u8 = 0;
/// Plane 0 holds x's stones whoever moves.
const ABSOLUTE_COLOURS: u8 = 1;
/// The constant plane is left unwritten.
const SKIPS_A_PLANE: u8 = 2;
/// An infinite value where the centre is taken.
const INFINITE_VALUE: u8 = 3;
/// The last square's policy index is one past the end.
const POLICY_OUT_OF_RANGE: u8 = 4;
/// Squares 0 and 1 share a policy index.
const POLICY_COLLISION: u8 = 5;
/// The symmetries move the planes but not the policy indices.
const POLICY_NOT_MOVED: u8 = 6;
/// The first symmetry listed is not the identity.
const NO_IDENTITY_FIRST: u8 = 7;
/// A flipped position's policy index is shifted.
const FLIP_SHIFTS_POLICY: u8 = 8;
/// A fourth (empty) plane once a stone is down: the shape changes.
const SHAPE_CHANGES: u8 = 9;
/// Different planes on a second call (a stale buffer).
const NOT_REPEATABLE: u8 = 10;

#[derive(Clone, Debug)]
struct Broken<const BUG: u8> {
    game: TicTacToe,
    calls: std::sync::Arc<std::sync::atomic::AtomicU32>,
}

impl<const BUG: u8> Broken<BUG> {
    fn new(game: TicTacToe) -> Self {
        Broken {
            game,
            calls: Default::default(),
        }
    }
}

impl<const BUG: u8> Game for Broken<BUG> {
    type Move = u8;

    fn to_move(&self) -> Player {
        self.game.to_move()
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        self.game.legal_moves(out);
    }

    fn play(&mut self, square: u8) {
        self.game.play(square);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
}

impl<const BUG: u8> ActionSpace for Broken<BUG> {
    fn num_actions(&self) -> usize {
        9
    }

    fn action_index(&self, square: u8) -> usize {
        self.game.action_index(square)
    }

    fn action(&self, index: usize) -> Option<u8> {
        self.game.action(index)
    }
}

impl<const BUG: u8> ColorFlip for Broken<BUG> {
    fn color_flipped(&self) -> Self {
        Broken::new(self.game.color_flipped())
    }

    fn flip_move(square: u8) -> u8 {
        square
    }
}

impl<const BUG: u8> PlaneEncoding for Broken<BUG> {
    fn encoding(&self) -> String {
        self.game.encoding()
    }

    fn plane_shape(&self) -> PlaneShape {
        if BUG == SHAPE_CHANGES && (0..9).any(|square| self.game.stone(square).is_some()) {
            PlaneShape::new(4, 3, 3)
        } else {
            self.game.plane_shape()
        }
    }

    fn encode_planes(&self, planes: &mut [f32]) {
        planes.fill(0.0);
        self.game.encode_planes(&mut planes[..27]);
        match BUG {
            ABSOLUTE_COLOURS if self.game.to_move() == Player::Second => {
                let (mover, other) = planes.split_at_mut(9);
                mover.swap_with_slice(&mut other[..9]);
            }
            SKIPS_A_PLANE => planes[18..].fill(f32::NAN),
            INFINITE_VALUE if self.game.stone(4).is_some() => planes[4] = f32::INFINITY,
            NOT_REPEATABLE => {
                let calls = self
                    .calls
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                planes[18] = calls as f32;
            }
            _ => {}
        }
    }

    fn policy_index(&self, square: u8) -> usize {
        let index = usize::from(square);
        match BUG {
            POLICY_OUT_OF_RANGE if index == 8 => 9,
            POLICY_COLLISION if index == 1 => 0,
            FLIP_SHIFTS_POLICY if self.game.to_move() == Player::Second => (index + 1) % 9,
            _ => index,
        }
    }

    fn symmetries(&self) -> &'static [GridSymmetry] {
        if BUG == NO_IDENTITY_FIRST {
            &[GridSymmetry::Rotate90, GridSymmetry::Identity]
        } else {
            &GridSymmetry::ALL
        }
    }

    fn policy_symmetry(&self, symmetry: GridSymmetry, index: usize) -> usize {
        if BUG == POLICY_NOT_MOVED {
            index
        } else {
            symmetry.apply_cell(index, 3, 3)
        }
    }
}

fn checks<const BUG: u8>() -> Invariants<Broken<BUG>> {
    Invariants::new(Broken::<BUG>::new(TicTacToe::new()), 9)
        .plane_encoding()
        .color_flip_encoding()
        .encoding_symmetries(|broken: &Broken<BUG>, symmetry| {
            Broken::new(broken.game.symmetric(symmetry))
        })
}

fn violated<const BUG: u8>() -> Invariant {
    match checks::<BUG>().check() {
        Ok(()) => panic!("encoding bug {BUG} went unnoticed"),
        Err(violation) => violation.invariant,
    }
}

#[test]
fn the_unbroken_wrapper_passes() {
    checks::<NO_BUG>().assert();
}

#[test]
fn each_encoding_bug_is_caught_by_its_invariant() {
    assert_eq!(violated::<ABSOLUTE_COLOURS>(), Invariant::EncodingFlip);
    assert_eq!(violated::<SKIPS_A_PLANE>(), Invariant::PlaneEncoding);
    assert_eq!(violated::<INFINITE_VALUE>(), Invariant::PlaneEncoding);
    assert_eq!(violated::<POLICY_OUT_OF_RANGE>(), Invariant::PlaneEncoding);
    assert_eq!(violated::<POLICY_COLLISION>(), Invariant::PlaneEncoding);
    assert_eq!(violated::<POLICY_NOT_MOVED>(), Invariant::EncodingSymmetry);
    assert_eq!(violated::<NO_IDENTITY_FIRST>(), Invariant::PlaneEncoding);
    assert_eq!(violated::<FLIP_SHIFTS_POLICY>(), Invariant::EncodingFlip);
    assert_eq!(violated::<NOT_REPEATABLE>(), Invariant::PlaneEncoding);
    assert_eq!(violated::<SHAPE_CHANGES>(), Invariant::PlaneEncoding);
}
