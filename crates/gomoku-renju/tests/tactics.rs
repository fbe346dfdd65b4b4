//! Tactics: VCF against a naive search written here from the definition,
//! winning lines checked move by move, VCT on a drawn position, and every
//! searcher of the workspace completing a five and blocking a four, for
//! both colours.

use game_traits::{Game, GreedySearcher, Limits, Player, Searcher};
use gomoku_renju::{
    Focused, Gomoku, Move, OnFocused, PatternEvaluator, PatternPolicy, Rule, Solution,
    TacticalConfig, TacticalSearcher, Threat, ThreatPlayout, ThreatSolver, wins_by,
};
use gumbel_az::{GumbelAz, GumbelConfig, Puct, PuctConfig};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge, Rave};
use pimc_alphabeta::{AlphaBeta, AlphaBetaConfig};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

fn position(text: &str) -> Gomoku {
    text.parse().unwrap_or_else(|error| panic!("{error}"))
}

/// Whether the player to move wins by continuous fours within `plies`
/// plies: a direct search from the definition, with no table, ordering or
/// deepening.
fn naive_vcf(game: &Gomoku, plies: u32) -> bool {
    let attacker = game.to_move();
    let defender = attacker.opponent();
    if !game.threat_moves(attacker, Threat::Five).is_empty() {
        return true;
    }
    if plies < 3 {
        return false;
    }
    let threats = game.threat_moves(defender, Threat::Five);
    let candidates: Vec<Move> = if threats.is_empty() {
        game.threat_moves(attacker, Threat::Four).iter().collect()
    } else if threats.len() == 1 {
        threats.iter().filter(|&mv| game.is_legal(mv)).collect()
    } else {
        return false;
    };
    for mv in candidates {
        let mut child = game.clone();
        child.play(mv);
        let fives = child.threat_moves(attacker, Threat::Five);
        if fives.is_empty() || !child.threat_moves(defender, Threat::Five).is_empty() {
            continue;
        }
        if fives.len() >= 2 {
            return true;
        }
        let block = fives.iter().next().unwrap();
        if !child.is_legal(block) {
            // Black may not block on a forbidden cell.
            return true;
        }
        child.play(block);
        if naive_vcf(&child, plies - 2) {
            return true;
        }
    }
    false
}

/// The shortest VCF by the naive search, up to `max` plies.
fn naive_shortest(game: &Gomoku, max: u32) -> Option<u32> {
    (1..=max).step_by(2).find(|&plies| naive_vcf(game, plies))
}

/// Checks a VCF line move by move: every attacker move makes a four (or
/// the five), the defender never has a five to play, and every defender
/// move is forced (the only five cell; anything, when there are two or the
/// only one is forbidden).
fn check_vcf_line(game: &Gomoku, line: &[Move]) -> Result<(), String> {
    let attacker = game.to_move();
    let defender = attacker.opponent();
    let mut position = game.clone();
    for (ply, &mv) in line.iter().enumerate() {
        if position.is_over() {
            return Err(format!("ply {ply}: the game is already over"));
        }
        if !position.is_legal(mv) {
            return Err(format!("ply {ply}: {mv} is not legal"));
        }
        if position.to_move() == defender {
            let fives = position.threat_moves(attacker, Threat::Five);
            if !position.threat_moves(defender, Threat::Five).is_empty() {
                return Err(format!("ply {ply}: the defender could win"));
            }
            match fives.len() {
                0 => return Err(format!("ply {ply}: the attacker made no four")),
                1 if position.is_legal(fives.iter().next().unwrap()) && !fives.contains(mv) => {
                    return Err(format!("ply {ply}: {mv} does not block the four"));
                }
                _ => {}
            }
        }
        position.play(mv);
        if position.to_move() == defender && !position.is_over() {
            // The attacker just moved: a four.
            if position.threat_moves(attacker, Threat::Five).is_empty() {
                return Err(format!("ply {ply}: {mv} is not a four"));
            }
        }
    }
    if wins_by(game, line) {
        Ok(())
    } else {
        Err("the line does not end in the attacker's five".to_string())
    }
}

