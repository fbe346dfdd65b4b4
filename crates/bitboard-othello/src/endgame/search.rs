//! The recursive search of the endgame solver.
//!
//! The node bodies are generic `#[inline(always)]` functions that call
//! their children through a [`Recursion`]: `crate::dispatch` wraps them in
//! small recursive functions compiled once per instruction set, so the
//! whole search runs with the instructions chosen at the root.
//!
//! * From [`DEEP_MIN_EMPTIES`] empties up ([`deep`]): generated moves,
//!   ordered fastest-first (from [`ESTIMATE_MIN_EMPTIES`] up, by a shallow
//!   search of each, [`estimate`]), the table, enhanced transposition
//!   cutoffs, stability cutoffs, and (with helper threads) split points.
//! * Below ([`shallow`]): no move generation; the empty squares in parity
//!   order, the squares with no opponent disc beside them skipped; three,
//!   two and one empty squares have their own code, the last square with
//!   a lazy look at the opponent's move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use game_traits::StopReason;

use super::parallel::{SplitRequest, Worker};
use super::table::{NO_MOVE, Table};
use crate::PatternWeights;
use crate::eval::{CORNERS, X_SQUARES};
use crate::movegen::{Bits, count_last_flips};

/// Empty squares from which the search orders moves by mobility; below,
/// the fixed parity order. (At 6 empties, ordering by mobility visits
/// 11% fewer positions on FFO #40-#44, 151.6 M against 170.3 M with the
/// pattern ordering above, in about the same time: each costs more.)
pub(crate) const DEEP_MIN_EMPTIES: u32 = 6;

/// Empty squares from which a node looks up its children in the table
/// before searching them.
const ETC_MIN_EMPTIES: u32 = 9;

/// Empty squares from which a position is stored in the table.
const TABLE_MIN_EMPTIES: u32 = 8;

/// Empty squares from which a node orders its moves by a shallow search
/// of each ([`estimate`]) added to the fastest-first key, as deep as
/// [`estimate_depth`] says. The cost is small beside the subtree of a node
/// this far from the end, and the order is much better: on FFO #45-#49
/// the solver visits 67% fewer positions than with the fastest-first key
/// alone, estimates included (with the mobility heuristic at the leaves).
const ESTIMATE_MIN_EMPTIES: u32 = 14;

/// How many plies the ordering search of a node with `count` empty
/// squares looks ahead: one below 16, two below 18, three below 22, four
/// from there. With the shipped pattern weights at the leaves, FFO
/// #40-#44 took 149.6 M positions and #45-#49 1.57 G (before the
/// stability cutoffs reached the shallow nodes); the earlier
/// schedule (two plies from 16, four from 22) took 182.5 M and 2.07 G on
/// the same weights, and 227.6 M and 3.11 G with the mobility heuristic
/// alone. (With the heuristic alone, odd depths order worse: it mostly
/// counts mobility.)
#[inline(always)]
pub(crate) fn estimate_depth(count: u32) -> u32 {
    match count {
        ..16 => 1,
        16..18 => 2,
        18..22 => 3,
        _ => 4,
    }
}

/// How many moves of a node are searched before the others may be shared
/// with idle threads. With split points kept to
/// [`super::parallel::SPLIT_MAX_EMPTIES`] empties or fewer, one is enough:
/// two threads on FFO #45-#49 finished in 66.8 s waiting for one, 72.8 s
/// waiting for two (the splits wasted were small, the idle time less).
const YOUNG_BROTHERS_WAIT_FOR: usize = 1;

/// From which `alpha` a node checks whether the opponent's stable discs
/// already hold the score below it, by empty squares (the check costs a
/// little and seldom succeeds when `alpha` is low). Deep and shallow nodes
/// check, down to four empty squares: there, on FFO #40-#44, the cutoffs
/// spare 8% of the positions (149.6 M to 137.6 M; #45-#49 1.570 G to
/// 1.305 G) for 3% and 9% less time. At three empty squares they cost
/// more than they spare, and so does any other threshold tried (from
/// `alpha` at least -16 to `alpha` at least four a square).
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
pub(crate) const NO_SCORE: i32 = -127;

/// How many nodes pass between two looks at the clock.
const CHECK_INTERVAL: u64 = 1 << 14;

/// The limits of one solve, shared by its threads.
#[derive(Debug, Default)]
pub(crate) struct Control {
    pub(crate) deadline: Option<Instant>,
    pub(crate) node_limit: Option<u64>,
    /// What reaching `node_limit` means: the caller's limit or the
    /// default budget.
    pub(crate) node_reason: StopReason,
    pub(crate) stop: Option<Arc<AtomicBool>>,
    /// Threads searching (the node limit is shared among them).
    pub(crate) threads: u64,
    /// Set when a limit ran out; every thread then unwinds.
    pub(crate) aborted: AtomicBool,
    /// Why, once `aborted` (a [`StopReason`] code).
    pub(crate) reason: AtomicU8,
    /// Nodes of all threads, as far as they have reported them.
    pub(crate) nodes: AtomicU64,
}

impl Control {
    /// Why the search stopped early, if it did.
    pub(crate) fn stop_reason(&self) -> Option<StopReason> {
        self.aborted
            .load(Ordering::Relaxed)
            .then(|| match self.reason.load(Ordering::Relaxed) {
                0 => StopReason::Stopped,
                1 => self.node_reason,
                _ => StopReason::Time,
            })
    }

