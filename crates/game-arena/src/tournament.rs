//! Tournaments between searchers: round robins, gauntlets and budget
//! sweeps, played on several threads, recorded as JSON lines that a later
//! run resumes and that shards merge into.
//!
//! # The schedule
//!
//! A [`Header`] fixes everything that decides the games: the game, the
//! searcher specs, how they are paired ([`Pairing`]), games per pairing,
//! the openings and the seed. Game `g` of pairing `p` has the id
//! `g * pairings + p` (so every pairing advances together); it starts from
//! opening `g / 2` (the header's book line `g / 2` modulo the book's
//! length, or random legal plies from the start position, seeded; the
//! same openings for every pairing) and the pairing's first searcher
//! moves first when `g` is even: each opening is played twice with
//! colours swapped. Each searcher is built afresh for each game with a
//! seed derived from the tournament seed and the game id. With iteration
//! or depth budgets a game is therefore a pure function of the header and
//! its id: whatever the thread count, whichever machine plays it, and
//! however often the run was interrupted.
//!
//! # The results file
//!
//! JSON lines: the header first (`"type":"tournament"`), then one
//! [`GameRecord`] per game (`"type":"game"`) in the order they finished.
//! [`open_results`] resumes a file: it checks the header, keeps the games
//! already played and drops a last line cut short by an interruption.
//! `--shard i/n` plays the games whose id is `i - 1` modulo `n`;
//! [`merge`] joins the shards' files into the file of the whole
//! tournament.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;

use game_traits::zobrist::mix64;
use game_traits::{MatchOptions, Outcome, Player, Tally, parallel_map, play_match_judged};
use serde::{Deserialize, Serialize};

use crate::chart::{Point, Series, score_chart};
use crate::registry::{
    GameFile, GameInfo, GameSetup, InputError, Opening, RegistryError, RegistryGame, SearcherSpec,
    ignored_budget, parse_legal_move,
};
use crate::stats::{
    GameScore, Pentanomial, Sprt, SprtDecision, elo_estimate, likelihood_of_superiority,
};

/// The version of the results format written in every header.
pub const FORMAT_VERSION: u32 = 1;

/// Why a tournament could not be set up, played, resumed or merged.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TournamentError {
    /// A searcher spec or game name was refused.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// Settings that do not make a tournament.
    #[error("{0}")]
    Settings(String),
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// The results file exists and `--resume` was not given.
    #[error(
        "{0} exists: pass --resume to continue the tournament it holds, or choose another file"
    )]
    Exists(PathBuf),
    /// A results file's header is not this tournament's.
    #[error("{path} holds another tournament: {detail}")]
    HeaderMismatch {
        /// The file.
        path: PathBuf,
        /// Which field differs.
        detail: String,
    },
    /// A line of a results file that cannot be read.
    #[error("{path}, line {line}: {message}")]
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A searcher failed during a game (no move, or an illegal one).
    #[error("game {id} ({first} against {second}): {message}")]
    Match {
        /// The game id.
        id: u64,
        /// The searcher moving first.
        first: String,
        /// The searcher moving second.
        second: String,
        /// What went wrong.
        message: String,
    },
}

fn io_error(path: &Path, error: impl fmt::Display) -> TournamentError {
    TournamentError::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}

/// How the searchers are paired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Pairing {
    /// Every searcher against every other.
    RoundRobin,
    /// The first searcher against each of the others.
    Gauntlet,
    /// The first `variants` searchers (one searcher at several values of
    /// `key`) each against every one of the others.
    Sweep {
        /// The swept setting.
        key: String,
        /// Its values, one per variant.
        values: Vec<String>,
        /// The number of variants (the first searchers of the list).
        variants: usize,
    },
}

/// Which part of a tournament a run plays: the games whose id is
/// `index - 1` modulo `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// From 1 to `count`.
    pub index: u32,
    /// The number of shards.
    pub count: u32,
}

impl Shard {
    /// Whether game `id` belongs to this shard.
    pub fn contains(self, id: u64) -> bool {
        id % u64::from(self.count) == u64::from(self.index - 1)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Reads `i/n` with `1 <= i <= n`.
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard {text:?}: expected i/n with 1 <= i <= n, like 2/8");
        let (index, count) = text.split_once('/').ok_or_else(bad)?;
        let index: u32 = index.trim().parse().map_err(|_| bad())?;
        let count: u32 = count.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Everything that decides a tournament's games: the first line of its
/// results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// [`FORMAT_VERSION`].
    pub version: u32,
    /// The game's registry name.
    pub game: String,
    /// The searcher specs, as written.
    pub searchers: Vec<String>,
    /// How they are paired.
    pub pairing: Pairing,
    /// Games per pairing (even: each opening with both colours).
    pub games_per_pair: u32,
    /// Random plies of each opening (0: the start position); not used
    /// with a [`book`](Header::book).
    pub opening_plies: u32,
    /// Opening lines, as [`RegistryGame::parse_opening`] reads them: the
    /// `k`-th opening of every pairing is line `k` modulo their number.
    /// Empty: random openings of [`opening_plies`](Header::opening_plies).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub book: Vec<String>,
    /// How games may be ended before their natural end.
    #[serde(default, skip_serializing_if = "Adjudication::is_off")]
    pub adjudication: Adjudication,
    /// The seed of openings and searchers.
    pub seed: u64,
    /// The SPRT, for a two-searcher match that stops when it is decided.
    pub sprt: Option<Sprt>,
    /// The part of the tournament this file holds (`None`: all of it).
    pub shard: Option<Shard>,
}

/// Adjudication: ending games early with a result known for sure, or at
/// a move cap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// Score a game by the game's own verdict as soon as it has one
    /// ([`RegistryGame::adjudicate`]: Othello's exact solver near the end,
    /// a VCF found in Gomoku).
    #[serde(default)]
    pub by_game: bool,
    /// Stop every game after this many plies from its opening, scored as
    /// a draw ([`GameResult::Unfinished`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_plies: Option<u32>,
}

impl Adjudication {
    /// Neither verdicts nor a move cap: every game is played out.
    pub fn is_off(&self) -> bool {
        *self == Adjudication::default()
    }
}

impl Header {
    /// Checks the settings and the searcher specs.
    ///
    /// # Errors
    ///
    /// [`TournamentError::Settings`] or [`TournamentError::Registry`]
    /// saying what is wrong.
    pub fn validate(&self) -> Result<Vec<SearcherSpec>, TournamentError> {
        self.validate_specs(|text| text.parse())
    }

    /// Checks the settings and the searcher specs, which may name the
    /// searchers `setup` registered for the game.
    ///
    /// # Errors
    ///
    /// As [`validate`](Header::validate).
    pub fn validate_with<G: RegistryGame>(
        &self,
        setup: &GameSetup<G>,
    ) -> Result<Vec<SearcherSpec>, TournamentError> {
        for (index, line) in self.book.iter().enumerate() {
            G::parse_opening(line).map_err(|error| {
                TournamentError::Settings(format!("opening {} of the book: {error}", index + 1))
            })?;
        }
        self.validate_specs(|text| setup.spec(text))
    }

    fn validate_specs(
        &self,
        parse: impl Fn(&str) -> Result<SearcherSpec, RegistryError>,
    ) -> Result<Vec<SearcherSpec>, TournamentError> {
        let specs = self
            .searchers
            .iter()
            .map(|text| parse(text))
            .collect::<Result<Vec<_>, _>>()?;
        let settings = |message: String| Err(TournamentError::Settings(message));
        if specs.len() < 2 {
            return settings(format!(
                "a tournament needs at least two searchers, got {}",
                specs.len()
            ));
        }
        let mut seen = BTreeSet::new();
        for spec in &specs {
            if !seen.insert(spec.to_string()) {
                return settings(format!("searcher {spec} is listed twice"));
            }
        }
        if self.games_per_pair == 0 || !self.games_per_pair.is_multiple_of(2) {
            return settings(format!(
                "games per pairing must be even and at least 2 (each opening with both colours), got {}",
                self.games_per_pair
            ));
        }
        if let Pairing::Sweep {
            variants, values, ..
        } = &self.pairing
            && (*variants == 0 || *variants >= specs.len() || values.len() != *variants)
        {
            return settings(
                "a sweep needs one variant per value and at least one opponent".into(),
            );
        }
        if self.sprt.is_some() && specs.len() != 2 {
            return settings(format!(
                "SPRT compares exactly two searchers, got {}",
                specs.len()
            ));
        }
        if self.sprt.is_some() && self.shard.is_some() {
            return settings("an SPRT decides as the games come in; it cannot be sharded".into());
        }
        if let Some(shard) = self.shard
            && (shard.index == 0 || shard.index > shard.count)
        {
            return settings(format!("bad shard {shard}"));
        }
        Ok(specs)
    }

