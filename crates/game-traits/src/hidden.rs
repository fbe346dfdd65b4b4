//! Games with hidden information: searchers that decide from an
//! [`InformationSet`], the referee that holds the truth ([`Arbiter`]), and
//! matches and series between hidden-information players.
//!
//! * [`InfoSetSearcher`] is what [`Searcher`] is for perfect information: it
//!   picks a move for the player to move from what that player knows.
//!   Determinizing searchers (PIMC) and information-set tree searchers
//!   (ISMCTS) implement it, and so does [`RandomSearcher`].
//! * [`WorldEnumeration`] lets a searcher list every consistent world (with
//!   its probability) when there are few; [`NaiveWorld`] gives the world a
//!   player assumes who ignores what it cannot see.
//! * [`Arbiter`] holds the true world, applies moves, and hands each player
//!   its information set. [`play_hidden_match`] and [`play_hidden_series`]
//!   play [`HiddenPlayer`]s against each other through it, with the same
//!   seeded, colour-swapped, multithreaded series and [`Tally`](crate::Tally)
//!   as [`play_series`](crate::play_series).
//! * [`Informed`] makes any [`InfoSetSearcher`] a [`HiddenPlayer`];
//!   [`Omniscient`] makes any perfect-information [`Searcher`] one that sees
//!   the true world: the *cheating* baseline that measures what hidden
//!   information costs.
//!
//! The testing kit (feature `testing`) has a toy game,
//! `testing::ShellGame`, and a contract check for information-set
//! searchers, `testing::check_info_set_searcher`.

use std::fmt::Debug;

use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::{
    Game, IllegalMove, InformationSet, LimitKind, Limits, MatchError, MatchOptions, Outcome,
    Player, RandomSearcher, SearchReport, Searcher, SeriesOptions, SeriesResult,
};

/// The move type of an information set's worlds.
pub type WorldMove<I> = <<I as InformationSet>::World as Game>::Move;

/// What [`play_hidden_series`] returns: every game with its moves, or
/// the failure that stopped a game.
pub type HiddenSeries<I> = Result<SeriesResult<WorldMove<I>>, MatchError<WorldMove<I>>>;

/// An algorithm that picks a move from an [`InformationSet`]: the
/// hidden-information counterpart of [`Searcher`].
///
/// It sees only what the information set tells (its player's knowledge),
/// so two referees that differ only in what that player cannot see must
/// get the same answer from the same searcher state; the testing kit's
/// `check_info_set_searcher` checks this, the [`Limits`] contract, and that
/// the move is legal in every consistent world.
pub trait InfoSetSearcher<I: InformationSet> {
    /// Searches `info` within `limits` and reports the move for the player
    /// to move (normally [`InformationSet::player`]).
    ///
    /// The move must be one of `info.legal_moves` and legal in every
    /// consistent world. At a finished game (no legal move) the report has
    /// no move. [`SearchReport::value`] is the value of the move returned
    /// for the player to move, as this searcher estimates it, in `[-1, 1]`.
    fn search(&mut self, info: &I, limits: &Limits) -> SearchReport<WorldMove<I>>;

    /// Forgets everything kept from earlier searches, as before a new game.
    fn reset(&mut self) {}

    /// A short name for match records and tables.
    fn name(&self) -> String {
        "searcher".to_string()
    }

    /// Whether this searcher stops on the `kind` field of [`Limits`] (see
    /// [`Searcher::honours`]).
    fn honours(&self, kind: LimitKind) -> bool {
        let _ = kind;
        true
    }
}

impl<I: InformationSet, S: InfoSetSearcher<I> + ?Sized> InfoSetSearcher<I> for Box<S> {
    fn search(&mut self, info: &I, limits: &Limits) -> SearchReport<WorldMove<I>> {
        (**self).search(info, limits)
    }

    fn reset(&mut self) {
        (**self).reset();
    }

    fn name(&self) -> String {
        (**self).name()
    }

    fn honours(&self, kind: LimitKind) -> bool {
        (**self).honours(kind)
    }
}

impl<I: InformationSet, S: InfoSetSearcher<I> + ?Sized> InfoSetSearcher<I> for &mut S {
    fn search(&mut self, info: &I, limits: &Limits) -> SearchReport<WorldMove<I>> {
        (**self).search(info, limits)
    }

