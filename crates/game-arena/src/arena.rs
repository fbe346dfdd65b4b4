//! The run-time list of games a tournament can be played on: the built-in
//! ones and any game of the user's, each with its searchers and named
//! evaluators ([`GameSetup`]).
//!
//! A game type only has to implement [`RegistryGame`] (in the user's own
//! crate: the trait is public and implemented on the user's type, so the
//! orphan rule does not stand in the way); [`Registry::game`] then adds it
//! under its name, and the command line ([`crate::cli`], feature `cli`)
//! and [`Registry::play`] treat it like any built-in game.
//!
//! ```
//! use game_arena::Registry;
//! use game_arena::registry::GameSetup;
//! use game_traits::OutcomeEvaluator;
//! use game_traits::testing::TicTacToe;
//!
//! // The built-in games, with tic-tac-toe given a second evaluator.
//! let registry = Registry::builtin().replace(
//!     GameSetup::<TicTacToe>::new().evaluator("outcome", "only the end counts", OutcomeEvaluator),
//! );
//! registry.check()?;
//! let game = registry.find("tictactoe")?;
//! assert_eq!(game.evaluators(), vec![("outcome", "only the end counts")]);
//! assert!(game.spec("alphabeta:depth=2,eval=outcome").is_ok());
//! assert!(registry.find("chess").is_err());
//! # Ok::<(), game_arena::registry::RegistryError>(())
//! ```

use crate::registry::{
    GameFile, GameSetup, InputError, RegistryError, RegistryGame, SearcherInfo, SearcherSpec,
};
use crate::tournament::{self, GameRecord, Header, TournamentError};

/// A game of a [`Registry`], whatever its type: what the command line and
/// the tournament need of it.
pub trait ArenaGame: Send + Sync {
    /// The name on the command line (`--game NAME`).
    fn name(&self) -> &'static str;
    /// A one-line description.
    fn summary(&self) -> &'static str;
    /// Every searcher of the game: the built-in ones, then its own.
    fn searchers(&self) -> Vec<&'static SearcherInfo>;
    /// The named evaluators (`eval=NAME`): name and summary.
    fn evaluators(&self) -> Vec<(&'static str, &'static str)>;
    /// Whether the game's registrations are sound.
    ///
    /// # Errors
    ///
    /// [`RegistryError::Registration`] naming each problem.
    fn check(&self) -> Result<(), RegistryError>;
    /// Reads a spec of one of the game's searchers.
    ///
    /// # Errors
    ///
    /// As [`SearcherSpec::parse_among`].
    fn spec(&self, text: &str) -> Result<SearcherSpec, RegistryError>;
    /// Checks one line of an opening file.
    ///
    /// # Errors
    ///
    /// As [`RegistryGame::parse_opening`].
    fn check_opening(&self, line: &str) -> Result<(), InputError>;
    /// The game of `record` in the game's usual file format, if it has
    /// one (see [`tournament::game_file`]).
    ///
    /// # Errors
    ///
    /// As [`tournament::game_file`].
    fn game_file(
        &self,
        header: &Header,
        record: &GameRecord,
    ) -> Result<Option<GameFile>, InputError>;
    /// Checks a tournament's header against the game's searchers.
    ///
    /// # Errors
    ///
    /// As [`Header::validate_with`].
    fn validate(&self, header: &Header) -> Result<Vec<SearcherSpec>, TournamentError>;
    /// The warnings about budget settings the specs' searchers ignore.
    ///
    /// # Errors
    ///
    /// As [`tournament::budget_warnings`].
    fn budget_warnings(&self, specs: &[SearcherSpec]) -> Result<Vec<String>, RegistryError>;
    /// Plays the games of `header` not in `done` (see [`tournament::play`]).
    ///
    /// # Errors
    ///
    /// As [`tournament::play`].
    fn play(
        &self,
        header: &Header,
        done: &[GameRecord],
        threads: usize,
        on_game: &(dyn Fn(&GameRecord) + Sync),
    ) -> Result<Vec<GameRecord>, TournamentError>;
}

