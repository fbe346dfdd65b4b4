//! Playing searchers against each other: single matches and score tallies
//! with confidence intervals.

use std::ops::ControlFlow;

use crate::{Game, IllegalMove, Limits, Outcome, Player, Searcher};

/// A game played between two searchers.
#[derive(Clone, Debug)]
pub struct MatchRecord<G: Game> {
    /// The moves played, in order.
    pub moves: Vec<G::Move>,
    /// The result; `None` if the ply limit stopped the game first.
    pub outcome: Option<Outcome>,
    /// The final position.
    pub final_state: G,
}

/// Options of [`play_match_with`].
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct MatchOptions {
    /// Limits for the searcher playing [`Player::First`].
    pub first_limits: Limits,
    /// Limits for the searcher playing [`Player::Second`].
    pub second_limits: Limits,
    /// Stop the game unfinished after this many plies.
    pub max_plies: Option<usize>,
}

impl MatchOptions {
    /// Both searchers get `limits`; no ply limit.
    pub fn new(limits: Limits) -> Self {
        MatchOptions {
            first_limits: limits.clone(),
            second_limits: limits,
            max_plies: None,
        }
    }

    /// Stops the game unfinished after `max_plies` plies.
    #[must_use]
    pub fn with_max_plies(mut self, max_plies: usize) -> Self {
        self.max_plies = Some(max_plies);
        self
    }
}

/// Why a match could not be played to the end.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MatchError<M: std::fmt::Debug> {
    /// A searcher returned no move in a position that was not finished.
    #[error("the {player} player's searcher returned no move at ply {ply}{}", reason.as_deref().map(|reason| format!(": {reason}")).unwrap_or_default())]
    NoMove {
        /// Whose searcher failed.
        player: Player,
        /// The ply (0 = first move) at which it failed.
        ply: usize,
        /// Why, if the searcher said ([`Searcher::failure`]).
        reason: Option<String>,
    },
    /// A searcher returned a move that is not legal.
    #[error("the {player} player's searcher played an illegal move at ply {ply}: {source}")]
    IllegalMove {
        /// Whose searcher failed.
        player: Player,
        /// The ply (0 = first move) at which it failed.
        ply: usize,
        /// The refused move.
        source: IllegalMove<M>,
    },
}

impl<M: std::fmt::Debug> MatchError<M> {
    /// The player whose searcher failed (and so loses the game).
    pub fn player(&self) -> Player {
        match self {
            MatchError::NoMove { player, .. } | MatchError::IllegalMove { player, .. } => *player,
        }
    }

    /// The ply (0 = first move) at which it failed.
    pub fn ply(&self) -> usize {
        match self {
            MatchError::NoMove { ply, .. } | MatchError::IllegalMove { ply, .. } => *ply,
        }
    }
}

/// Plays `first` (as [`Player::First`]) against `second` from `start`, both
/// with `limits`, until the game ends. Both searchers hear every move
/// through [`Searcher::advance`].
///
/// # Errors
///
/// Returns [`MatchError`] if a searcher returns no move or an illegal one.
///
/// # Example
///
/// ```
/// use game_traits::testing::{MinimaxSearcher, TicTacToe};
/// use game_traits::{play_match, Limits, Outcome};
///
/// let mut a = MinimaxSearcher::new();
/// let mut b = MinimaxSearcher::new();
/// let record = play_match(&TicTacToe::new(), &mut a, &mut b, &Limits::none())?;
/// assert_eq!(record.outcome, Some(Outcome::Draw)); // perfect play draws
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_match<G, A, B>(
    start: &G,
    first: &mut A,
    second: &mut B,
    limits: &Limits,
) -> Result<MatchRecord<G>, MatchError<G::Move>>
where
    G: Game,
    A: Searcher<G> + ?Sized,
    B: Searcher<G> + ?Sized,
{
    play_match_with(start, first, second, &MatchOptions::new(limits.clone()))
}

