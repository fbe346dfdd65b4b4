//! serde refuses what the validating constructors refuse: the toy games
//! deserialize through their parsers, explicit trees through
//! `ExplicitTree::new`, random tree shapes through `RandomTree::validate`.
#![cfg(all(feature = "serde", feature = "testing"))]

use game_traits::testing::{
    ExplicitTree, Nim, RandomTree, TicTacToe, TreeError, TreeNode, check_parser_and_serde_agree,
};
use game_traits::{ColorFlip, Game, Player, Tally};
use proptest::prelude::*;
use rand::SeedableRng;

/// Text forms of tic-tac-toe positions reached by random moves, then one
/// character replaced by a character from the alphabet of the format.
fn tic_tac_toe_text() -> impl Strategy<Value = String> {
    let reached = (prop::collection::vec(0u8..9, 0..9), 0usize..12, 0usize..8).prop_map(
        |(squares, position, replacement)| {
            let mut game = TicTacToe::new();
            for square in squares {
                if game.is_legal(square) {
                    game.play(square);
                }
            }
            let mut text: Vec<char> = game.to_string().chars().collect();
            if position < text.len() {
                text[position] = ['x', 'o', '.', '-', 'X', ' ', 'z', '1'][replacement];
            }
            text.into_iter().collect()
        },
    );
    prop_oneof![reached, "[xoXO.\\- z]{0,13}"]
}

fn nim_text() -> impl Strategy<Value = String> {
    let valid = (
        prop::collection::vec(0u8..=15, 1..=8),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(heaps, second, extra)| {
            let mut game = if extra {
                Nim::with_extra_turns(&heaps)
            } else {
                Nim::new(&heaps)
            };
            if second {
                game = game.color_flipped();
            }
            game.to_string()
        });
    let mutated = (valid.clone(), any::<prop::sample::Index>(), "[0-9,a-z +]").prop_map(
        |(text, position, replacement)| {
            let mut chars: Vec<char> = text.chars().collect();
            let position = position.index(chars.len());
            chars.splice(position..=position, replacement.chars());
            chars.into_iter().collect::<String>()
        },
    );
    prop_oneof![
        valid,
        mutated,
        "(1[0-6]|[0-9])(,(1[0-6]|[0-9])){0,9} [0-3]( extra| misere)?",
        "[0-9, +-]{0,14}( [12a])?( extra)?",
        ".{0,12}",
    ]
}

/// Multiples of 1/256 in `[low, high]`: numbers that JSON carries exactly
/// (serde_json's default float parser may be one ulp off otherwise), with
/// the bounds themselves likely.
fn dyadic(low: f32, high: f32) -> impl Strategy<Value = f32> {
    let steps = ((high - low) * 256.0) as i32;
    prop_oneof![
        1 => Just(low),
        1 => Just(high),
        8 => (0..=steps).prop_map(move |step| low + step as f32 / 256.0),
    ]
}

#[derive(Clone, Debug)]
struct NodeSpec {
    player: bool,
    outcome: Option<f32>,
    value: f32,
    children: Vec<Option<u32>>,
    logits: Vec<f32>,
}

fn node_spec(max_actions: usize) -> impl Strategy<Value = NodeSpec> {
    (
        any::<bool>(),
        prop::option::weighted(0.4, prop::sample::select(vec![-1.0f32, 0.0, 1.0, 0.5, 2.0])),
        prop_oneof![4 => dyadic(-1.0, 1.0), 1 => dyadic(-3.0, 3.0)],
        prop::collection::vec(prop::option::weighted(0.6, 0u32..7), 0..=max_actions + 1),
        prop::collection::vec(dyadic(-3.0, 3.0), 0..=max_actions + 1),
    )
        .prop_map(|(player, outcome, value, children, logits)| NodeSpec {
            player,
            outcome,
            value,
            children,
            logits,
        })
}

fn tree_node(spec: &NodeSpec) -> TreeNode {
    let player = if spec.player {
        Player::First
    } else {
        Player::Second
    };
    let mut node = TreeNode::inner(
        player,
        spec.value,
        spec.children.clone(),
        spec.logits.clone(),
    );
    node.outcome = spec.outcome;
    node
}

/// Node lists made of random nodes: mostly broken.
fn random_nodes() -> impl Strategy<Value = (usize, Vec<TreeNode>)> {
    (0usize..4, prop::collection::vec(node_spec(3), 0..7))
        .prop_map(|(num_actions, specs)| (num_actions, specs.iter().map(tree_node).collect()))
}

