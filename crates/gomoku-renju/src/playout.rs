//! Playout policies: threat-aware, and uniformly random among the focused
//! cells. Both play whole playouts in their own loop (no move lists).

use game_traits::{Game, Outcome, Player, Playout};
use rand::{Rng, RngExt};

use crate::bits::Bits;
use crate::{Focused, Gomoku, Move, Rule};

/// A Gomoku position as a [`Game`]: [`Gomoku`] itself or its [`Focused`]
/// view. Playouts, evaluators and the tactical searcher work on both.
pub trait GomokuGame: Game<Move = Move> + AsRef<Gomoku> {}

impl GomokuGame for Gomoku {}
impl GomokuGame for Focused {}

/// The threat-aware playout policy. At each ply, for the player to move:
///
/// 1. **win now**: complete a five if there is one;
/// 2. **block a five**: otherwise take the opponent's five cell (their
///    four must be stopped);
/// 3. **make a four that wins**: otherwise make a straight four or two
///    fours at once, if possible;
/// 4. **block a four before it is made** (answer an open three): otherwise,
///    if the opponent could make such a four, take one of those cells or
///    make a four of one's own, at random;
/// 5. otherwise a uniformly random focused cell (within two steps of a
///    stone, [`Gomoku::focus_moves`]).
///
/// Ties within a step are broken at random. Every choice is legal (under
/// renju Black never picks a forbidden cell, and passes only when it must),
/// and every choice is a focused cell, so the policy serves both
/// [`Gomoku`] and [`Focused`]. The threat sets it reads are kept by the
/// board, so a ply costs a few bitset tests plus the stone's update.
///
/// `play_out` runs its own loop without building move lists, reporting
/// every move (for RAVE's AMAF statistics).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ThreatPlayout;

/// Uniformly random focused cells ([`Gomoku::focus_moves`]), with the fast
/// playout loop: the baseline for [`ThreatPlayout`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FocusedPlayout;

/// A uniformly random cell of `bits` that the player to move may play
/// (removing forbidden ones as they are drawn), if any.
#[inline]
fn random_playable<R: Rng + ?Sized>(game: &Gomoku, mut bits: Bits, rng: &mut R) -> Option<usize> {
    let restricted = game.rule() == Rule::Renju && game.side() == Player::First;
    loop {
        let count = bits.len();
        if count == 0 {
            return None;
        }
        let index = bits.nth(rng.random_range(..count))?;
        if !restricted || game.forbidden_at(index).is_none() {
            return Some(index);
        }
        bits.remove(index);
    }
}

/// A uniformly random focused cell, or the pass if Black must pass.
#[inline]
fn random_focused<R: Rng + ?Sized>(game: &Gomoku, rng: &mut R) -> Move {
    let size = game.size();
    if let Some(index) = random_playable(game, game.near_cells(), rng) {
        return Move::from_index(index, size);
    }
    // No near cell is playable: any focused cell (the fallback set).
    match random_playable(game, game.focus_bits(), rng) {
        Some(index) => Move::from_index(index, size),
        None => Move::PASS,
    }
}

impl ThreatPlayout {
    /// The policy's move in `game` (which must not be over).
    pub fn pick<R: Rng + ?Sized>(&self, game: &Gomoku, rng: &mut R) -> Move {
        debug_assert!(!game.finished());
        let size = game.size();
        let me = game.side().index();
        let opponent = 1 - me;
        // A five is never forbidden.
        if let Some(index) = game.five_bits(me).first_index() {
            return Move::from_index(index, size);
        }
        let threatened = game.five_bits(opponent);
        if !threatened.is_empty() {
            if let Some(index) = random_playable(game, *threatened, rng) {
                return Move::from_index(index, size);
            }
            return random_focused(game, rng);
        }
        if let Some(index) = random_playable(game, *game.open_four_bits(me), rng) {
            return Move::from_index(index, size);
        }
        let opponent_open_fours = game.open_four_bits(opponent);
        if !opponent_open_fours.is_empty() {
            let answers = opponent_open_fours.or(game.four_bits(me));
            if let Some(index) = random_playable(game, answers, rng) {
                return Move::from_index(index, size);
            }
        }
        random_focused(game, rng)
    }
}

/// The playout loop shared by the policies.
fn run<G, R, F>(
    state: &mut G,
    rng: &mut R,
    max_plies: usize,
    mut on_move: F,
    pick: impl Fn(&Gomoku, &mut R) -> Move,
) -> (Option<Outcome>, usize)
where
    G: GomokuGame,
    R: Rng + ?Sized,
    F: FnMut(Player, Move),
{
    for ply in 0..max_plies {
        let game = state.as_ref();
        if let Some(outcome) = game.result() {
            return (Some(outcome), ply);
        }
        let mover = game.side();
        let mv = pick(game, rng);
        on_move(mover, mv);
        state.play(mv);
    }
    (state.outcome(), max_plies)
}

impl<G: GomokuGame> Playout<G> for ThreatPlayout {
    fn choose<R: Rng + ?Sized>(&mut self, state: &G, moves: &[Move], rng: &mut R) -> Move {
        let mv = self.pick(state.as_ref(), rng);
        debug_assert!(moves.contains(&mv), "{mv} is not among {moves:?}");
        mv
    }

    fn play_out<R, F>(
        &mut self,
        state: &mut G,
        rng: &mut R,
        _moves: &mut Vec<Move>,
        max_plies: usize,
        on_move: F,
    ) -> (Option<Outcome>, usize)
    where
        R: Rng + ?Sized,
        F: FnMut(Player, Move),
    {
        let policy = *self;
        run(state, rng, max_plies, on_move, |game, rng| {
            policy.pick(game, rng)
        })
    }
}

impl<G: GomokuGame> Playout<G> for FocusedPlayout {
    fn choose<R: Rng + ?Sized>(&mut self, state: &G, moves: &[Move], rng: &mut R) -> Move {
        let mv = random_focused(state.as_ref(), rng);
        debug_assert!(moves.contains(&mv), "{mv} is not among {moves:?}");
        mv
    }

    fn play_out<R, F>(
        &mut self,
        state: &mut G,
        rng: &mut R,
        _moves: &mut Vec<Move>,
        max_plies: usize,
        on_move: F,
    ) -> (Option<Outcome>, usize)
    where
        R: Rng + ?Sized,
        F: FnMut(Player, Move),
    {
        run(state, rng, max_plies, on_move, |game, rng| {
            random_focused(game, rng)
        })
    }
}
