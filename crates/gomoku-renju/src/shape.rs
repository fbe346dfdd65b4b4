//! Line shapes, the four line directions, and the pattern tables that
//! classify a cell's neighbourhood on one line.

use std::fmt;

/// The shape a player makes on one line by placing a stone on an empty
/// cell, from the stones within five cells on that line (four under
/// freestyle, where overlines do not matter).
///
/// Shapes are ordered by strength, `None` lowest; [`Shape::Overline`] comes
/// last but is no threat: it only exists where overlines do not win.
///
/// The definitions follow the renju terms (International Rules of Renju,
/// RIF 1996, section 3), with a five as the rule in force counts it:
///
/// * **five**: five in a row (exactly five where overlines do not win);
/// * **four**: four stones to which one more stone makes a five; a
///   **straight four** (here [`OpenFour`](Shape::OpenFour)) can be
///   completed in two ways; **two fours** on one line through the stone
///   (`X.XXX.X` with the stone in the middle) are a
///   [`DoubleFour`](Shape::DoubleFour);
/// * **three**: three stones to which one more stone (not making a five)
///   makes a straight four. [`OpenThree`](Shape::OpenThree) can do it by
///   extending the row (`.XXX.`), [`BrokenThree`](Shape::BrokenThree) only
///   by filling its gap (`.X.XX.`). A [`Three`](Shape::Three) can only
///   become a four that is not straight (a "closed" three);
/// * **two**: a move away from a three ([`OpenTwo`](Shape::OpenTwo): from an
///   open or broken three; [`Two`](Shape::Two): from a closed three).
///
/// The renju rule that a three counts only if its straight four can be made
/// by a move that is not forbidden is *not* part of the shape: the shape
/// comes from one line alone, and [`Gomoku::is_forbidden`](crate::Gomoku::is_forbidden)
/// applies the rule on the whole board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Shape {
    /// Nothing that can grow into a five on this line.
    None = 0,
    /// A two that can become a closed three.
    Two = 1,
    /// A two that can become an open or broken three.
    OpenTwo = 2,
    /// A closed three: it can become a four, not a straight four.
    Three = 3,
    /// A three with a gap that becomes a straight four only by filling it.
    BrokenThree = 4,
    /// A three that becomes a straight four by extending the row.
    OpenThree = 5,
    /// A four with one way to complete it.
    Four = 6,
    /// A straight four: two ways to complete the same four stones.
    OpenFour = 7,
    /// Two different fours on one line through the stone.
    DoubleFour = 8,
    /// A five: the move wins.
    Five = 9,
    /// Six or more in a row where that does not win.
    Overline = 10,
}

impl Shape {
    /// Every shape, weakest first.
    pub const ALL: [Shape; 11] = [
        Shape::None,
        Shape::Two,
        Shape::OpenTwo,
        Shape::Three,
        Shape::BrokenThree,
        Shape::OpenThree,
        Shape::Four,
        Shape::OpenFour,
        Shape::DoubleFour,
        Shape::Five,
        Shape::Overline,
    ];

    #[inline]
    pub(crate) const fn from_code(code: u8) -> Shape {
        match code {
            1 => Shape::Two,
            2 => Shape::OpenTwo,
            3 => Shape::Three,
            4 => Shape::BrokenThree,
            5 => Shape::OpenThree,
            6 => Shape::Four,
            7 => Shape::OpenFour,
            8 => Shape::DoubleFour,
            9 => Shape::Five,
            10 => Shape::Overline,
            _ => Shape::None,
        }
    }

    /// The number of fours this shape makes: 1 for a four or a straight
    /// four, 2 for two fours on the line, 0 otherwise.
    #[inline]
    #[must_use]
    pub const fn fours(self) -> u32 {
        match self {
            Shape::Four | Shape::OpenFour => 1,
            Shape::DoubleFour => 2,
            _ => 0,
        }
    }

    /// Whether this is an open or broken three (one move from a straight
    /// four).
    #[inline]
    #[must_use]
    pub const fn is_open_three(self) -> bool {
        matches!(self, Shape::OpenThree | Shape::BrokenThree)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Shape::None => "none",
            Shape::Two => "two",
            Shape::OpenTwo => "open two",
            Shape::Three => "three",
            Shape::BrokenThree => "broken three",
            Shape::OpenThree => "open three",
            Shape::Four => "four",
            Shape::OpenFour => "open four",
            Shape::DoubleFour => "double four",
            Shape::Five => "five",
            Shape::Overline => "overline",
        })
    }
}

/// One of the four line directions through a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Direction {
    /// Along a row (`a8`, `b8`, `c8`, ...).
    Horizontal = 0,
    /// Along a column (`h1`, `h2`, `h3`, ...).
    Vertical = 1,
    /// Up and to the right (`a1`, `b2`, `c3`, ...).
    Diagonal = 2,
    /// Down and to the right (`a3`, `b2`, `c1`, ...).
    AntiDiagonal = 3,
}

impl Direction {
    /// The four directions.
    pub const ALL: [Direction; 4] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ];

    /// The step `(dx, dy)` along the line (`y` grows upwards).
    #[inline]
    #[must_use]
    pub const fn step(self) -> (i32, i32) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }

    /// `0..4`, for per-direction arrays.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// `3^i` for each set bit `i` of a neighbour mask: the base-3 value of a
