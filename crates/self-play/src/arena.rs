//! Checkpoints against opponents: the network in a searcher, played
//! against the previous best network and against fixed baselines with
//! `game_traits::play_series` (each opening with both colours), scored
//! with Elo and its 95% interval.

use game_traits::{
    BatchEvaluator, EloEstimate, Limits, PlaneEncoding, Searcher, SeriesOptions, Tally, play_series,
};
use gumbel_az::{GumbelAz, GumbelConfig, Puct, PuctConfig};

use crate::{Network, SearchKind, TrainError};

/// A searcher behind a box, as evaluations mix them.
pub type BoxedSearcher<G> = Box<dyn Searcher<G> + Send>;

/// Builds a fresh searcher from a game's seed.
pub type SearcherFactory<G> = Box<dyn Fn(u64) -> BoxedSearcher<G> + Send + Sync>;

/// A fixed opponent of the checkpoint evaluations (the game's hand-written
/// policy in the same search, say).
pub struct Opponent<G> {
    /// Its name in the log and the chart.
    pub name: String,
    make: SearcherFactory<G>,
}

impl<G> std::fmt::Debug for Opponent<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opponent")
            .field("name", &self.name)
            .finish()
    }
}

impl<G> Opponent<G> {
    /// An opponent called `name`, built for each game by `make(seed)`.
    pub fn new(
        name: impl Into<String>,
        make: impl Fn(u64) -> BoxedSearcher<G> + Send + Sync + 'static,
    ) -> Self {
        Opponent {
            name: name.into(),
            make: Box::new(make),
        }
    }

    /// A searcher of this opponent for the game seeded `seed`.
    pub fn searcher(&self, seed: u64) -> BoxedSearcher<G> {
        (self.make)(seed)
    }
}

/// How checkpoints are evaluated.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct EvalConfig {
    /// Openings per opponent; each is played with both colours (default
    /// 10, so 20 games).
    pub openings: u32,
    /// Random plies of each opening (default 4).
    pub opening_plies: usize,
    /// The search the network plays in (default Gumbel, as the baselines).
    pub search: SearchKind,
    /// Simulations per move, for the network and the baselines alike
    /// (default 32).
    pub simulations: u64,
    /// Gumbel's `k` (default 16).
    pub considered_actions: usize,
    /// Games played at once (default 2).
    pub threads: usize,
    /// Plies after which a game stops, scored a draw (default 1000).
    pub max_plies: usize,
    /// Score against the best network so far above which a checkpoint
    /// becomes the best (default 0.55).
    pub promote_score: f64,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            openings: 10,
            opening_plies: 4,
            search: SearchKind::Gumbel,
            simulations: 32,
            considered_actions: 16,
            threads: 2,
            max_plies: 1000,
            promote_score: 0.55,
        }
    }
}

/// A searcher on `evaluator` for play: Gumbel without root noise, or PUCT
/// without Dirichlet noise, `config.simulations` per move (also the
/// default when the limits set none), seeded by `seed`.
///
/// # Errors
///
/// [`TrainError::Searcher`] for settings the searcher refuses.
pub fn play_searcher<G, E>(
    evaluator: E,
    search: SearchKind,
    simulations: u64,
    considered_actions: usize,
    seed: u64,
) -> Result<BoxedSearcher<G>, TrainError>
where
    G: PlaneEncoding,
    E: BatchEvaluator<G> + 'static,
{
    Ok(match search {
        SearchKind::Gumbel => Box::new(GumbelAz::new(
            evaluator,
            GumbelConfig::for_play()
                .with_max_considered_actions(considered_actions)
                .with_default_simulations(simulations)
                .with_seed(seed),
        )?),
        SearchKind::Puct => Box::new(Puct::new(
            evaluator,
            PuctConfig::default()
                .with_default_simulations(simulations)
                .with_seed(seed),
        )?),
    })
}

