//! `bitboard-othello`'s [`Board`] behind the `minimax` crate's traits, with
//! the same evaluator as `pimc-alphabeta` uses (the hand-weighted
//! heuristic or the trained patterns, [`SameEvaluator`]), so the two
//! alpha-beta engines can be compared on equal terms. The binary
//! (`src/main.rs`) runs the comparison.

use std::time::{Duration, Instant};

use bitboard_othello::{Board, HeuristicEvaluator, Move, PatternEvaluator};
use game_traits::{
    Evaluator as _, Game as _, LimitKind, Limits, Outcome, SearchReport, SearchStats, Searcher,
    StopReason,
};
use minimax::{IterativeOptions, IterativeSearch, Strategy, Winner};
use pimc_alphabeta::AlphaBetaConfig;

/// Othello for the `minimax` crate: our [`Board`] and [`Move`], our rules
/// (a pass is a real move, so turns alternate as `minimax` assumes).
pub struct OthelloRules;

impl minimax::Game for OthelloRules {
    type S = Board;
    type M = Move;

    // A position has no legal move (not even a pass) only when the game is
    // over, so the moves are generated first and the winner looked for only
    // then: one mobility computation per node fewer than asking first.
    #[inline]
    fn generate_moves(state: &Board, moves: &mut Vec<Move>) -> Option<Winner> {
        state.legal_moves(moves);
        if moves.is_empty() {
            return Self::get_winner(state);
        }
        None
    }

    #[inline]
    fn apply(state: &mut Board, mv: Move) -> Option<Board> {
        let mut next = state.clone();
        next.play(mv);
        Some(next)
    }

    #[inline]
    fn get_winner(state: &Board) -> Option<Winner> {
        state.outcome().map(|outcome| match outcome {
            Outcome::Win(player) if player == state.to_move() => Winner::PlayerToMove,
            Outcome::Win(_) => Winner::PlayerJustMoved,
            Outcome::Draw => Winner::Draw,
        })
    }

    #[inline]
    fn zobrist_hash(state: &Board) -> u64 {
        state.hash_key()
    }

    fn table_index(mv: Move) -> u16 {
        mv.index() as u16
    }

    fn max_table_index() -> u16 {
        64
    }
}

/// The evaluator both engines use, a value in `[-1, 1]` for
/// `pimc-alphabeta`, scaled to the `minimax` crate's `i16` evaluations:
/// `round(10_000 * value)`.
#[derive(Clone, Debug)]
pub enum SameEvaluator {
    /// [`HeuristicEvaluator`]: mobility, corners and positional weights,
    /// weighted by hand.
    Heuristic(HeuristicEvaluator),
    /// [`PatternEvaluator`] on the shipped weights: pattern tables per
    /// phase, fitted to exact and searched scores.
    Pattern(PatternEvaluator),
}

impl Default for SameEvaluator {
    fn default() -> Self {
        SameEvaluator::Heuristic(HeuristicEvaluator::default())
    }
}

impl SameEvaluator {
    /// The evaluator named `name`: `heuristic` or `pattern`.
    pub fn named(name: &str) -> Option<SameEvaluator> {
        match name {
            "heuristic" => Some(SameEvaluator::default()),
            "pattern" => Some(SameEvaluator::Pattern(PatternEvaluator::default())),
            _ => None,
        }
    }

    /// Its name in the tables.
    pub fn label(&self) -> &'static str {
        match self {
            SameEvaluator::Heuristic(_) => "HeuristicEvaluator",
            SameEvaluator::Pattern(_) => "PatternEvaluator (shipped weights)",
        }
    }
}

impl game_traits::Evaluator<Board> for SameEvaluator {
    #[inline]
    fn value(&self, state: &Board) -> f32 {
        match self {
            SameEvaluator::Heuristic(evaluator) => evaluator.value(state),
            SameEvaluator::Pattern(evaluator) => evaluator.value(state),
        }
    }
}

/// The scale from values to `minimax` evaluations.
pub const SCALE: f32 = 10_000.0;

impl minimax::Evaluator for SameEvaluator {
    type G = OthelloRules;

    #[inline]
    fn evaluate(&self, state: &Board) -> minimax::Evaluation {
        (self.value(state).clamp(-1.0, 1.0) * SCALE).round() as minimax::Evaluation
    }
}

/// How the `minimax` crate's search is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinimaxSetup {
    /// `IterativeOptions::new()`: its defaults (1 MiB two-tier table,
    /// null-window search).
    Default,
    /// Its defaults plus a 16 MiB table, countermoves and the countermove
    /// history table: its move ordering switched on.
    Tuned,
}

impl MinimaxSetup {
    fn options(self) -> IterativeOptions {
        match self {
            MinimaxSetup::Default => IterativeOptions::new(),
            MinimaxSetup::Tuned => IterativeOptions::new()
                .with_table_byte_size(16 << 20)
                .with_countermoves()
                .with_countermove_history(),
        }
    }

    /// The label used in tables.
    pub fn label(self) -> &'static str {
        match self {
            MinimaxSetup::Default => "minimax 0.6 (defaults)",
            MinimaxSetup::Tuned => "minimax 0.6 (countermoves, history, 16 MiB)",
        }
    }
}