/// [`play_match`] with separate limits per player and an optional ply
/// limit.
///
/// # Errors
///
/// Returns [`MatchError`] if a searcher returns no move or an illegal one.
pub fn play_match_with<G, A, B>(
    start: &G,
    first: &mut A,
    second: &mut B,
    options: &MatchOptions,
) -> Result<MatchRecord<G>, MatchError<G::Move>>
where
    G: Game,
    A: Searcher<G> + ?Sized,
    B: Searcher<G> + ?Sized,
{
    let mut moves = Vec::new();
    let final_state = play_match_into(start, first, second, options, &mut moves)?;
    Ok(MatchRecord {
        outcome: final_state.outcome(),
        moves,
        final_state,
    })
}

/// [`play_match_with`] that pushes each move onto `moves` as it is
/// played, so a game lost to a failing searcher still has its moves up to
/// the failure. Returns the final position.
///
/// # Errors
///
/// Returns [`MatchError`] if a searcher returns no move or an illegal one;
/// `moves` then holds the moves played before it.
pub fn play_match_into<G, A, B>(
    start: &G,
    first: &mut A,
    second: &mut B,
    options: &MatchOptions,
    moves: &mut Vec<G::Move>,
) -> Result<G, MatchError<G::Move>>
where
    G: Game,
    A: Searcher<G> + ?Sized,
    B: Searcher<G> + ?Sized,
{
    let never = |_: &G| None::<std::convert::Infallible>;
    play_match_judged(start, first, second, options, moves, never).map(|(state, _)| state)
}

/// [`play_match_into`] with an adjudicator: before each move, `judge`
/// sees the position and may end the game there with a verdict of its
/// own (a result known for sure, such as an exact endgame solve). Returns
/// the final position and the verdict, if the judge gave one.
///
/// # Errors
///
/// As [`play_match_into`].
pub fn play_match_judged<G, A, B, V>(
    start: &G,
    first: &mut A,
    second: &mut B,
    options: &MatchOptions,
    moves: &mut Vec<G::Move>,
    mut judge: impl FnMut(&G) -> Option<V>,
) -> Result<(G, Option<V>), MatchError<G::Move>>
where
    G: Game,
    A: Searcher<G> + ?Sized,
    B: Searcher<G> + ?Sized,
{
    let mut state = start.clone();
    let mut ply = 0;
    while !state.is_over() && options.max_plies.is_none_or(|max| ply < max) {
        if let Some(verdict) = judge(&state) {
            return Ok((state, Some(verdict)));
        }
        let player = state.to_move();
        let report = match player {
            Player::First => first.search(&state, &options.first_limits),
            Player::Second => second.search(&state, &options.second_limits),
        };
        let Some(mv) = report.best else {
            let reason = match player {
                Player::First => first.failure(),
                Player::Second => second.failure(),
            };
            return Err(MatchError::NoMove {
                player,
                ply,
                reason,
            });
        };
        state
            .try_play(mv)
            .map_err(|source| MatchError::IllegalMove {
                player,
                ply,
                source,
            })?;
        first.advance(mv);
        second.advance(mv);
        moves.push(mv);
        ply += 1;
    }
    Ok((state, None))
}

/// How [`play_series`] runs a series of games between two searchers.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SeriesOptions {
    /// Number of openings; each is played twice, once with each searcher
    /// moving first, so the series has `2 * openings` games.
    pub openings: u32,
    /// Random legal plies played from the start to make each opening (0:
    /// every game starts from the start position).
    pub opening_plies: usize,
    /// Seeds the openings and, through [`SeriesOptions::game_seed`], the
    /// searchers.
    pub seed: u64,
    /// Games played at the same time (each game runs on one thread).
    pub threads: usize,
    /// Limits and ply cap for every game; `first_limits` go to searcher
    /// A, `second_limits` to searcher B, whichever side they play.
    pub match_options: MatchOptions,
}

impl SeriesOptions {
    /// `openings` openings of `opening_plies` random plies, both searchers
    /// with `limits`, one thread, seed 0.
    pub fn new(openings: u32, opening_plies: usize, limits: Limits) -> Self {
        SeriesOptions {
            openings,
            opening_plies,
            seed: 0,
            threads: 1,
            match_options: MatchOptions::new(limits),
        }
    }

