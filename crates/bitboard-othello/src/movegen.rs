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
/// cost does not depend on the position. Always inlined, so that it runs
/// with the instructions of the loop that calls it.
#[inline(always)]
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

/// [`mobility`] with AVX2: the four lines run side by side in the four
/// 64-bit lanes of one vector (shifts 1, 8, 7 and 9), the same parallel
/// prefix as the scalar code, then the lanes are joined. About a third of
/// the scalar instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[must_use]
pub(crate) fn mobility_avx2(player: u64, opponent: u64) -> u64 {
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_and_si256,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_or_si256, _mm256_set_epi64x,
        _mm256_set1_epi64x, _mm256_sllv_epi64, _mm256_srlv_epi64,
    };
    let inner = (opponent & NOT_EDGE_FILES) as i64;
    let from = _mm256_set1_epi64x(player as i64);
    // Lanes, lowest first: horizontal (1), vertical (8), the two diagonals
    // (7 and 9); only the vertical may run through the edge files.
    let through: __m256i = _mm256_set_epi64x(inner, inner, opponent as i64, inner);
    let step = _mm256_set_epi64x(9, 7, 8, 1);
    let double_step = _mm256_set_epi64x(18, 14, 16, 2);
    let and = |a, b| _mm256_and_si256(a, b);
    let or = |a, b| _mm256_or_si256(a, b);
    let pairs_up = and(through, _mm256_sllv_epi64(through, step));
    let pairs_down = and(through, _mm256_srlv_epi64(through, step));
    let mut up = and(through, _mm256_sllv_epi64(from, step));
    let mut down = and(through, _mm256_srlv_epi64(from, step));
    up = or(up, and(through, _mm256_sllv_epi64(up, step)));
    down = or(down, and(through, _mm256_srlv_epi64(down, step)));
    up = or(up, and(pairs_up, _mm256_sllv_epi64(up, double_step)));
    down = or(down, and(pairs_down, _mm256_srlv_epi64(down, double_step)));
    up = or(up, and(pairs_up, _mm256_sllv_epi64(up, double_step)));
    down = or(down, and(pairs_down, _mm256_srlv_epi64(down, double_step)));
    let lanes = or(_mm256_sllv_epi64(up, step), _mm256_srlv_epi64(down, step));
    let halves = _mm_or_si128(
        _mm256_castsi256_si128(lanes),
        _mm256_extracti128_si256::<1>(lanes),
    );
    let joined = _mm_or_si128(halves, _mm_unpackhi_epi64(halves, halves));
    _mm_cvtsi128_si64(joined) as u64 & !(player | opponent)
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
    flips_inline(square, player, opponent)
}

/// [`flips`], always inlined: the hot loops keep one copy of it per
/// instruction set (see `crate::dispatch`).
#[inline(always)]
pub(crate) fn flips_inline(square: usize, player: u64, opponent: u64) -> u64 {
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

/// The number of discs a move on `square` by the player with discs
/// `player` flips when every other square is occupied (the last move of a
/// game): the opponent holds every square that is neither `square` nor
/// the player's.
///
/// Each of the four lines through the square is read as one byte (the
/// player's discs on it) and looked up in [`LINE_FLIPS`]; squares beyond
/// the board's edge on a short diagonal read as opponent discs, which
/// never end a run, so they flip nothing.
#[inline(always)]
pub(crate) fn count_last_flips(square: usize, player: u64) -> u32 {
    let (row, col) = (square / 8, square % 8);
    let rank = (player >> (8 * row)) as u8;
    let file = (((player >> col) & FILE_A).wrapping_mul(FILE_TO_RANK) >> 56) as u8;
    let diagonal = ((player & DIAGONALS[square]).wrapping_mul(FILE_A) >> 56) as u8;
    let anti = ((player & ANTI_DIAGONALS[square]).wrapping_mul(FILE_A) >> 56) as u8;
    u32::from(LINE_FLIPS[col][rank as usize])
        + u32::from(LINE_FLIPS[row][file as usize])
        + u32::from(LINE_FLIPS[col][diagonal as usize])
        + u32::from(LINE_FLIPS[col][anti as usize])
}

/// File a.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Gathers file a into the top byte, rank `k` to bit `k`.
const FILE_TO_RANK: u64 = 0x0102_0408_1020_4080;

/// For a move at `position` on a line of eight squares where the bits of
/// `pattern` are the mover's discs and every other square but `position`
/// holds an opponent disc: how many discs it flips.
static LINE_FLIPS: [[u8; 256]; 8] = build_line_flips();

const fn build_line_flips() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut position = 0;
    while position < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            let mut count = 0;
            // Towards higher positions, then towards lower ones.
            let mut run = 0;
            let mut at = position + 1;
            while at < 8 {
                if pattern & (1 << at) != 0 {
                    count += run;
                    break;
                }
                run += 1;
                at += 1;
            }
            run = 0;
            let mut at = position as i32 - 1;
            while at >= 0 {
                if pattern & (1 << at) != 0 {
                    count += run;
                    break;
                }
                run += 1;
                at -= 1;
            }
            table[position][pattern] = count as u8;
            pattern += 1;
        }
        position += 1;
    }
    table
}

/// The diagonal (`a1`-`h8` way) through each square.
static DIAGONALS: [u64; 64] = build_line_masks(1);

/// The anti-diagonal (`h1`-`a8` way) through each square.
static ANTI_DIAGONALS: [u64; 64] = build_line_masks(-1);

/// The squares on the line through each square that steps one rank up and
/// `col_step` files sideways.
const fn build_line_masks(col_step: i32) -> [u64; 64] {
    let mut masks = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = ((square / 8) as i32, (square % 8) as i32);
        let mut mask = 0u64;
        let mut step = -7;
        while step <= 7 {
            let (r, c) = (row + step, col + step * col_step);
            if r >= 0 && r < 8 && c >= 0 && c < 8 {
                mask |= 1 << (r * 8 + c);
            }
            step += 1;
        }
        masks[square] = mask;
        square += 1;
    }
    masks
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
    fn last_flip_counts_agree_with_flips_on_full_boards() {
        let mut state = 0x0F1E_2D3C_4B5A_6978u64;
        for _ in 0..20_000 {
            state = game_traits::zobrist::mix64(state);
            let square = (state >> 58) as usize;
            let bit = 1u64 << square;
            let player = game_traits::zobrist::mix64(state ^ 1) & !bit;
            let opponent = !player & !bit;
            assert_eq!(
                count_last_flips(square, player),
                flips(square, player, opponent).count_ones(),
                "square {square} player {player:#x}"
            );
            assert_eq!(
                count_last_flips(square, opponent),
                flips(square, opponent, player).count_ones(),
                "square {square} opponent {opponent:#x}"
            );
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