/// A fresh `minimax` iterative-deepening search.
pub fn minimax_search(
    setup: MinimaxSetup,
    evaluator: SameEvaluator,
) -> IterativeSearch<SameEvaluator> {
    IterativeSearch::new(evaluator, setup.options())
}

/// One search to a fixed depth: the move, the nodes of the completed
/// iterations and the time.
#[derive(Clone, Debug)]
pub struct DepthRun {
    /// The move chosen.
    pub best: Option<Move>,
    /// Nodes of all iterations up to the depth.
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
}

/// The `minimax` crate's iterative deepening on `board` to `depth`, from a
/// fresh search. Its node count is read from its `stats()` text ("Explored
/// N nodes to depth D"), the only place it reports it.
///
/// # Panics
///
/// If the `stats()` text does not have the expected form (a different
/// crate version).
pub fn minimax_to_depth(
    board: &Board,
    depth: u8,
    setup: MinimaxSetup,
    evaluator: &SameEvaluator,
) -> DepthRun {
    let mut search = minimax_search(setup, evaluator.clone());
    search.set_max_depth(depth);
    let started = Instant::now();
    let best = search.choose_move(board);
    let time = started.elapsed();
    let stats = search.stats(&mut board.clone());
    DepthRun {
        best,
        nodes: explored_nodes(&stats, depth),
        time,
    }
}

