//! Playout policies: uniform random and corner-first, each with a fast
//! `play_out` loop on the bitboards.

use game_traits::{Game, Outcome, Player, Playout, Range};
use rand::{Rng, RngExt};

use crate::eval::{CORNERS, X_SQUARES};
use crate::movegen::{flips_inline, mobility};
use crate::{Board, ConfigError, Move, Square};

/// The `n`-th set bit (from the lowest, `n` from 0) of `bits`, which must
/// have more than `n` set bits.
#[inline]
fn nth_set_bit(mut bits: u64, n: u32) -> u64 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits & bits.wrapping_neg()
}

/// A uniformly random set bit of `bits` (not empty).
#[inline]
fn random_bit<R: Rng + ?Sized>(bits: u64, rng: &mut R) -> u64 {
    debug_assert_ne!(bits, 0);
    let count = bits.count_ones();
    if count == 1 {
        bits
    } else {
        nth_set_bit(bits, rng.random_range(..count))
    }
}

/// Plays `board` to the end, each move uniformly random among the legal
/// ones, and returns the final position.
///
/// The loop of [`RandomPlayout`]'s `play_out`: the move is a random set
/// bit of the mobility mask, so nothing is allocated and no move list is
/// built. (The random numbers are drawn differently from
/// [`UniformPlayout`](game_traits::UniformPlayout), so the same seed gives
/// a different game, from the same distribution.)
#[must_use]
pub fn random_playout<R: Rng + ?Sized>(board: &Board, rng: &mut R) -> Board {
    let mut board = board.clone();
    play_out_fast(
        &mut board,
        usize::MAX,
        |moves, _, _| random_bit(moves, rng),
        |_, _| {},
    );
    board
}

/// The playout loop on the bitboards: `choose(moves, player, opponent)`
/// returns the bit of the square to play; `on_move` hears every move,
/// passes included, with its mover. Stops at the end of the game or after
/// `max_plies` plies; leaves the final position in `board` and returns its
/// outcome and the plies played.
///
/// The loop runs with the instructions picked at run time (see
/// `crate::dispatch`).
#[inline(always)]
fn play_out_fast(
    board: &mut Board,
    max_plies: usize,
    choose: impl FnMut(u64, u64, u64) -> u64,
    on_move: impl FnMut(Player, Move),
) -> (Option<Outcome>, usize) {
    crate::dispatch::play_out(board, max_plies, choose, on_move)
}

/// The body of the playout loop of [`play_out_fast`], inlined into each
/// copy of `crate::dispatch::play_out`.
#[inline(always)]
pub(crate) fn play_out_bits(
    board: &mut Board,
    max_plies: usize,
    mut choose: impl FnMut(u64, u64, u64) -> u64,
    mut on_move: impl FnMut(Player, Move),
) -> (Option<Outcome>, usize) {
    let (mut player, mut opponent, mut side) = (board.player(), board.opponent(), board.side());
    let mut plies = 0;
    let mut over = false;
    while plies < max_plies {
        let moves = mobility(player, opponent);
        if moves == 0 {
            if mobility(opponent, player) == 0 {
                over = true;
                break;
            }
            on_move(side, Move::Pass);
            std::mem::swap(&mut player, &mut opponent);
        } else {
            let bit = choose(moves, player, opponent);
            let square = bit.trailing_zeros() as usize;
            on_move(side, Move::Place(Square::from_index_masked(square)));
            let flipped = flips_inline(square, player, opponent);
            let next_opponent = player ^ flipped ^ bit;
            player = opponent ^ flipped;
            opponent = next_opponent;
        }
        side = side.opponent();
        plies += 1;
    }
    *board = Board::from_parts(player, opponent, side);
    let outcome = if over {
        Some(match board.final_score() {
            score if score > 0 => Outcome::Win(side),
            score if score < 0 => Outcome::Win(side.opponent()),
            _ => Outcome::Draw,
        })
    } else {
        board.outcome()
    };
    (outcome, plies)
}

