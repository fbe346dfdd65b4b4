//! What every search of this crate does around its iterations, written
//! once: turning [`Limits`] into a plan and per-thread shares, the stop
//! loop, per-thread seeds, running threads, and the stop reason.

use std::sync::atomic::{AtomicU64, Ordering};

use game_traits::{
    Budget, Evaluator, Game, LimitKind, Limits, MoveInfo, Player, SearchReport, SearchStats,
    StopReason, contain_value, zobrist,
};

use crate::MctsConfig;
use crate::tree::Proof;

/// Reading the clock costs about as much as a few hundred tree steps of a
/// small game; once every this many iterations keeps it negligible while
/// overshooting a time budget by a few playouts only.
pub(crate) const TIME_CHECK_STRIDE: u64 = 8;

/// Iterations without a new node after which a search that only a node
/// budget bounds, or that only looks for a shorter proven win, ends (or as
/// many as the tree has nodes, if more).
pub(crate) const STALL_WINDOW: u64 = 10_000;

/// A value and the player it is for.
pub(crate) type Valued = (f32, Player);

/// Why a thread stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    /// The iteration budget is spent.
    Iterations,
    /// Its tree reached a `Limits::nodes` budget.
    Full,
    /// The root is proven.
    Solved,
    /// The tree stopped growing under a node budget it cannot reach.
    Stalled,
    /// The clock or the stop flag.
    Interrupted(StopReason),
}

/// A search's budget as its threads share it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan {
    /// Iterations, all threads together (`None`: no iteration limit).
    pub(crate) iterations: Option<u64>,
    /// The most nodes kept, all threads together, in this search.
    pub(crate) node_cap: u64,
    /// Stop once a tree is full: a `Limits::nodes` budget within the
    /// memory cap (otherwise a full tree goes on without growing).
    pub(crate) stop_when_full: bool,
    /// A node budget and no other limit: it ends only when the tree
    /// reaches it, which a small game's tree (or UCT's ever slower
    /// growth) may never do.
    pub(crate) nodes_only: bool,
}

impl Plan {
    /// The plan of a search within `limits` under `config` (every limit
    /// but depth honoured).
    pub(crate) fn new(limits: &Limits, config: &MctsConfig) -> Self {
        let default_budget = limits.uses_default_budget(|kind| kind != LimitKind::Depth);
        Plan {
            iterations: limits
                .iterations
                .or(default_budget.then_some(config.default_iterations)),
            node_cap: limits
                .nodes
                .map_or(config.max_nodes, |nodes| nodes.min(config.max_nodes)),
            stop_when_full: limits.nodes.is_some_and(|nodes| nodes <= config.max_nodes),
            nodes_only: limits.nodes.is_some()
                && limits.time.is_none()
                && limits.iterations.is_none()
                && limits.stop.is_none(),
        }
    }

    /// The stop rules of a thread whose tree may hold `node_cap` nodes.
    pub(crate) fn rules(&self, node_cap: usize) -> Rules {
        Rules {
            node_cap,
            stop_when_full: self.stop_when_full,
            stop_when_stalled: self.nodes_only,
        }
    }

    /// Thread `thread`'s share of the iterations when each of `threads`
    /// threads grows its own tree (the first ones take the remainder).
    pub(crate) fn iterations_of(&self, thread: usize, threads: usize) -> u64 {
        self.iterations.map_or(u64::MAX, |total| {
            total / threads as u64 + u64::from((thread as u64) < total % threads as u64)
        })
    }
}

/// When a thread stops, besides its iterations and the clock.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rules {
    /// The most nodes its tree may hold.
    pub(crate) node_cap: usize,
    /// Stop once the tree is full.
    pub(crate) stop_when_full: bool,
    /// Stop once the tree has not grown for [`STALL_WINDOW`] iterations
    /// (or as many as it has nodes, if more).
    pub(crate) stop_when_stalled: bool,
}

/// Iterations claimed against a budget.
pub(crate) trait Claims {
    /// Iterations started so far (by every thread that draws on it).
    fn started(&self) -> u64;
    /// Whether the budget is spent.
    fn spent(&self) -> bool;
    /// Claims one iteration; `false` if the budget is spent.
    fn claim(&mut self) -> bool;
}

