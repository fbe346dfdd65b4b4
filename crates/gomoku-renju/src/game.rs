//! `Game` and the capability traits for [`Gomoku`].

use game_traits::{ActionSpace, ColorFlip, Game, Outcome, Player, PositionHash};

use crate::{Gomoku, Move, Rule};

impl Gomoku {
    /// Whether Black, to move under renju, has no cell that is not
    /// forbidden (and so must pass).
    pub(crate) fn must_pass(&self) -> bool {
        self.rule() == Rule::Renju
            && self.side() == Player::First
            && !self.finished()
            && self
                .empty_bits()
                .iter()
                .all(|index| self.forbidden_at(index).is_some())
    }

    /// Whether the player to move may place a stone on the empty cell
    /// `index`.
    #[inline]
    pub(crate) fn may_place(&self, index: usize) -> bool {
        !(self.rule() == Rule::Renju
            && self.side() == Player::First
            && self.forbidden_at(index).is_some())
    }
}

impl Game for Gomoku {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.side()
    }

    /// Every empty cell, bottom row first (under renju, without Black's
    /// forbidden cells; the pass alone if that leaves none).
    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.finished() {
            return;
        }
        let size = self.size();
        let restricted = self.rule() == Rule::Renju && self.side() == Player::First;
        for index in self.empty_bits().iter() {
            if !restricted || self.forbidden_at(index).is_none() {
                out.push(Move::from_index(index, size));
            }
        }
        if out.is_empty() {
            out.push(Move::PASS);
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "{mv} is not legal in {self:?}");
        if mv.is_pass() {
            self.pass_turn();
        } else {
            self.play_index(mv.index(self.size()));
        }
    }

    #[inline]
    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    fn is_legal(&self, mv: Move) -> bool {
        if self.finished() {
            return false;
        }
        if mv.is_pass() {
            return self.must_pass();
        }
        if !mv.is_on_board(self.size()) {
            return false;
        }
        let index = mv.index(self.size());
        !self.occupied(index) && self.may_place(index)
    }
}

impl ActionSpace for Gomoku {
    /// `size * size + 1`: the cells, then the pass.
    fn num_actions(&self) -> usize {
        self.size() * self.size() + 1
    }

    /// `y * size + x` for a cell, `size * size` for the pass.
    fn action_index(&self, mv: Move) -> usize {
        if mv.is_pass() {
            self.size() * self.size()
        } else {
            mv.index(self.size())
        }
    }

    fn action(&self, index: usize) -> Option<Move> {
        let cells = self.size() * self.size();
        match index.cmp(&cells) {
            std::cmp::Ordering::Less => Some(Move::from_index(index, self.size())),
            std::cmp::Ordering::Equal => Some(Move::PASS),
            std::cmp::Ordering::Greater => None,
        }
    }
}

impl PositionHash for Gomoku {
    fn position_hash(&self) -> u64 {
        self.hash_key()
    }
}

impl ColorFlip for Gomoku {
    /// Swaps the stones and the player to move. Exact (mapped legal moves,
    /// flipped outcome, equal values) where [`Rule::is_color_symmetric`],
    /// that is for freestyle and standard; under renju the flipped position
    /// hands Black's restrictions to the other stones, so it is a different
    /// game (see [`Gomoku`]).
    fn color_flipped(&self) -> Gomoku {
        let black: Vec<Move> = self.stones(Player::Second).iter().collect();
        let white: Vec<Move> = self.stones(Player::First).iter().collect();
        // Built without scanning for fives: under renju a swapped overline
        // can count differently, and the game's own record is what flips.
        let mut flipped = Gomoku::with_stones(
            self.size(),
            self.rule(),
            &black,
            &white,
            self.side().opponent(),
        )
        .unwrap_or_else(|_| unreachable!("the stones of a position make a position"));
        flipped.set_outcome(self.result().map(Outcome::flipped));
        flipped
    }

    /// The same cell.
    fn flip_move(mv: Move) -> Move {
        mv
    }
}
