//! Threat-space search: VCF (victory by continuous fours) and VCT (by
//! threes and fours), with node, time and depth budgets.

use std::collections::HashMap;
use std::time::Instant;

use game_traits::{Game, Limits, Player};

use crate::bits::Bits;
use crate::board::line_of;
use crate::shape::Direction;
use crate::{Gomoku, Move};

/// What a threat search found for the player to move.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Solution {
    /// A forced win: the moves from this position, the attacker's first,
    /// alternating, ending with the five. Where the defender has several
    /// answers, the line follows one that resists longest.
    Win(Vec<Move>),
    /// No forced win of this kind exists at any length (the search was
    /// exhaustive).
    NoWin,
    /// None within the depth limit; longer ones were not searched.
    NotWithin {
        /// The depth limit, in plies.
        plies: u32,
    },
    /// The node or time budget ran out (or a stop was requested) first.
    Unknown,
}

impl Solution {
    /// The winning line, if one was found.
    #[must_use]
    pub fn line(&self) -> Option<&[Move]> {
        match self {
            Solution::Win(line) => Some(line),
            _ => None,
        }
    }

    /// The first move of the winning line, if one was found.
    #[must_use]
    pub fn first_move(&self) -> Option<Move> {
        self.line().and_then(|line| line.first().copied())
    }
}

/// Which threats the attacker may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Mode {
    /// Fours only.
    Vcf,
    /// Fours and threes.
    Vct,
}

/// How a subtree ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Win,
    Fail,
    Abort,
}

/// A proven failure, stored by position.
#[derive(Clone, Copy, Debug)]
struct Failed {
    /// The largest number of plies it was searched with.
    plies: u32,
    /// Whether no depth cut-off was met below: then it fails at any depth.
    exact: bool,
}

/// VCF and VCT searches for the player to move, keeping a table of proven
/// failures between the iterations of one search.
///
/// * **VCF**: every attacker move makes a four, so the defender's answer
///   is forced (take the five cell), unless the defender can complete a
///   five first, in which case the attacker must block it with a move that
///   is itself a four. A four that leaves two five cells (a straight four,
///   two fours) wins; under renju, a four whose five cell is forbidden to
///   a defending Black also wins.
/// * **VCT**: the attacker may also make an open or broken three. The
///   defender then answers with every move after which the attacker has no
///   move making a straight four or two fours (found by trying the cells
///   on the threatening lines), and with every four of their own (which
///   the attacker must block before going on). The attacker must win
///   against all of them.
///
/// Both search by iterative deepening on the length of the winning line
/// (1, 3, 5, ... plies), so the line found is a shortest one (for VCT:
/// shortest for the defence found), and both report [`Solution::NoWin`] only
/// when the search was exhaustive. `Limits` bound them: `depth` is the
/// longest line in plies (default: no limit for VCF, 15 for VCT), `nodes`
/// the positions visited (default 1,000,000), `time` and the stop flag as
/// usual (checked every 32 nodes).
///
/// A VCF proof is sound and its absence is exact. A VCT proof is sound (the
/// defence tried covers every move that stops the threat and every
/// counter-four); its absence means no win with threes and fours, not
/// that none exists.
///
/// ```
/// use game_traits::Limits;
/// use gomoku_renju::{Gomoku, Solution, ThreatSolver};
///
/// // Black: three in a row with both ends open, plus a stone below;
/// // White has stones scattered far away.
/// let game: Gomoku = "
///     .........
///     .........
///     .........
///     ...XXX...
///     .........
///     ....X....
///     .........
///     O.O.O.O..
///     O........
///     X freestyle".parse()?;
/// let mut solver = ThreatSolver::new();
/// // An open four at once: four, any answer, five.
/// let Solution::Win(line) = solver.vcf(&game, &Limits::none()) else { panic!() };
/// assert_eq!(line.len(), 3);
/// # Ok::<(), gomoku_renju::ParsePositionError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ThreatSolver {
    failed: HashMap<(u64, bool), Failed>,
    nodes: u64,
}

