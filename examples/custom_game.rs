//! Your own game through the invariant harness and every searcher:
//! Connect Three on a board of 5 columns and 4 rows (stones drop to the
//! lowest free cell; three in a row in any direction wins), written here
//! in about a hundred lines, property-tested by the same harness as the
//! workspace's games, registered for the tools (`RegistryGame`) and
//! played by every searcher of the registry in a round robin.
//!
//! ```text
//! cargo run --release --example custom_game
//! ```

use std::fmt;
use std::str::FromStr;

use clap::Parser;
use game_arena::registry::GameSetup;
use game_arena::registry::{InputError, RegistryGame, SEARCHERS};
use game_arena::tournament::{FORMAT_VERSION, Header, Pairing, Summary, play};
use game_traits::testing::Invariants;
use game_traits::{ActionSpace, Evaluator, Game, Outcome, Player, UniformPlayout, UniformPrior};

#[path = "common/cli.rs"]
mod cli;

const COLS: usize = 5;
const ROWS: usize = 4;

/// A position: cells row by row from the bottom, the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
struct ConnectThree {
    cells: [Option<Player>; COLS * ROWS],
    to_move: Player,
    winner: Option<Player>,
}

impl ConnectThree {
    fn new() -> Self {
        ConnectThree {
            cells: [None; COLS * ROWS],
            to_move: Player::First,
            winner: None,
        }
    }

    fn height(&self, col: usize) -> usize {
        (0..ROWS)
            .take_while(|row| self.cells[row * COLS + col].is_some())
            .count()
    }

    /// Whether `player` has three in a row through (`col`, `row`).
    fn wins_at(&self, player: Player, col: usize, row: usize) -> bool {
        let owns = |c: isize, r: isize| {
            (0..COLS as isize).contains(&c)
                && (0..ROWS as isize).contains(&r)
                && self.cells[r as usize * COLS + c as usize] == Some(player)
        };
        if !owns(col as isize, row as isize) {
            return false;
        }
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: isize| {
                (1..3)
                    .take_while(|&step| {
                        owns(
                            col as isize + sign * step * dc,
                            row as isize + sign * step * dr,
                        )
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= 3
        })
    }
}

impl Game for ConnectThree {
    type Move = u8;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.clear();
        if self.outcome().is_none() {
            out.extend((0..COLS as u8).filter(|&col| self.height(usize::from(col)) < ROWS));
        }
    }

    fn play(&mut self, col: u8) {
        debug_assert!(self.is_legal(col));
        let col = usize::from(col);
        let row = self.height(col);
        self.cells[row * COLS + col] = Some(self.to_move);
        if self.wins_at(self.to_move, col, row) {
            self.winner = Some(self.to_move);
        }
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(winner) => Some(Outcome::Win(winner)),
            None if self.cells.iter().all(Option::is_some) => Some(Outcome::Draw),
            None => None,
        }
    }
}

impl ActionSpace for ConnectThree {
    fn num_actions(&self) -> usize {
        COLS
    }

    fn action_index(&self, col: u8) -> usize {
        usize::from(col)
    }

    fn action(&self, index: usize) -> Option<u8> {
        (index < COLS).then_some(index as u8)
    }
}

