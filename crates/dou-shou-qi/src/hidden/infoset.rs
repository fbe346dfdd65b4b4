//! One player's knowledge in Hidden Jungle, and the worlds consistent with
//! it.

use std::sync::Arc;

use game_traits::hidden::{NaiveWorld, WorldEnumeration};
use game_traits::{Evaluator, Game, InformationSet, Outcome, Player};
use rand::{Rng, RngExt};

use super::matching::Matchings;
use super::referee::{NO_PIECE, Observation, initial_ids, initial_world, move_ids, removals};
use super::{HiddenError, HiddenRules, Layout, PieceId, Setup};
use crate::animal::{Animal, AnimalSet, Piece};
use crate::board::{DEN, SQUARES, Square};
use crate::moves::Move;
use crate::position::Jungle;
use crate::rules::Fight;
use crate::zobrist::{PIECE_KEYS, SECOND_TO_MOVE_KEY};

/// What one player of Hidden Jungle knows: its own setup and the public
/// observations, and nothing else.
///
/// The opponent's setup is one of the bijections start squares → animals
/// that fit every hard constraint of the rules text (9.5):
///
/// * C1: a piece that stood on water is the rat; a piece that jumped is the
///   lion or the tiger;
/// * C2: a hidden piece that won or survived a fight against one of this
///   player's pieces (always known to it) has an animal that gives that
///   result, with the squares of that moment (traps count);
/// * the revealed animals, and the bijection.
///
/// Nothing else rules a world out. In particular "the opponent had a legal
/// move" never does: with attacks always legal (`failed_attack` is
/// `attacker_dies` or `bounce`), a side with a piece always has a move. A
/// rat in water can always step to a neighbouring water square (only the
/// enemy rat could be there, and rat may attack rat in water); a piece on
/// land without a move would need every land neighbour but its own den held
/// by its own pieces, so its side would fill the whole land of the board,
/// which is connected without the den (50 squares for 8 pieces).
///
/// [`sample_world`](InformationSet::sample_world) draws uniformly among
/// those setups (exactly: counting completions with a dynamic program, see
/// [`Matchings`]) and returns the current position in that world, with its
/// repetition history.
#[derive(Clone, Debug)]
pub struct HiddenInfoSet {
    player: Player,
    rules: HiddenRules,
    own: Layout,
    /// Dense piece id on each square.
    ids: [u8; 64],
    /// The opponent's animals made public, by slot.
    known: [Option<Animal>; 8],
    /// C1 and C2 for each opponent slot.
    allowed: [AnimalSet; 8],
    to_move: Player,
    clock: u16,
    fullmove: u32,
    outcome: Option<Outcome>,
    /// With `repetition_draw`: the square of each dense id in each position
    /// since the last removal, the current one last.
    positions: Vec<[u8; 16]>,
    log: Vec<Observation>,
    worlds: Worlds,
}

/// The consistent worlds, derived from the constraints after each
/// observation.
#[derive(Clone, Debug)]
struct Worlds {
    /// Opponent slots whose animal is not public.
    hidden_slots: Vec<usize>,
    /// Bijections hidden slots → hidden animals under C1 and C2.
    matchings: Matchings,
    /// Per opponent slot: the animals it has in some consistent world.
    support: [AnimalSet; 8],
    count: u64,
}

impl Worlds {
    fn placeholder() -> Worlds {
        Worlds {
            hidden_slots: Vec::new(),
            matchings: Matchings::new(&[], AnimalSet::EMPTY).expect("empty matching"),
            support: [AnimalSet::ALL; 8],
            count: 0,
        }
    }
}