    /// Sets the seed.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Plays this many games at once.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Gives searcher A and searcher B different limits.
    #[must_use]
    pub fn with_limits(mut self, limits_a: Limits, limits_b: Limits) -> Self {
        self.match_options.first_limits = limits_a;
        self.match_options.second_limits = limits_b;
        self
    }

    /// Stops each game unfinished after `max_plies` plies (from the
    /// opening's end).
    #[must_use]
    pub fn with_max_plies(mut self, max_plies: usize) -> Self {
        self.match_options.max_plies = Some(max_plies);
        self
    }

    /// The seed handed to the searcher factories for game `game`.
    pub fn game_seed(&self, game: u32) -> u64 {
        crate::zobrist::mix64(self.seed ^ (u64::from(game) << 32) ^ 0x5EED)
    }

    /// The match options of a game in which searcher A plays `a_side`:
    /// A's limits go to whichever side it plays.
    pub fn match_options_for(&self, a_side: Player) -> MatchOptions {
        match a_side {
            Player::First => self.match_options.clone(),
            Player::Second => MatchOptions {
                first_limits: self.match_options.second_limits.clone(),
                second_limits: self.match_options.first_limits.clone(),
                max_plies: self.match_options.max_plies,
            },
        }
    }
}

/// One game of a series, with moves of type `M`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeriesGame<M = ()> {
    /// The game's number in the series.
    pub game: u32,
    /// Which opening it started from.
    pub opening: u32,
    /// The side searcher A played.
    pub a_side: Player,
    /// The result; `None` if the ply cap stopped it.
    pub outcome: Option<Outcome>,
    /// Plies played after the opening.
    pub plies: usize,
    /// The moves played after the opening, so the game can be replayed
    /// from [`SeriesOptions`]' opening.
    pub moves: Vec<M>,
}

/// The results of [`play_series`] (and of the hidden-information
/// series), with moves of type `M`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SeriesResult<M = ()> {
    /// Searcher A's wins, draws and losses.
    pub tally: Tally,
    /// Every game, in series order.
    pub games: Vec<SeriesGame<M>>,
}

impl<M> Default for SeriesResult<M> {
    fn default() -> Self {
        SeriesResult {
            tally: Tally::default(),
            games: Vec::new(),
        }
    }
}

/// Plays searcher A against searcher B over a series of openings, each
/// opening twice with colours swapped, and tallies A's results.
///
/// `make_a(seed)` and `make_b(seed)` build a fresh searcher for each game
/// from that game's seed, so a series with iteration budgets is
/// reproducible whatever the number of threads. Openings are random legal
/// plies from `start` (seeded); an opening that ends the game is drawn
/// again.
///
/// # Errors
///
/// Returns the first [`MatchError`] (a searcher returning no move or an
/// illegal one), in series order.
pub fn play_series<G, A, B, MakeA, MakeB>(
    start: &G,
    make_a: MakeA,
    make_b: MakeB,
    options: &SeriesOptions,
) -> Result<SeriesResult<G::Move>, MatchError<G::Move>>
where
    G: Game,
    A: Searcher<G>,
    B: Searcher<G>,
    MakeA: Fn(u64) -> A + Sync,
    MakeB: Fn(u64) -> B + Sync,
{
    let openings: Vec<G> = (0..options.openings)
        .map(|index| random_opening(start, options.opening_plies, options.seed, index))
        .collect();
    run_series(options, |opening, a_side, seed| {
        let mut a = make_a(seed);
        let mut b = make_b(seed ^ 0xB);
        let state = &openings[opening as usize];
        let match_options = options.match_options_for(a_side);
        // `play_match_with` gives its first searcher to Player::First.
        let record = if a_side == Player::First {
            play_match_with(state, &mut a, &mut b, &match_options)?
        } else {
            play_match_with(state, &mut b, &mut a, &match_options)?
        };
        Ok((record.outcome, record.moves))
    })
}

