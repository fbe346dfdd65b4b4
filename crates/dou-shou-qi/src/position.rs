//! The position and the rules of play: [`Jungle`] implements
//! [`Game`](game_traits::Game) with the capabilities.

use std::fmt;

use game_traits::{ActionSpace, ColorFlip, Game, Outcome, Player, PositionHash};

use crate::animal::{Animal, Piece};
use crate::board::{BOARD, Bitboard, DEN, JUMP_SOURCES, JUMPS, STEPS, Square, WATER, rotate_bits};
use crate::history::History;
use crate::moves::Move;
use crate::rules::{FailedAttack, Fight, Rules};
use crate::zobrist::{PIECE_KEYS, SECOND_TO_MOVE_KEY, flip_hash};

/// Squares each piece (by board code) may step onto: land for all, water
/// for the rats.
const TERRAIN: [Bitboard; 17] = {
    let mut table = [!WATER; 17];
    table[1 + Animal::Rat as usize] = !0;
    table[9 + Animal::Rat as usize] = !0;
    table
};

/// All ones for the board codes of the pieces that jump the river (tigers
/// and lions).
const JUMPER: [Bitboard; 17] = {
    let mut table = [0; 17];
    table[1 + Animal::Tiger as usize] = !0;
    table[9 + Animal::Tiger as usize] = !0;
    table[1 + Animal::Lion as usize] = !0;
    table[9 + Animal::Lion as usize] = !0;
    table
};

/// Room for every move of a position, at most 4 per piece (4 steps, or
/// fewer steps plus jumps, as a jump always replaces a step into water),
/// plus the unconditional writes past the last move of `generate_by_piece`.
const MOVE_BUFFER: usize = 8 * 4 + 4;

/// The location of a missing piece: the unused square 63, outside every
/// bitboard of the board.
pub(crate) const NOWHERE: u8 = 63;

/// The start position, in the notation of the rules text (section 3).
pub const START_POSITION: &str = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1";

/// A Jungle position with its rules: the board, the side to move, the
/// no-capture clock, the move number, and (with `repetition_draw`) the
/// hashes of the positions since the last removal.
///
/// Small and cheap to clone: a 64-byte mailbox, an occupancy bitboard per
/// side, the square of each piece, and the repetition history when that
/// rule is on (the only allocation).
///
/// ```
/// use game_traits::{Game, perft_sequences};
/// use dou_shou_qi::{Jungle, Rules};
///
/// let start = Jungle::new();
/// assert_eq!(start.to_string(), dou_shou_qi::START_POSITION);
/// assert_eq!(perft_sequences(&Jungle::with_rules(Rules::default().without_draws()), 3), 12_240);
/// assert_eq!(start.perft_ignoring_draws(4), 260_099);
/// ```
#[derive(PartialEq, Eq)]
pub struct Jungle {
    /// Board code of each square (`0` empty, see [`Piece::code`]); entry 63
    /// is always empty.
    pub(crate) board: [u8; 64],
    /// Squares of each side's pieces.
    pub(crate) occupied: [Bitboard; 2],
    /// The square of each piece by board code (`NOWHERE` when it is not on
    /// the board; entry 0 unused).
    pub(crate) location: [u8; 17],
    pub(crate) to_move: Player,
    /// Plies since the last removal (or since the position was set up).
    pub(crate) clock: u16,
    /// Starts at 1 and goes up after each move of the second player.
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// The result by den entry, extinction (checks 6.1, 6.2).
    pub(crate) decided: Option<Outcome>,
    /// A draw rule (6.4) has fired.
    pub(crate) drawn: bool,
    pub(crate) rules: Rules,
    /// With `repetition_draw`: the hash of every position since the last
    /// removal, the current one last. Empty otherwise.
    pub(crate) history: History,
}

impl Clone for Jungle {
    fn clone(&self) -> Jungle {
        Jungle {
            board: self.board,
            occupied: self.occupied,
            location: self.location,
            to_move: self.to_move,
            clock: self.clock,
            fullmove: self.fullmove,
            hash: self.hash,
            decided: self.decided,
            drawn: self.drawn,
            rules: self.rules,
            history: self.history.clone(),
        }
    }

    /// Reuses this position's repetition history buffers: copy-make
    /// searchers that clone into the same position at every ply then
    /// allocate nothing.
    fn clone_from(&mut self, source: &Jungle) {
        self.board = source.board;
        self.occupied = source.occupied;
        self.location = source.location;
        self.to_move = source.to_move;
        self.clock = source.clock;
        self.fullmove = source.fullmove;
        self.hash = source.hash;
        self.decided = source.decided;
        self.drawn = source.drawn;
        self.rules = source.rules;
        self.history.clone_from(&source.history);
    }
}