    /// The pairings, as indices into the searcher list (the first one is
    /// the side whose score the tables show).
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let count = self.searchers.len();
        match &self.pairing {
            Pairing::RoundRobin => (0..count)
                .flat_map(|a| (a + 1..count).map(move |b| (a, b)))
                .collect(),
            Pairing::Gauntlet => (1..count).map(|b| (0, b)).collect(),
            Pairing::Sweep { variants, .. } => (0..*variants)
                .flat_map(|a| (*variants..count).map(move |b| (a, b)))
                .collect(),
        }
    }

    /// The number of games of the whole tournament.
    pub fn total_games(&self) -> u64 {
        self.pairs().len() as u64 * u64::from(self.games_per_pair)
    }

    /// The game with id `id`: its pairing, opening and who moves first.
    pub fn job(&self, id: u64) -> Job {
        let pairs = self.pairs();
        let pair = (id % pairs.len() as u64) as usize;
        let game = id / pairs.len() as u64;
        let (a, b) = pairs[pair];
        let (first, second) = if game.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        Job {
            id,
            pair,
            first,
            second,
            opening: (game / 2) as u32,
        }
    }

    /// The ids of the games this header's shard plays, in order.
    pub fn ids(&self) -> impl Iterator<Item = u64> + '_ {
        (0..self.total_games()).filter(|&id| self.shard.is_none_or(|shard| shard.contains(id)))
    }

    /// The seed of game `id`'s searchers (the first's; the second's is
    /// derived from it).
    pub fn game_seed(&self, id: u64) -> u64 {
        mix64(self.seed ^ mix64(id.wrapping_add(0x7047_6d65)))
    }

    /// The header with the shard removed (what shards share).
    pub fn unsharded(&self) -> Header {
        Header {
            shard: None,
            ..self.clone()
        }
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// The game id.
    pub id: u64,
    /// The pairing's index in [`Header::pairs`].
    pub pair: usize,
    /// The searcher moving first.
    pub first: usize,
    /// The searcher moving second.
    pub second: usize,
    /// The opening's index.
    pub opening: u32,
}

/// The result of a game, for the player moving first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// The first player won.
    #[serde(rename = "1-0")]
    FirstWins,
    /// The second player won.
    #[serde(rename = "0-1")]
    SecondWins,
    /// A draw.
    #[serde(rename = "1/2-1/2")]
    Draw,
    /// Stopped unfinished at the game's ply cap (scored as a draw).
    #[serde(rename = "*")]
    Unfinished,
}

impl GameResult {
    fn from_outcome(outcome: Option<Outcome>) -> GameResult {
        match outcome {
            Some(Outcome::Win(Player::First)) => GameResult::FirstWins,
            Some(Outcome::Win(Player::Second)) => GameResult::SecondWins,
            Some(Outcome::Draw) => GameResult::Draw,
            None => GameResult::Unfinished,
        }
    }

    fn outcome(self) -> Option<Outcome> {
        match self {
            GameResult::FirstWins => Some(Outcome::Win(Player::First)),
            GameResult::SecondWins => Some(Outcome::Win(Player::Second)),
            GameResult::Draw => Some(Outcome::Draw),
            GameResult::Unfinished => None,
        }
    }
}

/// One game played: a line of the results file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game id.
    pub id: u64,
    /// The pairing's index in [`Header::pairs`].
    pub pair: usize,
    /// The searcher moving first (index into [`Header::searchers`]).
    pub first: usize,
    /// The searcher moving second.
    pub second: usize,
    /// The opening's index.
    pub opening: u32,
    /// The position the game started from, where it is not the game's
    /// start (an opening file's position line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The result.
    pub result: GameResult,
    /// Plies played after the opening.
    pub plies: usize,
    /// Every move from [`start`](GameRecord::start) or else the game's
    /// start position (opening included), in the game's notation,
    /// space-separated; in a forfeited game, the moves before the failure.
    pub moves: String,
    /// Why the game ended early: a searcher that failed (an engine that
    /// crashed, hung or played an illegal or malformed move) and lost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<String>,
    /// Why the game was adjudicated (the game's verdict, or the move cap
    /// of [`Adjudication::max_plies`]), if it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudicated: Option<String>,
}

impl GameRecord {
    /// Adds this game to `tally` from the point of view of searcher
    /// `side` (which must have played it).
    fn record_for(&self, side: usize, tally: &mut Tally) {
        let player = if side == self.first {
            Player::First
        } else {
            Player::Second
        };
        tally.record(self.result.outcome(), player);
    }

    /// What this game gave searcher `side` (which must have played it).
    fn score_for(&self, side: usize) -> GameScore {
        let player = if side == self.first {
            Player::First
        } else {
            Player::Second
        };
        GameScore::of(self.result.outcome(), player)
    }
}

/// The pentanomial counts of pairing `pairing` of `header` from `records`,
/// for the pairing's first searcher: the games of one opening (one with
/// each colour) make a pair; a pair counts once both of its games are in
/// `records`, and a game whose partner is missing is left out (it still
/// counts in the [`Tally`] of the pairing).
pub fn pentanomial<'a>(
    header: &Header,
    records: impl IntoIterator<Item = &'a GameRecord>,
    pairing: usize,
) -> Pentanomial {
    let Some(&(side, _)) = header.pairs().get(pairing) else {
        return Pentanomial::default();
    };
    let mut by_opening: BTreeMap<u32, Vec<GameScore>> = BTreeMap::new();
    for record in records {
        if record.pair == pairing {
            by_opening
                .entry(record.opening)
                .or_default()
                .push(record.score_for(side));
        }
    }
    let mut counts = Pentanomial::default();
    for scores in by_opening.values() {
        if let [first, second] = scores[..] {
            counts.add_pair(first, second);
        }
    }
    counts
}

/// A line of a results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
enum Line {
    Tournament(Header),
    Game(GameRecord),
}

/// Opening `index` of the schedule: line `index` (modulo their number) of
/// the header's book, or else `opening_plies` random legal moves from the
/// start as [`game_traits::random_opening_moves`] draws them with the
/// tournament's seed: the openings `play_series` plays with that seed.
///
/// # Errors
///
/// [`TournamentError::Settings`] if the book line is not an opening of
/// `G` ([`Header::validate_with`] finds these first).
pub fn opening<G: RegistryGame>(
    header: &Header,
    index: u32,
) -> Result<Opening<G>, TournamentError> {
    if !header.book.is_empty() {
        let number = index as usize % header.book.len();
        return G::parse_opening(&header.book[number]).map_err(|error| {
            TournamentError::Settings(format!("opening {} of the book: {error}", number + 1))
        });
    }
    Ok(Opening {
        from: None,
        moves: game_traits::random_opening_moves(
            &G::start(),
            header.opening_plies as usize,
            header.seed,
            index,
        ),
    })
}