/// Uniformly random moves, with a fast [`play_out`](Playout::play_out):
/// a random set bit of the mobility mask at every ply, no move list. Use
/// it where a searcher asks for a `Playout<Board>` and plays whole games
/// with it (MCTS), instead of [`UniformPlayout`](game_traits::UniformPlayout).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RandomPlayout;

impl Playout<Board> for RandomPlayout {
    /// # Panics
    ///
    /// If `moves` is empty (the trait asks for the legal moves of a game
    /// that is not over).
    #[inline]
    fn choose<R: Rng + ?Sized>(&mut self, _board: &Board, moves: &[Move], rng: &mut R) -> Move {
        moves[rng.random_range(..moves.len())]
    }

    fn play_out<R, F>(
        &mut self,
        board: &mut Board,
        rng: &mut R,
        _moves: &mut Vec<Move>,
        max_plies: usize,
        on_move: F,
    ) -> (Option<Outcome>, usize)
    where
        R: Rng + ?Sized,
        F: FnMut(Player, Move),
    {
        play_out_fast(
            board,
            max_plies,
            |moves, _, _| random_bit(moves, rng),
            on_move,
        )
    }
}

/// Takes a corner when one is available with probability
/// `corner_probability` (default 0.7), otherwise plays uniformly among the
/// moves that are not X-squares next to an empty corner (falling back to
/// any move when only such X-squares are left).
///
/// With the `serde` feature it deserializes through
/// [`CornerFirstPlayout::try_new`]: a probability outside `[0, 1]` is
/// refused, not clamped.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "CornerFirstPlayoutRaw")
)]
pub struct CornerFirstPlayout {
    corner_probability: f64,
}

impl Default for CornerFirstPlayout {
    fn default() -> Self {
        CornerFirstPlayout {
            corner_probability: 0.7,
        }
    }
}

impl CornerFirstPlayout {
    /// A corner-first policy taking an available corner with probability
    /// `corner_probability`, clamped to `[0, 1]` (NaN counts as 0).
    #[must_use]
    pub fn new(corner_probability: f64) -> Self {
        let corner_probability = if corner_probability.is_nan() {
            0.0
        } else {
            corner_probability.clamp(0.0, 1.0)
        };
        CornerFirstPlayout { corner_probability }
    }

    /// A corner-first policy taking an available corner with probability
    /// `corner_probability`.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] unless `corner_probability` is in
    /// `[0, 1]` (NaN is refused).
    pub fn try_new(corner_probability: f64) -> Result<Self, ConfigError> {
        Range::PROBABILITY.check("corner_probability", corner_probability)?;
        Ok(CornerFirstPlayout { corner_probability })
    }

    /// The probability of taking an available corner.
    #[must_use]
    pub fn corner_probability(&self) -> f64 {
        self.corner_probability
    }

    /// Picks one square (as a bit) of the mobility mask `moves` (not empty)
    /// for the player with discs `player`.
    #[inline]
    pub fn choose_bit<R: Rng + ?Sized>(
        &self,
        moves: u64,
        player: u64,
        opponent: u64,
        rng: &mut R,
    ) -> u64 {
        let corners = moves & CORNERS;
        if corners != 0 && rng.random_bool(self.corner_probability) {
            return random_bit(corners, rng);
        }
        let safe = moves & !risky_x_squares(player | opponent);
        random_bit(if safe != 0 { safe } else { moves }, rng)
    }

    /// Plays `board` to the end with this policy and returns the final
    /// position (a fast loop on the bitboards, like [`random_playout`]).
    #[must_use]
    pub fn playout<R: Rng + ?Sized>(&self, board: &Board, rng: &mut R) -> Board {
        let mut board = board.clone();
        play_out_fast(
            &mut board,
            usize::MAX,
            |moves, player, opponent| self.choose_bit(moves, player, opponent, rng),
            |_, _| {},
        );
        board
    }
}

/// The X-squares whose corner is still empty.
#[inline]
fn risky_x_squares(occupied: u64) -> u64 {
    let empty_corners = CORNERS & !occupied;
    // Corner a1 (bit 0) guards b2 (bit 9), h1 (7) guards g2 (14), a8 (56)
    // guards b7 (49), h8 (63) guards g7 (54).
    let spread = ((empty_corners & 0x0000_0000_0000_0001) << 9)
        | ((empty_corners & 0x0000_0000_0000_0080) << 7)
        | ((empty_corners & 0x0100_0000_0000_0000) >> 7)
        | ((empty_corners & 0x8000_0000_0000_0000) >> 9);
    spread & X_SQUARES
}

