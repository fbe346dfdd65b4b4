//! `clone_from` keeps the buffers but gives the same position as `clone`.

use dou_shou_qi::Jungle;
use game_traits::Game;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

#[test]
fn clone_from_equals_clone() {
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    let mut game = Jungle::new();
    let mut target = Jungle::new();
    let mut moves = Vec::new();
    for _ in 0..200 {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.random_range(..moves.len())]);
        target.clone_from(&game);
        assert_eq!(target, game.clone());
        assert_eq!(target.to_string(), game.to_string());
        assert_eq!(target.history(), game.history());
    }
}