/// Plays one game of the schedule. A searcher that returns no move or an
/// illegal one loses the game, with the reason in
/// [`GameRecord::forfeit`].
///
/// # Errors
///
/// [`TournamentError::Registry`] if a searcher cannot be built.
pub fn play_game<G: RegistryGame>(
    setup: &GameSetup<G>,
    header: &Header,
    specs: &[SearcherSpec],
    id: u64,
) -> Result<GameRecord, TournamentError> {
    let job = header.job(id);
    let opening = opening::<G>(header, job.opening)?;
    let start = opening.position();
    let opening_moves = opening.moves;
    let seed = header.game_seed(id);
    let mut first = setup.build(&specs[job.first], seed)?;
    let mut second = setup.build(&specs[job.second], mix64(seed ^ 0xB))?;
    let cap = header.adjudication.max_plies.map(|cap| cap as usize);
    let max_plies = cap.map_or(G::max_plies(), |cap| cap.min(G::max_plies()));
    let mut options = MatchOptions::new(specs[job.first].limits()).with_max_plies(max_plies);
    options.second_limits = specs[job.second].limits();
    let judge = |state: &G| {
        if header.adjudication.by_game {
            state.adjudicate()
        } else {
            None
        }
    };
    let mut played = Vec::new();
    let (result, plies, forfeit, adjudicated) = match play_match_judged(
        &start,
        &mut first,
        &mut second,
        &options,
        &mut played,
        judge,
    ) {
        Ok((_, Some(verdict))) => (
            GameResult::from_outcome(Some(verdict.outcome)),
            played.len(),
            None,
            Some(verdict.reason),
        ),
        Ok((end, None)) => {
            let capped = !end.is_over() && cap == Some(played.len());
            (
                GameResult::from_outcome(end.outcome()),
                played.len(),
                None,
                capped.then(|| format!("move cap of {} plies", played.len())),
            )
        }
        Err(error) => {
            let (loser, ply) = (error.player(), error.ply());
            let result = match loser {
                Player::First => GameResult::SecondWins,
                Player::Second => GameResult::FirstWins,
            };
            let side = if loser == Player::First {
                job.first
            } else {
                job.second
            };
            (
                result,
                ply,
                Some(format!("{} forfeits: {error}", specs[side])),
                None,
            )
        }
    };
    let moves: Vec<String> = opening_moves
        .iter()
        .chain(&played)
        .map(|&mv| G::move_text(mv))
        .collect();
    Ok(GameRecord {
        id,
        pair: job.pair,
        first: job.first,
        second: job.second,
        opening: job.opening,
        start: opening.from.as_ref().map(G::position_text),
        result,
        plies,
        moves: moves.join(" "),
        forfeit,
        adjudicated,
    })
}

/// The game of `record` in its game's usual file format
/// ([`RegistryGame::game_file`]), the players named as the tables name
/// them; `None` if the game has no such format.
///
/// # Errors
///
/// [`InputError`] if the record's start or moves are not a game of `G`
/// (a results file edited by hand, or of another game).
pub fn game_file<G: RegistryGame>(
    header: &Header,
    record: &GameRecord,
) -> Result<Option<GameFile>, InputError> {
    let start = match &record.start {
        Some(text) => G::parse_position(text)?,
        None => G::start(),
    };
    let mut state = start.clone();
    let mut moves = Vec::new();
    for word in record.moves.split_whitespace() {
        let mv = parse_legal_move(&state, word)?;
        state.play(mv);
        moves.push(mv);
    }
    let name = |index: usize| {
        header
            .searchers
            .get(index)
            .map_or("?", |spec| shown_name(spec))
    };
    let info = GameInfo {
        first: name(record.first),
        second: name(record.second),
        outcome: record.result.outcome(),
    };
    Ok(G::game_file(&start, &moves, &info))
}

/// Warnings for budget fields that a searcher ignores, one line each.
///
/// # Errors
///
/// [`RegistryError`] if a searcher cannot be built.
pub fn budget_warnings<G: RegistryGame>(
    setup: &GameSetup<G>,
    specs: &[SearcherSpec],
) -> Result<Vec<String>, RegistryError> {
    let mut warnings = Vec::new();
    for spec in specs {
        let searcher = setup.build(spec, 0)?;
        for kind in ignored_budget(spec, searcher.as_ref()) {
            warnings.push(format!(
                "warning: {spec} ignores its {kind} limit (searcher {} does not use it)",
                spec.name()
            ));
        }
    }
    Ok(warnings)
}

/// Plays the games of `header`'s shard that `done` does not hold yet, on
/// `threads` threads, calling `on_game` as each one ends (from the thread
/// that played it). With an SPRT, stops handing out games once the games
/// of the schedule's first unbroken run decide it.
///
/// Returns the new games in id order.
///
/// # Errors
///
/// The first error of a game; games already finished were reported to
/// `on_game`.
pub fn play<G: RegistryGame>(
    setup: &GameSetup<G>,
    header: &Header,
    done: &[GameRecord],
    threads: usize,
    on_game: &(dyn Fn(&GameRecord) + Sync),
) -> Result<Vec<GameRecord>, TournamentError> {
    let specs = header.validate_with(setup)?;
    let have: BTreeSet<u64> = done.iter().map(|record| record.id).collect();
    let todo: Vec<u64> = header.ids().filter(|id| !have.contains(id)).collect();
    let mut played = Played {
        all: done
            .iter()
            .map(|record| (record.id, record.clone()))
            .collect(),
        sprt: header.sprt.map(SprtTracker::new),
    };
    if played.advance_sprt() {
        return Ok(Vec::new());
    }
    let played = Mutex::new(played);
    let results = parallel_map(todo.len(), threads, |index| {
        let id = todo[index];
        match play_game(setup, header, &specs, id) {
            Ok(record) => {
                on_game(&record);
                let mut played = played.lock().unwrap_or_else(|e| e.into_inner());
                played.all.insert(id, record.clone());
                if played.advance_sprt() {
                    ControlFlow::Break(Ok(record))
                } else {
                    ControlFlow::Continue(Ok(record))
                }
            }
            Err(error) => ControlFlow::Break(Err(error)),
        }
    });
    // Results come in id order, as `todo` is.
    results.into_iter().flatten().collect()
}

/// The games played so far and the SPRT following them.
struct Played {
    all: BTreeMap<u64, GameRecord>,
    sprt: Option<SprtTracker>,
}

impl Played {
    /// Feeds the SPRT the games that now continue its unbroken run of ids;
    /// whether it is decided.
    fn advance_sprt(&mut self) -> bool {
        let Some(tracker) = &mut self.sprt else {
            return false;
        };
        while tracker.decision.is_none() {
            match self.all.get(&tracker.next_id) {
                Some(record) => tracker.push(record),
                None => break,
            }
        }
        tracker.decision.is_some()
    }
}

/// An SPRT over the games of a two-searcher match, fed in id order (the
/// schedule's first unbroken run), from the first searcher's side. Games
/// `2k` and `2k + 1` are opening `k` with both colours: with a pentanomial
/// model the test is decided only when such a pair is complete.
#[derive(Clone, Debug)]
struct SprtTracker {
    sprt: Sprt,
    /// The id of the next game it expects.
    next_id: u64,
    tally: Tally,
    pentanomial: Pentanomial,
    /// The first game of a pair whose second game is still to come.
    open_pair: Option<(u32, GameScore)>,
    /// The decision and the games that made it.
    decision: Option<(SprtDecision, usize)>,
}

impl SprtTracker {
    fn new(sprt: Sprt) -> SprtTracker {
        SprtTracker {
            sprt,
            next_id: 0,
            tally: Tally::default(),
            pentanomial: Pentanomial::default(),
            open_pair: None,
            decision: None,
        }
    }

    /// Counts `record`, the game with id `next_id`, and decides if it can.
    fn push(&mut self, record: &GameRecord) {
        debug_assert_eq!(record.id, self.next_id);
        self.next_id += 1;
        record.record_for(0, &mut self.tally);
        let score = record.score_for(0);
        let at_pair_boundary = match self.open_pair.take() {
            Some((opening, first)) if opening == record.opening => {
                self.pentanomial.add_pair(first, score);
                true
            }
            _ => {
                self.open_pair = Some((record.opening, score));
                false
            }
        };
        if (at_pair_boundary || !self.sprt.model.uses_pairs())
            && let Some(decision) = self.sprt.decide(&self.tally, &self.pentanomial)
        {
            self.decision = Some((decision, self.tally.games() as usize));
        }
    }
}

