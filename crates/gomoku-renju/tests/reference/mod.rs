//! A slow reference for the rules, written from the definitions: it scans
//! whole lines of the board, with no pattern tables, windows or caches.

#![allow(dead_code)]

use game_traits::{Game, Player};
use gomoku_renju::{Direction, Gomoku, Move, Rule, Shape};

/// The cells of the line through `mv` in `direction`, and `mv`'s place
/// among them.
pub(crate) fn line(game: &Gomoku, mv: Move, direction: Direction) -> (Vec<Option<Player>>, usize) {
    let size = game.size() as i32;
    let (dx, dy) = direction.step();
    let (mut x, mut y) = (i32::from(mv.x()), i32::from(mv.y()));
    while x - dx >= 0 && x - dx < size && y - dy >= 0 && y - dy < size {
        x -= dx;
        y -= dy;
    }
    let mut cells = Vec::new();
    let mut position = 0;
    while x >= 0 && x < size && y >= 0 && y < size {
        let cell = Move::new(x as u8, y as u8);
        if cell == mv {
            position = cells.len();
        }
        cells.push(game.stone(cell));
        x += dx;
        y += dy;
    }
    (cells, position)
}

fn run_through(cells: &[Option<Player>], position: usize, player: Player) -> usize {
    let mut left = position;
    while left > 0 && cells[left - 1] == Some(player) {
        left -= 1;
    }
    let mut right = position;
    while right + 1 < cells.len() && cells[right + 1] == Some(player) {
        right += 1;
    }
    right - left + 1
}

fn is_five(run: usize, exact: bool) -> bool {
    if exact { run == 5 } else { run >= 5 }
}

/// The shape `player` makes at `position` (already holding the player's
/// stone) by the definitions of `Shape`.
fn classify(cells: &mut [Option<Player>], position: usize, player: Player, exact: bool) -> Shape {
    let run = run_through(cells, position, player);
    if is_five(run, exact) {
        return Shape::Five;
    }
    if exact && run > 5 {
        return Shape::Overline;
    }
    // Only cells within four of the stone can share a five with it.
    let near: Vec<usize> = (position.saturating_sub(4)..=(position + 4).min(cells.len() - 1))
        .filter(|&q| cells[q].is_none())
        .collect();
    let mut five_points = Vec::new();
    for &q in &near {
        cells[q] = Some(player);
        if is_five(run_through(cells, position, player), exact) {
            five_points.push(q);
        }
        cells[q] = None;
    }
    let straight = five_points
        .iter()
        .filter(|&&a| five_points.contains(&(a + 5)))
        .count();
    let fours = five_points.len() - straight;
    if fours >= 2 {
        return Shape::DoubleFour;
    }
    if straight > 0 {
        return Shape::OpenFour;
    }
    if fours == 1 {
        return Shape::Four;
    }
    let (mut solid, mut broken, mut closed, mut open_two, mut two) =
        (false, false, false, false, false);
    for &q in &near {
        cells[q] = Some(player);
        let next = classify(cells, position, player, exact);
        cells[q] = None;
        let own = |p: Option<usize>| p.is_some_and(|p| p < cells.len() && cells[p] == Some(player));
        match next {
            Shape::OpenFour => {
                if own(q.checked_sub(1)) && own(Some(q + 1)) {
                    broken = true;
                } else {
                    solid = true;
                }
            }
            Shape::Four | Shape::DoubleFour => closed = true,
            Shape::OpenThree | Shape::BrokenThree => open_two = true,
            Shape::Three => two = true,
            _ => {}
        }
    }
    if solid {
        Shape::OpenThree
    } else if broken {
        Shape::BrokenThree
    } else if closed {
        Shape::Three
    } else if open_two {
        Shape::OpenTwo
    } else if two {
        Shape::Two
    } else {
        Shape::None
    }
}

/// The shape `player` makes on the empty cell `mv` in `direction`.
pub(crate) fn shape(game: &Gomoku, player: Player, mv: Move, direction: Direction) -> Shape {
    let (mut cells, position) = line(game, mv, direction);
    assert!(cells[position].is_none(), "{mv} is occupied");
    cells[position] = Some(player);
    classify(
        &mut cells,
        position,
        player,
        !game.rule().overline_wins(player),
    )
}

/// `game` with a stone of `player` on `mv`, same player to move.
pub(crate) fn with_stone(game: &Gomoku, player: Player, mv: Move) -> Gomoku {
    let mut black: Vec<Move> = game.stones(Player::First).iter().collect();
    let mut white: Vec<Move> = game.stones(Player::Second).iter().collect();
    match player {
        Player::First => black.push(mv),
        Player::Second => white.push(mv),
    }
    // A five may appear: build without checking the result.
    Gomoku::from_stones(game.size(), game.rule(), &black, &white, game.to_move())
        .unwrap_or_else(|_| panic!("{mv} on {game:?}"))
}

/// Whether a Black stone on the empty cell `mv` is forbidden under renju,
/// by the RIF definitions, recursively.
pub(crate) fn forbidden(game: &Gomoku, mv: Move) -> bool {
    assert_eq!(game.rule(), Rule::Renju);
    let black = Player::First;
    let shapes = Direction::ALL.map(|direction| shape(game, black, mv, direction));
    if shapes.contains(&Shape::Five) {
        return false;
    }
    if shapes.contains(&Shape::Overline) {
        return true;
    }
    if shapes.iter().map(|shape| shape.fours()).sum::<u32>() >= 2 {
        return true;
    }
    let three_directions: Vec<Direction> = Direction::ALL
        .into_iter()
        .zip(shapes)
        .filter(|(_, shape)| shape.is_open_three())
        .map(|(direction, _)| direction)
        .collect();
    if three_directions.len() < 2 {
        return false;
    }
    let placed = with_stone(game, black, mv);
    let mut real = 0;
    for direction in three_directions {
        let (mut cells, position) = line(&placed, mv, direction);
        let (dx, dy) = direction.step();
        let mut is_real = false;
        for q in position.saturating_sub(4)..=(position + 4).min(cells.len() - 1) {
            if cells[q].is_some() {
                continue;
            }
            cells[q] = Some(black);
            let makes_straight_four = classify_at(&mut cells, position) == Shape::OpenFour;
            cells[q] = None;
            if makes_straight_four {
                let offset = q as i32 - position as i32;
                let target = Move::new(
                    (i32::from(mv.x()) + offset * dx) as u8,
                    (i32::from(mv.y()) + offset * dy) as u8,
                );
                if !forbidden(&placed, target) {
                    is_real = true;
                    break;
                }
            }
        }
        if is_real {
            real += 1;
        }
    }
    real >= 2
}

/// Black's shape at an occupied `position` (exact five).
fn classify_at(cells: &mut [Option<Player>], position: usize) -> Shape {
    classify(cells, position, Player::First, true)
}

/// Whether `player` has a five on the board (as the rule counts it).
pub(crate) fn has_five(game: &Gomoku, player: Player) -> bool {
    let exact = !game.rule().overline_wins(player);
    let size = game.size() as u8;
    for x in 0..size {
        for y in 0..size {
            let mv = Move::new(x, y);
            if game.stone(mv) != Some(player) {
                continue;
            }
            for direction in Direction::ALL {
                let (cells, position) = line(game, mv, direction);
                let run = run_through(&cells, position, player);
                if is_five(run, exact) {
                    return true;
                }
            }
        }
    }
    false
}
