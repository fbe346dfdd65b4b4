//! Move generation and flips on raw bitboards, branch-free.
//!
//! Bit `i` is square `i = 8 * row + col` (`a1` = 0, `h1` = 7, `h8` = 63).
//! Shifting left by 1 moves one file right, by 8 one rank down, by 9 down
//! and right, by 7 down and left. Every function takes the bitboards of the
//! player to move (`player`) and of the opponent (`opponent`).

/// All squares but files `a` and `h`: masks horizontal and diagonal
/// shifts so that runs never wrap from one rank to the next.
const NOT_EDGE_FILES: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The empty squares where `player` may move: each flanks, in some
/// direction, a run of opponent discs ended by a player disc.
///
/// Runs of at most six opponent discs are found with a parallel prefix in
/// each direction (one step, one step, then two doubling steps), so the
/// cost does not depend on the position.
#[inline]
#[must_use]
pub fn mobility(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let inner = opponent & NOT_EDGE_FILES;
    let moves = runs_both_ways(player, inner, 1)
        | runs_both_ways(player, opponent, 8)
        | runs_both_ways(player, inner, 7)
        | runs_both_ways(player, inner, 9);
    moves & empty
}

/// The squares just past every run of `through` discs that starts next to
/// a `from` disc, along the line of `shift`, in both directions.
#[inline(always)]
fn runs_both_ways(from: u64, through: u64, shift: u32) -> u64 {
    let pairs_up = through & (through << shift);
    let pairs_down = through & (through >> shift);
    let mut up = through & (from << shift);
    let mut down = through & (from >> shift);
    up |= through & (up << shift);
    down |= through & (down >> shift);
    up |= pairs_up & (up << (2 * shift));
    down |= pairs_down & (down >> (2 * shift));
    up |= pairs_up & (up << (2 * shift));
    down |= pairs_down & (down >> (2 * shift));
    (up << shift) | (down >> shift)
}

/// The direction steps (square index deltas) of the four lines through a
/// square, each taken forwards (increasing index) and backwards.
const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// For each square and each of the four lines through it, the squares
/// strictly beyond it in the increasing-index direction (`[.., 0..4]`) and
/// in the decreasing-index direction (`[.., 4..8]`).
const RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut square = 0;
    while square < 64 {
        let col = (square % 8) as i32;
        let row = (square / 8) as i32;
        let mut line = 0;
        while line < 4 {
            let (dc, dr) = STEPS[line];
            let mut sign = 0;
            while sign < 2 {
                let (dc, dr) = if sign == 0 { (dc, dr) } else { (-dc, -dr) };
                let mut c = col + dc;
                let mut r = row + dr;
                let mut ray = 0u64;
                while c >= 0 && c < 8 && r >= 0 && r < 8 {
                    ray |= 1u64 << (r * 8 + c);
                    c += dc;
                    r += dr;
                }
                rays[square][line + 4 * sign] = ray;
                sign += 1;
            }
            line += 1;
        }
        square += 1;
    }
    rays
}

/// The opponent discs that a move by `player` on `square` turns over (empty
/// if the move is not legal). `square` must be empty; a `square` of 64 or
/// more flips nothing.
///
/// In each of the eight directions, the first square that is not an
/// opponent disc is found by a bit scan over the ray from `square`; if it
/// holds a player disc, the squares before it flip. No loop over squares:
/// each square has its own copy of the code (dispatched by a jump table),
/// with its rays as constants and the directions too short to flip
/// anything left out, as Edax does with one function per square.
#[inline]
#[must_use]
pub fn flips(square: usize, player: u64, opponent: u64) -> u64 {
    match square {
        0 => flips_from::<0>(player, opponent),
        1 => flips_from::<1>(player, opponent),
        2 => flips_from::<2>(player, opponent),
        3 => flips_from::<3>(player, opponent),
        4 => flips_from::<4>(player, opponent),
        5 => flips_from::<5>(player, opponent),
        6 => flips_from::<6>(player, opponent),
        7 => flips_from::<7>(player, opponent),
        8 => flips_from::<8>(player, opponent),
        9 => flips_from::<9>(player, opponent),
        10 => flips_from::<10>(player, opponent),
        11 => flips_from::<11>(player, opponent),
        12 => flips_from::<12>(player, opponent),
        13 => flips_from::<13>(player, opponent),
        14 => flips_from::<14>(player, opponent),
        15 => flips_from::<15>(player, opponent),
        16 => flips_from::<16>(player, opponent),
        17 => flips_from::<17>(player, opponent),
        18 => flips_from::<18>(player, opponent),
        19 => flips_from::<19>(player, opponent),
        20 => flips_from::<20>(player, opponent),
        21 => flips_from::<21>(player, opponent),
        22 => flips_from::<22>(player, opponent),
        23 => flips_from::<23>(player, opponent),
        24 => flips_from::<24>(player, opponent),
        25 => flips_from::<25>(player, opponent),
        26 => flips_from::<26>(player, opponent),
        27 => flips_from::<27>(player, opponent),
        28 => flips_from::<28>(player, opponent),
        29 => flips_from::<29>(player, opponent),
        30 => flips_from::<30>(player, opponent),
        31 => flips_from::<31>(player, opponent),
        32 => flips_from::<32>(player, opponent),
        33 => flips_from::<33>(player, opponent),
        34 => flips_from::<34>(player, opponent),
        35 => flips_from::<35>(player, opponent),
        36 => flips_from::<36>(player, opponent),
        37 => flips_from::<37>(player, opponent),
        38 => flips_from::<38>(player, opponent),
        39 => flips_from::<39>(player, opponent),
        40 => flips_from::<40>(player, opponent),
        41 => flips_from::<41>(player, opponent),
        42 => flips_from::<42>(player, opponent),
        43 => flips_from::<43>(player, opponent),
        44 => flips_from::<44>(player, opponent),
        45 => flips_from::<45>(player, opponent),
        46 => flips_from::<46>(player, opponent),
        47 => flips_from::<47>(player, opponent),
        48 => flips_from::<48>(player, opponent),
        49 => flips_from::<49>(player, opponent),
        50 => flips_from::<50>(player, opponent),
        51 => flips_from::<51>(player, opponent),
        52 => flips_from::<52>(player, opponent),
        53 => flips_from::<53>(player, opponent),
        54 => flips_from::<54>(player, opponent),
        55 => flips_from::<55>(player, opponent),
        56 => flips_from::<56>(player, opponent),
        57 => flips_from::<57>(player, opponent),
        58 => flips_from::<58>(player, opponent),
        59 => flips_from::<59>(player, opponent),
        60 => flips_from::<60>(player, opponent),
        61 => flips_from::<61>(player, opponent),
        62 => flips_from::<62>(player, opponent),
        63 => flips_from::<63>(player, opponent),
        _ => 0,
    }
}

