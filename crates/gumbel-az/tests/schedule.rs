//! The Sequential Halving schedule against the reference's
//! (`get_sequence_of_considered_visits`, mctx 0.0.71) for 432 pairs.

use gumbel_az::{ConsideredVisits, considered_visit_sequence};
use serde::Deserialize;

#[derive(Deserialize)]
struct ScheduleFile {
    format: String,
    mctx_version: String,
    cases: Vec<ScheduleCase>,
}

#[derive(Deserialize)]
struct ScheduleCase {
    m: usize,
    n: u64,
    sequence: Vec<u32>,
}

#[test]
fn schedule_matches_the_reference_on_every_pair() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/expected_schedule.json"
    );
    let file: ScheduleFile = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(file.format, "gumbel-oracle-schedule/1");
    assert_eq!(file.mctx_version, "0.0.71");
    assert_eq!(file.cases.len(), 432);
    let mut mismatches = Vec::new();
    for case in &file.cases {
        let ours = considered_visit_sequence(case.m, case.n).unwrap();
        if ours != case.sequence {
            mismatches.push(format!(
                "m={} n={}: ours {ours:?}, reference {:?}",
                case.m, case.n, case.sequence
            ));
        }
        assert_eq!(ConsideredVisits::new(case.m, case.n).len(), case.n as usize);
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}