/// An SPRT's decision and the number of games (of the schedule's first
/// unbroken run) that made it: with a pentanomial model, always a whole
/// number of pairs.
/// How tables and charts name a searcher: its `name=` setting where it has
/// one (an engine's command line makes a poor column), else the whole spec.
fn shown_name(spec: &str) -> &str {
    spec.split_once(':')
        .and_then(|(_, settings)| {
            settings
                .split(',')
                .find_map(|setting| setting.strip_prefix("name="))
        })
        .filter(|name| !name.is_empty())
        .unwrap_or(spec)
}

fn sprt_outcome(header: &Header, records: &[GameRecord]) -> Option<(SprtDecision, usize)> {
    let mut played = Played {
        all: records
            .iter()
            .map(|record| (record.id, record.clone()))
            .collect(),
        sprt: Some(SprtTracker::new(header.sprt?)),
    };
    played.advance_sprt();
    played.sprt.and_then(|tracker| tracker.decision)
}

/// Where a tournament's results go: appends one JSON line per game.
#[derive(Debug)]
pub struct ResultsWriter {
    file: Mutex<File>,
    path: PathBuf,
}

impl ResultsWriter {
    /// Appends `record` as a line and flushes it.
    ///
    /// # Errors
    ///
    /// [`TournamentError::Io`] if the write fails.
    pub fn append(&self, record: &GameRecord) -> Result<(), TournamentError> {
        let line = serde_json::to_string(&Line::Game(record.clone()))
            .map_err(|error| io_error(&self.path, error))?;
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(file, "{line}")
            .and_then(|()| file.flush())
            .map_err(|error| io_error(&self.path, error))
    }
}

/// The header and games of a results file's text, and the length of the
/// part that was read: a last line cut short (no newline, not JSON) is
/// left out, as an interrupted run leaves it.
///
/// # Errors
///
/// [`TournamentError::BadLine`] for any other line that is not a header
/// (first line) or a game (every other line).
pub fn read_results(
    path: &Path,
    text: &str,
) -> Result<(Header, Vec<GameRecord>, usize), TournamentError> {
    let bad = |line: usize, message: String| TournamentError::BadLine {
        path: path.to_path_buf(),
        line,
        message,
    };
    let mut header = None;
    let mut records = Vec::new();
    let mut valid = 0;
    let mut offset = 0;
    for (index, chunk) in text.split_inclusive('\n').enumerate() {
        let line_number = index + 1;
        let complete = chunk.ends_with('\n');
        offset += chunk.len();
        let line = chunk.trim();
        if line.is_empty() {
            if complete {
                valid = offset;
            }
            continue;
        }
        match serde_json::from_str::<Line>(line) {
            Ok(Line::Tournament(read)) if header.is_none() => header = Some(read),
            Ok(Line::Tournament(_)) => {
                return Err(bad(line_number, "a second tournament header".to_string()));
            }
            Ok(Line::Game(_)) if header.is_none() => {
                return Err(bad(
                    line_number,
                    "a game before the tournament header".into(),
                ));
            }
            Ok(Line::Game(record)) => records.push(record),
            Err(_) if !complete => break,
            Err(error) => return Err(bad(line_number, error.to_string())),
        }
        // A whole line, even one that lacks only its newline.
        valid = offset;
    }
    let header = header.ok_or_else(|| bad(1, "no tournament header".to_string()))?;
    Ok((header, records, valid))
}

/// Checks that every record fits the schedule of `header` and that no
/// game appears twice with different contents; returns the games by id.
fn check_records(
    path: &Path,
    header: &Header,
    records: Vec<GameRecord>,
) -> Result<BTreeMap<u64, GameRecord>, TournamentError> {
    let total = header.total_games();
    let mut by_id = BTreeMap::new();
    for record in records {
        let bad = |message: String| TournamentError::BadLine {
            path: path.to_path_buf(),
            line: 0,
            message,
        };
        if record.id >= total {
            return Err(bad(format!(
                "game {} is outside the schedule ({total} games)",
                record.id
            )));
        }
        let job = header.job(record.id);
        if (job.pair, job.first, job.second, job.opening)
            != (record.pair, record.first, record.second, record.opening)
        {
            return Err(bad(format!(
                "game {} does not match the schedule (pairing, colours or opening)",
                record.id
            )));
        }
        if let Some(existing) = by_id.get(&record.id)
            && *existing != record
        {
            return Err(bad(format!(
                "game {} appears twice, differently",
                record.id
            )));
        }
        by_id.insert(record.id, record);
    }
    Ok(by_id)
}

/// Opens the results file at `path` for `header`: creates it with the
/// header, or with `resume`, reads the games it already holds (dropping a
/// last line cut short) and appends after them.
///
/// # Errors
///
/// [`TournamentError::Exists`] if the file exists without `resume`;
/// [`TournamentError::HeaderMismatch`] if it holds another tournament;
/// [`TournamentError::BadLine`] or [`TournamentError::Io`] otherwise. The
/// file is left untouched on every error.
pub fn open_results(
    path: &Path,
    header: &Header,
    resume: bool,
) -> Result<(ResultsWriter, Vec<GameRecord>), TournamentError> {
    let exists = path.exists();
    if exists && !resume {
        return Err(TournamentError::Exists(path.to_path_buf()));
    }
    if !exists {
        let mut file = File::create(path).map_err(|error| io_error(path, error))?;
        let line = serde_json::to_string(&Line::Tournament(header.clone()))
            .map_err(|error| io_error(path, error))?;
        writeln!(file, "{line}")
            .and_then(|()| file.flush())
            .map_err(|error| io_error(path, error))?;
        return Ok((
            ResultsWriter {
                file: Mutex::new(file),
                path: path.to_path_buf(),
            },
            Vec::new(),
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|error| io_error(path, error))?;
    let (found, records, valid) = read_results(path, &text)?;
    if found != *header {
        return Err(TournamentError::HeaderMismatch {
            path: path.to_path_buf(),
            detail: header_difference(&found, header),
        });
    }
    let records: Vec<GameRecord> = check_records(path, header, records)?
        .into_values()
        .collect();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(|error| io_error(path, error))?;
    file.set_len(valid as u64)
        .and_then(|()| file.seek(SeekFrom::End(0)).map(|_| ()))
        .map_err(|error| io_error(path, error))?;
    if !text[..valid].is_empty() && !text[..valid].ends_with('\n') {
        writeln!(file).map_err(|error| io_error(path, error))?;
    }
    Ok((
        ResultsWriter {
            file: Mutex::new(file),
            path: path.to_path_buf(),
        },
        records,
    ))
}

/// Names the first field in which two headers differ.
fn header_difference(found: &Header, wanted: &Header) -> String {
    let fields: [(&str, String, String); 8] = [
        ("game", found.game.clone(), wanted.game.clone()),
        (
            "searchers",
            found.searchers.join(" "),
            wanted.searchers.join(" "),
        ),
        (
            "pairing",
            format!("{:?}", found.pairing),
            format!("{:?}", wanted.pairing),
        ),
        (
            "games per pairing",
            found.games_per_pair.to_string(),
            wanted.games_per_pair.to_string(),
        ),
        (
            "opening plies",
            found.opening_plies.to_string(),
            wanted.opening_plies.to_string(),
        ),
        ("seed", found.seed.to_string(), wanted.seed.to_string()),
        (
            "sprt",
            format!("{:?}", found.sprt),
            format!("{:?}", wanted.sprt),
        ),
        (
            "shard",
            format!("{:?}", found.shard),
            format!("{:?}", wanted.shard),
        ),
    ];
    fields.iter().find(|(_, a, b)| a != b).map_or_else(
        || {
            format!(
                "format version {} (this program writes {})",
                found.version, wanted.version
            )
        },
        |(name, a, b)| format!("{name} is {a} in the file, {b} here"),
    )
}

/// Joins the results files of a tournament's shards (or of runs of the
/// same tournament): the headers must agree but for the shard; games
/// present in several files must be the same. Returns the unsharded header
/// and every game by id.
///
/// # Errors
///
/// [`TournamentError::HeaderMismatch`] for a file of another tournament,
/// [`TournamentError::BadLine`] for an unreadable or conflicting game,
/// [`TournamentError::Io`] for a file that cannot be read.
pub fn merge(paths: &[PathBuf]) -> Result<(Header, Vec<GameRecord>), TournamentError> {
    let mut merged: Option<Header> = None;
    let mut games: BTreeMap<u64, GameRecord> = BTreeMap::new();
    if paths.is_empty() {
        return Err(TournamentError::Settings(
            "merge needs at least one file".into(),
        ));
    }
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|error| io_error(path, error))?;
        let (header, records, _) = read_results(path, &text)?;
        let header = header.unsharded();
        match &merged {
            None => merged = Some(header.clone()),
            Some(first) if *first != header => {
                return Err(TournamentError::HeaderMismatch {
                    path: path.clone(),
                    detail: header_difference(&header, first),
                });
            }
            Some(_) => {}
        }
        for (id, record) in check_records(path, &header, records)? {
            if let Some(existing) = games.get(&id)
                && *existing != record
            {
                return Err(TournamentError::BadLine {
                    path: path.clone(),
                    line: 0,
                    message: format!("game {id} differs from the same game in another file"),
                });
            }
            games.insert(id, record);
        }
    }
    let header = merged.expect("at least one file");
    Ok((header, games.into_values().collect()))
}