    fn abort(&self, code: u8) {
        if !self.aborted.swap(true, Ordering::Relaxed) {
            self.reason.store(code, Ordering::Relaxed);
        }
    }

    /// Whether some thread ran into a limit.
    #[inline]
    pub(crate) fn is_aborted(&self) -> bool {
        self.aborted.load(Ordering::Relaxed)
    }
}

/// A move of a deep node with what it flips, the opponent's replies after
/// it and its ordering key.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Candidate {
    pub(crate) flipped: u64,
    pub(crate) replies: u64,
    pub(crate) key: i32,
    pub(crate) square: u8,
}

/// Where the moves of a node with `count` empty squares (at most `count`
/// moves) start in [`Search::moves`]: each empty count has its own
/// stretch, and the empty count falls by one at every move (a pass node
/// has no moves of its own), so no node overwrites an ancestor's list.
#[inline(always)]
fn list_base(count: u32) -> usize {
    (count * count.saturating_sub(1) / 2) as usize
}

/// The state of one thread's search.
pub(crate) struct Search<'a> {
    pub(crate) table: &'a Table,
    pub(crate) control: &'a Control,
    /// Positions this thread visited.
    pub(crate) nodes: u64,
    /// How many of `nodes` were added to `control.nodes`.
    reported: u64,
    next_check: u64,
    /// Set when the search must unwind: a limit ran out, or (with helper
    /// threads) a split point above this thread was refuted.
    pub(crate) aborted: bool,
    /// The move lists of the nodes on the current path, by empty count.
    pub(crate) moves: Vec<Candidate>,
    /// The helper-thread side of a parallel solve.
    pub(crate) worker: Option<Worker<'a>>,
    /// Pattern weights whose estimate values the leaves of the ordering
    /// searches, in place of [`heuristic_value`].
    pub(crate) ordering: Option<&'a PatternWeights>,
}

impl<'a> Search<'a> {
    pub(crate) fn new(table: &'a Table, control: &'a Control, worker: Option<Worker<'a>>) -> Self {
        Search {
            table,
            control,
            nodes: 0,
            reported: 0,
            next_check: 0,
            aborted: false,
            moves: vec![Candidate::default(); list_base(65)],
            worker,
            ordering: None,
        }
    }

    /// Whether the search must unwind; looks at the limits every so often
    /// and, with helper threads, at the split points above.
    #[inline(always)]
    fn check_abort(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.poll_limits();
        }
        if let Some(worker) = &self.worker
            && worker.is_refuted()
        {
            self.aborted = true;
        }
        self.aborted
    }

    #[cold]
    #[inline(never)]
    fn poll_limits(&mut self) {
        let control = self.control;
        let total = control
            .nodes
            .fetch_add(self.nodes - self.reported, Ordering::Relaxed)
            + (self.nodes - self.reported);
        self.reported = self.nodes;
        // Look again after the interval, or (one thread) exactly at the
        // node limit.
        let mut step = CHECK_INTERVAL;
        if let Some(limit) = control.node_limit {
            step = step.min((limit.saturating_sub(total) / control.threads.max(1)).max(1));
        }
        self.next_check = self.nodes + step;
        let stopped = control
            .stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed));
        if stopped {
            control.abort(0);
        } else if control.node_limit.is_some_and(|limit| total >= limit) {
            control.abort(1);
        } else if control
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            control.abort(2);
        }
        if control.is_aborted() {
            self.aborted = true;
        }
    }
}

/// How the node bodies call their children: through the recursive
/// functions of the instruction set in use.
pub(crate) trait Recursion<'a>: Copy {
    /// The discs a move on `square` flips (see [`crate::movegen::flips`]).
    fn flips(self, square: usize, player: u64, opponent: u64) -> u64;

    /// The player's moves (see [`crate::movegen::mobility`]).
    fn mobility(self, player: u64, opponent: u64) -> u64;

    /// A deep node: `moves` is the player's mobility.
    fn node(
        self,
        search: &mut Search<'a>,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        beta: i32,
    ) -> i32;

    /// A heuristic value of the position for the player, `depth` plies
    /// ahead (see [`estimate`]).
    fn estimate(
        self,
        search: &mut Search<'a>,
        player: u64,
        opponent: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32;

    /// A shallow node over the parity-ordered `squares`.
    // Hot: the arguments stay in registers; a struct would go through memory.
    #[allow(clippy::too_many_arguments)]
    fn shallow(
        self,
        search: &mut Search<'a>,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        squares: &[u8],
        passed: bool,
    ) -> i32;
}

/// A [`Recursion`] from five closures.
#[derive(Clone, Copy)]
pub(crate) struct Recurse<F, M, N, E, S> {
    pub(crate) flips: F,
    pub(crate) mobility: M,
    pub(crate) node: N,
    pub(crate) estimate: E,
    pub(crate) shallow: S,
}

