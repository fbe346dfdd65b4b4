//! The ten positions of Rapfi's `bench` command (rule, board size, moves
//! from the empty board as one string of coordinates such as
//! `h8g7f6`), for measuring our search beside it on the same positions.

use game_traits::Game;
use gomoku_renju::{Focused, Gomoku, Move, Rule};

/// Rule, board size and the moves played, Black first.
pub(crate) const RAPFI_BENCH: [(Rule, usize, &str); 10] = [
    (Rule::Freestyle, 15, "h8g7f6g8g9"),
    (Rule::Freestyle, 15, "h2h5h4f6"),
    (Rule::Freestyle, 20, "e2f2h3g3g6h5f9"),
    (
        Rule::Freestyle,
        20,
        "f5e3b7h5g3g4i6e4h4d4f2i5f4f6e5d6d7e7f8",
    ),
    (Rule::Standard, 15, "h8h7j6i7f7"),
    (Rule::Standard, 15, "f6i9h8"),
    (Rule::Standard, 15, "b3k10g2f6"),
    (Rule::Renju, 15, "h8i9j10i8i7g9"),
    (
        Rule::Renju,
        15,
        "h8h9j9j8f8i7g7i9h6e9f6k7l6i10i6f9g9g11h10i11i8",
    ),
    (Rule::Renju, 15, "h8h9h6i10i6i9g9g8j11i7"),
];

/// The moves of a string of coordinates, each a column letter and a row
/// number (`h8g7` is h8 then g7).
pub(crate) fn moves(text: &str) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest[1..]
            .find(|c: char| c.is_ascii_alphabetic())
            .map_or(rest.len(), |at| at + 1);
        moves.push(rest[..end].parse().expect("a coordinate"));
        rest = &rest[end..];
    }
    moves
}

/// The ten positions, on the focused move generator.
pub(crate) fn positions() -> Vec<Focused> {
    RAPFI_BENCH
        .iter()
        .map(|&(rule, size, text)| {
            let mut game = Gomoku::with_size(size, rule).expect("a supported size");
            for mv in moves(text) {
                game.try_play(mv).expect("a legal move");
            }
            Focused::new(game)
        })
        .collect()
}
