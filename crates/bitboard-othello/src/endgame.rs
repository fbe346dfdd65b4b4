//! Exact endgame solver: the final disc difference under perfect play.
//!
//! Negascout (principal variation search) on the raw bitboards, with
//!
//! * fastest-first move ordering far from the end (fewest replies for the
//!   opponent, corners weighted), transposition-table move first;
//! * a transposition table of score bounds, keyed by the full position (so
//!   a hit is never a collision), in two-slot buckets (one kept by depth,
//!   one always replaced);
//! * near the end, no move generation at all: the empty squares are tried
//!   in a fixed order, odd-parity quadrants first, and the last empty square
//!   is scored directly from the discs it flips.
//!
//! Scores are for the player to move and always even: the winner gets the
//! empty squares, so the two counts sum to 64.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use game_traits::zobrist::mix64;
use game_traits::{
    Game, LimitKind, Limits, MoveInfo, SearchReport, SearchStats, Searcher, StopReason,
};

use crate::ConfigError;

use crate::eval::{CORNERS, X_SQUARES};
use crate::movegen::{Bits, flips, mobility};
use crate::{Board, Move, Square};

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
    /// table remembers it (at least `best`).
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

/// Solves `board` exactly with a fresh 2^20-entry (24 MiB) table.
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
    Solver::new().solve(board)
}

/// Solves `board` for win, draw or loss only (faster than [`solve`]).
#[must_use]
pub fn solve_wld(board: &Board) -> WldSolution {
    Solver::new().solve_wld(board)
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
/// let mut player = Handover::new(RandomSearcher::new(1), Solver::new(), |board: &Board| {
///     board.empty_count() <= 20
/// });
/// let board: Board = format!("{}OO- X", "X".repeat(61)).parse()?;
/// let report = player.search(&board, &Limits::none());
/// assert_eq!(report.value, 1.0); // +64 discs
/// # Ok::<(), bitboard_othello::ParseBoardError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Solver {
    table: Table,
    mode: SolveMode,
    nodes: u64,
    abort: Abort,
}

/// When a search has to stop early.
#[derive(Clone, Debug, Default)]
struct Abort {
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// What reaching `node_limit` means: the caller's limit or the
    /// default budget.
    node_reason: StopReason,
    stop: Option<Arc<AtomicBool>>,
    next_check: u64,
    aborted: bool,
    /// Why it stopped, once `aborted`.
    reason: StopReason,
}

/// How many nodes pass between two looks at the clock.
const CHECK_INTERVAL: u64 = 1 << 14;

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

/// Empty squares from which the searcher orders moves by mobility and
/// uses the table; below, the fixed parity order.
const DEEP_MIN_EMPTIES: u32 = 6;

/// Empty squares from which a node looks up its children in the table
/// before searching them.
const ETC_MIN_EMPTIES: u32 = 10;

/// Empty squares from which a position is stored in the table.
const TABLE_MIN_EMPTIES: u32 = 9;

/// From which `alpha` a node checks whether the opponent's stable discs
/// already hold the score below it, by empty squares (the check costs a
/// little and seldom succeeds when `alpha` is low).
const STABILITY_THRESHOLD: [i32; 65] = build_stability_threshold();

const fn build_stability_threshold() -> [i32; 65] {
    let mut table = [0i32; 65];
    let mut empties = 0;
    while empties < 65 {
        table[empties] = STABILITY_BASE + STABILITY_SLOPE * empties as i32;
        empties += 1;
    }
    table
}
const STABILITY_BASE: i32 = 0;
const STABILITY_SLOPE: i32 = 2;

/// Below every possible score.
const NO_SCORE: i32 = -127;

impl Solver {
    /// An exact solver with a 2^20-entry (24 MiB) table.
    #[must_use]
    pub fn new() -> Solver {
        Solver::with_table_bits(20)
    }

    /// The fewest table bits a solver takes.
    pub const MIN_TABLE_BITS: u32 = 4;

    /// The most table bits a solver takes: 2^28 entries, 6 GiB.
    pub const MAX_TABLE_BITS: u32 = 28;

