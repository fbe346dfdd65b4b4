//! Side by side: the [`mcts`](https://crates.io/crates/mcts) crate
//! (version 0.3, tree-parallel and lock-free) and mcts-rave's UCT, both on
//! bitboard-othello's `Board` with the same uniformly random playouts
//! (`RandomPlayout::play_out`, the fast bitboard loop).
//!
//! * [`CrateUct`] runs the `mcts` crate's search behind our
//!   [`Searcher`] trait, so the two play matches through the same code.
//! * [`ours`] builds the matching mcts-rave searcher: UCT, exploration 1 on
//!   values in `[-1, 1]`, which is the `mcts` crate's `UCTPolicy::new(0.5)`
//!   (its exploration term is `2 c sqrt(ln N / n)`), a fresh tree for
//!   every search (the `mcts` crate keeps none between moves).
//!
//! Run `cargo bench -p mcts-crate-compare` for iterations per second at 1
//! and 2 threads, and `cargo run --release -p mcts-crate-compare --example
//! head_to_head` for a match at equal time per move.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bitboard_othello::{Board, Move, RandomPlayout};
use game_traits::zobrist::mix64;
use game_traits::{
    Game, LimitKind, Limits, MoveInfo, Outcome, Player, Playout, SearchReport, SearchStats,
    Searcher, StopReason,
};
use mcts::tree_policy::UCTPolicy;
use mcts::{CycleBehaviour, MCTS, MCTSManager, SearchHandle};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge, Uct};
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// An Othello position for the `mcts` crate (its `GameState` is a foreign
/// trait, `Board` a foreign type: hence the wrapper).
#[derive(Clone, Debug)]
pub struct OthelloState(pub Board);

impl mcts::GameState for OthelloState {
    type Move = Move;
    type Player = Player;
    type MoveList = Vec<Move>;

    fn current_player(&self) -> Player {
        self.0.to_move()
    }

    fn available_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.0.legal_moves(&mut moves);
        moves
    }

    fn make_move(&mut self, mv: &Move) {
        self.0.play(*mv);
    }
}

/// Each search thread's random generator, seeded from a global counter.
pub struct ThreadRng(Pcg64Mcg);

static NEXT_THREAD_SEED: AtomicU64 = AtomicU64::new(1);

impl Default for ThreadRng {
    fn default() -> Self {
        let seed = NEXT_THREAD_SEED.fetch_add(1, Ordering::Relaxed);
        ThreadRng(Pcg64Mcg::seed_from_u64(mix64(seed)))
    }
}

/// The reward of a random playout from `board` for the first player:
/// `1`, `0` or `-1`.
fn playout(board: &Board, rng: &mut Pcg64Mcg) -> i64 {
    let mut state = board.clone();
    let mut moves = Vec::new();
    let (outcome, _) = RandomPlayout.play_out(&mut state, rng, &mut moves, usize::MAX, |_, _| {});
    match outcome {
        Some(Outcome::Win(Player::First)) => 1,
        Some(Outcome::Win(Player::Second)) => -1,
        _ => 0,
    }
}

/// Leaves valued by one random playout, as mcts-rave values them.
pub struct PlayoutEvaluator {
    seed: u64,
}

impl mcts::Evaluator<CrateSpec> for PlayoutEvaluator {
    /// The playout's reward for the first player.
    type StateEvaluation = i64;

    fn evaluate_new_state(
        &self,
        state: &OthelloState,
        moves: &Vec<Move>,
        handle: Option<SearchHandle<'_, CrateSpec>>,
    ) -> (Vec<()>, i64) {
        let value = match handle {
            Some(mut handle) => playout(&state.0, &mut handle.thread_data().extra_data.0),
            // The root, valued once when the tree is made.
            None => playout(&state.0, &mut Pcg64Mcg::seed_from_u64(self.seed)),
        };
        (vec![(); moves.len()], value)
    }

    fn evaluate_existing_state(
        &self,
        state: &OthelloState,
        existing: &i64,
        mut handle: SearchHandle<'_, CrateSpec>,
    ) -> i64 {
        if state.0.is_game_over() {
            *existing
        } else {
            playout(&state.0, &mut handle.thread_data().extra_data.0)
        }
    }

    fn interpret_evaluation_for_player(&self, evaluation: &i64, player: &Player) -> i64 {
        match player {
            Player::First => *evaluation,
            Player::Second => -*evaluation,
        }
    }
}

/// The `mcts` crate's settings: UCT, no transposition table, a virtual
/// loss of one playout (rewards are -1, 0, 1) so that threads spread out.
#[derive(Default)]
pub struct CrateSpec;

impl MCTS for CrateSpec {
    type State = OthelloState;
    type Eval = PlayoutEvaluator;
    type TreePolicy = UCTPolicy;
    type NodeData = ();
    type TranspositionTable = ();
    type ExtraThreadData = ThreadRng;

    fn virtual_loss(&self) -> i64 {
        1
    }

    fn cycle_behaviour(&self) -> CycleBehaviour<Self> {
        CycleBehaviour::Ignore
    }
}

/// The `mcts` crate's exploration constant equal to mcts-rave's `c = 1`.
pub const CRATE_EXPLORATION: f64 = 0.5;

/// The `mcts` crate's UCT behind the [`Searcher`] trait: a fresh tree per
/// search, `threads` threads, iteration or time budgets (the default
/// budget is 10,000 iterations, as mcts-rave's).
#[derive(Clone, Debug)]
pub struct CrateUct {
    threads: usize,
    seed: u64,
}