impl HiddenInfoSet {
    /// What `player`, whose own setup is `own`, knows before the first
    /// move.
    ///
    /// # Errors
    ///
    /// [`HiddenError::UnsupportedRules`] (see [`HiddenRules::check`]),
    /// [`HiddenError::NotStandard`] for a non-standard layout under
    /// `setup = standard`.
    pub fn new(player: Player, rules: HiddenRules, own: Layout) -> Result<Self, HiddenError> {
        rules.check()?;
        let mut known = [None; 8];
        if rules.setup == Setup::Standard {
            if own != Layout::standard(player) {
                return Err(HiddenError::NotStandard {
                    side: player,
                    layout: own,
                });
            }
            let theirs = Layout::standard(player.opponent());
            for (slot, animal) in known.iter_mut().enumerate() {
                *animal = Some(theirs.animal(slot));
            }
        }
        let mut info = HiddenInfoSet {
            player,
            rules,
            own,
            ids: initial_ids(),
            known,
            allowed: [AnimalSet::ALL; 8],
            to_move: Player::First,
            clock: 0,
            fullmove: 1,
            outcome: None,
            positions: Vec::new(),
            log: Vec::new(),
            worlds: Worlds::placeholder(),
        };
        if rules.rules.repetition_draw {
            info.positions.push(info.squares_of_ids());
        }
        info.rebuild()
            .map_err(|reason| HiddenError::InconsistentObservation { ply: 0, reason })?;
        Ok(info)
    }

    /// What `player` knows after `observations` (the public log from the
    /// start).
    ///
    /// # Errors
    ///
    /// As [`HiddenInfoSet::new`] and [`HiddenInfoSet::observe`].
    pub fn from_observations(
        player: Player,
        rules: HiddenRules,
        own: Layout,
        observations: &[Observation],
    ) -> Result<Self, HiddenError> {
        let mut info = HiddenInfoSet::new(player, rules, own)?;
        for observation in observations {
            info.observe(observation)?;
        }
        Ok(info)
    }