    /// Nodes a [`Searcher::search`] visits at most when no limit it honours
    /// is set (2^34, minutes on one core): an exact solve of an endgame,
    /// not of a whole game.
    pub const DEFAULT_NODES: u64 = 1 << 34;

    /// A solver with a table of `2^bits` entries (24 bytes each), `bits`
    /// clamped to [`MIN_TABLE_BITS`](Solver::MIN_TABLE_BITS)`..=`[`MAX_TABLE_BITS`](Solver::MAX_TABLE_BITS).
    ///
    /// # Panics
    ///
    /// If the table cannot be allocated; use
    /// [`try_with_table_bits`](Solver::try_with_table_bits) to get an error
    /// instead.
    #[must_use]
    pub fn with_table_bits(bits: u32) -> Solver {
        Solver::try_with_table_bits(bits.clamp(Self::MIN_TABLE_BITS, Self::MAX_TABLE_BITS))
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// A solver with a table of `2^bits` entries (24 bytes each).
    ///
    /// # Errors
    ///
    /// [`ConfigError::OutOfRange`] if `bits` is outside
    /// [`MIN_TABLE_BITS`](Solver::MIN_TABLE_BITS)`..=`[`MAX_TABLE_BITS`](Solver::MAX_TABLE_BITS),
    /// and [`ConfigError::OutOfMemory`] if the table cannot be allocated;
    /// the range is checked before anything is allocated.
    pub fn try_with_table_bits(bits: u32) -> Result<Solver, ConfigError> {
        if !(Self::MIN_TABLE_BITS..=Self::MAX_TABLE_BITS).contains(&bits) {
            return Err(ConfigError::OutOfRange {
                name: "table bits",
                value: f64::from(bits),
                expected: "4 to 28",
            });
        }
        Ok(Solver {
            table: Table::new(bits)?,
            mode: SolveMode::Exact,
            nodes: 0,
            abort: Abort::default(),
        })
    }

    /// The same solver in `mode` when used as a [`Searcher`].
    #[must_use]
    pub fn with_mode(mut self, mode: SolveMode) -> Solver {
        self.mode = mode;
        self
    }

    /// A win/draw/loss solver (as a [`Searcher`], value `1`, `0` or `-1`).
    #[must_use]
    pub fn wld() -> Solver {
        Solver::new().with_mode(SolveMode::WinLossDraw)
    }

    /// Empties the transposition table.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact final score of `board` for the player to move, with a
    /// best move.
    pub fn solve(&mut self, board: &Board) -> Solution {
        self.abort = Abort::default();
        let (score, best, nodes) = self.solve_window(board, -64, 64);
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
        self.abort = Abort::default();
        let (score, best, nodes) = self.solve_window(board, -1, 1);
        WldSolution {
            result: Wld::from_score(score),
            best,
            nodes,
        }
    }

    /// Searches the root within `(alpha, beta)`; returns the score (exact
    /// inside the window, a bound outside), the best move and the node
    /// count. At a finished game: the final score and no move.
    fn solve_window(&mut self, board: &Board, alpha: i32, beta: i32) -> (i32, Option<Move>, u64) {
        self.nodes = 0;
        let (player, opponent) = (board.player(), board.opponent());
        if mobility(player, opponent) == 0 {
            if mobility(opponent, player) == 0 {
                return (board.final_score(), None, 1);
            }
            let (score, _) = self.root(opponent, player, -beta, -alpha);
            return (-score, Some(Move::Pass), self.nodes);
        }
        let (score, square) = self.root(player, opponent, alpha, beta);
        (score, square.map(Move::Place), self.nodes)
    }

    /// The root of a position with at least one square to play.
    fn root(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<Square>) {
        self.nodes += 1;
        let alpha_in = alpha;
        let hint = self.table.probe(player, opponent).map(|entry| entry.best);
        let moves = MoveList::new(player, opponent, mobility(player, opponent), hint);
        let mut best_score = NO_SCORE;
        let mut best_square = moves.first_square();
        for (index, mv) in moves.iter().enumerate() {
            let (child_player, child_opponent) = (
                opponent ^ mv.flipped,
                player ^ mv.flipped ^ (1 << mv.square),
            );
            let score = if index == 0 {
                -self.search(child_player, child_opponent, -beta, -alpha)
            } else {
                let probe = -self.search(child_player, child_opponent, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.search(child_player, child_opponent, -beta, -probe)
                } else {
                    probe
                }
            };
            if self.abort.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_square = Square::new(mv.square as usize);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if !self.abort.aborted {
            let square = best_square.map_or(NO_MOVE, |square| square.index() as u8);
            self.table
                .store(player, opponent, best_score, alpha_in, beta, square);
        }
        (best_score, best_square)
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
                    .and_then(|entry| Square::new(entry.best as usize))
                    .map(Move::Place)
            };
        }
        pv
    }