/// The schedule every series follows: game `g` starts from opening
/// `g / 2`, searcher A moves first when `g` is even, and the searchers
/// are seeded by [`SeriesOptions::game_seed`]. `play(opening, a_side,
/// seed)` plays one game (on the threads of [`parallel_map`]) and returns
/// its result and moves; the tally and the games come back in series
/// order, or the first game's failure.
pub(crate) fn run_series<M: Send, E: Send>(
    options: &SeriesOptions,
    play: impl Fn(u32, Player, u64) -> Result<(Option<Outcome>, Vec<M>), E> + Sync,
) -> Result<SeriesResult<M>, E> {
    let total = 2 * options.openings as usize;
    let results = parallel_map(total, options.threads, |index| {
        let game = index as u32;
        let a_side = if game.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        };
        let opening = game / 2;
        ControlFlow::Continue(play(opening, a_side, options.game_seed(game)).map(
            |(outcome, moves)| SeriesGame {
                game,
                opening,
                a_side,
                outcome,
                plies: moves.len(),
                moves,
            },
        ))
    });
    let mut series = SeriesResult::default();
    for result in results.into_iter().flatten() {
        let game = result?;
        series.tally.record(game.outcome, game.a_side);
        series.games.push(game);
    }
    Ok(series)
}

/// Runs `work(i)` for every `i` in `0..count` on up to `threads` scoped
/// threads, each thread taking the next index as it finishes one, and
/// returns the results in index order. When `work` returns
/// [`ControlFlow::Break`], its result is kept and no further index is
/// handed out: indices never started are `None`. The work queue of every
/// series and tournament (one game per index).
///
/// ```
/// use std::ops::ControlFlow;
/// use game_traits::parallel_map;
///
/// let squares = parallel_map(5, 2, |i| ControlFlow::Continue(i * i));
/// assert_eq!(squares, vec![Some(0), Some(1), Some(4), Some(9), Some(16)]);
/// // Stop at the first index past 1 (one thread: exactly 0, 1 and 2 run).
/// let stopped = parallel_map(5, 1, |i| {
///     if i > 1 { ControlFlow::Break(i) } else { ControlFlow::Continue(i) }
/// });
/// assert_eq!(stopped, vec![Some(0), Some(1), Some(2), None, None]);
/// ```
pub fn parallel_map<R: Send>(
    count: usize,
    threads: usize,
    work: impl Fn(usize) -> ControlFlow<R, R> + Sync,
) -> Vec<Option<R>> {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut results: Vec<Option<R>> = (0..count).map(|_| None).collect();
    let slots = std::sync::Mutex::new(&mut results);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, count.max(1)) {
            scope.spawn(|| {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= count {
                        break;
                    }
                    let result = match work(index) {
                        ControlFlow::Continue(result) => result,
                        ControlFlow::Break(result) => {
                            stop.store(true, Ordering::Relaxed);
                            result
                        }
                    };
                    slots
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)[index] = Some(result);
                }
            });
        }
    });
    results
}

/// `plies` random legal moves from `start`, as [`random_opening_moves`]
/// draws them, played.
fn random_opening<G: Game>(start: &G, plies: usize, seed: u64, index: u32) -> G {
    let mut state = start.clone();
    for mv in random_opening_moves(start, plies, seed, index) {
        state.play(mv);
    }
    state
}

/// The seed of try `attempt` at random opening `index` of a series seeded
/// by `seed`: the one formula behind [`play_series`], the
/// hidden-information series and the arena's tournaments, so that one
/// seed gives the same openings in all of them.
pub fn opening_seed(seed: u64, index: u32, attempt: u32) -> u64 {
    crate::zobrist::mix64(seed ^ (u64::from(index) << 20) ^ u64::from(attempt))
}

/// Opening `index` of a series seeded by `seed`: `plies` random legal moves
/// from `start`, drawn with a generator seeded by [`opening_seed`], drawn
/// again (up to 100 times, then with half the plies) while the moves end
/// the game. Empty when `plies` is 0 or `start` is over.
pub fn random_opening_moves<G: Game>(
    start: &G,
    plies: usize,
    seed: u64,
    index: u32,
) -> Vec<G::Move> {
    use rand::{RngExt, SeedableRng};
    let mut moves = Vec::new();
    let mut played = Vec::with_capacity(plies);
    let mut plies = plies;
    while plies > 0 && !start.is_over() {
        for attempt in 0..100 {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(opening_seed(seed, index, attempt));
            let mut state = start.clone();
            played.clear();
            for _ in 0..plies {
                state.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(..moves.len())];
                state.play(mv);
                played.push(mv);
            }
            if !state.is_over() {
                return played;
            }
        }
        plies /= 2;
    }
    Vec::new()
}