#[path = "common/vcf.rs"]
mod common_vcf;
use common_vcf::VCF_POSITIONS;

#[test]
fn vcf_finds_the_shortest_forced_wins() {
    let mut solver = ThreatSolver::new();
    for (text, plies) in VCF_POSITIONS {
        let game = position(text);
        assert_eq!(naive_shortest(&game, 11), Some(plies as u32), "{game}");
        let Solution::Win(line) = solver.vcf(&game, &Limits::none()) else {
            panic!("no VCF in\n{game}");
        };
        assert_eq!(line.len(), plies, "{line:?} in\n{game}");
        check_vcf_line(&game, &line).unwrap_or_else(|error| panic!("{error}: {line:?}\n{game}"));
        // No shorter one: a depth limit below it finds nothing.
        if plies > 1 {
            let shorter = Limits::depth(plies as u32 - 2);
            assert_eq!(
                solver.vcf(&game, &shorter),
                Solution::NotWithin {
                    plies: plies as u32 - 2
                }
            );
        }
        // The attacker's first move is the only right one in some of
        // these; the defender in the same position (given the move) has
        // no VCF of its own here.
        assert!(!matches!(
            solver.vcf(&game.null_move(), &Limits::none()),
            Solution::Unknown
        ));
    }
}

#[test]
fn vcf_proves_there_is_none() {
    let mut solver = ThreatSolver::new();
    // An empty board, a lone stone, and a blocked row: no fours at all or
    // fours that lead nowhere.
    for text in [
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         X freestyle",
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...OXXX........
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         .........O.....
         X freestyle",
    ] {
        let game = position(text);
        assert_eq!(
            solver.vcf(&game, &Limits::none()),
            Solution::NoWin,
            "{game}"
        );
        assert_eq!(naive_shortest(&game, 15), None);
    }
}

/// Random positions under every rule: the solver and the naive search
/// agree on the shortest VCF (up to 11 plies), and every line found passes
/// the move-by-move check.
#[test]
fn vcf_agrees_with_the_naive_search_on_random_positions() {
    let mut rng = Pcg64Mcg::seed_from_u64(2024);
    let mut solver = ThreatSolver::new();
    let mut wins = [0usize; 3];
    let mut checked = 0;
    for game_index in 0..900 {
        let rule = Rule::ALL[game_index % 3];
        let mut game = Gomoku::with_rule(rule);
        let plies = rng.random_range(6..36);
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            let moves: Vec<Move> = game.focus_moves().iter().collect();
            game.play(moves[rng.random_range(..moves.len())]);
        }
        if game.is_over() {
            continue;
        }
        checked += 1;
        let naive = naive_shortest(&game, 11);
        match solver.vcf(&game, &Limits::nodes(500_000)) {
            Solution::Win(line) => {
                check_vcf_line(&game, &line)
                    .unwrap_or_else(|error| panic!("{error}: {line:?}\n{game}"));
                if line.len() <= 11 {
                    assert_eq!(naive, Some(line.len() as u32), "{line:?}\n{game}");
                } else {
                    assert_eq!(naive, None, "{game}");
                }
                wins[game_index % 3] += 1;
            }
            Solution::NoWin => assert_eq!(naive, None, "{game}"),
            other => panic!("{other:?} on\n{game}"),
        }
    }
    assert!(checked > 700, "{checked}");
    assert!(wins.iter().all(|&count| count >= 10), "{wins:?}");
}