    /// Whether the search must stop; looks at the clock every so often.
    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.nodes >= self.abort.next_check {
            // Look again after the interval, or exactly at the node limit.
            self.abort.next_check = (self.nodes + CHECK_INTERVAL).min(
                self.abort
                    .node_limit
                    .unwrap_or(u64::MAX)
                    .max(self.nodes + 1),
            );
            let out_of_time = self
                .abort
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline);
            let out_of_nodes = self
                .abort
                .node_limit
                .is_some_and(|limit| self.nodes >= limit);
            let stopped = self
                .abort
                .stop
                .as_ref()
                .is_some_and(|stop| stop.load(Ordering::Relaxed));
            if !self.abort.aborted && (out_of_time || out_of_nodes || stopped) {
                self.abort.aborted = true;
                self.abort.reason = if stopped {
                    StopReason::Stopped
                } else if out_of_nodes {
                    self.abort.node_reason
                } else {
                    StopReason::Time
                };
            }
        }
        self.abort.aborted
    }

    /// The score of a position for the player to move, exact inside
    /// `(alpha, beta)`, a bound outside (fail-soft).
    #[inline]
    fn search(&mut self, player: u64, opponent: u64, alpha: i32, beta: i32) -> i32 {
        let empties = !(player | opponent);
        let count = empties.count_ones();
        if count >= DEEP_MIN_EMPTIES {
            self.deep(player, opponent, alpha, beta)
        } else if count == 0 {
            self.nodes += 1;
            final_score(player, opponent)
        } else {
            let mut squares = [0u8; DEEP_MIN_EMPTIES as usize];
            let length = parity_order(empties, &mut squares);
            self.shallow(player, opponent, alpha, beta, &squares[..length], false)
        }
    }

    /// Far from the end: generated, ordered moves and the table.
    fn deep(&mut self, player: u64, opponent: u64, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.check_abort() {
            return 0;
        }
        let moves = mobility(player, opponent);
        if moves == 0 {
            if mobility(opponent, player) == 0 {
                return final_score(player, opponent);
            }
            return -self.deep(opponent, player, -beta, -alpha);
        }
        let empty_count = (!(player | opponent)).count_ones();
        if alpha >= STABILITY_THRESHOLD[empty_count as usize] {
            let bound = stability_bound(player, opponent);
            if bound <= alpha {
                return bound;
            }
        }
        let use_table = empty_count >= TABLE_MIN_EMPTIES;
        let mut hint = NO_MOVE;
        if use_table && let Some(entry) = self.table.probe(player, opponent) {
            let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if lower == upper {
                return lower;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
            hint = entry.best;
        }
        let alpha_in = alpha;
        let list = MoveList::new(player, opponent, moves, Some(hint));
        if empty_count >= ETC_MIN_EMPTIES {
            // Enhanced transposition cutoff: a child already known to be bad
            // enough for the opponent refutes this node without a search.
            for mv in list.iter() {
                let child_player = opponent ^ mv.flipped;
                let child_opponent = player ^ mv.flipped ^ (1 << mv.square);
                if let Some(entry) = self.table.probe(child_player, child_opponent) {
                    let score = -i32::from(entry.upper);
                    if score >= beta {
                        self.table
                            .store(player, opponent, score, alpha_in, beta, mv.square);
                        return score;
                    }
                }
            }
        }
        let mut best_score = NO_SCORE;
        let mut best_square = NO_MOVE;
        for (index, mv) in list.iter().enumerate() {
            let (child_player, child_opponent) = (
                opponent ^ mv.flipped,
                player ^ mv.flipped ^ (1 << mv.square),
            );
            let score = if index == 0 {
                -self.search(child_player, child_opponent, -beta, -alpha)
            } else {
                let probe = -self.search(child_player, child_opponent, -alpha - 1, -alpha);
                if probe > alpha && probe < beta {
                    -self.search(child_player, child_opponent, -beta, -probe)
                } else {
                    probe
                }
            };
            if self.abort.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_square = mv.square;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if use_table {
            self.table
                .store(player, opponent, best_score, alpha_in, beta, best_square);
        }
        best_score
    }

    /// Near the end: tries the squares of `squares` that are still empty,
    /// in order (the caller lists odd-parity quadrants first). The list
    /// is the one made where the shallow search began, so nothing is copied
    /// on the way down. `passed` is set when the opponent has just passed.
    fn shallow(
        &mut self,
        player: u64,
        opponent: u64,
        mut alpha: i32,
        beta: i32,
        squares: &[u8],
        passed: bool,
    ) -> i32 {
        self.nodes += 1;
        let empties = !(player | opponent);
        if empties & (empties - 1) == 0 {
            return last_square(player, opponent, empties.trailing_zeros() as u8);
        }
        let mut best_score = NO_SCORE;
        for &square in squares {
            let bit = 1u64 << square;
            if empties & bit == 0 || NEIGHBOURS[square as usize] & opponent == 0 {
                continue;
            }
            let flipped = flips(square as usize, player, opponent);
            if flipped == 0 {
                continue;
            }
            let score = -self.shallow(
                opponent ^ flipped,
                player ^ flipped ^ bit,
                -beta,
                -alpha,
                squares,
                false,
            );
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        return best_score;
                    }
                }
            }
        }
        if best_score == NO_SCORE {
            if passed {
                // Neither side can move.
                return final_score(player, opponent);
            }
            return -self.shallow(opponent, player, -beta, -alpha, squares, true);
        }
        best_score
    }
}