impl Default for Jungle {
    fn default() -> Self {
        Jungle::new()
    }
}

impl Jungle {
    /// The start position under the standard rules (with the draw rules of
    /// play).
    #[must_use]
    pub fn new() -> Jungle {
        Jungle::with_rules(Rules::standard())
    }

    /// The start position under `rules`.
    #[must_use]
    pub fn with_rules(rules: Rules) -> Jungle {
        Jungle::from_fen(START_POSITION, rules).expect("the start position is valid")
    }

    /// An empty board with the first player to move, the starting point of
    /// [`Jungle::from_pieces`].
    pub(crate) fn empty(rules: Rules) -> Jungle {
        Jungle {
            board: [0; 64],
            occupied: [0; 2],
            location: [NOWHERE; 17],
            to_move: Player::First,
            clock: 0,
            fullmove: 1,
            hash: 0,
            decided: None,
            drawn: false,
            rules,
            history: History::default(),
        }
    }

    /// The rules of this game.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Changes the rules of this position (the repetition history restarts
    /// here when `repetition_draw` is turned on).
    pub fn set_rules(&mut self, rules: Rules) {
        let restart_history = rules.repetition_draw && !self.rules.repetition_draw;
        self.rules = rules;
        if !rules.repetition_draw {
            self.history.clear();
        } else if restart_history || self.history.is_empty() {
            self.history = History::from_hashes(vec![self.hash]);
        }
        self.update_draw();
    }

    /// The same position under `rules`.
    #[must_use]
    pub fn with_rules_changed(mut self, rules: Rules) -> Jungle {
        self.set_rules(rules);
        self
    }