/// The network's player for evaluations: [`play_searcher`] on `network`.
///
/// # Errors
///
/// [`TrainError::Searcher`] for settings the searcher refuses.
pub fn network_player<G: PlaneEncoding>(
    network: &Network<G>,
    config: &EvalConfig,
) -> Result<Opponent<G>, TrainError> {
    // Built once to check the settings, so the factory cannot fail.
    play_searcher::<G, _>(
        network.clone(),
        config.search,
        config.simulations,
        config.considered_actions,
        0,
    )?;
    let (network, config) = (network.clone(), config.clone());
    Ok(Opponent::new("network", move |seed| {
        play_searcher::<G, _>(
            network.clone(),
            config.search,
            config.simulations,
            config.considered_actions,
            seed,
        )
        .unwrap_or_else(|_| unreachable!("checked when the player was made"))
    }))
}

/// The result of one evaluation match.
///
/// The Elo fields are written for readers of the log; a clean sweep has an
/// infinite estimate, which JSON writes as `null`, so reading rebuilds them
/// from the tally instead of trusting the file.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(from = "MatchRecord")]
pub struct MatchResult {
    /// The opponent's name.
    pub opponent: String,
    /// The network's wins.
    pub wins: u32,
    /// Draws (and games stopped at the ply cap).
    pub draws: u32,
    /// The network's losses.
    pub losses: u32,
    /// Its score.
    pub score: f64,
    /// Its Elo difference to the opponent ...
    pub elo: f64,
    /// ... with the 95% interval's lower end ...
    pub elo_low: f64,
    /// ... and upper end.
    pub elo_high: f64,
}

/// What a log line must hold of a match: the rest follows from the tally.
#[derive(serde::Deserialize)]
struct MatchRecord {
    opponent: String,
    wins: u32,
    draws: u32,
    losses: u32,
}

impl From<MatchRecord> for MatchResult {
    fn from(record: MatchRecord) -> MatchResult {
        let tally = Tally {
            wins: record.wins,
            draws: record.draws,
            losses: record.losses,
        };
        MatchResult::new(&record.opponent, &tally)
    }
}

impl MatchResult {
    fn new(opponent: &str, tally: &Tally) -> MatchResult {
        let EloEstimate { elo, low, high } = tally.elo();
        MatchResult {
            opponent: opponent.to_string(),
            wins: tally.wins,
            draws: tally.draws,
            losses: tally.losses,
            score: tally.score(),
            elo,
            elo_low: low,
            elo_high: high,
        }
    }

    /// The tally.
    pub fn tally(&self) -> Tally {
        Tally {
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
        }
    }
}

/// Plays `player` against `opponent` from `start`: `config.openings`
/// openings, each with both colours, `config.simulations` per move for
/// both, seeded by `seed`.
///
/// # Errors
///
/// [`TrainError::Match`] if a searcher gives no move or an illegal one.
pub fn play_match<G: PlaneEncoding>(
    start: &G,
    player: &Opponent<G>,
    opponent: &Opponent<G>,
    config: &EvalConfig,
    seed: u64,
) -> Result<MatchResult, TrainError> {
    let options = SeriesOptions::new(
        config.openings,
        config.opening_plies,
        Limits::iterations(config.simulations),
    )
    .with_seed(seed)
    .with_threads(config.threads)
    .with_max_plies(config.max_plies);
    let series = play_series(
        start,
        |seed| player.searcher(seed),
        |seed| opponent.searcher(seed),
        &options,
    )
    .map_err(|error| TrainError::Match(error.to_string()))?;
    Ok(MatchResult::new(&opponent.name, &series.tally))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_sweep_reads_back_from_its_log_line() {
        let tally = Tally {
            wins: 20,
            draws: 0,
            losses: 0,
        };
        let sweep = MatchResult::new("best", &tally);
        assert!(sweep.elo.is_infinite() && sweep.elo_high.is_infinite());
        let line = serde_json::to_string(&sweep).unwrap();
        assert!(line.contains("\"elo\":null"), "{line}");
        let read: MatchResult = serde_json::from_str(&line).unwrap();
        assert_eq!(read, sweep);
        let lost: MatchResult = serde_json::from_str(
            r#"{"opponent":"x","wins":0,"draws":0,"losses":5,"score":0.0,"elo":null}"#,
        )
        .unwrap();
        assert_eq!(lost.elo, f64::NEG_INFINITY);
        assert_eq!(lost.tally().losses, 5);
    }
}