impl<'a, F, M, N, E, S> Recursion<'a> for Recurse<F, M, N, E, S>
where
    F: Fn(usize, u64, u64) -> u64 + Copy,
    M: Fn(u64, u64) -> u64 + Copy,
    N: Fn(&mut Search<'a>, u64, u64, u64, i32, i32) -> i32 + Copy,
    E: Fn(&mut Search<'a>, u64, u64, u32, i32, i32) -> i32 + Copy,
    S: Fn(&mut Search<'a>, u64, u64, i32, i32, &[u8], bool) -> i32 + Copy,
{
    #[inline(always)]
    fn flips(self, square: usize, player: u64, opponent: u64) -> u64 {
        (self.flips)(square, player, opponent)
    }

    #[inline(always)]
    fn mobility(self, player: u64, opponent: u64) -> u64 {
        (self.mobility)(player, opponent)
    }

    #[inline(always)]
    fn node(
        self,
        search: &mut Search<'a>,
        player: u64,
        opponent: u64,
        moves: u64,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        (self.node)(search, player, opponent, moves, alpha, beta)
    }

    #[inline(always)]
    fn estimate(
        self,
        search: &mut Search<'a>,
        player: u64,
        opponent: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        (self.estimate)(search, player, opponent, depth, alpha, beta)
    }

    #[inline(always)]
    fn shallow(
        self,
        search: &mut Search<'a>,
        player: u64,
        opponent: u64,
        alpha: i32,
        beta: i32,
        squares: &[u8],
        passed: bool,
    ) -> i32 {
        (self.shallow)(search, player, opponent, alpha, beta, squares, passed)
    }
}

/// The root: searches every move of a position where the player has one
/// within `(alpha, beta)`, and returns the fail-soft score and the best
/// square (the first move of the ordering when nothing was completed).
#[inline(always)]
pub(crate) fn root<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
) -> (i32, u8) {
    search.nodes += 1;
    let alpha_in = alpha;
    let count = (!(player | opponent)).count_ones();
    let hint = search
        .table
        .probe(player, opponent)
        .map_or(NO_MOVE, |entry| entry.best);
    let base = list_base(count);
    let length = fill_moves(
        recursion,
        search,
        base,
        player,
        opponent,
        recursion.mobility(player, opponent),
        hint,
    );
    if count >= ESTIMATE_MIN_EMPTIES {
        order_by_estimate(recursion, search, base..base + length, player, opponent);
    }
    // The root never splits: its first move is most of the work.
    let (best_score, best_square) = search_moves(
        recursion,
        search,
        (player, opponent),
        base..base + length,
        0,
        alpha,
        beta,
    );
    let best_square = if best_square == NO_MOVE {
        search.moves[base].square
    } else {
        best_square
    };
    if !search.aborted {
        search
            .table
            .store(player, opponent, best_score, alpha_in, beta, best_square);
    }
    (best_score, best_square)
}

/// A child of a deep node (or of the root), by its empty count.
#[inline(always)]
fn child<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    moves: u64,
    alpha: i32,
    beta: i32,
) -> i32 {
    let empties = !(player | opponent);
    let count = empties.count_ones();
    if count >= DEEP_MIN_EMPTIES {
        recursion.node(search, player, opponent, moves, alpha, beta)
    } else {
        match count {
            0 => {
                search.nodes += 1;
                final_score(player, opponent)
            }
            1 => last_square(search, player, opponent, empties.trailing_zeros(), alpha),
            2 => two_empties(
                recursion,
                search,
                player,
                opponent,
                alpha,
                beta,
                empties.trailing_zeros(),
                63 - empties.leading_zeros(),
            ),
            3 => three_empties(
                recursion,
                search,
                player,
                opponent,
                alpha,
                beta,
                parity_three(empties),
            ),
            _ => {
                // The limits are looked at here too, so a solve cut short
                // runs past its node limit by at most one shallow subtree.
                if search.nodes >= search.next_check {
                    search.poll_limits();
                    if search.aborted {
                        return 0;
                    }
                }
                let mut squares = [0u8; DEEP_MIN_EMPTIES as usize];
                let length = parity_order(empties, &mut squares);
                recursion.shallow(
                    search,
                    player,
                    opponent,
                    alpha,
                    beta,
                    &squares[..length],
                    false,
                )
            }
        }
    }
}

/// Far from the end: generated, ordered moves and the table. `moves` is
/// the player's mobility.
#[inline(always)]
pub(crate) fn deep<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    moves: u64,
    mut alpha: i32,
    mut beta: i32,
) -> i32 {
    search.nodes += 1;
    if search.check_abort() {
        return 0;
    }
    if moves == 0 {
        let replies = recursion.mobility(opponent, player);
        if replies == 0 {
            return final_score(player, opponent);
        }
        return -recursion.node(search, opponent, player, replies, -beta, -alpha);
    }
    let count = (!(player | opponent)).count_ones();
    if let Some(bound) = stability_cutoff(player, opponent, count, alpha) {
        return bound;
    }
    let use_table = count >= TABLE_MIN_EMPTIES;
    let mut hint = NO_MOVE;
    if use_table && let Some(entry) = search.table.probe(player, opponent) {
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
    let base = list_base(count);
    let length = fill_moves(recursion, search, base, player, opponent, moves, hint);
    // The table is looked at before the ordering searches, which a cutoff
    // here spares.
    if count >= ETC_MIN_EMPTIES {
        // Enhanced transposition cutoff: a child already known to be bad
        // enough for the opponent refutes this node without a search.
        for index in 0..length {
            let mv = search.moves[base + index];
            let child_player = opponent ^ mv.flipped;
            let child_opponent = player ^ mv.flipped ^ (1 << mv.square);
            if let Some(entry) = search.table.probe(child_player, child_opponent) {
                let score = -i32::from(entry.upper);
                if score >= beta {
                    search
                        .table
                        .store(player, opponent, score, alpha_in, beta, mv.square);
                    return score;
                }
            }
        }
    }
    if count >= ESTIMATE_MIN_EMPTIES {
        order_by_estimate(recursion, search, base..base + length, player, opponent);
        if search.aborted {
            return 0;
        }
    }
    let (best_score, best_square) = search_moves(
        recursion,
        search,
        (player, opponent),
        base..base + length,
        count,
        alpha,
        beta,
    );
    if search.aborted {
        return 0;
    }
    if use_table {
        search
            .table
            .store(player, opponent, best_score, alpha_in, beta, best_square);
    }
    best_score
}

/// Searches the moves `search.moves[list]` of a node with `count` empty
/// squares in order, the first with the full window, and returns the
/// fail-soft score and the best square ([`NO_MOVE`] if none was
/// completed). With helper threads idle, the moves after the first may be
/// shared out (young brothers wait, see [`super::parallel`]).
#[inline(always)]
fn search_moves<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    (player, opponent): (u64, u64),
    list: std::ops::Range<usize>,
    count: u32,
    mut alpha: i32,
    beta: i32,
) -> (i32, u8) {
    let mut best_score = NO_SCORE;
    let mut best_square = NO_MOVE;
    for (index, slot) in list.clone().enumerate() {
        if index == YOUNG_BROTHERS_WAIT_FOR
            && let Some(worker) = &search.worker
            && worker.wants_split(count)
        {
            let split = SplitRequest::new(
                player,
                opponent,
                &search.moves[slot..list.end],
                (alpha, beta),
                (best_score, best_square),
            );
            return super::parallel::run_split(recursion, search, split);
        }
        let mv = search.moves[slot];
        let score = search_move(
            recursion,
            search,
            player,
            opponent,
            mv,
            index == 0,
            alpha,
            beta,
        );
        if search.aborted {
            break;
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
    (best_score, best_square)
}

/// The score of one move of a deep node: a full-window search for the
/// first move, a null-window probe (and a re-search when it lands inside
/// the window) for the others.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_move<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    mv: Candidate,
    first: bool,
    alpha: i32,
    beta: i32,
) -> i32 {
    let (child_player, child_opponent) = (
        opponent ^ mv.flipped,
        player ^ mv.flipped ^ (1 << mv.square),
    );
    if first {
        return -child(
            recursion,
            search,
            child_player,
            child_opponent,
            mv.replies,
            -beta,
            -alpha,
        );
    }
    let probe = -child(
        recursion,
        search,
        child_player,
        child_opponent,
        mv.replies,
        -alpha - 1,
        -alpha,
    );
    if probe > alpha && probe < beta && !search.aborted {
        -child(
            recursion,
            search,
            child_player,
            child_opponent,
            mv.replies,
            -beta,
            -probe,
        )
    } else {
        probe
    }
}

/// Near the end, from four empty squares up: tries the squares of
/// `squares` that are still empty, in order (the caller lists odd-parity
/// quadrants first). The list is the one made where the shallow search
/// began, so nothing is copied on the way down. `passed` is set when the
/// opponent has just passed.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn shallow<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    mut alpha: i32,
    beta: i32,
    squares: &[u8],
    passed: bool,
) -> i32 {
    search.nodes += 1;
    let empties = !(player | opponent);
    let count = empties.count_ones();
    if let Some(bound) = stability_cutoff(player, opponent, count, alpha) {
        return bound;
    }
    let mut best_score = NO_SCORE;
    for &square in squares {
        let bit = 1u64 << square;
        if empties & bit == 0 || NEIGHBOURS[square as usize] & opponent == 0 {
            continue;
        }
        let flipped = recursion.flips(square as usize, player, opponent);
        if flipped == 0 {
            continue;
        }
        let (child_player, child_opponent) = (opponent ^ flipped, player ^ flipped ^ bit);
        let rest = empties ^ bit;
        let score = if rest.count_ones() == 3 {
            -three_empties(
                recursion,
                search,
                child_player,
                child_opponent,
                -beta,
                -alpha,
                parity_three(rest),
            )
        } else {
            -recursion.shallow(
                search,
                child_player,
                child_opponent,
                -beta,
                -alpha,
                squares,
                false,
            )
        };
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
        return -recursion.shallow(search, opponent, player, -beta, -alpha, squares, true);
    }
    best_score
}

