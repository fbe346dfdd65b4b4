//! The [`Game`] trait: the rules of a two-player, perfect-information game.

use std::fmt::Debug;
use std::hash::Hash;

use crate::{Outcome, Player};

/// The rules of a two-player, zero-sum, perfect-information game, seen from
/// one position.
///
/// A value of the implementing type *is* a position (with whatever history
/// the rules need, such as a repetition count). Searchers clone it and play
/// moves on the clone (copy-make), so keep it small and cheap to clone.
/// Never derive `Copy` on it: a silent copy of a position is a bug waiting
/// to happen.
///
/// # Contract
///
/// * [`legal_moves`](Game::legal_moves) is empty exactly when
///   [`outcome`](Game::outcome) is `Some`, and never holds a move twice.
/// * A *pass* is a real move, listed by `legal_moves` when the rules force
///   it; turns never change implicitly. Searchers read
///   [`to_move`](Game::to_move) at every node and never assume that players
///   alternate.
/// * [`play`](Game::play) is the fast path for moves known to be legal;
///   [`try_play`](Game::try_play) is the checked door for input that may be
///   wrong and leaves the position unchanged when it refuses a move.
///
/// The `testing` feature's `testing::Invariants`
/// checks all of this (and more) on random games.
///
/// # Example
///
/// A counting game: players alternately add 1 or 2 to a running total, and
/// whoever reaches 10 wins.
///
/// ```
/// use game_traits::{Game, Outcome, Player};
///
/// #[derive(Clone, Debug)]
/// struct CountToTen { total: u8, to_move: Player }
///
/// impl Game for CountToTen {
///     type Move = u8;
///     fn to_move(&self) -> Player { self.to_move }
///     fn legal_moves(&self, out: &mut Vec<u8>) {
///         out.clear();
///         if self.total < 10 {
///             out.extend((1..=2).filter(|step| self.total + step <= 10));
///         }
///     }
///     fn play(&mut self, step: u8) {
///         debug_assert!(self.is_legal(step));
///         self.total += step;
///         self.to_move = self.to_move.opponent();
///     }
///     fn outcome(&self) -> Option<Outcome> {
///         // The player who reached 10 is the one who just moved.
///         (self.total == 10).then(|| Outcome::Win(self.to_move.opponent()))
///     }
/// }
///
/// let mut game = CountToTen { total: 8, to_move: Player::First };
/// assert!(game.try_play(3).is_err());
/// game.try_play(2)?;
/// assert_eq!(game.outcome(), Some(Outcome::Win(Player::First)));
/// # Ok::<(), game_traits::IllegalMove<u8>>(())
/// ```
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// A move: a small `Copy` value (a square, a from-to pair, an action
    /// index), including `pass` where the rules have one.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// The player whose turn it is. At a finished position, whoever would
    /// have moved next.
    fn to_move(&self) -> Player;

    /// Clears `out`, then pushes every legal move once. `out` ends up empty
    /// exactly when the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// Plays `mv`, which must be legal here (checked only by
    /// `debug_assert!`). Use [`try_play`](Game::try_play) for moves that
    /// come from outside the program.
    fn play(&mut self, mv: Self::Move);

    /// The result, once the game is over; `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether `mv` is legal here. The default generates the move list;
    /// games override it with something faster.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    ///
    /// Returns [`IllegalMove`] (handing the move back) when `mv` is not
    /// legal here; the position is then unchanged.
    fn try_play(&mut self, mv: Self::Move) -> Result<(), IllegalMove<Self::Move>> {
        if self.is_legal(mv) {
            self.play(mv);
            Ok(())
        } else {
            Err(IllegalMove {
                mv,
                game_over: self.outcome().is_some(),
            })
        }
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
}

/// A move that is not legal in the position it was offered to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv:?}{}", if *.game_over { " (the game is over)" } else { "" })]
#[non_exhaustive]
pub struct IllegalMove<M: Debug> {
    /// The move that was refused.
    pub mv: M,
    /// Whether it was refused because the game had already ended.
    pub game_over: bool,
}

impl<M: Debug> IllegalMove<M> {
    /// An error for `mv`, offered to a game that is still going on.
    pub fn new(mv: M) -> Self {
        IllegalMove {
            mv,
            game_over: false,
        }
    }
}