/// window whose set cells have digit 1.
pub(crate) static BASE3: [u16; 1024] = {
    let mut table = [0u16; 1024];
    let mut mask = 0;
    while mask < 1024 {
        let mut value = 0u32;
        let mut power = 1u32;
        let mut bit = 0;
        while bit < 10 {
            if mask & (1 << bit) != 0 {
                value += power;
            }
            power *= 3;
            bit += 1;
        }
        table[mask] = value as u16;
        mask += 1;
    }
    table
};

/// Shapes for windows of 4 cells each side, where five or more wins
/// (6,561 entries, padded to 65,536 so that a `u16` index needs no bounds
/// check).
pub(crate) static AT_LEAST_4: &[u8; 65536] =
    include_bytes!(concat!(env!("OUT_DIR"), "/at_least_4.bin"));

/// Shapes for windows of 5 cells each side, where only exactly five wins
/// (59,049 entries, padded like [`AT_LEAST_4`]).
pub(crate) static EXACT_5: &[u8; 65536] = include_bytes!(concat!(env!("OUT_DIR"), "/exact_5.bin"));

/// How one player's fives are counted, which fixes the pattern window and
/// table used for that player's shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum FiveKind {
    /// Five or more in a row wins.
    AtLeast,
    /// Exactly five wins; an overline does not.
    Exact,
}

impl FiveKind {
    /// Cells examined on each side of a cell.
    #[inline]
    pub(crate) const fn half(self) -> usize {
        match self {
            FiveKind::AtLeast => 4,
            FiveKind::Exact => 5,
        }
    }

    #[inline]
    pub(crate) fn table(self) -> &'static [u8; 65536] {
        match self {
            FiveKind::AtLeast => AT_LEAST_4,
            FiveKind::Exact => EXACT_5,
        }
    }
}

/// The build script's generator, compiled into the tests to check the
/// constant data and the shape codes.
#[cfg(test)]
#[path = "../build/patterns.rs"]
#[allow(dead_code)]
mod patterns;

#[cfg(test)]
mod tests {
    use super::*;

    use super::patterns;

    #[test]
    fn codes_match_the_generator() {
        let codes = [
            patterns::NONE,
            patterns::TWO,
            patterns::OPEN_TWO,
            patterns::THREE,
            patterns::BROKEN_THREE,
            patterns::OPEN_THREE,
            patterns::FOUR,
            patterns::OPEN_FOUR,
            patterns::DOUBLE_FOUR,
            patterns::FIVE,
            patterns::OVERLINE,
        ];
        for (shape, code) in Shape::ALL.into_iter().zip(codes) {
            assert_eq!(shape as u8, code);
            assert_eq!(Shape::from_code(code), shape);
        }
        assert_eq!(AT_LEAST_4[..6561], *patterns::generate(4, false));
        assert_eq!(EXACT_5[..59049], *patterns::generate(5, true));
        assert!(
            AT_LEAST_4[6561..]
                .iter()
                .chain(&EXACT_5[59049..])
                .all(|&code| code == 0)
        );
    }

    #[test]
    fn base3_weights_each_bit() {
        assert_eq!(BASE3[0], 0);
        assert_eq!(BASE3[1], 1);
        assert_eq!(BASE3[0b10], 3);
        assert_eq!(BASE3[0b101], 10);
        assert_eq!(BASE3[1023] as usize, (59049 - 1) / 2);
    }

    /// The window `left` (nearest cell last) `?` `right` (nearest first), as
    /// a table index: `x` own, `o` blocked, `.` empty.
    fn index(left: &str, right: &str) -> usize {
        let mut index = 0;
        let mut power = 1;
        for c in left.chars().chain(right.chars()) {
            index += power
                * match c {
                    'x' => 1,
                    'o' => 2,
                    _ => 0,
                };
            power *= 3;
        }
        index
    }

    #[test]
    fn hand_made_windows() {
        let exact = |l: &str, r: &str| Shape::from_code(EXACT_5[index(l, r)]);
        let free = |l: &str, r: &str| Shape::from_code(AT_LEAST_4[index(l, r)]);
        assert_eq!(free("xxxx", "...."), Shape::Five);
        assert_eq!(free(".xxx", "x..."), Shape::Five);
        assert_eq!(free("xxx.", "x..."), Shape::Four);
        assert_eq!(free(".xxx", "x..."), Shape::Five);
        assert_eq!(free("xxx.", "x..."), Shape::Four);
        assert_eq!(exact(".xxxx", "x...."), Shape::Overline);
        assert_eq!(exact(".xxxx", "....."), Shape::Five);
        assert_eq!(exact("..xxx", "....."), Shape::OpenFour);
        assert_eq!(exact("o.xxx", ".x..."), Shape::Four);
        assert_eq!(exact("...xx", "....."), Shape::OpenThree);
        assert_eq!(exact("..x.x", "....."), Shape::BrokenThree);
        assert_eq!(exact("...ox", "x...."), Shape::Three);
        assert_eq!(exact("....o", "o...."), Shape::None);
        assert_eq!(exact("....x", "xo..."), Shape::Three);
        assert_eq!(exact("..x.x", "x.x.."), Shape::DoubleFour);
        assert_eq!(exact("....x", "....."), Shape::OpenTwo);
        assert_eq!(free(".x.x", "x.x."), Shape::DoubleFour);
        assert_eq!(free("...x", "x.x."), Shape::Four);
        assert_eq!(free("o.xx", "...."), Shape::OpenThree);
        assert_eq!(free(".oxx", "...."), Shape::Three);
    }
}
