//! A searcher wrapper that settles the tactics (fives, fours, VCF, VCT)
//! before handing the position to any searcher.

use std::time::{Duration, Instant};

use game_traits::{Limits, SearchReport, SearchStats, Searcher};

use crate::playout::GomokuGame;
use crate::{Gomoku, Move, PatternPolicy, Solution, ThreatSolver};

/// Budgets of [`TacticalSearcher`].
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TacticalConfig {
    /// Nodes for the VCF search of the player to move. Default 20,000.
    pub vcf_nodes: u64,
    /// Nodes for checking whether the opponent has a VCF (and, for each
    /// defence tried, whether it still has one). Default 5,000.
    pub defence_nodes: u64,
    /// Nodes for the VCT search of the player to move (0: no VCT). Default
    /// 20,000.
    pub vct_nodes: u64,
    /// The longest VCT line, in plies. Default 11.
    pub vct_plies: u32,
    /// The share of a time limit the threat searches may use together; the
    /// inner searcher gets the rest. Default 0.3.
    pub time_share: f32,
}

impl Default for TacticalConfig {
    fn default() -> Self {
        TacticalConfig {
            vcf_nodes: 20_000,
            defence_nodes: 5_000,
            vct_nodes: 20_000,
            vct_plies: 11,
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
/// 4. if the opponent (given the move) would have a VCF, play a move that
///    refutes it: a cell of its line or a four of one's own, checked by
///    searching the opponent's VCF again, preferring
///    [`PatternPolicy`]'s favourite;
/// 5. play the first move of a VCT ([`ThreatSolver::vct`]);
/// 6. otherwise ask the inner searcher.
///
/// With a time limit the threat searches stop at
/// [`time_share`](TacticalConfig::time_share) of it and the inner searcher
/// gets what is left; node budgets bound them always. Every decision is
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
    /// `inner` with the default budgets.
    pub fn new(inner: S) -> Self {
        TacticalSearcher::with_config(inner, TacticalConfig::default())
    }

    /// `inner` with `config`.
    pub fn with_config(inner: S, config: TacticalConfig) -> Self {
        TacticalSearcher {
            inner,
            config,
            solver: ThreatSolver::new(),
            policy: PatternPolicy::default(),
            last: None,
        }
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
    /// The inner searcher chose.
    Inner,
}

impl<S> TacticalSearcher<S> {
    /// The tactical move, if the position has one, with its line and
    /// value.
    fn tactics(&mut self, game: &Gomoku, limits: &Limits) -> Option<(Move, Vec<Move>, f32, Decision)> {
        let me = game.side();
        if let Some(five) = game.threat_moves(me, crate::Threat::Five).iter().next() {
            return Some((five, vec![five], 1.0, Decision::Five));
        }
        let threats = game.threat_moves(me.opponent(), crate::Threat::Five);
        if !threats.is_empty() {
            let lost = threats.len() > 1;
            let block = threats.iter().find(|&mv| game_traits::Game::is_legal(game, mv))?;
            return Some((block, vec![block], if lost { -1.0 } else { 0.0 }, Decision::Block));
        }
        let started = Instant::now();
        let share = limits
            .time
            .map(|time| time.mul_f32(self.config.time_share.clamp(0.0, 1.0)));
        let budget = |nodes: u64, plies: Option<u32>| {
            let mut budget = Limits::nodes(nodes);
            if let Some(share) = share {
                budget = budget.with_time(share.saturating_sub(started.elapsed()));
            }
            if let Some(stop) = &limits.stop {
                budget = budget.with_stop(stop.clone());
            }
            if let Some(plies) = plies {
                budget = budget.with_depth(plies);
            }
            budget
        };
        if let Solution::Win(line) = self.solver.vcf(game, &budget(self.config.vcf_nodes, None)) {
            return Some((line[0], line, 1.0, Decision::Vcf));
        }
        let opponent_view = game.null_move();
        if let Solution::Win(their_line) =
            self.solver.vcf(&opponent_view, &budget(self.config.defence_nodes, None))
        {
            // Candidate refutations: the cells of their line, and our fours.
            let mut candidates: Vec<Move> = their_line.clone();
            candidates.extend(game.threat_moves(me, crate::Threat::Four).iter());
            let mut scored: Vec<(f32, Move)> = candidates
                .into_iter()
                .filter(|&mv| game_traits::Game::is_legal(game, mv))
                .map(|mv| (self.policy.logit(game, mv), mv))
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            scored.dedup_by_key(|(_, mv)| *mv);
            for (_, mv) in scored {
                let mut after = game.clone();
                game_traits::Game::play(&mut after, mv);
                // After our move it is their turn: do they still win by fours?
                match self.solver.vcf(&after, &budget(self.config.defence_nodes, None)) {
                    Solution::Win(_) => continue,
                    Solution::Unknown if share.is_some_and(|share| started.elapsed() >= share) => break,
                    _ => return Some((mv, vec![mv], 0.0, Decision::Defence)),
                }
            }
        }
        if self.config.vct_nodes > 0
            && let Solution::Win(line) = self.solver.vct(
                game,
                &budget(self.config.vct_nodes, Some(self.config.vct_plies)),
            )
        {
            return Some((line[0], line, 1.0, Decision::Vct));
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
        let started = Instant::now();
        let game = state.as_ref();
        if game.result().is_some() {
            return self.inner.search(state, limits);
        }
        if let Some((mv, line, value, decision)) = self.tactics(game, limits) {
            let nodes = self.solver.nodes();
            self.last = Some(decision);
            return SearchReport::new(Some(mv), value)
                .with_pv(line)
                .with_stats(SearchStats::new(0, nodes, 0, started.elapsed()));
        }
        let mut rest = limits.clone();
        if let Some(time) = limits.time {
            rest.time = Some(time.saturating_sub(started.elapsed()).max(Duration::from_millis(1)));
        }
        self.last = Some(Decision::Inner);
        self.inner.search(state, &rest)
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
}