    /// The piece on `square`, if any.
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let code = self.board[square.index() as usize];
        (code != 0).then(|| Piece::from_code(code))
    }

    /// The squares and animals of `player`'s pieces, `a1` first.
    pub fn pieces(&self, player: Player) -> impl Iterator<Item = (Square, Animal)> + '_ {
        crate::board::squares_of(self.occupied[player.index()]).map(|square| {
            (
                Square::from_index_unchecked(square),
                Piece::from_code(self.board[square as usize]).animal,
            )
        })
    }

    /// The square of `player`'s `animal`, if it is still on the board.
    #[must_use]
    pub fn find(&self, player: Player, animal: Animal) -> Option<Square> {
        self.pieces(player)
            .find(|&(_, found)| found == animal)
            .map(|(square, _)| square)
    }

    /// Plies since the last removal (the no-capture clock of section 6.4).
    #[must_use]
    pub fn clock(&self) -> u16 {
        self.clock
    }

    /// The move number: starts at 1 and goes up after each move of the
    /// second player.
    #[must_use]
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Plies played since move 1 with the first player to move, as the move
    /// number and side to move tell.
    #[must_use]
    pub fn ply(&self) -> u64 {
        2 * u64::from(self.fullmove.saturating_sub(1)) + self.to_move.index() as u64
    }

    /// The hashes of the positions since the last removal, the current one
    /// last (empty unless `repetition_draw` is on).
    #[must_use]
    pub fn history(&self) -> &[u64] {
        self.history.hashes()
    }

    /// Replaces the repetition history (hashes since the last removal, the
    /// current position's hash last): for positions rebuilt from elsewhere,
    /// such as a Hidden Jungle world. Ignored unless `repetition_draw` is on.
    ///
    /// # Errors
    ///
    /// Returns the history unchanged when its last hash is not this
    /// position's.
    pub fn set_history(&mut self, history: Vec<u64>) -> Result<(), Vec<u64>> {
        if history.last() != Some(&self.hash) {
            return Err(history);
        }
        if self.rules.repetition_draw {
            self.history = History::from_hashes(history);
            self.update_draw();
        }
        Ok(())
    }

    /// The side whose piece stands on the other side's den, if any.
    fn den_entered(&self) -> Option<Player> {
        Player::BOTH.into_iter().find(|player| {
            self.occupied[player.index()] & (1 << DEN[player.opponent().index()]) != 0
        })
    }

    /// Recomputes the decisive result (den, extinction) from the board,
    /// given that `last_mover` made the last move.
    pub(crate) fn update_decided(&mut self) {
        self.decided = if let Some(winner) = self.den_entered() {
            Some(Outcome::Win(winner))
        } else {
            match (self.occupied[0] == 0, self.occupied[1] == 0) {
                (true, true) => Some(Outcome::Draw),
                (true, false) => Some(Outcome::Win(Player::Second)),
                (false, true) => Some(Outcome::Win(Player::First)),
                (false, false) => None,
            }
        };
    }

    /// Recomputes whether a draw rule of section 6.4 has fired.
    pub(crate) fn update_draw(&mut self) {
        let rules = &self.rules;
        let by_clock = rules.no_capture_limit > 0 && self.clock >= rules.no_capture_limit;
        let by_cap = rules.max_plies > 0 && self.ply() >= u64::from(rules.max_plies);
        let by_repetition = rules.repetition_draw && self.history.occurrences() >= 3;
        self.drawn = by_clock || by_cap || by_repetition;
    }

    /// The hash from scratch.
    pub(crate) fn compute_hash(&self) -> u64 {
        let pieces = (0..64).fold(0, |hash, square| {
            hash ^ PIECE_KEYS[self.board[square] as usize][square]
        });
        match self.to_move {
            Player::First => pieces,
            Player::Second => pieces ^ SECOND_TO_MOVE_KEY,
        }
    }

    #[inline]
    fn put(&mut self, square: u8, code: u8) {
        debug_assert_eq!(self.board[square as usize], 0);
        self.board[square as usize] = code;
        self.occupied[usize::from(code > 8)] |= 1 << square;
        self.location[code as usize] = square;
        self.hash ^= PIECE_KEYS[code as usize][square as usize];
    }

    #[inline]
    fn remove(&mut self, square: u8) -> u8 {
        let code = self.board[square as usize];
        debug_assert_ne!(code, 0);
        self.board[square as usize] = 0;
        self.occupied[usize::from(code > 8)] &= !(1 << square);
        self.location[code as usize] = NOWHERE;
        self.hash ^= PIECE_KEYS[code as usize][square as usize];
        code
    }

    /// Places `piece` on the empty `square` (for building positions).
    pub(crate) fn place(&mut self, square: Square, piece: Piece) {
        self.put(square.index(), piece.code());
    }

    /// Every square `animal` of `side`, standing on `from`, may move to:
    /// steps, jumps, and the attacks the rules allow.
    #[inline(always)]
    fn targets(&self, side: Player, from: u8, animal: Animal) -> Bitboard {
        self.targets_of_code(side, from, Piece::new(side, animal).code())
    }

    /// [`Jungle::targets`] for the piece with board code `code`.
    #[inline(always)]
    fn targets_of_code(&self, side: Player, from: u8, code: u8) -> Bitboard {
        let us = side.index();
        let own = self.occupied[us];
        let enemy = self.occupied[us ^ 1];
        // Branch-free on the animal: pieces come in no predictable order.
        let terrain = TERRAIN[code as usize];
        let mut targets = STEPS[from as usize] & terrain & !own & !(1 << DEN[us]);
        let jumper = JUMPER[code as usize];
        if jumper & JUMP_SOURCES & (1 << from) != 0 {
            let all = own | enemy;
            for jump in &JUMPS[from as usize] {
                let clear = u64::from(jump.path & all == 0).wrapping_neg();
                targets |= (1 << jump.to) & clear & !own & BOARD;
            }
        }
        let mut attacks = targets & enemy;
        while attacks != 0 {
            let to = attacks.trailing_zeros() as u8;
            attacks &= attacks - 1;
            let animal = Piece::from_code(code).animal;
            if !self.attack_allowed(side, animal, from, to) {
                targets &= !(1 << to);
            }
        }
        targets
    }

    /// [`Jungle::targets`] for a piece of `side` on `from` if it were
    /// `animal` (for reasoning about hidden identities).
    pub(crate) fn targets_as(&self, side: Player, from: u8, animal: Animal) -> Bitboard {
        self.targets(side, from, animal)
    }

    #[inline(always)]
    pub(crate) fn attack_allowed(&self, side: Player, attacker: Animal, from: u8, to: u8) -> bool {
        let defender = Piece::from_code(self.board[to as usize]).animal;
        match self.rules.fight(side, attacker, from, defender, to) {
            None => false,
            Some(Fight::DefenderWins) => self.rules.failed_attack != FailedAttack::Illegal,
            Some(Fight::AttackerWins | Fight::BothRemoved) => true,
        }
    }

    /// Whether the game has ended by a rule other than "no legal move".
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.decided.is_some() || self.drawn
    }

    /// Writes the legal moves (the game must not be stopped) into `out`,
    /// piece by piece, and returns how many there are. `out` has room for
    /// `MOVE_BUFFER` moves.
    #[inline(always)]
    pub(crate) fn generate_by_piece(&self, out: &mut [Move]) -> usize {
        let side = self.to_move;
        let mut pieces = self.occupied[side.index()];
        let mut count = 0;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let code = self.board[from as usize];
            // At most 4 targets: 4 unconditional writes avoid a mispredicted
            // loop exit, and counting as we go avoids `count_ones` (a
            // software routine on the baseline x86-64 target).
            let mut rest = self.targets_of_code(side, from, code);
            for _ in 0..4 {
                let to = (rest.trailing_zeros() & 63) as u8;
                out[count] = Move::from_indices(from, to);
                count += usize::from(rest != 0);
                rest &= rest.wrapping_sub(1);
            }
            debug_assert_eq!(rest, 0, "more than 4 targets");
        }
        count
    }

    /// The number of legal moves (without building the list).
    #[must_use]
    pub fn count_moves(&self) -> usize {
        if self.stopped() {
            return 0;
        }
        self.count_unstopped()
    }

    /// Perft as the rules' section 7 defines it: the number of move
    /// sequences of exactly `depth` plies, with the draw rules ignored and
    /// decided positions counting 0. Bulk-counts the last ply.
    /// `game_traits::perft_sequences` differs from it only where a draw
    /// rule ends a game.
    #[must_use]
    pub fn perft_ignoring_draws(&self, depth: u32) -> u64 {
        let root = self.clone().with_rules_changed(self.rules.without_draws());
        root.perft_inner(depth)
    }

    fn perft_inner(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_moves() as u64,
            _ => {
                if self.stopped() {
                    return 0;
                }
                let mut moves = [Move::from_indices(0, 0); MOVE_BUFFER];
                let count = self.generate(&mut moves);
                moves[..count]
                    .iter()
                    .map(|&mv| {
                        let mut child = self.clone();
                        child.apply(mv);
                        child.perft_inner(depth - 1)
                    })
                    .sum()
            }
        }
    }

    /// Perft of each legal move: `(move, perft(child, depth - 1))`, for
    /// finding where two generators disagree. Empty for `depth == 0`.
    #[must_use]
    pub fn divide(&self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let root = self.clone().with_rules_changed(self.rules.without_draws());
        let mut moves = Vec::new();
        root.legal_moves(&mut moves);
        moves
            .into_iter()
            .map(|mv| {
                let mut child = root.clone();
                child.apply(mv);
                (mv, child.perft_inner(depth - 1))
            })
            .collect()
    }

    /// What `mv` would do here: `None` for a move onto an empty square,
    /// else the result of the attack. `mv` need not be legal; `None` also
    /// when there is no attacker on its source square.
    #[must_use]
    pub fn attack_result(&self, mv: Move) -> Option<Fight> {
        let attacker = self.piece_at(mv.from())?;
        let defender = self.piece_at(mv.to())?;
        if attacker.owner == defender.owner {
            return None;
        }
        self.rules.fight(
            attacker.owner,
            attacker.animal,
            mv.from().index(),
            defender.animal,
            mv.to().index(),
        )
    }

    /// Plays a legal move: moves, resolves the attack, updates the clock,
    /// move number, hash, result and draw state.
    #[inline]
    pub(crate) fn apply(&mut self, mv: Move) {
        let from = mv.from().index();
        let to = mv.to().index();
        let side = self.to_move;
        let mut removal = false;
        if self.board[to as usize] == 0 {
            let code = self.remove(from);
            self.put(to, code);
        } else {
            let attacker = Piece::from_code(self.board[from as usize]).animal;
            let defender = Piece::from_code(self.board[to as usize]).animal;
            match self.rules.fight(side, attacker, from, defender, to) {
                Some(Fight::AttackerWins) => {
                    self.remove(to);
                    let code = self.remove(from);
                    self.put(to, code);
                    removal = true;
                }
                Some(Fight::BothRemoved) => {
                    self.remove(to);
                    self.remove(from);
                    removal = true;
                }
                Some(Fight::DefenderWins) => match self.rules.failed_attack {
                    FailedAttack::AttackerDies => {
                        self.remove(from);
                        removal = true;
                    }
                    FailedAttack::Bounce => {}
                    FailedAttack::Illegal => debug_assert!(false, "{mv} is not a legal attack"),
                },
                None => debug_assert!(false, "{mv} crosses the water's edge"),
            }
        }
        self.clock = if removal {
            0
        } else {
            self.clock.saturating_add(1)
        };
        if side == Player::Second {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.to_move = side.opponent();
        self.hash ^= SECOND_TO_MOVE_KEY;
        // Den and extinction (6.1, 6.2): only the mover can have entered.
        let them = side.opponent().index();
        if self.occupied[side.index()] & (1 << DEN[them]) != 0 {
            self.decided = Some(Outcome::Win(side));
        } else if removal && (self.occupied[0] == 0 || self.occupied[1] == 0) {
            self.update_decided();
        }
        let mut repeated = false;
        if self.rules.repetition_draw {
            if removal {
                self.history.clear();
            }
            repeated = self.history.push(self.hash) >= 3;
        }
        if self.decided.is_none() {
            let rules = &self.rules;
            self.drawn = repeated
                || (rules.no_capture_limit > 0 && self.clock >= rules.no_capture_limit)
                || (rules.max_plies > 0 && self.ply() >= u64::from(rules.max_plies));
        }
    }

    /// The pieces of the position as `(square, piece)` pairs, `a1` first.
    pub fn all_pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        crate::board::squares_of(self.occupied[0] | self.occupied[1]).map(|square| {
            (
                Square::from_index_unchecked(square),
                Piece::from_code(self.board[square as usize]),
            )
        })
    }
}

