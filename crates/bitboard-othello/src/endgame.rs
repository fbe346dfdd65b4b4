//! Exact endgame solver: the final disc difference under perfect play.
//!
//! Negascout (principal variation search) on the raw bitboards, with
//!
//! * fastest-first move ordering from 6 empty squares up (fewest replies
//!   for the opponent, corners weighted), transposition-table move first;
//!   from 14 empty squares up, the order of a shallow search of each move
//!   (one ply at 14 and 15 empties, two at 16 and 17, three from 18, four
//!   from 22) valued by the pattern evaluator's estimate (the
//!   [shipped weights](crate::PatternWeights::shipped) by default) beside
//!   a mobility heuristic (mobility, corners, empty squares around the
//!   discs, positional weights);
//! * a transposition table of score bounds, keyed by the full position (so
//!   a hit is never a collision), in two-slot buckets (one kept by depth,
//!   one always replaced), shared by all threads;
//! * near the end, no move generation at all: the empty squares are tried
//!   in a fixed order, odd-parity quadrants first, and the last empty square
//!   is scored directly from the discs it flips;
//! * optionally, helper threads (young brothers wait, see [`parallel`]).
//!
//! Scores are for the player to move and always even: the winner gets the
//! empty squares, so the two counts sum to 64.

pub(crate) mod parallel;
pub(crate) mod search;
pub(crate) mod table;

use std::sync::Arc;
use std::time::Instant;

use game_traits::{
    Game, LimitKind, Limits, MoveInfo, Range, SearchReport, SearchStats, Searcher, StopReason,
};

use crate::ConfigError;
use crate::dispatch;
use crate::movegen::mobility;
use crate::{Board, Move, PatternEvaluator, PatternWeights, Square};

use parallel::{Pool, Worker};
use search::{Control, Search};
use table::{NO_MOVE, Table};

/// The exact result of a solved position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Solution {
    /// The final disc difference for the player to move under perfect play
    /// by both sides, empty squares to the winner: `-64..=64`, even.
    pub score: i32,
    /// A move reaching `score`; `None` only at a finished game.
    pub best: Option<Move>,
    /// The principal variation from `best`, as far as the transposition
    /// table remembers it (at least `best`). Past `best`, each move is the
    /// table's best move of its position, which may come from a bound
    /// rather than an exact score: to follow a line of best play exactly,
    /// solve each position on it again (the table makes that cheap).
    pub pv: Vec<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// Win, draw or loss for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Wld {
    /// The player to move loses under perfect play.
    Loss,
    /// Perfect play draws.
    Draw,
    /// The player to move wins under perfect play.
    Win,
}

impl Wld {
    /// The result that a final score means.
    #[must_use]
    pub fn from_score(score: i32) -> Wld {
        match score.cmp(&0) {
            std::cmp::Ordering::Less => Wld::Loss,
            std::cmp::Ordering::Equal => Wld::Draw,
            std::cmp::Ordering::Greater => Wld::Win,
        }
    }

    /// `-1.0`, `0.0` or `1.0`.
    #[must_use]
    pub fn value(self) -> f32 {
        match self {
            Wld::Loss => -1.0,
            Wld::Draw => 0.0,
            Wld::Win => 1.0,
        }
    }
}

/// The result of a win/draw/loss solve.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct WldSolution {
    /// Win, draw or loss for the player to move.
    pub result: Wld,
    /// A move keeping `result`; `None` only at a finished game.
    pub best: Option<Move>,
    /// Positions visited.
    pub nodes: u64,
}

/// Solves `board` exactly with a fresh table of the default size
/// ([`Solver::DEFAULT_TABLE_BITS`]).
///
/// ```
/// use bitboard_othello::{Board, Move, Square, solve};
///
/// // Black to move and win by taking the last square (h8).
/// let board: Board = format!("{}OO- X", "X".repeat(61)).parse()?;
/// let solution = solve(&board);
/// assert_eq!(solution.score, 64);
/// assert_eq!(solution.best, Some(Move::Place(Square::H8)));
/// # Ok::<(), bitboard_othello::ParseBoardError>(())
/// ```
#[must_use]
pub fn solve(board: &Board) -> Solution {
    Solver::default().solve(board)
}

