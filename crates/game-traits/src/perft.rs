//! Perft: counting the leaves of the game tree to a fixed depth, the first
//! test of every move generator.

use crate::Game;

/// How a game that ends before the last ply is counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FinishedGames {
    /// A finished game has no moves, so it counts 0 at every remaining
    /// depth: perft counts move sequences of exactly `depth` plies. This is
    /// the chess (and Jungle) convention.
    #[default]
    CountZero,
    /// A finished game is a leaf of its own and counts 1 at every remaining
    /// depth. This is the standard Othello table's convention.
    CountOne,
}

/// Perft as chess counts it: the number of move sequences of exactly
/// `depth` plies from `state` (`perft_sequences(state, 0) == 1`; a game
/// that ends earlier counts 0, [`FinishedGames::CountZero`]).
///
/// The last ply is counted by the length of the move list, without playing
/// the moves. [`perft_leaves`] is the other convention.
pub fn perft_sequences<G: Game>(state: &G, depth: u32) -> u64 {
    perft_with(state, depth, FinishedGames::CountZero)
}

/// Perft as the standard Othello table counts it: the number of leaves of
/// the game tree cut at `depth` plies, where a game that ends earlier is a
/// leaf of its own and counts 1 ([`FinishedGames::CountOne`]).
pub fn perft_leaves<G: Game>(state: &G, depth: u32) -> u64 {
    perft_with(state, depth, FinishedGames::CountOne)
}

/// Perft with the given convention for games that end before the last ply.
pub fn perft_with<G: Game>(state: &G, depth: u32, finished: FinishedGames) -> u64 {
    let mut buffers = vec![Vec::new(); depth as usize];
    count(state, depth, finished, &mut buffers)
}

/// Perft of each root move: pairs `(move, perft(child, depth - 1))` in the
/// order of [`Game::legal_moves`]. The counts sum to
/// `perft_with(state, depth, finished)` whenever the root is not finished.
/// Empty for `depth == 0` or a finished root.
pub fn divide<G: Game>(state: &G, depth: u32, finished: FinishedGames) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut buffers = vec![Vec::new(); depth as usize - 1];
    moves
        .into_iter()
        .map(|mv| {
            let mut child = state.clone();
            child.play(mv);
            (mv, count(&child, depth - 1, finished, &mut buffers))
        })
        .collect()
}

/// `buffers` holds one reusable move list per remaining ply.
fn count<G: Game>(
    state: &G,
    depth: u32,
    finished: FinishedGames,
    buffers: &mut [Vec<G::Move>],
) -> u64 {
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return 1;
    };
    state.legal_moves(moves);
    if moves.is_empty() {
        return match finished {
            FinishedGames::CountZero => 0,
            FinishedGames::CountOne => 1,
        };
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = state.clone();
        child.play(mv);
        total += count(&child, depth - 1, finished, deeper);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Nim, TicTacToe};

    #[test]
    fn tic_tac_toe_matches_the_known_counts() {
        // Known: 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872, and
        // 255168 complete games.
        let expected = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(
                perft_sequences(&TicTacToe::new(), depth as u32),
                count,
                "depth {depth}"
            );
        }
        assert_eq!(perft_sequences(&TicTacToe::new(), 10), 0);
        // Every finished game counted once at depth 9: the number of games.
        assert_eq!(perft_leaves(&TicTacToe::new(), 9), 255_168);
    }

    #[test]
    fn divide_sums_to_perft() {
        let game = Nim::new(&[3, 4, 5]);
        for depth in 1..5 {
            for finished in [FinishedGames::CountZero, FinishedGames::CountOne] {
                let parts = divide(&game, depth, finished);
                let sum: u64 = parts.iter().map(|(_, n)| n).sum();
                assert_eq!(sum, perft_with(&game, depth, finished));
            }
        }
    }
}
