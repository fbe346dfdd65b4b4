//! The rule switches (spec section 8) and the capture rule (section 5).

use std::fmt;

use game_traits::Player;

use crate::animal::Animal;
use crate::board::{ALL_TRAPS, TRAPS, WATER};

/// What happens to an attack that the capture rule rejects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum FailedAttack {
    /// The attack is not a legal move (standard rules).
    #[default]
    Illegal,
    /// The attack is legal and removes the attacker (Hidden Jungle default).
    AttackerDies,
    /// The attack is legal and nothing moves; the turn passes.
    Bounce,
}

impl FailedAttack {
    /// The name used in the rules text: `illegal`, `attacker_dies`, `bounce`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            FailedAttack::Illegal => "illegal",
            FailedAttack::AttackerDies => "attacker_dies",
            FailedAttack::Bounce => "bounce",
        }
    }
}

/// The rules of a game: the standard rules by default, with every variant
/// switch of the rules text (section 8) and the draw rules (section 6.4).
///
/// ```
/// use dou_shou_qi::{FailedAttack, Rules};
///
/// let mut rules = Rules::default();
/// assert_eq!(rules.no_capture_limit, 100);
/// rules.apply_switch("failed_attack", "bounce")?;
/// rules.apply_switch("dog_over_wolf", "1")?;
/// assert_eq!(rules.failed_attack, FailedAttack::Bounce);
/// assert!(rules.dog_over_wolf);
/// # Ok::<(), dou_shou_qi::RulesError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Rules {
    /// Dog ranks 4 and wolf 3 (default: wolf 4, dog 3).
    pub dog_over_wolf: bool,
    /// Equal ranks (no trap weakening) remove both pieces, rat against rat
    /// included (default: the attacker captures and survives).
    pub equal_rank_mutual_capture: bool,
    /// The elephant may take the rat (the rat still takes the elephant).
    pub elephant_captures_rat: bool,
    /// Rat against rat captures are allowed between water and land, both
    /// ways. A rat in water still cannot take an elephant on land.
    pub rat_capture_across_bank: bool,
    /// Every trap weakens every piece on it, own pieces included (default:
    /// only the opponent's traps weaken a piece).
    pub traps_any_side: bool,
    /// A piece on a trap that weakens it also attacks with rank 0.
    pub trap_attacker_zero: bool,
    /// What a rejected capture attempt does.
    pub failed_attack: FailedAttack,
    /// The game is drawn when this many plies pass without a removal
    /// (0: never). Default 100.
    pub no_capture_limit: u16,
    /// The game is drawn when the same board with the same side to move
    /// occurs for the third time (default on). Only positions played since
    /// the position was set up count.
    pub repetition_draw: bool,
    /// The game is drawn once the ply count (from the move number of the
    /// position string) reaches this (0: no cap, the default).
    pub max_plies: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::standard()
    }
}

impl Rules {
    /// The standard rules of the rules text, with the draw rules of play:
    /// 100 plies without capture, threefold repetition.
    #[must_use]
    pub const fn standard() -> Rules {
        Rules {
            dog_over_wolf: false,
            equal_rank_mutual_capture: false,
            elephant_captures_rat: false,
            rat_capture_across_bank: false,
            traps_any_side: false,
            trap_attacker_zero: false,
            failed_attack: FailedAttack::Illegal,
            no_capture_limit: 100,
            repetition_draw: true,
            max_plies: 0,
        }
    }

    /// These rules without any draw rule (no clock limit, no repetition, no
    /// cap), as perft counts them.
    #[must_use]
    pub const fn without_draws(self) -> Rules {
        Rules {
            no_capture_limit: 0,
            repetition_draw: false,
            max_plies: 0,
            ..self
        }
    }

    /// The rules of the perfect-information game inside a Hidden Jungle
    /// world with its default rule set: the standard rules plus
    /// `equal_rank_mutual_capture` and `failed_attack = attacker_dies`.
    #[must_use]
    pub const fn hidden_default() -> Rules {
        Rules {
            equal_rank_mutual_capture: true,
            failed_attack: FailedAttack::AttackerDies,
            ..Rules::standard()
        }
    }

    /// The rank of `animal` under these rules (1 to 8).
    #[inline]
    #[must_use]
    pub const fn rank(&self, animal: Animal) -> u8 {
        match animal {
            Animal::Dog if self.dog_over_wolf => 4,
            Animal::Wolf if self.dog_over_wolf => 3,
            _ => animal as u8 + 1,
        }
    }

