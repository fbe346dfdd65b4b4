//! Hidden Jungle (rules text section 9): each side's animals start on its
//! usual squares in a secret order; both players see where every piece is,
//! but not which animal it is, until a fight reveals it.
//!
//! * [`Referee`] holds the truth, resolves every move, and publishes an
//!   [`Observation`] per move.
//! * [`HiddenInfoSet`] is what one player knows: its own animals plus the
//!   public observations, nothing else. It implements
//!   [`InformationSet`](game_traits::InformationSet): worlds (perfect
//!   information [`Jungle`](crate::Jungle) games) are sampled uniformly over
//!   the opponent setups consistent with every hard constraint of 9.5.
//! * [`WeightedInfoSet`] reweights those worlds by an [`OpponentModel`]
//!   (9.6).
//!
//! ```
//! use game_traits::{Game, InformationSet};
//! use dou_shou_qi::hidden::{HiddenRules, Referee};
//! use game_traits::Player;
//! use rand::SeedableRng;
//!
//! let mut referee = Referee::random(HiddenRules::default(), 7);
//! let mut moves = Vec::new();
//! referee.world().legal_moves(&mut moves);
//! let observation = referee.play(moves[0])?;
//! let info = referee.information_set(Player::Second);
//! let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
//! let world = info.sample_world(&mut rng);
//! assert_eq!(world.to_move(), Player::Second);
//! assert_eq!(info.world_count(), 40_320); // nothing revealed yet
//! # Ok::<(), dou_shou_qi::hidden::HiddenError>(())
//! ```

mod infoset;
mod matching;
mod referee;

use std::fmt;

use game_traits::Player;
use rand::{Rng, RngExt};

use crate::animal::{Animal, Piece};
use crate::board::Square;
use crate::moves::Move;
use crate::rules::{FailedAttack, Rules};

pub use infoset::{HiddenInfoSet, OpponentModel, SoftmaxOpponent, WeightedInfoSet};
pub use matching::Matchings;
pub use referee::{AttackReport, Observation, Referee};

/// Which identities an attack makes public (rules text 9.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Reveal {
    /// Only removed pieces are revealed (Hidden Jungle default).
    #[default]
    LoserOnly,
    /// Both fighters are revealed, whatever the result (Stratego-like).
    Both,
}

/// How the secret setups are made (rules text 9.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Setup {
    /// A uniform permutation of each side's animals over its start squares
    /// (default).
    #[default]
    Random,
    /// Each player chooses its permutation.
    Chosen,
    /// The normal layout: identities are public from move 0.
    Standard,
}

/// The rules of Hidden Jungle: the perfect-information rules used inside
/// each world, plus the reveal policy and the setup.
///
/// With the `serde` feature, deserialization goes through
/// [`HiddenRules::check`]: rules that Hidden Jungle cannot be played with
/// are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "serde_impl::HiddenRulesRaw")
)]
#[non_exhaustive]
pub struct HiddenRules {
    /// The rules of play (default: the standard rules plus
    /// `equal_rank_mutual_capture` and `failed_attack = attacker_dies`).
    /// `failed_attack` must be `attacker_dies` or `bounce`, and
    /// `rat_capture_across_bank` is not supported.
    pub rules: Rules,
    /// The reveal policy (default `loser_only`).
    pub reveal: Reveal,
    /// The setup (default `random`).
    pub setup: Setup,
}

impl Default for HiddenRules {
    fn default() -> Self {
        HiddenRules {
            rules: Rules::hidden_default(),
            reveal: Reveal::LoserOnly,
            setup: Setup::Random,
        }
    }
}

impl HiddenRules {
    /// Hidden rules with the given parts.
    #[must_use]
    pub fn new(rules: Rules, reveal: Reveal, setup: Setup) -> HiddenRules {
        HiddenRules {
            rules,
            reveal,
            setup,
        }
    }

