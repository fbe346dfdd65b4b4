//! A searcher wrapper that settles the tactics (fives, fours, VCF, VCT)
//! before handing the position to any searcher.

use std::time::{Duration, Instant};

use std::cell::Cell;

use game_traits::{
    LimitKind, Limits, Range, RangeError, SearchReport, SearchStats, Searcher, StopReason,
};

use crate::playout::GomokuGame;
use crate::{Gomoku, Move, PatternPolicy, Solution, ThreatSolver};

/// Budgets of [`TacticalSearcher`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TacticalConfig {
    /// Nodes for the VCF search of the player to move. Default 20,000.
    pub vcf_nodes: u64,
    /// Nodes for checking whether the opponent has a VCF or a VCT (and,
    /// for each defence tried, whether it still has one). Default 10,000.
    pub defence_nodes: u64,
    /// Nodes for the VCT search of the player to move (0: no VCT). Default
    /// 20,000.
    pub vct_nodes: u64,
    /// The longest VCT line, in plies. Default 15.
    pub vct_plies: u32,
    /// The share of a time limit the threat searches may use together; the
    /// inner searcher gets the rest. Default 0.3.
    pub time_share: f32,
}

impl TacticalConfig {
    /// Checks the settings: [`time_share`](TacticalConfig::time_share)
    /// must be a fraction (0 to 1); every node budget and line length is
    /// valid (0 nodes turns a search off).
    ///
    /// # Errors
    ///
    /// [`RangeError`] naming the setting out of range.
    pub fn validate(&self) -> Result<(), RangeError> {
        Range::PROBABILITY.check("time_share", f64::from(self.time_share))
    }
}

impl Default for TacticalConfig {
    fn default() -> Self {
        TacticalConfig {
            vcf_nodes: 20_000,
            defence_nodes: 10_000,
            vct_nodes: 20_000,
            vct_plies: 15,
            time_share: 0.3,
        }
    }
}

/// Wraps any searcher of [`Gomoku`] or [`Focused`](crate::Focused) and
/// decides the tactical positions itself, in this order:
///
/// 1. complete a five;
/// 2. block the opponent's five (if there are two, block one: the game is
///    lost anyway);
/// 3. play the first move of a VCF ([`ThreatSolver::vcf`]);
/// 4. play the first move of a VCT ([`ThreatSolver::vct`]; sound against
///    every defence, counter-fours included);
/// 5. play the only legal move, if there is just one;
/// 6. otherwise ask the inner searcher; and if the opponent, given the
///    move, would win by fours (or else by threes), play the first move
///    that stops it (checked by searching their VCF or VCT again), trying
///    the inner searcher's moves in its order of preference (visits, then
///    value), then the cells of the opponent's line, one's own fours and
///    [`PatternPolicy`]'s twelve favourite cells. If nothing stops it, the
///    inner searcher's move stands.
///
/// `Limits::nodes` caps the whole search: the threat searches spend from
/// it first and the inner searcher gets what is left; the report counts
/// both. Iterations and depth go to the inner searcher. With a time limit the threat searches
/// stop at
/// [`time_share`](TacticalConfig::time_share) of it and the inner searcher
/// gets what is left (three quarters of it when a threat must be checked);
/// node budgets bound them always. (A move never creates a threat for the
/// opponent, so a position where the opponent, given the move, has no
/// forced win needs no check of the inner searcher's move.) Every decision is
/// reported with its line as the principal variation, and the inner
/// searcher hears every [`advance`](Searcher::advance) so it can keep its
/// tree.
#[derive(Clone, Debug)]
pub struct TacticalSearcher<S> {
    inner: S,
    config: TacticalConfig,
    solver: ThreatSolver,
    policy: PatternPolicy,
    last: Option<Decision>,
}

impl<S> TacticalSearcher<S> {
    /// `inner` with the budgets of `config`.
    ///
    /// # Errors
    ///
    /// [`RangeError`] if a setting is out of range (see
    /// [`TacticalConfig::validate`]).
    pub fn new(inner: S, config: TacticalConfig) -> Result<Self, RangeError> {
        config.validate()?;
        Ok(TacticalSearcher {
            inner,
            config,
            solver: ThreatSolver::new(),
            policy: PatternPolicy::default(),
            last: None,
        })
    }