/// One thread's own share of the iterations.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Share {
    claimed: u64,
    limit: u64,
}

impl Share {
    pub(crate) fn new(limit: u64) -> Self {
        Share { claimed: 0, limit }
    }
}

impl Claims for Share {
    #[inline]
    fn started(&self) -> u64 {
        self.claimed
    }

    #[inline]
    fn spent(&self) -> bool {
        self.claimed >= self.limit
    }

    #[inline]
    fn claim(&mut self) -> bool {
        let fits = self.claimed < self.limit;
        self.claimed += u64::from(fits);
        fits
    }
}

/// Iterations a thread of a shared tree takes from the [`Quota`] at a
/// time: the counter all threads write is touched once per block, not once
/// per iteration, and a block is small beside any budget worth threads.
const QUOTA_BLOCK: u64 = 64;

/// Iterations all the threads of a shared tree draw on, handed out in
/// blocks ([`QuotaShare`]).
#[derive(Debug)]
pub(crate) struct Quota {
    /// Iterations handed out (never past the limit).
    claimed: AtomicU64,
    limit: u64,
}

impl Quota {
    pub(crate) fn new(limit: u64) -> Self {
        Quota {
            claimed: AtomicU64::new(0),
            limit,
        }
    }

    /// One thread's handle on the quota.
    pub(crate) fn share(&self) -> QuotaShare<'_> {
        QuotaShare {
            quota: self,
            left: 0,
        }
    }
}

/// A thread's draw on a shared [`Quota`]: the rest of the block it holds.
#[derive(Debug)]
pub(crate) struct QuotaShare<'a> {
    quota: &'a Quota,
    /// Iterations of this thread's block not run yet.
    left: u64,
}

impl Claims for QuotaShare<'_> {
    /// Handed out less this thread's unused block: exact with one thread,
    /// ahead by the other threads' unused blocks with more.
    #[inline]
    fn started(&self) -> u64 {
        self.quota.claimed.load(Ordering::Relaxed) - self.left
    }

    #[inline]
    fn spent(&self) -> bool {
        self.left == 0 && self.quota.claimed.load(Ordering::Relaxed) >= self.quota.limit
    }

    #[inline]
    fn claim(&mut self) -> bool {
        if self.left == 0 {
            let limit = self.quota.limit;
            let taken =
                self.quota
                    .claimed
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |claimed| {
                        (claimed < limit).then(|| claimed.saturating_add(QUOTA_BLOCK).min(limit))
                    });
            match taken {
                Ok(before) => self.left = before.saturating_add(QUOTA_BLOCK).min(limit) - before,
                Err(_) => return false,
            }
        }
        self.left -= 1;
        true
    }
}

/// A thread's search as the stop loop sees it.
pub(crate) trait Iterating {
    /// The root's proof for the player to move there, and its length.
    fn root_proof(&self) -> (Proof, u16);
    /// Nodes in the tree.
    fn tree_len(&self) -> usize;
    /// Whether an expansion failed for want of room in this search.
    fn tree_full(&self) -> bool;
    /// Runs one iteration.
    fn iterate(&mut self);
    /// Finishes work left when the loop ends (leaves waiting in a batch).
    fn finish(&mut self) {}
}

/// Runs iterations until the quota, the clock, the stop flag, a proof or
/// a rule ends them; returns how many this thread ran and why it stopped.
///
/// A proven root's value cannot change. Only a proven win that takes more
/// than one ply may still get shorter, so that search goes on within its
/// limits, until the tree stops growing.
pub(crate) fn drive(
    job: &mut impl Iterating,
    mut quota: impl Claims,
    rules: &Rules,
    budget: &Budget<'_>,
) -> (u64, Ended) {
    let mut done = 0;
    let (mut size, mut grown_at) = (job.tree_len(), quota.started());
    let ended = loop {
        let (proof, plies) = job.root_proof();
        let proven_win = proof == Proof::Win;
        if proof != Proof::Unknown && (!proven_win || plies <= 1) {
            break Ended::Solved;
        }
        if quota.spent() {
            break Ended::Iterations;
        }
        if rules.stop_when_full && (job.tree_full() || job.tree_len() >= rules.node_cap) {
            break Ended::Full;
        }
        // Growth is only asked where a stall ends the search: a shared
        // tree's size is written by every thread's expansions.
        if rules.stop_when_stalled || proven_win {
            let started = quota.started();
            let len = job.tree_len();
            if len > size {
                (size, grown_at) = (len, started);
            } else if started - grown_at > STALL_WINDOW.max(size as u64) {
                break if proven_win {
                    Ended::Solved
                } else {
                    Ended::Stalled
                };
            }
        }
        // The quota and the tree apply the counts; the budget is asked of
        // the flag and the clock.
        if done % TIME_CHECK_STRIDE == 0
            && let Some(reason) = budget.stop_reason(0, 0)
        {
            break Ended::Interrupted(reason);
        }
        if !quota.claim() {
            break Ended::Iterations;
        }
        job.iterate();
        done += 1;
    };
    job.finish();
    (done, ended)
}