    /// Takes in the public observation of the next move.
    ///
    /// # Errors
    ///
    /// [`HiddenError::InconsistentObservation`] when the observation cannot
    /// be the next one (wrong mover or piece, a move no consistent world
    /// allows, a fight result or reveal that contradicts what is known, a
    /// wrong result); the information set is then unchanged.
    pub fn observe(&mut self, observation: &Observation) -> Result<(), HiddenError> {
        let mut next = self.clone();
        next.apply(observation)
            .map_err(|reason| HiddenError::InconsistentObservation {
                ply: self.log.len(),
                reason,
            })?;
        *self = next;
        Ok(())
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &HiddenRules {
        &self.rules
    }

    /// This player's own setup.
    #[must_use]
    pub fn own_layout(&self) -> Layout {
        self.own
    }

    /// The public observations so far.
    #[must_use]
    pub fn observations(&self) -> &[Observation] {
        &self.log
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The piece on `square`, if any (public).
    #[must_use]
    pub fn piece_id(&self, square: Square) -> Option<PieceId> {
        let dense = self.ids[square.index() as usize];
        (dense != NO_PIECE).then(|| PieceId::from_dense(usize::from(dense)))
    }

    /// The opponent's pieces whose animal is not public, in slot order.
    #[must_use]
    pub fn hidden_pieces(&self) -> Vec<PieceId> {
        self.worlds
            .hidden_slots
            .iter()
            .map(|&slot| self.opponent_piece(slot))
            .collect()
    }

    /// The opponent animals not yet public.
    #[must_use]
    pub fn hidden_animals(&self) -> AnimalSet {
        self.known
            .iter()
            .flatten()
            .fold(AnimalSet::ALL, |set, &animal| set.without(animal))
    }

    /// The animal of `piece`, if this player knows it (its own pieces, and
    /// the opponent's revealed ones).
    #[must_use]
    pub fn known_animal(&self, piece: PieceId) -> Option<Animal> {
        if piece.owner() == self.player {
            Some(self.own.animal(piece.slot()))
        } else {
            self.known[piece.slot()]
        }
    }

    /// The animals an opponent piece may be by C1 and C2 alone (before the
    /// bijection), among the hidden animals: the `allowed` sets of the
    /// rules text's determinization cases. A revealed piece gets its animal.
    #[must_use]
    pub fn allowed(&self, piece: PieceId) -> AnimalSet {
        if piece.owner() == self.player {
            return AnimalSet::only(self.own.animal(piece.slot()));
        }
        match self.known[piece.slot()] {
            Some(animal) => AnimalSet::only(animal),
            None => self.allowed[piece.slot()].intersection(self.hidden_animals()),
        }
    }

    /// The number of opponent setups consistent with everything observed.
    #[must_use]
    pub fn world_count(&self) -> u64 {
        self.worlds.count
    }

    /// For each hidden opponent piece, the fraction of consistent worlds in
    /// which it is each animal (indexed by [`Animal::index`]).
    #[must_use]
    pub fn marginals(&self) -> Vec<(PieceId, [f64; 8])> {
        let counts = self.worlds.matchings.counts();
        let total = self.worlds.count as f64;
        self.worlds
            .hidden_slots
            .iter()
            .zip(counts)
            .map(|(&slot, row)| (self.opponent_piece(slot), row.map(|n| n as f64 / total)))
            .collect()
    }

    /// Every consistent opponent setup, in a fixed order.
    #[must_use]
    pub fn consistent_layouts(&self) -> Vec<Layout> {
        let mut all = Vec::with_capacity(self.worlds.count as usize);
        self.worlds
            .matchings
            .for_each(|assignment| all.push(self.compose(assignment)));
        all
    }

    /// Whether `layout` (an opponent setup) fits everything observed.
    #[must_use]
    pub fn is_consistent(&self, layout: &Layout) -> bool {
        // A layout is a permutation, so once the known animals fit, the
        // hidden slots hold exactly the hidden animals: a bijection.
        (0..8).all(|slot| match self.known[slot] {
            Some(animal) => animal == layout.animal(slot),
            None => self.allowed[slot].contains(layout.animal(slot)),
        })
    }

    /// Draws an opponent setup uniformly among the consistent ones.
    pub fn sample_layout<R: Rng + ?Sized>(&self, rng: &mut R) -> Layout {
        let mut assignment = [Animal::Rat; 8];
        let hidden = self.worlds.hidden_slots.len();
        let found = self
            .worlds
            .matchings
            .sample_into(rng, &mut assignment[..hidden]);
        debug_assert!(found, "an information set always has a consistent world");
        self.compose(&assignment[..hidden])
    }

    /// The current position in the world where the opponent's setup is
    /// `theirs`, with the repetition history of that world.
    ///
    /// # Errors
    ///
    /// [`HiddenError::InconsistentLayout`] when `theirs` does not fit the
    /// observations (see [`HiddenInfoSet::is_consistent`]).
    pub fn world(&self, theirs: &Layout) -> Result<Jungle, HiddenError> {
        if self.is_consistent(theirs) {
            Ok(self.consistent_world(theirs))
        } else {
            Err(HiddenError::InconsistentLayout { layout: *theirs })
        }
    }

    /// [`HiddenInfoSet::world`] for a layout known to be consistent.
    fn consistent_world(&self, theirs: &Layout) -> Jungle {
        let mut layouts = [self.own; 2];
        layouts[self.player.opponent().index()] = *theirs;
        let mut world = self.position(&layouts, self.rules.rules);
        if self.rules.rules.repetition_draw {
            let count = self.positions.len();
            let history = self
                .positions
                .iter()
                .enumerate()
                .map(|(i, squares)| {
                    let plies_ago = count - 1 - i;
                    let side = if plies_ago.is_multiple_of(2) {
                        self.to_move
                    } else {
                        self.to_move.opponent()
                    };
                    hash_of(squares, side, &layouts)
                })
                .collect();
            world
                .set_history(history)
                .expect("the last position is the current one");
        }
        world
    }

    /// The current position with both sides' setups `layouts` (consistent
    /// with the observations) under `rules`, without history.
    fn position(&self, layouts: &[Layout; 2], rules: crate::Rules) -> Jungle {
        let pieces = (0..SQUARES).filter_map(|square| {
            let dense = self.ids[square];
            (dense != NO_PIECE).then(|| {
                let id = PieceId::from_dense(usize::from(dense));
                let animal = layouts[id.owner().index()].animal(id.slot());
                (
                    Square::from_index_unchecked(square as u8),
                    Piece::new(id.owner(), animal),
                )
            })
        });
        Jungle::from_pieces(pieces, self.to_move, self.clock, self.fullmove, rules)
            .expect("a consistent world is a valid position")
    }

    /// The position at the start of the game in the world where the
    /// opponent's setup is `theirs`: replaying the public moves from it
    /// reproduces every observation when `theirs` is consistent.
    #[must_use]
    pub fn initial_world(&self, theirs: &Layout) -> Jungle {
        let mut layouts = [self.own; 2];
        layouts[self.player.opponent().index()] = *theirs;
        initial_world(&self.rules, &layouts)
    }

    /// Reweights the consistent worlds by an opponent model (rules text
    /// 9.6): `w(world) ∝ Π_t P(opponent's move t | world)`, by replaying the
    /// public history in every consistent world. Costs one replay per
    /// world: use it when few worlds remain, or with a cheap model.
    #[must_use]
    pub fn weighted<M: OpponentModel + ?Sized>(&self, model: &M) -> WeightedInfoSet {
        let opponent = self.player.opponent();
        let layouts = self.consistent_layouts();
        let mut cumulative = Vec::with_capacity(layouts.len());
        let mut total = 0.0f64;
        for layout in &layouts {
            let mut world = self.initial_world(layout);
            let mut weight = 1.0f64;
            for observation in &self.log {
                if observation.mover == opponent {
                    weight *= model.move_weight(&world, observation.mv).max(0.0);
                }
                world.play(observation.mv);
            }
            if weight.is_finite() {
                total += weight;
            }
            cumulative.push(total);
        }
        if total <= 0.0 || !total.is_finite() {
            // The model rules out every world: fall back to uniform.
            cumulative = (1..=layouts.len()).map(|i| i as f64).collect();
        }
        WeightedInfoSet {
            info: self.clone(),
            layouts: Arc::new(layouts),
            cumulative: Arc::new(cumulative),
        }
    }

    fn opponent_piece(&self, slot: usize) -> PieceId {
        PieceId::from_slot(self.player.opponent(), slot).expect("slot in range")
    }

    /// The opponent's full setup from an assignment of the hidden slots.
    fn compose(&self, assignment: &[Animal]) -> Layout {
        let mut animals = [Animal::Rat; 8];
        for (slot, animal) in animals.iter_mut().enumerate() {
            if let Some(known) = self.known[slot] {
                *animal = known;
            }
        }
        for (&slot, &animal) in self.worlds.hidden_slots.iter().zip(assignment) {
            animals[slot] = animal;
        }
        Layout::new(animals).expect("known and hidden animals form a permutation")
    }

    /// The square of each dense piece id (`NO_PIECE` once removed).
    fn squares_of_ids(&self) -> [u8; 16] {
        let mut squares = [NO_PIECE; 16];
        for (square, &dense) in self.ids[..SQUARES].iter().enumerate() {
            if dense != NO_PIECE {
                squares[usize::from(dense)] = square as u8;
            }
        }
        squares
    }

    /// One consistent world, without draw rules: the public occupancy
    /// with this player's true animals. This player's legal moves are the
    /// same in every consistent world, and the moves of an opponent piece
    /// depend only on its own animal.
    fn skeleton(&self) -> Jungle {
        let first = self
            .worlds
            .matchings
            .first()
            .expect("an information set always has a consistent world");
        let mut layouts = [self.own; 2];
        layouts[self.player.opponent().index()] = self.compose(&first);
        self.position(&layouts, self.rules.rules.without_draws())
    }

    /// A den entered or a side wiped out: the result is public.
    fn public_decision(&self) -> Option<Outcome> {
        let mut occupied = [false; 2];
        let mut den_winner = None;
        for square in 0..SQUARES {
            let dense = self.ids[square];
            if dense == NO_PIECE {
                continue;
            }
            let owner = PieceId::from_dense(usize::from(dense)).owner();
            occupied[owner.index()] = true;
            if square as u8 == DEN[owner.opponent().index()] {
                den_winner = Some(owner);
            }
        }
        den_winner.map(Outcome::Win).or(match occupied {
            [false, false] => Some(Outcome::Draw),
            [false, true] => Some(Outcome::Win(Player::Second)),
            [true, false] => Some(Outcome::Win(Player::First)),
            [true, true] => None,
        })
    }

    /// Whether the public draw rules (clock, cap, repetition) have fired.
    fn public_draw(&self) -> bool {
        let rules = &self.rules.rules;
        let ply = 2 * u64::from(self.fullmove.saturating_sub(1)) + self.to_move.index() as u64;
        let repeated = rules.repetition_draw
            && self.positions.last().is_some_and(|current| {
                self.positions
                    .iter()
                    .rev()
                    .step_by(2)
                    .filter(|squares| *squares == current)
                    .count()
                    >= 3
            });
        (rules.no_capture_limit > 0 && self.clock >= rules.no_capture_limit)
            || (rules.max_plies > 0 && ply >= u64::from(rules.max_plies))
            || repeated
    }

    fn apply(&mut self, observation: &Observation) -> Result<(), String> {
        if self.outcome.is_some() {
            return Err("the game is already over".to_string());
        }
        let mover = self.to_move;
        if observation.mover != mover {
            return Err(format!(
                "the {} player moved, but the {mover} player is to move",
                observation.mover
            ));
        }
        let mv = observation.mv;
        if self.piece_id(mv.from()) != Some(observation.piece) {
            return Err(format!("{} is not on {}", observation.piece, mv.from()));
        }
        if observation.piece.owner() != mover {
            return Err(format!(
                "{} does not belong to the mover",
                observation.piece
            ));
        }
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(format!("{mv} is legal in no consistent world"));
        }
        let defender = self.piece_id(mv.to());
        match (defender, observation.attack) {
            (None, None) => {}
            (Some(on_square), Some(report)) if on_square == report.defender => {}
            _ => return Err(format!("the attack report of {mv} does not fit the board")),
        }
        let opponent = self.player.opponent();
        // C1: water means rat, a jump means lion or tiger.
        if mover == opponent {
            let slot = observation.piece.slot();
            if mv.to().is_water() {
                self.allowed[slot] = self.allowed[slot].intersection(AnimalSet::only(Animal::Rat));
            }
            if mv.is_jump() {
                self.allowed[slot] = self.allowed[slot]
                    .intersection(AnimalSet::only(Animal::Lion).with(Animal::Tiger));
            }
        }
        let removed = observation
            .attack
            .map(|report| removals(&self.rules, report.result));
        self.check_reveals(observation, removed)?;
        if let Some(report) = observation.attack {
            self.constrain_fight(observation, report.defender, report.result)?;
        }
        move_ids(&mut self.ids, mv, removed);
        let removal = removed.is_some_and(|(attacker, defender)| attacker || defender);
        self.clock = if removal {
            0
        } else {
            self.clock.saturating_add(1)
        };
        if mover == Player::Second {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.to_move = mover.opponent();
        if self.rules.rules.repetition_draw {
            if removal {
                self.positions.clear();
            }
            self.positions.push(self.squares_of_ids());
        }
        self.check_outcome(observation.outcome)?;
        self.outcome = observation.outcome;
        self.log.push(observation.clone());
        self.rebuild()
    }

    /// The revealed identities must be exactly those the reveal policy
    /// makes public, and fit what is known.
    fn check_reveals(
        &mut self,
        observation: &Observation,
        removed: Option<(bool, bool)>,
    ) -> Result<(), String> {
        let mut expected = Vec::new();
        if let (Some(report), Some((attacker_removed, defender_removed))) =
            (observation.attack, removed)
        {
            let both = self.rules.reveal == super::Reveal::Both;
            if both || attacker_removed {
                expected.push(observation.piece);
            }
            if both || defender_removed {
                expected.push(report.defender);
            }
        }
        let given: Vec<PieceId> = observation.revealed.iter().map(|&(id, _)| id).collect();
        if given != expected {
            return Err(format!(
                "revealed {given:?}, but the reveal policy makes {expected:?} public"
            ));
        }
        for &(id, animal) in &observation.revealed {
            if id.owner() == self.player {
                if self.own.animal(id.slot()) != animal {
                    return Err(format!("{id} revealed as the {animal}, but it is not"));
                }
                continue;
            }
            let slot = id.slot();
            match self.known[slot] {
                Some(known) if known == animal => {}
                Some(known) => {
                    return Err(format!(
                        "{id} revealed as the {animal}, but it is the {known}"
                    ));
                }
                None => {
                    if !self.allowed[slot].contains(animal) {
                        return Err(format!("{id} revealed as the {animal}, which it cannot be"));
                    }
                    if self.known.contains(&Some(animal)) {
                        return Err(format!("{id} revealed as the {animal}, already revealed"));
                    }
                    self.known[slot] = Some(animal);
                }
            }
        }
        Ok(())
    }

    /// C2: the opponent's fighter has an animal that gives the observed
    /// result against this player's (known) fighter.
    fn constrain_fight(
        &mut self,
        observation: &Observation,
        defender: PieceId,
        result: Fight,
    ) -> Result<(), String> {
        let mover = observation.mover;
        let mv = observation.mv;
        let (mine, theirs) = if mover == self.player {
            (observation.piece, defender)
        } else {
            (defender, observation.piece)
        };
        let my_animal = self.own.animal(mine.slot());
        let fight = |their_animal: Animal| {
            let (attacker, defender) = if mover == self.player {
                (my_animal, their_animal)
            } else {
                (their_animal, my_animal)
            };
            self.rules.rules.fight(
                mover,
                attacker,
                mv.from().index(),
                defender,
                mv.to().index(),
            )
        };
        let slot = theirs.slot();
        match self.known[slot] {
            Some(animal) => {
                if fight(animal) != Some(result) {
                    return Err(format!(
                        "{theirs} is the {animal}, which cannot give {result:?} against the {my_animal}"
                    ));
                }
            }
            None => {
                let fitting: AnimalSet = Animal::ALL
                    .into_iter()
                    .filter(|&animal| fight(animal) == Some(result))
                    .collect();
                self.allowed[slot] = self.allowed[slot].intersection(fitting);
            }
        }
        Ok(())
    }

    /// The announced result must agree with what the public position
    /// shows.
    fn check_outcome(&self, announced: Option<Outcome>) -> Result<(), String> {
        if let Some(decided) = self.public_decision() {
            return if announced == Some(decided) {
                Ok(())
            } else {
                Err(format!(
                    "the position is decided ({decided}), but {announced:?} was announced"
                ))
            };
        }
        match announced {
            // "No legal move" cannot happen in Hidden Jungle (see the type's
            // documentation), so a win needs a den entry or an extinction.
            Some(Outcome::Win(winner)) => Err(format!(
                "the {winner} player was announced the winner, but no den is entered and both sides have pieces"
            )),
            Some(Outcome::Draw) if self.public_draw() => Ok(()),
            Some(Outcome::Draw) => {
                Err("a draw was announced, but no draw rule applies".to_string())
            }
            None if self.public_draw() => {
                Err("a draw rule applies, but the game was announced to go on".to_string())
            }
            None => Ok(()),
        }
    }

    /// Recomputes the consistent worlds from the constraints.
    fn rebuild(&mut self) -> Result<(), String> {
        let hidden_slots: Vec<usize> = (0..8).filter(|&slot| self.known[slot].is_none()).collect();
        let animals = self.hidden_animals();
        let allowed: Vec<AnimalSet> = hidden_slots
            .iter()
            .map(|&slot| self.allowed[slot].intersection(animals))
            .collect();
        let matchings = Matchings::new(&allowed, animals)
            .ok_or_else(|| "as many animals as pieces must be hidden".to_string())?;
        let count = matchings.count();
        if count == 0 {
            return Err("no opponent setup is consistent with the observations".to_string());
        }
        let mut support = self
            .known
            .map(|known| known.map_or(AnimalSet::EMPTY, AnimalSet::only));
        for (&slot, row) in hidden_slots.iter().zip(matchings.counts()) {
            support[slot] = Animal::ALL
                .into_iter()
                .filter(|animal| row[animal.index()] > 0)
                .collect();
        }
        self.worlds = Worlds {
            hidden_slots,
            matchings,
            support,
            count,
        };
        Ok(())
    }
}

/// The hash of a position given by the square of each dense id.
fn hash_of(squares: &[u8; 16], to_move: Player, layouts: &[Layout; 2]) -> u64 {
    let mut hash = match to_move {
        Player::First => 0,
        Player::Second => SECOND_TO_MOVE_KEY,
    };
    for (dense, &square) in squares.iter().enumerate() {
        if square != NO_PIECE {
            let id = PieceId::from_dense(dense);
            let piece = Piece::new(id.owner(), layouts[id.owner().index()].animal(id.slot()));
            hash ^= PIECE_KEYS[usize::from(piece.code())][usize::from(square)];
        }
    }
    hash
}

impl InformationSet for HiddenInfoSet {
    type World = Jungle;

    fn player(&self) -> Player {
        self.player
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    /// This player's legal moves when it is to move (the same in every
    /// consistent world); otherwise every move the opponent has in some
    /// consistent world.
    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_some() {
            return;
        }
        let skeleton = self.skeleton();
        if self.to_move == self.player {
            skeleton.legal_moves(out);
            return;
        }
        let opponent = self.player.opponent();
        let squares = self.squares_of_ids();
        for slot in 0..8 {
            let square = squares[opponent.index() * 8 + slot];
            if square == NO_PIECE {
                continue;
            }
            let targets = self.worlds.support[slot].iter().fold(0, |targets, animal| {
                targets | skeleton.targets_as(opponent, square, animal)
            });
            out.extend(crate::board::squares_of(targets).map(|to| Move::from_indices(square, to)));
        }
    }

    fn sample_world<R: Rng + ?Sized>(&self, rng: &mut R) -> Jungle {
        self.consistent_world(&self.sample_layout(rng))
    }

    /// A move as the observer sees it (rules text 9.2): the square a piece
    /// left and the square it went to, not which animal moved. A [`Move`]
    /// is exactly that pair, so every move is its own observation: two
    /// worlds in which different animals make the same move share one
    /// node of an information-set tree.
    fn observed_move(&self, _world: &Jungle, mv: Move) -> Move {
        mv
    }
}

/// An opponent model for reweighting worlds (rules text 9.6).
pub trait OpponentModel: Send + Sync {
    /// A weight proportional to the probability that the player to move in
    /// `world` chooses `mv` (one of its legal moves there). Non-negative.
    fn move_weight(&self, world: &Jungle, mv: Move) -> f64;
}

/// The opponent plays move `m` with probability proportional to
/// `exp(v(m) / temperature)`, where `v(m)` is the evaluator's value of the
/// position after `m` for the player who made it (a softmax over a one-ply
/// evaluation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoftmaxOpponent<E> {
    /// The evaluation.
    pub evaluator: E,
    /// Lower is greedier; must be positive.
    pub temperature: f64,
}

impl<E: Evaluator<Jungle>> OpponentModel for SoftmaxOpponent<E> {
    fn move_weight(&self, world: &Jungle, mv: Move) -> f64 {
        let mut moves = Vec::new();
        world.legal_moves(&mut moves);
        let values: Vec<f64> = moves
            .iter()
            .map(|&candidate| {
                let mut child = world.clone();
                child.play(candidate);
                let value = f64::from(self.evaluator.value(&child));
                if child.to_move() == world.to_move() {
                    value
                } else {
                    -value
                }
            })
            .collect();
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = values
            .iter()
            .map(|value| ((value - best) / self.temperature).exp())
            .sum();
        moves
            .iter()
            .position(|&candidate| candidate == mv)
            .map_or(0.0, |i| {
                ((values[i] - best) / self.temperature).exp() / total
            })
    }
}

/// A [`HiddenInfoSet`] whose worlds are drawn with weights from an
/// [`OpponentModel`] instead of uniformly. Built by
/// [`HiddenInfoSet::weighted`].
#[derive(Clone, Debug)]
pub struct WeightedInfoSet {
    info: HiddenInfoSet,
    layouts: Arc<Vec<Layout>>,
    cumulative: Arc<Vec<f64>>,
}

impl WeightedInfoSet {
    /// The underlying information set.
    #[must_use]
    pub fn info(&self) -> &HiddenInfoSet {
        &self.info
    }