/// Solves `board` for win, draw or loss only (faster than [`solve`]).
#[must_use]
pub fn solve_wld(board: &Board) -> WldSolution {
    Solver::default().solve_wld(board)
}

/// Which result [`Solver`]'s [`Searcher`] implementation computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SolveMode {
    /// The exact score; the search value is `score / 64`.
    Exact,
    /// Win/draw/loss only; the search value is `1`, `0` or `-1`.
    WinLossDraw,
}

/// The settings of a [`Solver`]: its table size, what its [`Searcher`]
/// implementation computes and how many threads share a solve.
///
/// ```
/// use bitboard_othello::{SolveMode, Solver, SolverConfig};
///
/// let config = SolverConfig::default().with_table_bits(20).with_threads(2);
/// let solver = Solver::new(config)?;
/// assert_eq!(solver.config().threads, 2);
///
/// let error = Solver::new(SolverConfig::default().with_table_bits(40)).unwrap_err();
/// assert_eq!(error.to_string(), "table_bits = 40 is out of range: expected 4 to 28");
/// # Ok::<(), bitboard_othello::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SolverConfig {
    /// The transposition table holds `2^table_bits` entries of 24 bytes,
    /// [`Solver::MIN_TABLE_BITS`] to [`Solver::MAX_TABLE_BITS`];
    /// [`Solver::DEFAULT_TABLE_BITS`] by default.
    pub table_bits: u32,
    /// What a [`Searcher::search`] computes; [`SolveMode::Exact`] by
    /// default (the [`Solver::solve`] and [`Solver::solve_wld`] calls say
    /// what they compute themselves).
    pub mode: SolveMode,
    /// Threads sharing a solve, 1 to [`Solver::MAX_THREADS`]; 1 by
    /// default. The helper threads live for one solve each; two threads
    /// solve FFO #45-#49 in about 0.6 of the time of one.
    pub threads: usize,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            table_bits: Solver::DEFAULT_TABLE_BITS,
            mode: SolveMode::Exact,
            threads: 1,
        }
    }
}

impl SolverConfig {
    /// The same settings with a table of `2^bits` entries.
    #[must_use]
    pub fn with_table_bits(mut self, bits: u32) -> Self {
        self.table_bits = bits;
        self
    }

    /// The same settings computing `mode` as a [`Searcher`].
    #[must_use]
    pub fn with_mode(mut self, mode: SolveMode) -> Self {
        self.mode = mode;
        self
    }

    /// The same settings with `threads` threads.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Checks every setting against its range.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] naming the first setting out of range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        Range::check_count(
            "table_bits",
            u64::from(self.table_bits),
            u64::from(Solver::MIN_TABLE_BITS),
            u64::from(Solver::MAX_TABLE_BITS),
        )?;
        Range::check_count(
            "threads",
            self.threads as u64,
            1,
            Solver::MAX_THREADS as u64,
        )?;
        Ok(())
    }
}

/// An exact endgame solver that keeps its transposition table between
/// calls (positions are stored whole, so results for any root stay valid).
///
/// As a [`Searcher`], it solves the position exactly (or win/draw/loss,
/// see [`SolveMode`]) and honours the time and node limits and the stop
/// flag of [`Limits`]: when a limit runs out first, the report has no value
/// for certain (`0.0`) and plays the best move of the ordering heuristics or
/// of the completed part of the search. Typical use is as the late
/// searcher of a [`Handover`](game_traits::Handover):
///
/// ```
/// use bitboard_othello::{Board, Solver};
/// use game_traits::{Handover, RandomSearcher, Limits, Searcher};
///
/// let mut player = Handover::new(RandomSearcher::new(1), Solver::default(), |board: &Board| {
///     board.empty_count() <= 20
/// });
/// let board: Board = format!("{}OO- X", "X".repeat(61)).parse()?;
/// let report = player.search(&board, &Limits::none());
/// assert_eq!(report.value, 1.0); // +64 discs
/// # Ok::<(), bitboard_othello::ParseBoardError>(())
/// ```
///
/// With more than one [thread](SolverConfig::threads), helper threads
/// share the search: the score is the same, the node count and (among
/// equally good moves) the move may differ from run to run.
#[derive(Clone, Debug)]
pub struct Solver {
    table: Table,
    config: SolverConfig,
    /// Weights whose estimate orders the moves far from the end.
    ordering: Option<Arc<PatternWeights>>,
    /// Runs the search without target features (tests of the fallback).
    portable: bool,
}

