//! Properties of both searchers on random explicit trees (turns need not
//! alternate there), checked with proptest.

use std::sync::Arc;

use game_traits::testing::{ExplicitTree, RandomTree, TreeEvaluator, TreeGame};
use game_traits::{Game, Limits, Searcher, StopReason};
use gumbel_az::{CompletedQ, DirichletNoise, FirstPlay, GumbelAz, GumbelConfig, Puct, PuctConfig};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

fn random_tree(seed: u64, num_actions: usize) -> Arc<ExplicitTree> {
    let shape = RandomTree {
        num_actions,
        max_depth: 5,
        min_branching: 1,
        max_branching: num_actions,
        terminal_probability: 0.15,
        same_player_probability: 0.2,
        value_noise: 0.5,
    };
    Arc::new(ExplicitTree::random(
        &shape,
        &mut Pcg64Mcg::seed_from_u64(seed),
    ))
}

fn legal(game: &TreeGame) -> Vec<usize> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

prop_compose! {
    fn gumbel_config()(
        k in 1usize..8,
        gumbel_scale in prop_oneof![Just(0.0), 0.0f64..3.0],
        c_visit in 0.0f64..200.0,
        c_scale in 0.0f64..1.0,
        rescale_values in any::<bool>(),
        use_mixed_value in any::<bool>(),
        seed in any::<u64>(),
    ) -> GumbelConfig {
        GumbelConfig::default()
            .with_max_considered_actions(k)
            .with_gumbel_scale(gumbel_scale)
            .with_completed_q(
                CompletedQ::default()
                    .with_c_visit(c_visit)
                    .with_c_scale(c_scale)
                    .with_rescale_values(rescale_values)
                    .with_use_mixed_value(use_mixed_value),
            )
            .with_seed(seed)
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The improved policy is a probability distribution over the legal
    /// moves, and the search spends exactly its simulation budget, unless
    /// its tree holds every position below the root before that (then it
    /// says so and spends less).
    #[test]
    fn improved_policy_is_a_distribution_and_budget_is_kept(
        tree_seed in any::<u64>(),
        num_actions in 2usize..7,
        config in gumbel_config(),
        simulations in 0u64..60,
    ) {
        let tree = random_tree(tree_seed, num_actions);
        let root = tree.root();
        let legal = legal(&root);
        let mut searcher = GumbelAz::new(TreeEvaluator, config).unwrap();
        let analysis = searcher.analyse(&root, &Limits::iterations(simulations));
        let total: f64 = analysis.improved_policy.iter().sum();
        prop_assert!((total - 1.0).abs() < 1e-9, "sum {}", total);
        for (action, &p) in analysis.improved_policy.iter().enumerate() {
            prop_assert!(p.is_finite() && p >= 0.0);
            if !legal.contains(&action) {
                prop_assert_eq!(p, 0.0);
            }
        }
        let report = &analysis.report;
        prop_assert_eq!(report.moves.len(), legal.len());
        let report_total: f32 = report.moves.iter().map(|info| info.policy.unwrap()).sum();
        prop_assert!((report_total - 1.0).abs() < 1e-5);
        if report.stats.stop == StopReason::Exhausted {
            prop_assert!(report.stats.iterations < simulations);
        } else {
            prop_assert_eq!(report.stats.stop, StopReason::Iterations);
            prop_assert_eq!(report.stats.iterations, simulations);
        }
        let visits: u32 = analysis.visits.iter().sum();
        prop_assert_eq!(u64::from(visits), report.stats.iterations);
        prop_assert!(report.best.is_some_and(|mv| legal.contains(&mv)));
        prop_assert_eq!(report.pv.first().copied(), report.best);
        prop_assert!(report.value.is_finite() && report.value.abs() <= 1.0);
        // At most m actions are ever visited.
        let visited = analysis.visits.iter().filter(|&&n| n > 0).count();
        prop_assert!(visited <= analysis.num_considered);
    }

    /// With one simulation (and with none) the move is the top of
    /// logits + noise, whatever k.
    #[test]
    fn one_simulation_plays_the_top_of_logits_plus_noise(
        tree_seed in any::<u64>(),
        num_actions in 2usize..7,
        noise in proptest::collection::vec(-3.0f64..3.0, 7),
        k in 1usize..8,
        simulations in 0u64..2,
    ) {
        let tree = random_tree(tree_seed, num_actions);
        let root = tree.root();
        let noise = &noise[..num_actions];
        let logits = &root.node().logits;
        let expected = legal(&root)
            .into_iter()
            .map(|action| (action, noise[action] + f64::from(logits[action])))
            .fold(None, |best: Option<(usize, f64)>, (action, score)| match best {
                Some((_, best_score)) if best_score >= score => best,
                _ => Some((action, score)),
            })
            .map(|(action, _)| action);
        let config = GumbelConfig::default().with_max_considered_actions(k);
        let mut searcher = GumbelAz::new(TreeEvaluator, config).unwrap();
        let analysis = searcher
            .analyse_with_noise(&root, &Limits::iterations(simulations), noise)
            .unwrap();
        prop_assert_eq!(analysis.action, expected);
    }

    /// PUCT spends its budget (less only once its tree is complete), and
    /// its policy is the visit distribution over legal moves.
    #[test]
    fn puct_keeps_its_budget(
        tree_seed in any::<u64>(),
        num_actions in 2usize..7,
        simulations in 1u64..80,
        c_puct in 0.0f64..4.0,
        noisy in any::<bool>(),
        fixed in any::<bool>(),
    ) {
        let tree = random_tree(tree_seed, num_actions);
        let root = tree.root();
        let config = PuctConfig::default()
            .with_c_puct(c_puct)
            .with_root_noise(noisy.then(|| DirichletNoise::new(0.3, 0.25)))
            .with_first_play(if fixed { FirstPlay::Fixed(-1.0) } else { FirstPlay::ParentValue });
        let mut searcher = Puct::new(TreeEvaluator, config).unwrap();
        let report = searcher.search(&root, &Limits::iterations(simulations));
        if report.stats.stop == StopReason::Exhausted {
            prop_assert!(report.stats.iterations < simulations);
        } else {
            prop_assert_eq!(report.stats.stop, StopReason::Iterations);
            prop_assert_eq!(report.stats.iterations, simulations);
        }
        let visits: u64 = report.moves.iter().map(|info| info.visits).sum();
        prop_assert_eq!(visits, report.stats.iterations);
        let policy: f32 = report.moves.iter().map(|info| info.policy.unwrap()).sum();
        prop_assert!((policy - 1.0).abs() < 1e-5);
        let most = report.moves.iter().map(|info| info.visits).max().unwrap();
        let best = report.moves.iter().find(|info| Some(info.mv) == report.best).unwrap();
        prop_assert_eq!(best.visits, most);
    }
}
