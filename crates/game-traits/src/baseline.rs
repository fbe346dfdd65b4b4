//! Baseline players for matches: uniformly random, and greedy by one ply of
//! an evaluator.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::{
    Evaluator, Game, LimitKind, Limits, MoveInfo, SearchReport, SearchStats, Searcher, StopReason,
    contain_value,
};

/// Plays a uniformly random legal move (seeded).
#[derive(Clone, Debug)]
pub struct RandomSearcher {
    rng: Pcg64Mcg,
    seed: u64,
}

impl RandomSearcher {
    /// A random player with its own seed.
    pub fn new(seed: u64) -> Self {
        RandomSearcher {
            rng: Pcg64Mcg::seed_from_u64(seed),
            seed,
        }
    }
}

impl<G: Game> Searcher<G> for RandomSearcher {
    /// Ignores every limit: one random draw is all it does. The value is
    /// `0.0` (it knows nothing).
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        let budget = limits.start();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return SearchReport::game_over(state, budget.elapsed());
        }
        let best = moves[self.rng.random_range(..moves.len())];
        SearchReport::new(Some(best), 0.0)
            .with_pv(vec![best])
            .with_stats(
                SearchStats::new(0, 0, 0, budget.elapsed()).with_stop(StopReason::Exhausted),
            )
    }

    fn honours(&self, _kind: LimitKind) -> bool {
        false
    }

    fn reset(&mut self) {
        self.rng = Pcg64Mcg::seed_from_u64(self.seed);
    }

    fn name(&self) -> String {
        "random".to_string()
    }
}

/// Plays the move after which `evaluator` rates the position best for the
/// mover (one ply, no search). Ties go to the first move in
/// [`Game::legal_moves`] order. A finished child counts its exact reward.
#[derive(Clone, Debug, Default)]
pub struct GreedySearcher<E> {
    evaluator: E,
}

impl<E> GreedySearcher<E> {
    /// A greedy player using `evaluator`.
    pub fn new(evaluator: E) -> Self {
        GreedySearcher { evaluator }
    }
}

impl<G: Game, E: Evaluator<G>> Searcher<G> for GreedySearcher<E> {
    /// Ignores every limit: one ply is all it looks at.
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<G::Move> {
        let budget = limits.start();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return SearchReport::game_over(state, budget.elapsed());
        }
        let mut best: Option<(G::Move, f32)> = None;
        let mut infos = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let mut child = state.clone();
            child.play(mv);
            let child_value = match child.outcome() {
                Some(outcome) => outcome.reward(child.to_move()),
                None => contain_value(self.evaluator.value(&child)),
            };
            let value = if child.to_move() == state.to_move() {
                child_value
            } else {
                -child_value
            };
            infos.push(MoveInfo::new(mv).with_value(value));
            if best.is_none_or(|(_, best_value)| value > best_value) {
                best = Some((mv, value));
            }
        }
        let (best, value) = best.unwrap_or((moves[0], 0.0));
        SearchReport::new(Some(best), value)
            .with_pv(vec![best])
            .with_moves(infos)
            .with_stats(
                SearchStats::new(0, moves.len() as u64, 1, budget.elapsed())
                    .with_stop(StopReason::Exhausted),
            )
    }

    fn honours(&self, _kind: LimitKind) -> bool {
        false
    }

    fn name(&self) -> String {
        "greedy".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{TicTacToe, TicTacToeHeuristic};

    #[test]
    fn random_is_seeded_and_legal() {
        let game = TicTacToe::new();
        let picks = |seed| {
            let mut searcher = RandomSearcher::new(seed);
            (0..20)
                .map(|_| searcher.search(&game, &Limits::none()).best.unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(3), picks(3));
        assert_ne!(picks(3), picks(4));
        assert!(picks(5).iter().all(|&square| square < 9));
    }

    #[test]
    fn greedy_takes_an_immediate_win() {
        // x to move with two in a row on the top line.
        let game: TicTacToe = "xx.oo.... x".parse().unwrap();
        let report = GreedySearcher::new(TicTacToeHeuristic).search(&game, &Limits::none());
        assert_eq!(report.best, Some(2));
        assert_eq!(report.value, 1.0);
    }
}