/// Writes a results file holding `header` and `records` (a merge's
/// output).
///
/// # Errors
///
/// [`TournamentError::Io`] if the file cannot be written.
pub fn write_results(
    path: &Path,
    header: &Header,
    records: &[GameRecord],
) -> Result<(), TournamentError> {
    let mut text = serde_json::to_string(&Line::Tournament(header.clone()))
        .map_err(|error| io_error(path, error))?;
    text.push('\n');
    for record in records {
        text.push_str(
            &serde_json::to_string(&Line::Game(record.clone()))
                .map_err(|error| io_error(path, error))?,
        );
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|error| io_error(path, error))
}

/// One pairing's results, for its first searcher.
#[derive(Clone, Debug, PartialEq)]
pub struct PairSummary {
    /// The searcher whose score is shown.
    pub a: usize,
    /// Its opponent.
    pub b: usize,
    /// A's wins, draws and losses.
    pub tally: Tally,
    /// A's game pairs by their points ([`pentanomial`]: only pairs with
    /// both games counted).
    pub pentanomial: Pentanomial,
}

/// The tables of a tournament: standings and pairings, and the SPRT's
/// decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The header.
    pub header: Header,
    /// Each searcher's results against every opponent it met.
    pub standings: Vec<Tally>,
    /// Each pairing's results.
    pub pairs: Vec<PairSummary>,
    /// Games counted (with an SPRT: those up to its decision).
    pub games: usize,
    /// Games of the schedule (of this shard).
    pub scheduled: usize,
    /// The SPRT's decision and the games that made it.
    pub sprt: Option<(SprtDecision, usize)>,
    /// Games counted that a searcher forfeited.
    pub forfeited: usize,
    /// Games counted that were adjudicated.
    pub adjudicated: usize,
}

impl Summary {
    /// Tallies `records`. With an SPRT that is decided, only the games up
    /// to the decision count.
    pub fn new(header: &Header, records: &[GameRecord]) -> Summary {
        let sprt = sprt_outcome(header, records);
        let mut counted: Vec<&GameRecord> = records.iter().collect();
        counted.sort_by_key(|record| record.id);
        if let Some((_, games)) = sprt {
            counted.truncate(games);
        }
        let pairs = header.pairs();
        let mut standings = vec![Tally::default(); header.searchers.len()];
        let mut pair_tallies = vec![Tally::default(); pairs.len()];
        for record in &counted {
            let (a, b) = pairs[record.pair];
            record.record_for(a, &mut pair_tallies[record.pair]);
            record.record_for(a, &mut standings[a]);
            record.record_for(b, &mut standings[b]);
        }
        Summary {
            header: header.clone(),
            standings,
            pairs: pairs
                .iter()
                .zip(pair_tallies)
                .enumerate()
                .map(|(index, (&(a, b), tally))| PairSummary {
                    a,
                    b,
                    tally,
                    pentanomial: pentanomial(header, counted.iter().copied(), index),
                })
                .collect(),
            games: counted.len(),
            scheduled: header.ids().count(),
            sprt,
            forfeited: counted.iter().filter(|game| game.forfeit.is_some()).count(),
            adjudicated: counted
                .iter()
                .filter(|game| game.adjudicated.is_some())
                .count(),
        }
    }

    /// The totals of every searcher: `(wins, draws, losses)` each, the
    /// numbers a resumed or merged run must reproduce.
    pub fn totals(&self) -> Vec<(u32, u32, u32)> {
        self.standings
            .iter()
            .map(|tally| (tally.wins, tally.draws, tally.losses))
            .collect()
    }

