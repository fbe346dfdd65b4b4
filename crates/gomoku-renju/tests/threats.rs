//! The threat API on drawn positions, the threat-aware playout policy and
//! the evaluators.

use game_traits::{Evaluator, Game, Outcome, Player, Playout, PolicyEvaluator};
use gomoku_renju::{
    Direction, FocusedPlayout, Gomoku, Move, PatternEvaluator, PatternPolicy, Rule, Shape, Threat,
    ThreatPlayout,
};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn position(text: &str) -> Gomoku {
    text.parse().unwrap_or_else(|error| panic!("{error}"))
}

fn cells(game: &Gomoku, player: Player, threat: Threat) -> Vec<String> {
    game.threat_moves(player, threat)
        .iter()
        .map(|mv| mv.to_string())
        .collect()
}

#[test]
fn each_threat_kind_on_a_drawn_position() {
    // Black: an open three d6-e6-f6, a closed three h8-h9-h10 (White on
    // h11), a pair b2-c2. White: a broken three f12 . h12 i12 and a four
    // o5-o8.
    let game = position(
        "...............
         ...............
         ...............
         .....O.OO......
         .......O.......
         .......X.......
         .......X.......
         .......X......O
         ..............O
         ...XXX........O
         ..............O
         ...............
         ...............
         .XX............
         ...............
         X freestyle",
    );
    let black = Player::First;
    let white = Player::Second;
    assert!(cells(&game, black, Threat::Five).is_empty());
    // A straight four on c6 or g6; h6 makes a four on row 6 and one on
    // column h: two fours, as good.
    assert_eq!(cells(&game, black, Threat::OpenFour), ["c6", "g6", "h6"]);
    let fours = cells(&game, black, Threat::Four);
    for cell in ["b6", "c6", "g6", "h6", "h7"] {
        assert!(fours.contains(&cell.to_string()), "{cell} in {fours:?}");
    }
    assert!(!fours.contains(&"i6".to_string()));
    // White's four has two five cells.
    assert_eq!(cells(&game, white, Threat::Five), ["o4", "o9"]);
    assert!(cells(&game, white, Threat::OpenFour).contains(&"g12".to_string()));
    assert_eq!(
        game.shape(white, "g12".parse().unwrap(), Direction::Horizontal),
        Shape::OpenFour
    );
    // Black's pair becomes an open three on d2, a broken one on e2, a
    // closed one at the edge (a2).
    assert!(cells(&game, black, Threat::OpenThree).contains(&"d2".to_string()));
    assert!(cells(&game, black, Threat::BrokenThree).contains(&"e2".to_string()));
    assert!(cells(&game, black, Threat::Three).contains(&"a2".to_string()));
    assert_eq!(
        game.shape(black, "a2".parse().unwrap(), Direction::Horizontal),
        Shape::Three
    );
    // The summary agrees with the kinds.
    let threats = game.threats(black);
    for threat in Threat::ALL {
        assert_eq!(*threats.get(threat), game.threat_moves(black, threat));
    }
}

#[test]
fn renju_threats_leave_out_forbidden_cells() {
    // h8 is a double three for Black: a three cell by shape, but forbidden.
    let game = position(
        "...............
         ...............
         ...............
         ...............
         ...............
         .......X.......
         .......X.......
         .....XX........
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         O.O.O.O........
         X renju",
    );
    let h8: Move = "h8".parse().unwrap();
    assert!(game.is_forbidden(h8));
    assert_eq!(
        game.shape(Player::First, h8, Direction::Horizontal),
        Shape::OpenThree
    );
    assert!(
        !game
            .threat_moves(Player::First, Threat::OpenThree)
            .contains(h8)
    );
    // White may take it.
    assert!(
        game.null_move()
            .threat_moves(Player::Second, Threat::Five)
            .is_empty()
    );
}

#[test]
fn the_threat_playout_wins_and_blocks() {
    let mut rng = Pcg64Mcg::seed_from_u64(1);
    // Black to move can win at g8 (or l8); White threatens too.
    let win = position(
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         .......XXXX....
         .OOOO..........
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         X freestyle",
    );
    for _ in 0..20 {
        let mv = ThreatPlayout.pick(&win, &mut rng);
        assert!(["g8", "l8"].contains(&mv.to_string().as_str()), "{mv}");
    }
    // White to move, with no five of its own, must take Black's only five
    // cell (g8 is White's already).
    let block = position(
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ......OXXXX....
         ..OO...........
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         O freestyle",
    );
    for _ in 0..20 {
        assert_eq!(ThreatPlayout.pick(&block, &mut rng).to_string(), "l8");
    }
    // Against an open three, the answer is a block (or a four of one's
    // own): here White has no four, so a block cell.
    let three = position(
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ......XXX......
         ..O............
         ...............
         ...............
         ...............
         ...............
         ...............
         ..........O....
         O freestyle",
    );
    let blocks = ["e8", "f8", "j8", "k8"];
    for _ in 0..40 {
        let mv = ThreatPlayout.pick(&three, &mut rng).to_string();
        assert!(
            blocks.contains(&mv.as_str()) || ["f8", "j8"].contains(&mv.as_str()),
            "{mv}"
        );
    }
}

