//! Run-time choice of the instructions the hot loops run with.
//!
//! A plain `cargo build` targets the x86-64 baseline (SSE2): no `popcnt`,
//! no `lzcnt`/`tzcnt`, no BMI, no AVX2, so every `count_ones` becomes a
//! dozen instructions and every bit scan a branch. The entry points of the
//! hot loops (perft, the playout loop, the endgame search) are therefore
//! compiled once per instruction set of [`hot_path!`] by the `multiversion`
//! crate, and the best copy the processor supports is picked at the first
//! call (an atomic load on every later call). The choice is made per
//! perft, per playout and per solve, never per node: every function the
//! loops call is inlined into the chosen copy, and their recursion goes
//! through nested functions that carry the same target features (the
//! closures handed to the generic node bodies stay inside that copy).
//!
//! The unsafe call into a `#[target_feature]` function after the feature
//! check lives inside `multiversion`'s generated dispatcher; this crate
//! has no `unsafe` of its own.
//!
//! The portable copies (`*_portable`) are the same bodies without target
//! features: what a processor without the listed extensions runs. Tests
//! call them directly and compare them with the dispatched copies.

use game_traits::{Outcome, Player};

use crate::endgame::parallel;
use crate::endgame::search::{self, Recurse, Search};
use crate::{Board, Move, movegen, pattern, perft, playout};

/// Compiles the function once per instruction set, plus the portable copy,
/// and dispatches at run time. `x86-64-v3` (Haswell and later, Zen) brings
/// `popcnt`, `lzcnt`, `tzcnt`, BMI1/2 and AVX2; `x86-64-v2` brings
/// `popcnt` alone (with SSE4.2).
macro_rules! hot_path {
    ($function:item) => {
        #[multiversion::multiversion(targets(
            "x86_64+avx2+bmi1+bmi2+lzcnt+popcnt+fma",
            "x86_64+sse4.2+popcnt"
        ))]
        $function
    };
}

/// The instruction set the hot loops run with on this processor:
/// `"x86-64-v3"`, `"x86-64-v2"` or `"portable"`.
///
/// ```
/// let isa = bitboard_othello::instruction_set();
/// assert!(["x86-64-v3", "x86-64-v2", "portable"].contains(&isa));
/// ```
#[must_use]
pub fn instruction_set() -> &'static str {
    selected_name()
}

hot_path! {
    fn selected_name() -> &'static str {
        multiversion::target::match_target! {
            "x86_64+avx2+bmi1+bmi2+lzcnt+popcnt+fma" => "x86-64-v3",
            "x86_64+sse4.2+popcnt" => "x86-64-v2",
            _ => "portable",
        }
    }
}

hot_path! {
    /// Perft below a position (see [`perft::count_node`]).
    pub(crate) fn perft_count(player: u64, opponent: u64, depth: u32, finished_count: u64) -> u64 {
        #[multiversion::inherit_target]
        fn flips(square: usize, player: u64, opponent: u64) -> u64 {
            movegen::flips_inline(square, player, opponent)
        }
        #[multiversion::inherit_target]
        // A function with target features is not `Fn`: the closure is needed.
        #[allow(clippy::redundant_closure)]
        fn count(player: u64, opponent: u64, depth: u32, finished_count: u64) -> u64 {
            perft::count_node(
                player,
                opponent,
                depth,
                finished_count,
                |square, player, opponent| flips(square, player, opponent),
                |player, opponent, depth| count(player, opponent, depth, finished_count),
            )
        }
        count(player, opponent, depth, finished_count)
    }
}

/// [`perft_count`] without target features.
#[cfg(test)]
pub(crate) fn perft_count_portable(
    player: u64,
    opponent: u64,
    depth: u32,
    finished_count: u64,
) -> u64 {
    perft::count_node(
        player,
        opponent,
        depth,
        finished_count,
        movegen::flips,
        |player, opponent, depth| perft_count_portable(player, opponent, depth, finished_count),
    )
}

/// Builds the [`Recurse`] handed to the search bodies from the functions
/// in scope (each copy's own).
macro_rules! recursion {
    () => {
        Recurse {
            flips: |square, player, opponent| flips(square, player, opponent),
            mobility: |player, opponent| mobility(player, opponent),
            node: |search: &mut Search<'_>, player, opponent, moves, alpha, beta| {
                node(search, player, opponent, moves, alpha, beta)
            },
            estimate: |search: &mut Search<'_>, player, opponent, depth, alpha, beta| {
                estimate(search, player, opponent, depth, alpha, beta)
            },
            shallow: |search: &mut Search<'_>,
                      player,
                      opponent,
                      alpha,
                      beta,
                      squares: &[u8],
                      passed| {
                shallow(search, player, opponent, alpha, beta, squares, passed)
            },
        }
    };
}