impl CrateUct {
    /// A searcher on `threads` threads (at least 1).
    pub fn new(threads: usize, seed: u64) -> Self {
        CrateUct {
            threads: threads.max(1),
            seed,
        }
    }
}

impl Searcher<Board> for CrateUct {
    fn search(&mut self, board: &Board, limits: &Limits) -> SearchReport<Move> {
        let clock = Instant::now();
        if board.is_game_over() {
            return SearchReport::game_over(board, clock.elapsed());
        }
        self.seed = mix64(self.seed);
        let mut manager = MCTSManager::new(
            OthelloState(board.clone()),
            CrateSpec,
            PlayoutEvaluator { seed: self.seed },
            UCTPolicy::new(CRATE_EXPLORATION),
            (),
        );
        let stop = match (limits.iterations, limits.time) {
            (Some(iterations), _) => {
                let iterations = u32::try_from(iterations).unwrap_or(u32::MAX);
                if self.threads == 1 {
                    manager.playout_n(u64::from(iterations));
                } else {
                    manager.playout_n_parallel(iterations, self.threads);
                }
                StopReason::Iterations
            }
            (None, Some(time)) => {
                if self.threads == 1 {
                    while clock.elapsed() < time {
                        for _ in 0..16 {
                            manager.playout();
                        }
                    }
                } else {
                    manager
                        .playout_parallel_for(time.saturating_sub(clock.elapsed()), self.threads);
                }
                StopReason::Time
            }
            (None, None) => {
                manager.playout_n(10_000);
                StopReason::DefaultBudget
            }
        };
        let root = manager.tree().root_node();
        let infos: Vec<MoveInfo<Move>> = root
            .moves()
            .map(|info| {
                let mut entry = MoveInfo::new(*info.get_move()).with_visits(info.visits());
                if info.visits() > 0 {
                    entry = entry.with_value(info.sum_rewards() as f32 / info.visits() as f32);
                }
                entry
            })
            .collect();
        let best = manager.best_move();
        let value = infos
            .iter()
            .find(|info| Some(info.mv) == best)
            .and_then(|info| info.value)
            .unwrap_or(0.0);
        let iterations = infos.iter().map(|info| info.visits).sum();
        SearchReport::new(best, value)
            .with_pv(manager.principal_variation(32))
            .with_moves(infos)
            .with_stats(
                SearchStats::new(
                    iterations,
                    manager.tree().num_nodes() as u64,
                    0,
                    clock.elapsed(),
                )
                .with_stop(stop),
            )
    }

    fn honours(&self, kind: LimitKind) -> bool {
        matches!(kind, LimitKind::Iterations | LimitKind::Time)
    }

    fn name(&self) -> String {
        format!("mcts-crate-uct/threads-{}", self.threads)
    }
}

/// mcts-rave's UCT with the same playouts and exploration, a fresh tree
/// per search, on `threads` threads.
///
/// # Panics
///
/// If `threads` is 0 or above mcts-rave's maximum.
pub fn ours(threads: usize, seed: u64) -> Mcts<Board, Uct, RandomPlayout> {
    let config = MctsConfig::default()
        .with_threads(threads)
        .with_seed(seed)
        .with_reuse_tree(false);
    Mcts::new(MctsKnowledge::uct().with_playout(RandomPlayout), config).expect("valid settings")
}

/// A time budget per move.
pub fn per_move(ms: u64) -> Limits {
    Limits::time(Duration::from_millis(ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_searchers_find_legal_moves_and_spend_their_budget() {
        let board = Board::start();
        for threads in [1, 2] {
            let report = CrateUct::new(threads, 1).search(&board, &Limits::iterations(2_000));
            assert!(report.best.is_some_and(|mv| board.is_legal(mv)));
            // The root counts its own evaluation as a visit; its children
            // share the rest.
            assert!(
                (1_990..=2_000).contains(&report.stats.iterations),
                "{:?}",
                report.stats
            );
            let report = ours(threads, 1).search(&board, &Limits::iterations(2_000));
            assert!(report.best.is_some_and(|mv| board.is_legal(mv)));
        }
        let finished: Board = format!("{} X", "X".repeat(64))
            .parse()
            .expect("a full board");
        assert_eq!(
            CrateUct::new(1, 1).search(&finished, &Limits::none()).best,
            None
        );
    }

    /// Endgames of 8 empties where some moves win and others do not, for
    /// each side to move: the crate's search, through our wrapper, must
    /// pick a move with the best exact result (a perspective check).
    #[test]
    fn the_crate_search_picks_winning_moves_for_either_side() {
        use rand::RngExt;
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut checked = [0, 0];
        let mut moves = Vec::new();
        while checked.iter().any(|&count| count < 3) {
            let mut board = Board::start();
            while board.empty_count() > 8 && !board.is_game_over() {
                board.legal_moves(&mut moves);
                board.play(moves[rng.random_range(..moves.len())]);
            }
            board.legal_moves(&mut moves);
            if board.is_game_over() || checked[board.to_move().index()] >= 3 {
                continue;
            }
            let result = |mv: Move| {
                let mut child = board.clone();
                child.play(mv);
                -bitboard_othello::solve(&child).score.signum()
            };
            let results: Vec<i32> = moves.iter().map(|&mv| result(mv)).collect();
            let best = *results.iter().max().expect("moves");
            if results.iter().all(|&value| value == best) {
                continue;
            }
            let report = CrateUct::new(1, 3).search(&board, &Limits::iterations(4_000));
            let played = report.best.expect("a move");
            assert_eq!(result(played), best, "played {played} in {board}");
            checked[board.to_move().index()] += 1;
        }
    }
}
