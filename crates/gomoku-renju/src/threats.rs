//! Threats: where each player can make a five, a four or a three.

use std::fmt;

use game_traits::Player;

use crate::bits::Bits;
use crate::shape::Shape;
use crate::{Gomoku, MoveSet, Rule};

/// A kind of threat, named by what the move makes.
///
/// A position's threats are read as the cells where a player can make
/// them. The two views are duals: "White has a four on the board" is
/// "White has a [`Five`](Threat::Five) cell" (the cell Black must take),
/// and "White has an open three" is "White has an
/// [`OpenFour`](Threat::OpenFour) cell".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Threat {
    /// The move makes a five: it wins.
    Five,
    /// The move makes a straight four, or two fours at once (on one line
    /// or two): the opponent cannot stop the five, barring a five of their
    /// own.
    OpenFour,
    /// The move makes at least one four (so this includes the open-four
    /// cells): the opponent must answer it.
    Four,
    /// The move makes an open three that extends to a straight four
    /// (`.XXX.`) in some direction.
    OpenThree,
    /// The move makes a broken three (`.X.XX.`) in some direction.
    BrokenThree,
    /// The move makes a closed three (one that can only become a plain
    /// four) in some direction.
    Three,
}

impl Threat {
    /// The six kinds, strongest first.
    pub const ALL: [Threat; 6] = [
        Threat::Five,
        Threat::OpenFour,
        Threat::Four,
        Threat::OpenThree,
        Threat::BrokenThree,
        Threat::Three,
    ];
}

impl fmt::Display for Threat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Threat::Five => "five",
            Threat::OpenFour => "open four",
            Threat::Four => "four",
            Threat::OpenThree => "open three",
            Threat::BrokenThree => "broken three",
            Threat::Three => "three",
        })
    }
}

/// Every threat of one player: the cells where the player can make each
/// kind ([`Gomoku::threats`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Threats {
    /// Cells that make a five.
    pub fives: MoveSet,
    /// Cells that make a straight four or two fours.
    pub open_fours: MoveSet,
    /// Cells that make at least one four.
    pub fours: MoveSet,
    /// Cells that make an open three.
    pub open_threes: MoveSet,
    /// Cells that make a broken three.
    pub broken_threes: MoveSet,
    /// Cells that make a closed three.
    pub threes: MoveSet,
}

impl Threats {
    /// The cells of one kind.
    #[must_use]
    pub fn get(&self, threat: Threat) -> &MoveSet {
        match threat {
            Threat::Five => &self.fives,
            Threat::OpenFour => &self.open_fours,
            Threat::Four => &self.fours,
            Threat::OpenThree => &self.open_threes,
            Threat::BrokenThree => &self.broken_threes,
            Threat::Three => &self.threes,
        }
    }
}

impl Gomoku {
    /// The cells where `player` can play and make `threat` (whoever is to
    /// move). Five, open-four and four cells are kept up to date with
    /// every stone and cost a copy; the three kinds scan the cached shapes
    /// of the cells near the stones. Under renju, cells forbidden to Black are left out
    /// of Black's threats (a five is never forbidden).
    #[must_use]
    pub fn threat_moves(&self, player: Player, threat: Threat) -> MoveSet {
        let index = player.index();
        let bits = match threat {
            Threat::Five => *self.five_bits(index),
            Threat::OpenFour => *self.open_four_bits(index),
            Threat::Four => *self.four_bits(index),
            Threat::OpenThree => self.scan_shape(index, Shape::OpenThree),
            Threat::BrokenThree => self.scan_shape(index, Shape::BrokenThree),
            Threat::Three => self.scan_shape(index, Shape::Three),
        };
        MoveSet::new(self.without_forbidden(player, bits), self.size())
    }

    /// All of `player`'s threats.
    #[must_use]
    pub fn threats(&self, player: Player) -> Threats {
        Threats {
            fives: self.threat_moves(player, Threat::Five),
            open_fours: self.threat_moves(player, Threat::OpenFour),
            fours: self.threat_moves(player, Threat::Four),
            open_threes: self.threat_moves(player, Threat::OpenThree),
            broken_threes: self.threat_moves(player, Threat::BrokenThree),
            threes: self.threat_moves(player, Threat::Three),
        }
    }

    /// Empty cells where `player` makes `shape` in some direction.
    fn scan_shape(&self, player: usize, shape: Shape) -> Bits {
        let mut found = Bits::new();
        for index in self.empty_bits().iter() {
            let nibbles = self.nibbles(player, index);
            if (0..4).any(|dir| (nibbles >> (4 * dir)) & 0xF == shape as u32) {
                found.insert(index);
            }
        }
        found
    }

    /// `bits` without the cells forbidden to `player` (Black under renju).
    pub(crate) fn without_forbidden(&self, player: Player, mut bits: Bits) -> Bits {
        if self.rule() == Rule::Renju && player == Player::First {
            for index in bits.iter() {
                if self.forbidden_at(index).is_some() {
                    bits.remove(index);
                }
            }
        }
        bits
    }
}