/// The statistics of a search whose threads ended for `results` and went
/// `depths` deep, its trees holding `nodes`.
pub(crate) fn search_stats(
    results: &[(u64, Ended)],
    limits: &Limits,
    nodes: usize,
    depths: impl Iterator<Item = u32>,
    elapsed: std::time::Duration,
) -> SearchStats {
    let iterations = results.iter().map(|&(done, _)| done).sum();
    SearchStats::new(iterations, nodes as u64, depths.max().unwrap_or(0), elapsed)
        .with_stop(stop_reason(results, limits))
}

/// The stop reason of a search whose threads ended for `results`: a
/// proof in any tree holds for all; otherwise the main thread's reason
/// (the threads share one clock and even shares).
fn stop_reason(results: &[(u64, Ended)], limits: &Limits) -> StopReason {
    let ended = if results.iter().any(|&(_, ended)| ended == Ended::Solved) {
        Ended::Solved
    } else {
        results
            .first()
            .map_or(Ended::Iterations, |&(_, ended)| ended)
    };
    match ended {
        Ended::Solved => StopReason::Solved,
        Ended::Stalled => StopReason::Exhausted,
        Ended::Full => StopReason::Nodes,
        Ended::Interrupted(reason) => reason,
        Ended::Iterations if limits.iterations.is_some() => StopReason::Iterations,
        Ended::Iterations => StopReason::DefaultBudget,
    }
}

