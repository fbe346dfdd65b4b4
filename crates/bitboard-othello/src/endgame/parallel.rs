//! Helper threads for the endgame solver: young brothers wait (YBWC).
//!
//! A deep node neither too near nor too far from the end (from
//! [`SPLIT_MIN_EMPTIES`] to [`SPLIT_MAX_EMPTIES`] empties) whose first
//! move did not refute it, while some thread is
//! idle, becomes a *split point*: its remaining moves are offered to the
//! idle threads, and the thread that made it searches them too, each move
//! taken by whichever thread asks first, each searched with the best
//! `alpha` known at that moment. A move that refutes the node marks the
//! split point refuted; every thread searching below it then unwinds.
//! The thread that made the split point waits for the others to finish
//! its moves, helping meanwhile at split points made below it.
//!
//! All threads share the transposition table. The score is the same as
//! with one thread; the node count and, among equally good moves, the
//! move returned may differ from run to run.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::search::{Candidate, Recursion, Search, search_move};

/// Empty squares from which a node may become a split point: below, the
/// subtrees are too small to be worth the locking.
pub(crate) const SPLIT_MIN_EMPTIES: u32 = 11;

/// Empty squares up to which a node may become a split point. A split
/// point whose node a later move refutes wastes the helpers' work on it;
/// far from the end that work is a huge subtree. With the shallow-search
/// ordering above 16 empties, splitting anywhere cost two threads 29% more
/// nodes than one on FFO #45-#49 (1.45 times one thread's speed); up to 20
/// empties, 8% more (1.84 times).
pub(crate) const SPLIT_MAX_EMPTIES: u32 = 20;

/// The threads of one parallel solve.
#[derive(Debug, Default)]
pub(crate) struct Pool {
    /// Split points with moves that a thread may take.
    offers: Mutex<Vec<Arc<Split>>>,
    /// Signalled whenever an offer appears, a thread leaves a split point
    /// or the solve ends.
    changed: Condvar,
    /// Threads waiting for work.
    idle: AtomicUsize,
    /// Set when the solve is over: helper threads return.
    finished: AtomicBool,
}

impl Pool {
    /// Ends the solve: wakes the helper threads so that they return.
    pub(crate) fn finish(&self) {
        let _offers = lock(&self.offers);
        self.finished.store(true, Ordering::Relaxed);
        self.changed.notify_all();
    }
}

/// A node whose remaining moves are searched by several threads.
#[derive(Debug)]
pub(crate) struct Split {
    player: u64,
    opponent: u64,
    beta: i32,
    /// The split point the thread that made this one was searching under.
    parent: Option<Arc<Split>>,
    state: Mutex<SplitState>,
    /// A move reached `beta`: the moves still being searched are moot.
    refuted: AtomicBool,
    /// Threads other than its maker searching one of its moves (changed
    /// with the pool's `offers` locked).
    helpers: AtomicUsize,
}

#[derive(Debug)]
struct SplitState {
    moves: Vec<Candidate>,
    next: usize,
    alpha: i32,
    best_score: i32,
    best_square: u8,
}

impl SplitRequest {
    /// A split point of the position `player`/`opponent` with the moves
    /// still to search, the window and the best result so far.
    pub(crate) fn new(
        player: u64,
        opponent: u64,
        moves: &[Candidate],
        (alpha, beta): (i32, i32),
        (best_score, best_square): (i32, u8),
    ) -> SplitRequest {
        SplitRequest {
            player,
            opponent,
            beta,
            state: SplitState {
                moves: moves.to_vec(),
                next: 0,
                alpha,
                best_score,
                best_square,
            },
        }
    }
}

impl Split {
    /// Whether this split point or one above it was refuted.
    fn is_refuted(&self) -> bool {
        let mut split = Some(self);
        while let Some(current) = split {
            if current.refuted.load(Ordering::Relaxed) {
                return true;
            }
            split = current.parent.as_deref();
        }
        false
    }

    /// Whether this split point lies below `ancestor`.
    fn is_below(&self, ancestor: &Split) -> bool {
        let mut split = self.parent.as_deref();
        while let Some(current) = split {
            if std::ptr::eq(current, ancestor) {
                return true;
            }
            split = current.parent.as_deref();
        }
        false
    }

    fn has_moves(&self) -> bool {
        let state = lock(&self.state);
        state.next < state.moves.len() && !self.refuted.load(Ordering::Relaxed)
    }
}

/// A split point before it is shared: made by [`SplitRequest::new`],
/// shared by [`run_split`].
#[derive(Debug)]
pub(crate) struct SplitRequest {
    player: u64,
    opponent: u64,
    beta: i32,
    state: SplitState,
}

/// One thread's side of a parallel solve.
#[derive(Debug)]
pub(crate) struct Worker<'a> {
    pool: &'a Pool,
    /// The split point whose move this thread is searching, if any.
    current: Option<Arc<Split>>,
}

impl<'a> Worker<'a> {
    pub(crate) fn new(pool: &'a Pool) -> Self {
        Worker {
            pool,
            current: None,
        }
    }