/// Nodes between checks of the clock and the stop flag (a node costs a
/// few microseconds, a VCT defence node up to some tens).
const CHECK_EVERY: u64 = 32;

/// The default node budget.
const DEFAULT_NODES: u64 = 1_000_000;

/// The default longest VCT line, in plies.
const DEFAULT_VCT_PLIES: u32 = 15;

struct Search<'a> {
    mode: Mode,
    attacker: usize,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    limits: &'a Limits,
    cuts: u64,
    failed: &'a mut HashMap<(u64, bool), Failed>,
}

impl ThreatSolver {
    /// A solver with an empty table.
    #[must_use]
    pub fn new() -> ThreatSolver {
        ThreatSolver::default()
    }

    /// Positions visited by the last search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A victory by continuous fours for the player to move, if one exists
    /// within `limits`.
    pub fn vcf(&mut self, game: &Gomoku, limits: &Limits) -> Solution {
        self.solve(game, limits, Mode::Vcf)
    }

    /// A victory by threes and fours for the player to move, if one exists
    /// within `limits`.
    pub fn vct(&mut self, game: &Gomoku, limits: &Limits) -> Solution {
        self.solve(game, limits, Mode::Vct)
    }

    fn solve(&mut self, game: &Gomoku, limits: &Limits, mode: Mode) -> Solution {
        self.failed.clear();
        self.nodes = 0;
        if game.result().is_some() {
            return Solution::NoWin;
        }
        let max_plies = limits.depth.unwrap_or(match mode {
            Mode::Vcf => u32::MAX,
            Mode::Vct => DEFAULT_VCT_PLIES,
        });
        let started = Instant::now();
        let mut search = Search {
            mode,
            attacker: game.side().index(),
            nodes: 0,
            node_limit: limits.nodes.unwrap_or(DEFAULT_NODES),
            deadline: limits.time.and_then(|time| started.checked_add(time)),
            limits,
            cuts: 0,
            failed: &mut self.failed,
        };
        let mut plies = 1;
        let solution = loop {
            if plies > max_plies {
                break Solution::NotWithin { plies: max_plies };
            }
            search.cuts = 0;
            let mut line = Vec::new();
            match search.attack(game, plies, &mut line) {
                Status::Win => break Solution::Win(line),
                Status::Abort => break Solution::Unknown,
                Status::Fail if search.cuts == 0 => break Solution::NoWin,
                Status::Fail => {}
            }
            // Lines of the attacker's colour have odd length.
            plies = plies.saturating_add(2);
        };
        self.nodes = search.nodes;
        solution
    }
}

