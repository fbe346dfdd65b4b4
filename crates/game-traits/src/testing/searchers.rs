//! Checks for searchers: tactical positions found by brute force, and
//! values compared with brute-force minimax.

use std::collections::HashSet;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use super::minimax::{child_value, minimax};
use crate::{Evaluator, Game, Limits, OutcomeEvaluator, Player, Searcher};

/// What a [`TacticalCase`] asks of a searcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tactic {
    /// The player to move can force a win within the case's depth; the
    /// searcher must play a move that keeps the forced win.
    Win,
    /// Some moves let the opponent force a win within the case's depth, but
    /// not all; the searcher must avoid them.
    Defend,
}

/// A position where some moves are right and others are wrong, found by
/// brute force.
#[derive(Clone, Debug)]
pub struct TacticalCase<G: Game> {
    /// The position.
    pub state: G,
    /// Win or defend.
    pub tactic: Tactic,
    /// How many plies deep the brute force looked.
    pub depth: u32,
    /// The acceptable moves.
    pub good_moves: Vec<G::Move>,
    /// The moves that are wrong.
    pub bad_moves: Vec<G::Move>,
}

/// Finds tactical positions along random games from `start`.
///
/// A [`Tactic::Win`] case is a position where the player to move wins by
/// force within `depth` plies; its good moves are those that keep that win
/// (so with `depth = 1`, the immediately winning moves). A
/// [`Tactic::Defend`] case is a position without such a win where the
/// opponent would win within `depth` plies after some moves but not after
/// others; the good moves are the others (with `depth = 2`: block the
/// opponent's immediate win). Cases where every move is good are skipped.
///
/// Returns up to `per_kind` cases for each combination of tactic and
/// player to move, so both players are covered. Deterministic for a given
/// `seed`.
pub fn tactical_cases<G: Game>(
    start: &G,
    depth: u32,
    per_kind: usize,
    seed: u64,
) -> Vec<TacticalCase<G>> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut found: Vec<TacticalCase<G>> = Vec::new();
    let count = |tactic: Tactic, player: Player, found: &[TacticalCase<G>]| {
        found
            .iter()
            .filter(|case| case.tactic == tactic && case.state.to_move() == player)
            .count()
    };
    let mut moves = Vec::new();
    for _game in 0..(200 * per_kind.max(1)) {
        let complete = [Tactic::Win, Tactic::Defend].iter().all(|&tactic| {
            Player::BOTH
                .iter()
                .all(|&player| count(tactic, player, &found) >= per_kind)
        });
        if complete {
            break;
        }
        let mut state = start.clone();
        loop {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if let Some(case) = tactical_case(&state, depth)
                && count(case.tactic, state.to_move(), &found) < per_kind
            {
                found.push(case);
            }
            let mv = moves[rng.random_range(..moves.len())];
            state.play(mv);
        }
    }
    found
}

/// Classifies one position as [`tactical_cases`] does: a [`TacticalCase`]
/// if the player to move wins by force within `depth` plies (or must defend
/// against such a win) and some moves are wrong, `None` otherwise.
pub fn tactical_case<G: Game>(state: &G, depth: u32) -> Option<TacticalCase<G>> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let moves = moves.as_slice();
    let values: Vec<f32> = moves
        .iter()
        .map(|&mv| child_value(state, mv, Some(depth), &OutcomeEvaluator))
        .collect();
    let split = |good: &dyn Fn(f32) -> bool| {
        let (good_moves, bad_moves): (Vec<_>, Vec<_>) = moves
            .iter()
            .zip(&values)
            .partition(|(_, value)| good(**value));
        let good_moves: Vec<G::Move> = good_moves.into_iter().map(|(&mv, _)| mv).collect();
        let bad_moves: Vec<G::Move> = bad_moves.into_iter().map(|(&mv, _)| mv).collect();
        (good_moves, bad_moves)
    };
    if values.contains(&1.0) {
        let (good_moves, bad_moves) = split(&|value| value == 1.0);
        return (!bad_moves.is_empty()).then(|| TacticalCase {
            state: state.clone(),
            tactic: Tactic::Win,
            depth,
            good_moves,
            bad_moves,
        });
    }
    // No forced win within `depth`; defend if some moves lose within it.
    let (good_moves, bad_moves) = split(&|value| value > -1.0);
    (!bad_moves.is_empty() && !good_moves.is_empty()).then(|| TacticalCase {
        state: state.clone(),
        tactic: Tactic::Defend,
        depth,
        good_moves,
        bad_moves,
    })
}

/// A searcher that failed a check.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{check} failed on case {case} at position {position}: {detail}")]
#[non_exhaustive]
pub struct SearcherFailure {
    /// Which check.
    pub check: &'static str,
    /// The index of the failing case.
    pub case: usize,
    /// The position (`Debug` form).
    pub position: String,
    /// What went wrong.
    pub detail: String,
}

/// Checks that a searcher plays a good move in every tactical case. The
/// searcher is [`reset`](Searcher::reset) before each case.
///
/// # Errors
///
/// Returns the first case where the searcher played a bad move or none.
pub fn check_tactics<G: Game, S: Searcher<G> + ?Sized>(
    searcher: &mut S,
    cases: &[TacticalCase<G>],
    limits: &Limits,
) -> Result<(), SearcherFailure> {
    for (index, case) in cases.iter().enumerate() {
        searcher.reset();
        let report = searcher.search(&case.state, limits);
        let good = report.best.is_some_and(|mv| case.good_moves.contains(&mv));
        if !good {
            return Err(SearcherFailure {
                check: "tactics",
                case: index,
                position: format!("{:?}", case.state),
                detail: format!(
                    "{:?} ({:?} to move, depth {}): played {:?}; good moves {:?}, bad moves {:?}",
                    case.tactic,
                    case.state.to_move(),
                    case.depth,
                    report.best,
                    case.good_moves,
                    case.bad_moves
                ),
            });
        }
    }
    Ok(())
}

