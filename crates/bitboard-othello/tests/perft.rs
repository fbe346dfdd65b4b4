//! Perft against the reference table `tests/data/perft.tsv` (standard
//! Othello convention: a pass is one ply, a finished game counts 1 at every
//! remaining depth; its last column is Edax's convention).
//!
//! Deep counts are behind `#[ignore]`; run them with
//! `cargo test -p bitboard-othello --release -- --ignored`.

use bitboard_othello::{Board, divide, perft_leaves, perft_with};
use game_traits::FinishedGames;

struct Row {
    board: Board,
    depth: u32,
    count: u64,
    edax: Option<u64>,
}

fn rows() -> Vec<Row> {
    let text = include_str!("data/perft.tsv");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with("board\t"))
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 5, "{line}");
            Row {
                board: format!("{} {}", fields[0], fields[1]).parse().unwrap(),
                depth: fields[2].parse().unwrap(),
                count: fields[3].parse().unwrap(),
                edax: fields[4].parse().ok(),
            }
        })
        .collect()
}

/// Every row whose count is at most `limit`.
fn check_rows(limit: u64) {
    let rows = rows();
    assert_eq!(rows.len(), 36);
    for row in rows.iter().filter(|row| row.count <= limit) {
        assert_eq!(
            perft_leaves(&row.board, row.depth),
            row.count,
            "{} depth {}",
            row.board,
            row.depth
        );
        if let Some(edax) = row.edax {
            assert_eq!(
                perft_with(&row.board, row.depth, FinishedGames::CountZero),
                edax,
                "Edax convention, {} depth {}",
                row.board,
                row.depth
            );
        }
    }
}

#[test]
fn perft_matches_the_table_through_depth_9_from_the_start() {
    check_rows(3_005_288);
    assert_eq!(perft_leaves(&Board::start(), 9), 3_005_288);
}

/// Depth 10 and 11 from the start (both conventions): a few seconds in
/// release mode.
#[test]
#[ignore = "slow: run with --release -- --ignored"]
fn perft_matches_the_table_through_depth_11_from_the_start() {
    check_rows(212_258_800);
}

/// The generic perft of `game-traits`, driving the `Game` implementation
/// (move lists, `play`), agrees with the specialised one.
#[test]
fn generic_perft_agrees() {
    for row in rows().iter().filter(|row| row.count <= 300_000) {
        assert_eq!(
            game_traits::perft_with(&row.board, row.depth, FinishedGames::CountOne),
            row.count,
            "{} depth {}",
            row.board,
            row.depth
        );
        if let Some(edax) = row.edax {
            assert_eq!(game_traits::perft_sequences(&row.board, row.depth), edax);
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    for row in rows().iter().filter(|row| row.count <= 300_000) {
        let parts = divide(&row.board, row.depth, FinishedGames::CountOne);
        assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), row.count);
        let generic = game_traits::divide(&row.board, row.depth, FinishedGames::CountOne);
        assert_eq!(parts, generic);
    }
}
