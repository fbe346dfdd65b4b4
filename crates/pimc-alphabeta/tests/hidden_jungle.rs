//! PIMC and the baselines on Hidden Jungle: the information-set contract
//! (legal moves in every consistent world, limits, repeatability, no
//! leak), and short series that show PIMC playing.

use std::time::Duration;

use dou_shou_qi::JungleEvaluator;
use dou_shou_qi::hidden::{HiddenInfoSet, HiddenRules, Referee, SoftmaxOpponent};
use game_traits::hidden::{Arbiter, InfoSetSearcher, Informed, Omniscient, play_hidden_series};
use game_traits::testing::{ContractOptions, check_info_set_searcher};
use game_traits::{InformationSet, Limits, RandomSearcher, SeriesOptions};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig, Naive, Pimc, PimcConfig};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// Alpha-beta with a small default budget, so that the contract's
/// unlimited searches stay short.
fn inner() -> AlphaBeta<dou_shou_qi::Jungle, JungleEvaluator> {
    AlphaBeta::new(
        JungleEvaluator::default(),
        AlphaBetaConfig::default().with_default_nodes(20_000),
    )
    .unwrap()
}

fn pimc(
    worlds: usize,
    threads: usize,
) -> Pimc<HiddenInfoSet, AlphaBeta<dou_shou_qi::Jungle, JungleEvaluator>> {
    Pimc::new(
        |_| inner(),
        PimcConfig::default()
            .with_worlds(worlds)
            .with_threads(threads),
    )
    .unwrap()
}

fn options() -> ContractOptions {
    ContractOptions::default().with_hang(Duration::from_secs(30))
}

#[test]
fn pimc_keeps_the_information_set_contract_on_hidden_jungle() {
    let start = Referee::random(HiddenRules::default(), 5);
    check_info_set_searcher(|| pimc(3, 1), &start, &options()).unwrap();
    check_info_set_searcher(|| pimc(4, 2), &start, &options().with_seed(3)).unwrap();
}

#[test]
fn the_baselines_keep_the_information_set_contract_on_hidden_jungle() {
    let start = Referee::random(HiddenRules::default(), 6);
    check_info_set_searcher(|| Naive(inner()), &start, &options()).unwrap();
    check_info_set_searcher(|| RandomSearcher::new(1), &start, &options()).unwrap();
}

#[test]
fn pimc_decides_from_the_weighted_information_set_too() {
    let mut referee = Referee::random(HiddenRules::default(), 8);
    let mut rng = Pcg64Mcg::seed_from_u64(8);
    let mut moves = Vec::new();
    for _ in 0..12 {
        referee.legal_moves(&mut moves);
        let mv = moves[rng.random_range(..moves.len())];
        referee.play_move(mv).unwrap();
    }
    assert!(referee.outcome().is_none());
    let info = referee.information_set(referee.to_move());
    let weighted = info.weighted(&SoftmaxOpponent {
        evaluator: JungleEvaluator::default(),
        temperature: 0.2,
    });
    let mut search = Pimc::new(|_| inner(), PimcConfig::default().with_worlds(8)).unwrap();
    let report = search.search(&weighted, &Limits::depth(2));
    let mut legal = Vec::new();
    weighted.legal_moves(&mut legal);
    assert!(legal.contains(&report.best.unwrap()));
    assert_eq!(search.analysis().unwrap().worlds, 8);
}

#[test]
fn pimc_beats_a_random_player_and_plays_against_the_cheat() {
    let options = SeriesOptions::new(4, 0, Limits::depth(2))
        .with_seed(1)
        .with_threads(2)
        .with_max_plies(300);
    let deal = |seed| Referee::random(HiddenRules::default(), seed);
    let series = play_hidden_series(
        deal,
        |_| Informed(pimc(6, 1)),
        |seed| Informed(RandomSearcher::new(seed)),
        &options,
    )
    .unwrap();
    assert!(series.tally.wins >= 7, "{}", series.tally);
    // The cheat sees the true animals; the series only has to run.
    let cheat = play_hidden_series(
        deal,
        |_| Omniscient(inner()),
        |_| Informed(pimc(4, 1)),
        &SeriesOptions::new(1, 0, Limits::depth(2)).with_max_plies(120),
    )
    .unwrap();
    assert_eq!(cheat.tally.games(), 2);
    // Both sides of a game are played by the rules.
    assert!(cheat.games.iter().all(|game| game.plies > 0));
}