/// Reads "Explored N nodes to depth D" from the `minimax` crate's stats.
///
/// # Panics
///
/// If the text is not there or the depth differs.
pub fn explored_nodes(stats: &str, depth: u8) -> u64 {
    let after = stats
        .split("Explored ")
        .nth(1)
        .unwrap_or_else(|| panic!("no node count in {stats:?}"));
    let mut words = after.split_whitespace();
    let nodes: u64 = words
        .next()
        .and_then(|word| word.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {stats:?}"));
    let reached: u8 = words
        .nth(3)
        .and_then(|word| word.trim_end_matches('.').parse().ok())
        .unwrap_or_else(|| panic!("no depth in {stats:?}"));
    assert_eq!(reached, depth, "the search stopped early: {stats}");
    nodes
}

/// `pimc-alphabeta`'s [`AlphaBeta`](pimc_alphabeta::AlphaBeta) with its
/// defaults (one thread) to `depth`, from a fresh search.
pub fn ours_to_depth(board: &Board, depth: u32, evaluator: &SameEvaluator) -> DepthRun {
    ours_with_config_to_depth(board, depth, AlphaBetaConfig::default(), evaluator)
}

/// `pimc-alphabeta`'s [`AlphaBeta`](pimc_alphabeta::AlphaBeta) with
/// `config` to `depth`, from a fresh search.
///
/// # Panics
///
/// If `config` is invalid.
pub fn ours_with_config_to_depth(
    board: &Board,
    depth: u32,
    config: AlphaBetaConfig,
    evaluator: &SameEvaluator,
) -> DepthRun {
    let mut search =
        pimc_alphabeta::AlphaBeta::new(evaluator.clone(), config).expect("a valid setup");
    let started = Instant::now();
    let report = search.search(board, &Limits::depth(depth));
    let time = started.elapsed();
    assert_eq!(report.stats.depth, depth);
    DepthRun {
        best: report.best,
        nodes: report.stats.nodes,
        time,
    }
}

/// The least any alpha-beta engine can do per node with this board and
/// evaluator: one fixed-depth fail-soft alpha-beta search, moves in
/// generation order, no table, no iterative deepening, no time checks;
/// a node is a position visited (leaves included, as both engines count
/// them). Its nodes per second bound what an engine's can be on trees of
/// the same shape.
///
/// # Panics
///
/// If `depth` is 0.
pub fn bare_to_depth(board: &Board, depth: u32, evaluator: &SameEvaluator) -> DepthRun {
    assert!(depth >= 1, "the bare search needs a depth of at least 1");
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    let mut nodes = 1;
    let started = Instant::now();
    let (moves, below) = buffers.split_first_mut().expect("one buffer per ply");
    board.legal_moves(moves);
    let mut best = None;
    let mut alpha = f32::NEG_INFINITY;
    for &mv in moves.iter() {
        let mut child = board.clone();
        child.play(mv);
        let value = -bare_negamax(
            &child,
            depth - 1,
            f32::NEG_INFINITY,
            -alpha,
            evaluator,
            below,
            &mut nodes,
        );
        if value > alpha || best.is_none() {
            alpha = value;
            best = Some(mv);
        }
    }
    DepthRun {
        best,
        nodes,
        time: started.elapsed(),
    }
}

/// The value of `board` for its player to move, `depth` plies deep, within
/// `(alpha, beta)`: every Othello move (a pass too) hands the turn over.
fn bare_negamax(
    board: &Board,
    depth: u32,
    mut alpha: f32,
    beta: f32,
    evaluator: &SameEvaluator,
    buffers: &mut [Vec<Move>],
    nodes: &mut u64,
) -> f32 {
    *nodes += 1;
    if depth == 0 {
        return evaluator.value(board);
    }
    let (moves, below) = buffers.split_first_mut().expect("one buffer per ply");
    board.legal_moves(moves);
    if moves.is_empty() {
        return evaluator.value(board);
    }
    let mut best = f32::NEG_INFINITY;
    for &mv in moves.iter() {
        let mut child = board.clone();
        child.play(mv);
        let value = -bare_negamax(&child, depth - 1, -beta, -alpha, evaluator, below, nodes);
        best = best.max(value);
        alpha = alpha.max(value);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The `minimax` crate's search as a [`Searcher`], for matches: it honours
/// only time (its own timer thread) and depth.
pub struct MinimaxCrate {
    search: IterativeSearch<SameEvaluator>,
    setup: MinimaxSetup,
}

impl MinimaxCrate {
    /// A searcher with the given setup and evaluator.
    pub fn new(setup: MinimaxSetup, evaluator: SameEvaluator) -> MinimaxCrate {
        MinimaxCrate {
            search: minimax_search(setup, evaluator),
            setup,
        }
    }
}

impl Searcher<Board> for MinimaxCrate {
    fn search(&mut self, board: &Board, limits: &Limits) -> SearchReport<Move> {
        let started = Instant::now();
        if board.is_over() {
            return SearchReport::game_over(board, started.elapsed());
        }
        match (limits.time, limits.depth) {
            (Some(time), Some(depth)) => {
                self.search.set_depth_or_timeout(depth.min(99) as u8, time)
            }
            (Some(time), None) => self.search.set_timeout(time),
            (None, depth) => self.search.set_max_depth(depth.unwrap_or(8).min(99) as u8),
        }
        let best = self.search.choose_move(board).or_else(|| {
            let mut moves = Vec::new();
            board.legal_moves(&mut moves);
            moves.first().copied()
        });
        SearchReport::new(best, 0.0)
            .with_pv(best.into_iter().collect())
            .with_stats(SearchStats::new(0, 0, 0, started.elapsed()).with_stop(StopReason::Unknown))
    }

    fn name(&self) -> String {
        self.setup.label().to_string()
    }

    fn honours(&self, kind: LimitKind) -> bool {
        matches!(kind, LimitKind::Time | LimitKind::Depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_traits::Player;

    #[test]
    fn both_engines_find_legal_moves_and_agree_on_terminal_scores() {
        let board = Board::start();
        for name in ["heuristic", "pattern"] {
            let evaluator = SameEvaluator::named(name).expect("a known evaluator");
            for setup in [MinimaxSetup::Default, MinimaxSetup::Tuned] {
                let run = minimax_to_depth(&board, 4, setup, &evaluator);
                assert!(run.best.is_some_and(|mv| board.is_legal(mv)));
                assert!(run.nodes > 0);
            }
            let ours = ours_to_depth(&board, 4, &evaluator);
            assert!(ours.best.is_some_and(|mv| board.is_legal(mv)));
        }
        assert!(SameEvaluator::named("material").is_none());
        // A finished game: the winner is seen from the player to move.
        let full: Board = format!("{} X", "X".repeat(64)).parse().unwrap();
        assert_eq!(
            <OthelloRules as minimax::Game>::get_winner(&full),
            Some(Winner::PlayerToMove)
        );
        assert_eq!(full.to_move(), Player::First);
    }

    /// The floor search finds a move of the same value as ours (fresh
    /// searches of both to the same depth agree on the position's value).
    #[test]
    fn the_bare_search_agrees_with_ours_on_values() {
        let mut mid_game = Board::start();
        let mut moves = Vec::new();
        for ply in 0..12 {
            mid_game.legal_moves(&mut moves);
            mid_game.play(moves[ply * 7 % moves.len()]);
        }
        let evaluators = [
            SameEvaluator::default(),
            SameEvaluator::Pattern(PatternEvaluator::default()),
        ];
        for (board, evaluator) in [Board::start(), mid_game].into_iter().flat_map(|board| {
            evaluators
                .iter()
                .map(move |evaluator| (board.clone(), evaluator))
        }) {
            for depth in 1..=4 {
                let bare = bare_to_depth(&board, depth, evaluator);
                let mut search =
                    pimc_alphabeta::AlphaBeta::new(evaluator.clone(), AlphaBetaConfig::default())
                        .expect("valid settings");
                let report = search.search(&board, &Limits::depth(depth));
                let mut child = board.clone();
                child.play(bare.best.expect("a move"));
                let mut after =
                    pimc_alphabeta::AlphaBeta::new(evaluator.clone(), AlphaBetaConfig::default())
                        .expect("valid settings");
                let child_value = if depth == 1 {
                    evaluator.value(&child)
                } else {
                    after.search(&child, &Limits::depth(depth - 1)).value
                };
                assert_eq!(-child_value, report.value, "depth {depth}");
                assert!(bare.nodes > 1);
            }
        }
    }

    #[test]
    fn the_node_count_is_read_from_the_stats() {
        let text = "Principal variation: x\nExplored 1234 nodes to depth 6. MBF=1.0 EBF=2.0\n";
        assert_eq!(explored_nodes(text, 6), 1234);
    }
}
