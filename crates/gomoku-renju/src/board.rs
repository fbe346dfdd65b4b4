//! The position: stones, side to move and rule, with the line bitboards
//! and shape caches that are kept up to date with every stone.

use game_traits::zobrist::{keys, mix64};
use game_traits::{Outcome, Player};

use crate::bits::Bits;
use crate::shape::{AT_LEAST_4, BASE3, Direction, EXACT_5, FiveKind, Shape};
use crate::{Move, MoveSet, Rule};

/// The smallest board side.
pub const MIN_SIZE: usize = 5;
/// The largest board side.
pub const MAX_SIZE: usize = 22;
/// The usual board side (standard, renju and freestyle-15 leagues).
pub const DEFAULT_SIZE: usize = 15;
/// Cells of the largest board.
pub(crate) const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;
/// Lines per direction on the largest board (diagonals: `2 * size - 1`).
const MAX_LINES: usize = 2 * MAX_SIZE - 1;

/// Zobrist keys: one per player and cell of the largest board, then the
/// key of `Player::Second` to move.
static ZOBRIST: [u64; 2 * MAX_CELLS + 1] = keys(0x0060_6D6F_6B75_0001);
const SIDE_KEY: u64 = ZOBRIST[2 * MAX_CELLS];

/// Line steps `(dx, dy)` by direction index, `y` upwards.
const STEPS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Per shape code: counts packed as `five | fours << 4 | open << 8 |
/// three << 12`, so the four directions of a cell add up without
/// overflow.
const PACK: [u16; 16] = {
    let mut pack = [0u16; 16];
    pack[Shape::Five as usize] = 1;
    pack[Shape::Four as usize] = 1 << 4;
    pack[Shape::OpenFour as usize] = (1 << 4) | (1 << 8);
    pack[Shape::DoubleFour as usize] = (2 << 4) | (1 << 8);
    pack[Shape::OpenThree as usize] = 1 << 12;
    pack[Shape::BrokenThree as usize] = 1 << 12;
    pack
};

/// What a cell's four shapes for one player add up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Summary {
    /// A five in some direction.
    pub(crate) five: bool,
    /// Fours made (two fours on one line count two).
    pub(crate) fours: u32,
    /// A straight four or two fours: the opponent cannot stop the five.
    pub(crate) open_four: bool,
    /// Open or broken threes made.
    pub(crate) threes: u32,
}

impl Summary {
    #[inline]
    pub(crate) fn of(nibbles: u32) -> Summary {
        let pack = PACK[(nibbles & 0xF) as usize]
            + PACK[((nibbles >> 4) & 0xF) as usize]
            + PACK[((nibbles >> 8) & 0xF) as usize]
            + PACK[((nibbles >> 12) & 0xF) as usize];
        let fours = u32::from((pack >> 4) & 0xF);
        Summary {
            five: pack & 0xF != 0,
            fours,
            open_four: (pack >> 8) & 0xF != 0 || fours >= 2,
            threes: u32::from(pack >> 12),
        }
    }
}