impl Playout<Board> for CornerFirstPlayout {
    /// # Panics
    ///
    /// If `moves` is empty (the trait asks for the legal moves of a game
    /// that is not over).
    fn choose<R: Rng + ?Sized>(&mut self, board: &Board, moves: &[Move], rng: &mut R) -> Move {
        let mask = moves
            .iter()
            .filter_map(|mv| mv.square())
            .fold(0u64, |mask, square| mask | square.bit());
        if mask == 0 {
            return moves[0];
        }
        let bit = self.choose_bit(mask, board.player(), board.opponent(), rng);
        Move::Place(Square::from_index_masked(bit.trailing_zeros() as usize))
    }

    /// The same policy on the bitboards, without move lists.
    fn play_out<R, F>(
        &mut self,
        board: &mut Board,
        rng: &mut R,
        _moves: &mut Vec<Move>,
        max_plies: usize,
        on_move: F,
    ) -> (Option<Outcome>, usize)
    where
        R: Rng + ?Sized,
        F: FnMut(Player, Move),
    {
        let policy = *self;
        play_out_fast(
            board,
            max_plies,
            |moves, player, opponent| policy.choose_bit(moves, player, opponent, rng),
            on_move,
        )
    }
}

/// A serialized [`CornerFirstPlayout`] before its probability is checked.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(rename = "CornerFirstPlayout")]
struct CornerFirstPlayoutRaw {
    corner_probability: f64,
}

#[cfg(feature = "serde")]
impl TryFrom<CornerFirstPlayoutRaw> for CornerFirstPlayout {
    type Error = ConfigError;