/// The three squares of `empties` in search order: a square alone in its
/// quadrant (odd parity) before two that share one.
#[inline(always)]
fn parity_three(empties: u64) -> [u32; 3] {
    let low = empties.trailing_zeros();
    let high = 63 - empties.leading_zeros();
    let middle = (empties & !(1 << low) & !(1 << high)).trailing_zeros();
    // Bits 2 and 5 of a square name its quadrant.
    let quadrant = |square: u32| square & 0b10_0100;
    let (low_quadrant, middle_quadrant, high_quadrant) =
        (quadrant(low), quadrant(middle), quadrant(high));
    if low_quadrant == middle_quadrant && middle_quadrant != high_quadrant {
        [high, low, middle]
    } else if low_quadrant == high_quadrant && low_quadrant != middle_quadrant {
        [middle, low, high]
    } else {
        [low, middle, high]
    }
}

/// Three empty squares, `squares` in search order, the player to move.
/// Its own code rather than [`shallow`]'s: no list of squares to walk
/// past the filled ones, and the order made afresh for these three (4%
/// faster on FFO #40-#44, 1% fewer nodes).
#[inline(always)]
fn three_empties<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    squares: [u32; 3],
) -> i32 {
    search.nodes += 1;
    if let Some(score) =
        three_empties_moves(recursion, search, player, opponent, alpha, beta, squares)
    {
        return score;
    }
    // The player passes.
    search.nodes += 1;
    match three_empties_moves(recursion, search, opponent, player, -beta, -alpha, squares) {
        Some(score) => -score,
        None => final_score(player, opponent),
    }
}