    /// How the last search chose its move (`None` before any search).
    pub fn last_decision(&self) -> Option<Decision> {
        self.last
    }

    /// The inner searcher.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The inner searcher, mutably.
    pub fn inner_mut(&mut self) -> &mut S {
        &mut self.inner
    }

    /// The budgets.
    pub fn config(&self) -> &TacticalConfig {
        &self.config
    }
}

/// How [`TacticalSearcher`] chose its last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum Decision {
    /// It completed a five.
    Five,
    /// It blocked the opponent's five.
    Block,
    /// It played a VCF; the report's principal variation is the line.
    Vcf,
    /// It refuted the opponent's VCF.
    Defence,
    /// It played a VCT; the report's principal variation is the line.
    Vct,
    /// It was the only legal move.
    Only,
    /// The inner searcher chose.
    Inner,
}

/// What the opponent threatens, given the move.
#[derive(Clone, Debug)]
struct Threatened {
    /// Their winning line (by fours, or else by threes), their first move
    /// first.
    line: Vec<Move>,
}

/// The clock and budgets of one search.
struct Clock {
    started: Instant,
    /// The time the threat searches may use, if the search is timed.
    share: Option<Duration>,
    /// The whole search's time, if timed.
    total: Option<Duration>,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The search's node limit, if any: the threat searches together stay
    /// within it.
    nodes: Option<u64>,
    /// Nodes the threat searches have visited so far.
    spent: Cell<u64>,
}

impl Clock {
    /// A threat-search budget of `nodes` (and `plies`), within the share.
    fn budget(&self, nodes: u64, plies: Option<u32>) -> Limits {
        let mut budget = Limits::nodes(self.nodes_left().map_or(nodes, |left| left.min(nodes)));
        if let Some(share) = self.share {
            budget = budget.with_time(share.saturating_sub(self.started.elapsed()));
        }
        if let Some(stop) = &self.stop {
            budget = budget.with_stop(stop.clone());
        }
        if let Some(plies) = plies {
            budget = budget.with_depth(plies);
        }
        budget
    }

    /// A budget like [`budget`](Clock::budget), within the whole time.
    fn late_budget(&self, nodes: u64, plies: Option<u32>) -> Limits {
        let mut budget = self.budget(nodes, plies);
        budget.time = self
            .total
            .map(|total| total.saturating_sub(self.started.elapsed()));
        budget
    }

    /// What is left of the node limit, if there is one.
    fn nodes_left(&self) -> Option<u64> {
        self.nodes
            .map(|limit| limit.saturating_sub(self.spent.get()))
    }

    /// Counts the nodes of the threat search that just ended.
    fn spend(&self, solver: &ThreatSolver) {
        self.spent.set(self.spent.get() + solver.nodes());
    }

    fn out_of_time(&self) -> bool {
        self.total
            .is_some_and(|total| self.started.elapsed() >= total)
            || self
                .stop
                .as_ref()
                .is_some_and(|stop| stop.load(std::sync::atomic::Ordering::Relaxed))
    }
}

impl<S> TacticalSearcher<S> {
    /// The move that settles the position, if it has one: a five, a block,
    /// a VCF or a VCT, with its line, value and kind.
    fn forced(&mut self, game: &Gomoku, clock: &Clock) -> Option<(Move, Vec<Move>, f32, Decision)> {
        let me = game.side();
        if let Some(five) = game.threat_moves(me, crate::Threat::Five).iter().next() {
            return Some((five, vec![five], 1.0, Decision::Five));
        }
        let threats = game.threat_moves(me.opponent(), crate::Threat::Five);
        if !threats.is_empty() {
            let lost = threats.len() > 1;
            let block = threats
                .iter()
                .find(|&mv| game_traits::Game::is_legal(game, mv))?;
            return Some((
                block,
                vec![block],
                if lost { -1.0 } else { 0.0 },
                Decision::Block,
            ));
        }
        let fours = self
            .solver
            .vcf(game, &clock.budget(self.config.vcf_nodes, None));
        clock.spend(&self.solver);
        if let Solution::Win(line) = fours {
            return Some((line[0], line, 1.0, Decision::Vcf));
        }
        if self.config.vct_nodes > 0 {
            let threes = self.solver.vct(
                game,
                &clock.budget(self.config.vct_nodes, Some(self.config.vct_plies)),
            );
            clock.spend(&self.solver);
            if let Solution::Win(line) = threes {
                return Some((line[0], line, 1.0, Decision::Vct));
            }
        }
        None
    }