impl<G: RegistryGame> ArenaGame for GameSetup<G> {
    fn name(&self) -> &'static str {
        G::NAME
    }

    fn summary(&self) -> &'static str {
        G::SUMMARY
    }

    fn searchers(&self) -> Vec<&'static SearcherInfo> {
        GameSetup::searchers(self)
    }

    fn evaluators(&self) -> Vec<(&'static str, &'static str)> {
        GameSetup::evaluators(self)
    }

    fn check(&self) -> Result<(), RegistryError> {
        GameSetup::check(self)
    }

    fn spec(&self, text: &str) -> Result<SearcherSpec, RegistryError> {
        GameSetup::spec(self, text)
    }

    fn check_opening(&self, line: &str) -> Result<(), InputError> {
        G::parse_opening(line).map(|_| ())
    }

    fn game_file(
        &self,
        header: &Header,
        record: &GameRecord,
    ) -> Result<Option<GameFile>, InputError> {
        tournament::game_file::<G>(header, record)
    }

    fn validate(&self, header: &Header) -> Result<Vec<SearcherSpec>, TournamentError> {
        header.validate_with(self)
    }

    fn budget_warnings(&self, specs: &[SearcherSpec]) -> Result<Vec<String>, RegistryError> {
        tournament::budget_warnings(self, specs)
    }

    fn play(
        &self,
        header: &Header,
        done: &[GameRecord],
        threads: usize,
        on_game: &(dyn Fn(&GameRecord) + Sync),
    ) -> Result<Vec<GameRecord>, TournamentError> {
        tournament::play(self, header, done, threads, on_game)
    }
}

/// The games a tournament can be played on, found by name.
///
/// [`Registry::builtin`] holds the workspace's games (each with the
/// searchers it has of its own, [`RegistryGame::setup`]); [`game`](Registry::game)
/// adds a game, [`replace`](Registry::replace) swaps a game's setup for
/// another (to add evaluators or searchers to a built-in game).
#[derive(Default)]
pub struct Registry {
    games: Vec<Box<dyn ArenaGame>>,
    problems: Vec<String>,
}

impl std::fmt::Debug for Registry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registry")
            .field("games", &self.names())
            .finish_non_exhaustive()
    }
}

impl Registry {
    /// A registry without games.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// The workspace's games: Othello, Jungle, Gomoku, tic-tac-toe and
    /// Nim, each with the searchers of its own (the Othello endgame solver,
    /// the external engines of its protocol).
    pub fn builtin() -> Registry {
        crate::registry::builtin_games(Registry::new())
    }

    /// Adds a game. A name already taken is reported by
    /// [`check`](Registry::check) (the first game keeps it).
    #[must_use]
    pub fn game<G: RegistryGame>(mut self, setup: GameSetup<G>) -> Registry {
        if !crate::registry::is_name(G::NAME) {
            self.problems
                .push(format!("game name {:?} is not a plain word", G::NAME));
        } else if self.find(G::NAME).is_ok() {
            self.problems
                .push(format!("game {:?} is registered twice", G::NAME));
        }
        self.games.push(Box::new(setup));
        self
    }

    /// Replaces the setup of the game of type `G` (added if it has none).
    #[must_use]
    pub fn replace<G: RegistryGame>(mut self, setup: GameSetup<G>) -> Registry {
        match self
            .games
            .iter()
            .position(|game| game.name().eq_ignore_ascii_case(G::NAME))
        {
            Some(index) => {
                self.games[index] = Box::new(setup);
                self
            }
            None => self.game(setup),
        }
    }