#[test]
fn the_line_check_catches_wrong_answers() {
    let mut solver = ThreatSolver::new();
    let mut caught = 0;
    for (text, _) in VCF_POSITIONS {
        let game = position(text);
        let line = solver.vcf(&game, &Limits::none()).line().unwrap().to_vec();
        assert!(check_vcf_line(&game, &line).is_ok());
        // A forced answer of the defender moved elsewhere, the attacker's
        // first move replaced, and the last move dropped: each is caught.
        let free = game
            .empty_cells()
            .iter()
            .find(|mv| !line.contains(mv))
            .unwrap();
        let mut wrong_attack = line.clone();
        wrong_attack[0] = free;
        let short = line[..line.len() - 1].to_vec();
        let mut wrongs = vec![wrong_attack, short.clone()];
        // The defender's forced plies: where the attacker has one five cell.
        let mut position = game.clone();
        for (ply, &mv) in line.iter().enumerate() {
            if ply % 2 == 1 && position.threat_moves(game.to_move(), Threat::Five).len() == 1 {
                let mut wrong_defence = line.clone();
                wrong_defence[ply] = free;
                wrongs.push(wrong_defence);
            }
            position.play(mv);
        }
        for wrong in &wrongs {
            assert!(check_vcf_line(&game, wrong).is_err(), "{wrong:?}");
            caught += 1;
        }
        assert!(!wins_by(&game, &short));
    }
    // Two per position, plus the forced defences of the 5-, 7- and 9-ply
    // wins (at least one each).
    assert!(caught >= 11, "{caught}");
}

#[test]
fn renju_vcf_respects_forbidden_cells() {
    // White wins because Black's only block, h8, is forbidden (it would
    // give Black a double three): White's four on the eighth row is
    // decisive at once.
    let game = position(
        "...............
         ...............
         ...............
         ...............
         ...............
         .......X.......
         .......X.......
         ..OOOO.........
         .....XX........
         ...............
         ...............
         ...............
         ...............
         ...............
         X.X............
         O renju",
    );
    let mut check = game.clone();
    check.play("g8".parse().unwrap());
    let fives = check.threat_moves(Player::Second, Threat::Five);
    assert!(fives.contains("b8".parse().unwrap()));
    let mut solver = ThreatSolver::new();
    let Solution::Win(line) = solver.vcf(&game, &Limits::none()) else {
        panic!("White wins by fours");
    };
    check_vcf_line(&game, &line).unwrap();
    assert!(line.len() <= 3);
}

#[test]
fn vct_wins_with_threes() {
    // Black to move has no four at all, but h8 makes two open threes:
    // White can stop only one, and the other becomes a straight four.
    // (White's stones are out of play: a White four would have to be
    // answered first.)
    let game = position(
        "O..............
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
         O.............O
         X freestyle",
    );
    let mut solver = ThreatSolver::new();
    assert_eq!(solver.vcf(&game, &Limits::none()), Solution::NoWin);
    let Solution::Win(line) = solver.vct(&game, &Limits::none()) else {
        panic!("a three-three wins");
    };
    assert!(wins_by(&game, &line), "{line:?}");
    assert_eq!(line.len(), 5, "{line:?}");
    // Under renju the same move is a forbidden double three, and Black
    // has no other win by threes here.
    let renju: Gomoku = game
        .to_string()
        .replace("freestyle", "renju")
        .parse()
        .unwrap();
    let solution = solver.vct(&renju, &Limits::none().with_depth(9));
    assert!(
        !matches!(solution, Solution::Win(ref line) if line[0].to_string() == "h8"),
        "{solution:?}"
    );
    // The budget is honoured.
    let early = Gomoku::new();
    assert_eq!(solver.vct(&early, &Limits::nodes(1)), Solution::Unknown);
}

/// Positions where the player to move can complete a five ("win") or must
/// block the opponent's only five cell ("defend"), from random games, for
/// each player to move, under every rule.
fn tactical_positions(per_kind: usize) -> Vec<(Gomoku, bool)> {
    let mut rng = Pcg64Mcg::seed_from_u64(99);
    let mut found = Vec::new();
    let mut counts = std::collections::HashMap::new();
    for attempt in 0..20_000 {
        let rule = Rule::ALL[attempt % 3];
        let mut game = Gomoku::with_rule(rule);
        loop {
            if game.is_over() {
                break;
            }
            let me = game.to_move();
            let win = !game.threat_moves(me, Threat::Five).is_empty();
            let threats = game.threat_moves(me.opponent(), Threat::Five);
            let defend = !win
                && threats.len() == 1
                && game.is_legal(threats.iter().next().unwrap())
                && game.threat_moves(me, Threat::OpenFour).is_empty();
            for (kind, present) in [(true, win), (false, defend)] {
                let key = (kind, me, rule);
                let count = counts.entry(key).or_insert(0);
                if present && *count < per_kind {
                    *count += 1;
                    found.push((game.clone(), kind));
                }
            }
            let moves: Vec<Move> = game.focus_moves().iter().collect();
            game.play(moves[rng.random_range(..moves.len())]);
        }
        if counts.len() == 12 && counts.values().all(|&count| count >= per_kind) {
            break;
        }
    }
    assert_eq!(counts.len(), 12, "{counts:?}");
    found
}

