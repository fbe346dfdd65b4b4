//! Brute-force minimax: the slow, obviously correct reference that fast
//! searchers are compared with.

use crate::{
    Evaluator, Game, Limits, MoveInfo, OutcomeEvaluator, SearchReport, SearchStats, Searcher,
};

/// Turns a child's value (for the player to move at the child) into the
/// value for the player who moved into it. Never assumes alternation.
#[inline]
pub fn value_for_mover<G: Game>(parent: &G, child: &G, child_value: f32) -> f32 {
    if parent.to_move() == child.to_move() {
        child_value
    } else {
        -child_value
    }
}

/// The minimax value of `state` for the player to move, searching every
/// line `depth` plies deep (`None`: to the end of the game) and calling
/// `evaluator` at non-terminal leaves. Finished positions score their exact
/// reward. No pruning, no tables: slow by design.
pub fn minimax<G: Game, E: Evaluator<G> + ?Sized>(
    state: &G,
    depth: Option<u32>,
    evaluator: &E,
) -> f32 {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    if moves.is_empty() {
        return exact_or_evaluated(state, evaluator);
    }
    if depth == Some(0) {
        return evaluator.value(state);
    }
    moves
        .iter()
        .map(|&mv| child_value(state, mv, depth, evaluator))
        .fold(f32::NEG_INFINITY, f32::max)
}

/// The minimax value of playing `mv` in `state`, for the player to move in
/// `state`; `depth` counts the ply of `mv`.
pub fn child_value<G: Game, E: Evaluator<G> + ?Sized>(
    state: &G,
    mv: G::Move,
    depth: Option<u32>,
    evaluator: &E,
) -> f32 {
    let mut child = state.clone();
    child.play(mv);
    let value = minimax(&child, depth.map(|d| d - 1), evaluator);
    value_for_mover(state, &child, value)
}

fn exact_or_evaluated<G: Game, E: Evaluator<G> + ?Sized>(state: &G, evaluator: &E) -> f32 {
    match state.outcome() {
        Some(outcome) => outcome.reward(state.to_move()),
        None => evaluator.value(state),
    }
}

/// A [`Searcher`] that runs [`minimax`]: exact for small games, the
/// reference for differential tests.
///
/// Uses `limits.depth` (no depth limit: search to the end) and ignores every
/// other limit. Picks the first move of [`Game::legal_moves`] among those
/// with the best value; reports every root move's value.
#[derive(Clone, Debug, Default)]
pub struct MinimaxSearcher<E = OutcomeEvaluator> {
    evaluator: E,
}

impl MinimaxSearcher {
    /// A full-depth searcher that needs no evaluator.
    pub fn new() -> Self {
        MinimaxSearcher {
            evaluator: OutcomeEvaluator,
        }
    }
}

impl<E> MinimaxSearcher<E> {
    /// A searcher that calls `evaluator` at its depth limit.
    pub fn with_evaluator(evaluator: E) -> Self {
        MinimaxSearcher { evaluator }
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<G> for MinimaxSearcher<E> {
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        let budget = limits.start();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            let value = exact_or_evaluated(state, &self.evaluator);
            return SearchReport::new(None, value);
        }
        let mut best: Option<(G::Move, f32)> = None;
        let mut infos = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let value = child_value(state, mv, limits.depth, &self.evaluator);
            infos.push(MoveInfo::new(mv).with_value(value));
            if best.is_none_or(|(_, best_value)| value > best_value) {
                best = Some((mv, value));
            }
        }
        let (mv, value) = best.unwrap_or((moves[0], 0.0));
        SearchReport::new(Some(mv), value)
            .with_pv(vec![mv])
            .with_moves(infos)
            .with_stats(SearchStats::new(
                0,
                0,
                limits.depth.unwrap_or(0),
                budget.elapsed(),
            ))
    }

    fn name(&self) -> String {
        "minimax".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;
    use crate::testing::{Nim, TicTacToe};

    #[test]
    fn tic_tac_toe_is_a_draw() {
        assert_eq!(minimax(&TicTacToe::new(), None, &OutcomeEvaluator), 0.0);
    }

    #[test]
    fn nim_agrees_with_bouton() {
        for heaps in [[1, 2, 3], [1, 2, 4], [2, 2, 0], [3, 5, 6], [1, 1, 1]] {
            let game = Nim::new(&heaps);
            let expected = if game.bouton_winner() == Player::First {
                1.0
            } else {
                -1.0
            };
            assert_eq!(
                minimax(&game, None, &OutcomeEvaluator),
                expected,
                "{heaps:?}"
            );
        }
    }
}