    /// Whether a node with `count` empty squares should offer its moves.
    #[inline(always)]
    pub(crate) fn wants_split(&self, count: u32) -> bool {
        (SPLIT_MIN_EMPTIES..=SPLIT_MAX_EMPTIES).contains(&count)
            && self.pool.idle.load(Ordering::Relaxed) > 0
    }

    /// Whether a split point above this thread's search was refuted.
    #[inline(always)]
    pub(crate) fn is_refuted(&self) -> bool {
        self.current.as_deref().is_some_and(Split::is_refuted)
    }
}

/// Offers the moves of `split` to idle threads, searches them with them,
/// and returns the node's fail-soft score and best square.
pub(crate) fn run_split<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    split: SplitRequest,
) -> (i32, u8) {
    let Some(worker) = &search.worker else {
        unreachable!("split points are made by parallel searches only");
    };
    let pool = worker.pool;
    let split = Arc::new(Split {
        player: split.player,
        opponent: split.opponent,
        beta: split.beta,
        parent: worker.current.clone(),
        state: Mutex::new(split.state),
        refuted: AtomicBool::new(false),
        helpers: AtomicUsize::new(0),
    });
    {
        let mut offers = lock(&pool.offers);
        offers.push(Arc::clone(&split));
        pool.changed.notify_all();
    }
    search_split_moves(recursion, search, &split);
    let mut offers = lock(&pool.offers);
    offers.retain(|offer| !Arc::ptr_eq(offer, &split));
    // Wait for the helpers, helping at split points below this one.
    while split.helpers.load(Ordering::Relaxed) > 0 {
        offers = help_once(recursion, search, pool, offers, |offer| {
            offer.is_below(&split)
        });
    }
    drop(offers);
    let state = lock(&split.state);
    (state.best_score, state.best_square)
}

/// Takes the moves of `split` one by one and searches them, until none is
/// left or it is refuted. Leaves `search.aborted` set only if the search
/// must unwind further up (a limit ran out or a split point above `split`
/// was refuted).
fn search_split_moves<'a>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    split: &Arc<Split>,
) {
    let outer = search
        .worker
        .as_mut()
        .and_then(|worker| worker.current.replace(Arc::clone(split)));
    loop {
        let (mv, alpha) = {
            let mut state = lock(&split.state);
            if state.next >= state.moves.len() || split.refuted.load(Ordering::Relaxed) {
                break;
            }
            state.next += 1;
            (state.moves[state.next - 1], state.alpha)
        };
        let score = search_move(
            recursion,
            search,
            split.player,
            split.opponent,
            mv,
            false,
            alpha,
            split.beta,
        );
        if search.aborted {
            break;
        }
        let mut state = lock(&split.state);
        if score > state.best_score {
            state.best_score = score;
            state.best_square = mv.square;
            if score > state.alpha {
                state.alpha = score;
                if score >= split.beta {
                    split.refuted.store(true, Ordering::Relaxed);
                }
            }
        }
    }
    if let Some(worker) = search.worker.as_mut() {
        worker.current = outer;
    }
    search.aborted =
        search.control.is_aborted() || search.worker.as_ref().is_some_and(Worker::is_refuted);
}

/// A helper thread: waits for offers and searches their moves until the
/// solve is over.
pub(crate) fn help<'a>(recursion: impl Recursion<'a>, search: &mut Search<'a>) {
    let Some(worker) = &search.worker else {
        return;
    };
    let pool = worker.pool;
    let mut offers = lock(&pool.offers);
    loop {
        if pool.finished.load(Ordering::Relaxed) {
            return;
        }
        offers = help_once(recursion, search, pool, offers, |_| true);
    }
}

/// Searches the moves of the first offer with moves left that `eligible`
/// accepts, or, if there is none, waits (counted as idle) until the offers
/// change. Takes and returns the lock on the offers.
fn help_once<'a, 'p>(
    recursion: impl Recursion<'a>,
    search: &mut Search<'a>,
    pool: &'p Pool,
    offers: MutexGuard<'p, Vec<Arc<Split>>>,
    eligible: impl Fn(&Split) -> bool,
) -> MutexGuard<'p, Vec<Arc<Split>>> {
    let offer = offers
        .iter()
        .find(|offer| eligible(offer) && offer.has_moves())
        .cloned();
    let Some(offer) = offer else {
        pool.idle.fetch_add(1, Ordering::Relaxed);
        let offers = pool
            .changed
            .wait(offers)
            .unwrap_or_else(PoisonError::into_inner);
        pool.idle.fetch_sub(1, Ordering::Relaxed);
        return offers;
    };
    offer.helpers.fetch_add(1, Ordering::Relaxed);
    drop(offers);
    search_split_moves(recursion, search, &offer);
    let offers = lock(&pool.offers);
    offer.helpers.fetch_sub(1, Ordering::Relaxed);
    pool.changed.notify_all();
    offers
}

/// Locks a mutex, ignoring poisoning (the data behind it stays valid: a
/// panicking thread ends the whole solve).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
