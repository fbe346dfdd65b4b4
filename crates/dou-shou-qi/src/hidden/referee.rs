//! The referee: the true game, and the public observation of each move.

use game_traits::hidden::Arbiter;
use game_traits::{Game, IllegalMove, Outcome, Player};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::infoset::HiddenInfoSet;
use super::{HiddenError, HiddenRules, Layout, PieceId, Reveal, Setup};
use crate::animal::Animal;
use crate::moves::Move;
use crate::position::Jungle;
use crate::rules::{FailedAttack, Fight};

/// What everyone learns about an attack (a move onto an enemy piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AttackReport {
    /// The attacked piece.
    pub defender: PieceId,
    /// How it ended. Public, since the removed pieces are: with
    /// `attacker_dies`, the attacker is removed exactly when the defender
    /// won; with `bounce`, nothing is removed then.
    pub result: Fight,
}

/// The public record of one move (rules text 9.2): who moved which piece
/// where, how an attack ended, which identities became public, and whether
/// the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Observation {
    /// The player who moved.
    pub mover: Player,
    /// The move.
    pub mv: Move,
    /// The piece that moved.
    pub piece: PieceId,
    /// The attack, if the move went onto an enemy piece.
    pub attack: Option<AttackReport>,
    /// Identities made public by this move (the removed pieces; with
    /// `reveal = both`, both fighters), attacker first.
    pub revealed: Vec<(PieceId, Animal)>,
    /// The result, once the game is over.
    pub outcome: Option<Outcome>,
}

/// The arbiter of a Hidden Jungle game: it alone knows both setups.
///
/// It checks moves against the true position, resolves attacks with the
/// true animals, and publishes an [`Observation`] per move. Information
/// sets are built from its public log plus one player's own setup.
#[derive(Clone, Debug)]
pub struct Referee {
    rules: HiddenRules,
    layouts: [Layout; 2],
    world: Jungle,
    /// The dense piece id (`side * 8 + slot`) on each square, or `NO_PIECE`.
    ids: [u8; 64],
    log: Vec<Observation>,
}

pub(crate) const NO_PIECE: u8 = u8::MAX;

/// The true position at the start, for the given setups.
pub(crate) fn initial_world(rules: &HiddenRules, layouts: &[Layout; 2]) -> Jungle {
    let pieces = layouts[0]
        .pieces(Player::First)
        .chain(layouts[1].pieces(Player::Second));
    Jungle::from_pieces(pieces, Player::First, 0, 1, rules.rules)
        .expect("start squares are land and outside the dens")
}

/// The dense piece ids at the start.
pub(crate) fn initial_ids() -> [u8; 64] {
    let mut ids = [NO_PIECE; 64];
    for dense in 0..16 {
        ids[PieceId::from_dense(dense).start().index() as usize] = dense as u8;
    }
    ids
}

/// Which of the two fighters an attack removes, under `rules`.
pub(crate) fn removals(rules: &HiddenRules, result: Fight) -> (bool, bool) {
    match result {
        Fight::AttackerWins => (false, true),
        Fight::BothRemoved => (true, true),
        Fight::DefenderWins => match rules.rules.failed_attack {
            FailedAttack::AttackerDies => (true, false),
            FailedAttack::Bounce | FailedAttack::Illegal => (false, false),
        },
    }
}

/// Moves the piece ids like the pieces: `attacker_removed`,
/// `defender_removed` as the attack decided (both `false` for a plain move).
pub(crate) fn move_ids(ids: &mut [u8; 64], mv: Move, attack: Option<(bool, bool)>) {
    let from = mv.from().index() as usize;
    let to = mv.to().index() as usize;
    match attack {
        None | Some((false, true)) => {
            ids[to] = ids[from];
            ids[from] = NO_PIECE;
        }
        Some((true, true)) => {
            ids[to] = NO_PIECE;
            ids[from] = NO_PIECE;
        }
        Some((true, false)) => ids[from] = NO_PIECE,
        Some((false, false)) => {}
    }
}

impl Referee {
    /// A game with the given setups.
    ///
    /// # Errors
    ///
    /// [`HiddenError::UnsupportedRules`] (see [`HiddenRules::check`]);
    /// [`HiddenError::NotStandard`] for a non-standard layout under
    /// `setup = standard`.
    pub fn new(rules: HiddenRules, layouts: [Layout; 2]) -> Result<Referee, HiddenError> {
        rules.check()?;
        if rules.setup == Setup::Standard {
            for side in Player::BOTH {
                if layouts[side.index()] != Layout::standard(side) {
                    return Err(HiddenError::NotStandard {
                        side,
                        layout: layouts[side.index()],
                    });
                }
            }
        }
        Ok(Referee {
            world: initial_world(&rules, &layouts),
            rules,
            layouts,
            ids: initial_ids(),
            log: Vec::new(),
        })
    }

    /// A game whose setups are drawn from `seed` (uniform permutations; the
    /// standard layout under `setup = standard`).
    ///
    /// # Panics
    ///
    /// If the rules are unsupported (see [`HiddenRules::check`]);
    /// [`Referee::try_random`] returns the error instead.
    #[must_use]
    pub fn random(rules: HiddenRules, seed: u64) -> Referee {
        Referee::try_random(rules, seed).expect("supported Hidden Jungle rules")
    }