    /// Sets the switch `name` (as written in the rules text, e.g.
    /// `dog_over_wolf`) from its text value (`1`/`0`, `true`/`false`, a
    /// number, or `illegal`/`attacker_dies`/`bounce`).
    ///
    /// # Errors
    ///
    /// [`RulesError::UnknownSwitch`] for a name that is not a switch,
    /// [`RulesError::BadValue`] for a value that does not fit it.
    pub fn apply_switch(&mut self, name: &str, value: &str) -> Result<(), RulesError> {
        let bad = || RulesError::BadValue {
            switch: name.to_string(),
            value: value.to_string(),
        };
        let flag = || match value {
            "1" | "true" | "on" => Ok(true),
            "0" | "false" | "off" => Ok(false),
            _ => Err(bad()),
        };
        match name {
            "dog_over_wolf" => self.dog_over_wolf = flag()?,
            "equal_rank_mutual_capture" => self.equal_rank_mutual_capture = flag()?,
            "elephant_captures_rat" => self.elephant_captures_rat = flag()?,
            "rat_capture_across_bank" => self.rat_capture_across_bank = flag()?,
            "traps_any_side" => self.traps_any_side = flag()?,
            "trap_attacker_zero" => self.trap_attacker_zero = flag()?,
            "repetition_draw" => self.repetition_draw = flag()?,
            "failed_attack" => {
                self.failed_attack = match value {
                    "illegal" => FailedAttack::Illegal,
                    "attacker_dies" => FailedAttack::AttackerDies,
                    "bounce" => FailedAttack::Bounce,
                    _ => return Err(bad()),
                }
            }
            "no_capture_limit" => self.no_capture_limit = value.parse().map_err(|_| bad())?,
            "max_plies" => self.max_plies = value.parse().map_err(|_| bad())?,
            _ => {
                return Err(RulesError::UnknownSwitch {
                    switch: name.to_string(),
                });
            }
        }
        Ok(())
    }

    /// Whether the defender on `to` is weakened to rank 0 when attacked by
    /// `attacker_side`: it stands on one of the attacker's traps (or on any
    /// trap with `traps_any_side`).
    #[inline]
    pub(crate) const fn defender_weakened(&self, attacker_side: Player, to: u8) -> bool {
        let traps = if self.traps_any_side {
            ALL_TRAPS
        } else {
            TRAPS[attacker_side.index()]
        };
        traps & (1 << to) != 0
    }

    /// Whether an attacker of `attacker_side` on `from` attacks with rank 0
    /// (`trap_attacker_zero` and it stands on a trap that weakens it).
    #[inline]
    pub(crate) const fn attacker_weakened(&self, attacker_side: Player, from: u8) -> bool {
        if !self.trap_attacker_zero {
            return false;
        }
        let traps = if self.traps_any_side {
            ALL_TRAPS
        } else {
            TRAPS[attacker_side.opponent().index()]
        };
        traps & (1 << from) != 0
    }

    /// The result of `attacker` (of `attacker_side`, on `from`) attacking
    /// `defender` on the adjacent-or-jump square `to`: the capture rule of
    /// section 5, checked in its order. `None` when the attack crosses the
    /// water/land boundary, which is never legal (rule 5.1).
    #[inline]
    #[must_use]
    pub(crate) const fn fight(
        &self,
        attacker_side: Player,
        attacker: Animal,
        from: u8,
        defender: Animal,
        to: u8,
    ) -> Option<Fight> {
        let from_water = WATER & (1 << from) != 0;
        let to_water = WATER & (1 << to) != 0;
        if from_water != to_water
            && !(self.rat_capture_across_bank
                && matches!(attacker, Animal::Rat)
                && matches!(defender, Animal::Rat))
        {
            return None;
        }
        if self.defender_weakened(attacker_side, to) {
            return Some(Fight::AttackerWins);
        }
        if matches!(attacker, Animal::Rat) && matches!(defender, Animal::Elephant) {
            return Some(Fight::AttackerWins);
        }
        if matches!(attacker, Animal::Elephant)
            && matches!(defender, Animal::Rat)
            && !self.elephant_captures_rat
        {
            return Some(Fight::DefenderWins);
        }
        let attack = if self.attacker_weakened(attacker_side, from) {
            0
        } else {
            self.rank(attacker)
        };
        let defence = self.rank(defender);
        Some(if attack > defence {
            Fight::AttackerWins
        } else if attack == defence {
            if self.equal_rank_mutual_capture {
                Fight::BothRemoved
            } else {
                Fight::AttackerWins
            }
        } else {
            Fight::DefenderWins
        })
    }

    /// The result of `attacker` (of `attacker_side`, on `from`) attacking
    /// `defender` on `to`, by the capture rule of section 5 checked in its
    /// order: water boundary, trap, rat against elephant, elephant against
    /// rat, ranks. `None` when the attack crosses the water's edge, which is
    /// never legal (rule 5.1); a [`Fight::DefenderWins`] attack is legal
    /// only when `failed_attack` is not `illegal`.
    ///
    /// ```
    /// use game_traits::Player;
    /// use dou_shou_qi::{Animal, Fight, Rules, Square};
    ///
    /// let rules = Rules::default();
    /// let c1: Square = "c1".parse()?;
    /// let c2: Square = "c2".parse()?;
    /// // An enemy rat in the first player's trap c1 has rank 0.
    /// let result = rules.resolve_attack(Player::First, Animal::Elephant, c2, Animal::Rat, c1);
    /// assert_eq!(result, Some(Fight::AttackerWins));
    /// # Ok::<(), dou_shou_qi::ParseSquareError>(())
    /// ```
    #[must_use]
    pub fn resolve_attack(
        &self,
        attacker_side: Player,
        attacker: Animal,
        from: crate::Square,
        defender: Animal,
        to: crate::Square,
    ) -> Option<Fight> {
        self.fight(attacker_side, attacker, from.index(), defender, to.index())
    }
}