/// The final score for `player` when neither side can move: the disc
/// difference, empty squares to the winner.
#[inline]
fn final_score(player: u64, opponent: u64) -> i32 {
    let own = player.count_ones() as i32;
    let other = opponent.count_ones() as i32;
    let diff = own - other;
    let empty = 64 - own - other;
    if diff > 0 {
        diff + empty
    } else if diff < 0 {
        diff - empty
    } else {
        0
    }
}

/// The final score for `player` with one empty square, `square`: whoever
/// can play it does (the player to move first), then the game is over.
#[inline]
fn last_square(player: u64, opponent: u64, square: u8) -> i32 {
    let own = player.count_ones() as i32;
    let flipped = flips(square as usize, player, opponent).count_ones() as i32;
    if flipped > 0 {
        return 2 * (own + flipped) - 62;
    }
    let taken = flips(square as usize, opponent, player).count_ones() as i32;
    if taken > 0 {
        return 2 * (own - taken) - 64;
    }
    // Nobody can play: 63 discs, the empty square to the winner.
    let diff = 2 * own - 63;
    if diff > 0 { diff + 1 } else { diff - 1 }
}

/// Squares on file a, file h, rank 1, rank 8.
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00FF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;

/// The squares of every line (rank, file, diagonal, anti-diagonal), by
/// direction: `[0]` ranks, `[1]` files, `[2]` diagonals (`a1`-`h8` way),
/// `[3]` anti-diagonals. Short diagonals are padded with empty masks.
const LINES: [[u64; 15]; 4] = build_lines();

const fn build_lines() -> [[u64; 15]; 4] {
    let mut lines = [[0u64; 15]; 4];
    let mut square = 0;
    while square < 64 {
        let (col, row) = (square % 8, square / 8);
        let bit = 1u64 << square;
        lines[0][row] |= bit;
        lines[1][col] |= bit;
        lines[2][7 + col - row] |= bit;
        lines[3][col + row] |= bit;
        square += 1;
    }
    lines
}