    /// [`Referee::random`] without the panic.
    ///
    /// # Errors
    ///
    /// [`HiddenError::UnsupportedRules`] (see [`HiddenRules::check`]).
    pub fn try_random(rules: HiddenRules, seed: u64) -> Result<Referee, HiddenError> {
        let layouts = if rules.setup == Setup::Standard {
            [
                Layout::standard(Player::First),
                Layout::standard(Player::Second),
            ]
        } else {
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            [Layout::random(&mut rng), Layout::random(&mut rng)]
        };
        Referee::new(rules, layouts)
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &HiddenRules {
        &self.rules
    }

    /// The true position (the arbiter's view: all animals known).
    #[must_use]
    pub fn world(&self) -> &Jungle {
        &self.world
    }

    /// The secret setup of `side`.
    #[must_use]
    pub fn layout(&self, side: Player) -> Layout {
        self.layouts[side.index()]
    }

    /// The piece on `square`, if any.
    #[must_use]
    pub fn piece_id(&self, square: crate::Square) -> Option<PieceId> {
        let dense = self.ids[square.index() as usize];
        (dense != NO_PIECE).then(|| PieceId::from_dense(usize::from(dense)))
    }

    /// The public log: one observation per move so far.
    #[must_use]
    pub fn observations(&self) -> &[Observation] {
        &self.log
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.world.outcome()
    }

    /// Plays `mv` for the player to move and returns the public
    /// observation.
    ///
    /// # Errors
    ///
    /// [`HiddenError::GameOver`] after the end, [`HiddenError::IllegalMove`]
    /// for a move that is not legal in the true position (which, in Hidden
    /// Jungle, never depends on the opponent's hidden animals).
    pub fn play(&mut self, mv: Move) -> Result<Observation, HiddenError> {
        if self.world.outcome().is_some() {
            return Err(HiddenError::GameOver);
        }
        if !self.world.is_legal(mv) {
            return Err(HiddenError::IllegalMove { mv });
        }
        let mover = self.world.to_move();
        let piece = self.id_at(mv.from().index());
        let attack = (self.ids[mv.to().index() as usize] != NO_PIECE).then(|| AttackReport {
            defender: self.id_at(mv.to().index()),
            result: self
                .world
                .attack_result(mv)
                .expect("a legal attack has a result"),
        });
        let removed = attack.map(|report| removals(&self.rules, report.result));
        let mut revealed = Vec::new();
        if let Some(report) = attack {
            let (attacker_removed, defender_removed) = removed.unwrap_or((false, false));
            let both = self.rules.reveal == Reveal::Both;
            if both || attacker_removed {
                revealed.push((piece, self.animal_of(piece)));
            }
            if both || defender_removed {
                revealed.push((report.defender, self.animal_of(report.defender)));
            }
        }
        self.world.play(mv);
        move_ids(&mut self.ids, mv, removed);
        let observation = Observation {
            mover,
            mv,
            piece,
            attack,
            revealed,
            outcome: self.world.outcome(),
        };
        self.log.push(observation.clone());
        Ok(observation)
    }

    /// What `player` knows: its own setup and the public log.
    #[must_use]
    pub fn information_set(&self, player: Player) -> HiddenInfoSet {
        HiddenInfoSet::from_observations(
            player,
            self.rules,
            self.layouts[player.index()],
            &self.log,
        )
        .expect("the referee's own log is consistent with the truth")
    }

    fn id_at(&self, square: u8) -> PieceId {
        PieceId::from_dense(usize::from(self.ids[square as usize]))
    }

    fn animal_of(&self, piece: PieceId) -> Animal {
        self.layouts[piece.owner().index()].animal(piece.slot())
    }
}

impl Arbiter for Referee {
    type InfoSet = HiddenInfoSet;

    fn truth(&self) -> &Jungle {
        &self.world
    }

    fn information_set(&self, player: Player) -> HiddenInfoSet {
        Referee::information_set(self, player)
    }

    fn play_move(&mut self, mv: Move) -> Result<(), IllegalMove<Move>> {
        match self.play(mv) {
            Ok(_) => Ok(()),
            // The position's own refusal says whether the game was over.
            Err(_) => Err(self
                .world
                .clone()
                .try_play(mv)
                .err()
                .unwrap_or(IllegalMove::new(mv))),
        }
    }

    /// The same public history with the opponent's setup drawn again,
    /// uniformly among those consistent with what `player` has observed.
    fn redeal<R: Rng + ?Sized>(&self, player: Player, rng: &mut R) -> Referee {
        let theirs = self.information_set(player).sample_layout(rng);
        let mut layouts = self.layouts;
        layouts[player.opponent().index()] = theirs;
        let mut referee =
            Referee::new(self.rules, layouts).expect("the rules and setups were accepted before");
        for observation in &self.log {
            referee
                .play(observation.mv)
                .expect("a consistent setup allows every public move");
        }
        debug_assert_eq!(referee.log, self.log, "a consistent setup replays the log");
        referee
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    //! A referee serializes as its rules, both setups and the moves played.

    use super::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    struct RefereeRepr {
        rules: HiddenRules,
        layouts: [Layout; 2],
        moves: Vec<Move>,
    }

    impl serde::Serialize for Referee {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            RefereeRepr {
                rules: self.rules,
                layouts: self.layouts,
                moves: self.log.iter().map(|observation| observation.mv).collect(),
            }
            .serialize(serializer)
        }
    }

    impl<'de> serde::Deserialize<'de> for Referee {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let repr = RefereeRepr::deserialize(deserializer)?;
            let mut referee =
                Referee::new(repr.rules, repr.layouts).map_err(serde::de::Error::custom)?;
            for mv in repr.moves {
                referee.play(mv).map_err(serde::de::Error::custom)?;
            }
            Ok(referee)
        }
    }
}
