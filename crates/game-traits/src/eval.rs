//! Engine knowledge: evaluators, policy evaluators and playout policies.

use std::marker::PhantomData;
use std::sync::Arc;

use rand::{Rng, RngExt};

use crate::{Batch, Game, Outcome, Player};

/// A static evaluation of a position.
///
/// The value is in `[-1, 1]` from the point of view of the player to move
/// in `state` (`+1` a sure win, `-1` a sure loss). At a finished position it
/// should agree in sign with the outcome (the harness checks this).
///
/// Every searcher of the workspace passes what an evaluator returns through
/// [`contain_value`]: values outside `[-1, 1]` (infinities included) are
/// clamped and NaN counts as `0.0`, so a faulty evaluator can make a search
/// weak but never makes it panic or report NaN.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The value of `state` for the player to move there.
    fn value(&self, state: &G) -> f32;

    /// Fills in the value of every entry of `batch` (its logits are left
    /// alone). The default calls [`value`](Evaluator::value) on each entry
    /// in turn; an evaluator that is cheaper per position on many at once
    /// overrides it, and the searchers that collect leaves in batches get
    /// the speed. Each entry's value must be the one `value` gives it
    /// alone.
    fn value_many(&self, batch: &mut Batch<G>) {
        for entry in batch.entries_mut() {
            *entry.value = self.value(entry.state);
        }
    }
}

/// An evaluation that also rates each legal move, as an AlphaZero-style
/// network does.
///
/// Searchers contain the value with [`contain_value`] and the logits with
/// [`contain_logits`].
pub trait PolicyEvaluator<G: Game>: Send + Sync {
    /// Writes one logit per move of `moves` into `logits` (same order, same
    /// length) and returns the value of `state` for the player to move, in
    /// `[-1, 1]`. Logits are unnormalised log-probabilities: only their
    /// differences matter.
    fn evaluate(&self, state: &G, moves: &[G::Move], logits: &mut [f32]) -> f32;

    /// Fills in the value and the logits of every entry of `batch`. The
    /// default calls [`evaluate`](PolicyEvaluator::evaluate) on each entry
    /// in turn; an evaluator that is cheaper per position on many at once
    /// (a neural network) overrides it. Every `PolicyEvaluator` is a
    /// [`BatchEvaluator`](crate::BatchEvaluator) through this method, so
    /// the searchers that evaluate batches get the speed.
    ///
    /// Each entry's result must be the one
    /// [`evaluate`](PolicyEvaluator::evaluate) gives it alone (see
    /// [`BatchEvaluator`](crate::BatchEvaluator)).
    fn evaluate_many(&self, batch: &mut Batch<G>) {
        for entry in batch.entries_mut() {
            *entry.value = self.evaluate(entry.state, entry.moves, entry.logits);
        }
    }
}

/// A rule for picking moves during a random playout.
///
/// Implementations are cheap to clone, so multithreaded searchers give each
/// thread its own copy.
///
/// # Writing one
///
/// [`choose`](Playout::choose) is all a playout must write; the searcher
/// owns the random generator and passes it in. `rand` is re-exported as
/// [`game_traits::rand`](crate::rand), and `random_range` comes from its
/// `RngExt` trait. The playout then goes into any searcher that plays out,
/// here MCTS (`Mcts::new(MctsKnowledge::uct().with_playout(WinFirst), config)?` in `mcts-rave`):
///
/// ```
/// use game_traits::rand::{Rng, RngExt, SeedableRng};
/// use game_traits::testing::TicTacToe;
/// use game_traits::{Game, Playout};
///
/// /// Takes a move that wins at once when there is one, else any move.
/// #[derive(Clone, Copy, Debug, Default)]
/// struct WinFirst;
///
/// impl Playout<TicTacToe> for WinFirst {
///     fn choose<R: Rng + ?Sized>(&mut self, state: &TicTacToe, moves: &[u8], rng: &mut R) -> u8 {
///         let player = state.to_move();
///         let wins = |&mv: &u8| {
///             let mut next = state.clone();
///             next.play(mv);
///             next.outcome().is_some_and(|outcome| outcome.reward(player) == 1.0)
///         };
///         match moves.iter().copied().find(wins) {
///             Some(win) => win,
///             None => moves[rng.random_range(..moves.len())],
///         }
///     }
/// }
///
/// // X has 0 and 1: the playout completes the row at once.
/// let mut state = TicTacToe::from_moves(&[0, 3, 1, 4]).unwrap();
/// let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
/// let (outcome, plies) = WinFirst.play_out(&mut state, &mut rng, &mut Vec::new(), 9, |_, _| {});
/// assert_eq!(plies, 1);
/// assert_eq!(outcome.map(|outcome| outcome.reward(game_traits::Player::First)), Some(1.0));
/// ```
///
/// A game with a faster way to play out overrides
/// [`play_out`](Playout::play_out) as well.
pub trait Playout<G: Game> {
    /// Picks one of `moves` (never empty; the legal moves of `state`).
    fn choose<R: Rng + ?Sized>(&mut self, state: &G, moves: &[G::Move], rng: &mut R) -> G::Move;

