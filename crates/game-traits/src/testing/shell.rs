//! The shell game: a toy game of hidden information, small enough to solve
//! by hand, for testing information-set searchers.

use std::fmt;

use rand::{Rng, RngExt, SeedableRng};
use rand_pcg::Pcg64Mcg;

use crate::hidden::{Arbiter, NaiveWorld, WorldEnumeration};
use crate::{Game, IllegalMove, InformationSet, Outcome, Player, PositionHash};

/// The most cups a [`ShellGame`] has.
pub const MAX_CUPS: u8 = 8;

/// A move of the [`ShellGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ShellMove {
    /// The guesser lifts this cup: it wins if a pea is under it and loses
    /// otherwise.
    Guess(u8),
    /// The guesser walks away: a draw.
    Fold,
    /// The guesser asks the hider to act first, then must guess (only
    /// while no cup has been shown).
    Delay,
    /// The hider, after a delay, shows that this cup is empty.
    Show(u8),
    /// The hider, after a delay, shows nothing.
    Wait,
}

/// Whose decision a [`ShellGame`] waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ShellPhase {
    /// The guesser chooses: guess, fold, or delay.
    Choose,
    /// The hider answers a delay: show an empty cup, or wait.
    Respond,
    /// The guesser must guess.
    Guess,
}

/// Why a [`ShellGame`] could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShellError {
    /// The number of cups is not in `2..=MAX_CUPS`.
    #[error("{cups} cups: a shell game has 2 to {MAX_CUPS} cups")]
    Cups {
        /// The number given.
        cups: u8,
    },
    /// The peas are not under at least one and at most all but one cup.
    #[error("pea mask {peas:#b} for {cups} cups: need at least one pea and one empty cup")]
    Peas {
        /// The cups.
        cups: u8,
        /// The pea mask given.
        peas: u8,
    },
    /// A shown cup does not exist.
    #[error("shown mask {shown:#b} names a cup beyond the {cups} cups")]
    Shown {
        /// The cups.
        cups: u8,
        /// The shown mask given.
        shown: u8,
    },
}

/// The shell game, a toy game of hidden information.
///
/// The *hider* ([`Player::Second`]) has put peas under some of `cups`
/// cups; the *guesser* ([`Player::First`]) knows how many, and sees the
/// contents of the cups already *shown* (turned over at the start), but
/// not where the other peas are. The guesser moves first:
///
/// * [`ShellMove::Guess`]`(c)`: lift cup `c`: a win if it hides a pea, a
///   loss otherwise;
/// * [`ShellMove::Fold`]: a draw;
/// * [`ShellMove::Delay`] (only while no cup is shown): the hider answers
///   first, by [`ShellMove::Show`]ing an empty cup or with
///   [`ShellMove::Wait`], then the guesser must guess.
///
/// A value of this type is one *world*: the peas are known. The guesser's
/// knowledge is a [`ShellInfo`], and a [`ShellTable`] referees a game.
///
/// # The exact values, and where PIMC fails
///
/// With `P(c)` the probability, over the worlds consistent with what the
/// guesser knows (all equally likely), that cup `c` hides a pea:
///
/// * `Guess(c)` is worth `2 P(c) - 1` and `Fold` is worth 0;
/// * `Delay` is worth `max_c (2 P(c) - 1)`: whatever the hider does, the
///   guesser can ignore it and make the best blind guess, and the hider
///   can `Wait`, which tells nothing.
///
/// Perfect Information Monte Carlo (PIMC) searches each world as if the
/// peas were visible. It values `Guess` and `Fold` exactly (they end the
/// game at once), so wherever `Delay` is not legal its choice is exactly
/// right. But in every world the guesser, seeing the peas, wins after a
/// delay, so PIMC values `Delay` at +1: with one pea under three cups it
/// delays (truly worth -1/3) instead of folding (worth 0). This is
/// *strategy fusion* (Frank & Basin 1998): PIMC assumes it could play a
/// different guess in each world, when one guess must serve them all.
/// [`ShellTable::strategy_fusion`] sets that position up.
#[derive(Clone, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShellGame {
    cups: u8,
    peas: u8,
    shown: u8,
    phase: ShellPhase,
    outcome: Option<Outcome>,
}