/// Compares a searcher with brute-force [`minimax`] on each position:
/// the reported value must be within `tolerance` of the minimax value (to
/// `limits.depth`, or to the end, with `evaluator` at the depth limit), and
/// so must the minimax value of the move it chose. The searcher is
/// [`reset`](Searcher::reset) before each position.
///
/// With `tolerance = 0.0` this is the exactness test for alpha-beta and
/// its pruning variants; with a tolerance and a growing iteration budget,
/// the convergence test for Monte Carlo searchers.
///
/// # Errors
///
/// Returns the first position where the searcher disagrees.
pub fn check_against_minimax<G, S, E>(
    searcher: &mut S,
    positions: &[G],
    limits: &Limits,
    evaluator: &E,
    tolerance: f32,
) -> Result<(), SearcherFailure>
where
    G: Game,
    S: Searcher<G> + ?Sized,
    E: Evaluator<G> + ?Sized,
{
    let mut moves = Vec::new();
    for (index, state) in positions.iter().enumerate() {
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            continue;
        }
        searcher.reset();
        let report = searcher.search(state, limits);
        let exact = minimax(state, limits.depth, evaluator);
        let failure = |detail: String| SearcherFailure {
            check: "minimax",
            case: index,
            position: format!("{state:?}"),
            detail,
        };
        if (report.value - exact).abs() > tolerance || report.value.is_nan() {
            return Err(failure(format!(
                "value {} but minimax gives {exact} (tolerance {tolerance})",
                report.value
            )));
        }
        let Some(best) = report.best.filter(|mv| moves.contains(mv)) else {
            return Err(failure(format!(
                "played {:?}, not a legal move",
                report.best
            )));
        };
        let chosen = child_value(state, best, limits.depth, evaluator);
        if (chosen - exact).abs() > tolerance {
            return Err(failure(format!(
                "played {best:?} worth {chosen}, but the best move is worth {exact} (tolerance {tolerance})"
            )));
        }
    }
    Ok(())
}

/// Positions of distinct (by `Debug` form) non-finished states met along
/// random games from `start`: inputs for [`check_against_minimax`].
pub fn random_positions<G: Game>(start: &G, count: usize, seed: u64) -> Vec<G> {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for _game in 0..count * 20 {
        let mut state = start.clone();
        loop {
            state.legal_moves(&mut moves);
            if moves.is_empty() || positions.len() >= count {
                break;
            }
            if rng.random_bool(0.3) && seen.insert(format!("{state:?}")) {
                positions.push(state.clone());
            }
            let mv = moves[rng.random_range(..moves.len())];
            state.play(mv);
        }
        if positions.len() >= count {
            break;
        }
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{MinimaxSearcher, Nim, TicTacToe};

    #[test]
    fn tic_tac_toe_has_both_kinds_for_both_players() {
        let cases = tactical_cases(&TicTacToe::new(), 1, 3, 1);
        for tactic in [Tactic::Win] {
            for player in Player::BOTH {
                assert_eq!(
                    cases
                        .iter()
                        .filter(|c| c.tactic == tactic && c.state.to_move() == player)
                        .count(),
                    3,
                    "{tactic:?} {player:?}"
                );
            }
        }
        let defend = tactical_cases(&TicTacToe::new(), 2, 3, 1);
        for player in Player::BOTH {
            assert!(
                defend
                    .iter()
                    .any(|c| c.tactic == Tactic::Defend && c.state.to_move() == player)
            );
        }
        check_tactics(&mut MinimaxSearcher::new(), &cases, &Limits::depth(1)).unwrap();
        check_tactics(&mut MinimaxSearcher::new(), &defend, &Limits::depth(2)).unwrap();
    }

    #[test]
    fn a_searcher_that_plays_the_first_move_fails_tactics() {
        struct FirstMove;
        impl<G: Game> Searcher<G> for FirstMove {
            fn search(&mut self, state: &G, _: &Limits) -> crate::SearchReport<G::Move> {
                let mut moves = Vec::new();
                state.legal_moves(&mut moves);
                crate::SearchReport::new(moves.first().copied(), 0.0)
            }
        }
        let cases = tactical_cases(&TicTacToe::new(), 2, 4, 3);
        let error = check_tactics(&mut FirstMove, &cases, &Limits::none()).unwrap_err();
        assert_eq!(error.check, "tactics");
        let positions = random_positions(&Nim::with_extra_turns(&[3, 2, 2]), 20, 4);
        assert!(
            check_against_minimax(
                &mut FirstMove,
                &positions,
                &Limits::none(),
                &OutcomeEvaluator,
                0.0
            )
            .is_err()
        );
    }

    #[test]
    fn minimax_searcher_matches_minimax_everywhere() {
        let positions = random_positions(&Nim::with_extra_turns(&[3, 2, 2]), 30, 5);
        assert_eq!(positions.len(), 30);
        check_against_minimax(
            &mut MinimaxSearcher::new(),
            &positions,
            &Limits::none(),
            &OutcomeEvaluator,
            0.0,
        )
        .unwrap();
    }
}
