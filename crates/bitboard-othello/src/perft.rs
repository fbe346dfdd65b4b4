//! A specialised perft on the bitboards, for testing and benchmarking the
//! move generator.

use game_traits::FinishedGames;

use crate::movegen::{Bits, flips, mobility};
use crate::{Board, Move, Square};

/// Perft with the standard Othello convention: a pass is one ply, and a
/// finished game is a leaf that counts 1 at every remaining depth
/// ([`FinishedGames::CountOne`]). From the start position: 4, 12, 56, 244,
/// 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800, ...
///
/// Equal to `game_traits::perft_leaves(board, depth)`, but works on raw
/// bitboards and counts the last ply by the popcount of the mobility mask.
#[must_use]
pub fn perft_leaves(board: &Board, depth: u32) -> u64 {
    perft_with(board, depth, FinishedGames::CountOne)
}

/// Perft with Edax's convention: move sequences of exactly `depth` plies,
/// a finished game reached earlier counting 0
/// ([`FinishedGames::CountZero`]). It first differs from
/// [`perft_leaves`] at depth 10 from the start. Equal to
/// `game_traits::perft_sequences(board, depth)`.
#[must_use]
pub fn perft_sequences(board: &Board, depth: u32) -> u64 {
    perft_with(board, depth, FinishedGames::CountZero)
}

/// Perft with the given convention for finished games.
#[must_use]
pub fn perft_with(board: &Board, depth: u32, finished: FinishedGames) -> u64 {
    let finished_count = match finished {
        FinishedGames::CountZero => 0,
        FinishedGames::CountOne => 1,
    };
    count(board.player(), board.opponent(), depth, finished_count)
}

/// Perft of each root move, in [`Game::legal_moves`](game_traits::Game::legal_moves)
/// order (a single `pass` when the side to move must pass); the counts sum
/// to `perft_with(board, depth, finished)` unless the root is finished.
/// Empty at depth 0 or at a finished root.
#[must_use]
pub fn divide(board: &Board, depth: u32, finished: FinishedGames) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let finished_count = match finished {
        FinishedGames::CountZero => 0,
        FinishedGames::CountOne => 1,
    };
    let (player, opponent) = (board.player(), board.opponent());
    let moves = mobility(player, opponent);
    if moves == 0 {
        if mobility(opponent, player) == 0 {
            return Vec::new();
        }
        return vec![(
            Move::Pass,
            count(opponent, player, depth - 1, finished_count),
        )];
    }
    Square::in_bitboard(moves)
        .map(|square| {
            let flipped = flips(square.index(), player, opponent);
            let child = count(
                opponent ^ flipped,
                player ^ flipped ^ square.bit(),
                depth - 1,
                finished_count,
            );
            (Move::Place(square), child)
        })
        .collect()
}

/// `finished_count` is what a finished game reached before the last ply
/// counts.
fn count(player: u64, opponent: u64, depth: u32, finished_count: u64) -> u64 {
    crate::dispatch::perft_count(player, opponent, depth, finished_count)
}

/// One node of perft, calling `recurse(player, opponent, depth)` for its
/// children and `flips` for the discs a move turns (the functions of the
/// instruction set in use, see `crate::dispatch`).
#[inline(always)]
pub(crate) fn count_node(
    player: u64,
    opponent: u64,
    depth: u32,
    finished_count: u64,
    flips: impl Fn(usize, u64, u64) -> u64,
    recurse: impl Fn(u64, u64, u32) -> u64,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = mobility(player, opponent);
    if moves == 0 {
        if depth == 1 && finished_count == 1 {
            // A pass and a finished game both count 1 here.
            return 1;
        }
        if mobility(opponent, player) == 0 {
            return finished_count;
        }
        return recurse(opponent, player, depth - 1);
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let mut total = 0;
    for square in Bits(moves) {
        let flipped = flips(square, player, opponent);
        total += recurse(
            opponent ^ flipped,
            player ^ flipped ^ (1 << square),
            depth - 1,
        );
    }
    total
}
