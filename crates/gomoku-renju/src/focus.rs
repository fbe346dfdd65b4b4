//! Focused move generation: only cells near the stones.

use std::fmt;
use std::str::FromStr;

use game_traits::{ActionSpace, ColorFlip, Game, Outcome, Player, PositionHash};

use crate::bits::Bits;
use crate::{Gomoku, Move, MoveSet, ParsePositionError, Rule};

impl Gomoku {
    /// The cells a focused search considers: the empty cells within two
    /// steps (in both coordinates, a 5x5 square) of some stone, and the
    /// centre while it is empty (the only cell on an empty board; kept
    /// later so that a game whose first stones went to the edges can still
    /// take it). Under renju with Black to move, forbidden cells are left
    /// out. Empty when the game is over.
    ///
    /// When no such cell is legal (the board is nearly full, or every near
    /// cell is forbidden to Black) it falls back to all legal cells, so it
    /// is empty only where [`Game::legal_moves`] has no cell.
    #[must_use]
    pub fn focus_moves(&self) -> MoveSet {
        MoveSet::new(self.focus_bits(), self.size())
    }

    /// The empty cells near the stones, and the centre if empty.
    pub(crate) fn near_cells(&self) -> Bits {
        let size = self.size();
        let mut near = *self.near_bits();
        near.insert((size / 2) * size + size / 2);
        near.and(&self.empty_bits())
    }

    /// Whether some near cell may be played by the player to move.
    fn has_near_playable(&self) -> bool {
        self.near_cells().iter().any(|index| self.may_place(index))
    }

    pub(crate) fn focus_bits(&self) -> Bits {
        if self.finished() {
            return Bits::new();
        }
        let empty = self.empty_bits();
        let mut focus = self.near_cells();
        if self.rule() == Rule::Renju && self.side() == Player::First {
            for index in focus.iter() {
                if self.forbidden_at(index).is_some() {
                    focus.remove(index);
                }
            }
            if focus.is_empty() {
                for index in empty.iter() {
                    if self.forbidden_at(index).is_none() {
                        focus.insert(index);
                    }
                }
            }
        } else if focus.is_empty() {
            focus = empty;
        }
        focus
    }
}

/// Gomoku restricted to [`Gomoku::focus_moves`]: the game generic
/// searchers (MCTS, Gumbel AlphaZero, alpha-beta) should play, so that
/// they spend their effort near the stones instead of on all 225 cells.
///
/// It is a [`Game`] in its own right, with the same positions, outcomes
/// and text form: its legal moves are the focused cells (or the pass
/// where Black under renju must pass), and `is_legal` and `try_play`
/// agree with them, as the `Game` contract requires. The full rules stay
/// available: [`Focused::game`] is the underlying [`Gomoku`], whose
/// `is_legal` accepts every legal cell, and [`Focused::play_any`] plays any
/// move legal there (an opponent's move from far away, say). The focused
/// game ends exactly when the full game does: a position that is not over
/// always has a focused move.
///
/// ```
/// use game_traits::Game;
/// use gomoku_renju::{Focused, Gomoku, Move};
///
/// let mut game = Focused::new(Gomoku::new());
/// let mut moves = Vec::new();
/// game.legal_moves(&mut moves);
/// assert_eq!(moves, vec!["h8".parse::<Move>()?]);
/// game.play(moves[0]);
/// game.legal_moves(&mut moves);
/// assert_eq!(moves.len(), 24); // the 5x5 square around h8
/// // A far move is legal in the full game, not in the focused one.
/// let far: Move = "a1".parse()?;
/// assert!(!game.is_legal(far));
/// assert!(game.game().is_legal(far));
/// game.play_any(far)?;
/// assert_eq!(game.game().stone_count(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(transparent)
)]
pub struct Focused(Gomoku);

impl Focused {
    /// The focused view of `game`.
    #[must_use]
    pub fn new(game: Gomoku) -> Focused {
        Focused(game)
    }

    /// The full game.
    #[must_use]
    pub fn game(&self) -> &Gomoku {
        &self.0
    }

    /// The full game, by value.
    #[must_use]
    pub fn into_game(self) -> Gomoku {
        self.0
    }

    /// Plays a move that is legal in the full game, focused or not.
    ///
    /// # Errors
    ///
    /// [`game_traits::IllegalMove`] if it is not legal in the full game
    /// (the position is then unchanged).
    pub fn play_any(&mut self, mv: Move) -> Result<(), game_traits::IllegalMove<Move>> {
        self.0.try_play(mv)
    }
}

impl AsRef<Gomoku> for Focused {
    fn as_ref(&self) -> &Gomoku {
        &self.0
    }
}

impl AsRef<Gomoku> for Gomoku {
    fn as_ref(&self) -> &Gomoku {
        self
    }
}

impl From<Gomoku> for Focused {
    fn from(game: Gomoku) -> Focused {
        Focused(game)
    }
}

impl Game for Focused {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.0.side()
    }

    /// The focused cells, most urgent first: the player to move's fives,
    /// then the opponent's (blocks), then cells making a straight four or
    /// two fours for the player to move, then the opponent's (the answers
    /// to an open three), then the player to move's other fours, then the
    /// rest, bottom row first within each group. Searchers that try
    /// children in move order (UCT tries unvisited ones first) so meet the
    /// forcing moves first. The pass alone where Black must pass under
    /// renju.
    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        let game = &self.0;
        if game.finished() {
            return;
        }
        let size = game.size();
        let mut rest = game.focus_bits();
        let me = game.side().index();
        let opponent = 1 - me;
        for group in [
            *game.five_bits(me),
            *game.five_bits(opponent),
            *game.open_four_bits(me),
            *game.open_four_bits(opponent),
            *game.four_bits(me),
        ] {
            let urgent = group.and(&rest);
            for index in urgent.iter() {
                out.push(Move::from_index(index, size));
                rest.remove(index);
            }
        }
        out.extend(rest.iter().map(|index| Move::from_index(index, size)));
        if out.is_empty() {
            out.push(Move::PASS);
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "{mv} is not a focused move of {self:?}");
        self.0.play(mv);
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.0.result()
    }

    fn is_legal(&self, mv: Move) -> bool {
        if mv.is_pass() {
            return self.0.is_legal(mv);
        }
        if self.0.finished() || !mv.is_on_board(self.0.size()) {
            return false;
        }
        let index = mv.index(self.0.size());
        if self.0.occupied(index) {
            return false;
        }
        if self.0.near_cells().contains(index) {
            self.0.may_place(index)
        } else {
            // Far cells are focused only when no near cell is legal.
            self.0.may_place(index) && !self.0.has_near_playable()
        }
    }
}

impl ActionSpace for Focused {
    fn num_actions(&self) -> usize {
        self.0.num_actions()
    }

    fn action_index(&self, mv: Move) -> usize {
        self.0.action_index(mv)
    }

    fn action(&self, index: usize) -> Option<Move> {
        self.0.action(index)
    }
}

impl PositionHash for Focused {
    fn position_hash(&self) -> u64 {
        self.0.hash_key()
    }
}

impl ColorFlip for Focused {
    fn color_flipped(&self) -> Focused {
        Focused(self.0.color_flipped())
    }

    fn flip_move(mv: Move) -> Move {
        mv
    }
}

impl fmt::Display for Focused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Focused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Focused(\"{}\")", self.0.to_line())
    }
}

impl FromStr for Focused {
    type Err = ParsePositionError;
    fn from_str(text: &str) -> Result<Focused, ParsePositionError> {
        text.parse().map(Focused)
    }
}