impl Default for Solver {
    /// An exact solver with the default [`SolverConfig`]: a table of
    /// 2^[`DEFAULT_TABLE_BITS`](Solver::DEFAULT_TABLE_BITS) entries
    /// (6 MiB), one thread.
    ///
    /// # Panics
    ///
    /// If the 6 MiB table cannot be allocated; [`Solver::new`] returns an
    /// error instead.
    fn default() -> Self {
        Solver::new(SolverConfig::default()).unwrap_or_else(|error| panic!("{error}"))
    }
}

impl Solver {
    /// A solver with `config`.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] if a setting is out of its range (see
    /// [`SolverConfig::validate`]), and [`ConfigError::OutOfMemory`] if the
    /// table cannot be allocated; the ranges are checked before anything is
    /// allocated.
    pub fn new(config: SolverConfig) -> Result<Solver, ConfigError> {
        config.validate()?;
        Ok(Solver {
            table: Table::new(config.table_bits)?,
            config,
            ordering: Some(PatternWeights::shipped()),
            portable: false,
        })
    }

    /// The table bits of the default [`SolverConfig`]: 2^18 entries,
    /// 6 MiB. A table that stays within the processor's caches answers
    /// faster: measured whole-process against 2^20 entries (24 MiB) on a
    /// 2-core EPYC with 32 MiB of L3, FFO #40-#44 on one thread take 4.5%
    /// less time (8.92 s against 9.31 s, best of three) and #50-#51 on two
    /// threads 4% less (50.9 s against 52.9 s), although 4% more positions
    /// are searched. Try more [bits](SolverConfig::table_bits) for
    /// problems of 28 and more empty squares.
    pub const DEFAULT_TABLE_BITS: u32 = 18;

    /// The fewest table bits a solver takes.
    pub const MIN_TABLE_BITS: u32 = 4;

    /// The most table bits a solver takes: 2^28 entries, 6 GiB.
    pub const MAX_TABLE_BITS: u32 = 28;

    /// The most threads a solver runs.
    pub const MAX_THREADS: usize = 64;

    /// Nodes a [`Searcher::search`] visits at most when no limit it honours
    /// is set (2^34, minutes on one core): an exact solve of an endgame,
    /// not of a whole game.
    pub const DEFAULT_NODES: u64 = 1 << 34;

    /// The settings this solver was built with.
    #[must_use]
    pub fn config(&self) -> &SolverConfig {
        &self.config
    }

    /// The same solver with the table's prefetching switched on or off
    /// (on by default); for benches measuring what it brings.
    #[doc(hidden)]
    #[must_use]
    pub fn with_prefetch(mut self, prefetch: bool) -> Solver {
        self.table.prefetch = prefetch;
        self
    }

    /// The same solver running the portable code path (no `popcnt`, BMI
    /// or AVX2), whatever the processor has.
    #[cfg(test)]
    pub(crate) fn portable(mut self) -> Solver {
        self.portable = true;
        self
    }

    /// The same solver ordering its moves far from the end by shallow
    /// searches on `evaluator`'s pattern estimate (by default the
    /// [shipped weights](PatternWeights::shipped)), or with `None` on the
    /// built-in mobility heuristic alone. Scores are exact either way;
    /// only the positions searched change (on FFO #40-#44 the shipped
    /// weights search 137.6 M positions against 189.4 M, on #45-#49
    /// 1.31 G against 2.13 G).
    #[must_use]
    pub fn with_ordering(mut self, evaluator: Option<&PatternEvaluator>) -> Solver {
        self.ordering = evaluator.map(|evaluator| Arc::clone(evaluator.weights()));
        self
    }

    /// The pattern weights that order the moves, if any.
    #[must_use]
    pub fn ordering(&self) -> Option<&Arc<PatternWeights>> {
        self.ordering.as_ref()
    }

    /// Empties the transposition table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact final score of `board` for the player to move, with a
    /// best move.
    pub fn solve(&mut self, board: &Board) -> Solution {
        let control = self.control();
        let (score, best, nodes) = self.solve_window(board, -64, 64, &control);
        let pv = self.principal_variation(board, best);
        Solution {
            score,
            best,
            pv,
            nodes,
        }
    }