impl ShellGame {
    /// A new game with `cups` cups, peas under the cups of the mask `peas`
    /// (bit `c` for cup `c`) and the cups of the mask `shown` turned over.
    ///
    /// # Errors
    ///
    /// [`ShellError`] when there are fewer than 2 or more than
    /// [`MAX_CUPS`] cups, no pea or no empty cup, or a pea or a shown cup
    /// beyond the last cup.
    pub fn new(cups: u8, peas: u8, shown: u8) -> Result<ShellGame, ShellError> {
        if !(2..=MAX_CUPS).contains(&cups) {
            return Err(ShellError::Cups { cups });
        }
        let all = all_cups(cups);
        if peas == 0 || peas & !all != 0 || peas == all {
            return Err(ShellError::Peas { cups, peas });
        }
        if shown & !all != 0 {
            return Err(ShellError::Shown { cups, shown });
        }
        Ok(ShellGame {
            cups,
            peas,
            shown,
            phase: ShellPhase::Choose,
            outcome: None,
        })
    }

    /// The number of cups.
    pub fn cups(&self) -> u8 {
        self.cups
    }

    /// The cups hiding a pea (bit `c` for cup `c`).
    pub fn peas(&self) -> u8 {
        self.peas
    }

    /// The cups turned over so far.
    pub fn shown(&self) -> u8 {
        self.shown
    }

    /// Whose decision the game waits for.
    pub fn phase(&self) -> ShellPhase {
        self.phase
    }

    fn with_peas(&self, peas: u8) -> ShellGame {
        ShellGame {
            peas,
            ..self.clone()
        }
    }
}

fn all_cups(cups: u8) -> u8 {
    ((1u16 << cups) - 1) as u8
}

impl fmt::Debug for ShellGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ShellGame(")?;
        for cup in 0..self.cups {
            let pea = self.peas >> cup & 1 == 1;
            let shown = self.shown >> cup & 1 == 1;
            f.write_str(match (pea, shown) {
                (true, true) => "P",
                (true, false) => "p",
                (false, true) => "O",
                (false, false) => "o",
            })?;
        }
        write!(f, " {:?}", self.phase)?;
        if let Some(outcome) = self.outcome {
            write!(f, " {outcome}")?;
        }
        write!(f, ")")
    }
}

impl Game for ShellGame {
    type Move = ShellMove;

    fn to_move(&self) -> Player {
        match self.phase {
            ShellPhase::Respond => Player::Second,
            ShellPhase::Choose | ShellPhase::Guess => Player::First,
        }
    }

    fn legal_moves(&self, out: &mut Vec<ShellMove>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        match self.phase {
            ShellPhase::Choose => {
                out.extend((0..self.cups).map(ShellMove::Guess));
                out.push(ShellMove::Fold);
                if self.shown == 0 {
                    out.push(ShellMove::Delay);
                }
            }
            ShellPhase::Respond => {
                out.extend(
                    (0..self.cups)
                        .filter(|&cup| (self.peas | self.shown) >> cup & 1 == 0)
                        .map(ShellMove::Show),
                );
                out.push(ShellMove::Wait);
            }
            ShellPhase::Guess => out.extend((0..self.cups).map(ShellMove::Guess)),
        }
    }

    fn play(&mut self, mv: ShellMove) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} in {self:?}");
        match mv {
            ShellMove::Guess(cup) => {
                let winner = if self.peas >> cup & 1 == 1 {
                    Player::First
                } else {
                    Player::Second
                };
                self.outcome = Some(Outcome::Win(winner));
            }
            ShellMove::Fold => self.outcome = Some(Outcome::Draw),
            ShellMove::Delay => self.phase = ShellPhase::Respond,
            ShellMove::Show(cup) => {
                self.shown |= 1 << cup;
                self.phase = ShellPhase::Guess;
            }
            ShellMove::Wait => self.phase = ShellPhase::Guess,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
}

impl PositionHash for ShellGame {
    fn position_hash(&self) -> u64 {
        let phase = match self.phase {
            ShellPhase::Choose => 0u64,
            ShellPhase::Respond => 1,
            ShellPhase::Guess => 2,
        };
        let outcome = match self.outcome {
            None => 0u64,
            Some(Outcome::Draw) => 1,
            Some(Outcome::Win(Player::First)) => 2,
            Some(Outcome::Win(Player::Second)) => 3,
        };
        crate::zobrist::mix64(
            u64::from(self.cups)
                | u64::from(self.peas) << 8
                | u64::from(self.shown) << 16
                | phase << 24
                | outcome << 32,
        )
    }
}