/// The fail-soft best of the player's moves on `squares`, or `None` if
/// none is legal. Written out square by square rather than as a loop over
/// the array: the loop kept the squares in memory, and reading them back
/// as one word after three narrow stores stalled (8% of the shallow
/// search's time).
#[inline(always)]
fn three_empties_moves<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    [first, second, third]: [u32; 3],
) -> Option<i32> {
    let mut window = (alpha, beta);
    let mut best_score = NO_SCORE;
    for (square, rest) in [
        (first, (second, third)),
        (second, (first, third)),
        (third, (first, second)),
    ] {
        if three_empties_move(
            recursion,
            search,
            (player, opponent),
            &mut window,
            &mut best_score,
            square,
            rest,
        ) {
            break;
        }
    }
    (best_score != NO_SCORE).then_some(best_score)
}

/// One move of [`three_empties_moves`], on `square` with `rest` left
/// empty: updates the best score and the window, and says whether the
/// move cuts off.
#[inline(always)]
fn three_empties_move<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    (player, opponent): (u64, u64),
    (alpha, beta): &mut (i32, i32),
    best_score: &mut i32,
    square: u32,
    (first, second): (u32, u32),
) -> bool {
    if NEIGHBOURS[square as usize] & opponent == 0 {
        return false;
    }
    let flipped = recursion.flips(square as usize, player, opponent);
    if flipped == 0 {
        return false;
    }
    let score = -two_empties(
        recursion,
        search,
        opponent ^ flipped,
        player ^ flipped ^ (1 << square),
        -*beta,
        -*alpha,
        first,
        second,
    );
    if score > *best_score {
        *best_score = score;
        if score > *alpha {
            *alpha = score;
            return score >= *beta;
        }
    }
    false
}

/// Two empty squares, `first` and `second`, the player to move.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // hot: the arguments stay in registers
fn two_empties<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
    first: u32,
    second: u32,
) -> i32 {
    search.nodes += 1;
    if let Some(score) = two_empties_moves(recursion, search, player, opponent, beta, first, second)
    {
        return score;
    }
    // The player passes.
    search.nodes += 1;
    match two_empties_moves(recursion, search, opponent, player, -alpha, first, second) {
        Some(score) => -score,
        None => final_score(player, opponent),
    }
}

/// The best of the player's moves on `first` and `second`, or `None` if
/// neither is legal.
#[inline(always)]
fn two_empties_moves<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    beta: i32,
    first: u32,
    second: u32,
) -> Option<i32> {
    let mut best_score = NO_SCORE;
    if NEIGHBOURS[first as usize] & opponent != 0 {
        let flipped = recursion.flips(first as usize, player, opponent);
        if flipped != 0 {
            best_score = -last_square(
                search,
                opponent ^ flipped,
                player ^ flipped ^ (1 << first),
                second,
                -beta,
            );
            if best_score >= beta {
                return Some(best_score);
            }
        }
    }
    if NEIGHBOURS[second as usize] & opponent != 0 {
        let flipped = recursion.flips(second as usize, player, opponent);
        if flipped != 0 {
            let score = -last_square(
                search,
                opponent ^ flipped,
                player ^ flipped ^ (1 << second),
                first,
                -beta,
            );
            best_score = best_score.max(score);
        }
    }
    (best_score != NO_SCORE).then_some(best_score)
}

/// The final score for `player` with one empty square, `square`: whoever
/// can play it does (the player to move first), then the game is over.
/// Fail-soft against `alpha`: when the player cannot move, every outcome
/// is at most `2 * discs - 62`, and if that is no more than `alpha` it is
/// returned without looking at the opponent's move.
#[inline(always)]
fn last_square(
    search: &mut Search<'_>,
    player: u64,
    opponent: u64,
    square: u32,
    alpha: i32,
) -> i32 {
    search.nodes += 1;
    let own = player.count_ones() as i32;
    let flipped = count_last_flips(square as usize, player) as i32;
    if flipped > 0 {
        return 2 * (own + flipped) - 62;
    }
    let bound = 2 * own - 62;
    if bound <= alpha {
        return bound;
    }
    let taken = count_last_flips(square as usize, opponent) as i32;
    if taken > 0 {
        return 2 * (own - taken) - 64;
    }
    // Nobody can play: 63 discs, the empty square to the winner.
    let diff = 2 * own - 63;
    if diff > 0 { diff + 1 } else { diff - 1 }
}