    fn reset(&mut self) {
        (**self).reset();
    }

    fn name(&self) -> String {
        (**self).name()
    }

    fn honours(&self, kind: LimitKind) -> bool {
        (**self).honours(kind)
    }
}

/// An information set that can list its consistent worlds, each with its
/// probability: a searcher uses every world instead of sampling when there
/// are few.
pub trait WorldEnumeration: InformationSet {
    /// The number of consistent worlds (an upper bound for weighted sets
    /// whose model rules some out).
    fn world_count(&self) -> u64;

    /// Every consistent world with its probability (the probabilities add
    /// up to 1; uniform sets give each `1 / world_count()`). Worlds of
    /// probability zero may be left out.
    fn worlds(&self) -> Vec<(Self::World, f64)>;
}

/// The world a player assumes who ignores what it cannot see: the
/// starting point of the *naive* baseline.
pub trait NaiveWorld: InformationSet {
    /// A world in which this player's moves are its true moves (it may be
    /// inconsistent with what was observed of the hidden part). Hidden
    /// Jungle gives every unrevealed piece its animal of the standard
    /// layout.
    fn naive_world(&self) -> Self::World;
}

/// The referee of a hidden-information game: it holds the true world,
/// applies the moves, and tells each player what it knows.
pub trait Arbiter: Clone + Send + Sync + Debug + 'static {
    /// What one player knows.
    type InfoSet: InformationSet;

    /// The true world (both players' hidden parts known).
    fn truth(&self) -> &<Self::InfoSet as InformationSet>::World;

    /// What `player` knows now.
    fn information_set(&self, player: Player) -> Self::InfoSet;

    /// Plays `mv` for the player to move in the true world and publishes
    /// what the rules make public.
    ///
    /// # Errors
    ///
    /// Returns [`IllegalMove`] (the game unchanged) when `mv` is not legal
    /// in the true world or the game is over.
    fn play_move(
        &mut self,
        mv: WorldMove<Self::InfoSet>,
    ) -> Result<(), IllegalMove<WorldMove<Self::InfoSet>>>;

    /// A referee with the same public history and the same private
    /// knowledge for `player`, whose hidden part (what `player` cannot see)
    /// is drawn again among the possibilities consistent with `player`'s
    /// observations. A searcher for `player` must not be able to tell the
    /// two apart: this is how the testing kit checks for information leaks.
    #[must_use]
    fn redeal<R: Rng + ?Sized>(&self, player: Player, rng: &mut R) -> Self;

    /// The player to move.
    fn to_move(&self) -> Player {
        self.truth().to_move()
    }

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome> {
        self.truth().outcome()
    }

    /// Clears `out`, then pushes the legal moves of the player to move (the
    /// same as that player's information set gives).
    fn legal_moves(&self, out: &mut Vec<WorldMove<Self::InfoSet>>) {
        self.truth().legal_moves(out);
    }
}

/// A player in a hidden-information match: picks a move for `player` with
/// the [`Arbiter`] at hand. Honest players look only at
/// `arbiter.information_set(player)` ([`Informed`]); the cheating baseline
/// looks at the true world ([`Omniscient`]).
pub trait HiddenPlayer<A: Arbiter> {
    /// The move for `player`, who is to move.
    fn choose(
        &mut self,
        arbiter: &A,
        player: Player,
        limits: &Limits,
    ) -> SearchReport<WorldMove<A::InfoSet>>;

    /// Forgets everything kept from earlier searches.
    fn reset(&mut self) {}

    /// A short name for match records and tables.
    fn name(&self) -> String;
}

impl<A: Arbiter, P: HiddenPlayer<A> + ?Sized> HiddenPlayer<A> for Box<P> {
    fn choose(
        &mut self,
        arbiter: &A,
        player: Player,
        limits: &Limits,
    ) -> SearchReport<WorldMove<A::InfoSet>> {
        (**self).choose(arbiter, player, limits)
    }

    fn reset(&mut self) {
        (**self).reset();
    }

    fn name(&self) -> String {
        (**self).name()
    }
}