/// A Gomoku position: a square board of 5x5 to 22x22 cells, the stones,
/// the player to move and the [`Rule`]. `Player::First` is Black (`X`),
/// who moves first from the empty board.
///
/// Implements [`Game`](game_traits::Game) (moves are cells, plus a pass
/// that only renju's Black can ever need),
/// [`ActionSpace`](game_traits::ActionSpace) (`size * size + 1` actions:
/// cell `y * size + x`, then the pass), [`PositionHash`](game_traits::PositionHash)
/// (Zobrist, incremental) and [`ColorFlip`](game_traits::ColorFlip) (swap
/// the stones and the player to move; exact for freestyle and standard
/// only, see below).
///
/// # Representation
///
/// Every line of the board (rows, columns and both diagonals) is a bitset
/// per player, and every empty cell keeps, per direction, the index of its
/// neighbourhood (4 cells each side where five or more wins, 5 where only
/// exactly five does) in a pattern table, for both players, and the
/// [`Shape`] each player would make there. Placing a stone adds one number
/// to the index of each empty cell within reach on its four lines (at most
/// 40) and re-reads those shapes; the cells where each player can make a
/// five, an open four or a four are kept as bitsets. So five detection is
/// a bit test, and the threats that playouts, evaluators and the VCF and
/// VCT solvers need are read, not searched. The position is about 12 KB on
/// every board size (arrays for 22x22) and is cloned by copying.
///
/// # Rules
///
/// A move that makes a five (as the rule counts it) wins; a full board is
/// a draw. Under renju, Black's forbidden moves
/// ([`is_forbidden`](Gomoku::is_forbidden)) are not legal. The RIF rules
/// let a player pass at any time; this crate lists a pass only where it is
/// the sole option, for Black under renju when every empty cell is
/// forbidden. Two passes in a row cannot happen (White can always place a
/// stone while there is an empty cell), so the game still ends with a five
/// or a full board, within [`max_plies`](Gomoku::max_plies).
///
/// # Colour flip and renju
///
/// [`ColorFlip`](game_traits::ColorFlip) swaps the stones and the player to
/// move. Under freestyle and standard the rules treat both players alike,
/// so the flipped position is the same game seen from the other side:
/// mapped legal moves, flipped outcome, equal values. Renju has no such
/// symmetry: Black's restrictions (and exact-five win) belong to Black,
/// whoever has which stones, so after swapping the stones the restricted
/// player holds the other player's position. `color_flipped` still swaps
/// stones and side (flipping twice gives the position back), but the
/// flipped renju position is a different game; [`Rule::is_color_symmetric`]
/// tells which rules the `ColorFlip` properties hold for.
///
/// ```
/// use game_traits::{Game, Outcome, Player};
/// use gomoku_renju::{Gomoku, Move, Rule};
///
/// let mut game = Gomoku::new();
/// for name in ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4"] {
///     game.try_play(name.parse::<Move>()?)?;
/// }
/// assert_eq!(game.outcome(), None);
/// game.try_play("l8".parse::<Move>()?)?;
/// assert_eq!(game.outcome(), Some(Outcome::Win(Player::First)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Gomoku {
    size: u8,
    rule: Rule,
    /// How each player's fives count (by player index).
    kinds: [FiveKind; 2],
    side: Player,
    outcome: Option<Outcome>,
    stone_count: u16,
    hash: u64,
    stones: [Bits; 2],
    /// Cells within two steps (in both coordinates) of a stone.
    near: Bits,
    /// By player: cells that make a five.
    fives: [Bits; 2],
    /// By player: cells that make a straight four or two fours.
    open_fours: [Bits; 2],
    /// By player: cells that make at least one four.
    fours: [Bits; 2],
    /// By player, direction and line: the stones, bit `i` for the `i`-th
    /// cell along the line.
    lines: [[[u32; MAX_LINES]; 4]; 2],
    /// By cell: the shape codes, 4 bits per direction, Black in the low 16
    /// bits and White in the high 16. Zero for occupied cells.
    codes: [u32; MAX_CELLS],
    /// By cell and direction: the pattern-table indices of the cell's
    /// neighbourhood for Black (low 16 bits) and White (high 16 bits),
    /// updated by one addition per stone placed within reach (an index is
    /// below 59,049, so the halves never carry into each other). Zero for
    /// occupied cells.
    windows: [[u32; 4]; MAX_CELLS],
    /// The empty cells.
    empty: Bits,
}

/// `3^digit` of the neighbour at offset `k` (index `k + 5`) from a cell,
/// for windows of 4 and of 5 cells each side (0 beyond the window).
const DIGIT_POWERS: [[u32; 11]; 2] = {
    let mut powers = [[0u32; 11]; 2];
    let mut table = 0;
    while table < 2 {
        let half = 4 + table as isize;
        let mut k = -5isize;
        while k <= 5 {
            if k != 0 && k.abs() <= half {
                let digit = if k < 0 { half + k } else { half + k - 1 };
                powers[table][(k + 5) as usize] = 3u32.pow(digit as u32);
            }
            k += 1;
        }
        table += 1;
    }
    powers
};