    /// Checks that Hidden Jungle can be played with these rules.
    ///
    /// # Errors
    ///
    /// [`HiddenError::UnsupportedRules`] when failed attacks are illegal (an
    /// attack may never be refused for the hidden defender's rank) or when
    /// `rat_capture_across_bank` is on (whether a rat in water could attack
    /// would depend on the hidden defender).
    pub fn check(&self) -> Result<(), HiddenError> {
        if self.rules.failed_attack == FailedAttack::Illegal {
            return Err(HiddenError::UnsupportedRules {
                reason: "failed_attack must be attacker_dies or bounce: an attack is never refused because of the hidden defender",
            });
        }
        if self.rules.rat_capture_across_bank {
            return Err(HiddenError::UnsupportedRules {
                reason: "rat_capture_across_bank would make an attack's legality depend on the hidden defender",
            });
        }
        Ok(())
    }
}

/// The start squares of each side, in slot order (ascending square index):
/// a1 g1 b2 f2 a3 c3 e3 g3 and a7 c7 e7 g7 b8 f8 a9 g9.
const START_SQUARES: [[u8; 8]; 2] = [
    [0, 6, 8, 12, 14, 16, 18, 20],
    [42, 44, 46, 48, 50, 54, 56, 62],
];

/// A piece's public, stable identity: its start square. Written
/// `<side>@<square>`, e.g. `1@c7`.
///
/// With the `serde` feature it serializes as its start square and
/// deserializes through [`PieceId::new`]: a square where no piece starts is
/// refused with [`HiddenError::NotAStartSquare`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "Square")
)]
pub struct PieceId(Square);

impl PieceId {
    /// The piece that started on `square`, if a piece starts there.
    #[must_use]
    pub fn new(square: Square) -> Option<PieceId> {
        Player::BOTH
            .into_iter()
            .any(|side| START_SQUARES[side.index()].contains(&square.index()))
            .then_some(PieceId(square))
    }

    /// The piece of `side` in slot `slot` (`0..8`, in start-square order).
    #[must_use]
    pub fn from_slot(side: Player, slot: usize) -> Option<PieceId> {
        START_SQUARES[side.index()]
            .get(slot)
            .map(|&index| PieceId(Square::from_index_unchecked(index)))
    }

    /// The start square.
    #[must_use]
    pub fn start(self) -> Square {
        self.0
    }

    /// The side the piece belongs to.
    #[must_use]
    pub fn owner(self) -> Player {
        if self.0.row() < 3 {
            Player::First
        } else {
            Player::Second
        }
    }

    /// Its slot: the position of its start square among its side's.
    #[must_use]
    pub fn slot(self) -> usize {
        START_SQUARES[self.owner().index()]
            .iter()
            .position(|&index| index == self.0.index())
            .expect("a piece id is a start square")
    }

    pub(crate) fn from_dense(dense: usize) -> PieceId {
        let side = if dense >= 8 {
            Player::Second
        } else {
            Player::First
        };
        PieceId::from_slot(side, dense % 8).expect("dense id in range")
    }
}

impl fmt::Display for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.owner().index(), self.0)
    }
}

impl fmt::Debug for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One side's setup: the animal on each of its start squares, in slot
/// order. Always a permutation of the eight animals.
///
/// With the `serde` feature it serializes as the list of its animals and
/// deserializes through [`Layout::new`]: a list that is not a permutation
/// is refused with [`HiddenError::NotAPermutation`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "[Animal; 8]")
)]
pub struct Layout([Animal; 8]);

impl Layout {
    /// The layout with `animals` in slot order.
    ///
    /// # Errors
    ///
    /// [`HiddenError::NotAPermutation`] unless each animal appears once.
    pub fn new(animals: [Animal; 8]) -> Result<Layout, HiddenError> {
        let mut seen = 0u8;
        for animal in animals {
            seen |= animal.bit();
        }
        if seen == 0xff {
            Ok(Layout(animals))
        } else {
            Err(HiddenError::NotAPermutation {
                layout: animals.iter().map(|animal| animal.letter()).collect(),
            })
        }
    }

    /// The normal layout of `side` (rules text section 2).
    #[must_use]
    pub fn standard(side: Player) -> Layout {
        use Animal::{Cat, Dog, Elephant, Leopard, Lion, Rat, Tiger, Wolf};
        Layout(match side {
            // a1 g1 b2 f2 a3 c3 e3 g3
            Player::First => [Tiger, Lion, Cat, Dog, Elephant, Wolf, Leopard, Rat],
            // a7 c7 e7 g7 b8 f8 a9 g9
            Player::Second => [Rat, Leopard, Wolf, Elephant, Dog, Cat, Lion, Tiger],
        })
    }

