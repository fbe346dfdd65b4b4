//! A game that goes on for a billion plies: nothing ends a search on it but
//! a limit, which is what memory-cap and time-limit tests need.

use crate::{ActionSpace, Game, Outcome, Player};

/// A game of `branching` moves a turn (move `i` is `i`), players
/// alternating, drawn after a billion plies: in practice it never ends, so
/// a search on it stops only at a limit or a memory cap, and every
/// playout runs to its ply cap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Endless {
    plies: u64,
    branching: u8,
}

impl Endless {
    /// Plies after which the game is drawn.
    pub const LENGTH: u64 = 1_000_000_000;

    /// The start, with `branching` moves a turn (at least 1).
    pub fn new(branching: u8) -> Self {
        Endless {
            plies: 0,
            branching: branching.max(1),
        }
    }

    /// Plies played.
    pub fn plies(&self) -> u64 {
        self.plies
    }
}

impl Game for Endless {
    type Move = u8;

    fn to_move(&self) -> Player {
        Player::BOTH[(self.plies % 2) as usize]
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.plies < Self::LENGTH {
            out.extend(0..self.branching);
        }
    }

    fn play(&mut self, mv: u8) {
        debug_assert!(self.is_legal(mv));
        self.plies += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.plies >= Self::LENGTH).then_some(Outcome::Draw)
    }
}

impl ActionSpace for Endless {
    fn num_actions(&self) -> usize {
        usize::from(self.branching)
    }

    fn action_index(&self, mv: u8) -> usize {
        usize::from(mv)
    }

    fn action(&self, index: usize) -> Option<u8> {
        u8::try_from(index).ok().filter(|&mv| mv < self.branching)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Invariant, Invariants};

    #[test]
    fn the_rules_hold_and_only_termination_fails() {
        // Every rule but termination holds, so the harness's only complaint
        // is the one this game exists to provoke.
        let violation = Invariants::new(Endless::new(3), 40)
            .action_space()
            .check()
            .expect_err("an endless game cannot end within 40 plies");
        assert_eq!(violation.invariant, Invariant::Terminates, "{violation}");
    }
}
