//! PIMC on the shell game (`game_traits::testing::ShellGame`): exactly
//! right where it is sound, wrong where strategy fusion bites; worlds,
//! weights, threads, fresh searchers; and the information-set contract.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use game_traits::hidden::{Arbiter, InfoSetSearcher, WorldEnumeration};
use game_traits::testing::{
    ContractOptions, ShellGame, ShellInfo, ShellMove, ShellPhase, ShellTable,
    check_info_set_searcher,
};
use game_traits::{InformationSet, Limits, OutcomeEvaluator, Player};
use mcts_rave::{Ismcts, Mcts, MctsConfig, MctsKnowledge};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig, Pimc, PimcConfig, RootValues};
use rand::{Rng, RngExt};

/// Every position where the guesser decides and `Delay` is not legal (some
/// cup shown at the start, or after a delay), for 2 to 5 cups.
fn sound_positions() -> Vec<ShellTable> {
    let mut tables = Vec::new();
    for cups in 2..=5u8 {
        let all = (1u8 << cups) - 1;
        for peas in 1..all {
            for shown in 1..=all {
                if let Ok(world) = ShellGame::new(cups, peas, shown) {
                    tables.push(ShellTable::new(world));
                }
            }
            // After a delay: the hider waits, or shows an empty cup.
            let mut table = ShellTable::new(ShellGame::new(cups, peas, 0).unwrap());
            table.play_move(ShellMove::Delay).unwrap();
            let mut replies = Vec::new();
            table.legal_moves(&mut replies);
            for reply in replies {
                let mut after = table.clone();
                after.play_move(reply).unwrap();
                tables.push(after);
            }
        }
    }
    tables
}

fn pimc_alpha_beta() -> Pimc<ShellInfo, AlphaBeta<ShellGame, OutcomeEvaluator>> {
    Pimc::new(
        |_| AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
        PimcConfig::default(),
    )
    .unwrap()
}

/// Where no decision after the root depends on what is hidden (guess or
/// fold), PIMC's mean over the worlds *is* each move's expected value, so
/// its choice is the analytically best move, in every such position.
#[test]
fn pimc_is_exactly_right_where_it_is_sound() {
    let positions = sound_positions();
    assert!(positions.len() > 300, "{} positions", positions.len());
    for root_values in [RootValues::Bounds, RootValues::Exact] {
        let mut pimc = Pimc::new(
            move |_| {
                AlphaBeta::new(
                    OutcomeEvaluator,
                    AlphaBetaConfig::default().with_root_values(root_values),
                )
                .unwrap()
            },
            PimcConfig::default(),
        )
        .unwrap();
        for table in &positions {
            let info = table.information_set(Player::First);
            assert_ne!(table.truth().phase(), ShellPhase::Respond);
            let report = pimc.search(&info, &Limits::none());
            let best = info.best_moves().unwrap();
            assert!(
                best.contains(&report.best.unwrap()),
                "{:?}: PIMC played {:?}, best {best:?}",
                table.truth(),
                report.best
            );
            let analysis = pimc.analysis().unwrap();
            assert!(analysis.enumerated);
            assert_eq!(analysis.worlds as u64, info.world_count());
            for (mv, exact) in info.exact_values().unwrap() {
                let entry = analysis.moves.iter().find(|entry| entry.mv == mv).unwrap();
                assert!(
                    (entry.mean - exact).abs() < 1e-6,
                    "{:?} {mv:?}: mean {} exact {exact}",
                    table.truth(),
                    entry.mean
                );
            }
        }
    }
}