    /// A uniformly random layout.
    pub fn random<R: Rng + ?Sized>(rng: &mut R) -> Layout {
        let mut animals = Animal::ALL;
        for i in (1..animals.len()).rev() {
            let j = rng.random_range(..=i);
            animals.swap(i, j);
        }
        Layout(animals)
    }

    /// The animal in slot `slot`.
    ///
    /// # Panics
    ///
    /// If `slot >= 8`.
    #[must_use]
    pub fn animal(&self, slot: usize) -> Animal {
        self.0[slot]
    }

    /// The animals in slot order.
    #[must_use]
    pub fn animals(&self) -> [Animal; 8] {
        self.0
    }

    /// The layout's pieces for `side`, as `(square, piece)` pairs.
    pub fn pieces(&self, side: Player) -> impl Iterator<Item = (Square, Piece)> + '_ {
        START_SQUARES[side.index()]
            .iter()
            .zip(self.0)
            .map(move |(&square, animal)| {
                (
                    Square::from_index_unchecked(square),
                    Piece::new(side, animal),
                )
            })
    }
}

impl fmt::Display for Layout {
    /// The animal letters in slot order, e.g. `TLCDEWPR` (the standard
    /// first-player layout).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0
            .iter()
            .try_for_each(|animal| write!(f, "{}", animal.letter()))
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({self})")
    }
}

/// Something went wrong in Hidden Jungle.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HiddenError {
    /// The rules cannot be used for Hidden Jungle.
    #[error("unsupported Hidden Jungle rules: {reason}")]
    UnsupportedRules {
        /// Why.
        reason: &'static str,
    },
    /// A layout does not hold each animal once.
    #[error("layout {layout} does not hold each of the eight animals once")]
    NotAPermutation {
        /// The layout's letters.
        layout: String,
    },
    /// With `setup = standard`, a layout other than the standard one.
    #[error("setup is standard, but the {side} player's layout is {layout}")]
    NotStandard {
        /// Whose layout.
        side: Player,
        /// The layout given.
        layout: Layout,
    },
    /// The referee refused a move.
    #[error("{mv} is not a legal move here")]
    IllegalMove {
        /// The move.
        mv: Move,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// A square where no piece starts, given as a [`PieceId`].
    #[error("no piece starts on {square}, so it names no piece")]
    NotAStartSquare {
        /// The square given.
        square: Square,
    },
    /// An opponent setup that does not fit the observations.
    #[error("the opponent setup {layout} does not fit the observations")]
    InconsistentLayout {
        /// The setup given.
        layout: Layout,
    },
    /// An observation contradicts what the player already knows.
    #[error("observation {ply} is inconsistent: {reason}")]
    InconsistentObservation {
        /// Its index in the game (0 for the first move).
        ply: usize,
        /// What does not fit.
        reason: String,
    },
}

impl TryFrom<Square> for PieceId {
    type Error = HiddenError;

    /// [`PieceId::new`], with an error for a square where no piece starts.
    fn try_from(square: Square) -> Result<PieceId, HiddenError> {
        PieceId::new(square).ok_or(HiddenError::NotAStartSquare { square })
    }
}

impl TryFrom<[Animal; 8]> for Layout {
    type Error = HiddenError;

    /// [`Layout::new`].
    fn try_from(animals: [Animal; 8]) -> Result<Layout, HiddenError> {
        Layout::new(animals)
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    //! Serialized hidden rules before [`HiddenRules::check`].

    use super::*;

    #[derive(serde::Deserialize)]
    #[serde(rename = "HiddenRules")]
    pub(super) struct HiddenRulesRaw {
        rules: Rules,
        reveal: Reveal,
        setup: Setup,
    }

    impl TryFrom<HiddenRulesRaw> for HiddenRules {
        type Error = HiddenError;

        fn try_from(raw: HiddenRulesRaw) -> Result<HiddenRules, HiddenError> {
            let rules = HiddenRules {
                rules: raw.rules,
                reveal: raw.reveal,
                setup: raw.setup,
            };
            rules.check()?;
            Ok(rules)
        }
    }
}