/// The final score for `player` when neither side can move: the disc
/// difference, empty squares to the winner.
#[inline(always)]
pub(crate) fn final_score(player: u64, opponent: u64) -> i32 {
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

/// Writes the moves of `moves` into `search.moves[base..]`, best first,
/// and returns their count. Orders by: the table's move (`hint`) first,
/// then fewest opponent replies (corners counted twice) and fewest empty
/// squares next to the mover's discs, then corners and odd-parity
/// quadrants.
#[inline(always)]
pub(crate) fn fill_moves<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    base: usize,
    player: u64,
    opponent: u64,
    moves: u64,
    hint: u8,
) -> usize {
    let empties = !(player | opponent);
    let mut odd = 0u64;
    for quadrant in QUADRANTS {
        if (empties & quadrant).count_ones() & 1 == 1 {
            odd |= quadrant;
        }
    }
    // The children the enhanced transposition cutoffs will look up.
    let prefetch = empties.count_ones() >= ETC_MIN_EMPTIES;
    let table = search.table;
    let list = &mut search.moves[base..base + moves.count_ones() as usize];
    let mut length = 0;
    for square in Bits(moves) {
        let bit = 1u64 << square;
        let flipped = recursion.flips(square, player, opponent);
        let own_after = player ^ flipped ^ bit;
        if prefetch {
            table.prefetch(opponent ^ flipped, own_after);
        }
        let replies = recursion.mobility(opponent ^ flipped, own_after);
        let frontier = neighbours(own_after) & empties & !bit;
        let mut key = -16 * (replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32)
            - FRONTIER_KEY_WEIGHT * frontier.count_ones() as i32;
        if bit & CORNERS != 0 {
            key += 8;
        }
        if bit & odd != 0 {
            key += 4;
        }
        if square as u8 == hint {
            key = i32::MAX;
        }
        list[length] = Candidate {
            flipped,
            replies,
            key,
            square: square as u8,
        };
        length += 1;
    }
    // Sorted once every move is written: sorting them as they came moved
    // each one soon after its narrow field stores, with wider loads that
    // had to wait for them (FFO #40-#44 about 3% slower).
    sort_best_first(&mut list[..length]);
    length
}

/// How much each empty square next to the mover's discs (where the
/// opponent may find moves later) counts against a move in the
/// fastest-first key, against 16 per opponent reply. With the pattern
/// ordering above, 3 searched fewer positions than 4 on both FFO
/// #40-#44 (149.3 M against 151.6 M) and #45-#49 (1.568 G against
/// 1.617 G); 2 gave 150.5 M and 1.570 G.
const FRONTIER_KEY_WEIGHT: i32 = 3;

/// How much each empty square next to a side's discs counts against it
/// in [`heuristic_value`], against 16 per move.
const POTENTIAL_WEIGHT: i32 = 4;

/// Orders the moves `search.moves[list]` of a node far from the end (as
/// [`fill_moves`] wrote them) by the value of a shallow search of each
/// child plus its fastest-first key; the table's move stays first, and
/// equal values keep the fastest-first order.
#[inline(always)]
pub(crate) fn order_by_estimate<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    list: std::ops::Range<usize>,
    player: u64,
    opponent: u64,
) {
    let depth = estimate_depth((!(player | opponent)).count_ones());
    for slot in list.clone() {
        let mv = search.moves[slot];
        if mv.key == i32::MAX {
            continue;
        }
        if search.aborted {
            return;
        }
        let value = -recursion.estimate(
            search,
            opponent ^ mv.flipped,
            player ^ mv.flipped ^ (1 << mv.square),
            depth - 1,
            -ESTIMATE_BOUND,
            ESTIMATE_BOUND,
        );
        // The fastest-first key is added back: alone, the estimate sees
        // no further than its depth, and a forced win by wipe-out (FFO
        // #59) hides behind moves that merely look good.
        search.moves[slot].key = value + mv.key;
    }
    sort_best_first(&mut search.moves[list]);
}

/// Insertion sort of a few moves, highest key first; equal keys keep
/// their order.
#[inline(always)]
fn sort_best_first(moves: &mut [Candidate]) {
    for index in 1..moves.len() {
        let candidate = moves[index];
        let mut slot = index;
        while slot > 0 && moves[slot - 1].key < candidate.key {
            moves[slot] = moves[slot - 1];
            slot -= 1;
        }
        moves[slot] = candidate;
    }
}

/// Beyond any value of [`heuristic_value`].
pub(crate) const ESTIMATE_BOUND: i32 = 1 << 20;