/// Strategy fusion (Frank & Basin 1998). One pea under three cups, nothing
/// shown: folding is worth 0 and is the best move; each guess and delaying
/// are worth -1/3, since after a delay the guesser knows no more than
/// before (the hider can simply wait). PIMC searches each world as if the
/// pea were visible: in every world the guesser who delays then lifts the
/// right cup, so PIMC values `Delay` at +1 and plays it. It fuses three
/// different strategies (lift cup 0, 1 or 2 later), one per world, into
/// one move, when a single later guess must serve all three worlds.
/// Information Set MCTS, which searches one tree over information sets,
/// folds here.
///
/// PIMC scores every root move exactly in every world here
/// ([`RootValues::Exact`]). With alpha-beta's default root the fusion is
/// hidden by accident: each world's search stops as soon as it proves the
/// fastest win (lifting the right cup, one ply), leaving `Delay` with its
/// depth-1 value 0, a tie with folding.
#[test]
fn pimc_falls_for_strategy_fusion() {
    let table = ShellTable::strategy_fusion();
    let info = table.information_set(Player::First);
    assert_eq!(info.best_moves().unwrap(), vec![ShellMove::Fold]);
    let mut pimc = Pimc::new(
        |_| {
            AlphaBeta::new(
                OutcomeEvaluator,
                AlphaBetaConfig::default().with_root_values(RootValues::Exact),
            )
            .unwrap()
        },
        PimcConfig::default(),
    )
    .unwrap();
    let report = pimc.search(&info, &Limits::none());
    assert_eq!(report.best, Some(ShellMove::Delay), "PIMC delays");
    assert_eq!(report.value, 1.0, "and believes it wins");
    let analysis = pimc.analysis().unwrap();
    assert_eq!(analysis.agreement(&ShellMove::Delay), 1.0);
    let exact = info.exact_values().unwrap();
    let delay = exact
        .iter()
        .find(|(mv, _)| *mv == ShellMove::Delay)
        .unwrap()
        .1;
    assert!((delay + 1.0 / 3.0).abs() < 1e-12, "truly worth -1/3");
    // Information Set MCTS keeps one tree over what the guesser knows, so
    // one guess must serve every world after a delay: it folds.
    let mut ismcts = Ismcts::new(MctsKnowledge::uct(), MctsConfig::default().with_seed(1)).unwrap();
    let report = ismcts.search(&info, &Limits::iterations(20_000));
    assert_eq!(report.best, Some(ShellMove::Fold), "ISMCTS folds");
    assert_eq!(report.value, 0.0);
}

#[test]
fn pimc_over_mcts_is_one_line_and_sound_where_pimc_is() {
    let mut pimc = Pimc::new(
        |seed| Mcts::new(MctsKnowledge::uct(), MctsConfig::default().with_seed(seed)).unwrap(),
        PimcConfig::default(),
    )
    .unwrap();
    // Four cups, cup 0 shown empty, one pea: guesses are worth -1/3,
    // folding 0. Two peas: guesses are worth +1/3.
    for (peas, best) in [(0b0100, ShellMove::Fold), (0b0110, ShellMove::Guess(1))] {
        let table = ShellTable::new(ShellGame::new(4, peas, 0b0001).unwrap());
        let info = table.information_set(Player::First);
        let report = pimc.search(&info, &Limits::iterations(6_000));
        let good = info.best_moves().unwrap();
        assert!(good.contains(&report.best.unwrap()), "{:?}", report.best);
        assert!(good.contains(&best));
    }
}

#[test]
fn every_world_is_used_when_there_are_few_and_each_gets_a_fresh_searcher() {
    let made = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&made);
    let mut pimc = Pimc::new(
        move |_| {
            counter.fetch_add(1, Ordering::Relaxed);
            AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap()
        },
        PimcConfig::default().with_worlds(10),
    )
    .unwrap();
    let probe = made.load(Ordering::Relaxed);
    // C(5, 2) = 10 placements: every one, with its probability.
    let info = ShellTable::deal(5, 2, 1).information_set(Player::First);
    pimc.search(&info, &Limits::none());
    let analysis = pimc.analysis().unwrap();
    assert!(analysis.enumerated);
    assert_eq!(analysis.worlds, 10);
    assert_eq!(made.load(Ordering::Relaxed) - probe, 10);
    // C(6, 2) = 15 > 10: a sample of 10.
    let info = ShellTable::deal(6, 2, 1).information_set(Player::First);
    pimc.search(&info, &Limits::none());
    let analysis = pimc.analysis().unwrap();
    assert!(!analysis.enumerated);
    assert_eq!(analysis.worlds, 10);
    assert_eq!(made.load(Ordering::Relaxed) - probe, 20);
    // Spread and agreement describe the worlds: a guess wins in some and
    // loses in others.
    let entry = analysis
        .moves
        .iter()
        .find(|entry| entry.mv == ShellMove::Guess(0))
        .unwrap();
    assert!(entry.spread > 0.0 && entry.spread <= 1.0);
    assert_eq!(entry.worlds, 10);
}

#[test]
fn decisions_do_not_depend_on_the_thread_count() {
    let info = ShellTable::deal(8, 3, 4).information_set(Player::First);
    let search = |threads| {
        let mut pimc = Pimc::new(
            |_| AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
            PimcConfig::default()
                .with_worlds(12)
                .with_threads(threads)
                .with_seed(5),
        )
        .unwrap();
        let report = pimc.search(&info, &Limits::depth(3));
        (report, pimc.analysis().unwrap().clone())
    };
    let (one, one_analysis) = search(1);
    let (two, two_analysis) = search(2);
    assert_eq!(one.best, two.best);
    assert_eq!(one.value, two.value);
    assert_eq!(one.moves, two.moves);
    assert_eq!(one_analysis, two_analysis);
    assert_eq!(one.stats.nodes, two.stats.nodes);
}

