//! Hidden Jungle behind the game-traits hidden-information traits: the
//! referee as an `Arbiter` (redeals keep a player's knowledge), world
//! enumeration, and the naive world.

use dou_shou_qi::hidden::{HiddenRules, Layout, Referee, SoftmaxOpponent};
use dou_shou_qi::{Animal, JungleEvaluator, Move};
use game_traits::hidden::{Arbiter, NaiveWorld, WorldEnumeration};
use game_traits::{Game, InformationSet, Player};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A referee after `plies` random moves from a random deal, preferring
/// attacks so that identities get revealed.
fn played(seed: u64, plies: usize) -> Referee {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut referee = Referee::random(HiddenRules::default(), seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        referee.world().legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let attacks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|mv| referee.world().piece_at(mv.to()).is_some())
            .collect();
        let mv = if attacks.is_empty() {
            moves[rng.random_range(..moves.len())]
        } else {
            attacks[rng.random_range(..attacks.len())]
        };
        Arbiter::play_move(&mut referee, mv).unwrap();
    }
    referee
}

#[test]
fn redeals_keep_what_the_player_knows_and_change_what_it_does_not() {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    for seed in 0..6 {
        let referee = played(seed, 30);
        for player in Player::BOTH {
            let info = referee.information_set(player);
            let mut changed = false;
            for _ in 0..5 {
                let other = referee.redeal(player, &mut rng);
                let other_info = other.information_set(player);
                assert_eq!(other_info.observations(), info.observations());
                assert_eq!(other_info.own_layout(), info.own_layout());
                assert_eq!(other_info.consistent_layouts(), info.consistent_layouts());
                assert_eq!(other.layout(player), referee.layout(player));
                assert!(info.is_consistent(&other.layout(player.opponent())));
                changed |= other.layout(player.opponent()) != referee.layout(player.opponent());
            }
            if info.world_count() > 1 {
                assert!(changed, "seed {seed}: five redeals kept the setup");
            }
        }
    }
}

#[test]
fn the_referee_refuses_illegal_moves_and_moves_after_the_end() {
    let mut referee = Referee::random(HiddenRules::default(), 3);
    let bad: Move = "a4a5".parse().unwrap();
    let error = Arbiter::play_move(&mut referee, bad).unwrap_err();
    assert_eq!(error.mv, bad);
    assert!(!error.game_over);
    assert!(referee.observations().is_empty());
    // Play to the end, then try again.
    let mut rng = Pcg64Mcg::seed_from_u64(4);
    let mut moves = Vec::new();
    while Arbiter::outcome(&referee).is_none() {
        Arbiter::legal_moves(&referee, &mut moves);
        let mv = moves[rng.random_range(..moves.len())];
        Arbiter::play_move(&mut referee, mv).unwrap();
    }
    let error = Arbiter::play_move(&mut referee, bad).unwrap_err();
    assert!(error.game_over);
}

#[test]
fn enumerated_worlds_are_the_consistent_ones_with_their_weights() {
    let mut checked = 0;
    for seed in 0..40 {
        let referee = played(seed, 40);
        let player = referee.world().to_move();
        let info = referee.information_set(player);
        if info.world_count() > 200 || Arbiter::outcome(&referee).is_some() {
            continue;
        }
        checked += 1;
        let worlds = info.worlds();
        assert_eq!(worlds.len() as u64, WorldEnumeration::world_count(&info));
        let total: f64 = worlds.iter().map(|(_, weight)| weight).sum();
        assert!((total - 1.0).abs() < 1e-9);
        let mut known = Vec::new();
        info.legal_moves(&mut known);
        let mut world_moves = Vec::new();
        let truth = referee.world().to_string();
        assert!(
            worlds.iter().any(|(world, _)| world.to_string() == truth),
            "the true world is among the enumerated ones"
        );
        for (world, _) in &worlds {
            world.legal_moves(&mut world_moves);
            assert_eq!(world.to_move(), player);
            world_moves.sort_by_key(|mv| mv.index());
            known.sort_by_key(|mv| mv.index());
            assert_eq!(world_moves, known);
        }
        let weighted = info.weighted(&SoftmaxOpponent {
            evaluator: JungleEvaluator::default(),
            temperature: 0.3,
        });
        let weighted_worlds = weighted.worlds();
        let total: f64 = weighted_worlds.iter().map(|(_, weight)| weight).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(weighted_worlds.len() as u64 <= weighted.world_count());
    }
    assert!(checked >= 5, "only {checked} positions with few worlds");
}

#[test]
fn the_naive_world_is_standard_where_nothing_is_known() {
    let referee = Referee::random(HiddenRules::default(), 9);
    let info = referee.information_set(Player::First);
    assert_eq!(info.naive_layout(), Layout::standard(Player::Second));
    let world = info.naive_world();
    assert_eq!(
        world.piece_at("a7".parse().unwrap()).unwrap().animal,
        Animal::Rat
    );
    // Later, revealed animals are kept and the rest stays a permutation.
    for seed in 0..20 {
        let referee = played(seed, 40);
        for player in Player::BOTH {
            let info = referee.information_set(player);
            let naive = info.naive_layout();
            for slot in 0..8 {
                let piece =
                    dou_shou_qi::hidden::PieceId::from_slot(player.opponent(), slot).unwrap();
                if let Some(animal) = info.known_animal(piece) {
                    assert_eq!(naive.animal(slot), animal);
                }
            }
            let world = info.naive_world();
            let mut moves = Vec::new();
            let mut known = Vec::new();
            if world.to_move() == player && Arbiter::outcome(&referee).is_none() {
                world.legal_moves(&mut moves);
                info.legal_moves(&mut known);
                moves.sort_by_key(|mv| mv.index());
                known.sort_by_key(|mv| mv.index());
                assert_eq!(
                    moves, known,
                    "the naive player's own moves are its true moves"
                );
            }
        }
    }
}