/// Wins, draws and losses of one side over a series of games, with the
/// score and its 95% confidence interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn (or stopped unfinished).
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    /// Adds one game's result for `side`; an unfinished game (`None`) counts
    /// as a draw.
    pub fn record(&mut self, outcome: Option<Outcome>, side: Player) {
        match outcome.map(|outcome| outcome.reward(side)) {
            Some(reward) if reward > 0.0 => self.wins = self.wins.saturating_add(1),
            Some(reward) if reward < 0.0 => self.losses = self.losses.saturating_add(1),
            _ => self.draws = self.draws.saturating_add(1),
        }
    }

    /// Games recorded (saturating at `u32::MAX`: the fields are public and
    /// may come from anywhere, serde included).
    pub fn games(&self) -> u32 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// Games recorded, exactly, as a float.
    fn games_f64(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) + f64::from(self.losses)
    }

    /// Score in `[0, 1]`: (wins + draws / 2) / games; 0.5 with no games.
    pub fn score(&self) -> f64 {
        let games = self.games_f64();
        if games == 0.0 {
            0.5
        } else {
            (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / games
        }
    }

    /// The 95% confidence interval of the score: the Wilson score interval
    /// (Wilson 1927), which stays inside `[0, 1]` and behaves near 0% and
    /// 100%, with draws counted as half a win.
    pub fn confidence95(&self) -> (f64, f64) {
        let games = self.games_f64();
        if games == 0.0 {
            return (0.0, 1.0);
        }
        let z = 1.959_963_984_540_054_f64;
        let p = self.score();
        let denominator = 1.0 + z * z / games;
        let centre = (p + z * z / (2.0 * games)) / denominator;
        let half_width =
            z * (p * (1.0 - p) / games + z * z / (4.0 * games * games)).sqrt() / denominator;
        (
            (centre - half_width).max(0.0),
            (centre + half_width).min(1.0),
        )
    }
}

impl Tally {
    /// The Elo difference of the side whose results these are (logistic
    /// model: `elo = -400 log10(1/s - 1)` for the score `s`), with the 95%
    /// interval of [`confidence95`](Tally::confidence95) mapped through the
    /// same formula; a score of 0 or 1 maps to an infinite difference.
    ///
    /// ```
    /// use game_traits::Tally;
    ///
    /// let tally = Tally { wins: 30, draws: 0, losses: 10 };
    /// let elo = tally.elo();
    /// assert!((elo.elo - 190.8).abs() < 0.1);
    /// assert!(elo.low < elo.elo && elo.elo < elo.high);
    /// ```
    pub fn elo(&self) -> EloEstimate {
        let (low, high) = self.confidence95();
        EloEstimate {
            elo: elo_from_score(self.score()),
            low: elo_from_score(low),
            high: elo_from_score(high),
        }
    }
}

/// The Elo difference that gives the expected score `score` (logistic
/// model); infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    // Scores within rounding of 0 or 1 (a Wilson bound) are the limits.
    if score <= 1e-12 {
        f64::NEG_INFINITY
    } else if score >= 1.0 - 1e-12 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a side that is `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

impl std::fmt::Display for EloEstimate {
    /// `+191 (+118, +281)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({}, {})",
            format_elo(self.elo),
            format_elo(self.low),
            format_elo(self.high)
        )
    }
}