/// Plays with an [`InfoSetSearcher`] from the player's own information set:
/// the honest way to take part in a hidden-information match.
#[derive(Clone, Debug, Default)]
pub struct Informed<S>(pub S);

impl<A: Arbiter, S: InfoSetSearcher<A::InfoSet>> HiddenPlayer<A> for Informed<S> {
    fn choose(
        &mut self,
        arbiter: &A,
        player: Player,
        limits: &Limits,
    ) -> SearchReport<WorldMove<A::InfoSet>> {
        self.0.search(&arbiter.information_set(player), limits)
    }

    fn reset(&mut self) {
        self.0.reset();
    }

    fn name(&self) -> String {
        self.0.name()
    }
}

/// Plays with a perfect-information [`Searcher`] on the *true* world: the
/// cheating baseline, an upper bound on what a searcher could do if
/// nothing were hidden. Its searcher is [`reset`](Searcher::reset) before
/// every move, since the world it sees changes in ways its tables do not
/// track.
#[derive(Clone, Debug, Default)]
pub struct Omniscient<S>(pub S);

impl<A, S> HiddenPlayer<A> for Omniscient<S>
where
    A: Arbiter,
    S: Searcher<<A::InfoSet as InformationSet>::World>,
{
    fn choose(
        &mut self,
        arbiter: &A,
        _player: Player,
        limits: &Limits,
    ) -> SearchReport<WorldMove<A::InfoSet>> {
        self.0.reset();
        self.0.search(arbiter.truth(), limits)
    }

    fn reset(&mut self) {
        self.0.reset();
    }

    fn name(&self) -> String {
        format!("cheating {}", self.0.name())
    }
}

impl<I: InformationSet> InfoSetSearcher<I> for RandomSearcher {
    /// Picks uniformly among `info.legal_moves` (seeded, the same draw as
    /// its [`Searcher`] implementation makes); ignores every limit. The
    /// value is `0.0`, or the outcome's reward (from a consistent world) at
    /// a finished game.
    fn search(&mut self, info: &I, limits: &Limits) -> SearchReport<WorldMove<I>> {
        let budget = limits.start();
        let mut moves = Vec::new();
        info.legal_moves(&mut moves);
        if moves.is_empty() {
            return finished_report(info, budget.elapsed());
        }
        Searcher::search(self, &Choices(moves), limits)
    }

    fn reset(&mut self) {
        Searcher::<Choices<WorldMove<I>>>::reset(self);
    }

    fn name(&self) -> String {
        "random".to_string()
    }

    fn honours(&self, _kind: LimitKind) -> bool {
        false
    }
}

/// A list of moves dressed as a game, so that a perfect-information
/// searcher that only looks at the legal moves (such as
/// [`RandomSearcher`]) can choose among them.
#[derive(Clone, Debug)]
struct Choices<M>(Vec<M>);

impl<M> Game for Choices<M>
where
    M: Copy + Eq + std::hash::Hash + Debug + Send + Sync + 'static,
{
    type Move = M;
    fn to_move(&self) -> Player {
        Player::First
    }
    fn legal_moves(&self, out: &mut Vec<M>) {
        out.clear();
        out.extend_from_slice(&self.0);
    }
    fn play(&mut self, _mv: M) {
        self.0.clear();
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.is_empty().then_some(Outcome::Draw)
    }
}

/// The report of an [`InfoSetSearcher`] at a finished game: no move, and
/// the outcome's reward for the player to move, read from one consistent
/// world (the result of a finished game is public), with
/// [`StopReason::GameOver`](crate::StopReason::GameOver).
pub fn finished_report<I: InformationSet>(
    info: &I,
    elapsed: std::time::Duration,
) -> SearchReport<WorldMove<I>> {
    // Any consistent world will do: a fixed seed keeps searches repeatable.
    let world = info.sample_world(&mut Pcg64Mcg::seed_from_u64(0));
    SearchReport::game_over(&world, elapsed)
}

