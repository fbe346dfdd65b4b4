//! The two players and the result of a finished game.

use std::fmt;

/// One of the two players of a two-player game.
///
/// `First` is the player who moves first from the usual start position
/// (Black in Othello, Black/`x` in Gomoku and tic-tac-toe, the side written
/// `w` in Jungle's position string). Games decide who moves next through
/// [`Game::to_move`](crate::Game::to_move); nothing assumes that players
/// alternate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Player {
    /// The player who moves first from the start position.
    First,
    /// The other player.
    Second,
}

impl Player {
    /// Both players, `First` then `Second`.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];

    /// The other player.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// `0` for `First`, `1` for `Second`: an index into per-player arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        match self {
            Player::First => 0,
            Player::Second => 1,
        }
    }

    /// `+1.0` for `First`, `-1.0` for `Second`: turns a value from `First`'s
    /// point of view into this player's point of view and back.
    #[inline]
    #[must_use]
    pub const fn sign(self) -> f32 {
        match self {
            Player::First => 1.0,
            Player::Second => -1.0,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "first",
            Player::Second => "second",
        })
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Outcome {
    /// The given player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The reward of `player`: `1.0` for a win, `0.0` for a draw, `-1.0` for
    /// a loss. Rewards of the two players always sum to zero.
    #[inline]
    #[must_use]
    pub fn reward(self, player: Player) -> f32 {
        match self {
            Outcome::Win(winner) if winner == player => 1.0,
            Outcome::Win(_) => -1.0,
            Outcome::Draw => 0.0,
        }
    }

    /// The winner, if any.
    #[inline]
    #[must_use]
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(winner) => Some(winner),
            Outcome::Draw => None,
        }
    }

    /// The same result with the two players' roles swapped (what
    /// [`ColorFlip`](crate::ColorFlip) does to a finished game).
    #[inline]
    #[must_use]
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Win(winner) => Outcome::Win(winner.opponent()),
            Outcome::Draw => Outcome::Draw,
        }
    }

    /// The outcome in which `player` receives `reward`: positive is a win,
    /// negative a loss, zero a draw.
    #[must_use]
    pub fn from_reward(player: Player, reward: f32) -> Outcome {
        if reward > 0.0 {
            Outcome::Win(player)
        } else if reward < 0.0 {
            Outcome::Win(player.opponent())
        } else {
            Outcome::Draw
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(player) => write!(f, "{player} player wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_are_zero_sum_and_signed() {
        for outcome in [
            Outcome::Win(Player::First),
            Outcome::Win(Player::Second),
            Outcome::Draw,
        ] {
            assert_eq!(
                outcome.reward(Player::First) + outcome.reward(Player::Second),
                0.0
            );
            assert_eq!(outcome.flipped().flipped(), outcome);
            for player in Player::BOTH {
                assert_eq!(
                    Outcome::from_reward(player, outcome.reward(player)),
                    outcome
                );
            }
        }
        assert_eq!(Outcome::Win(Player::Second).reward(Player::Second), 1.0);
        assert_eq!(Outcome::Win(Player::Second).reward(Player::First), -1.0);
    }

    #[test]
    fn opponent_and_sign() {
        assert_eq!(Player::First.opponent(), Player::Second);
        assert_eq!(Player::Second.opponent(), Player::First);
        assert_eq!(Player::Second.sign(), -1.0);
        assert_eq!(Player::Second.index(), 1);
    }
}