    /// The SVG chart of a budget sweep: each variant's score against each
    /// opponent, by the swept value. `None` unless the pairing is a sweep
    /// with numeric values.
    pub fn sweep_chart(&self) -> Option<String> {
        let Pairing::Sweep {
            key,
            values,
            variants,
        } = &self.header.pairing
        else {
            return None;
        };
        let xs: Vec<f64> = values
            .iter()
            .map(|value| value.replace('_', "").parse::<f64>().ok())
            .collect::<Option<_>>()?;
        let series = (*variants..self.header.searchers.len())
            .map(|opponent| Series {
                label: format!("vs {}", shown_name(&self.header.searchers[opponent])),
                points: self
                    .pairs
                    .iter()
                    .filter(|pair| pair.b == opponent && pair.tally.games() > 0)
                    .map(|pair| {
                        let (low, high) = pair.tally.confidence95();
                        Point {
                            x: xs[pair.a],
                            y: pair.tally.score(),
                            low,
                            high,
                        }
                    })
                    .collect(),
            })
            .collect::<Vec<_>>();
        let subject = self.header.searchers[0]
            .split(':')
            .next()
            .unwrap_or("searcher");
        Some(score_chart(
            &format!("{subject} on {}: score against {key}", self.header.game),
            key,
            &series,
        ))
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let header = &self.header;
        let kind = match &header.pairing {
            Pairing::RoundRobin => "round robin".to_string(),
            Pairing::Gauntlet => "gauntlet".to_string(),
            Pairing::Sweep { key, .. } => format!("sweep of {key}"),
        };
        writeln!(
            f,
            "{} {kind}: {} searchers, {} games per pairing ({} openings {}, each with both colours), seed {}",
            header.game,
            header.searchers.len(),
            header.games_per_pair,
            header.games_per_pair / 2,
            if header.book.is_empty() {
                format!("of {} random plies", header.opening_plies)
            } else {
                format!("from a book of {}", header.book.len())
            },
            header.seed
        )?;
        if let Some(shard) = header.shard {
            writeln!(f, "shard {shard}")?;
        }
        let mut ended_early = Vec::new();
        if self.forfeited > 0 {
            ended_early.push(format!("{} forfeited", self.forfeited));
        }
        if self.adjudicated > 0 {
            ended_early.push(format!("{} adjudicated", self.adjudicated));
        }
        writeln!(
            f,
            "{} of {} games{}{}",
            self.games,
            self.scheduled,
            if self.sprt.is_some() {
                " (up to the SPRT's decision)"
            } else {
                ""
            },
            if ended_early.is_empty() {
                String::new()
            } else {
                format!(" ({})", ended_early.join(", "))
            }
        )?;
        let names: Vec<&str> = header
            .searchers
            .iter()
            .map(|spec| shown_name(spec))
            .collect();
        let width = names
            .iter()
            .map(|name| name.len())
            .max()
            .unwrap_or(8)
            .max(8);
        writeln!(f)?;
        writeln!(
            f,
            " #  {:<width$}  games   score   Elo vs its opponents (95% CI)",
            "searcher"
        )?;
        let mut order: Vec<usize> = (0..header.searchers.len()).collect();
        order.sort_by(|&a, &b| {
            self.standings[b]
                .score()
                .total_cmp(&self.standings[a].score())
                .then(a.cmp(&b))
        });
        for (rank, &index) in order.iter().enumerate() {
            let tally = &self.standings[index];
            writeln!(
                f,
                "{:>2}  {:<width$}  {:>5}  {:>5.1}%  {}",
                rank + 1,
                names[index],
                tally.games(),
                100.0 * tally.score(),
                elo_estimate(tally)
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:<width$}  {:<width$}  games    +/=/-       score  Elo difference (95% CI)    LOS  Ptnml(0-2)",
            "searcher", "opponent"
        )?;
        for pair in &self.pairs {
            let tally = &pair.tally;
            writeln!(
                f,
                "{:<width$}  {:<width$}  {:>5}  {:>11}  {:>5.1}%  {:<24}  {:>5.1}%  {:?}",
                names[pair.a],
                names[pair.b],
                tally.games(),
                format!("+{} ={} -{}", tally.wins, tally.draws, tally.losses),
                100.0 * tally.score(),
                elo_estimate(tally).to_string(),
                100.0 * likelihood_of_superiority(tally),
                pair.pentanomial.counts
            )?;
        }
        if let Some(sprt) = header.sprt {
            let (tally, pentanomial) = self
                .pairs
                .first()
                .map(|pair| (pair.tally, pair.pentanomial))
                .unwrap_or_default();
            let (lower, upper) = sprt.bounds();
            writeln!(f)?;
            writeln!(
                f,
                "SPRT ({} model): H0 {} {} against H1 {} {}, alpha = {}, beta = {}",
                sprt.model,
                sprt.model.bound_unit(),
                sprt.elo0,
                sprt.model.bound_unit(),
                sprt.elo1,
                sprt.alpha,
                sprt.beta
            )?;
            writeln!(f, "{pentanomial}")?;
            writeln!(f, "{}", pentanomial.elo())?;
            write!(
                f,
                "LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}], ",
                sprt.llr(&tally, &pentanomial),
                lower,
                upper,
                sprt.elo0,
                sprt.elo1
            )?;
            match self.sprt {
                Some((decision, games)) => writeln!(f, "{decision} after {games} games")?,
                None => writeln!(f, "undecided")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::SprtModel;
    use game_traits::Game;
    use game_traits::testing::TicTacToe;

    fn header(searchers: &[&str], games: u32) -> Header {
        Header {
            version: FORMAT_VERSION,
            game: "tictactoe".to_string(),
            searchers: searchers.iter().map(ToString::to_string).collect(),
            pairing: Pairing::RoundRobin,
            games_per_pair: games,
            opening_plies: 2,
            book: Vec::new(),
            adjudication: Adjudication::default(),
            seed: 7,
            sprt: None,
            shard: None,
        }
    }

    #[test]
    fn tables_name_a_searcher_by_its_name_setting() {
        assert_eq!(shown_name("nboard:cmd=edax -n 1,name=edax,depth=6"), "edax");
        assert_eq!(shown_name("pbrain:name=ours"), "ours");
        assert_eq!(shown_name("uct:iters=100"), "uct:iters=100");
        assert_eq!(shown_name("pbrain:name=,cmd=x"), "pbrain:name=,cmd=x");
        assert_eq!(shown_name("greedy"), "greedy");
    }

    #[test]
    fn schedule_alternates_colours_and_shares_openings() {
        let header = header(&["random", "greedy", "minimax:depth=9"], 4);
        assert_eq!(header.pairs(), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(header.total_games(), 12);
        let first = header.job(0);
        let second = header.job(3);
        assert_eq!((first.pair, first.first, first.second), (0, 0, 1));
        assert_eq!((second.pair, second.first, second.second), (0, 1, 0));
        assert_eq!(first.opening, second.opening);
        assert_eq!(header.job(6).opening, 1);
        let gauntlet = Header {
            pairing: Pairing::Gauntlet,
            ..header.clone()
        };
        assert_eq!(gauntlet.pairs(), vec![(0, 1), (0, 2)]);
        let shard: Shard = "2/3".parse().unwrap();
        let sharded = Header {
            shard: Some(shard),
            ..header.clone()
        };
        assert_eq!(sharded.ids().collect::<Vec<_>>(), vec![1, 4, 7, 10]);
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }

    #[test]
    fn settings_are_checked() {
        assert!(header(&["random"], 2).validate().is_err());
        assert!(header(&["random", "random"], 2).validate().is_err());
        assert!(header(&["random", "greedy"], 3).validate().is_err());
        assert!(header(&["random", "nonsense"], 2).validate().is_err());
        let mut sprt = header(&["random", "greedy", "uct"], 2);
        sprt.sprt = Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap());
        assert!(sprt.validate().is_err());
        assert!(header(&["random", "greedy"], 2).validate().is_ok());
    }

    #[test]
    fn a_move_cap_stops_games_as_draws_and_says_so() {
        let capped = Header {
            adjudication: Adjudication {
                by_game: true,
                max_plies: Some(2),
            },
            ..header(&["random", "greedy"], 4)
        };
        let setup = GameSetup::<TicTacToe>::new();
        let games = play(&setup, &capped, &[], 1, &|_| {}).unwrap();
        assert_eq!(games.len(), 4);
        for record in &games {
            // Two opening plies, then two more.
            assert_eq!(record.plies, 2, "{record:?}");
            assert_eq!(record.moves.split(' ').count(), 4, "{record:?}");
            assert_eq!(record.result, GameResult::Unfinished);
            assert_eq!(record.adjudicated.as_deref(), Some("move cap of 2 plies"));
        }
        let summary = Summary::new(&capped, &games).to_string();
        assert!(
            summary.contains("4 of 4 games (4 adjudicated)"),
            "{summary}"
        );
        // Without a cap the same games are played out, and nothing is adjudicated.
        let free = header(&["random", "greedy"], 4);
        let played = play(&setup, &free, &[], 1, &|_| {}).unwrap();
        assert!(played.iter().all(|game| game.adjudicated.is_none()));
        assert!(played.iter().any(|game| game.plies > 2));
        let text = serde_json::to_string(&capped).unwrap();
        assert!(text.contains(r#""adjudication":{"by_game":true,"max_plies":2}"#));
        assert!(
            !serde_json::to_string(&free)
                .unwrap()
                .contains("adjudication")
        );
    }

    #[test]
    fn othello_games_are_scored_by_the_exact_solver_near_the_end() {
        use bitboard_othello::Board;
        let header = Header {
            game: "othello".to_string(),
            adjudication: Adjudication {
                by_game: true,
                max_plies: None,
            },
            ..header(&["random", "greedy"], 4)
        };
        let setup = GameSetup::<Board>::new();
        let games = play(&setup, &header, &[], 1, &|_| {}).unwrap();
        for record in &games {
            let reason = record.adjudicated.as_deref().expect("adjudicated");
            assert!(
                reason.starts_with("solved exactly at 14 empties"),
                "{reason}"
            );
            let mut board = Board::start();
            for text in record.moves.split(' ') {
                board.try_play(board.parse_move(text).unwrap()).unwrap();
            }
            assert_eq!(board.empty_count(), 14);
            // The verdict is the exact result of the last position.
            let score = bitboard_othello::solve(&board).score;
            let mover = board.to_move();
            let first_wins = match score.signum() {
                1 => Some(mover == Player::First),
                -1 => Some(mover == Player::Second),
                _ => None,
            };
            let expected = match first_wins {
                Some(true) => GameResult::FirstWins,
                Some(false) => GameResult::SecondWins,
                None => GameResult::Draw,
            };
            assert_eq!(record.result, expected, "{record:?}");
        }
    }

    #[test]
    fn book_openings_are_played_in_turn_with_both_colours() {
        let mut corner = TicTacToe::new();
        corner.play(0);
        corner.play(4);
        let header = Header {
            book: vec!["4".to_string(), corner.position_text()],
            adjudication: Adjudication::default(),
            ..header(&["random", "minimax:depth=9"], 6)
        };
        let setup = GameSetup::<TicTacToe>::new();
        header.validate_with(&setup).unwrap();
        let games = play(&setup, &header, &[], 1, &|_| {}).unwrap();
        assert_eq!(games.len(), 6);
        for record in &games {
            let from_book_position = record.opening == 1;
            assert_eq!(record.start.is_some(), from_book_position, "{record:?}");
            let mut game = match &record.start {
                Some(text) => TicTacToe::parse_position(text).unwrap(),
                None => TicTacToe::new(),
            };
            if !from_book_position {
                assert!(record.moves.starts_with("4 "), "{record:?}");
            }
            for text in record.moves.split(' ') {
                game.try_play(game.parse_move(text).unwrap()).unwrap();
            }
            assert_eq!(GameResult::from_outcome(game.outcome()), record.result);
        }
        // Opening 2 is line 1 again; each opening is played with both colours.
        let openings: Vec<(u32, usize)> = games.iter().map(|r| (r.opening, r.first)).collect();
        assert_eq!(
            openings,
            vec![(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
        );
        assert_eq!(games[0].start, games[4].start);
        // The book travels in the results file's header.
        let text = serde_json::to_string(&header).unwrap();
        assert_eq!(serde_json::from_str::<Header>(&text).unwrap(), header);
        let bad = Header {
            book: vec!["4".to_string(), "4 4".to_string()],
            adjudication: Adjudication::default(),
            ..header.clone()
        };
        let error = bad.validate_with(&setup).unwrap_err().to_string();
        assert!(error.contains("opening 2 of the book"), "{error}");
    }

    #[test]
    fn games_do_not_depend_on_threads_and_perfect_play_never_loses() {
        // From the empty board (a random opening may already be lost).
        let header = Header {
            opening_plies: 0,
            ..header(&["random", "minimax:depth=9"], 6)
        };
        let one = play(&GameSetup::<TicTacToe>::new(), &header, &[], 1, &|_| {}).unwrap();
        let two = play(&GameSetup::<TicTacToe>::new(), &header, &[], 2, &|_| {}).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.len(), 6);
        let summary = Summary::new(&header, &one);
        assert_eq!(summary.standings[1].losses, 0, "{summary}");
        assert_eq!(summary.pairs[0].tally.wins, 0);
        // Every recorded game replays to its result.
        for record in &one {
            let mut game = TicTacToe::new();
            for text in record.moves.split(' ') {
                let mv = game.parse_move(text).unwrap();
                game.try_play(mv).unwrap();
            }
            assert_eq!(GameResult::from_outcome(game.outcome()), record.result);
        }
        let table = summary.to_string();
        assert!(table.contains("minimax:depth=9"), "{table}");
        assert!(table.contains("LOS"), "{table}");
    }

    #[test]
    fn resuming_skips_done_games_and_gives_the_same_totals() {
        let header = header(&["random", "greedy", "minimax:depth=2"], 4);
        let all = play(&GameSetup::<TicTacToe>::new(), &header, &[], 2, &|_| {}).unwrap();
        let part = &all[..5];
        let rest = play(&GameSetup::<TicTacToe>::new(), &header, part, 2, &|_| {}).unwrap();
        assert_eq!(rest.len(), all.len() - 5);
        let mut resumed = part.to_vec();
        resumed.extend(rest);
        assert_eq!(
            Summary::new(&header, &resumed).totals(),
            Summary::new(&header, &all).totals()
        );
    }

    #[test]
    fn results_files_resume_past_a_torn_line_and_refuse_other_tournaments() {
        let dir = std::env::temp_dir().join(format!("tournament-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.jsonl");
        let _ = std::fs::remove_file(&path);
        let header = header(&["random", "greedy"], 4);
        let (writer, done) = open_results(&path, &header, false).unwrap();
        assert!(done.is_empty());
        let games = play(&GameSetup::<TicTacToe>::new(), &header, &[], 1, &|record| {
            writer.append(record).unwrap();
        })
        .unwrap();
        drop(writer);
        assert!(matches!(
            open_results(&path, &header, false),
            Err(TournamentError::Exists(_))
        ));
        // Cut the last line in half, as a killed run leaves it.
        let text = std::fs::read_to_string(&path).unwrap();
        let cut = text.len() - text.lines().last().unwrap().len() / 2 - 1;
        std::fs::write(&path, &text[..cut]).unwrap();
        let (writer, done) = open_results(&path, &header, true).unwrap();
        assert_eq!(done.len(), games.len() - 1);
        let rest = play(
            &GameSetup::<TicTacToe>::new(),
            &header,
            &done,
            1,
            &|record| {
                writer.append(record).unwrap();
            },
        )
        .unwrap();
        assert_eq!(rest, vec![games.last().unwrap().clone()]);
        drop(writer);
        let (_, reread, _) = read_results(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(reread.len(), games.len());
        // Another seed is another tournament; the file is not touched.
        let before = std::fs::read_to_string(&path).unwrap();
        let other = Header {
            seed: 8,
            ..header.clone()
        };
        let error = open_results(&path, &other, true).unwrap_err();
        assert!(
            error.to_string().contains("seed is 7 in the file, 8 here"),
            "{error}"
        );
        // A damaged line in the middle is an error, not a silent loss.
        let mut lines: Vec<&str> = before.lines().collect();
        lines[2] = "{\"type\":\"game\",\"id\":";
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let error = open_results(&path, &header, true).unwrap_err();
        assert!(
            matches!(error, TournamentError::BadLine { line: 3, .. }),
            "{error}"
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            lines.join("\n") + "\n"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn merged_shards_equal_the_whole_run() {
        let dir = std::env::temp_dir().join(format!("tournament-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let whole = header(&["random", "greedy", "minimax:depth=2"], 4);
        let all = play(&GameSetup::<TicTacToe>::new(), &whole, &[], 1, &|_| {}).unwrap();
        let mut paths = Vec::new();
        for index in 1..=3 {
            let shard = Header {
                shard: Some(Shard { index, count: 3 }),
                ..whole.clone()
            };
            let games = play(&GameSetup::<TicTacToe>::new(), &shard, &[], 1, &|_| {}).unwrap();
            let path = dir.join(format!("shard{index}.jsonl"));
            write_results(&path, &shard, &games).unwrap();
            paths.push(path);
        }
        let (header, merged) = merge(&paths).unwrap();
        assert_eq!(header, whole);
        assert_eq!(merged, all);
        // A file of another tournament is refused.
        let other = Header {
            games_per_pair: 2,
            ..whole.clone()
        };
        let path = dir.join("other.jsonl");
        write_results(&path, &other, &[]).unwrap();
        paths.push(path);
        assert!(matches!(
            merge(&paths),
            Err(TournamentError::HeaderMismatch { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn sprt_stops_when_decided() {
        let mut header = header(&["minimax:depth=9", "random"], 200);
        header.sprt = Some(Sprt::new(0.0, 100.0, 0.05, 0.05).unwrap());
        let games = play(&GameSetup::<TicTacToe>::new(), &header, &[], 2, &|_| {}).unwrap();
        let summary = Summary::new(&header, &games);
        let (decision, decided_at) = summary.sprt.expect("decided");
        assert_eq!(decision, SprtDecision::AcceptH1);
        assert!(decided_at < 100, "{summary}");
        assert!(decided_at.is_multiple_of(2), "{summary}");
        assert_eq!(summary.games, decided_at);
        // The decision does not depend on the threads.
        let one = play(&GameSetup::<TicTacToe>::new(), &header, &[], 1, &|_| {}).unwrap();
        assert_eq!(Summary::new(&header, &one).sprt, summary.sprt);
        assert!(summary.to_string().contains("H1 accepted"));
    }

    #[test]
    fn sweep_pairs_variants_with_opponents_and_charts_them() {
        let base: SearcherSpec = "minimax".parse().unwrap();
        let variants: Vec<String> = ["1", "2", "4"]
            .iter()
            .map(|depth| base.with_setting("depth", depth).unwrap().to_string())
            .collect();
        let mut searchers = variants.clone();
        searchers.push("random".to_string());
        let header = Header {
            pairing: Pairing::Sweep {
                key: "depth".to_string(),
                values: vec!["1".into(), "2".into(), "4".into()],
                variants: 3,
            },
            ..header(&[], 2)
        }
        .with_searchers(searchers);
        assert_eq!(header.pairs(), vec![(0, 3), (1, 3), (2, 3)]);
        let games = play(&GameSetup::<TicTacToe>::new(), &header, &[], 2, &|_| {}).unwrap();
        let svg = Summary::new(&header, &games).sweep_chart().unwrap();
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("vs random"));
    }

    /// Game `id` of `header`'s schedule with `result`.
    fn record(header: &Header, id: u64, result: GameResult) -> GameRecord {
        let job = header.job(id);
        GameRecord {
            id,
            pair: job.pair,
            first: job.first,
            second: job.second,
            opening: job.opening,
            start: None,
            result,
            plies: 1,
            moves: String::new(),
            forfeit: None,
            adjudicated: None,
        }
    }

    /// The result of game `id` in which searcher 0 scores `score`.
    fn result_for_searcher_0(header: &Header, id: u64, score: GameScore) -> GameResult {
        let first_is_0 = header.job(id).first == 0;
        match (score, first_is_0) {
            (GameScore::Draw, _) => GameResult::Draw,
            (GameScore::Win, true) | (GameScore::Loss, false) => GameResult::FirstWins,
            (GameScore::Win, false) | (GameScore::Loss, true) => GameResult::SecondWins,
        }
    }

    #[test]
    fn pentanomial_counts_whole_pairs_across_colours() {
        use GameScore::{Draw, Loss, Win};
        let header = header(&["random", "greedy", "minimax:depth=2"], 6);
        // Pairing 1 is searcher 0 against searcher 2: its games are ids 1,
        // 4 (opening 0), 7, 10 (opening 1) and 13, 16 (opening 2).
        let scores = [(1, Win), (4, Win), (7, Draw), (10, Loss), (13, Loss)];
        let mut records: Vec<GameRecord> = scores
            .iter()
            .map(|&(id, score)| record(&header, id, result_for_searcher_0(&header, id, score)))
            .collect();
        // Games of another pairing do not count in this one.
        records.push(record(&header, 0, GameResult::FirstWins));
        records.push(record(&header, 3, GameResult::FirstWins));
        assert_eq!(records[1].first, 2, "the second game swaps colours");
        let counts = pentanomial(&header, &records, 1);
        // Opening 0: two wins; opening 1: a draw and a loss; opening 2 is
        // missing its second game and is left out.
        assert_eq!(counts.counts, [0, 1, 0, 0, 1]);
        // From the second searcher's side the pairs mirror.
        assert_eq!(pentanomial(&header, &records, 0).counts, [0, 0, 1, 0, 0]);
        // An unfinished game counts as a draw, as in the tally.
        records.push(record(&header, 16, GameResult::Unfinished));
        assert_eq!(pentanomial(&header, &records, 1).counts, [0, 2, 0, 0, 1]);
        let summary = Summary::new(&header, &records);
        assert_eq!(summary.pairs[1].pentanomial.counts, [0, 2, 0, 0, 1]);
        assert_eq!(summary.pairs[1].tally.games(), 6);
        assert!(summary.to_string().contains("[0, 2, 0, 0, 1]"), "{summary}");
        assert_eq!(pentanomial(&header, &records, 7), Pentanomial::default());
    }

    #[test]
    fn pentanomial_sprt_decides_at_pair_boundaries_only() {
        use GameScore::{Draw, Loss, Win};
        let mut header = header(&["random", "greedy"], 400);
        header.sprt = Some(Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap());
        // Mostly wins for searcher 0, with draws and losses mixed in.
        let pattern = [Win, Draw, Win, Loss, Win, Win, Draw, Draw, Loss, Win, Win];
        let records: Vec<GameRecord> = (0..400)
            .map(|id| {
                let score = pattern[id as usize % pattern.len()];
                record(&header, id, result_for_searcher_0(&header, id, score))
            })
            .collect();
        let (decision, decided_at) = sprt_outcome(&header, &records).expect("decided");
        assert_eq!(decision, SprtDecision::AcceptH1);
        assert!(
            decided_at.is_multiple_of(2) && decided_at < 400,
            "{decided_at}"
        );
        for games in 0..decided_at {
            assert_eq!(sprt_outcome(&header, &records[..games]), None, "{games}");
        }
        // The trinomial model on the same games decides after a single game
        // as soon as its ratio crosses, odd counts included.
        let trinomial = Header {
            sprt: header
                .sprt
                .map(|sprt| sprt.with_model(SprtModel::Trinomial)),
            ..header.clone()
        };
        let (_, trinomial_at) = sprt_outcome(&trinomial, &records).expect("decided");
        let mut tally = Tally::default();
        for record in &records[..trinomial_at - 1] {
            record.record_for(0, &mut tally);
        }
        let sprt = trinomial.sprt.unwrap();
        assert_eq!(sprt.decide(&tally, &Pentanomial::default()), None);
        // A missing game stops the run: nothing after it counts.
        let mut gap = records.clone();
        gap.remove(decided_at - 1);
        assert_eq!(sprt_outcome(&header, &gap[..decided_at - 1]), None);
        // The summary shows the pairs, the Elo and the ratio.
        let summary = Summary::new(&header, &records);
        assert_eq!(summary.games, decided_at);
        let text = summary.to_string();
        assert!(
            text.contains("SPRT (pentanomial model): H0 nElo 0"),
            "{text}"
        );
        assert!(
            text.contains(&summary.pairs[0].pentanomial.to_string()),
            "{text}"
        );
        assert!(text.contains("Ptnml(0-2): ["), "{text}");
        assert!(
            text.contains("Elo: ") && text.contains(", nElo: "),
            "{text}"
        );
        assert!(
            text.contains("LLR: ") && text.contains("(-2.94, 2.94) [0.00, 20.00]"),
            "{text}"
        );
        assert!(
            text.contains(&format!("H1 accepted after {decided_at} games")),
            "{text}"
        );
    }

    #[test]
    fn an_old_header_without_a_model_resumes_as_trinomial() {
        let dir = std::env::temp_dir().join(format!("tournament-old-sprt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("old.jsonl");
        let mut old = header(&["random", "greedy"], 40);
        old.sprt = Some(
            Sprt::new(0.0, 50.0, 0.05, 0.05)
                .unwrap()
                .with_model(SprtModel::Trinomial),
        );
        let records: Vec<GameRecord> = (0..10)
            .map(|id| record(&old, id, GameResult::FirstWins))
            .collect();
        write_results(&path, &old, &records).unwrap();
        // Strip the model, as a file of an earlier version holds it.
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(r#","model":"trinomial""#));
        std::fs::write(&path, text.replacen(r#","model":"trinomial""#, "", 1)).unwrap();
        let (found, reread, _) =
            read_results(&path, &std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(found, old);
        assert_eq!(reread, records);
        // Resuming with the trinomial model works; the default model is
        // another tournament.
        let (_, done) = open_results(&path, &old, true).unwrap();
        assert_eq!(done.len(), 10);
        let new = Header {
            sprt: Some(Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap()),
            ..old.clone()
        };
        assert!(matches!(
            open_results(&path, &new, true),
            Err(TournamentError::HeaderMismatch { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    impl Header {
        fn with_searchers(mut self, searchers: Vec<String>) -> Header {
            self.searchers = searchers;
            self
        }
    }
}