#[test]
fn playouts_end_with_legal_moves_under_every_rule() {
    let mut rng = Pcg64Mcg::seed_from_u64(2);
    let mut moves = Vec::new();
    for rule in Rule::ALL {
        for size in [7, 15, 20] {
            let mut outcomes = [0usize; 3];
            for _ in 0..30 {
                let start = Gomoku::with_size(size, rule).unwrap();
                for policy in 0..2 {
                    let mut game = start.clone();
                    let mut replay = start.clone();
                    let (outcome, plies) = if policy == 0 {
                        ThreatPlayout.play_out(
                            &mut game,
                            &mut rng,
                            &mut moves,
                            10_000,
                            |player, mv| {
                                assert_eq!(player, replay.to_move());
                                assert!(replay.is_legal(mv), "{mv} in {replay:?}");
                                replay.play(mv);
                            },
                        )
                    } else {
                        FocusedPlayout.play_out(
                            &mut game,
                            &mut rng,
                            &mut moves,
                            10_000,
                            |player, mv| {
                                assert_eq!(player, replay.to_move());
                                assert!(replay.is_legal(mv), "{mv} in {replay:?}");
                                replay.play(mv);
                            },
                        )
                    };
                    assert_eq!(replay, game);
                    let outcome = outcome.expect("playouts end");
                    assert!(plies <= start.max_plies());
                    outcomes[match outcome {
                        Outcome::Win(player) => player.index(),
                        Outcome::Draw => 2,
                    }] += 1;
                }
            }
            assert!(outcomes[0] + outcomes[1] > 0, "{rule} {size}: {outcomes:?}");
        }
    }
    // Through choose() as well (the generic loop).
    let mut game = Gomoku::new();
    while !game.is_over() {
        game.legal_moves(&mut moves);
        let mv = ThreatPlayout.choose(&game, &moves, &mut rng);
        assert!(moves.contains(&mv));
        game.play(mv);
    }
}

#[test]
fn threat_aware_playouts_beat_random_focused_ones() {
    // With the threat-aware policy Black wins from a position with an open
    // three (it makes the four at once); the uniform policy often not.
    let game = position(
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         .......O.......
         ......XXX......
         ........O......
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         X freestyle",
    );
    let mut rng = Pcg64Mcg::seed_from_u64(3);
    let mut moves = Vec::new();
    let mut wins = [0; 2];
    for _ in 0..200 {
        for (index, threat_aware) in [true, false].into_iter().enumerate() {
            let mut played = game.clone();
            let (outcome, _) = if threat_aware {
                ThreatPlayout.play_out(&mut played, &mut rng, &mut moves, 1000, |_, _| {})
            } else {
                FocusedPlayout.play_out(&mut played, &mut rng, &mut moves, 1000, |_, _| {})
            };
            if outcome == Some(Outcome::Win(Player::First)) {
                wins[index] += 1;
            }
        }
    }
    assert_eq!(wins[0], 200, "{wins:?}");
    assert!(wins[1] < 190, "{wins:?}");
}

#[test]
fn evaluators_see_threats_and_agree_on_symmetric_positions() {
    let evaluator = PatternEvaluator::default();
    // The player to move completes a five: almost won.
    let five = position(
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         .......XXXX....
         .OOO...........
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         X freestyle",
    );
    assert!(evaluator.value(&five) > 0.9);
    // The same with White to move: two five cells for Black, White has
    // none: lost.
    assert!(evaluator.value(&five.null_move()) < -0.9);
    // Colour flips and symmetries keep the value.
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    for _ in 0..50 {
        let mut game = Gomoku::new();
        for _ in 0..rng.random_range(0..40) {
            if game.is_over() {
                break;
            }
            let moves: Vec<Move> = game.focus_moves().iter().collect();
            game.play(moves[rng.random_range(..moves.len())]);
        }
        let value = evaluator.value(&game);
        assert!((-1.0..=1.0).contains(&value));
        use game_traits::ColorFlip;
        assert_eq!(evaluator.value(&game.color_flipped()), value);
        for symmetry in gomoku_renju::Symmetry::ALL {
            assert_eq!(evaluator.value(&game.symmetric(symmetry)), value);
        }
        // The policy rates a five and a block above everything else.
        if game.is_over() {
            continue;
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut logits = vec![0.0; moves.len()];
        let policy_value = PatternPolicy::default().evaluate(&game, &moves, &mut logits);
        assert_eq!(policy_value, value);
        let me = game.to_move();
        let urgent = game
            .threat_moves(me, Threat::Five)
            .union(&game.threat_moves(me.opponent(), Threat::Five));
        if let Some(best) = moves
            .iter()
            .zip(&logits)
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(&mv, _)| mv)
            && !urgent.is_empty()
        {
            assert!(urgent.contains(best), "{best} in\n{game}");
        }
    }
}