/// What a stone of `placer` at offset `k` (index `k + 5`) adds to a cell's
/// packed windows: digit 1 in the placer's half, digit 2 (blocked) in the
/// other's, for windows of `halves` cells (Black's, White's) each side.
const fn window_deltas(halves: [usize; 2], placer: usize) -> [u32; 11] {
    let mut deltas = [0u32; 11];
    let mut k = 0;
    while k < 11 {
        let black = DIGIT_POWERS[halves[0] - 4][k] * if placer == 0 { 1 } else { 2 };
        let white = DIGIT_POWERS[halves[1] - 4][k] * if placer == 1 { 1 } else { 2 };
        deltas[k] = black | (white << 16);
        k += 1;
    }
    deltas
}

/// [`window_deltas`] by pattern layout (freestyle, exact five, renju) and
/// placer.
static WINDOW_DELTAS: [[[u32; 11]; 2]; 3] = [
    [window_deltas([4, 4], 0), window_deltas([4, 4], 1)],
    [window_deltas([5, 5], 0), window_deltas([5, 5], 1)],
    [window_deltas([5, 4], 0), window_deltas([5, 4], 1)],
];

/// A cell's flags for one player: five, four, open four.
#[inline]
fn flags(nibbles: u32) -> u8 {
    let summary = Summary::of(nibbles);
    u8::from(summary.five) | u8::from(summary.fours > 0) << 1 | u8::from(summary.open_four) << 2
}

/// The line through `(x, y)` in direction `dir`: its index, the cell's
/// position along it, and its length.
#[inline]
pub(crate) fn line_of(size: usize, x: usize, y: usize, dir: usize) -> (usize, usize, usize) {
    match dir {
        0 => (y, x, size),
        1 => (x, y, size),
        2 => (x + size - 1 - y, x.min(y), size - x.abs_diff(y)),
        _ => {
            let sum = x + y;
            if sum < size {
                (sum, x, sum + 1)
            } else {
                (sum, size - 1 - y, 2 * size - 1 - sum)
            }
        }
    }
}

/// The pattern-table index of position `position` of a line of length
/// `len`, with `own` and `other` the two players' stones on it.
#[inline]
pub(crate) fn window_index(
    kind: FiveKind,
    own: u64,
    other: u64,
    position: usize,
    len: usize,
) -> usize {
    let half = kind.half();
    let mask = (1u64 << (2 * half + 1)) - 1;
    let wall = !(((1u64 << len) - 1) << half);
    let own = ((own << half) >> position) & mask;
    let blocked = (((other << half) | wall) >> position) & mask;
    let low = (1u64 << half) - 1;
    let own = (own & low) | ((own >> (half + 1)) << half);
    let blocked = (blocked & low) | ((blocked >> (half + 1)) << half);
    BASE3[own as usize] as usize + 2 * BASE3[blocked as usize] as usize
}

/// A run of five (as `kind` counts it) anywhere in the line `stones`.
#[inline]
fn has_five(kind: FiveKind, stones: u64) -> bool {
    let runs = stones & (stones >> 1) & (stones >> 2) & (stones >> 3) & (stones >> 4);
    match kind {
        FiveKind::AtLeast => runs != 0,
        FiveKind::Exact => runs & !(stones << 1) & !(stones >> 5) != 0,
    }
}

impl Default for Gomoku {
    fn default() -> Self {
        Gomoku::new()
    }
}

impl Gomoku {
    /// The empty 15x15 board under freestyle, Black to move.
    #[must_use]
    pub fn new() -> Gomoku {
        Gomoku::empty(DEFAULT_SIZE, Rule::Freestyle)
    }

    /// The empty 15x15 board under `rule`, Black to move.
    #[must_use]
    pub fn with_rule(rule: Rule) -> Gomoku {
        Gomoku::empty(DEFAULT_SIZE, rule)
    }