/// What one player of the [`ShellGame`] knows. The hider knows everything;
/// the guesser knows the number of peas, the phase and the shown cups.
/// Every pea placement consistent with that is equally likely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellInfo {
    player: Player,
    /// The public part of the world; its `peas` are meaningful only when
    /// `peas_known`.
    public: ShellGame,
    pea_count: u32,
    peas_known: bool,
}

impl ShellInfo {
    /// What `player` knows of `world`.
    pub fn new(world: &ShellGame, player: Player) -> ShellInfo {
        let peas_known = player == Player::Second;
        ShellInfo {
            player,
            public: if peas_known {
                world.clone()
            } else {
                // Keep only what the guesser sees: the shown cups' peas.
                world.with_peas(world.peas & world.shown)
            },
            pea_count: world.peas.count_ones(),
            peas_known,
        }
    }

    /// The pea masks consistent with this knowledge, in increasing order.
    pub fn consistent_peas(&self) -> Vec<u8> {
        if self.peas_known {
            return vec![self.public.peas];
        }
        let all = all_cups(self.public.cups);
        let shown = self.public.shown;
        let shown_full = self.public.peas & shown;
        (1..=all)
            .filter(|&mask| {
                mask.count_ones() == self.pea_count && mask & shown == shown_full && mask != all
            })
            .collect()
    }

    /// The probability of a pea under each cup (index `c` for cup `c`).
    pub fn pea_probabilities(&self) -> Vec<f64> {
        let worlds = self.consistent_peas();
        let total = worlds.len() as f64;
        (0..self.public.cups)
            .map(|cup| worlds.iter().filter(|&&mask| mask >> cup & 1 == 1).count() as f64 / total)
            .collect()
    }

    /// The exact value of each legal move of the guesser (see
    /// [`ShellGame`] for the derivation), when the guesser is to move and
    /// this is its knowledge; `None` otherwise.
    pub fn exact_values(&self) -> Option<Vec<(ShellMove, f64)>> {
        if self.player != Player::First
            || self.public.to_move() != Player::First
            || self.public.outcome.is_some()
        {
            return None;
        }
        let probabilities = self.pea_probabilities();
        let best_guess = probabilities
            .iter()
            .map(|p| 2.0 * p - 1.0)
            .fold(f64::NEG_INFINITY, f64::max);
        let mut moves = Vec::new();
        self.public.legal_moves(&mut moves);
        Some(
            moves
                .into_iter()
                .map(|mv| {
                    let value = match mv {
                        ShellMove::Guess(cup) => 2.0 * probabilities[usize::from(cup)] - 1.0,
                        ShellMove::Fold => 0.0,
                        ShellMove::Delay => best_guess,
                        ShellMove::Show(_) | ShellMove::Wait => unreachable!("a hider move"),
                    };
                    (mv, value)
                })
                .collect(),
        )
    }

    /// The guesser's moves of best exact value ([`ShellInfo::exact_values`]).
    pub fn best_moves(&self) -> Option<Vec<ShellMove>> {
        let values = self.exact_values()?;
        let best = values
            .iter()
            .map(|&(_, value)| value)
            .fold(f64::NEG_INFINITY, f64::max);
        Some(
            values
                .into_iter()
                .filter(|&(_, value)| (value - best).abs() < 1e-9)
                .map(|(mv, _)| mv)
                .collect(),
        )
    }
}

impl InformationSet for ShellInfo {
    type World = ShellGame;

    fn player(&self) -> Player {
        self.player
    }

    fn to_move(&self) -> Player {
        self.public.to_move()
    }

    /// The moves of the player to move; for the hider's moves seen by the
    /// guesser, every move the hider has in some consistent world.
    fn legal_moves(&self, out: &mut Vec<ShellMove>) {
        out.clear();
        if self.public.outcome.is_some() {
            return;
        }
        if self.public.phase == ShellPhase::Respond && !self.peas_known {
            let possible = self
                .consistent_peas()
                .iter()
                .fold(0u8, |empty_somewhere, &mask| empty_somewhere | !mask);
            out.extend(
                (0..self.public.cups)
                    .filter(|&cup| (possible & !self.public.shown) >> cup & 1 == 1)
                    .map(ShellMove::Show),
            );
            out.push(ShellMove::Wait);
            return;
        }
        self.public.legal_moves(out);
    }