/// [`flips`] for the square `SQUARE`.
#[inline(always)]
fn flips_from<const SQUARE: usize>(player: u64, opponent: u64) -> u64 {
    let rays: [u64; 8] = const { RAYS[SQUARE] };
    let mut flipped = 0;
    // Increasing-index directions: the nearest non-opponent square is the
    // lowest set bit.
    for &ray in &rays[..4] {
        // A ray of one square cannot hold a disc to flip and an outflanking
        // disc; this test folds away at compile time.
        if ray.count_ones() >= 2 {
            let stoppers = ray & !opponent;
            let first = stoppers & stoppers.wrapping_neg();
            let outflank = first & player;
            flipped |= outflank.wrapping_sub(u64::from(outflank != 0)) & ray;
        }
    }
    // Decreasing-index directions: the nearest non-opponent square is the
    // highest set bit. `| 1` keeps the scan defined when the whole ray is
    // opponent discs; the `& ray` below then rejects the stand-in bit.
    for &ray in &rays[4..] {
        if ray.count_ones() >= 2 {
            let stoppers = ray & !opponent;
            let first = (1u64 << 63) >> (stoppers | 1).leading_zeros();
            let outflank = first & player & ray;
            let beyond_first = first.wrapping_neg() << 1;
            flipped |= beyond_first & ray & 0u64.wrapping_sub(u64::from(outflank != 0));
        }
    }
    flipped
}

/// Iterates over the set bits of a bitboard, lowest first, as square
/// indices.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bits(pub(crate) u64);

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let index = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(index)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.0.count_ones() as usize;
        (count, Some(count))
    }
}

impl ExactSizeIterator for Bits {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain, per-square reference: walk each of the eight directions.
    fn slow_flips(square: usize, player: u64, opponent: u64) -> u64 {
        let mut flipped = 0;
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ] {
            let (mut c, mut r) = ((square % 8) as i32 + dc, (square / 8) as i32 + dr);
            let mut run = 0;
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        flipped |= run;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        flipped
    }

    fn slow_mobility(player: u64, opponent: u64) -> u64 {
        (0..64)
            .filter(|&sq| {
                (player | opponent) & (1 << sq) == 0 && slow_flips(sq, player, opponent) != 0
            })
            .fold(0, |moves, sq| moves | 1 << sq)
    }

    #[test]
    fn agrees_with_the_slow_reference_on_random_boards() {
        let mut state = 0x1234_5678_9ABC_DEF0u64;
        let mut next = || {
            state = game_traits::zobrist::mix64(state);
            state
        };
        for _ in 0..20_000 {
            let occupied = next() | next();
            let player = occupied & next();
            let opponent = occupied & !player;
            assert_eq!(mobility(player, opponent), slow_mobility(player, opponent));
            for square in Bits(!occupied) {
                assert_eq!(
                    flips(square, player, opponent),
                    slow_flips(square, player, opponent),
                    "square {square} player {player:#x} opponent {opponent:#x}"
                );
            }
        }
    }

    #[test]
    fn start_position_moves() {
        // d5, e4 black (to move); d4, e5 white.
        let black = (1 << 35) | (1 << 28);
        let white = (1 << 27) | (1 << 36);
        let moves = mobility(black, white);
        // d3 = 19, c4 = 26, f5 = 37, e6 = 44.
        assert_eq!(moves, (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44));
        assert_eq!(flips(19, black, white), 1 << 27);
    }
}