/// The shell game's guesser with a prior over the placements: each
/// consistent placement weighted by `1 + its lowest cup` (so peas under
/// high cups are likelier).
#[derive(Clone, Debug)]
struct Weighted(ShellInfo);

impl Weighted {
    fn weight(world: &ShellGame) -> f64 {
        1.0 + f64::from(world.peas().trailing_zeros())
    }
}

impl InformationSet for Weighted {
    type World = ShellGame;
    fn player(&self) -> Player {
        self.0.player()
    }
    fn to_move(&self) -> Player {
        self.0.to_move()
    }
    fn legal_moves(&self, out: &mut Vec<ShellMove>) {
        self.0.legal_moves(out);
    }
    fn sample_world<R: Rng + ?Sized>(&self, rng: &mut R) -> ShellGame {
        let worlds = self.worlds();
        let mut pick = rng.random::<f64>();
        for (world, weight) in &worlds {
            if pick < *weight {
                return world.clone();
            }
            pick -= weight;
        }
        worlds[worlds.len() - 1].0.clone()
    }
}

impl WorldEnumeration for Weighted {
    fn world_count(&self) -> u64 {
        self.0.world_count()
    }
    fn worlds(&self) -> Vec<(ShellGame, f64)> {
        let worlds = self.0.worlds();
        let total: f64 = worlds.iter().map(|(world, _)| Self::weight(world)).sum();
        worlds
            .into_iter()
            .map(|(world, _)| {
                let weight = Self::weight(&world) / total;
                (world, weight)
            })
            .collect()
    }
}

#[test]
fn world_weights_are_honoured() {
    let info = Weighted(ShellTable::deal(4, 1, 2).information_set(Player::First));
    let mut pimc = Pimc::new(
        |_| AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
        PimcConfig::default(),
    )
    .unwrap();
    let report = pimc.search(&info, &Limits::none());
    // Weights 1, 2, 3, 4 for the pea under cup 0..3: guessing cup 3 is
    // worth 2 * 0.4 - 1 = -0.2, the best guess but worse than folding.
    let analysis = pimc.analysis().unwrap();
    let guess_three = analysis
        .moves
        .iter()
        .find(|e| e.mv == ShellMove::Guess(3))
        .unwrap();
    assert!(
        (guess_three.mean + 0.2).abs() < 1e-9,
        "{}",
        guess_three.mean
    );
    assert_eq!(report.best, Some(ShellMove::Fold));
    // Sampling by weight (fewer worlds allowed than exist) comes close.
    let mut sampled = Pimc::new(
        |_| AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
        PimcConfig::default().with_worlds(3).with_seed(1),
    )
    .unwrap();
    let mut total = 0.0;
    for _ in 0..400 {
        sampled.search(&info, &Limits::none());
        let analysis = sampled.analysis().unwrap();
        assert!(!analysis.enumerated);
        total += analysis
            .moves
            .iter()
            .find(|e| e.mv == ShellMove::Guess(3))
            .unwrap()
            .mean;
    }
    assert!((total / 400.0 + 0.2).abs() < 0.06, "{}", total / 400.0);
}

#[test]
fn pimc_keeps_the_information_set_contract_on_the_shell_game() {
    let options = ContractOptions::default().with_hang(Duration::from_secs(20));
    check_info_set_searcher(pimc_alpha_beta, &ShellTable::deal(6, 2, 3), &options).unwrap();
    check_info_set_searcher(
        || {
            Pimc::new(
                |_| AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap(),
                PimcConfig::default().with_worlds(4).with_threads(2),
            )
            .unwrap()
        },
        &ShellTable::deal(8, 3, 5),
        &options.clone().with_seed(1),
    )
    .unwrap();
}

#[test]
fn bad_settings_are_refused_with_their_range() {
    let inner = |_| AlphaBeta::new(OutcomeEvaluator, AlphaBetaConfig::default()).unwrap();
    for (config, text) in [
        (
            PimcConfig::default().with_worlds(0),
            "worlds = 0 is out of range: expected at least 1",
        ),
        (
            PimcConfig::default().with_threads(0),
            "threads = 0 is out of range: expected 1 to 64",
        ),
    ] {
        let enumerating = Pimc::<ShellInfo, _>::new(inner, config.clone()).err();
        assert_eq!(enumerating.map(|e| e.to_string()).as_deref(), Some(text));
        let sampling = Pimc::<ShellInfo, _>::sampling(inner, config).err();
        assert_eq!(sampling.map(|e| e.to_string()).as_deref(), Some(text));
    }
    assert!(Pimc::<ShellInfo, _>::new(inner, PimcConfig::default()).is_ok());
}