    fn sample_world<R: Rng + ?Sized>(&self, rng: &mut R) -> ShellGame {
        let worlds = self.consistent_peas();
        self.public
            .with_peas(worlds[rng.random_range(..worlds.len())])
    }
}

impl WorldEnumeration for ShellInfo {
    fn world_count(&self) -> u64 {
        self.consistent_peas().len() as u64
    }

    fn worlds(&self) -> Vec<(ShellGame, f64)> {
        let worlds = self.consistent_peas();
        let weight = 1.0 / worlds.len() as f64;
        worlds
            .into_iter()
            .map(|mask| (self.public.with_peas(mask), weight))
            .collect()
    }
}

impl NaiveWorld for ShellInfo {
    /// The first consistent world: the peas under the lowest cups possible.
    fn naive_world(&self) -> ShellGame {
        self.public.with_peas(self.consistent_peas()[0])
    }
}

/// The referee of a [`ShellGame`]: it knows where the peas are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellTable {
    world: ShellGame,
}

impl ShellTable {
    /// A table with the true world `world`.
    pub fn new(world: ShellGame) -> ShellTable {
        ShellTable { world }
    }

    /// `cups` cups (2 to [`MAX_CUPS`]) with `peas` peas (at least one, and
    /// at least one empty cup) put under random cups drawn from `seed`,
    /// nothing shown. Out-of-range counts are brought into range.
    pub fn deal(cups: u8, peas: u8, seed: u64) -> ShellTable {
        let cups = cups.clamp(2, MAX_CUPS);
        let peas = peas.clamp(1, cups - 1);
        let mut rng = Pcg64Mcg::seed_from_u64(seed);
        let mut order: Vec<u8> = (0..cups).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(..=i));
        }
        let mask = order[..usize::from(peas)]
            .iter()
            .fold(0u8, |mask, &cup| mask | 1 << cup);
        ShellTable::new(ShellGame::new(cups, mask, 0).expect("counts brought into range"))
    }

    /// Three cups, one pea under cup 1, nothing shown: the position where
    /// PIMC shows strategy fusion. Folding is worth 0 and is the best move;
    /// every guess, and delaying, are worth -1/3; PIMC delays.
    pub fn strategy_fusion() -> ShellTable {
        ShellTable::new(ShellGame::new(3, 0b010, 0).expect("a valid setup"))
    }
}

impl Arbiter for ShellTable {
    type InfoSet = ShellInfo;

    fn truth(&self) -> &ShellGame {
        &self.world
    }

    fn information_set(&self, player: Player) -> ShellInfo {
        ShellInfo::new(&self.world, player)
    }

    fn play_move(&mut self, mv: ShellMove) -> Result<(), IllegalMove<ShellMove>> {
        self.world.try_play(mv)
    }