impl Game for Jungle {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.stopped() {
            return;
        }
        // Generate in place: cheaper than a local buffer and a copy.
        out.resize(MOVE_BUFFER, Move::from_indices(0, 0));
        let count = self.generate_by_piece(out);
        out.truncate(count);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "illegal move {mv} in {self}");
        self.apply(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.decided {
            return Some(outcome);
        }
        // "No legal move" (6.3) comes before the draw rules (6.4).
        if !self.has_move() {
            return Some(Outcome::Win(self.to_move.opponent()));
        }
        self.drawn.then_some(Outcome::Draw)
    }

    fn is_legal(&self, mv: Move) -> bool {
        if self.stopped() {
            return false;
        }
        let from = mv.from().index();
        let code = self.board[from as usize];
        if code == 0 || Piece::from_code(code).owner != self.to_move {
            return false;
        }
        let animal = Piece::from_code(code).animal;
        self.targets(self.to_move, from, animal) & mv.to().bit() != 0
    }
}

impl PositionHash for Jungle {
    /// Zobrist hash of the board and the side to move (not the clock, the
    /// move number or the history).
    #[inline]
    fn position_hash(&self) -> u64 {
        self.hash
    }
}

impl ActionSpace for Jungle {
    fn num_actions(&self) -> usize {
        Move::COUNT
    }

