//! Conformance with the reference implementation (mctx 0.0.71,
//! `gumbel_muzero_policy`, float64) on explicit game trees: every case of
//! `tests/data/expected_*.json` is replayed with its injected root noise.

use std::path::Path;
use std::sync::Arc;

use game_traits::testing::{ExplicitTree, TreeEvaluator, TreeGame, TreeNode};
use game_traits::{Game, Limits, Player};
use gumbel_az::{CompletedQ, GumbelAnalysis, GumbelAz, GumbelConfig};
use serde::Deserialize;

#[derive(Deserialize)]
struct TreeFile {
    format: String,
    num_actions: usize,
    root: usize,
    nodes: Vec<JsonNode>,
}

#[derive(Deserialize)]
struct JsonNode {
    id: usize,
    player: u8,
    terminal: bool,
    #[serde(default)]
    outcome: Option<f64>,
    #[serde(default)]
    value: Option<f64>,
    #[serde(default)]
    prior_logits: Option<Vec<Option<f64>>>,
    #[serde(default)]
    children: Option<Vec<Option<u32>>>,
}

#[derive(Deserialize)]
struct ExpectedFile {
    format: String,
    tree_file: String,
    mctx_version: String,
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    id: String,
    group: String,
    num_simulations: u64,
    max_num_considered_actions: usize,
    gumbel_scale: f64,
    gumbel: Vec<f64>,
    qtransform: QTransform,
    expected: Expected,
}

#[derive(Deserialize)]
struct QTransform {
    c_visit: f64,
    c_scale: f64,
    rescale_values: bool,
    use_mixed_value: bool,
    epsilon: f64,
}

#[derive(Deserialize)]
struct Expected {
    root_visit_counts: Vec<u32>,
    selected_action: usize,
    action_weights: Vec<f64>,
    completed_qvalues: Vec<f64>,
    completed_q_unscaled: Vec<f64>,
    v_mix: f64,
    root_qvalues: Vec<Option<f64>>,
    root_value: f64,
    num_considered: usize,
    considered_visit_sequence: Vec<u32>,
    simulation_paths: Vec<Vec<usize>>,
    simulation_leaf_ids: Vec<u32>,
    gumbel_used: Vec<f64>,
}