/// The player's moves in a multiversioned function: with AVX2 the vector
/// move generator ([`movegen::mobility_avx2`]), else the scalar one.
macro_rules! dispatched_mobility {
    ($player:expr, $opponent:expr) => {
        multiversion::target::match_target! {
            "x86_64+avx2" => movegen::mobility_avx2($player, $opponent),
            _ => movegen::mobility($player, $opponent),
        }
    };
}

/// Declares the recursive functions of the search, `node`, `estimate`
/// and `shallow`, the flips of a move and the move generator:
/// `dispatched` inside a multiversioned function (its target features),
/// `portable` without.
macro_rules! search_functions {
    // In a multiversioned function: its target features, and with AVX2
    // the vector move generator.
    (dispatched) => {
        #[multiversion::inherit_target]
        fn mobility(player: u64, opponent: u64) -> u64 {
            dispatched_mobility!(player, opponent)
        }
        search_functions!(@bodies #[multiversion::inherit_target]);
    };
    (portable) => {
        fn mobility(player: u64, opponent: u64) -> u64 {
            movegen::mobility(player, opponent)
        }
        search_functions!(@bodies);
    };
    (@bodies $(#[$attribute:meta])*) => {
        $(#[$attribute])*
        fn flips(square: usize, player: u64, opponent: u64) -> u64 {
            movegen::flips_inline(square, player, opponent)
        }

        $(#[$attribute])*
        fn node(
            search: &mut Search<'_>,
            player: u64,
            opponent: u64,
            moves: u64,
            alpha: i32,
            beta: i32,
        ) -> i32 {
            search::deep(recursion!(), search, player, opponent, moves, alpha, beta)
        }

        $(#[$attribute])*
        fn estimate(
            search: &mut Search<'_>,
            player: u64,
            opponent: u64,
            depth: u32,
            alpha: i32,
            beta: i32,
        ) -> i32 {
            search::estimate(recursion!(), search, player, opponent, depth, alpha, beta)
        }

        $(#[$attribute])*
        #[allow(clippy::too_many_arguments)]
        fn shallow(
            search: &mut Search<'_>,
            player: u64,
            opponent: u64,
            alpha: i32,
            beta: i32,
            squares: &[u8],
            passed: bool,
        ) -> i32 {
            search::shallow(recursion!(), search, player, opponent, alpha, beta, squares, passed)
        }
    };
}

hot_path! {
    /// The endgame search of a position with at least one move for the
    /// player (see [`search::root`]): the score and the square.
    pub(crate) fn solve_root(search: &mut Search<'_>, player: u64, opponent: u64, alpha: i32, beta: i32) -> (i32, u8) {
        search_functions!(dispatched);
        search::root(recursion!(), search, player, opponent, alpha, beta)
    }
}

/// [`solve_root`] without target features.
pub(crate) fn solve_root_portable(
    search: &mut Search<'_>,
    player: u64,
    opponent: u64,
    alpha: i32,
    beta: i32,
) -> (i32, u8) {
    search_functions!(portable);
    search::root(recursion!(), search, player, opponent, alpha, beta)
}

hot_path! {
    /// The pattern evaluation of `board` (see [`pattern::weighted_sum`]):
    /// with AVX2 a disc adds its square's powers to every placement in a
    /// few vector additions.
    pub(crate) fn pattern_sum(weights: &[i16], phases: usize, board: &Board, mobility: [u32; 2]) -> i32 {
        pattern::weighted_sum(weights, phases, board, mobility)
    }
}

hot_path! {
    /// A helper thread of a parallel solve (see [`parallel::help`]).
    pub(crate) fn help(search: &mut Search<'_>) {
        search_functions!(dispatched);
        parallel::help(recursion!(), search);
    }
}

/// [`help`] without target features.
pub(crate) fn help_portable(search: &mut Search<'_>) {
    search_functions!(portable);
    parallel::help(recursion!(), search);
}

hot_path! {
    /// The playout loop (see [`playout::play_out_bits`]).
    pub(crate) fn play_out<C, M>(board: &mut Board, max_plies: usize, choose: C, on_move: M) -> (Option<Outcome>, usize)
    where
        C: FnMut(u64, u64, u64) -> u64,
        M: FnMut(Player, Move),
    {
        playout::play_out_bits(board, max_plies, choose, on_move)
    }
}

#[cfg(test)]
hot_path! {
    /// The endgame search's move generator as the dispatch picks it.
    fn search_mobility(player: u64, opponent: u64) -> u64 {
        dispatched_mobility!(player, opponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_traits::Game;
    use rand::{RngExt, SeedableRng};

    /// Positions of seeded random games, every tenth ply.
    fn positions() -> Vec<Board> {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(13);
        let mut positions = Vec::new();
        let mut moves = Vec::new();
        for _ in 0..10 {
            let mut board = Board::start();
            for ply in 0.. {
                board.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                if ply % 10 == 0 {
                    positions.push(board.clone());
                }
                board.play(moves[rng.random_range(..moves.len())]);
            }
        }
        positions
    }

    #[test]
    fn the_dispatched_move_generator_is_the_scalar_one() {
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(29);
        let mut checked = 0;
        for board in positions() {
            let (player, opponent) = (board.player(), board.opponent());
            assert_eq!(
                search_mobility(player, opponent),
                movegen::mobility(player, opponent)
            );
            checked += 1;
        }
        // Random disc sets too, dense and sparse, with runs to every edge.
        for round in 0..100_000 {
            let (a, b): (u64, u64) = (rng.random(), rng.random());
            let (player, opponent) = if round % 2 == 0 {
                (a & !b, b)
            } else {
                (a & b & rng.random::<u64>(), !a)
            };
            let opponent = opponent & !player;
            assert_eq!(
                search_mobility(player, opponent),
                movegen::mobility(player, opponent),
                "{player:#x} {opponent:#x}"
            );
            checked += 1;
        }
        assert!(checked > 100_000);
    }

    #[test]
    fn estimates_reorder_every_move_and_keep_the_table_move_first() {
        use crate::endgame::search::{Control, ESTIMATE_BOUND, fill_moves, order_by_estimate};
        use crate::endgame::table::Table;
        search_functions!(portable);
        let table = Table::new(10).unwrap();
        let control = Control::default();
        let mut search = Search::new(&table, &control, None);
        let mut reordered = 0;
        for board in positions() {
            let (player, opponent) = (board.player(), board.opponent());
            let moves = movegen::mobility(player, opponent);
            if moves.count_ones() < 3 {
                continue;
            }
            // The table's move: the last legal square, seldom first by key.
            let hint = (63 - moves.leading_zeros()) as u8;
            let length = fill_moves(recursion!(), &mut search, 0, player, opponent, moves, hint);
            let before: Vec<u8> = search.moves[..length].iter().map(|mv| mv.square).collect();
            let mut fastest_first_keys = [0; 64];
            for mv in &search.moves[..length] {
                fastest_first_keys[usize::from(mv.square)] = mv.key;
            }
            let nodes = search.nodes;
            order_by_estimate(recursion!(), &mut search, 0..length, player, opponent);
            let after = search.moves[..length].to_vec();
            assert_eq!(after[0].square, hint, "{board}");
            assert_eq!(
                after.iter().fold(0u64, |bits, mv| bits | 1 << mv.square),
                moves,
                "{board}"
            );
            assert!(after[1..].windows(2).all(|pair| pair[0].key >= pair[1].key));
            let depth = search::estimate_depth(board.empty_count()) - 1;
            for mv in &after[1..] {
                let (child_player, child_opponent) = (
                    opponent ^ mv.flipped,
                    player ^ mv.flipped ^ (1 << mv.square),
                );
                let value = -search::estimate(
                    recursion!(),
                    &mut search,
                    child_player,
                    child_opponent,
                    depth,
                    -ESTIMATE_BOUND,
                    ESTIMATE_BOUND,
                );
                assert_eq!(
                    mv.key,
                    value + fastest_first_keys[usize::from(mv.square)],
                    "{board}"
                );
            }
            assert!(search.nodes > nodes + length as u64 - 1);
            let squares: Vec<u8> = after.iter().map(|mv| mv.square).collect();
            reordered += usize::from(before != squares);
        }
        assert!(reordered > 10, "only {reordered} orders changed");
    }

    #[test]
    fn the_portable_perft_counts_the_same() {
        for board in positions() {
            for finished_count in [0, 1] {
                let (player, opponent) = (board.player(), board.opponent());
                assert_eq!(
                    perft_count_portable(player, opponent, 4, finished_count),
                    perft_count(player, opponent, 4, finished_count),
                    "{board}"
                );
            }
        }
        let start = Board::start();
        assert_eq!(
            perft_count_portable(start.player(), start.opponent(), 8, 1),
            390_216
        );
    }

    #[test]
    fn the_portable_playout_loop_plays_the_same_games() {
        for (index, board) in positions().into_iter().enumerate() {
            let mut games = Vec::new();
            for portable in [false, true] {
                let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(index as u64);
                let mut end = board.clone();
                let mut heard = Vec::new();
                let choose = |moves: u64, _: u64, _: u64| {
                    let n = rng.random_range(..moves.count_ones());
                    let mut bits = moves;
                    for _ in 0..n {
                        bits &= bits - 1;
                    }
                    bits & bits.wrapping_neg()
                };
                let on_move = |mover, mv| heard.push((mover, mv));
                let result = if portable {
                    playout::play_out_bits(&mut end, usize::MAX, choose, on_move)
                } else {
                    play_out(&mut end, usize::MAX, choose, on_move)
                };
                games.push((result, end, heard));
            }
            assert_eq!(games[0], games[1], "{board}");
        }
    }

    #[test]
    fn the_instruction_set_is_named() {
        let name = instruction_set();
        assert!(["x86-64-v3", "x86-64-v2", "portable"].contains(&name));
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("fma")
        {
            assert_eq!(name, "x86-64-v3");
        }
    }
}
