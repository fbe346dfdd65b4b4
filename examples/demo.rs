//! A short tour: tic-tac-toe played between searchers through the common
//! traits.

use game_traits::testing::{MinimaxSearcher, TicTacToe};
use game_traits::{Limits, Player, RandomSearcher, Searcher, Tally, play_match};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let start = TicTacToe::new();
    let mut tally = Tally::default();
    for game in 0..20u64 {
        let mut perfect: Box<dyn Searcher<TicTacToe>> = Box::new(MinimaxSearcher::new());
        let mut random: Box<dyn Searcher<TicTacToe>> = Box::new(RandomSearcher::new(game));
        let perfect_side = if game % 2 == 0 {
            Player::First
        } else {
            Player::Second
        };
        let record = if perfect_side == Player::First {
            play_match(&start, &mut perfect, &mut random, &Limits::none())?
        } else {
            play_match(&start, &mut random, &mut perfect, &Limits::none())?
        };
        tally.record(record.outcome, perfect_side);
        if game < 2 {
            println!(
                "game {game}: moves {:?}, final {}",
                record.moves, record.final_state
            );
        }
    }
    println!("minimax vs random over 20 tic-tac-toe games: {tally}");
    Ok(())
}
