//! The evaluators make sensible baseline players: one ply of each, greedy,
//! beats uniformly random play.

use bitboard_othello::{Board, HeuristicEvaluator, HeuristicPolicy, PositionalEvaluator};
use game_traits::{
    Evaluator, GreedySearcher, Limits, Player, RandomSearcher, Searcher, Tally, play_match,
};

/// The score of `evaluator`'s greedy player against random play, over
/// `games` games with colours alternating.
fn greedy_score<E: Evaluator<Board> + Clone>(evaluator: E, games: u64) -> Tally {
    let mut tally = Tally::default();
    for game in 0..games {
        let mut greedy = GreedySearcher::new(evaluator.clone());
        let mut random = RandomSearcher::new(game);
        let (side, record) = if game % 2 == 0 {
            (
                Player::First,
                play_match(&Board::start(), &mut greedy, &mut random, &Limits::none()),
            )
        } else {
            (
                Player::Second,
                play_match(&Board::start(), &mut random, &mut greedy, &Limits::none()),
            )
        };
        tally.record(record.unwrap().outcome, side);
    }
    eprintln!("greedy vs random: {tally}");
    tally
}

#[test]
fn greedy_positional_player_beats_random_play() {
    let tally = greedy_score(PositionalEvaluator, 60);
    assert!(tally.score() > 0.7, "{tally}");
}

#[test]
fn greedy_heuristic_player_beats_random_play() {
    let tally = greedy_score(HeuristicEvaluator::default(), 60);
    assert!(tally.score() > 0.7, "{tally}");
    let tally = greedy_score(HeuristicPolicy::default(), 20);
    assert!(tally.score() > 0.6, "{tally}");
}

#[test]
fn searchers_have_names() {
    assert_eq!(
        Searcher::<Board>::name(
            &bitboard_othello::Solver::new(
                bitboard_othello::SolverConfig::default()
                    .with_mode(bitboard_othello::SolveMode::WinLossDraw)
            )
            .unwrap()
        ),
        "solver-wld"
    );
}