impl Search<'_> {
    fn defender(&self) -> usize {
        1 - self.attacker
    }

    /// Counts a node; whether the search must stop.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.limits.stop_requested() {
                return true;
            }
            if self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
            {
                return true;
            }
        }
        false
    }

    fn known_failure(&self, game: &Gomoku, attacking: bool, plies: u32) -> bool {
        self.failed
            .get(&(game.hash_key(), attacking))
            .is_some_and(|failed| failed.exact || failed.plies >= plies)
    }

    fn record_failure(&mut self, game: &Gomoku, attacking: bool, plies: u32, cuts_before: u64) {
        let exact = self.cuts == cuts_before;
        let entry = self
            .failed
            .entry((game.hash_key(), attacking))
            .or_insert(Failed { plies, exact });
        entry.plies = entry.plies.max(plies);
        entry.exact |= exact;
    }

    /// The attacker is to move; `plies` is the longest line allowed from
    /// here.
    fn attack(&mut self, game: &Gomoku, plies: u32, line: &mut Vec<Move>) -> Status {
        if self.out_of_budget() {
            return Status::Abort;
        }
        let size = game.size();
        let attacker = self.attacker;
        if let Some(five) = game.five_bits(attacker).first_index() {
            line.push(Move::from_index(five, size));
            return Status::Win;
        }
        if plies < 3 {
            self.cuts += 1;
            return Status::Fail;
        }
        if self.known_failure(game, true, plies) {
            return Status::Fail;
        }
        let cuts_before = self.cuts;
        let threats = game.five_bits(self.defender());
        let candidates: Vec<usize> = if !threats.is_empty() {
            // The defender's four must be blocked, and only one can be.
            if threats.len() > 1 {
                return Status::Fail;
            }
            let block = threats.first_index().unwrap_or_default();
            if !game.may_place(block) {
                return Status::Fail;
            }
            vec![block]
        } else {
            self.attacking_moves(game, plies)
        };
        for index in candidates {
            let mut child = game.clone();
            child.play_index(index);
            let mark = line.len();
            line.push(Move::from_index(index, size));
            match self.defend(&child, plies - 1, line) {
                Status::Win => return Status::Win,
                Status::Abort => return Status::Abort,
                Status::Fail => line.truncate(mark),
            }
        }
        self.record_failure(game, true, plies, cuts_before);
        Status::Fail
    }

    /// The attacker's threats, best first: straight fours and double
    /// fours, then fours with threes, fours, and (VCT, with room for them)
    /// threes.
    fn attacking_moves(&mut self, game: &Gomoku, plies: u32) -> Vec<usize> {
        let attacker = self.attacker;
        let player = if attacker == 0 {
            Player::First
        } else {
            Player::Second
        };
        let mut pool = *game.four_bits(attacker);
        if self.mode == Mode::Vct {
            let threes = game.three_bits(attacker);
            if plies >= 5 {
                pool = pool.or(&threes);
            } else if !threes.is_empty() {
                // Threes need five plies to win: left out for depth.
                self.cuts += 1;
            }
        }
        let pool = game.without_forbidden(player, pool);
        let mut scored: Vec<(u32, usize)> = pool
            .iter()
            .map(|index| {
                let summary = game.summary(attacker, index);
                let rank = if summary.open_four {
                    0
                } else if summary.fours > 0 && summary.threes > 0 {
                    1
                } else if summary.fours > 0 {
                    2
                } else if summary.threes > 1 {
                    3
                } else {
                    4
                };
                (rank, index)
            })
            .collect();
        scored.sort_unstable();
        scored.into_iter().map(|(_, index)| index).collect()
    }

    /// The defender is to move after an attacker's move.
    fn defend(&mut self, game: &Gomoku, plies: u32, line: &mut Vec<Move>) -> Status {
        if self.out_of_budget() {
            return Status::Abort;
        }
        let size = game.size();
        let (attacker, defender) = (self.attacker, self.defender());
        if game.result().is_some() || !game.five_bits(defender).is_empty() {
            return Status::Fail;
        }
        let fives = game.five_bits(attacker);
        if !fives.is_empty() {
            if plies < 2 {
                self.cuts += 1;
                return Status::Fail;
            }
            let block = fives.first_index().unwrap_or_default();
            if fives.len() >= 2 || !game.may_place(block) {
                // The defender cannot stop every five: any move loses.
                let reply = if game.may_place(block) {
                    block
                } else {
                    match any_playable(game) {
                        Some(index) => index,
                        None => return Status::Fail,
                    }
                };
                let mut child = game.clone();
                child.play_index(reply);
                let Some(five) = fives.iter().find(|&five| five != reply) else {
                    return Status::Fail;
                };
                line.push(Move::from_index(reply, size));
                line.push(Move::from_index(five, size));
                return Status::Win;
            }
            let mut child = game.clone();
            child.play_index(block);
            line.push(Move::from_index(block, size));
            return self.attack(&child, plies - 1, line);
        }
        if self.mode == Mode::Vcf {
            return Status::Fail;
        }
        let attacker_player = if attacker == 0 {
            Player::First
        } else {
            Player::Second
        };
        let open = game.without_forbidden(attacker_player, *game.open_four_bits(attacker));
        let Some(threat) = open.first_index() else {
            return Status::Fail;
        };
        if plies < 4 {
            self.cuts += 1;
            return Status::Fail;
        }
        if self.known_failure(game, false, plies) {
            return Status::Fail;
        }
        let cuts_before = self.cuts;
        let replies = self.defences(game, threat);
        let mut best: Option<(usize, Vec<Move>)> = None;
        for reply in replies {
            let mut child = game.clone();
            child.play_index(reply);
            let mut sub = Vec::new();
            match self.attack(&child, plies - 1, &mut sub) {
                Status::Fail => {
                    self.record_failure(game, false, plies, cuts_before);
                    return Status::Fail;
                }
                Status::Abort => return Status::Abort,
                Status::Win => {
                    if best.as_ref().is_none_or(|(_, line)| sub.len() > line.len()) {
                        best = Some((reply, sub));
                    }
                }
            }
        }
        let Some((reply, sub)) = best else {
            return Status::Fail;
        };
        line.push(Move::from_index(reply, size));
        line.extend(sub);
        Status::Win
    }

    /// The defender's answers to an attacker who can make a straight four
    /// (or two fours) on `threat`: the cells after which the attacker has
    /// no such move left, and the defender's own fours. If there is none,
    /// some legal move (every move loses), so the line goes on.
    fn defences(&self, game: &Gomoku, threat: usize) -> Vec<usize> {
        let size = game.size();
        let (attacker, defender) = (self.attacker, self.defender());
        let attacker_player = if attacker == 0 {
            Player::First
        } else {
            Player::Second
        };
        let defender_player = attacker_player.opponent();
        // Cells that can change the threat: on its lines within reach.
        let mut cells = Bits::new();
        cells.insert(threat);
        let (x, y) = (threat % size, threat / size);
        let reach = game.kind(attacker).half() as isize;
        for direction in Direction::ALL {
            let code = (game.nibbles(attacker, threat) >> (4 * direction.index())) & 0xF;
            if code == 0 {
                continue;
            }
            let (dx, dy) = direction.step();
            let (_, position, len) = line_of(size, x, y, direction.index());
            for offset in -reach..=reach {
                let along = position as isize + offset;
                if offset == 0 || along < 0 || along >= len as isize {
                    continue;
                }
                let cx = x as isize + offset * dx as isize;
                let cy = y as isize + offset * dy as isize;
                cells.insert(cy as usize * size + cx as usize);
            }
        }
        let cells = cells.and(&game.empty_bits());
        let mut replies = Vec::new();
        for index in cells.iter() {
            if !game.may_place(index) {
                continue;
            }
            let mut child = game.clone();
            child.play_index(index);
            let open = child.without_forbidden(attacker_player, *child.open_four_bits(attacker));
            if open.is_empty() {
                replies.push(index);
            }
        }
        let counters = game.without_forbidden(defender_player, *game.four_bits(defender));
        for index in counters.iter() {
            if !replies.contains(&index) {
                replies.push(index);
            }
        }
        if replies.is_empty()
            && let Some(index) = any_playable(game)
        {
            replies.push(index);
        }
        replies
    }
}

/// Some cell the player to move may play.
fn any_playable(game: &Gomoku) -> Option<usize> {
    game.focus_bits()
        .iter()
        .find(|&index| game.may_place(index))
}

impl Gomoku {
    /// The position with the other player to move and the same stones (a
    /// "null move"): what the opponent could do if it were their turn, for
    /// threat analysis. Not a move of the game.
    #[must_use]
    pub fn null_move(&self) -> Gomoku {
        let mut passed = self.clone();
        passed.pass_turn();
        passed
    }
}

/// Replays `line` from `game` and checks that every move is legal and that
/// the last one wins for the player to move at the start: a check for
/// solutions (and for anything else that claims a forced line).
#[must_use]
pub fn wins_by(game: &Gomoku, line: &[Move]) -> bool {
    let winner = game.side();
    let mut position = game.clone();
    for &mv in line {
        if position.try_play(mv).is_err() {
            return false;
        }
    }
    position.result() == Some(game_traits::Outcome::Win(winner))
}