/// A hidden-information game played between two [`HiddenPlayer`]s.
#[derive(Clone, Debug)]
pub struct HiddenMatchRecord<A: Arbiter> {
    /// The moves played, in order.
    pub moves: Vec<WorldMove<A::InfoSet>>,
    /// The result; `None` if the ply limit stopped the game first.
    pub outcome: Option<Outcome>,
    /// The referee at the end (the true final position and the public
    /// history).
    pub final_arbiter: A,
}

/// Plays `first` (as [`Player::First`]) against `second` from `start`, with
/// the limits and ply cap of `options`, until the game ends. Each player
/// chooses from what [`HiddenPlayer::choose`] lets it see (its information
/// set, for [`Informed`] players).
///
/// # Errors
///
/// Returns [`MatchError`] if a player returns no move or one the referee
/// refuses.
pub fn play_hidden_match<A, P, Q>(
    start: &A,
    first: &mut P,
    second: &mut Q,
    options: &MatchOptions,
) -> Result<HiddenMatchRecord<A>, MatchError<WorldMove<A::InfoSet>>>
where
    A: Arbiter,
    P: HiddenPlayer<A> + ?Sized,
    Q: HiddenPlayer<A> + ?Sized,
{
    let mut arbiter = start.clone();
    let mut moves = Vec::new();
    while arbiter.outcome().is_none() && options.max_plies.is_none_or(|max| moves.len() < max) {
        let player = arbiter.to_move();
        let ply = moves.len();
        let report = match player {
            Player::First => first.choose(&arbiter, player, &options.first_limits),
            Player::Second => second.choose(&arbiter, player, &options.second_limits),
        };
        let mv = report.best.ok_or(MatchError::NoMove {
            player,
            ply,
            reason: None,
        })?;
        arbiter
            .play_move(mv)
            .map_err(|source| MatchError::IllegalMove {
                player,
                ply,
                source,
            })?;
        moves.push(mv);
    }
    Ok(HiddenMatchRecord {
        moves,
        outcome: arbiter.outcome(),
        final_arbiter: arbiter,
    })
}

/// Plays player A against player B over a series of deals, each deal twice
/// with colours swapped, and tallies A's results: the hidden-information
/// counterpart of [`play_series`](crate::play_series), with the same
/// [`SeriesOptions`] and [`SeriesResult`].
///
/// `deal(seed)` makes the referee of one opening (drawing the hidden
/// setups from `seed`); both games of an opening start from the same deal,
/// then [`SeriesOptions::opening_plies`] random legal moves (seeded). A deal
/// whose opening ends the game is made again from the next seed.
/// `make_a(seed)` and `make_b(seed)` build fresh players for each game from
/// that game's seed ([`SeriesOptions::game_seed`]), so a series with
/// budgets other than time is reproducible whatever the number of threads.
///
/// # Errors
///
/// Returns the first [`MatchError`] in series order.
///
/// # Example
///
/// ```
/// use game_traits::hidden::{Informed, play_hidden_series};
/// use game_traits::testing::ShellTable;
/// use game_traits::{Limits, RandomSearcher, SeriesOptions};
///
/// let options = SeriesOptions::new(5, 0, Limits::none()).with_seed(3);
/// let series = play_hidden_series(
///     |seed| ShellTable::deal(4, 1, seed),
///     |seed| Informed(RandomSearcher::new(seed)),
///     |seed| Informed(RandomSearcher::new(seed)),
///     &options,
/// )?;
/// assert_eq!(series.tally.games(), 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_hidden_series<A, P, Q, Deal, MakeA, MakeB>(
    deal: Deal,
    make_a: MakeA,
    make_b: MakeB,
    options: &SeriesOptions,
) -> HiddenSeries<A::InfoSet>
where
    A: Arbiter,
    P: HiddenPlayer<A>,
    Q: HiddenPlayer<A>,
    Deal: Fn(u64) -> A + Sync,
    MakeA: Fn(u64) -> P + Sync,
    MakeB: Fn(u64) -> Q + Sync,
{
    let openings: Vec<A> = (0..options.openings)
        .map(|index| random_hidden_opening(&deal, options.opening_plies, options.seed, index))
        .collect();
    crate::play::run_series(options, |opening, a_side, seed| {
        let mut a = make_a(seed);
        let mut b = make_b(seed ^ 0xB);
        let start = &openings[opening as usize];
        let match_options = options.match_options_for(a_side);
        let record = if a_side == Player::First {
            play_hidden_match(start, &mut a, &mut b, &match_options)?
        } else {
            play_hidden_match(start, &mut b, &mut a, &match_options)?
        };
        Ok((record.outcome, record.moves))
    })
}