    /// The empty `size` x `size` board under `rule`, Black to move.
    ///
    /// # Errors
    ///
    /// [`PositionError::Size`] unless `size` is in `5..=22`.
    pub fn with_size(size: usize, rule: Rule) -> Result<Gomoku, PositionError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(PositionError::Size { size });
        }
        Ok(Gomoku::empty(size, rule))
    }

    fn empty(size: usize, rule: Rule) -> Gomoku {
        debug_assert!((MIN_SIZE..=MAX_SIZE).contains(&size));
        let mut game = Gomoku {
            size: size as u8,
            rule,
            kinds: [
                rule.five_kind(Player::First),
                rule.five_kind(Player::Second),
            ],
            side: Player::First,
            outcome: None,
            stone_count: 0,
            hash: Gomoku::config_key(size, rule),
            stones: [Bits::new(); 2],
            near: Bits::new(),
            fives: [Bits::new(); 2],
            open_fours: [Bits::new(); 2],
            fours: [Bits::new(); 2],
            lines: [[[0; MAX_LINES]; 4]; 2],
            codes: [0; MAX_CELLS],
            windows: [[0; 4]; MAX_CELLS],
            empty: Bits::first(size * size),
        };
        // A lone stone makes no shape, so the shape caches start empty; the
        // windows see the edges.
        game.read_all_windows();
        game
    }

    /// An empty board whose windows are not read yet: stones are to be
    /// placed with `place_stone_only`, then `read_all_shapes`.
    fn unread(size: usize, rule: Rule) -> Result<Gomoku, PositionError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(PositionError::Size { size });
        }
        let mut game = Gomoku::empty(MIN_SIZE, rule);
        game.size = size as u8;
        game.empty = Bits::first(size * size);
        game.hash = Gomoku::config_key(size, rule);
        game.windows = [[0; 4]; MAX_CELLS];
        Ok(game)
    }

    /// The hash of the empty board of this size and rule, Black to move.
    fn config_key(size: usize, rule: Rule) -> u64 {
        mix64(((size as u64) << 8) | rule.protocol_value() as u64 | 0x6000)
    }

    /// A position from its stones, with `to_move` to move. The stones
    /// need not come from a legal game (the colour flip of a position has
    /// one stone more for White, say), but at most one player may have a
    /// five.
    ///
    /// # Errors
    ///
    /// [`PositionError`] for a size outside `5..=22`, a stone off the
    /// board, a cell given twice, or fives for both players.
    pub fn from_stones(
        size: usize,
        rule: Rule,
        black: &[Move],
        white: &[Move],
        to_move: Player,
    ) -> Result<Gomoku, PositionError> {
        let mut game = Gomoku::with_stones(size, rule, black, white, to_move)?;
        game.outcome = game.scan_outcome()?;
        Ok(game)
    }

    /// The stones placed, with no outcome yet.
    pub(crate) fn with_stones(
        size: usize,
        rule: Rule,
        black: &[Move],
        white: &[Move],
        to_move: Player,
    ) -> Result<Gomoku, PositionError> {
        let mut game = Gomoku::unread(size, rule)?;
        for (player, stones) in [(Player::First, black), (Player::Second, white)] {
            for &mv in stones {
                if mv.is_pass() || !mv.is_on_board(size) {
                    return Err(PositionError::OffBoard { mv, size });
                }
                if game.stone(mv).is_some() {
                    return Err(PositionError::Occupied { mv });
                }
                game.place_stone_only(player.index(), mv.index(size));
            }
        }
        game.read_all_shapes();
        game.set_side(to_move);
        Ok(game)
    }

    /// Sets the recorded result.
    pub(crate) fn set_outcome(&mut self, outcome: Option<Outcome>) {
        self.outcome = outcome;
    }

    /// The winner found by scanning every line (for positions built from
    /// stones rather than played).
    fn scan_outcome(&self) -> Result<Option<Outcome>, PositionError> {
        let size = self.size as usize;
        let mut winners = [false; 2];
        for (player, winner) in winners.iter_mut().enumerate() {
            for dir in 0..4 {
                let count = if dir < 2 { size } else { 2 * size - 1 };
                if self.lines[player][dir][..count]
                    .iter()
                    .any(|&line| has_five(self.kinds[player], u64::from(line)))
                {
                    *winner = true;
                }
            }
        }
        Ok(match winners {
            [true, true] => return Err(PositionError::BothFive),
            [true, false] => Some(Outcome::Win(Player::First)),
            [false, true] => Some(Outcome::Win(Player::Second)),
            [false, false] => (self.stone_count as usize == size * size).then_some(Outcome::Draw),
        })
    }

    /// The board side.
    #[inline]
    #[must_use]
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The rule.
    #[inline]
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The player to move (`First` is Black); `Game::to_move` to users.
    #[inline]
    #[must_use]
    pub(crate) fn side(&self) -> Player {
        self.side
    }

    /// The number of stones on the board.
    #[inline]
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.stone_count as usize
    }

    /// Whether every cell holds a stone.
    #[inline]
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.stone_count as usize == self.size() * self.size()
    }

    /// The most plies a game from the empty board can last: one per cell,
    /// twice that under renju, where Black may have to pass before each
    /// White stone.
    #[must_use]
    pub fn max_plies(&self) -> usize {
        let cells = self.size() * self.size();
        if self.rule == Rule::Renju {
            2 * cells
        } else {
            cells
        }
    }

    /// Whose stone is on `mv`, if any (`None` also for the pass and cells
    /// off the board).
    #[inline]
    #[must_use]
    pub fn stone(&self, mv: Move) -> Option<Player> {
        if mv.is_pass() || !mv.is_on_board(self.size()) {
            return None;
        }
        let index = mv.index(self.size());
        if self.stones[0].contains(index) {
            Some(Player::First)
        } else if self.stones[1].contains(index) {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// The stones of `player`.
    #[must_use]
    pub fn stones(&self, player: Player) -> MoveSet {
        MoveSet::new(self.stones[player.index()], self.size())
    }

    /// The empty cells.
    #[must_use]
    pub fn empty_cells(&self) -> MoveSet {
        MoveSet::new(self.empty_bits(), self.size())
    }

    /// The shape `player` makes on the line through `mv` in `direction` by
    /// playing `mv` (see [`Shape`]); [`Shape::None`] for an occupied cell,
    /// the pass or a cell off the board. Read from the cache, so free.
    ///
    /// Under renju this is the shape alone: whether the move is forbidden
    /// to Black is [`is_forbidden`](Gomoku::is_forbidden).
    #[inline]
    #[must_use]
    pub fn shape(&self, player: Player, mv: Move, direction: Direction) -> Shape {
        if mv.is_pass() || !mv.is_on_board(self.size()) {
            return Shape::None;
        }
        let code =
            self.codes[mv.index(self.size())] >> (16 * player.index() + 4 * direction.index());
        Shape::from_code((code & 0xF) as u8)
    }

    /// The shapes `player` makes by playing `mv`, by [`Direction`].
    #[must_use]
    pub fn shapes(&self, player: Player, mv: Move) -> [Shape; 4] {
        Direction::ALL.map(|direction| self.shape(player, mv, direction))
    }

    /// The position hash (Zobrist: stones, player to move, size and
    /// rule); `PositionHash::position_hash` to users.
    #[inline]
    #[must_use]
    pub(crate) fn hash_key(&self) -> u64 {
        self.hash
    }

    /// The result, once the game is over; `Game::outcome` to users.
    #[inline]
    #[must_use]
    pub(crate) fn result(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    #[inline]
    pub(crate) fn finished(&self) -> bool {
        self.outcome.is_some()
    }

    // ----- internals shared with the other modules -----

    #[inline]
    pub(crate) fn empty_bits(&self) -> Bits {
        self.empty
    }

    #[inline]
    pub(crate) fn occupied(&self, index: usize) -> bool {
        self.stones[0].contains(index) || self.stones[1].contains(index)
    }

    #[inline]
    pub(crate) fn near_bits(&self) -> &Bits {
        &self.near
    }

    #[inline]
    pub(crate) fn five_bits(&self, player: usize) -> &Bits {
        &self.fives[player]
    }

    #[inline]
    pub(crate) fn open_four_bits(&self, player: usize) -> &Bits {
        &self.open_fours[player]
    }

    #[inline]
    pub(crate) fn four_bits(&self, player: usize) -> &Bits {
        &self.fours[player]
    }

    #[inline]
    pub(crate) fn three_bits(&self, player: usize) -> Bits {
        // Not kept up to date (threes come and go with most stones, and
        // playouts never ask): read from the codes of the near cells, where
        // every three cell is.
        let mut threes = Bits::new();
        for index in self.near.and(&self.empty).iter() {
            let nibbles = self.nibbles(player, index);
            // Codes 4 and 5 (broken and open three) are 01xx with bit 1 clear
            // or 0101: test each direction.
            if (0..4).any(|dir| matches!((nibbles >> (4 * dir)) & 0xF, 4 | 5)) {
                threes.insert(index);
            }
        }
        threes
    }

    #[inline]
    pub(crate) fn stone_bits(&self, player: usize) -> &Bits {
        &self.stones[player]
    }

    /// The four shape codes of `player` at `index`, 4 bits each.
    #[inline]
    pub(crate) fn nibbles(&self, player: usize, index: usize) -> u32 {
        (self.codes[index] >> (16 * player)) & 0xFFFF
    }

    #[inline]
    pub(crate) fn summary(&self, player: usize, index: usize) -> Summary {
        Summary::of(self.nibbles(player, index))
    }

    #[inline]
    pub(crate) fn kind(&self, player: usize) -> FiveKind {
        self.kinds[player]
    }

    /// The pattern-table index of `player`'s window at `index` in
    /// direction `dir`, with the line's length and the cell's position.
    #[inline]
    pub(crate) fn window(&self, player: usize, index: usize, dir: usize) -> (usize, usize, usize) {
        let size = self.size();
        let (line, position, len) = line_of(size, index % size, index / size, dir);
        let own = u64::from(self.lines[player][dir][line]);
        let other = u64::from(self.lines[1 - player][dir][line]);
        (
            window_index(self.kinds[player], own, other, position, len),
            position,
            len,
        )
    }

    /// Plays a stone for the player to move on the empty cell `index`:
    /// outcome, caches, hash and turn.
    #[inline]
    pub(crate) fn play_index(&mut self, index: usize) {
        let player = self.side.index();
        let wins = self.fives[player].contains(index);
        self.place(player, index);
        if wins {
            self.outcome = Some(Outcome::Win(self.side));
        } else if self.is_full() {
            self.outcome = Some(Outcome::Draw);
        }
        self.pass_turn();
    }

    /// Hands the turn to the other player.
    #[inline]
    pub(crate) fn pass_turn(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= SIDE_KEY;
    }

    pub(crate) fn set_side(&mut self, side: Player) {
        if self.side != side {
            self.pass_turn();
        }
    }

    /// Puts a stone of `player` on the empty cell `index` and updates the
    /// caches and the hash (not the outcome or the turn).
    pub(crate) fn place(&mut self, player: usize, index: usize) {
        self.place_stone_only(player, index);
        let size = self.size();
        let (x, y) = (index % size, index / size);
        // An occupied cell has no shapes.
        self.codes[index] = 0;
        self.windows[index] = [0; 4];
        for sets in [&mut self.fives, &mut self.open_fours, &mut self.fours] {
            sets[0].remove(index);
            sets[1].remove(index);
        }
        // One copy of the update per rule, so the tables and reach are
        // constants in it.
        match self.rule {
            Rule::Freestyle => self.refresh_lines::<0>(player, x, y, index),
            Rule::Standard => self.refresh_lines::<1>(player, x, y, index),
            Rule::Renju => self.refresh_lines::<2>(player, x, y, index),
        }
    }

    /// Puts a stone on the empty cell `index`: stones, lines, hash and
    /// near cells, but not the windows and shape caches.
    fn place_stone_only(&mut self, player: usize, index: usize) {
        debug_assert!(!self.occupied(index));
        let size = self.size();
        let (x, y) = (index % size, index / size);
        self.stones[player].insert(index);
        self.empty.remove(index);
        self.stone_count += 1;
        self.hash ^= ZOBRIST[player * MAX_CELLS + y * MAX_SIZE + x];
        // Cells within two steps become candidates.
        let (left, right) = (x.saturating_sub(2), (x + 2).min(size - 1));
        for row in y.saturating_sub(2)..=(y + 2).min(size - 1) {
            self.near.insert_range(row * size + left, right - left + 1);
        }
        for dir in 0..4 {
            let (line, position, _) = line_of(size, x, y, dir);
            self.lines[player][dir][line] |= 1 << position;
        }
    }

    /// Reads every cell's windows from the lines (zero for occupied
    /// cells).
    fn read_all_windows(&mut self) {
        let size = self.size();
        for index in 0..size * size {
            if self.occupied(index) {
                self.windows[index] = [0; 4];
                continue;
            }
            for dir in 0..4 {
                let (black, _, _) = self.window(0, index, dir);
                let (white, _, _) = self.window(1, index, dir);
                self.windows[index][dir] = black as u32 | (white as u32) << 16;
            }
        }
    }

    /// Reads every cell's windows and shapes from scratch (the shape
    /// caches must be empty).
    fn read_all_shapes(&mut self) {
        self.read_all_windows();
        let size = self.size();
        for index in 0..size * size {
            if self.occupied(index) {
                continue;
            }
            for dir in 0..4 {
                for player in 0..2 {
                    let window = (self.windows[index][dir] >> (16 * player)) as u16;
                    let code = self.kinds[player].table()[usize::from(window)];
                    self.set_code(index, player, dir, code);
                }
            }
        }
    }

    /// After a stone of `placer` at `position` of a line: adds the stone to
    /// the windows of the empty cells within reach and re-reads their
    /// shapes.
    #[inline]
    fn refresh_lines<const LAYOUT: usize>(
        &mut self,
        placer: usize,
        x: usize,
        y: usize,
        index: usize,
    ) {
        let size = self.size();
        for dir in 0..4 {
            let (line, position, len) = line_of(size, x, y, dir);
            self.refresh_line::<LAYOUT>(placer, dir, line, position, len, index);
        }
    }

    /// [`refresh_lines`](Gomoku::refresh_lines) for one line.
    #[inline(always)]
    fn refresh_line<const LAYOUT: usize>(
        &mut self,
        placer: usize,
        dir: usize,
        line: usize,
        position: usize,
        len: usize,
        index: usize,
    ) {
        let size = self.size() as isize;
        let (dx, dy) = STEPS[dir];
        let delta = dy * size + dx;
        let occupied = self.lines[0][dir][line] | self.lines[1][dir][line];
        let deltas = &WINDOW_DELTAS[LAYOUT][placer];
        let (black_table, white_table, reach) = match LAYOUT {
            0 => (AT_LEAST_4, AT_LEAST_4, 4),
            1 => (EXACT_5, EXACT_5, 5),
            _ => (EXACT_5, AT_LEAST_4, 5),
        };
        let low = position.saturating_sub(reach);
        let high = (position + reach).min(len - 1);
        let shift = 4 * dir;
        // The empty cells within reach, visited without a branch per cell.
        let mut empties = !occupied & (((2u32 << high) - 1) & !((1u32 << low) - 1));
        while empties != 0 {
            let cell_position = empties.trailing_zeros() as usize;
            empties &= empties - 1;
            // The stone's offset as seen from the cell.
            let offset = position as isize - cell_position as isize;
            let cell = (index as isize - offset * delta) as usize;
            let window = self.windows[cell][dir].wrapping_add(deltas[(offset + 5) as usize]);
            self.windows[cell][dir] = window;
            let black = u32::from(black_table[usize::from(window as u16)]);
            let white = u32::from(white_table[usize::from((window >> 16) as u16)]);
            let old = self.codes[cell];
            let new = (old & !(0x000F_000F << shift)) | (black << shift) | (white << (16 + shift));
            self.codes[cell] = new;
            // Only fours, fives (and overlines, harmlessly) change a threat
            // set: codes 6 and up. The four codes, one per byte, plus 10
            // carry into bit 4 of their byte exactly then.
            let codes = ((old >> shift) & 0x000F_000F) | (((new >> shift) & 0x000F_000F) << 8);
            if (codes + 0x0A0A_0A0A) & 0x1010_1010 != 0 && new != old {
                for player in 0..2 {
                    if ((old ^ new) >> (16 * player + shift)) & 0xF != 0 {
                        self.update_sets(cell, player, old);
                    }
                }
            }
        }
    }

    #[inline]
    fn set_code(&mut self, cell: usize, player: usize, dir: usize, code: u8) {
        let shift = 16 * player + 4 * dir;
        let old = self.codes[cell];
        let new = (old & !(0xF << shift)) | (u32::from(code) << shift);
        if new == old {
            return;
        }
        self.codes[cell] = new;
        self.update_sets(cell, player, old);
    }

    /// After `player`'s codes at `cell` changed from those in `old`: puts
    /// the cell in or out of the threat sets.
    fn update_sets(&mut self, cell: usize, player: usize, old: u32) {
        let before = flags((old >> (16 * player)) & 0xFFFF);
        let after = flags((self.codes[cell] >> (16 * player)) & 0xFFFF);
        if before == after {
            return;
        }
        self.fives[player].set(cell, after & 1 != 0);
        self.fours[player].set(cell, after & 2 != 0);
        self.open_fours[player].set(cell, after & 4 != 0);
    }

    /// The same position rebuilt from its stones (caches read from
    /// scratch).
    pub(crate) fn rebuilt(&self) -> Gomoku {
        let mut game = Gomoku::unread(self.size(), self.rule)
            .unwrap_or_else(|_| unreachable!("a position's size is valid"));
        for player in 0..2 {
            for index in self.stones[player].iter() {
                game.place_stone_only(player, index);
            }
        }
        game.read_all_shapes();
        game.set_side(self.side);
        game.outcome = self.outcome;
        game
    }

    /// Whether every cache equals the one rebuilt from the stones (for
    /// tests of the incremental updates).
    #[doc(hidden)]
    #[must_use]
    pub fn caches_are_consistent(&self) -> bool {
        let rebuilt = self.rebuilt();
        let size = self.size();
        let cells = size * size;
        rebuilt.hash == self.hash
            && rebuilt.codes[..cells] == self.codes[..cells]
            && rebuilt.windows[..cells] == self.windows[..cells]
            && rebuilt.empty == self.empty
            && rebuilt.near == self.near
            && rebuilt.fives == self.fives
            && rebuilt.open_fours == self.open_fours
            && rebuilt.fours == self.fours
            && rebuilt.lines == self.lines
            && rebuilt.stone_count == self.stone_count
            && self.scan_outcome().ok() == Some(self.outcome)
    }
}

impl PartialEq for Gomoku {
    /// Positions are equal when size, rule, player to move and stones are
    /// (everything else follows from them).
    fn eq(&self, other: &Gomoku) -> bool {
        self.size == other.size
            && self.rule == other.rule
            && self.side == other.side
            && self.stones == other.stones
    }
}

impl Eq for Gomoku {}

impl std::hash::Hash for Gomoku {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// A position that cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// The board side is not in `5..=22`.
    #[error("board size {size} is not supported: sizes 5 to 22 are")]
    Size {
        /// The size given.
        size: usize,
    },
    /// A stone off the board (or the pass given as a stone).
    #[error("stone {mv} is not on a {size}x{size} board")]
    OffBoard {
        /// The stone.
        mv: Move,
        /// The board side.
        size: usize,
    },
    /// Two stones on one cell.
    #[error("cell {mv} is given two stones")]
    Occupied {
        /// The cell.
        mv: Move,
    },
    /// Both players have five in a row: no game reaches that.
    #[error("both players have five in a row")]
    BothFive,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_is_copied_cheaply_enough() {
        // Searchers clone the root for every iteration: keep it in a few
        // pages (arrays sized for 22x22).
        assert!(size_of::<Gomoku>() <= 12 * 1024, "{}", size_of::<Gomoku>());
        assert_eq!(size_of::<Move>(), 2);
    }

    #[test]
    fn lines_cover_every_cell_once_per_direction() {
        for size in [MIN_SIZE, 15, MAX_SIZE] {
            for dir in 0..4 {
                let mut seen = std::collections::HashSet::new();
                for y in 0..size {
                    for x in 0..size {
                        let (line, position, len) = line_of(size, x, y, dir);
                        assert!(position < len && len <= size && line < MAX_LINES);
                        assert!(seen.insert((line, position)), "{size} {dir} {x} {y}");
                    }
                }
            }
        }
    }
}
