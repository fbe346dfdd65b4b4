//! The rules against the reference, lines of four, five and six at every
//! place of the board under every rule, and the symmetries and colour
//! flips commuting with move generation and win detection.

mod reference;

use game_traits::{ColorFlip, Game, Outcome, Player, PositionHash};
use gomoku_renju::{Direction, Gomoku, Move, Rule, Symmetry, Threat};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A position after `plies` random legal moves (fewer if the game ends).
fn random_game(size: usize, rule: Rule, plies: usize, seed: u64) -> Gomoku {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut game = Gomoku::with_size(size, rule).unwrap();
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.random_range(..moves.len())]);
    }
    game
}

/// A position after random moves near the stones (denser shapes).
fn random_focused_game(size: usize, rule: Rule, plies: usize, seed: u64) -> Gomoku {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let mut game = Gomoku::with_size(size, rule).unwrap();
    for _ in 0..plies {
        let moves: Vec<Move> = game.focus_moves().iter().collect();
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.random_range(..moves.len())]);
    }
    game
}

fn rules() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::Freestyle),
        Just(Rule::Standard),
        Just(Rule::Renju)
    ]
}

fn check_shapes_against_reference(game: &Gomoku) -> Result<(), TestCaseError> {
    for mv in game.empty_cells().iter() {
        for player in Player::BOTH {
            for direction in Direction::ALL {
                prop_assert_eq!(
                    game.shape(player, mv, direction),
                    reference::shape(game, player, mv, direction),
                    "{:?} {} {:?} in {}",
                    player,
                    mv,
                    direction,
                    game
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    /// Every cached shape equals the reference, which reads whole lines.
    #[test]
    fn shapes_match_the_reference(size in 5usize..=22, rule in rules(), plies in 0usize..120, seed in any::<u64>()) {
        let game = random_focused_game(size, rule, plies, seed);
        check_shapes_against_reference(&game)?;
        prop_assert!(game.caches_are_consistent());
    }

    /// The incremental caches equal the ones rebuilt from the stones after
    /// every move of random games.
    #[test]
    fn incremental_caches_equal_rebuilt_ones(size in prop_oneof![Just(15usize), Just(20), 5usize..=22], rule in rules(), seed in any::<u64>()) {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut game = Gomoku::with_size(size, rule).unwrap();
        let mut moves = Vec::new();
        while !game.is_over() {
            game.legal_moves(&mut moves);
            // Mostly near the stones, sometimes anywhere.
            let focus: Vec<Move> = game.focus_moves().iter().collect();
            let mv = if rng.random_bool(0.8) && !focus.is_empty() {
                focus[rng.random_range(..focus.len())]
            } else {
                moves[rng.random_range(..moves.len())]
            };
            game.play(mv);
            prop_assert!(game.caches_are_consistent(), "after {} in {}", mv, game);
            // Wins are detected exactly as the reference sees them.
            let winner = game.outcome().and_then(Outcome::winner);
            for player in Player::BOTH {
                prop_assert_eq!(reference::has_five(&game, player), winner == Some(player), "{}", game);
            }
        }
    }

    /// Renju legality equals the reference's forbidden-move rule.
    #[test]
    fn renju_legality_matches_the_reference(plies in 10usize..90, seed in any::<u64>()) {
        let game = random_focused_game(15, Rule::Renju, plies, seed);
        for mv in game.empty_cells().iter() {
            prop_assert_eq!(game.is_forbidden(mv), reference::forbidden(&game, mv), "{} in {}", mv, game);
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, failure_persistence: None, ..ProptestConfig::default() })]

    /// Lines of 4, 5 and 6 stones placed one stone at a time, the last
    /// stone anywhere in the line, in any direction, mostly against an
    /// edge: each rule's verdict on the last move.
    #[test]
    fn lines_get_each_rules_verdict(
        size in prop_oneof![Just(15usize), Just(20), 5usize..=22],
        rule in rules(),
        direction in 0usize..4,
        length in 4usize..=6,
        edge in 0usize..3,
        along in any::<u16>(),
        across in any::<u16>(),
        last in 0usize..6,
        white in any::<bool>(),
    ) {
        let direction = Direction::ALL[direction];
        let cells = line_cells(size, direction, length, edge, along, across);
        if cells.is_empty() {
            return Ok(());
        }
        let player = if white { Player::Second } else { Player::First };
        let last = last % length;
        let mut stones: Vec<Move> = cells.clone();
        let final_stone = stones.remove(last);
        let (black, white_stones) = match player {
            Player::First => (stones, Vec::new()),
            Player::Second => (Vec::new(), stones),
        };
        let Ok(before) = Gomoku::from_stones(size, rule, &black, &white_stones, player) else {
            return Ok(());
        };
        if before.is_over() {
            // The other stones already win (a six missing an end stone).
            prop_assert_eq!(length, 6);
            prop_assert!(last == 0 || last == 5);
            return Ok(());
        }
        let expected = verdict(rule, player, length);
        let mut after = before.clone();
        if rule == Rule::Renju && player == Player::First && length == 6 {
            // Black's overline is forbidden: the move is not legal.
            prop_assert!(!after.is_legal(final_stone));
            prop_assert_eq!(after.forbidden(final_stone), Some(gomoku_renju::Forbidden::Overline));
            return Ok(());
        }
        prop_assert!(after.try_play(final_stone).is_ok());
        prop_assert_eq!(after.outcome(), expected.map(|_| Outcome::Win(player)), "{}", after);
        // A five cell is exactly a winning move.
        prop_assert_eq!(
            before.threat_moves(player, Threat::Five).contains(final_stone),
            expected.is_some()
        );
    }
}

/// The verdict of a line of `length` stones of `player`: `Some(())` if it
/// wins.
fn verdict(rule: Rule, player: Player, length: usize) -> Option<()> {
    match length {
        5 => Some(()),
        6 if rule.overline_wins(player) => Some(()),
        _ => None,
    }
}

/// The cells of a line of `length` in `direction`, starting at a place
/// drawn from `along` and `across`; `edge` 0 and 1 put it against the two
/// ends of its line, 2 anywhere.
fn line_cells(
    size: usize,
    direction: Direction,
    length: usize,
    edge: usize,
    along: u16,
    across: u16,
) -> Vec<Move> {
    let (dx, dy) = direction.step();
    // All starts whose line of `length` fits.
    let starts: Vec<(i32, i32)> = (0..size as i32)
        .flat_map(|x| (0..size as i32).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let (ex, ey) = (x + dx * (length as i32 - 1), y + dy * (length as i32 - 1));
            ex >= 0 && ex < size as i32 && ey >= 0 && ey < size as i32
        })
        .collect();
    let touches_start = |&(x, y): &(i32, i32)| {
        let (px, py) = (x - dx, y - dy);
        px < 0 || py < 0 || px >= size as i32 || py >= size as i32
    };
    let touches_end = |&(x, y): &(i32, i32)| {
        let (nx, ny) = (x + dx * length as i32, y + dy * length as i32);
        nx < 0 || ny < 0 || nx >= size as i32 || ny >= size as i32
    };
    let pool: Vec<(i32, i32)> = match edge {
        0 => starts.iter().copied().filter(touches_start).collect(),
        1 => starts.iter().copied().filter(touches_end).collect(),
        _ => starts.clone(),
    };
    let pool = if pool.is_empty() { starts } else { pool };
    if pool.is_empty() {
        // The line does not fit (six stones on a 5x5 board).
        return Vec::new();
    }
    let (x, y) = pool[(usize::from(along) * 7919 + usize::from(across)) % pool.len()];
    (0..length as i32)
        .map(|i| Move::new((x + dx * i) as u8, (y + dy * i) as u8))
        .collect()
}

/// Every line of 4, 5 and 6 stones, at every place of the board, in every
/// direction, for both players, under every rule, on three sizes: the
/// position's result is each rule's verdict.
#[test]
fn every_line_at_every_place_gets_each_rules_verdict() {
    let mut checked = 0;
    for size in [5, 15, 20] {
        for rule in Rule::ALL {
            for direction in Direction::ALL {
                let (dx, dy) = direction.step();
                for length in 4..=6usize {
                    for x in 0..size as i32 {
                        for y in 0..size as i32 {
                            let (ex, ey) =
                                (x + dx * (length as i32 - 1), y + dy * (length as i32 - 1));
                            if ex < 0 || ey < 0 || ex >= size as i32 || ey >= size as i32 {
                                continue;
                            }
                            let cells: Vec<Move> = (0..length as i32)
                                .map(|i| Move::new((x + dx * i) as u8, (y + dy * i) as u8))
                                .collect();
                            for player in Player::BOTH {
                                let (black, white) = match player {
                                    Player::First => (cells.clone(), Vec::new()),
                                    Player::Second => (Vec::new(), cells.clone()),
                                };
                                let game = Gomoku::from_stones(
                                    size,
                                    rule,
                                    &black,
                                    &white,
                                    player.opponent(),
                                )
                                .unwrap();
                                let expected =
                                    verdict(rule, player, length).map(|_| Outcome::Win(player));
                                assert_eq!(
                                    game.outcome(),
                                    expected,
                                    "{rule} {player:?} {length} at {}",
                                    cells[0]
                                );
                                let mut moves = Vec::new();
                                game.legal_moves(&mut moves);
                                assert_eq!(moves.is_empty(), expected.is_some());
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 25_000, "{checked}");
}

/// The moves of `game`, sorted.
fn legal(game: &Gomoku) -> Vec<Move> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.sort();
    moves
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    /// The eight symmetries commute with move generation, the threat sets
    /// and win detection, under every rule.
    #[test]
    fn symmetries_commute_with_the_rules(size in prop_oneof![Just(15usize), Just(20), 5usize..=22], rule in rules(), plies in 0usize..200, seed in any::<u64>(), focused in any::<bool>()) {
        let game = if focused {
            random_focused_game(size, rule, plies, seed)
        } else {
            random_game(size, rule, plies, seed)
        };
        let moves = legal(&game);
        for symmetry in Symmetry::ALL {
            let image = game.symmetric(symmetry);
            let mut mapped: Vec<Move> = moves.iter().map(|&mv| symmetry.apply(mv, size)).collect();
            mapped.sort();
            prop_assert_eq!(legal(&image), mapped, "{:?}", symmetry);
            prop_assert_eq!(image.outcome(), game.outcome());
            prop_assert_eq!(image.symmetric(symmetry.inverse()), game.clone());
            for player in Player::BOTH {
                for threat in Threat::ALL {
                    let mut mapped: Vec<Move> = game.threat_moves(player, threat).iter().map(|mv| symmetry.apply(mv, size)).collect();
                    mapped.sort();
                    let mut found: Vec<Move> = image.threat_moves(player, threat).iter().collect();
                    found.sort();
                    prop_assert_eq!(found, mapped, "{:?} {:?} {}", symmetry, player, threat);
                }
            }
            // Playing a move commutes with the symmetry, wins included.
            for &mv in moves.iter().take(12) {
                let mut played = game.clone();
                played.play(mv);
                let mut image_played = image.clone();
                image_played.play(symmetry.apply(mv, size));
                prop_assert_eq!(image_played.outcome(), played.outcome());
                prop_assert_eq!(image_played, played.symmetric(symmetry));
            }
        }
        let (canonical, symmetry) = game.canonical();
        prop_assert_eq!(game.symmetric(symmetry), canonical.clone());
        for other in Symmetry::ALL {
            prop_assert_eq!(game.symmetric(other).canonical().0, canonical.clone());
        }
    }

    /// Swapping colours commutes with move generation, threats and win
    /// detection under freestyle and standard.
    #[test]
    fn color_flip_commutes_with_the_rules(size in prop_oneof![Just(15usize), Just(20), 5usize..=22], standard in any::<bool>(), plies in 0usize..200, seed in any::<u64>()) {
        let rule = if standard { Rule::Standard } else { Rule::Freestyle };
        let game = random_focused_game(size, rule, plies, seed);
        let flipped = game.color_flipped();
        prop_assert_eq!(flipped.to_move(), game.to_move().opponent());
        prop_assert_eq!(flipped.outcome(), game.outcome().map(Outcome::flipped));
        prop_assert_eq!(flipped.color_flipped(), game.clone());
        prop_assert!(flipped.caches_are_consistent());
        prop_assert_ne!(flipped.position_hash(), game.position_hash());
        prop_assert_eq!(legal(&flipped), legal(&game));
        for player in Player::BOTH {
            for threat in Threat::ALL {
                prop_assert_eq!(flipped.threat_moves(player.opponent(), threat), game.threat_moves(player, threat));
            }
        }
        for mv in legal(&game) {
            let mut played = game.clone();
            played.play(mv);
            let mut flipped_played = flipped.clone();
            flipped_played.play(Gomoku::flip_move(mv));
            prop_assert_eq!(flipped_played.outcome(), played.outcome().map(Outcome::flipped));
            prop_assert_eq!(flipped_played, played.color_flipped());
        }
    }
}

#[test]
fn hashes_tell_side_size_and_rule_apart() {
    let mut seen = std::collections::HashSet::new();
    for size in 5..=22 {
        for rule in Rule::ALL {
            let game = Gomoku::with_size(size, rule).unwrap();
            assert!(seen.insert(game.position_hash()));
            assert!(seen.insert(game.null_move().position_hash()));
        }
    }
    // Transpositions hash the same; the side to move counts.
    let mut a = Gomoku::new();
    let mut b = Gomoku::new();
    for name in ["h8", "h9", "i8", "i9"] {
        a.play(name.parse().unwrap());
    }
    for name in ["i8", "i9", "h8", "h9"] {
        b.play(name.parse().unwrap());
    }
    assert_eq!(a.position_hash(), b.position_hash());
    assert_eq!(a, b);
    assert_ne!(a.position_hash(), a.null_move().position_hash());
    assert_ne!(a, a.null_move());
}

#[test]
fn a_full_board_is_a_draw() {
    // Stripes of two, shifted by two every row: nobody gets five.
    let size = 6;
    let mut black = Vec::new();
    let mut white = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let mv = Move::new(x as u8, y as u8);
            if ((x + 2 * (y % 3)) / 2) % 2 == 0 {
                black.push(mv);
            } else {
                white.push(mv);
            }
        }
    }
    let last = black.pop().unwrap();
    for rule in Rule::ALL {
        let game = Gomoku::from_stones(size, rule, &black, &white, Player::First).unwrap();
        assert_eq!(game.outcome(), None, "{game}");
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        if rule == Rule::Renju && game.is_forbidden(last) {
            assert_eq!(moves, vec![Move::PASS]);
            continue;
        }
        assert_eq!(moves, vec![last]);
        let mut full = game.clone();
        full.play(last);
        assert_eq!(full.outcome(), Some(Outcome::Draw), "{full}");
        assert!(full.is_full());
    }
}