/// The deal of opening `index` with `plies` random legal moves played,
/// seeded by [`opening_seed`](crate::opening_seed); dealt again (up to 100 times, then with fewer
/// plies) if the moves end the game.
fn random_hidden_opening<A: Arbiter>(
    deal: &(impl Fn(u64) -> A + ?Sized),
    plies: usize,
    seed: u64,
    index: u32,
) -> A {
    let mut moves = Vec::new();
    for attempt in 0..100 {
        let opening_seed = crate::play::opening_seed(seed, index, attempt);
        let mut arbiter = deal(opening_seed);
        let mut rng = Pcg64Mcg::seed_from_u64(opening_seed);
        for _ in 0..plies {
            arbiter.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(..moves.len())];
            if arbiter.play_move(mv).is_err() {
                break;
            }
        }
        if arbiter.outcome().is_none() {
            return arbiter;
        }
    }
    random_hidden_opening(deal, plies / 2, seed, index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{ShellGame, ShellMove, ShellTable};

    #[test]
    fn informed_and_omniscient_players_see_what_they_should() {
        // One pea under cup 2 of 3. The omniscient minimax player always
        // finds it; a random informed player guesses.
        let table = ShellTable::new(ShellGame::new(3, 0b100, 0).unwrap());
        let mut cheat = Omniscient(crate::testing::MinimaxSearcher::new());
        let report = cheat.choose(&table, Player::First, &Limits::none());
        assert!(matches!(
            report.best,
            Some(ShellMove::Guess(2)) | Some(ShellMove::Delay)
        ));
        assert_eq!(report.value, 1.0);
        let mut random = Informed(RandomSearcher::new(1));
        let report = random.choose(&table, Player::First, &Limits::none());
        let mut legal = Vec::new();
        table.legal_moves(&mut legal);
        assert!(legal.contains(&report.best.unwrap()));
    }

    #[test]
    fn hidden_series_swap_colours_and_do_not_depend_on_threads() {
        let options = SeriesOptions::new(6, 1, Limits::none()).with_seed(4);
        let run = |threads| {
            play_hidden_series(
                |seed| ShellTable::deal(4, 2, seed),
                |_| Omniscient(crate::testing::MinimaxSearcher::new()),
                |seed| Informed(RandomSearcher::new(seed)),
                &options.clone().with_threads(threads),
            )
            .unwrap()
        };
        let one = run(1);
        let two = run(2);
        assert_eq!(one, two);
        assert_eq!(one.tally.games(), 12);
        for pair in one.games.chunks(2) {
            assert_eq!(pair[0].opening, pair[1].opening);
            assert_eq!(pair[0].a_side, Player::First);
            assert_eq!(pair[1].a_side, Player::Second);
        }
        // Seeing the peas, the cheat never loses as the guesser, and the
        // second player of the shell game never loses to a blind guess
        // more often than the odds allow; as a whole it must score well.
        assert!(one.tally.score() > 0.5, "{}", one.tally);
    }

    #[test]
    fn a_player_returning_an_illegal_move_is_an_error() {
        struct Illegal;
        impl HiddenPlayer<ShellTable> for Illegal {
            fn choose(&mut self, _: &ShellTable, _: Player, _: &Limits) -> SearchReport<ShellMove> {
                SearchReport::new(Some(ShellMove::Guess(7)), 0.0)
            }
            fn name(&self) -> String {
                "illegal".to_string()
            }
        }
        let table = ShellTable::new(ShellGame::new(3, 0b001, 0).unwrap());
        let error = play_hidden_match(
            &table,
            &mut Illegal,
            &mut Informed(RandomSearcher::new(0)),
            &MatchOptions::new(Limits::none()),
        )
        .unwrap_err();
        assert!(matches!(
            error,
            MatchError::IllegalMove {
                player: Player::First,
                ply: 0,
                ..
            }
        ));
    }
}