/// A small random tree (valid), then with probability 3/4 one change that
/// may or may not break it.
fn mutated_tree() -> impl Strategy<Value = (usize, Vec<TreeNode>)> {
    (
        any::<u64>(),
        0usize..8,
        any::<prop::sample::Index>(),
        0u32..12,
    )
        .prop_map(|(seed, change, node, number)| {
            let shape = RandomTree {
                num_actions: 3,
                max_depth: 3,
                ..RandomTree::default()
            };
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            let tree = ExplicitTree::random(&shape, &mut rng);
            let mut nodes = tree.nodes().to_vec();
            let count = nodes.len();
            let node = &mut nodes[node.index(count)];
            let number_f32 = number as f32 / 4.0 - 1.5;
            match change {
                0 => node.outcome = Some(number_f32),
                1 => node.value = number_f32,
                2 => node.children = vec![Some(number); 3],
                3 => {
                    node.logits.pop();
                }
                4 => {
                    node.outcome = None;
                    node.children = vec![None; 3];
                    node.logits = vec![0.0; 3];
                }
                _ => {}
            }
            (3, nodes)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn tic_tac_toe_serde_agrees_with_the_parser(text in tic_tac_toe_text()) {
        check_parser_and_serde_agree::<TicTacToe>(&text)?;
    }

    #[test]
    fn nim_serde_agrees_with_the_parser(text in nim_text()) {
        check_parser_and_serde_agree::<Nim>(&text)?;
    }

    /// Random trees, each either valid or broken by one random change, and
    /// random node lists: serde accepts a tree exactly when
    /// `ExplicitTree::new` does.
    #[test]
    fn explicit_tree_serde_agrees_with_new(
        (num_actions, nodes) in prop_oneof![mutated_tree(), random_nodes()],
    ) {
        let built = ExplicitTree::new(num_actions, nodes.clone());
        let json = serde_json::json!({ "num_actions": num_actions, "nodes": nodes }).to_string();
        let deserialized = serde_json::from_str::<ExplicitTree>(&json);
        match (&built, &deserialized) {
            (Ok(tree), Ok(back)) => {
                prop_assert_eq!(tree, back);
                let again: ExplicitTree =
                    serde_json::from_str(&serde_json::to_string(tree).unwrap()).unwrap();
                prop_assert_eq!(&again, tree);
            }
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "{json}: new gives {built:?}, serde gives {deserialized:?}"),
        }
    }

    /// Random shapes, in and out of range: serde accepts a shape exactly
    /// when `validate` does, and a valid shape makes a valid tree.
    #[test]
    fn random_tree_serde_agrees_with_validate(
        num_actions in 0usize..6,
        max_depth in 0u32..4,
        min_branching in 0usize..5,
        max_branching in 0usize..5,
        terminal_probability in prop_oneof![3 => dyadic(0.0, 1.0), 1 => dyadic(-0.5, 1.5)],
        same_player_probability in prop_oneof![3 => dyadic(0.0, 1.0), 1 => dyadic(-0.5, 1.5)],
        value_noise in prop_oneof![3 => dyadic(0.0, 1.0), 1 => dyadic(-0.5, 1.5)],
        seed in any::<u64>(),
    ) {
        let shape = RandomTree {
            num_actions,
            max_depth,
            min_branching,
            max_branching,
            terminal_probability: f64::from(terminal_probability),
            same_player_probability: f64::from(same_player_probability),
            value_noise,
        };
        let json = serde_json::to_string(&shape).unwrap();
        let deserialized = serde_json::from_str::<RandomTree>(&json);
        prop_assert_eq!(deserialized.is_ok(), shape.validate().is_ok(), "{}", json);
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
        match deserialized {
            Ok(back) => {
                prop_assert_eq!(&back, &shape);
                let tree = ExplicitTree::try_random(&shape, &mut rng).unwrap();
                prop_assert!(ExplicitTree::new(tree.num_actions(), tree.nodes().to_vec()).is_ok());
            }
            Err(_) => {
                let refused = ExplicitTree::try_random(&shape, &mut rng);
                let is_shape_error = matches!(refused, Err(TreeError::Shape { .. }));
                prop_assert!(is_shape_error, "{:?}", refused);
            }
        }
    }
}

#[test]
fn toy_games_serialize_as_their_text() {
    let game = TicTacToe::from_moves(&[4, 0, 8]).unwrap();
    assert_eq!(serde_json::to_string(&game).unwrap(), "\"o...x...x o\"");
    let nim: Nim = "3,0,5 2 extra".parse().unwrap();
    assert_eq!(serde_json::to_string(&nim).unwrap(), "\"3,0,5 2 extra\"");
    // Before, these went through a derive that took any field values.
    let error = serde_json::from_str::<TicTacToe>("\"xxxooo... x\"").unwrap_err();
    assert!(error.to_string().contains("both players"), "{error}");
    let error = serde_json::from_str::<Nim>("\"3,16 1\"").unwrap_err();
    assert!(error.to_string().contains("16"), "{error}");
    let old_form = r#"{"heaps":[200,0,0,0,0,0,0,0],"num_heaps":1,"to_move":"First","extra_turn":false,"hash":0}"#;
    assert!(serde_json::from_str::<Nim>(old_form).is_err());
}

fn inner(player: Player, children: Vec<Option<u32>>) -> TreeNode {
    let logits = vec![0.0; children.len()];
    TreeNode::inner(player, 0.0, children, logits)
}

#[test]
fn broken_trees_are_refused_by_serde() {
    let json = |nodes: &[TreeNode]| serde_json::json!({ "num_actions": 1, "nodes": nodes });
    // A cycle that the root cannot reach: `minimax_value(1)` would recurse
    // for ever.
    let nodes = [
        TreeNode::terminal(Player::First, 1.0),
        inner(Player::First, vec![Some(2)]),
        inner(Player::Second, vec![Some(1)]),
    ];
    assert!(matches!(
        ExplicitTree::new(1, nodes.to_vec()),
        Err(TreeError::Cycle(_))
    ));
    let error = serde_json::from_value::<ExplicitTree>(json(&nodes)).unwrap_err();
    assert!(error.to_string().contains("cycle"), "{error}");
    // A terminal node with a child: a finished game with a legal move.
    let mut terminal = TreeNode::terminal(Player::First, 0.0);
    terminal.children = vec![Some(1)];
    terminal.logits = vec![0.0];
    let nodes = [terminal, TreeNode::terminal(Player::Second, 1.0)];
    assert_eq!(
        ExplicitTree::new(1, nodes.to_vec()),
        Err(TreeError::TerminalWithChildren(0))
    );
    let error = serde_json::from_value::<ExplicitTree>(json(&nodes)).unwrap_err();
    assert!(error.to_string().contains("terminal"), "{error}");
    // A value out of range.
    let nodes = [
        TreeNode::inner(Player::First, 1.5, vec![Some(1)], vec![0.0]),
        TreeNode::terminal(Player::Second, 1.0),
    ];
    assert!(serde_json::from_value::<ExplicitTree>(json(&nodes)).is_err());
    // A logit that is not finite cannot come through JSON, but `new` is
    // the same gate for trees built in code.
    let nodes = vec![
        TreeNode::inner(Player::First, 0.0, vec![Some(1)], vec![f32::NAN]),
        TreeNode::terminal(Player::Second, 1.0),
    ];
    assert!(matches!(
        ExplicitTree::new(1, nodes),
        Err(TreeError::OutOfRange { what: "logit", .. })
    ));
}

#[test]
fn bad_random_tree_shapes_are_refused() {
    for (json, setting) in [
        (
            r#"{"num_actions":0,"max_depth":3,"min_branching":1,"max_branching":2,"terminal_probability":0.1,"same_player_probability":0.1,"value_noise":0.5}"#,
            "num_actions",
        ),
        (
            r#"{"num_actions":3,"max_depth":3,"min_branching":3,"max_branching":2,"terminal_probability":0.1,"same_player_probability":0.1,"value_noise":0.5}"#,
            "min_branching",
        ),
        (
            r#"{"num_actions":3,"max_depth":3,"min_branching":1,"max_branching":2,"terminal_probability":1.5,"same_player_probability":0.1,"value_noise":0.5}"#,
            "terminal_probability",
        ),
        (
            r#"{"num_actions":3,"max_depth":3,"min_branching":1,"max_branching":2,"terminal_probability":0.1,"same_player_probability":-0.1,"value_noise":0.5}"#,
            "same_player_probability",
        ),
        (
            r#"{"num_actions":3,"max_depth":3,"min_branching":1,"max_branching":2,"terminal_probability":0.1,"same_player_probability":0.1,"value_noise":-1}"#,
            "value_noise",
        ),
    ] {
        let error = serde_json::from_str::<RandomTree>(json).unwrap_err();
        assert!(error.to_string().contains(setting), "{json}: {error}");
    }
    let nan = RandomTree {
        terminal_probability: f64::NAN,
        ..RandomTree::default()
    };
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(1);
    assert!(matches!(
        ExplicitTree::try_random(&nan, &mut rng),
        Err(TreeError::Shape {
            name: "terminal_probability",
            ..
        })
    ));
}

#[test]
fn deserialized_tallies_do_not_overflow() {
    let tally: Tally =
        serde_json::from_str(r#"{"wins":4294967295,"draws":4294967295,"losses":4294967295}"#)
            .unwrap();
    assert_eq!(tally.games(), u32::MAX);
    assert!((tally.score() - 0.5).abs() < 1e-12);
    assert!(tally.to_string().contains("score 50.0%"), "{tally}");
}
