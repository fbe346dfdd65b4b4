//! The pentanomial statistics of `game_arena::stats` against the values of
//! `tests/data/pentanomial_reference.py` (an independent computation from
//! the published formulas), saved in `tests/data/pentanomial_reference.tsv`.

use game_arena::stats::{Pentanomial, Sprt, SprtModel};
use game_traits::Tally;

const REFERENCE: &str = include_str!("data/pentanomial_reference.tsv");

/// Whether `actual` is `expected` to 1e-9 (absolute below 1, relative
/// above), the same infinity, or both not numbers.
fn agrees(actual: f64, expected: f64) -> bool {
    if expected.is_nan() {
        return actual.is_nan();
    }
    if expected.is_infinite() {
        return actual == expected;
    }
    (actual - expected).abs() <= 1e-9 * expected.abs().max(1.0)
}

#[test]
fn pentanomial_statistics_match_the_reference_computation() {
    let mut lines = REFERENCE.lines();
    let columns: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    let column = |name: &str| {
        columns
            .iter()
            .position(|&c| c == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let mut rows = 0;
    for line in lines.filter(|line| !line.trim().is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), columns.len(), "{line}");
        let number = |name: &str| -> f64 {
            fields[column(name)]
                .parse()
                .unwrap_or_else(|_| panic!("{name} in {line}"))
        };
        let count = |name: &str| -> u32 { fields[column(name)].parse().unwrap() };
        let counts = Pentanomial {
            counts: ["ll", "ld", "dd_wl", "wd", "ww"].map(count),
        };
        let (elo0, elo1) = (number("elo0"), number("elo1"));
        let elo = counts.elo();
        let sprt = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap();
        let llr = |model| sprt.with_model(model).llr(&Tally::default(), &counts);
        let checks = [
            ("score", elo.score),
            ("variance", elo.variance),
            ("elo", elo.elo),
            ("elo_low", elo.low),
            ("elo_high", elo.high),
            ("elo_error", elo.error),
            ("nelo", elo.nelo),
            ("nelo_error", elo.nelo_error),
            ("llr_normalized", llr(SprtModel::Pentanomial)),
            ("llr_logistic", llr(SprtModel::PentanomialLogistic)),
        ];
        for (name, actual) in checks {
            let expected = number(name);
            assert!(
                agrees(actual, expected),
                "{} {:?} [{elo0}, {elo1}]: {name} is {actual}, the reference says {expected}",
                fields[0],
                counts.counts
            );
        }
        rows += 1;
    }
    assert!(rows >= 10, "only {rows} rows");
}