/// The drawn cases: Black and White each to move with a five to make, and
/// each to move against the other's four.
fn drawn_positions() -> Vec<(Gomoku, bool)> {
    let win_black = position(
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ......O........
         ...XXXX.O......
         ......O........
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         X freestyle",
    );
    let defend_black = position(
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...........O...
         ..........O....
         .........O.....
         ......XXO......
         .......X.......
         ...............
         ...............
         ...............
         ...............
         X freestyle",
    );
    let mut drawn = Vec::new();
    for (game, win) in [(win_black, true), (defend_black, false)] {
        drawn.push((game.clone(), win));
        // The same with colours swapped: White to move.
        let swapped: Gomoku = game
            .to_string()
            .replace('X', "x")
            .replace('O', "X")
            .replace('x', "O")
            .parse()
            .unwrap();
        assert_eq!(swapped.to_move(), Player::Second);
        drawn.push((swapped, win));
    }
    drawn
}

/// Whether `mv` is right in the position: the five, or the block.
fn is_right(game: &Gomoku, win: bool, mv: Option<Move>) -> bool {
    let Some(mv) = mv else {
        return false;
    };
    let me = game.to_move();
    if win {
        game.threat_moves(me, Threat::Five).contains(mv)
    } else {
        game.threat_moves(me.opponent(), Threat::Five).contains(mv)
    }
}

fn check<S: Searcher<Gomoku>>(
    name: &str,
    searcher: &mut S,
    cases: &[(Gomoku, bool)],
    limits: &Limits,
) {
    for (game, win) in cases {
        searcher.reset();
        let report = searcher.search(game, limits);
        assert!(
            is_right(game, *win, report.best),
            "{name} played {:?} ({}) in\n{game}",
            report.best,
            if *win {
                "five to make"
            } else {
                "four to block"
            }
        );
    }
}

#[test]
fn every_searcher_makes_fives_and_blocks_fours() {
    let mut cases = drawn_positions();
    cases.extend(tactical_positions(2));
    let limits = Limits::iterations(1_000);
    let config = MctsConfig::default().with_seed(5);
    let uct = Mcts::new(
        MctsKnowledge::uct()
            .with_playout(ThreatPlayout)
            .with_evaluator(PatternEvaluator::default()),
        config.clone(),
    )
    .unwrap();
    let rave = Mcts::new(
        MctsKnowledge::rave(Rave::new())
            .with_playout(ThreatPlayout)
            .with_evaluator(PatternEvaluator::default()),
        config.clone().with_exploration(Rave::NEUTRAL_EXPLORATION),
    )
    .unwrap();
    let gumbel = GumbelAz::new(
        PatternPolicy::default(),
        GumbelConfig::default().with_gumbel_scale(0.0).with_seed(5),
    )
    .unwrap();
    let puct = Puct::new(PatternPolicy::default(), PuctConfig::default().with_seed(5)).unwrap();
    check("uct", &mut OnFocused(uct), &cases, &limits);
    check("rave", &mut OnFocused(rave), &cases, &limits);
    check(
        "gumbel",
        &mut OnFocused(gumbel),
        &cases,
        &Limits::iterations(64),
    );
    check(
        "puct",
        &mut OnFocused(puct),
        &cases,
        &Limits::iterations(64),
    );
    // Alpha-beta with the evaluator, two plies: a five is a proven win,
    // and every move but the block loses to one.
    check(
        "alphabeta",
        &mut OnFocused(
            AlphaBeta::new(PatternEvaluator::default(), AlphaBetaConfig::default()).unwrap(),
        ),
        &cases,
        &Limits::depth(2),
    );
    // The greedy player on the full board, and through the focused view.
    check(
        "greedy",
        &mut GreedySearcher::new(PatternEvaluator::default()),
        &cases,
        &Limits::none(),
    );
    check(
        "greedy-focused",
        &mut OnFocused(GreedySearcher::new(PatternEvaluator::default())),
        &cases,
        &Limits::none(),
    );
    // And the tactical layer in front of a random player.
    check(
        "tactical",
        &mut TacticalSearcher::new(
            game_traits::RandomSearcher::new(1),
            TacticalConfig::default(),
        )
        .unwrap(),
        &cases,
        &Limits::none(),
    );
}