    /// Whether every game's registrations, and the game names, are sound.
    ///
    /// # Errors
    ///
    /// [`RegistryError::Registration`] naming each problem.
    pub fn check(&self) -> Result<(), RegistryError> {
        let mut problems = self.problems.clone();
        for game in &self.games {
            if let Err(RegistryError::Registration(text)) = game.check() {
                problems.push(format!("{}: {text}", game.name()));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(RegistryError::Registration(problems.join("; ")))
        }
    }

    /// The games, in the order they were added.
    pub fn games(&self) -> impl Iterator<Item = &dyn ArenaGame> {
        self.games.iter().map(|game| game.as_ref())
    }

    /// The games' names, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.games().map(ArenaGame::name).collect()
    }

    /// The game called `name` (case-insensitive).
    ///
    /// # Errors
    ///
    /// [`RegistryError::UnknownGame`] listing the known names.
    pub fn find(&self, name: &str) -> Result<&dyn ArenaGame, RegistryError> {
        self.games()
            .find(|game| game.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| RegistryError::UnknownGame {
                name: name.to_string(),
                known: self.names().join(", "),
            })
    }

    /// Plays the games of `header` not in `done` on the game it names,
    /// after printing the budget warnings to stderr.
    ///
    /// # Errors
    ///
    /// [`TournamentError::Registry`] for an unknown game, then as
    /// [`tournament::play`].
    pub fn play(
        &self,
        header: &Header,
        done: &[GameRecord],
        threads: usize,
        on_game: &(dyn Fn(&GameRecord) + Sync),
    ) -> Result<Vec<GameRecord>, TournamentError> {
        let game = self.find(&header.game)?;
        let specs = game.validate(header)?;
        for warning in game.budget_warnings(&specs)? {
            eprintln!("{warning}");
        }
        game.play(header, done, threads, on_game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_traits::testing::TicTacToe;
    use game_traits::{OutcomeEvaluator, RandomSearcher};

    const TWIN: SearcherInfo = SearcherInfo {
        name: "uct",
        summary: "a second searcher under a taken name",
        keys: &[],
        default_budget: "",
    };

    #[test]
    fn builtin_games_are_found_and_sound() {
        let registry = Registry::builtin();
        registry.check().unwrap();
        assert_eq!(
            registry.names(),
            [
                "othello",
                "jungle",
                "gomoku",
                "gomoku-full",
                "tictactoe",
                "nim"
            ]
        );
        assert_eq!(registry.find("Othello").unwrap().name(), "othello");
        let othello = registry.find("othello").unwrap();
        assert!(othello.searchers().iter().any(|info| info.name == "solver"));
        let Err(error) = registry.find("chess") else {
            panic!("chess is no game of the registry")
        };
        assert!(error.to_string().contains("othello, jungle"), "{error}");
    }

    #[test]
    fn doubled_names_are_reported() {
        let registry = Registry::builtin().game(GameSetup::<TicTacToe>::new());
        let error = registry.check().unwrap_err().to_string();
        assert!(
            error.contains("\"tictactoe\" is registered twice"),
            "{error}"
        );
        let registry = Registry::new().game(
            GameSetup::<TicTacToe>::new()
                .searcher(&TWIN, |_, seed| Ok(Box::new(RandomSearcher::new(seed))))
                .evaluator("bad name", "", OutcomeEvaluator),
        );
        let error = registry.check().unwrap_err().to_string();
        assert!(error.contains("\"uct\" is registered twice"), "{error}");
        assert!(
            error.contains("\"bad name\" is not a plain word"),
            "{error}"
        );
    }

    #[test]
    fn replaced_setups_take_effect() {
        let registry = Registry::builtin();
        assert!(registry.find("tictactoe").unwrap().evaluators().is_empty());
        let registry = registry.replace(GameSetup::<TicTacToe>::new().evaluator(
            "outcome",
            "the end only",
            OutcomeEvaluator,
        ));
        assert_eq!(registry.names().len(), 6);
        let game = registry.find("tictactoe").unwrap();
        assert_eq!(game.evaluators(), vec![("outcome", "the end only")]);
    }
}