fn read(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The JSON tree as an `ExplicitTree` (node ids are kept: node `i` is
/// `nodes[i]`, the root is node 0).
fn load_tree(name: &str) -> Arc<ExplicitTree> {
    let file: TreeFile = serde_json::from_str(&read(name)).unwrap();
    assert_eq!(file.format, "gumbel-oracle-tree/1");
    assert_eq!(file.root, 0);
    let player = |p: u8| {
        if p == 0 {
            Player::First
        } else {
            Player::Second
        }
    };
    let nodes = file
        .nodes
        .iter()
        .enumerate()
        .map(|(index, node)| {
            assert_eq!(node.id, index);
            if node.terminal {
                return TreeNode::terminal(player(node.player), node.outcome.unwrap() as f32);
            }
            let logits = node.prior_logits.as_ref().unwrap();
            let children = node.children.clone().unwrap();
            for (logit, child) in logits.iter().zip(&children) {
                assert_eq!(logit.is_none(), child.is_none(), "node {index}");
            }
            TreeNode::inner(
                player(node.player),
                node.value.unwrap() as f32,
                children,
                logits.iter().map(|l| l.unwrap_or(0.0) as f32).collect(),
            )
        })
        .collect();
    Arc::new(ExplicitTree::new(file.num_actions, nodes).unwrap())
}

fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance
}

/// Every difference between our search and the reference case.
fn compare(
    tree: &Arc<ExplicitTree>,
    case: &Case,
    ours: &GumbelAnalysis<usize>,
    failures: &mut Vec<String>,
) {
    let expected = &case.expected;
    let mut fail = |what: String| failures.push(format!("{}: {what}", case.id));
    let legal: Vec<bool> = tree.nodes()[0]
        .children
        .iter()
        .map(Option::is_some)
        .collect();
    if ours.visits != expected.root_visit_counts {
        fail(format!(
            "visits {:?}, reference {:?}",
            ours.visits, expected.root_visit_counts
        ));
    }
    if ours.action != Some(expected.selected_action) {
        fail(format!(
            "action {:?}, reference {}",
            ours.action, expected.selected_action
        ));
    }
    if ours.paths != expected.simulation_paths {
        let first = ours
            .paths
            .iter()
            .zip(&expected.simulation_paths)
            .position(|(a, b)| a != b);
        fail(format!(
            "paths differ from simulation {first:?}: ours {:?}, reference {:?}",
            ours.paths, expected.simulation_paths
        ));
    }
    // The paths end at the node the reference evaluated (or the finished
    // position it reached).
    let leaves: Vec<u32> = ours
        .paths
        .iter()
        .map(|path| {
            let mut game: TreeGame = tree.root();
            for &action in path {
                game.play(action);
            }
            game.node_index()
        })
        .collect();
    if leaves != expected.simulation_leaf_ids {
        fail(format!(
            "leaves {leaves:?}, reference {:?}",
            expected.simulation_leaf_ids
        ));
    }
    if ours.num_considered != expected.num_considered {
        fail(format!(
            "m = {}, reference {}",
            ours.num_considered, expected.num_considered
        ));
    }
    if ours.considered_visits != expected.considered_visit_sequence {
        fail(format!(
            "schedule {:?}, reference {:?}",
            ours.considered_visits, expected.considered_visit_sequence
        ));
    }
    for (action, &legal) in legal.iter().enumerate() {
        let weight = ours.improved_policy[action];
        if !close(weight, expected.action_weights[action], 1e-5) {
            fail(format!(
                "improved policy[{action}] {weight}, reference {}",
                expected.action_weights[action]
            ));
        }
        if !legal && weight != 0.0 {
            fail(format!(
                "improved policy[{action}] {weight} on an illegal action"
            ));
        }
        // Illegal entries are the reference's sigma(v_mix) filler; ours is
        // computed the same way, so every entry is compared.
        let sigma = ours.completed_q[action];
        if !close(sigma, expected.completed_qvalues[action], 1e-5) {
            fail(format!(
                "completed Q[{action}] {sigma}, reference {} (legal: {})",
                expected.completed_qvalues[action], legal
            ));
        }
        let unscaled = ours.completed_q_unscaled[action];
        if !close(unscaled, expected.completed_q_unscaled[action], 1e-6) {
            fail(format!(
                "unscaled completed Q[{action}] {unscaled}, reference {}",
                expected.completed_q_unscaled[action]
            ));
        }
        match (ours.q_values[action], expected.root_qvalues[action]) {
            (None, None) => {}
            (Some(a), Some(b)) if close(a, b, 1e-6) => {}
            (a, b) => fail(format!("Q[{action}] {a:?}, reference {b:?}")),
        }
        if legal && ours.noise[action] != expected.gumbel_used[action] {
            fail(format!(
                "noise[{action}] {}, reference {}",
                ours.noise[action], expected.gumbel_used[action]
            ));
        }
    }
    if !close(ours.mixed_value, expected.v_mix, 1e-6) {
        fail(format!(
            "v_mix {}, reference {}",
            ours.mixed_value, expected.v_mix
        ));
    }
    if !close(ours.root_value, expected.root_value, 1e-6) {
        fail(format!(
            "root value {}, reference {}",
            ours.root_value, expected.root_value
        ));
    }
}

fn check_tree(tree_name: &str, expected_name: &str) {
    let tree = load_tree(tree_name);
    let file: ExpectedFile = serde_json::from_str(&read(expected_name)).unwrap();
    assert_eq!(file.format, "gumbel-oracle-expected/1");
    assert_eq!(file.tree_file, tree_name);
    assert_eq!(file.mctx_version, "0.0.71");
    assert_eq!(file.cases.len(), 54);
    let mut failures = Vec::new();
    let mut groups = std::collections::BTreeMap::new();
    for case in &file.cases {
        *groups.entry(case.group.as_str()).or_insert(0) += 1;
        let q = &case.qtransform;
        let config = GumbelConfig::default()
            .with_max_considered_actions(case.max_num_considered_actions)
            .with_gumbel_scale(case.gumbel_scale)
            .with_completed_q(
                CompletedQ::default()
                    .with_c_visit(q.c_visit)
                    .with_c_scale(q.c_scale)
                    .with_rescale_values(q.rescale_values)
                    .with_use_mixed_value(q.use_mixed_value)
                    .with_epsilon(q.epsilon),
            )
            .with_record_paths(true);
        let mut searcher = GumbelAz::new(TreeEvaluator, config).unwrap();
        let ours = searcher
            .analyse_with_noise(
                &tree.root(),
                &Limits::iterations(case.num_simulations),
                &case.gumbel,
            )
            .unwrap();
        assert_eq!(ours.report.stats.iterations, case.num_simulations);
        compare(&tree, case, &ours, &mut failures);
    }
    // Every group of the data was exercised, the optional variants too.
    assert_eq!(
        groups.into_iter().collect::<Vec<_>>(),
        [("cparams", 8), ("grid", 21), ("gumbel", 21), ("variant", 4)]
    );
    assert!(
        failures.is_empty(),
        "{} mismatches, first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}

#[test]
fn small_tree_matches_the_reference() {
    check_tree("tree_small.json", "expected_small.json");
}

#[test]
fn sanity_tree_matches_the_reference() {
    check_tree("tree_sanity.json", "expected_sanity.json");
}

#[test]
fn forced_tree_matches_the_reference() {
    check_tree("tree_forced.json", "expected_forced.json");
}

#[test]
fn wide_tree_matches_the_reference() {
    check_tree("tree_wide.json", "expected_wide.json");
}

/// The search is the same when it keeps the evaluated subtree of a move
/// played (Gumbel reuse keeps evaluations, never statistics).
#[test]
fn reuse_does_not_change_the_search() {
    let tree = load_tree("tree_wide.json");
    let config = GumbelConfig::default()
        .with_gumbel_scale(0.0)
        .with_record_paths(true);
    let mut reusing = GumbelAz::new(TreeEvaluator, config.clone()).unwrap();
    let mut root = tree.root();
    let first = reusing.analyse(&root, &Limits::iterations(64));
    let action = first.action.unwrap();
    game_traits::Searcher::advance(&mut reusing, action);
    root.play(action);
    let again = reusing.analyse(&root, &Limits::iterations(48));
    let mut fresh = GumbelAz::new(TreeEvaluator, config.with_reuse_tree(false)).unwrap();
    let expected = fresh.analyse(&root, &Limits::iterations(48));
    assert_eq!(again.visits, expected.visits);
    assert_eq!(again.paths, expected.paths);
    assert_eq!(again.improved_policy, expected.improved_policy);
    assert_eq!(again.root_value, expected.root_value);
    // The kept subtree saved evaluations: the new root was evaluated before.
    assert!(again.report.stats.nodes >= expected.report.stats.nodes);
}