    /// Whether the opponent, given the move in `game`, wins by fours (or
    /// by threes), and how.
    fn threatened(&mut self, game: &Gomoku, clock: &Clock) -> Option<Threatened> {
        let opponent_view = game.null_move();
        let fours = self.solver.vcf(
            &opponent_view,
            &clock.budget(self.config.defence_nodes, None),
        );
        clock.spend(&self.solver);
        if let Solution::Win(line) = fours {
            return Some(Threatened { line });
        }
        if self.config.vct_nodes > 0 {
            let threes = self.solver.vct(
                &opponent_view,
                &clock.budget(self.config.defence_nodes, Some(self.config.vct_plies)),
            );
            clock.spend(&self.solver);
            if let Solution::Win(line) = threes {
                return Some(Threatened { line });
            }
        }
        None
    }

    /// Whether the opponent still wins after our `mv`, by fours or by
    /// threes (whatever the threat was: a move that stops a four can leave a
    /// win by threes); unknown counts as yes.
    fn still_wins(&mut self, game: &Gomoku, mv: Move, clock: &Clock) -> bool {
        let mut after = game.clone();
        game_traits::Game::play(&mut after, mv);
        if after.result().is_some() {
            return false;
        }
        let refuted =
            |solution: Solution| matches!(solution, Solution::NoWin | Solution::NotWithin { .. });
        let fours = self
            .solver
            .vcf(&after, &clock.late_budget(self.config.defence_nodes, None));
        clock.spend(&self.solver);
        if !refuted(fours) {
            return true;
        }
        if self.config.vct_nodes == 0 {
            return false;
        }
        let threes = self.solver.vct(
            &after,
            &clock.late_budget(self.config.defence_nodes, Some(self.config.vct_plies)),
        );
        clock.spend(&self.solver);
        !refuted(threes)
    }

    /// A move that stops `threat`, trying the inner searcher's moves in its
    /// order of preference first, then the cells of the threat's line, our
    /// fours and the policy's favourites.
    fn refutation(
        &mut self,
        game: &Gomoku,
        preferred: &[Move],
        threat: &Threatened,
        clock: &Clock,
    ) -> Option<Move> {
        let me = game.side();
        let mut others: Vec<Move> = threat.line.clone();
        others.extend(game.threat_moves(me, crate::Threat::Four).iter());
        let mut focus: Vec<(f32, Move)> = game
            .focus_moves()
            .iter()
            .map(|mv| (self.policy.logit(game, mv), mv))
            .collect();
        focus.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        others.extend(focus.iter().take(12).map(|&(_, mv)| mv));
        let mut seen = std::collections::HashSet::new();
        let candidates: Vec<Move> = preferred
            .iter()
            .take(8)
            .chain(&others)
            .copied()
            .filter(|&mv| seen.insert(mv) && game_traits::Game::is_legal(game, mv))
            .collect();
        for mv in candidates {
            if clock.out_of_time() || clock.nodes_left() == Some(0) {
                break;
            }
            if !self.still_wins(game, mv, clock) {
                return Some(mv);
            }
        }
        None
    }
}