/// A plain alpha-beta search `depth` plies deep with [`heuristic_value`]
/// at its leaves (a player without a move is evaluated as a leaf), for
/// move ordering only. Its positions count as nodes.
#[inline(always)]
pub(crate) fn estimate<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    player: u64,
    opponent: u64,
    depth: u32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    search.nodes += 1;
    // Four plies from 22 empty squares run to thousands of positions: the
    // node limit is looked at inside them too.
    if depth >= 2 && search.check_abort() {
        return 0;
    }
    let moves = recursion.mobility(player, opponent);
    if depth == 0 || moves == 0 {
        let replies = recursion.mobility(opponent, player);
        return match search.ordering {
            Some(weights) => pattern_value(weights, player, opponent, moves, replies),
            None => heuristic_value(player, opponent, moves, replies),
        };
    }
    let mut best = -ESTIMATE_BOUND;
    for square in Bits(moves) {
        let flipped = recursion.flips(square, player, opponent);
        let value = -recursion.estimate(
            search,
            opponent ^ flipped,
            player ^ flipped ^ (1 << square),
            depth - 1,
            -beta,
            -alpha,
        );
        if value > best {
            best = value;
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// What one disc of a finished game's result weighs in [`estimate`]:
/// more than any [`heuristic_value`] of an unfinished one (whose terms
/// are at most 16 x 64, 4 x 60 and 928 in size), so a move that ends the
/// game won (a wipe-out above all) is ordered first and one that ends it
/// lost last, while 64 of them stay within [`ESTIMATE_BOUND`].
const FINAL_DISC_WEIGHT: i32 = 4096;
const _: () = assert!(64 * FINAL_DISC_WEIGHT < ESTIMATE_BOUND);

/// The leaf evaluation of [`estimate`], for the player: 16 per move more
/// than the opponent has (corner moves count twice), 4 per empty square
/// next to the opponent's discs more than next to the player's (moves to
/// come), and the positional weights of the squares
/// ([`crate::eval::positional_score`]). The weights were tuned on node
/// counts of FFO #40-#48. A finished game (neither side can move) is
/// valued by its result instead.
#[inline(always)]
fn heuristic_value(player: u64, opponent: u64, own: u64, theirs: u64) -> i32 {
    if own | theirs == 0 {
        return FINAL_DISC_WEIGHT * final_score(player, opponent);
    }
    heuristic_terms(player, opponent, own, theirs)
}

/// [`heuristic_value`] of an unfinished position whose moves are `own`
/// and `theirs`.
#[inline(always)]
fn heuristic_terms(player: u64, opponent: u64, own: u64, theirs: u64) -> i32 {
    let empties = !(player | opponent);
    let mobility_term = own.count_ones() as i32 + (own & CORNERS).count_ones() as i32
        - theirs.count_ones() as i32
        - (theirs & CORNERS).count_ones() as i32;
    let potential_term = (neighbours(opponent) & empties).count_ones() as i32
        - (neighbours(player) & empties).count_ones() as i32;
    16 * mobility_term
        + POTENTIAL_WEIGHT * potential_term
        + crate::eval::positional_score(player, opponent)
}

/// What one disc of the pattern estimate weighs in [`pattern_value`],
/// against 16 per move of mobility in [`heuristic_value`]. Tuned on the
/// node counts of FFO #40-#44 with the shipped weights: 4 and 8 gave 184.8
/// M and 182.5 M positions, 16 and 32 gave 242.6 M and 230.8 M; the
/// estimate alone, without the heuristic, 256.7 M to 260.5 M (227.6 M
/// with the heuristic alone).
const PATTERN_DISC_WEIGHT: f32 = 8.0;

/// How far the pattern estimate counts in [`pattern_value`], in discs
/// either way: beyond it the estimate says only that the game is decided,
/// and the mobility terms and the fastest-first key order the moves. A
/// wipe-out is proven by the moves that leave the opponent without
/// replies, which the estimate does not single out: FFO #59 (+64) took
/// 4.77 G positions unclamped, 0.115 G with this limit (0.103 G at 32
/// discs, which cost 8% more positions on #45-#49), while #40-#44 and
/// #45-#49 stay level (149.6 M and 1.570 G; measured before the stability
/// cutoffs reached the shallow nodes).
const PATTERN_DISC_LIMIT: f32 = 48.0;

/// The leaf evaluation of [`estimate`] with pattern weights: the
/// heuristic plus the estimated disc difference for the player, or a
/// finished game's result, in the units of [`heuristic_value`].
#[inline(always)]
fn pattern_value(
    weights: &PatternWeights,
    player: u64,
    opponent: u64,
    own: u64,
    theirs: u64,
) -> i32 {
    if own | theirs == 0 {
        return FINAL_DISC_WEIGHT * final_score(player, opponent);
    }
    // A finished game's result outweighs any estimate (at most 64 discs).
    let limit = (FINAL_DISC_WEIGHT - 1) as f32;
    let estimate = heuristic_terms(player, opponent, own, theirs) as f32
        + weights
            .discs_of(player, opponent, own, theirs)
            .clamp(-PATTERN_DISC_LIMIT, PATTERN_DISC_LIMIT)
            * PATTERN_DISC_WEIGHT;
    estimate.clamp(-limit, limit) as i32
}

/// The squares next to any square of `bits`.
#[inline(always)]
fn neighbours(bits: u64) -> u64 {
    let sideways = ((bits << 1) & !FILE_A) | ((bits >> 1) & !FILE_H);
    let row = bits | sideways;
    sideways | (row << 8) | (row >> 8)
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
pub(crate) const PREFERENCE: [u64; 5] = [
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
#[inline(always)]
pub(crate) fn parity_order(empties: u64, out: &mut [u8]) -> usize {
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

/// Squares on file a, file h, rank 1, rank 8.
const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00FF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;

/// The four lines through each square: `[0]` its rank, `[1]` its file,
/// `[2]` its diagonal (`a1`-`h8` way), `[3]` its anti-diagonal.
const LINES_THROUGH: [[u64; 4]; 64] = build_lines_through();

const fn build_lines_through() -> [[u64; 4]; 64] {
    let mut lines = [[0u64; 4]; 64];
    let mut square = 0;
    while square < 64 {
        let (col, row) = (square % 8, square / 8);
        let mut other = 0;
        while other < 64 {
            let (other_col, other_row) = (other % 8, other / 8);
            let bit = 1u64 << other;
            if other_row == row {
                lines[square][0] |= bit;
            }
            if other_col == col {
                lines[square][1] |= bit;
            }
            if other_col + row == col + other_row {
                lines[square][2] |= bit;
            }
            if other_col + other_row == col + row {
                lines[square][3] |= bit;
            }
            other += 1;
        }
        square += 1;
    }
    lines
}

/// For each direction, the squares whose line in that direction is full:
/// no disc can ever be flipped along it. Near the end few squares are
/// empty, so the lines through them are gathered rather than every line
/// tested.
#[inline(always)]
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut open = [0u64; 4];
    for square in Bits(!occupied) {
        let lines = &LINES_THROUGH[square];
        for direction in 0..4 {
            open[direction] |= lines[direction];
        }
    }
    open.map(|lines| !lines)
}

/// A subset of the discs of `own` that can never be flipped: those that,
/// along each of the four lines through them, sit on a full line, at the
/// board's edge, or next to a disc of theirs already known to be stable.
/// Grown from the corners until nothing changes.
#[inline(always)]
pub(crate) fn stable_discs(own: u64, other: u64) -> u64 {
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
#[inline(always)]
fn stability_bound(player: u64, opponent: u64) -> i32 {
    64 - 2 * stable_discs(opponent, player).count_ones() as i32
}

/// The stability bound of a node with `count` empty squares when it
/// holds the score at or below `alpha`. The opponent's discs are counted
/// first: too few of them to be stable enough spare the search for
/// stable discs, which costs more than a node near the end.
#[inline(always)]
fn stability_cutoff(player: u64, opponent: u64, count: u32, alpha: i32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[count as usize]
        || 64 - 2 * (opponent.count_ones() as i32) > alpha
    {
        return None;
    }
    let bound = stability_bound(player, opponent);
    (bound <= alpha).then_some(bound)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use crate::movegen::mobility;

    /// [`heuristic_value`] with the move counts it is given computed here.
    fn heuristic_of(player: u64, opponent: u64) -> i32 {
        heuristic_value(
            player,
            opponent,
            mobility(player, opponent),
            mobility(opponent, player),
        )
    }

    #[test]
    fn a_finished_game_outweighs_any_heuristic_value() {
        // The player has just wiped the opponent out with 50 squares empty.
        let wiped_out: Board = format!("{}{} O", "X".repeat(14), "-".repeat(50))
            .parse()
            .unwrap();
        let (player, opponent) = (wiped_out.player(), wiped_out.opponent());
        assert_eq!(
            heuristic_of(player, opponent),
            -64 * FINAL_DISC_WEIGHT,
            "the wiped-out side to move"
        );
        assert_eq!(heuristic_of(opponent, player), 64 * FINAL_DISC_WEIGHT);
        // A lopsided unfinished position (corners, mobility and potential
        // all in one side's favour) stays below one disc's worth.
        let lopsided: Board = "X------X-OOOOOO--OOOOOO--OOXOOO--OOOOOO--OOOOOO--OOOOOO-X------X X"
            .parse()
            .unwrap();
        let value = heuristic_of(lopsided.player(), lopsided.opponent());
        assert!(value.abs() < FINAL_DISC_WEIGHT, "{value}");
        assert!(value > 0, "{value}");
    }

    #[test]
    fn last_square_scores() {
        let table = Table::new(4).unwrap();
        let control = Control::default();
        let mut search = Search::new(&table, &control, None);
        // Black to move, h8 empty, flips f8 and g8.
        let board: Board = format!("{}OO- X", "X".repeat(61)).parse().unwrap();
        let (black, white) = (board.player(), board.opponent());
        assert_eq!(last_square(&mut search, black, white, 63, -64), 64);
        // White to move there: White cannot play h8, Black can.
        assert_eq!(last_square(&mut search, white, black, 63, -64), -64);
        // Lazily: at most 2 * 2 - 62 = -58 for White, no more than alpha.
        assert_eq!(last_square(&mut search, white, black, 63, -58), -58);
        assert_eq!(search.nodes, 3);
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
    fn full_lines_are_the_lines_without_an_empty_square() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        // Steps (column, row) of each direction, as `full_lines` numbers them.
        let steps = [(1, 0), (0, 1), (1, 1), (1, -1)];
        for _ in 0..2_000 {
            // Boards from nearly empty to nearly full.
            let density = rng.random_range(0..=64u32);
            let occupied = (0..64).fold(0u64, |bits, square| {
                bits | (u64::from(rng.random_range(0..64) < density) << square)
            });
            let full = full_lines(occupied);
            for square in 0..64i32 {
                for (direction, &(dc, dr)) in steps.iter().enumerate() {
                    let mut line_full = true;
                    for sign in [1, -1] {
                        let (mut col, mut row) = (square % 8, square / 8);
                        while (0..8).contains(&col) && (0..8).contains(&row) {
                            line_full &= occupied >> (row * 8 + col) & 1 == 1;
                            col += sign * dc;
                            row += sign * dr;
                        }
                    }
                    assert_eq!(
                        full[direction] >> square & 1 == 1,
                        line_full,
                        "square {square}, direction {direction}, board {occupied:#x}"
                    );
                }
            }
        }
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

    #[test]
    fn move_lists_of_a_path_never_overlap() {
        for count in 1..=64u32 {
            assert!(list_base(count) + count as usize <= list_base(count + 1));
        }
        assert!(list_base(64) + 64 <= list_base(65));
    }
}