    /// Win, draw or loss for the player to move, with a move that keeps it.
    pub fn solve_wld(&mut self, board: &Board) -> WldSolution {
        let control = self.control();
        let (score, best, nodes) = self.solve_window(board, -1, 1, &control);
        WldSolution {
            result: Wld::from_score(score),
            best,
            nodes,
        }
    }

    /// The limits of a solve without any.
    fn control(&self) -> Control {
        Control {
            threads: self.config.threads as u64,
            ..Control::default()
        }
    }

    /// Searches the root within `(alpha, beta)`; returns the score (exact
    /// inside the window, a bound outside), the best move and the node
    /// count. At a finished game: the final score and no move.
    fn solve_window(
        &self,
        board: &Board,
        alpha: i32,
        beta: i32,
        control: &Control,
    ) -> (i32, Option<Move>, u64) {
        let (player, opponent) = (board.player(), board.opponent());
        if mobility(player, opponent) == 0 {
            if mobility(opponent, player) == 0 {
                return (board.final_score(), None, 1);
            }
            let (score, _, nodes) = self.root(opponent, player, -beta, -alpha, control);
            return (-score, Some(Move::Pass), nodes);
        }
        let (score, square, nodes) = self.root(player, opponent, alpha, beta, control);
        (score, Square::new(square as usize).map(Move::Place), nodes)
    }