    /// Plays `state` on to the end of the game, at most `max_plies` plies,
    /// calling `on_move(mover, mv)` for every move played (searchers use it
    /// for AMAF statistics), and returns the outcome (`None` if the ply
    /// limit came first) and the number of plies played. `moves` is a
    /// scratch buffer.
    ///
    /// The default repeats `legal_moves`, [`choose`](Playout::choose) and
    /// `play`. A game with a faster way to play out (say, picking a random
    /// bit of a mobility bitboard) overrides it in its own playout type, and
    /// every searcher that calls `play_out` gets the speed.
    fn play_out<R, F>(
        &mut self,
        state: &mut G,
        rng: &mut R,
        moves: &mut Vec<G::Move>,
        max_plies: usize,
        mut on_move: F,
    ) -> (Option<Outcome>, usize)
    where
        R: Rng + ?Sized,
        F: FnMut(Player, G::Move),
    {
        for ply in 0..max_plies {
            state.legal_moves(moves);
            if moves.is_empty() {
                return (state.outcome(), ply);
            }
            let mv = self.choose(state, moves, rng);
            on_move(state.to_move(), mv);
            state.play(mv);
        }
        (state.outcome(), max_plies)
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for &E {
    fn value(&self, state: &G) -> f32 {
        (**self).value(state)
    }

    fn value_many(&self, batch: &mut Batch<G>) {
        (**self).value_many(batch);
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Box<E> {
    fn value(&self, state: &G) -> f32 {
        (**self).value(state)
    }

    fn value_many(&self, batch: &mut Batch<G>) {
        (**self).value_many(batch);
    }
}

impl<G: Game, E: Evaluator<G> + ?Sized> Evaluator<G> for Arc<E> {
    fn value(&self, state: &G) -> f32 {
        (**self).value(state)
    }

    fn value_many(&self, batch: &mut Batch<G>) {
        (**self).value_many(batch);
    }
}

impl<G: Game, E: PolicyEvaluator<G> + ?Sized> PolicyEvaluator<G> for &E {
    fn evaluate(&self, state: &G, moves: &[G::Move], logits: &mut [f32]) -> f32 {
        (**self).evaluate(state, moves, logits)
    }
    fn evaluate_many(&self, batch: &mut Batch<G>) {
        (**self).evaluate_many(batch);
    }
}

impl<G: Game, E: PolicyEvaluator<G> + ?Sized> PolicyEvaluator<G> for Box<E> {
    fn evaluate(&self, state: &G, moves: &[G::Move], logits: &mut [f32]) -> f32 {
        (**self).evaluate(state, moves, logits)
    }
    fn evaluate_many(&self, batch: &mut Batch<G>) {
        (**self).evaluate_many(batch);
    }
}

impl<G: Game, E: PolicyEvaluator<G> + ?Sized> PolicyEvaluator<G> for Arc<E> {
    fn evaluate(&self, state: &G, moves: &[G::Move], logits: &mut [f32]) -> f32 {
        (**self).evaluate(state, moves, logits)
    }
    fn evaluate_many(&self, batch: &mut Batch<G>) {
        (**self).evaluate_many(batch);
    }
}

/// The value a searcher uses for what an evaluator returned: `value`
/// clamped to `[-1, 1]`, and `0.0` (a draw) for NaN.
///
/// NaN counts as a draw rather than a loss: a loss for the player to move
/// would be a win for the player who moved there, and a search would then
/// steer toward the positions the evaluator cannot rate.
///
/// ```
/// use game_traits::contain_value;
///
/// assert_eq!(contain_value(0.5), 0.5);
/// assert_eq!(contain_value(f32::INFINITY), 1.0);
/// assert_eq!(contain_value(-7.0), -1.0);
/// assert_eq!(contain_value(f32::NAN), 0.0);
/// ```
#[inline]
pub fn contain_value(value: f32) -> f32 {
    if value.is_nan() {
        0.0
    } else {
        value.clamp(-1.0, 1.0)
    }
}

/// The largest logit magnitude searchers use; larger logits (infinities
/// included) are clamped to it by [`contain_logits`].
pub const MAX_LOGIT: f32 = 1.0e4;

/// Makes the logits of a [`PolicyEvaluator`] safe to use: each is clamped
/// to `[-MAX_LOGIT, MAX_LOGIT]` and NaN counts as `0.0` (no preference).
/// With every logit finite, a softmax over them is a distribution.
///
/// ```
/// use game_traits::{contain_logits, MAX_LOGIT};
///
/// let mut logits = [1.0, f32::NAN, f32::NEG_INFINITY, f32::INFINITY];
/// contain_logits(&mut logits);
/// assert_eq!(logits, [1.0, 0.0, -MAX_LOGIT, MAX_LOGIT]);
/// ```
#[inline]
pub fn contain_logits(logits: &mut [f32]) {
    for logit in logits {
        *logit = if logit.is_nan() {
            0.0
        } else {
            logit.clamp(-MAX_LOGIT, MAX_LOGIT)
        };
    }
}

/// Knows nothing but the rules: the exact reward at finished positions and
/// `0.0` everywhere else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OutcomeEvaluator;

impl<G: Game> Evaluator<G> for OutcomeEvaluator {
    fn value(&self, state: &G) -> f32 {
        state
            .outcome()
            .map_or(0.0, |outcome| outcome.reward(state.to_move()))
    }
}

/// Turns any [`Evaluator`] into a [`PolicyEvaluator`] with a uniform prior
/// (every logit `0.0`), so every game's heuristic works in policy-guided
/// searchers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UniformPrior<E>(pub E);

impl<G: Game, E: Evaluator<G>> PolicyEvaluator<G> for UniformPrior<E> {
    fn evaluate(&self, state: &G, moves: &[G::Move], logits: &mut [f32]) -> f32 {
        debug_assert_eq!(moves.len(), logits.len());
        logits.fill(0.0);
        self.0.value(state)
    }
}

/// An [`Evaluator`] made from a closure (`Fn(&G) -> f32`).
pub struct FnEvaluator<G, F> {
    function: F,
    game: PhantomData<fn(&G)>,
}

impl<G, F> FnEvaluator<G, F> {
    /// Wraps `function`.
    pub fn new(function: F) -> Self {
        FnEvaluator {
            function,
            game: PhantomData,
        }
    }
}

impl<G, F: Clone> Clone for FnEvaluator<G, F> {
    fn clone(&self) -> Self {
        FnEvaluator::new(self.function.clone())
    }
}

impl<G, F> std::fmt::Debug for FnEvaluator<G, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FnEvaluator")
    }
}

impl<G: Game, F: Fn(&G) -> f32 + Send + Sync> Evaluator<G> for FnEvaluator<G, F> {
    fn value(&self, state: &G) -> f32 {
        (self.function)(state)
    }
}

/// Picks uniformly among the legal moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UniformPlayout;

impl<G: Game> Playout<G> for UniformPlayout {
    #[inline]
    fn choose<R: Rng + ?Sized>(&mut self, _state: &G, moves: &[G::Move], rng: &mut R) -> G::Move {
        moves[rng.random_range(..moves.len())]
    }
}

/// Plays `state` out to the end with `policy` (through
/// [`Playout::play_out`]) and returns the outcome and the number of plies
/// played. `moves` is a scratch buffer, reused to avoid allocating.
///
/// Returns `None` for the outcome if the game has not ended after
/// `max_plies` plies.
pub fn run_playout<G: Game, P: Playout<G>, R: Rng + ?Sized>(
    state: &mut G,
    policy: &mut P,
    rng: &mut R,
    moves: &mut Vec<G::Move>,
    max_plies: usize,
) -> (Option<Outcome>, usize) {
    policy.play_out(state, rng, moves, max_plies, |_, _| {})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::TicTacToe;
    use rand::SeedableRng;

    #[test]
    fn uniform_prior_fills_zero_logits_and_keeps_the_value() {
        let game = TicTacToe::new();
        let evaluator = UniformPrior(FnEvaluator::new(|_: &TicTacToe| 0.25));
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut logits = vec![7.0; moves.len()];
        let value = evaluator.evaluate(&game, &moves, &mut logits);
        assert_eq!(value, 0.25);
        assert!(logits.iter().all(|&logit| logit == 0.0));
    }

    #[test]
    fn playouts_end_and_report_the_outcome() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(7);
        let mut moves = Vec::new();
        for _ in 0..50 {
            let mut game = TicTacToe::new();
            let mut movers = Vec::new();
            let (outcome, plies) =
                UniformPlayout.play_out(&mut game, &mut rng, &mut moves, 100, |mover, square| {
                    movers.push((mover, square))
                });
            assert!(outcome.is_some());
            assert!((5..=9).contains(&plies));
            assert_eq!(movers.len(), plies);
            // Tic-tac-toe alternates: x, o, x, ...
            for (ply, &(mover, _)) in movers.iter().enumerate() {
                assert_eq!(mover.index(), ply % 2);
            }
            assert_eq!(
                OutcomeEvaluator.value(&game),
                outcome.unwrap().reward(game.to_move())
            );
        }
    }
}