    /// Every consistent opponent setup with its normalized weight.
    #[must_use]
    pub fn weights(&self) -> Vec<(Layout, f64)> {
        let total = self.cumulative.last().copied().unwrap_or(1.0);
        let mut previous = 0.0;
        self.layouts
            .iter()
            .zip(self.cumulative.iter())
            .map(|(layout, &cumulative)| {
                let weight = (cumulative - previous) / total;
                previous = cumulative;
                (*layout, weight)
            })
            .collect()
    }

    /// Draws an opponent setup with probability proportional to its weight.
    pub fn sample_layout<R: Rng + ?Sized>(&self, rng: &mut R) -> Layout {
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let pick = rng.random::<f64>() * total;
        let index = self
            .cumulative
            .partition_point(|&cumulative| cumulative <= pick)
            .min(self.layouts.len() - 1);
        self.layouts[index]
    }
}

impl InformationSet for WeightedInfoSet {
    type World = Jungle;

    fn player(&self) -> Player {
        self.info.player
    }

    fn to_move(&self) -> Player {
        self.info.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.info.legal_moves(out);
    }

    fn sample_world<R: Rng + ?Sized>(&self, rng: &mut R) -> Jungle {
        self.info.consistent_world(&self.sample_layout(rng))
    }
}

impl WorldEnumeration for HiddenInfoSet {
    fn world_count(&self) -> u64 {
        self.worlds.count
    }