/// For each direction, the squares whose line in that direction is full:
/// no disc can ever be flipped along it.
#[inline]
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut full = [0u64; 4];
    for (direction, lines) in LINES.iter().enumerate() {
        for &line in lines {
            if occupied & line == line {
                full[direction] |= line;
            }
        }
    }
    full
}

/// A subset of the discs of `own` that can never be flipped: those that,
/// along each of the four lines through them, sit on a full line, at the
/// board's edge, or next to a disc of theirs already known to be stable.
/// Grown from the corners until nothing changes.
fn stable_discs(own: u64, other: u64) -> u64 {
    let [full_rank, full_file, full_diagonal, full_anti] = full_lines(own | other);
    let edges = FILE_A | FILE_H | RANK_1 | RANK_8;
    let mut stable = own & ((CORNERS) | (full_rank & full_file & full_diagonal & full_anti));
    loop {
        let rank =
            full_rank | FILE_A | FILE_H | ((stable << 1) & !FILE_A) | ((stable >> 1) & !FILE_H);
        let file = full_file | RANK_1 | RANK_8 | (stable << 8) | (stable >> 8);
        let diagonal =
            full_diagonal | edges | ((stable << 9) & !FILE_A) | ((stable >> 9) & !FILE_H);
        let anti = full_anti | edges | ((stable << 7) & !FILE_H) | ((stable >> 7) & !FILE_A);
        let grown = stable | (own & rank & file & diagonal & anti);
        if grown == stable {
            return stable;
        }
        stable = grown;
    }
}

/// The best score the player to move can still reach, given the
/// opponent's stable discs.
#[inline]
fn stability_bound(player: u64, opponent: u64) -> i32 {
    64 - 2 * stable_discs(opponent, player).count_ones() as i32
}

/// The squares next to each square (king moves), to skip squares with no
/// opponent disc beside them without computing flips.
static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let (col, row) = ((square % 8) as i32, (square / 8) as i32);
        let mut mask = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (c, r) = (col + dc, row + dr);
                if (dc != 0 || dr != 0) && c >= 0 && c < 8 && r >= 0 && r < 8 {
                    mask |= 1 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        table[square] = mask;
        square += 1;
    }
    table
}

/// The squares next to any square of `bits`.
#[inline]
fn neighbours(bits: u64) -> u64 {
    let sideways = ((bits << 1) & !FILE_A) | ((bits >> 1) & !FILE_H);
    let row = bits | sideways;
    sideways | (row << 8) | (row >> 8)
}

/// How much each empty square next to the mover's discs (where the
/// opponent may find moves later) counts against a move, against 16 per
/// opponent reply.
const POTENTIAL_WEIGHT: i32 = 4;

/// The four quadrants of the board.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Squares by static preference: corners, then the edge squares two away
/// from a corner (A-squares) and the middle edges, the inner squares, the
/// C-squares, and the X-squares last.
const PREFERENCE: [u64; 5] = [
    CORNERS,
    EDGES & !CORNERS & !C_SQUARES,
    !EDGES & !X_SQUARES,
    C_SQUARES,
    X_SQUARES,
];

/// The squares on the rim of the board.
const EDGES: u64 = 0xFF81_8181_8181_81FF;

/// The edge squares next to a corner.
const C_SQUARES: u64 = 0x4281_0000_0000_8142;

/// Writes the empty squares into `out` in search order: squares of
/// quadrants with an odd number of empties first (the last move of such a
/// region tends to be ours), each group by [`PREFERENCE`]. Returns the
/// count.
fn parity_order(empties: u64, out: &mut [u8]) -> usize {
    let mut odd = 0u64;
    for quadrant in QUADRANTS {
        if (empties & quadrant).count_ones() & 1 == 1 {
            odd |= quadrant;
        }
    }
    let mut length = 0;
    for group in [empties & odd, empties & !odd] {
        for class in PREFERENCE {
            for square in Bits(group & class) {
                out[length] = square as u8;
                length += 1;
            }
        }
    }
    length
}