    fn try_from(raw: CornerFirstPlayoutRaw) -> Result<Self, ConfigError> {
        CornerFirstPlayout::try_new(raw.corner_probability)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    /// The fast loop against the `Game` implementation, making the same
    /// random choices.
    #[test]
    fn fast_playout_matches_the_game_rules() {
        for seed in 0..200 {
            let fast = random_playout(&Board::start(), &mut Pcg64Mcg::seed_from_u64(seed));
            let mut rng = Pcg64Mcg::seed_from_u64(seed);
            let mut slow = Board::start();
            let mut moves = Vec::new();
            loop {
                slow.legal_moves(&mut moves);
                match moves.as_slice() {
                    [] => break,
                    [Move::Pass] => slow.play(Move::Pass),
                    _ => {
                        let mask = moves.iter().fold(0, |m, mv| m | mv.square().unwrap().bit());
                        let bit = random_bit(mask, &mut rng);
                        slow.play(Move::Place(Square::lowest(bit).unwrap()));
                    }
                }
            }
            assert_eq!(fast, slow, "seed {seed}");
            assert!(fast.is_game_over());
        }
    }

    /// `play_out` reports every move with its mover, passes included, and
    /// stops at the ply limit.
    fn check_play_out<P: Playout<Board>>(policy: &mut P) {
        let mut passes = 0;
        let mut scratch = Vec::new();
        for seed in 0..200 {
            for max_plies in [usize::MAX, 10, 57] {
                let mut rng = Pcg64Mcg::seed_from_u64(seed);
                let mut board = Board::start();
                let mut heard = Vec::new();
                let (outcome, plies) = policy.play_out(
                    &mut board,
                    &mut rng,
                    &mut scratch,
                    max_plies,
                    |mover, mv| heard.push((mover, mv)),
                );
                assert_eq!(plies, heard.len());
                assert!(plies <= max_plies);
                let mut replay = Board::start();
                for &(mover, mv) in &heard {
                    assert_eq!(mover, replay.to_move());
                    replay.try_play(mv).unwrap();
                    passes += usize::from(mv.is_pass());
                }
                assert_eq!(replay, board);
                assert_eq!(outcome, board.outcome());
                assert_eq!(outcome.is_none(), plies == max_plies && !board.is_over());
            }
        }
        assert!(passes > 0);
    }

    #[test]
    fn play_out_reports_every_move() {
        check_play_out(&mut RandomPlayout);
        check_play_out(&mut CornerFirstPlayout::default());
    }

    /// Pins the seeded results, so that a change in how random numbers
    /// are drawn shows.
    #[test]
    fn seeded_playouts_are_stable() {
        let random = random_playout(&Board::start(), &mut Pcg64Mcg::seed_from_u64(0));
        assert_eq!(
            random.to_string(),
            "XXXOOOOOXXXOOOOOXXXOOOXOXXXOOXOOXOXXXXOOXOOXOOXOXXXOXXXOOOXXXXOO X"
        );
        let corner_first =
            CornerFirstPlayout::default().playout(&Board::start(), &mut Pcg64Mcg::seed_from_u64(0));
        assert_eq!(
            corner_first.to_string(),
            "XXXXXXXXOOOOOOOXOOXXXOOXXXOOXOOXXXXOXXOXOXXOXOOOOXXXOOOOOXXXXXXO X"
        );
    }

    #[test]
    fn risky_x_squares_follow_their_corners() {
        assert_eq!(risky_x_squares(0), X_SQUARES);
        assert_eq!(risky_x_squares(CORNERS), 0);
        assert_eq!(
            risky_x_squares(Square::A1.bit()),
            X_SQUARES & !Square::B2.bit()
        );
        assert_eq!(
            risky_x_squares(Square::H8.bit()),
            X_SQUARES & !Square::G7.bit()
        );
    }

    fn board(rows: [&str; 8], side: &str) -> Board {
        format!("{} {side}", rows.concat()).parse().unwrap()
    }

    fn choices(policy: &mut CornerFirstPlayout, board: &Board, seed: u64) -> Vec<Move> {
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        (0..200)
            .map(|_| policy.choose(board, &moves, &mut rng))
            .collect()
    }

    #[test]
    fn corner_first_takes_corners_as_often_as_asked() {
        let empty = "--------";
        // Black can take a1 (flipping b1, c1) or play c5.
        let with_corner = board(
            [
                "-OOX----", empty, empty, empty, "XO------", empty, empty, empty,
            ],
            "X",
        );
        let a1 = Move::Place(Square::A1);
        let picks = choices(&mut CornerFirstPlayout::new(1.0), &with_corner, 3);
        assert!(picks.iter().all(|&mv| mv == a1));
        let picks = choices(&mut CornerFirstPlayout::default(), &with_corner, 3);
        let corners = picks.iter().filter(|&&mv| mv == a1).count();
        // 0.7 + 0.3 / 2 = 0.85 expected.
        assert!((150..=190).contains(&corners), "{corners} corners in 200");
        let picks = choices(&mut CornerFirstPlayout::new(0.0), &with_corner, 3);
        let corners = picks.iter().filter(|&&mv| mv == a1).count();
        assert!((70..=130).contains(&corners), "{corners} corners in 200");
    }

    #[test]
    fn corner_first_avoids_x_squares_next_to_empty_corners() {
        let empty = "--------";
        // Black can play b2 (flipping c2) or c5.
        let with_x = board(
            [
                empty, "--OX----", empty, empty, "XO------", empty, empty, empty,
            ],
            "X",
        );
        let picks = choices(&mut CornerFirstPlayout::default(), &with_x, 5);
        assert!(
            picks.iter().all(|&mv| mv == Move::Place(Square::C5)),
            "{picks:?}"
        );
        // Only b2: it must be played.
        let only_x = board(
            [empty, "--OX----", empty, empty, empty, empty, empty, empty],
            "X",
        );
        let picks = choices(&mut CornerFirstPlayout::default(), &only_x, 5);
        assert!(picks.iter().all(|&mv| mv == Move::Place(Square::B2)));
        let full =
            CornerFirstPlayout::default().playout(&Board::start(), &mut Pcg64Mcg::seed_from_u64(9));
        assert!(full.is_game_over());
    }
}
