//! Baselines that measure what hidden information costs: the same inner
//! searcher on the true world (cheating), on the naive world, and a random
//! player.
//!
//! * [`Omniscient`] (re-exported from `game_traits::hidden`): the inner
//!   searcher on the *true* world. It needs the referee, so it takes part
//!   in matches as a [`HiddenPlayer`](game_traits::hidden::HiddenPlayer)
//!   directly, while honest searchers are wrapped in
//!   [`Informed`](game_traits::hidden::Informed).
//! * [`Naive`]: the inner searcher on the world a player assumes who
//!   ignores what it cannot see ([`NaiveWorld`]; Hidden Jungle: the
//!   standard layout where it does not contradict what was revealed).
//! * [`RandomSearcher`] (re-exported from `game_traits`): a uniformly
//!   random legal move.

use game_traits::hidden::{InfoSetSearcher, NaiveWorld, WorldMove, finished_report};
use game_traits::{LimitKind, Limits, SearchReport, Searcher};

pub use game_traits::RandomSearcher;
pub use game_traits::hidden::Omniscient;

/// Searches the naive world ([`NaiveWorld::naive_world`]) with a
/// perfect-information searcher, as a player would who ignores hidden
/// information. Its moves are its true moves, so always legal.
#[derive(Clone, Debug, Default)]
pub struct Naive<S>(pub S);

impl<I, S> InfoSetSearcher<I> for Naive<S>
where
    I: NaiveWorld,
    S: Searcher<I::World>,
{
    fn search(&mut self, info: &I, limits: &Limits) -> SearchReport<WorldMove<I>> {
        let budget = limits.start();
        let mut moves = Vec::new();
        info.legal_moves(&mut moves);
        if moves.is_empty() {
            return finished_report(info, budget.elapsed());
        }
        let report = self.0.search(&info.naive_world(), limits);
        debug_assert!(
            report.best.is_some_and(|mv| moves.contains(&mv)),
            "the naive world gives the player its true moves"
        );
        report
    }

    fn reset(&mut self) {
        self.0.reset();
    }

    fn name(&self) -> String {
        format!("naive {}", self.0.name())
    }

    fn honours(&self, kind: LimitKind) -> bool {
        self.0.honours(kind)
    }
}