/// An Elo difference as text: signed, rounded, `+inf`/`-inf` at the ends.
pub fn format_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else if elo.round() == 0.0 {
        "0".to_string()
    } else {
        format!("{elo:+.0}")
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (low, high) = self.confidence95();
        write!(
            f,
            "+{} ={} -{} score {:.1}% (95% CI {:.1}%-{:.1}%)",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score(),
            100.0 * low,
            100.0 * high
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{MinimaxSearcher, TicTacToe};
    use crate::{Game, SearchReport};

    #[test]
    fn tally_interval_contains_the_score_and_narrows() {
        let mut small = Tally::default();
        let mut large = Tally::default();
        for i in 0..100 {
            let outcome = if i % 4 == 0 {
                Outcome::Win(Player::Second)
            } else {
                Outcome::Win(Player::First)
            };
            if i < 10 {
                small.record(Some(outcome), Player::First);
            }
            large.record(Some(outcome), Player::First);
        }
        assert_eq!(large.wins, 75);
        assert_eq!(large.losses, 25);
        let (low, high) = large.confidence95();
        assert!(low < 0.75 && 0.75 < high);
        // Wilson interval for 75/100: about 0.657..0.824.
        assert!((low - 0.657).abs() < 0.002, "{low}");
        assert!((high - 0.824).abs() < 0.002, "{high}");
        let (small_low, small_high) = small.confidence95();
        assert!(small_high - small_low > high - low);
        let perfect = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        let (low, high) = perfect.confidence95();
        assert!((high - 1.0).abs() < 1e-12);
        // Wilson lower bound for 10/10: about 0.722.
        assert!((low - 0.722).abs() < 0.002, "{low}");
    }

    #[test]
    fn huge_tallies_do_not_overflow() {
        // The fields are public (and deserializable): no sum may overflow.
        let mut tally = Tally {
            wins: u32::MAX,
            draws: u32::MAX,
            losses: 1,
        };
        assert_eq!(tally.games(), u32::MAX);
        let score = tally.score();
        assert!((score - 0.75).abs() < 1e-9, "{score}");
        let (low, high) = tally.confidence95();
        assert!(low <= score && score <= high);
        tally.record(Some(Outcome::Win(Player::First)), Player::First);
        assert_eq!(tally.wins, u32::MAX);
        assert!(!tally.to_string().is_empty());
    }

    /// Plays the first legal move, or something illegal if told to.
    struct Scripted {
        illegal: bool,
    }

    impl Searcher<TicTacToe> for Scripted {
        fn search(&mut self, state: &TicTacToe, _: &Limits) -> SearchReport<u8> {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let mv = if self.illegal { 42 } else { moves[0] };
            SearchReport::new(Some(mv), 0.0)
        }
    }

    #[test]
    fn a_searcher_playing_an_illegal_move_is_an_error() {
        let mut good = Scripted { illegal: false };
        let mut bad = Scripted { illegal: true };
        let error = play_match(&TicTacToe::new(), &mut good, &mut bad, &Limits::none())
            .expect_err("illegal move must be refused");
        assert!(matches!(
            error,
            MatchError::IllegalMove {
                player: Player::Second,
                ply: 1,
                ..
            }
        ));
        assert!(error.to_string().contains("ply 1"), "{error}");
    }

    #[test]
    fn a_judge_ends_the_game_with_its_verdict_and_keeps_the_moves() {
        let mut first = Scripted { illegal: false };
        let mut second = Scripted { illegal: false };
        let options = MatchOptions::new(Limits::none());
        let mut moves = Vec::new();
        // The judge rules once three stones are on the board.
        let judge = |state: &TicTacToe| {
            let mut legal = Vec::new();
            state.legal_moves(&mut legal);
            (legal.len() == 6).then_some("three stones")
        };
        let (end, verdict) = play_match_judged(
            &TicTacToe::new(),
            &mut first,
            &mut second,
            &options,
            &mut moves,
            judge,
        )
        .unwrap();
        assert_eq!(verdict, Some("three stones"));
        assert_eq!(moves, vec![0, 1, 2]);
        assert!(!end.is_over());
        // Without a verdict the game is played out as by play_match_into.
        let mut judged = Vec::new();
        let (_, none) = play_match_judged(
            &TicTacToe::new(),
            &mut first,
            &mut second,
            &options,
            &mut judged,
            |_| None::<()>,
        )
        .unwrap();
        let mut plain = Vec::new();
        play_match_into(
            &TicTacToe::new(),
            &mut first,
            &mut second,
            &options,
            &mut plain,
        )
        .unwrap();
        assert_eq!(none, None);
        assert_eq!(judged, plain);
        assert!(plain.len() > 3);
    }

    #[test]
    fn series_games_keep_their_moves_and_replay_to_their_results() {
        use crate::RandomSearcher;
        let options = SeriesOptions::new(4, 2, Limits::none()).with_seed(3);
        let series = play_series(
            &TicTacToe::new(),
            RandomSearcher::new,
            |_| MinimaxSearcher::new(),
            &options,
        )
        .unwrap();
        assert_eq!(series.games.len(), 8);
        for game in &series.games {
            assert_eq!(game.moves.len(), game.plies);
            // What a user replaying a series does: the public openings.
            let mut state = TicTacToe::new();
            for mv in random_opening_moves(&state.clone(), 2, 3, game.opening) {
                state.try_play(mv).unwrap();
            }
            for &mv in &game.moves {
                state.try_play(mv).unwrap();
            }
            assert!(state.is_over());
            assert_eq!(state.outcome(), game.outcome, "{game:?}");
        }
    }

    #[test]
    fn random_openings_are_seeded_legal_and_never_finished() {
        let start = TicTacToe::new();
        let openings: Vec<Vec<u8>> = (0..16)
            .map(|index| random_opening_moves(&start, 4, 11, index))
            .collect();
        for (index, moves) in (0..).zip(&openings) {
            assert_eq!(moves.len(), 4);
            assert_eq!(*moves, random_opening_moves(&start, 4, 11, index));
            let mut state = start.clone();
            for &mv in moves {
                state.try_play(mv).unwrap();
            }
            assert!(!state.is_over());
        }
        assert!(openings.windows(2).any(|pair| pair[0] != pair[1]));
        assert_ne!(openings[0], random_opening_moves(&start, 4, 12, 0));
        // Nine plies always end tic-tac-toe or fill the board: the opening
        // falls back to fewer plies rather than a finished game.
        let long = random_opening_moves(&start, 9, 11, 0);
        assert!(long.len() < 9 && !long.is_empty());
        assert!(random_opening_moves(&start, 0, 11, 0).is_empty());
    }

    #[test]
    fn series_alternate_colours_and_do_not_depend_on_threads() {
        use crate::RandomSearcher;
        let options = SeriesOptions::new(6, 2, Limits::none()).with_seed(9);
        let one = play_series(
            &TicTacToe::new(),
            |_| MinimaxSearcher::new(),
            RandomSearcher::new,
            &options,
        )
        .unwrap();
        let two = play_series(
            &TicTacToe::new(),
            |_| MinimaxSearcher::new(),
            RandomSearcher::new,
            &options.clone().with_threads(2),
        )
        .unwrap();
        assert_eq!(one, two);
        assert_eq!(one.tally.games(), 12);
        for pair in one.games.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].a_side, Player::First);
            assert_eq!(pair[1].a_side, Player::Second);
        }
        // From the empty board, perfect play never loses and beats a random
        // player often.
        let from_start = play_series(
            &TicTacToe::new(),
            |_| MinimaxSearcher::new(),
            RandomSearcher::new,
            &SeriesOptions::new(10, 0, Limits::none()),
        )
        .unwrap();
        assert_eq!(from_start.tally.losses, 0);
        assert!(from_start.tally.wins >= 10, "{}", from_start.tally);
    }

    #[test]
    fn boxed_searchers_play_a_match_with_a_ply_limit() {
        let mut a: Box<dyn Searcher<TicTacToe>> = Box::new(MinimaxSearcher::new());
        let mut b: Box<dyn Searcher<TicTacToe>> = Box::new(Scripted { illegal: false });
        let options = MatchOptions::new(Limits::none()).with_max_plies(3);
        let record = play_match_with(&TicTacToe::new(), &mut a, &mut b, &options).unwrap();
        assert_eq!(record.moves.len(), 3);
        assert_eq!(record.outcome, None);
        let full = play_match(&TicTacToe::new(), &mut a, &mut b, &Limits::none()).unwrap();
        // Perfect play never loses to the first-legal-move player.
        assert_eq!(full.outcome, Some(Outcome::Win(Player::First)));
    }
}