/// "No move" in the table.
const NO_MOVE: u8 = 64;

/// A move with what it flips.
#[derive(Clone, Copy, Debug)]
struct OrderedMove {
    square: u8,
    flipped: u64,
}

/// The moves of a deep node, best first.
struct MoveList {
    squares: [u8; 64],
    flipped: [u64; 64],
    length: usize,
}

impl MoveList {
    /// Orders by: the table's move first, then fewest opponent replies
    /// (corners counted twice), then corners and odd-parity quadrants.
    #[inline(always)]
    fn new(player: u64, opponent: u64, moves: u64, hint: Option<u8>) -> MoveList {
        let empties = !(player | opponent);
        let mut odd = 0u64;
        for quadrant in QUADRANTS {
            if (empties & quadrant).count_ones() & 1 == 1 {
                odd |= quadrant;
            }
        }
        let mut list = MoveList {
            squares: [0; 64],
            flipped: [0; 64],
            length: 0,
        };
        let mut keys = [0i32; 64];
        for square in Bits(moves) {
            let bit = 1u64 << square;
            let flipped = flips(square, player, opponent);
            let replies = mobility(opponent ^ flipped, player ^ flipped ^ bit);
            let own_after = player ^ flipped ^ bit;
            let frontier = neighbours(own_after) & empties & !bit;
            let mut key = -16
                * (replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32)
                - POTENTIAL_WEIGHT * frontier.count_ones() as i32;
            if bit & CORNERS != 0 {
                key += 8;
            }
            if bit & odd != 0 {
                key += 4;
            }
            if Some(square as u8) == hint {
                key = i32::MAX;
            }
            // Insertion sort, best key first.
            let mut slot = list.length;
            while slot > 0 && keys[slot - 1] < key {
                keys[slot] = keys[slot - 1];
                list.squares[slot] = list.squares[slot - 1];
                list.flipped[slot] = list.flipped[slot - 1];
                slot -= 1;
            }
            keys[slot] = key;
            list.squares[slot] = square as u8;
            list.flipped[slot] = flipped;
            list.length += 1;
        }
        list
    }

    fn iter(&self) -> impl Iterator<Item = OrderedMove> + '_ {
        self.squares[..self.length]
            .iter()
            .zip(&self.flipped[..self.length])
            .map(|(&square, &flipped)| OrderedMove { square, flipped })
    }

    fn first_square(&self) -> Option<Square> {
        self.iter()
            .next()
            .and_then(|mv| Square::new(mv.square as usize))
    }
}

/// One table entry: the whole position, bounds on its score, a best move.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    player: u64,
    opponent: u64,
    lower: i8,
    upper: i8,
    best: u8,
    empties: u8,
    used: bool,
}