    /// Every consistent world, in the order of
    /// [`HiddenInfoSet::consistent_layouts`], each with probability
    /// `1 / world_count()`.
    fn worlds(&self) -> Vec<(Jungle, f64)> {
        let layouts = self.consistent_layouts();
        let weight = 1.0 / layouts.len() as f64;
        layouts
            .iter()
            .map(|layout| (self.consistent_world(layout), weight))
            .collect()
    }
}

impl HiddenInfoSet {
    /// The opponent setup a player assumes who ignores what it has not
    /// seen: the standard layout, as far as the observations allow. Among
    /// the consistent setups, the one that gives the most pieces their
    /// standard animal (the first such in the order of
    /// [`HiddenInfoSet::consistent_layouts`]). Nothing revealed, it is the
    /// standard layout.
    #[must_use]
    pub fn naive_layout(&self) -> Layout {
        let standard = Layout::standard(self.player.opponent());
        let mut best: Option<(usize, Vec<Animal>)> = None;
        self.worlds.matchings.for_each(|assignment| {
            let agreeing = self
                .worlds
                .hidden_slots
                .iter()
                .zip(assignment)
                .filter(|&(&slot, &animal)| standard.animal(slot) == animal)
                .count();
            if best.as_ref().is_none_or(|(most, _)| agreeing > *most) {
                best = Some((agreeing, assignment.to_vec()));
            }
        });
        let assignment = best.map(|(_, assignment)| assignment).unwrap_or_default();
        self.compose(&assignment)
    }
}

impl NaiveWorld for HiddenInfoSet {
    /// The current position with the opponent's setup
    /// [`HiddenInfoSet::naive_layout`].
    fn naive_world(&self) -> Jungle {
        self.consistent_world(&self.naive_layout())
    }
}

impl WorldEnumeration for WeightedInfoSet {
    fn world_count(&self) -> u64 {
        self.layouts.len() as u64
    }