#[test]
fn searchers_without_threat_knowledge_can_fail() {
    // The checks have teeth: a random player misses.
    let mut cases = drawn_positions();
    cases.extend(tactical_positions(2));
    let mut random = OnFocused(game_traits::RandomSearcher::new(3));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        check("random", &mut random, &cases, &Limits::none());
    }));
    assert!(result.is_err());
}

#[test]
fn focused_searchers_see_only_near_cells() {
    let game = Focused::new(position(
        "...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         .......X.......
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         ...............
         O freestyle",
    ));
    let mut mcts = Mcts::new(
        MctsKnowledge::uct()
            .with_playout(ThreatPlayout)
            .with_evaluator(PatternEvaluator::default()),
        MctsConfig::default().with_seed(1),
    )
    .unwrap();
    let report = mcts.search(&game, &Limits::iterations(300));
    assert_eq!(report.moves.len(), 24);
    let best = report.best.unwrap();
    assert!(
        best.x().abs_diff(7) <= 2 && best.y().abs_diff(7) <= 2,
        "{best}"
    );
}

#[test]
fn the_tactical_searcher_is_reproducible_and_stops_when_told() {
    let mut rng = Pcg64Mcg::seed_from_u64(8);
    let mut game = Gomoku::new();
    for _ in 0..12 {
        let moves: Vec<Move> = game.focus_moves().iter().collect();
        game.play(moves[rng.random_range(..moves.len())]);
    }
    // Same seed, same iteration budget, one thread: the same move.
    let run = || {
        let inner = Mcts::new(
            MctsKnowledge::uct()
                .with_playout(ThreatPlayout)
                .with_evaluator(PatternEvaluator::default()),
            MctsConfig::default().with_seed(11),
        )
        .unwrap();
        TacticalSearcher::new(OnFocused(inner), TacticalConfig::default())
            .unwrap()
            .search(&game, &Limits::iterations(500))
            .best
    };
    assert_eq!(run(), run());
    // A long search stopped from another thread returns promptly.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let limits = Limits::time(std::time::Duration::from_secs(120)).with_stop(stop.clone());
    let setter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let puct = Puct::new(PatternPolicy::default(), PuctConfig::default()).unwrap();
    let started = std::time::Instant::now();
    let report = TacticalSearcher::new(OnFocused(puct), TacticalConfig::default())
        .unwrap()
        .search(&game, &limits);
    setter.join().unwrap();
    assert!(report.best.is_some_and(|mv| game.is_legal(mv)));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn tactical_settings_out_of_range_are_refused() {
    let inner = || GreedySearcher::new(PatternEvaluator::default());
    for share in [1.5, -0.1, f32::NAN] {
        let mut config = TacticalConfig::default();
        config.time_share = share;
        let error = TacticalSearcher::new(inner(), config).err().unwrap();
        assert_eq!(error.name, "time_share");
        assert!(
            error
                .to_string()
                .ends_with("is out of range: expected 0 to 1"),
            "{error}"
        );
    }
    let mut config = TacticalConfig::default();
    config.time_share = 1.0;
    config.vct_nodes = 0;
    assert!(TacticalSearcher::new(inner(), config).is_ok());
}
