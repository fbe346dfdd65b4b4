//! Brute-force minimax: the slow, obviously correct reference that fast
//! searchers are compared with.

use crate::{
    Budget, Evaluator, Game, LimitKind, Limits, MoveInfo, OutcomeEvaluator, SearchReport,
    SearchStats, Searcher, StopReason, contain_value,
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
/// reward. Evaluator values pass through [`contain_value`], as in every
/// searcher. No pruning, no tables: slow by design.
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
        return contain_value(evaluator.value(state));
    }
    moves
        .iter()
        .map(|&mv| child_value(state, mv, depth, evaluator))
        .fold(f32::NEG_INFINITY, f32::max)
}

/// The minimax value of playing `mv` in `state`, for the player to move in
/// `state`; `depth` counts the ply of `mv` (a depth of 0 counts as 1).
pub fn child_value<G: Game, E: Evaluator<G> + ?Sized>(
    state: &G,
    mv: G::Move,
    depth: Option<u32>,
    evaluator: &E,
) -> f32 {
    let mut child = state.clone();
    child.play(mv);
    let value = minimax(&child, depth.map(|d| d.saturating_sub(1)), evaluator);
    value_for_mover(state, &child, value)
}

fn exact_or_evaluated<G: Game, E: Evaluator<G> + ?Sized>(state: &G, evaluator: &E) -> f32 {
    match state.outcome() {
        Some(outcome) => outcome.reward(state.to_move()),
        None => contain_value(evaluator.value(state)),
    }
}

/// A [`Searcher`] that runs [`minimax`]: exact for small games, the
/// reference for differential tests.
///
/// Searches `limits.depth` plies (no depth limit: to the end of the game)
/// and stops early on the time limit, the node limit (nodes visited) and the
/// stop flag, keeping the best of the root moves searched completely. It
/// ignores iterations. Its default budget is the whole game tree, capped at
/// [`MinimaxSearcher::DEFAULT_NODES`] nodes. Picks the first move of
/// [`Game::legal_moves`] among those with the best value; reports every
/// completed root move's value.
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
    /// Nodes a search visits at most when no limit it honours is set.
    pub const DEFAULT_NODES: u64 = 50_000_000;

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
            return SearchReport::game_over(state, budget.elapsed());
        }
        let default_nodes = limits
            .uses_default_budget(|kind| self.honours(kind))
            .then_some(Self::DEFAULT_NODES);
        let mut walk = BoundedWalk {
            budget: &budget,
            default_nodes,
            nodes: 0,
            stopped: None,
            depth_cut: false,
        };
        let mut best: Option<(G::Move, f32)> = None;
        let mut infos = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let mut child = state.clone();
            child.play(mv);
            let Some(value) = walk.minimax(
                &child,
                limits.depth.map(|d| d.saturating_sub(1)),
                &self.evaluator,
            ) else {
                break;
            };
            let value = value_for_mover(state, &child, value);
            infos.push(MoveInfo::new(mv).with_value(value));
            if best.is_none_or(|(_, best_value)| value > best_value) {
                best = Some((mv, value));
            }
        }
        let (mv, value) = best.unwrap_or((moves[0], 0.0));
        let stop = walk.stopped.unwrap_or(if walk.depth_cut {
            StopReason::Depth
        } else {
            StopReason::Solved
        });
        SearchReport::new(Some(mv), value)
            .with_pv(vec![mv])
            .with_moves(infos)
            .with_stats(
                SearchStats::new(0, walk.nodes, limits.depth.unwrap_or(0), budget.elapsed())
                    .with_stop(stop),
            )
    }

    fn name(&self) -> String {
        "minimax".to_string()
    }

    fn honours(&self, kind: LimitKind) -> bool {
        kind != LimitKind::Iterations
    }
}

/// [`minimax`] that counts nodes and gives up when the budget runs out.
struct BoundedWalk<'a, 'b> {
    budget: &'a Budget<'b>,
    default_nodes: Option<u64>,
    nodes: u64,
    stopped: Option<StopReason>,
    /// Whether the depth limit cut some line before the end of the game.
    depth_cut: bool,
}

impl BoundedWalk<'_, '_> {
    /// The minimax value, or `None` once the budget has run out.
    fn minimax<G: Game, E: Evaluator<G> + ?Sized>(
        &mut self,
        state: &G,
        depth: Option<u32>,
        evaluator: &E,
    ) -> Option<f32> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) || self.budget.limits().nodes.is_some() {
            self.stopped = self.budget.stop_reason(0, self.nodes).or_else(|| {
                self.default_nodes
                    .is_some_and(|cap| self.nodes >= cap)
                    .then_some(StopReason::DefaultBudget)
            });
        }
        if self.stopped.is_some() {
            return None;
        }
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return Some(exact_or_evaluated(state, evaluator));
        }
        if depth == Some(0) {
            self.depth_cut = true;
            return Some(contain_value(evaluator.value(state)));
        }
        let mut best = f32::NEG_INFINITY;
        for mv in moves {
            let mut child = state.clone();
            child.play(mv);
            let value = self.minimax(&child, depth.map(|d| d - 1), evaluator)?;
            best = best.max(value_for_mover(state, &child, value));
        }
        Some(best)
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