/// Text form: rows from the top, `x`, `o`, `.`, separated by `/`, then
/// the side to move: `...../...../..o../..x.. x`.
impl fmt::Display for ConnectThree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = (0..ROWS)
            .rev()
            .map(|row| {
                (0..COLS)
                    .map(|col| match self.cells[row * COLS + col] {
                        Some(Player::First) => 'x',
                        Some(Player::Second) => 'o',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        let side = if self.to_move == Player::First {
            'x'
        } else {
            'o'
        };
        write!(f, "{} {side}", rows.join("/"))
    }
}

impl FromStr for ConnectThree {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let (board, side) = text
            .trim()
            .split_once(' ')
            .ok_or("expected <rows> <side>")?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != ROWS || rows.iter().any(|row| row.chars().count() != COLS) {
            return Err(format!("expected {ROWS} rows of {COLS} cells"));
        }
        let mut game = ConnectThree::new();
        for (index, row) in rows.iter().rev().enumerate() {
            for (col, cell) in row.chars().enumerate() {
                game.cells[index * COLS + col] = match cell {
                    'x' => Some(Player::First),
                    'o' => Some(Player::Second),
                    '.' => None,
                    other => return Err(format!("bad cell {other:?}")),
                };
            }
        }
        for col in 0..COLS {
            if (game.height(col)..ROWS).any(|row| game.cells[row * COLS + col].is_some()) {
                return Err(format!("column {col} has a floating stone"));
            }
        }
        game.to_move = match side {
            "x" => Player::First,
            "o" => Player::Second,
            other => return Err(format!("bad side {other:?}")),
        };
        let mover = game.to_move.opponent();
        let won = (0..COLS * ROWS).any(|cell| game.wins_at(mover, cell % COLS, cell / COLS));
        game.winner = won.then_some(mover);
        Ok(game)
    }
}

/// Stones in the middle three columns count, the centre twice.
#[derive(Clone, Copy, Debug)]
struct CentreControl;

impl Evaluator<ConnectThree> for CentreControl {
    fn value(&self, state: &ConnectThree) -> f32 {
        if let Some(outcome) = state.outcome() {
            return outcome.reward(state.to_move());
        }
        let weight = [0.0, 1.0, 2.0, 1.0, 0.0];
        let score: f32 = state
            .cells
            .iter()
            .enumerate()
            .filter_map(|(cell, owner)| owner.map(|owner| (weight[cell % COLS], owner)))
            .map(|(w, owner)| if owner == state.to_move { w } else { -w })
            .sum();
        (score / 8.0).tanh()
    }
}

/// What the tools need: knowledge for the searchers, text for people.
impl RegistryGame for ConnectThree {
    const NAME: &'static str = "connect3";
    const SUMMARY: &'static str = "Connect Three on 5x4 (this example); moves are columns 0..4";

    type RandomPlayout = UniformPlayout;
    type HeuristicPlayout = UniformPlayout;
    type Evaluator = CentreControl;
    type Policy = UniformPrior<CentreControl>;

    fn start() -> Self {
        ConnectThree::new()
    }
    fn random_playout() -> UniformPlayout {
        UniformPlayout
    }
    fn heuristic_playout() -> UniformPlayout {
        UniformPlayout
    }
    fn evaluator() -> CentreControl {
        CentreControl
    }
    fn policy() -> UniformPrior<CentreControl> {
        UniformPrior(CentreControl)
    }
    fn max_plies() -> usize {
        COLS * ROWS
    }
    fn parse_move(&self, text: &str) -> Result<u8, InputError> {
        text.parse::<u8>()
            .ok()
            .filter(|&col| usize::from(col) < COLS)
            .ok_or_else(|| InputError::BadMove {
                text: text.to_string(),
                reason: "expected a column 0..4".to_string(),
            })
    }
    fn move_text(col: u8) -> String {
        col.to_string()
    }
    fn parse_position(text: &str) -> Result<Self, InputError> {
        text.parse().map_err(|reason| InputError::BadPosition {
            text: text.to_string(),
            reason,
        })
    }
    fn position_text(&self) -> String {
        self.to_string()
    }
    fn draw(&self, _last: Option<u8>) -> String {
        self.to_string().replace('/', "\n") + "\n01234\n"
    }
    fn record(_start: &Self, moves: &[u8]) -> String {
        moves.iter().map(u8::to_string).collect()
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "custom_game",
    about = "Your own game through the harness and every searcher"
)]
struct Cli {
    /// Games per pairing (each opening with both colours).
    #[arg(short = 'n', long, default_value_t = 6)]
    games: u32,
    /// Games played at the same time.
    #[arg(short = 'j', long, default_value_t = 2)]
    threads: usize,
    /// Seed of the openings and the searchers.
    #[arg(long, default_value_t = 3)]
    seed: u64,
}

fn main() {
    let args: Cli = cli::parse();
    println!("1. The invariant harness of game-traits (random games, shrunk on failure):");
    Invariants::new(ConnectThree::new(), COLS * ROWS)
        .text()
        .action_space()
        .evaluator(CentreControl)
        .expect_outcome([2, 2, 1, 1, 3], Some(Outcome::Win(Player::First)))
        .assert();
    println!("   rules, text round trip, action space and evaluator: all invariants hold.\n");

    let searchers: Vec<String> = SEARCHERS
        .iter()
        .filter(|info| info.name != "solver")
        .map(|info| match info.name {
            "uct" | "rave" => format!("{}:iters=2000", info.name),
            "gumbel" | "puct" => format!("{}:iters=100", info.name),
            "minimax" => "minimax:depth=4".to_string(),
            name => name.to_string(),
        })
        .collect();
    let header = Header {
        version: FORMAT_VERSION,
        game: ConnectThree::NAME.to_string(),
        searchers,
        pairing: Pairing::RoundRobin,
        games_per_pair: args.games.max(1).next_multiple_of(2),
        opening_plies: 1,
        book: Vec::new(),
        adjudication: Default::default(),
        seed: args.seed,
        sprt: None,
        shard: None,
    };
    println!(
        "2. Every searcher of the registry on it (settings in the table; openings of 1 random ply):\n"
    );
    let games = play(
        &GameSetup::<ConnectThree>::new(),
        &header,
        &[],
        args.threads,
        &|_| {},
    )
    .unwrap_or_else(|error| {
        eprintln!("error: {error}");
        std::process::exit(1);
    });
    println!("{}", Summary::new(&header, &games));
}
