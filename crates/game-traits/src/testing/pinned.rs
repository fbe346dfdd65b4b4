//! Pinned reports: a searcher's output for fixed seeds and budgets, kept
//! in a text file, so that a change that alters any search shows up.

/// Checks `cases` (name, report line) against `pinned`, one `name: line`
/// per non-empty line, in order. With the environment variable
/// `write_variable` set, prints the current lines in that form instead of
/// checking them, to refresh the file after an intended change.
///
/// # Panics
///
/// When the number of cases or any line differs from the pinned one.
pub fn assert_matches_pinned(cases: &[(String, String)], pinned: &str, write_variable: &str) {
    if std::env::var_os(write_variable).is_some() {
        for (name, line) in cases {
            println!("{name}: {line}");
        }
        return;
    }
    let expected: Vec<&str> = pinned.lines().filter(|line| !line.is_empty()).collect();
    assert_eq!(expected.len(), cases.len(), "number of pinned cases");
    for ((name, line), pinned) in cases.iter().zip(expected) {
        let current = format!("{name}: {line}");
        assert_eq!(
            current, pinned,
            "case {name} differs from its pinned report"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cases() -> Vec<(String, String)> {
        vec![
            ("a".to_string(), "best 1".to_string()),
            ("b".to_string(), "best 2".to_string()),
        ]
    }

    #[test]
    fn equal_reports_pass() {
        assert_matches_pinned(
            &cases(),
            "a: best 1\n\nb: best 2\n",
            "PINNED_TEST_NEVER_SET",
        );
    }

    #[test]
    #[should_panic(expected = "case b differs")]
    fn a_changed_report_fails() {
        assert_matches_pinned(&cases(), "a: best 1\nb: best 3\n", "PINNED_TEST_NEVER_SET");
    }

    #[test]
    #[should_panic(expected = "number of pinned cases")]
    fn a_missing_case_fails() {
        assert_matches_pinned(&cases(), "a: best 1\n", "PINNED_TEST_NEVER_SET");
    }
}
