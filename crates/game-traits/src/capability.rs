//! Capabilities a game opts into, each a small trait of its own.

use std::fmt::Debug;

use rand::Rng;

use crate::{Game, Player};

/// A fixed, dense numbering of every move the game can ever have.
///
/// Searchers use it for per-action tables: AMAF statistics (RAVE) and policy
/// vectors (AlphaZero). The index of a move must not depend on the position.
pub trait ActionSpace: Game {
    /// The number of actions; every index is in `0..num_actions()`.
    fn num_actions(&self) -> usize;

    /// The index of `mv`, in `0..num_actions()`. Distinct moves have
    /// distinct indices.
    fn action_index(&self, mv: Self::Move) -> usize;

    /// The move with index `index`, or `None` if `index` names no move.
    /// Inverts [`action_index`](ActionSpace::action_index).
    fn action(&self, index: usize) -> Option<Self::Move>;
}

/// A 64-bit hash of the position (Zobrist or equally strong), kept up to
/// date incrementally, for transposition tables and repetition detection.
///
/// Two positions that are the same for the rules (same pieces, same player
/// to move, same rule state) must hash the same, however they were reached.
pub trait PositionHash: Game {
    /// The hash of this position.
    fn position_hash(&self) -> u64;
}

/// The same position with the two players' roles swapped.
///
/// Othello swaps the discs, Gomoku the stones, Jungle rotates the board by
/// 180 degrees and swaps the sides. A flipped position has the other player
/// to move, the mirrored legal moves, the flipped outcome, and the same value
/// for the player to move. It is what makes perspective bugs testable.
pub trait ColorFlip: Game {
    /// The position with the players' roles swapped. Flipping twice gives
    /// the original position back.
    #[must_use]
    fn color_flipped(&self) -> Self;

    /// The move of the flipped position that corresponds to `mv` of this
    /// one. Applying it twice gives `mv` back.
    fn flip_move(mv: Self::Move) -> Self::Move;
}

/// What one player knows of a game with hidden information, and the
/// perfect-information worlds consistent with it.
///
/// A determinizing searcher (such as PIMC) samples worlds, searches each as a
/// perfect-information [`Game`], and combines the results. The moves of this
/// player are moves of every consistent world.
pub trait InformationSet: Clone + Send + Sync + Debug + 'static {
    /// A perfect-information game: one way the hidden part could be.
    type World: Game;

    /// The player whose knowledge this is.
    fn player(&self) -> Player;

    /// The player whose turn it is.
    fn to_move(&self) -> Player;

    /// Clears `out`, then pushes the legal moves of the player to move, as
    /// far as this player can tell. When it is this player's turn, these are
    /// the legal moves of every consistent world.
    fn legal_moves(&self, out: &mut Vec<<Self::World as Game>::Move>);

    /// A world drawn at random among those consistent with everything
    /// this player has observed.
    fn sample_world<R: Rng + ?Sized>(&self, rng: &mut R) -> Self::World;

    /// What `mv`, played by the player to move in `world` (a world
    /// consistent with this information set or reached from one), looks
    /// like to this set's player: a representative move standing for every
    /// move that player cannot tell apart from `mv`.
    ///
    /// An information-set tree search merges an opponent's moves that look
    /// the same into one node. Two moves of one position must map to the
    /// same representative exactly when this player cannot tell them apart,
    /// and a move this player sees in full maps to itself. The default, for
    /// games where every move is seen as played, is `mv` itself.
    fn observed_move(
        &self,
        world: &Self::World,
        mv: <Self::World as Game>::Move,
    ) -> <Self::World as Game>::Move {
        let _ = world;
        mv
    }
}