impl<G, S> Searcher<G> for TacticalSearcher<S>
where
    G: GomokuGame,
    S: Searcher<G>,
{
    fn search(&mut self, state: &G, limits: &Limits) -> SearchReport<Move> {
        let game = state.as_ref();
        if game.result().is_some() {
            return self.inner.search(state, limits);
        }
        let clock = Clock {
            started: Instant::now(),
            share: limits
                .time
                .map(|time| time.mul_f32(self.config.time_share.clamp(0.0, 1.0))),
            total: limits.time,
            stop: limits.stop.clone(),
            nodes: limits.nodes,
            spent: Cell::new(0),
        };
        if let Some((mv, line, value, decision)) = self.forced(game, &clock) {
            self.last = Some(decision);
            // A five, a VCF or a VCT is a proven win, and two fives of the
            // opponent a proven loss; blocking one five is the only move
            // that does not lose at once, so nothing is left to search.
            let stop = if value == 0.0 {
                StopReason::Exhausted
            } else {
                StopReason::Solved
            };
            return SearchReport::new(Some(mv), value).with_pv(line).with_stats(
                SearchStats::new(0, clock.spent.get(), 0, clock.started.elapsed()).with_stop(stop),
            );
        }
        // A single legal move (late on a small board, or a renju pass)
        // needs no search.
        let mut legal = Vec::new();
        game_traits::Game::legal_moves(game, &mut legal);
        if let [only] = legal[..] {
            self.last = Some(Decision::Only);
            return SearchReport::new(Some(only), self.policy.evaluator.evaluate(game))
                .with_pv(vec![only])
                .with_stats(
                    SearchStats::new(0, clock.spent.get(), 0, clock.started.elapsed())
                        .with_stop(StopReason::Exhausted),
                );
        }
        let threat = self.threatened(game, &clock);
        // The inner searcher gets the rest of the time, less a reserve for
        // checking its move against the threat.
        let mut rest = limits.clone();
        if let Some(time) = limits.time {
            let left = time.saturating_sub(clock.started.elapsed());
            let reserve = if threat.is_some() {
                left / 4
            } else {
                Duration::ZERO
            };
            rest.time = Some((left - reserve).max(Duration::from_millis(1)));
        }
        if let Some(left) = clock.nodes_left() {
            rest.nodes = Some(left.max(1));
        }
        self.last = Some(Decision::Inner);
        let mut report = self.inner.search(state, &rest);
        // The inner searcher's nodes count against the limit too.
        clock.spent.set(clock.spent.get() + report.stats.nodes);
        report.stats.nodes = clock.spent.get();
        let Some(threat) = threat else {
            return report;
        };
        // The inner searcher's moves, most visited (then best valued) first.
        let mut ranked: Vec<&game_traits::MoveInfo<Move>> = report.moves.iter().collect();
        ranked.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.value.unwrap_or(-2.0).total_cmp(&a.value.unwrap_or(-2.0)))
        });
        let preferred: Vec<Move> = report
            .best
            .into_iter()
            .chain(ranked.iter().map(|info| info.mv))
            .collect();
        let refutation = self.refutation(game, &preferred, &threat, &clock);
        report.stats.nodes = clock.spent.get();
        match refutation {
            Some(mv) if Some(mv) == report.best => report,
            Some(mv) => {
                self.last = Some(Decision::Defence);
                let value = report
                    .moves
                    .iter()
                    .find(|info| info.mv == mv)
                    .and_then(|info| info.value)
                    .unwrap_or(0.0);
                SearchReport::new(Some(mv), value)
                    .with_pv(vec![mv])
                    .with_moves(report.moves.clone())
                    .with_stats(report.stats)
            }
            None => report,
        }
    }

    fn advance(&mut self, played: Move) {
        self.inner.advance(played);
    }

    fn reset(&mut self) {
        self.inner.reset();
    }

    fn name(&self) -> String {
        format!("tactical+{}", self.inner.name())
    }

    /// What the inner searcher honours: the threat searches stay within
    /// every limit (their own node and ply budgets besides).
    fn honours(&self, kind: LimitKind) -> bool {
        self.inner.honours(kind)
    }
}

/// Runs a searcher of the [`Focused`](crate::Focused) game on [`Gomoku`]
/// positions: each search sees the focused view of the position it is
/// given, and every move played (focused or not) is passed on to
/// [`advance`](Searcher::advance) (a searcher that keeps a tree drops it
/// when the move is not one of its focused moves).
///
/// This is how a generic searcher (MCTS, Gumbel AlphaZero) plays the full
/// game, in [`TacticalSearcher`] and the Gomocup brain, while thinking
/// only about cells near the stones.
#[derive(Clone, Debug)]
pub struct OnFocused<S>(pub S);

impl<S: Searcher<crate::Focused>> Searcher<Gomoku> for OnFocused<S> {
    fn search(&mut self, state: &Gomoku, limits: &Limits) -> SearchReport<Move> {
        self.0.search(&crate::Focused::new(state.clone()), limits)
    }

    fn advance(&mut self, played: Move) {
        self.0.advance(played);
    }

    fn reset(&mut self) {
        self.0.reset();
    }

    fn name(&self) -> String {
        self.0.name()
    }

    fn honours(&self, kind: LimitKind) -> bool {
        self.0.honours(kind)
    }
}