/// The seed of thread `thread`'s random generator: the configured seed
/// itself for the first, a mix of it for the others.
pub(crate) fn thread_seed(seed: u64, thread: usize) -> u64 {
    if thread == 0 {
        seed
    } else {
        zobrist::mix64(seed ^ (thread as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
}

/// Runs `run(index, worker)` for every worker, the first on this thread and
/// the others on scoped threads, and returns the results in worker order.
/// A panic on a helper thread is resumed here.
pub(crate) fn run_workers<W: Send, R: Send>(
    workers: &mut [W],
    run: impl Fn(usize, &mut W) -> R + Sync,
) -> Vec<R> {
    let Some((main, helpers)) = workers.split_first_mut() else {
        return Vec::new();
    };
    if helpers.is_empty() {
        return vec![run(0, main)];
    }
    std::thread::scope(|scope| {
        let run = &run;
        let handles: Vec<_> = helpers
            .iter_mut()
            .enumerate()
            .map(|(index, worker)| scope.spawn(move || run(index + 1, worker)))
            .collect();
        let mut results = vec![run(0, main)];
        for handle in handles {
            results.push(
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            );
        }
        results
    })
}

/// A root move's statistics, all trees of a search together.
pub(crate) struct RootMove<M> {
    pub(crate) mv: M,
    pub(crate) visits: u64,
    pub(crate) value_sum: f64,
    pub(crate) amaf_visits: u64,
    pub(crate) amaf_sum: f64,
    /// Proven value for the player to move at the root.
    pub(crate) proof: Proof,
    /// Plies from the child to the end of the game along the proof.
    pub(crate) proof_plies: u16,
}

impl<M> RootMove<M> {
    /// A move not searched yet.
    pub(crate) fn new(mv: M) -> Self {
        RootMove {
            mv,
            visits: 0,
            value_sum: 0.0,
            amaf_visits: 0,
            amaf_sum: 0.0,
            proof: Proof::Unknown,
            proof_plies: 0,
        }
    }

    /// The exact value if proven, the mean value otherwise.
    fn value(&self) -> f32 {
        match self.proof.value() {
            Some(value) => value,
            None if self.visits == 0 => 0.0,
            None => (self.value_sum / self.visits as f64) as f32,
        }
    }

    /// How the final choice ranks the move: proven wins (shortest first),
    /// then moves not proven lost, then proven losses (longest first); by
    /// visits, then value, within each.
    fn rank(&self) -> (u8, i32, u64, f32) {
        let plies = i32::from(self.proof_plies);
        let (class, length) = match self.proof {
            Proof::Win => (2, -plies),
            Proof::Loss => (0, plies),
            Proof::Draw | Proof::Unknown => (1, 0),
        };
        (class, length, self.visits, self.value())
    }
}

/// The report of a search whose root moves, in the order of the legal
/// moves (at least one), are `root`: the best by [`RootMove::rank`] (ties
/// to the earlier move) with its value and `pv` of it, every move's
/// visits, value (once visited or proven) and AMAF value (where kept).
pub(crate) fn root_report<M: Copy>(
    root: &[RootMove<M>],
    stats: SearchStats,
    pv: impl FnOnce(M) -> Vec<M>,
) -> SearchReport<M> {
    let best = root
        .iter()
        .enumerate()
        .max_by(|(index_a, a), (index_b, b)| {
            a.rank()
                .partial_cmp(&b.rank())
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(index_b.cmp(index_a))
        })
        .map_or(&root[0], |(_, entry)| entry);
    let infos = root
        .iter()
        .map(|entry| {
            let mut info = MoveInfo::new(entry.mv).with_visits(entry.visits);
            if entry.visits > 0 || entry.proof != Proof::Unknown {
                info = info.with_value(entry.value());
            }
            if entry.amaf_visits > 0 {
                info = info.with_amaf_value((entry.amaf_sum / entry.amaf_visits as f64) as f32);
            }
            info
        })
        .collect();
    SearchReport::new(Some(best.mv), best.value())
        .with_pv(pv(best.mv))
        .with_moves(infos)
        .with_stats(stats)
}

/// The exact result of a finished position, for the player to move there.
#[inline]
pub(crate) fn exact<G: Game>(state: &G) -> Valued {
    let player = state.to_move();
    (
        state
            .outcome()
            .map_or(0.0, |outcome| outcome.reward(player)),
        player,
    )
}

/// The exact result if the game is over, the evaluator's value otherwise.
pub(crate) fn evaluated<G: Game, E: Evaluator<G>>(state: &G, evaluator: &E) -> Valued {
    let player = state.to_move();
    let value = match state.outcome() {
        Some(outcome) => outcome.reward(player),
        None => contain_value(evaluator.value(state)),
    };
    (value, player)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_quota_hands_out_exactly_its_limit() {
        for limit in [0, 1, QUOTA_BLOCK - 1, QUOTA_BLOCK, QUOTA_BLOCK + 1, 1_000] {
            let quota = Quota::new(limit);
            let mut shares = [quota.share(), quota.share(), quota.share()];
            let mut run = 0;
            loop {
                let claimed: u64 = shares
                    .iter_mut()
                    .map(|share| u64::from(share.claim()))
                    .sum();
                if claimed == 0 {
                    break;
                }
                run += claimed;
            }
            assert_eq!(run, limit, "limit {limit}");
            assert!(shares.iter().all(|share| share.spent()), "limit {limit}");
        }
    }

    #[test]
    fn threads_drawing_on_one_quota_run_it_exactly() {
        let quota = Quota::new(100_003);
        let run: u64 = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..4)
                .map(|_| {
                    let mut share = quota.share();
                    scope.spawn(move || {
                        let mut run = 0u64;
                        while share.claim() {
                            run += 1;
                        }
                        run
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|handle| handle.join().unwrap())
                .sum()
        });
        assert_eq!(run, 100_003);
    }

    #[test]
    fn one_share_counts_what_it_started_exactly() {
        let quota = Quota::new(100);
        let mut share = quota.share();
        for started in 0..100 {
            assert_eq!(share.started(), started);
            assert!(!share.spent());
            assert!(share.claim());
        }
        assert_eq!(share.started(), 100);
        assert!(share.spent());
        assert!(!share.claim());
    }
}