    #[inline]
    fn action_index(&self, mv: Move) -> usize {
        mv.index()
    }

    fn action(&self, index: usize) -> Option<Move> {
        Move::from_index(index)
    }
}

impl ColorFlip for Jungle {
    /// Rotates the board by 180 degrees and swaps the sides; the clock, the
    /// move number and the rules stay, and the repetition history is mapped
    /// hash by hash.
    fn color_flipped(&self) -> Jungle {
        let mut board = [0; 64];
        for (square, &code) in self.board[..63].iter().enumerate() {
            if code != 0 {
                let flipped = if code > 8 { code - 8 } else { code + 8 };
                board[62 - square] = flipped;
            }
        }
        Jungle {
            board,
            occupied: [rotate_bits(self.occupied[1]), rotate_bits(self.occupied[0])],
            location: {
                let mut location = [NOWHERE; 17];
                for code in 1..=16 {
                    let square = self.location[code];
                    let flipped = if code > 8 { code - 8 } else { code + 8 };
                    location[flipped] = if square == NOWHERE {
                        NOWHERE
                    } else {
                        62 - square
                    };
                }
                location
            },
            to_move: self.to_move.opponent(),
            clock: self.clock,
            fullmove: self.fullmove,
            hash: flip_hash(self.hash),
            decided: self.decided.map(Outcome::flipped),
            drawn: self.drawn,
            rules: self.rules,
            history: self.history.map(flip_hash),
        }
    }

    fn flip_move(mv: Move) -> Move {
        mv.rotated()
    }
}

impl fmt::Debug for Jungle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Jungle({self} [{}]", self.rules)?;
        if !self.history.is_empty() {
            // A digest keeps the text short; it still tells histories apart.
            let digest = self.history.hashes().iter().fold(0u64, |digest, &hash| {
                game_traits::zobrist::mix64(digest ^ hash)
            });
            write!(
                f,
                " history of {} positions, digest {digest:#018x}",
                self.history.hashes().len()
            )?;
        }
        write!(f, " hash {:#018x})", self.hash)
    }
}