    /// The guesser's hidden part is where the unshown peas are: drawn again
    /// among the placements it cannot rule out. The hider sees everything,
    /// so its redeal is the same table.
    fn redeal<R: Rng + ?Sized>(&self, player: Player, rng: &mut R) -> ShellTable {
        let info = self.information_set(player);
        ShellTable::new(info.sample_world(rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{Invariants, check_information_set, minimax};
    use crate::{Evaluator, OutcomeEvaluator};

    #[test]
    fn bad_setups_are_refused() {
        assert_eq!(ShellGame::new(1, 1, 0), Err(ShellError::Cups { cups: 1 }));
        assert_eq!(ShellGame::new(9, 1, 0), Err(ShellError::Cups { cups: 9 }));
        assert!(matches!(
            ShellGame::new(3, 0, 0),
            Err(ShellError::Peas { .. })
        ));
        assert!(matches!(
            ShellGame::new(3, 0b111, 0),
            Err(ShellError::Peas { .. })
        ));
        assert!(matches!(
            ShellGame::new(3, 0b1000, 0),
            Err(ShellError::Peas { .. })
        ));
        assert!(matches!(
            ShellGame::new(3, 1, 0b1000),
            Err(ShellError::Shown { .. })
        ));
        let error = ShellGame::new(3, 0b1000, 0).unwrap_err().to_string();
        assert!(error.contains("0b1000"), "{error}");
    }

    #[test]
    fn every_world_keeps_the_game_contract() {
        for (cups, peas, shown) in [(3, 0b010, 0), (4, 0b0101, 0), (5, 0b00110, 0b00011)] {
            let game = ShellGame::new(cups, peas, shown).unwrap();
            Invariants::new(game, 4).assert();
        }
    }

    #[test]
    fn information_sets_are_consistent_and_uniform() {
        let mut rng = Pcg64Mcg::seed_from_u64(3);
        let table = ShellTable::new(ShellGame::new(5, 0b00110, 0b00011).unwrap());
        let guesser = table.information_set(Player::First);
        // Cup 1 is shown full, cup 0 empty: the other pea is under 2, 3 or 4.
        assert_eq!(guesser.consistent_peas(), vec![0b00110, 0b01010, 0b10010]);
        assert_eq!(guesser.world_count(), 3);
        let probabilities = guesser.pea_probabilities();
        assert_eq!(probabilities[0], 0.0);
        assert_eq!(probabilities[1], 1.0);
        assert!((probabilities[2] - 1.0 / 3.0).abs() < 1e-12);
        check_information_set(&guesser, 50, &mut rng).unwrap();
        let hider = table.information_set(Player::Second);
        assert_eq!(hider.world_count(), 1);
        check_information_set(&hider, 5, &mut rng).unwrap();
        // The guesser's view of the hider's reply after a delay.
        let mut delayed = ShellTable::deal(4, 1, 9);
        delayed.play_move(ShellMove::Delay).unwrap();
        let view = delayed.information_set(Player::First);
        let mut moves = Vec::new();
        view.legal_moves(&mut moves);
        assert_eq!(moves.len(), 5, "{moves:?}");
        check_information_set(&view, 50, &mut rng).unwrap();
        // Uniform sampling: each of the 4 placements about a quarter.
        let mut counts = [0u32; 4];
        for _ in 0..4_000 {
            let world = view.sample_world(&mut rng);
            counts[world.peas().trailing_zeros() as usize] += 1;
        }
        assert!(
            counts.iter().all(|&n| (850..1150).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn exact_values_agree_with_minimax_where_information_does_not_matter() {
        // With the peas known (a single world), the guesser's exact values
        // are the minimax values of that world.
        let world = ShellGame::new(4, 0b0100, 0b0001).unwrap();
        let info = ShellInfo::new(&world, Player::First);
        assert_eq!(info.world_count(), 3);
        let values = info.exact_values().unwrap();
        let guess_two = values
            .iter()
            .find(|(mv, _)| *mv == ShellMove::Guess(2))
            .unwrap()
            .1;
        assert!((guess_two - (2.0 / 3.0 - 1.0)).abs() < 1e-12);
        assert_eq!(info.best_moves().unwrap(), vec![ShellMove::Fold]);
        // The true world's minimax values are +1 for cup 2, -1 elsewhere.
        assert_eq!(
            crate::testing::child_value(&world, ShellMove::Guess(2), None, &OutcomeEvaluator),
            1.0
        );
        assert_eq!(minimax(&world, None, &OutcomeEvaluator), 1.0);
        assert_eq!(OutcomeEvaluator.value(&world), 0.0);
    }

    #[test]
    fn the_strategy_fusion_position_is_as_documented() {
        let table = ShellTable::strategy_fusion();
        let info = table.information_set(Player::First);
        let values = info.exact_values().unwrap();
        for (mv, value) in &values {
            let expected = if *mv == ShellMove::Fold {
                0.0
            } else {
                -1.0 / 3.0
            };
            assert!((value - expected).abs() < 1e-12, "{mv:?} {value}");
        }
        assert_eq!(info.best_moves().unwrap(), vec![ShellMove::Fold]);
        // In every world, the guesser who delays wins.
        for (world, _) in info.worlds() {
            assert_eq!(
                crate::testing::child_value(&world, ShellMove::Delay, None, &OutcomeEvaluator),
                1.0
            );
        }
    }

    #[test]
    fn redeals_keep_the_guessers_knowledge() {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        let mut table = ShellTable::deal(6, 2, 1);
        table.play_move(ShellMove::Delay).unwrap();
        let reply = {
            let mut moves = Vec::new();
            table.legal_moves(&mut moves);
            moves[0]
        };
        table.play_move(reply).unwrap();
        let mut differ = false;
        for _ in 0..20 {
            let other = table.redeal(Player::First, &mut rng);
            assert_eq!(
                other.information_set(Player::First),
                table.information_set(Player::First)
            );
            differ |= other.truth().peas() != table.truth().peas();
            assert_eq!(table.redeal(Player::Second, &mut rng), table);
        }
        assert!(differ);
    }
}
