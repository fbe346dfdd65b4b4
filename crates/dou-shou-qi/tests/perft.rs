//! Perft against the reference numbers of `tests/data/perft.tsv` and
//! `tests/data/perft_variants.tsv` (rules text section 7).

use dou_shou_qi::{Jungle, Rules};
use game_traits::{ColorFlip, perft_sequences};

struct Row {
    rules: Rules,
    fen: String,
    depth: u32,
    count: u64,
}

/// Reads a perft table: `variant` (optional, `name=value`), `fen`,
/// `side_to_move`, `depth`, `count` columns, with `#` comments.
fn load(path: &str) -> Vec<Row> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{path}: {error}"));
    let mut lines = text.lines().filter(|line| !line.starts_with('#'));
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let column = |name: &str| header.iter().position(|&h| h == name);
    let fen_column = column("fen").expect("a fen column");
    let depth_column = column("depth").expect("a depth column");
    let count_column = column("count").expect("a count column");
    let side_column = column("side_to_move").expect("a side column");
    let variant_column = column("variant");
    lines
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let mut rules = Rules::default().without_draws();
            if let Some(column) = variant_column {
                let (name, value) = fields[column].split_once('=').expect("name=value");
                rules.apply_switch(name, value).expect("a known switch");
            }
            let fen = fields[fen_column].to_string();
            assert_eq!(
                fen.split_whitespace().nth(1),
                Some(fields[side_column]),
                "side column agrees with the position"
            );
            Row {
                rules,
                fen,
                depth: fields[depth_column].parse().expect("a depth"),
                count: fields[count_column].parse().expect("a count"),
            }
        })
        .collect()
}

fn check(rows: &[Row], max_depth: u32, generic_max_depth: u32) -> usize {
    let mut checked = 0;
    for row in rows.iter().filter(|row| row.depth <= max_depth) {
        let position = Jungle::from_fen(&row.fen, row.rules).expect("a valid position");
        assert_eq!(
            position.perft_ignoring_draws(row.depth),
            row.count,
            "fast perft {} depth {} [{}]",
            row.fen,
            row.depth,
            row.rules
        );
        // The flipped position has the mirrored tree.
        assert_eq!(
            position.color_flipped().perft_ignoring_draws(row.depth),
            row.count,
            "flipped {}",
            row.fen
        );
        if row.depth <= generic_max_depth {
            assert_eq!(
                perft_sequences(&position, row.depth),
                row.count,
                "game_traits::perft_sequences {} depth {} [{}]",
                row.fen,
                row.depth,
                row.rules
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn standard_perft_matches_the_table_up_to_depth_5() {
    let rows = load("tests/data/perft.tsv");
    assert_eq!(rows.len(), 14);
    assert_eq!(check(&rows, 5, 4), 13);
}

#[test]
fn every_variant_row_matches() {
    let rows = load("tests/data/perft_variants.tsv");
    assert_eq!(rows.len(), 104);
    assert_eq!(check(&rows, 5, 3), 104);
}

/// Depth 6 from the start: 100,453,636 leaves. Run with
/// `cargo test -p dou-shou-qi --release -- --ignored`.
#[test]
#[ignore = "slow in the test profile; run with --release -- --ignored"]
fn standard_perft_depth_6() {
    let rows = load("tests/data/perft.tsv");
    let row = rows
        .iter()
        .find(|row| row.depth == 6)
        .expect("a depth-6 row");
    let position = Jungle::from_fen(&row.fen, row.rules).unwrap();
    assert_eq!(position.perft_ignoring_draws(6), row.count);
    assert_eq!(row.count, 100_453_636);
}

#[test]
fn divide_sums_to_perft_and_draw_rules_are_ignored() {
    let start = Jungle::new();
    let parts = start.divide(3);
    assert_eq!(parts.len(), 24);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 12_240);
    // A position at the no-capture limit is drawn in play, but perft ignores it.
    let drawn: Jungle = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 100 51"
        .parse()
        .unwrap();
    assert_eq!(drawn.count_moves(), 0);
    assert_eq!(drawn.perft_ignoring_draws(2), 576);
}
