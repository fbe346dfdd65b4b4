//! The positions the benches, the node-count tests and the comparison with
//! the `minimax` crate search: seeded random mid-games of Othello and
//! Jungle. Included by path (`#[path = ...] mod positions;`).

#![allow(dead_code, unreachable_pub)]

use bitboard_othello::Board;
use dou_shou_qi::Jungle;
use game_traits::testing::random_midgames;

/// `count` Othello positions reached by `plies` random plies each (game
/// `i` seeded `seed + i`, with one more ply every second game), none
/// finished: mid-games for `plies` around 20 to 30.
pub fn othello_midgames(count: usize, plies: usize, seed: u64) -> Vec<Board> {
    random_midgames(&Board::start(), count, plies, seed)
}

/// The eight Othello mid-games (34 to 38 empty squares) every Othello
/// speed figure uses.
pub fn othello_eight() -> Vec<Board> {
    othello_midgames(8, 24, 2026)
}

/// `count` Jungle positions reached by random plies from the start
/// (standard rules), none finished.
pub fn jungle_midgames(count: usize, plies: usize, seed: u64) -> Vec<Jungle> {
    random_midgames(&Jungle::new(), count, plies, seed)
}

/// The eight Jungle mid-games every Jungle speed figure uses.
pub fn jungle_eight() -> Vec<Jungle> {
    jungle_midgames(8, 30, 2026)
}
