//! A tour of the workspace: one set of traits, three searchers, two games.
//!
//! 1. Othello perft from the start, checked against the standard table.
//! 2. An exact endgame solve of FFO #40 (20 empty squares).
//! 3. MCTS with RAVE (handing over to the exact solver for the last 14
//!    empties) against Gumbel AlphaZero, on Othello, colours swapped.
//! 4. The same MCTS code on Jungle against a random player.
//!
//! Run with `cargo run --release --example demo`.

use std::time::Instant;

use bitboard_othello::{Board, CornerFirstPlayout, HeuristicPolicy, Solver};
use dou_shou_qi::{Jungle, JunglePlayout};
use game_traits::{
    FinishedGames, Game, Handover, Limits, RandomSearcher, SeriesOptions, Tally, perft_with,
    play_series,
};
use gumbel_az::{GumbelAz, GumbelConfig};
use mcts_rave::{Mcts, MctsConfig, MctsKnowledge, Rave};

/// The standard Othello perft table, depths 1 to 9.
const OTHELLO_PERFT: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];

/// FFO #40: Black to move, 20 empties; Black wins by 38 with a2.
const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    othello_perft();
    endgame()?;
    othello_match()?;
    jungle_match()?;
    Ok(())
}

fn othello_perft() {
    println!("== Othello perft from the start (pass = one ply, finished games count 1)");
    let start = Board::start();
    for (depth, &expected) in (1..).zip(OTHELLO_PERFT.iter()) {
        let clock = Instant::now();
        let count = bitboard_othello::perft_leaves(&start, depth);
        let verdict = if count == expected { "ok" } else { "MISMATCH" };
        println!(
            "  depth {depth}: {count:>9} ({verdict}) in {:.1} ms",
            clock.elapsed().as_secs_f64() * 1e3
        );
    }
    // The generic perft of game-traits runs on the same board through the
    // `Game` trait alone.
    let generic = perft_with(&start, 6, FinishedGames::CountOne);
    println!("  generic game_traits::perft_with at depth 6: {generic}");
}

fn endgame() -> Result<(), Box<dyn std::error::Error>> {
    println!("\n== Exact endgame: FFO #40");
    let board: Board = FFO_40.parse()?;
    println!(
        "  {} empties, {:?} to move",
        board.empty_count(),
        board.to_move()
    );
    let clock = Instant::now();
    let solution = Solver::default().solve(&board);
    println!(
        "  score {:+} with {} ({} nodes, {:.2} s); the published answer is +38 with a2",
        solution.score,
        solution
            .best
            .map_or_else(|| "no move".to_string(), |mv| mv.to_string()),
        solution.nodes,
        clock.elapsed().as_secs_f64()
    );
    Ok(())
}

fn othello_match() -> Result<(), Box<dyn std::error::Error>> {
    println!("\n== Othello: MCTS-RAVE + endgame solver against Gumbel AlphaZero");
    let rave_limits = Limits::iterations(20_000);
    let gumbel_limits = Limits::iterations(64);
    println!("  MCTS-RAVE: corner-first playouts, 20,000 iterations a move, exact from 14 empties");
    println!("  Gumbel AlphaZero: heuristic policy, k = 4, no root noise, 64 simulations");
    let make_mcts = |seed| {
        let config = MctsConfig::default()
            .with_seed(seed)
            .with_exploration(Rave::OTHELLO_EXPLORATION);
        let mcts = Mcts::new(
            MctsKnowledge::rave(Rave::new()).with_playout(CornerFirstPlayout::default()),
            config,
        )
        .expect("valid settings");
        Handover::new(mcts, Solver::default(), |board: &Board| {
            board.empty_count() <= 14
        })
    };
    let make_gumbel = |seed| {
        let config = GumbelConfig::default()
            .with_seed(seed)
            .with_max_considered_actions(4)
            .with_gumbel_scale(0.0);
        GumbelAz::new(HeuristicPolicy::default(), config).expect("valid settings")
    };
    let options = SeriesOptions::new(3, 4, Limits::none())
        .with_limits(rave_limits, gumbel_limits)
        .with_seed(2026)
        .with_threads(2);
    let clock = Instant::now();
    let series = play_series(&Board::start(), make_mcts, make_gumbel, &options)?;
    for game in &series.games {
        println!(
            "  game {}: MCTS-RAVE plays {:?}, {} plies, {}",
            game.game,
            game.a_side,
            game.plies,
            describe(game.outcome, game.a_side)
        );
    }
    print_tally("MCTS-RAVE", &series.tally, clock);
    Ok(())
}

fn jungle_match() -> Result<(), Box<dyn std::error::Error>> {
    println!("\n== Jungle: the same MCTS code against a random player");
    let make_mcts = |seed| {
        Mcts::new(
            MctsKnowledge::uct().with_playout(JunglePlayout::default()),
            MctsConfig::default().with_seed(seed),
        )
        .expect("valid settings")
    };
    let options = SeriesOptions::new(2, 2, Limits::iterations(3_000))
        .with_seed(7)
        .with_threads(2);
    let clock = Instant::now();
    let series = play_series(&Jungle::new(), make_mcts, RandomSearcher::new, &options)?;
    for game in &series.games {
        println!(
            "  game {}: MCTS plays {:?}, {} plies, {}",
            game.game,
            game.a_side,
            game.plies,
            describe(game.outcome, game.a_side)
        );
    }
    print_tally("MCTS", &series.tally, clock);
    Ok(())
}

fn describe(outcome: Option<game_traits::Outcome>, side: game_traits::Player) -> &'static str {
    match outcome.map(|outcome| outcome.reward(side)) {
        Some(reward) if reward > 0.0 => "won",
        Some(reward) if reward < 0.0 => "lost",
        Some(_) => "drawn",
        None => "unfinished",
    }
}

fn print_tally(name: &str, tally: &Tally, clock: Instant) {
    println!(
        "  {name}: {tally} in {:.1} s",
        clock.elapsed().as_secs_f64()
    );
}
