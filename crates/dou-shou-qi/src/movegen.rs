//! Move generation for the side to move: the steps onto empty squares of
//! all pieces at once, one shifted bitboard per direction; then river jumps
//! and attacks, which are few, piece by piece.
//!
//! [`Jungle::targets`](crate::Jungle) computes the same moves piece by piece;
//! it serves `is_legal`, so the two are checked against each other by the
//! invariant harness on every position of its random games.

use crate::animal::{Animal, Piece};
use crate::board::{BOARD, Bitboard, DEN, JUMPS, WATER};
use crate::moves::Move;
use crate::position::Jungle;

const LAND: Bitboard = BOARD & !WATER;

const FILE_A: Bitboard = {
    let mut mask = 0;
    let mut row = 0;
    while row < 9 {
        mask |= 1 << (row * 7);
        row += 1;
    }
    mask
};

const FILE_G: Bitboard = FILE_A << 6;

/// The square offsets of the four directions: north, east, south, west.
const DELTAS: [i8; 4] = [7, 1, -7, -1];

/// `from + delta == to`.
#[inline(always)]
fn source(to: u32, delta: i8) -> u8 {
    (to as i32 - i32::from(delta)) as u8
}

impl Jungle {
    /// Per direction (north, east, south, west): the empty squares that a
    /// piece of `own` reaches by one step in that direction. `rats` are the
    /// pieces of `own` that may enter water.
    #[inline(always)]
    fn shifted(own: Bitboard, rats: Bitboard, allowed: Bitboard) -> [Bitboard; 4] {
        let walkers = own & !rats;
        [
            ((walkers << 7) & LAND | rats << 7) & allowed,
            (((walkers & !FILE_G) << 1) & LAND | (rats & !FILE_G) << 1) & allowed,
            ((walkers >> 7) & LAND | rats >> 7) & allowed,
            (((walkers & !FILE_A) >> 1) & LAND | (rats & !FILE_A) >> 1) & allowed,
        ]
    }

    /// The squares of the side to move's pieces of these animals.
    #[inline(always)]
    fn squares_of_animals(&self, animals: &[Animal]) -> Bitboard {
        let side = self.to_move;
        animals.iter().fold(0, |squares, &animal| {
            let code = Piece::new(side, animal).code();
            // A missing piece is NOWHERE (63), outside the board.
            squares | ((1 << self.location[code as usize]) & BOARD)
        })
    }

    /// Steps onto empty squares, per direction.
    #[inline(always)]
    fn quiet_steps(&self) -> [Bitboard; 4] {
        let us = self.to_move.index();
        let own = self.occupied[us];
        let empty = BOARD & !(own | self.occupied[us ^ 1]) & !(1 << DEN[us]);
        Jungle::shifted(own, self.squares_of_animals(&[Animal::Rat]), empty)
    }

    /// Squares with an enemy piece next to one of ours, per direction
    /// (the attack still has to be allowed).
    #[inline(always)]
    fn attack_candidates(&self) -> [Bitboard; 4] {
        let us = self.to_move.index();
        let own = self.occupied[us];
        let enemy = self.occupied[us ^ 1];
        // Every piece may try; the capture rule sorts out water and ranks.
        Jungle::shifted(own, own, enemy)
    }

    /// Calls `visit(from, to)` for every legal jump and every legal attack.
    #[inline(always)]
    fn for_each_jump_and_attack(&self, mut visit: impl FnMut(u8, u8)) {
        let side = self.to_move;
        let us = side.index();
        let own = self.occupied[us];
        let all = own | self.occupied[us ^ 1];
        let mut jumpers = self.squares_of_animals(&[Animal::Tiger, Animal::Lion]);
        while jumpers != 0 {
            let from = jumpers.trailing_zeros() as u8;
            jumpers &= jumpers - 1;
            for jump in &JUMPS[from as usize] {
                if jump.path & all != 0 || own & (1 << jump.to) != 0 {
                    continue;
                }
                let to = jump.to;
                if self.board[to as usize] == 0 || self.attack_allowed_from(from, to) {
                    visit(from, to);
                }
            }
        }
        for (direction, mut candidates) in self.attack_candidates().into_iter().enumerate() {
            while candidates != 0 {
                let to = candidates.trailing_zeros();
                candidates &= candidates - 1;
                let from = source(to, DELTAS[direction]);
                if self.attack_allowed_from(from, to as u8) {
                    visit(from, to as u8);
                }
            }
        }
    }

    #[inline(always)]
    fn attack_allowed_from(&self, from: u8, to: u8) -> bool {
        let attacker = Piece::from_code(self.board[from as usize]).animal;
        self.attack_allowed(self.to_move, attacker, from, to)
    }

    /// Writes the legal moves of the side to move (the game must not be
    /// stopped) into `out`, which has room for every move (at most 32: four
    /// per piece), and returns how many there are.
    #[inline(always)]
    pub(crate) fn generate(&self, out: &mut [Move]) -> usize {
        let mut count = 0;
        for (direction, mut targets) in self.quiet_steps().into_iter().enumerate() {
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                out[count] = Move::from_indices(source(to, DELTAS[direction]), to as u8);
                count += 1;
            }
        }
        self.for_each_jump_and_attack(|from, to| {
            out[count] = Move::from_indices(from, to);
            count += 1;
        });
        count
    }

    /// The number of legal moves of the side to move, ignoring game end.
    #[inline]
    pub(crate) fn count_unstopped(&self) -> usize {
        let quiet: u32 = self
            .quiet_steps()
            .into_iter()
            .map(Bitboard::count_ones)
            .sum();
        let mut count = quiet as usize;
        self.for_each_jump_and_attack(|_, _| count += 1);
        count
    }

    /// Whether the side to move has a legal move, ignoring game end.
    pub(crate) fn has_move(&self) -> bool {
        if self.quiet_steps().iter().any(|&targets| targets != 0) {
            return true;
        }
        let mut found = false;
        self.for_each_jump_and_attack(|_, _| found = true);
        found
    }
}
