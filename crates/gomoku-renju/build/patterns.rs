//! The line-pattern tables, generated at build time (and compiled into the
//! unit tests, which check them against a direct analysis).
//!
//! A table maps the contents of the `2 * half` cells around an empty cell
//! on one line (`half` on each side) to the shape the player makes on that
//! line by playing the cell. Each neighbour is a base-3 digit: 0 empty,
//! 1 the player's own stone, 2 blocked (an opponent stone or off the
//! board). Digits `0..half` are the cells `-half..-1` (nearest last),
//! digits `half..2 * half` the cells `1..=half`.

/// Shape codes; `crate::Shape` has the same discriminants.
pub(crate) const NONE: u8 = 0;
pub(crate) const TWO: u8 = 1;
pub(crate) const OPEN_TWO: u8 = 2;
pub(crate) const THREE: u8 = 3;
pub(crate) const BROKEN_THREE: u8 = 4;
pub(crate) const OPEN_THREE: u8 = 5;
pub(crate) const FOUR: u8 = 6;
pub(crate) const OPEN_FOUR: u8 = 7;
pub(crate) const DOUBLE_FOUR: u8 = 8;
pub(crate) const FIVE: u8 = 9;
pub(crate) const OVERLINE: u8 = 10;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Own,
    Blocked,
}

/// The length of the run of own stones through `centre`.
fn run_through(cells: &[Cell], centre: usize) -> usize {
    let mut left = centre;
    while left > 0 && cells[left - 1] == Cell::Own {
        left -= 1;
    }
    let mut right = centre;
    while right + 1 < cells.len() && cells[right + 1] == Cell::Own {
        right += 1;
    }
    right - left + 1
}

fn is_five(run: usize, exact: bool) -> bool {
    if exact { run == 5 } else { run >= 5 }
}

/// The table for windows of `half` cells each side; `exact`: only exactly
/// five in a row wins (an overline does not).
pub(crate) fn generate(half: usize, exact: bool) -> Vec<u8> {
    let digits = 2 * half;
    let count = 3usize.pow(digits as u32);
    let power: Vec<usize> = (0..digits).map(|digit| 3usize.pow(digit as u32)).collect();
    // The digit of each line position (`None` for the centre).
    let digit_of = |position: usize| -> Option<usize> {
        match position.cmp(&half) {
            std::cmp::Ordering::Less => Some(position),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(position - 1),
        }
    };
    let mut table = vec![NONE; count];
    // Adding a stone raises the index, so going down from the top, every
    // table entry a classification looks up is already known.
    for index in (0..count).rev() {
        let mut cells = vec![Cell::Empty; digits + 1];
        let mut rest = index;
        for digit in 0..digits {
            let position = if digit < half { digit } else { digit + 1 };
            cells[position] = match rest % 3 {
                0 => Cell::Empty,
                1 => Cell::Own,
                _ => Cell::Blocked,
            };
            rest /= 3;
        }
        cells[half] = Cell::Own;
        let run = run_through(&cells, half);
        let shape = if is_five(run, exact) {
            FIVE
        } else if exact && run > 5 {
            OVERLINE
        } else {
            // Five points: empty cells that complete a five through the
            // centre.
            let mut five_points = Vec::new();
            for position in 0..=digits {
                if cells[position] == Cell::Empty {
                    cells[position] = Cell::Own;
                    if is_five(run_through(&cells, half), exact) {
                        five_points.push(position);
                    }
                    cells[position] = Cell::Empty;
                }
            }
            // Two five points five apart share their four stones (a
            // straight four); any others are separate fours.
            let straight = five_points
                .iter()
                .filter(|&&a| five_points.contains(&(a + 5)))
                .count();
            let fours = five_points.len() - straight;
            if fours >= 2 {
                DOUBLE_FOUR
            } else if straight > 0 {
                OPEN_FOUR
            } else if fours == 1 {
                FOUR
            } else {
                let (mut solid, mut broken, mut closed, mut open_two, mut two) =
                    (false, false, false, false, false);
                for position in 0..=digits {
                    let Some(digit) = digit_of(position) else {
                        continue;
                    };
                    if cells[position] != Cell::Empty {
                        continue;
                    }
                    let own = |p: usize| p <= digits && cells[p] == Cell::Own;
                    match table[index + power[digit]] {
                        OPEN_FOUR => {
                            // The straight four's gap was inside the three.
                            if position > 0 && own(position - 1) && own(position + 1) {
                                broken = true;
                            } else {
                                solid = true;
                            }
                        }
                        FOUR | DOUBLE_FOUR => closed = true,
                        OPEN_THREE | BROKEN_THREE => open_two = true,
                        THREE => two = true,
                        _ => {}
                    }
                }
                if solid {
                    OPEN_THREE
                } else if broken {
                    BROKEN_THREE
                } else if closed {
                    THREE
                } else if open_two {
                    OPEN_TWO
                } else if two {
                    TWO
                } else {
                    NONE
                }
            }
        };
        table[index] = shape;
    }
    table
}