    /// The root of a position with at least one square to play, on one
    /// thread or several: score, square and nodes.
    fn root(
        &self,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        control: &Control,
    ) -> (i32, u8, u64) {
        let solve_root = if self.portable {
            dispatch::solve_root_portable
        } else {
            dispatch::solve_root
        };
        if self.config.threads <= 1 {
            let mut search = Search::new(&self.table, control, None);
            search.ordering = self.ordering.as_deref();
            let (score, square) = solve_root(&mut search, player, opponent, alpha, beta);
            return (score, square, search.nodes);
        }
        let help = if self.portable {
            dispatch::help_portable
        } else {
            dispatch::help
        };
        let pool = Pool::default();
        std::thread::scope(|scope| {
            // A helper that cannot be started is simply not there.
            let helpers: Vec<_> = (1..self.config.threads)
                .filter_map(|_| {
                    std::thread::Builder::new()
                        .spawn_scoped(scope, || {
                            let mut search =
                                Search::new(&self.table, control, Some(Worker::new(&pool)));
                            search.ordering = self.ordering.as_deref();
                            help(&mut search);
                            search.nodes
                        })
                        .ok()
                })
                .collect();
            let mut search = Search::new(&self.table, control, Some(Worker::new(&pool)));
            search.ordering = self.ordering.as_deref();
            let (score, square) = solve_root(&mut search, player, opponent, alpha, beta);
            pool.finish();
            let helper_nodes: u64 = helpers
                .into_iter()
                .map(|helper| {
                    helper
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .sum();
            (score, square, search.nodes + helper_nodes)
        })
    }

    /// Follows the table's best moves from `board` after `best`.
    fn principal_variation(&self, board: &Board, best: Option<Move>) -> Vec<Move> {
        let mut pv = Vec::new();
        let Some(first) = best else {
            return pv;
        };
        let mut board = board.clone();
        let mut next = Some(first);
        while let Some(mv) = next {
            if !board.is_legal(mv) || pv.len() >= 64 {
                break;
            }
            board.play(mv);
            pv.push(mv);
            next = if board.is_legal(Move::Pass) {
                Some(Move::Pass)
            } else {
                self.table
                    .probe(board.player(), board.opponent())
                    .filter(|entry| entry.best != NO_MOVE)
                    .and_then(|entry| Square::new(entry.best as usize))
                    .map(Move::Place)
            };
        }
        pv
    }
}

impl Searcher<Board> for Solver {
    /// Solves `board` exactly (or win/draw/loss, see [`SolveMode`]) within
    /// the time limit, the node limit (nodes visited) and the stop flag;
    /// iterations and depth are ignored. Without a limit it honours, the
    /// solve is capped at [`Solver::DEFAULT_NODES`]. A solve that
    /// completes reports [`StopReason::Solved`]; one cut short has no value
    /// for certain (`0.0`) and plays the best move of the ordering
    /// heuristics or of the completed part of the search.
    fn search(&mut self, board: &Board, limits: &Limits) -> SearchReport<Move> {
        let started = Instant::now();
        if board.is_over() {
            return SearchReport::game_over(board, started.elapsed());
        }
        let default_budget = limits.uses_default_budget(|kind| self.honours(kind));
        let control = Control {
            deadline: limits.time.and_then(|time| started.checked_add(time)),
            node_limit: limits
                .nodes
                .or(default_budget.then_some(Solver::DEFAULT_NODES)),
            node_reason: if default_budget {
                StopReason::DefaultBudget
            } else {
                StopReason::Nodes
            },
            stop: limits.stop.clone(),
            ..self.control()
        };
        let (alpha, beta) = match self.config.mode {
            SolveMode::Exact => (-64, 64),
            SolveMode::WinLossDraw => (-1, 1),
        };
        let (score, best, nodes) = self.solve_window(board, alpha, beta, &control);
        let elapsed = started.elapsed();
        let stats = SearchStats::new(0, nodes, board.empty_count(), elapsed);
        if let Some(reason) = control.stop_reason() {
            let best = best.or_else(|| first_legal(board));
            return SearchReport::new(best, 0.0)
                .with_pv(best.into_iter().collect())
                .with_stats(stats.with_stop(reason));
        }
        let value = match self.config.mode {
            SolveMode::Exact => score as f32 / 64.0,
            SolveMode::WinLossDraw => Wld::from_score(score).value(),
        };
        let pv = self.principal_variation(board, best);
        let moves = best
            .map(|mv| vec![MoveInfo::new(mv).with_value(value)])
            .unwrap_or_default();
        SearchReport::new(best, value)
            .with_pv(pv)
            .with_moves(moves)
            .with_stats(stats.with_stop(StopReason::Solved))
    }

    fn honours(&self, kind: LimitKind) -> bool {
        matches!(kind, LimitKind::Time | LimitKind::Nodes)
    }

    fn reset(&mut self) {
        self.clear();
    }

    fn name(&self) -> String {
        match self.config.mode {
            SolveMode::Exact => "solver".to_string(),
            SolveMode::WinLossDraw => "solver-wld".to_string(),
        }
    }
}

fn first_legal(board: &Board) -> Option<Move> {
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    moves.first().copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random positions with `empties` empty squares that are not over.
    fn endgames(count: usize, empties: u32, seed: u64) -> Vec<Board> {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        let mut positions = Vec::new();
        let mut moves = Vec::new();
        while positions.len() < count {
            let mut board = Board::start();
            while board.empty_count() > empties && !board.is_over() {
                board.legal_moves(&mut moves);
                board.play(moves[rng.random_range(..moves.len())]);
            }
            if !board.is_over() {
                positions.push(board);
            }
        }
        positions
    }

    #[test]
    fn the_portable_path_finds_the_same_scores_and_nodes() {
        let config = SolverConfig::default().with_table_bits(16);
        let mut dispatched = Solver::new(config.clone()).unwrap();
        let mut portable = Solver::new(config).unwrap().portable();
        for board in endgames(40, 12, 11) {
            dispatched.clear();
            portable.clear();
            let expected = dispatched.solve(&board);
            let solution = portable.solve(&board);
            // The same code on the same table: the same search, node for
            // node.
            assert_eq!(solution, expected, "{board}");
        }
    }

    #[test]
    fn helper_threads_find_the_same_scores() {
        let mut one = Solver::default();
        let two_threads = SolverConfig::default().with_threads(2);
        let mut two = Solver::new(two_threads.clone()).unwrap();
        let mut two_portable = Solver::new(two_threads).unwrap().portable();
        for board in endgames(6, 18, 12) {
            one.clear();
            two.clear();
            two_portable.clear();
            let expected = one.solve(&board);
            for solver in [&mut two, &mut two_portable] {
                let solution = solver.solve(&board);
                assert_eq!(solution.score, expected.score, "{board}");
                let mut child = board.clone();
                child.play(solution.best.unwrap());
                one.clear();
                let child_score = one.solve(&child).score;
                let value = if child.to_move() == board.to_move() {
                    child_score
                } else {
                    -child_score
                };
                assert_eq!(value, expected.score, "{board}: {:?}", solution.best);
            }
        }
    }
}