    /// Every consistent world of positive weight, with its normalized
    /// weight.
    fn worlds(&self) -> Vec<(Jungle, f64)> {
        self.weights()
            .into_iter()
            .filter(|&(_, weight)| weight > 0.0)
            .map(|(layout, weight)| (self.info.consistent_world(&layout), weight))
            .collect()
    }
}

impl NaiveWorld for WeightedInfoSet {
    fn naive_world(&self) -> Jungle {
        self.info.naive_world()
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    //! An information set serializes as what it was built from: the
    //! player, the rules, its own setup and the public observations.

    use super::*;

    #[derive(serde::Serialize, serde::Deserialize)]
    struct InfoSetRepr {
        player: Player,
        rules: HiddenRules,
        own: Layout,
        observations: Vec<Observation>,
    }

    impl serde::Serialize for HiddenInfoSet {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            InfoSetRepr {
                player: self.player,
                rules: self.rules,
                own: self.own,
                observations: self.log.clone(),
            }
            .serialize(serializer)
        }
    }

    impl<'de> serde::Deserialize<'de> for HiddenInfoSet {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let repr = InfoSetRepr::deserialize(deserializer)?;
            HiddenInfoSet::from_observations(repr.player, repr.rules, repr.own, &repr.observations)
                .map_err(serde::de::Error::custom)
        }
    }
}