/// How an attack ends (spec section 5 and, for Hidden Jungle, 9.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Fight {
    /// The defender is removed and the attacker takes its square.
    AttackerWins,
    /// The attack fails: the [`FailedAttack`] policy applies.
    DefenderWins,
    /// Both pieces are removed (`equal_rank_mutual_capture`).
    BothRemoved,
}

impl fmt::Display for Rules {
    /// The switches that differ from the standard rules, as
    /// `name=value` pairs separated by commas (`standard` if none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let standard = Rules::standard();
        let mut parts = Vec::new();
        let flags = [
            ("dog_over_wolf", self.dog_over_wolf),
            ("equal_rank_mutual_capture", self.equal_rank_mutual_capture),
            ("elephant_captures_rat", self.elephant_captures_rat),
            ("rat_capture_across_bank", self.rat_capture_across_bank),
            ("traps_any_side", self.traps_any_side),
            ("trap_attacker_zero", self.trap_attacker_zero),
        ];
        for (name, on) in flags {
            if on {
                parts.push(format!("{name}=1"));
            }
        }
        if self.failed_attack != standard.failed_attack {
            parts.push(format!("failed_attack={}", self.failed_attack.name()));
        }
        if self.no_capture_limit != standard.no_capture_limit {
            parts.push(format!("no_capture_limit={}", self.no_capture_limit));
        }
        if self.repetition_draw != standard.repetition_draw {
            parts.push(format!(
                "repetition_draw={}",
                u8::from(self.repetition_draw)
            ));
        }
        if self.max_plies != standard.max_plies {
            parts.push(format!("max_plies={}", self.max_plies));
        }
        if parts.is_empty() {
            f.write_str("standard")
        } else {
            f.write_str(&parts.join(","))
        }
    }
}

/// A rule switch that could not be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// No switch has this name.
    #[error("unknown rule switch {switch:?}")]
    UnknownSwitch {
        /// The name given.
        switch: String,
    },
    /// The value does not fit the switch.
    #[error("value {value:?} does not fit the rule switch {switch}")]
    BadValue {
        /// The switch.
        switch: String,
        /// The value given.
        value: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    fn square(name: &str) -> u8 {
        name.parse::<Square>().unwrap().index()
    }

    #[test]
    fn capture_order_of_section_five() {
        let rules = Rules::standard();
        let first = Player::First;
        // Equal ranks: the attacker captures.
        assert_eq!(
            rules.fight(
                first,
                Animal::Lion,
                square("d4"),
                Animal::Lion,
                square("d5")
            ),
            Some(Fight::AttackerWins)
        );
        // Elephant never takes the rat outside a trap...
        assert_eq!(
            rules.fight(
                first,
                Animal::Elephant,
                square("d4"),
                Animal::Rat,
                square("d5")
            ),
            Some(Fight::DefenderWins)
        );
        // ...but the trap comes first.
        assert_eq!(
            rules.fight(
                first,
                Animal::Elephant,
                square("c2"),
                Animal::Rat,
                square("c1")
            ),
            Some(Fight::AttackerWins)
        );
        // A rat in water takes nothing on land, not even a rat.
        assert_eq!(
            rules.fight(
                first,
                Animal::Rat,
                square("b4"),
                Animal::Elephant,
                square("a4")
            ),
            None
        );
        assert_eq!(
            rules.fight(first, Animal::Rat, square("a4"), Animal::Rat, square("b4")),
            None
        );
        // A piece in its own trap keeps its rank.
        assert_eq!(
            rules.fight(
                Player::Second,
                Animal::Rat,
                square("d3"),
                Animal::Cat,
                square("d2")
            ),
            Some(Fight::DefenderWins)
        );
        let mut mutual = rules;
        mutual.equal_rank_mutual_capture = true;
        assert_eq!(
            mutual.fight(first, Animal::Rat, square("b4"), Animal::Rat, square("b5")),
            Some(Fight::BothRemoved)
        );
    }

    #[test]
    fn switches_parse_and_print() {
        let mut rules = Rules::standard();
        assert_eq!(rules.to_string(), "standard");
        rules.apply_switch("trap_attacker_zero", "1").unwrap();
        rules
            .apply_switch("failed_attack", "attacker_dies")
            .unwrap();
        assert_eq!(
            rules.to_string(),
            "trap_attacker_zero=1,failed_attack=attacker_dies"
        );
        assert!(matches!(
            rules.apply_switch("wolf_over_dog", "1"),
            Err(RulesError::UnknownSwitch { .. })
        ));
        assert!(matches!(
            rules.apply_switch("failed_attack", "explode"),
            Err(RulesError::BadValue { .. })
        ));
    }
}