/// The transposition table: buckets of two entries; the first keeps the
/// deeper position, the second takes whatever comes.
#[derive(Clone, Debug)]
struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Result<Table, ConfigError> {
        let size = 1usize << bits;
        let mut entries = Vec::new();
        entries
            .try_reserve_exact(size)
            .map_err(|_| ConfigError::OutOfMemory {
                what: "transposition table",
                bytes: size.saturating_mul(size_of::<Entry>()),
            })?;
        entries.resize(size, Entry::default());
        Ok(Table {
            entries,
            mask: (size - 1) & !1,
        })
    }

    fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    #[inline]
    fn bucket(&self, player: u64, opponent: u64) -> usize {
        (mix64(player ^ mix64(opponent)) as usize) & self.mask
    }

    #[inline]
    fn probe(&self, player: u64, opponent: u64) -> Option<Entry> {
        let bucket = self.bucket(player, opponent);
        self.entries[bucket..bucket + 2]
            .iter()
            .find(|entry| entry.used && entry.player == player && entry.opponent == opponent)
            .copied()
    }

    /// Records a fail-soft result `score` of a search of window
    /// `(alpha, beta)`, merged with what is known already.
    fn store(&mut self, player: u64, opponent: u64, score: i32, alpha: i32, beta: i32, best: u8) {
        let bucket = self.bucket(player, opponent);
        let empties = (!(player | opponent)).count_ones() as u8;
        let (mut lower, mut upper) = (-64i8, 64i8);
        if score > alpha {
            lower = score as i8;
        }
        if score < beta {
            upper = score as i8;
        }
        let slot = if let Some(index) = (bucket..bucket + 2).find(|&index| {
            let entry = &self.entries[index];
            entry.used && entry.player == player && entry.opponent == opponent
        }) {
            let entry = &mut self.entries[index];
            lower = lower.max(entry.lower);
            upper = upper.min(entry.upper);
            if best == NO_MOVE {
                entry.lower = lower;
                entry.upper = upper;
                return;
            }
            index
        } else if !self.entries[bucket].used || self.entries[bucket].empties <= empties {
            // The deeper position keeps the first slot; the one it displaces
            // moves to the second.
            self.entries[bucket + 1] = self.entries[bucket];
            bucket
        } else {
            bucket + 1
        };
        self.entries[slot] = Entry {
            player,
            opponent,
            lower,
            upper,
            best,
            empties,
            used: true,
        };
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
        self.abort = Abort {
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
            next_check: 0,
            aborted: false,
            reason: StopReason::Unknown,
        };
        let (alpha, beta) = match self.mode {
            SolveMode::Exact => (-64, 64),
            SolveMode::WinLossDraw => (-1, 1),
        };
        let (score, best, nodes) = self.solve_window(board, alpha, beta);
        let elapsed = started.elapsed();
        let stats = SearchStats::new(0, nodes, board.empty_count(), elapsed);
        if self.abort.aborted {
            let best = best.or_else(|| first_legal(board));
            return SearchReport::new(best, 0.0)
                .with_pv(best.into_iter().collect())
                .with_stats(stats.with_stop(self.abort.reason));
        }
        let value = match self.mode {
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
        match self.mode {
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

    #[test]
    fn last_square_scores() {
        // Black to move, h8 empty, flips f8 and g8.
        let board: Board = format!("{}OO- X", "X".repeat(61)).parse().unwrap();
        assert_eq!(last_square(board.player(), board.opponent(), 63), 64);
        // White to move there: White cannot play h8, Black can.
        let flipped =
            Board::from_player_opponent(board.opponent(), board.player(), board.side()).unwrap();
        assert_eq!(last_square(flipped.player(), flipped.opponent(), 63), -64);
    }

    #[test]
    fn stable_discs_are_never_flipped() {
        use game_traits::Game;
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        let mut moves = Vec::new();
        let mut found = 0;
        for _ in 0..300 {
            let mut board = Board::start();
            let mut history = Vec::new();
            loop {
                history.push(board.clone());
                board.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                board.play(moves[rng.random_range(..moves.len())]);
            }
            // Discs stable at some point keep their colour to the end.
            for earlier in &history {
                let black = stable_discs(earlier.black(), earlier.white());
                let white = stable_discs(earlier.white(), earlier.black());
                assert_eq!(black & board.black(), black, "{earlier}");
                assert_eq!(white & board.white(), white, "{earlier}");
                found += (black | white).count_ones();
            }
        }
        assert!(found > 10_000);
        assert_eq!(stable_discs(u64::MAX, 0), u64::MAX);
        assert_eq!(stable_discs(CORNERS, 0), CORNERS);
    }

    #[test]
    fn parity_order_lists_every_empty_once() {
        let empties = 0x8100_0000_0018_4281u64;
        let mut out = [0u8; 64];
        let length = parity_order(empties, &mut out);
        assert_eq!(length, empties.count_ones() as usize);
        assert_eq!(out[..length].iter().fold(0u64, |m, &s| m | 1 << s), empties);
        let classes = PREFERENCE.iter().fold(0u64, |m, c| {
            assert_eq!(m & c, 0);
            m | c
        });
        assert_eq!(classes, u64::MAX);
    }
}
