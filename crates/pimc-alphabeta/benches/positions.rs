//! The positions the benches, the node-count tests and the comparison with
//! the `minimax` crate search: seeded random mid-games of Othello and
//! Jungle. Included by path (`#[path = ...] mod positions;`).

#![allow(dead_code, unreachable_pub)]

use bitboard_othello::Board;
use game_traits::Game;
use jungle::Jungle;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// `count` Othello positions reached by `plies` random plies each (game
/// `i` seeded `seed + i`, with one more ply every second game), none
/// finished: mid-games for `plies` around 20 to 30.
pub fn othello_midgames(count: usize, plies: usize, seed: u64) -> Vec<Board> {
    random_positions(&Board::start(), count, plies, seed)
}

/// The eight Othello mid-games (34 to 38 empty squares) every Othello
/// speed figure uses.
pub fn othello_eight() -> Vec<Board> {
    othello_midgames(8, 24, 2026)
}

/// `count` Jungle positions reached by random plies from the start
/// (standard rules), none finished.
pub fn jungle_midgames(count: usize, plies: usize, seed: u64) -> Vec<Jungle> {
    random_positions(&Jungle::new(), count, plies, seed)
}

/// The eight Jungle mid-games every Jungle speed figure uses.
pub fn jungle_eight() -> Vec<Jungle> {
    jungle_midgames(8, 30, 2026)
}

fn random_positions<G: Game>(start: &G, count: usize, plies: usize, seed: u64) -> Vec<G> {
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    let mut attempt = 0u64;
    while positions.len() < count {
        let mut rng = Pcg64Mcg::seed_from_u64(seed + attempt);
        attempt += 1;
        let mut state = start.clone();
        let length = plies + positions.len() % 2;
        for _ in 0..length {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state.play(moves[rng.random_range(..moves.len())]);
        }
        if !state.is_over() {
            positions.push(state);
        }
    }
    positions
}
