//! The eight animals and pieces (an animal of one side).

use std::fmt;

use game_traits::Player;

/// One of the eight animals, weakest first (default ranks 1 to 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Animal {
    /// Rat (mouse), `R`: rank 1; swims; takes the elephant.
    Rat,
    /// Cat, `C`: rank 2.
    Cat,
    /// Dog, `D`: rank 3 (4 with `dog_over_wolf`).
    Dog,
    /// Wolf, `W`: rank 4 (3 with `dog_over_wolf`).
    Wolf,
    /// Leopard (panther), `P`: rank 5.
    Leopard,
    /// Tiger, `T`: rank 6; jumps the river.
    Tiger,
    /// Lion, `L`: rank 7; jumps the river.
    Lion,
    /// Elephant, `E`: rank 8; cannot take the rat.
    Elephant,
}

impl Animal {
    /// All eight animals, weakest first.
    pub const ALL: [Animal; 8] = [
        Animal::Rat,
        Animal::Cat,
        Animal::Dog,
        Animal::Wolf,
        Animal::Leopard,
        Animal::Tiger,
        Animal::Lion,
        Animal::Elephant,
    ];

    /// `0` (rat) to `7` (elephant).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The animal with the given index (`0..8`).
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Animal> {
        if index < 8 {
            Some(Animal::ALL[index])
        } else {
            None
        }
    }

    /// The uppercase letter of the position string: `R C D W P T L E`.
    #[must_use]
    pub const fn letter(self) -> char {
        ['R', 'C', 'D', 'W', 'P', 'T', 'L', 'E'][self as usize]
    }

    /// The animal written with `letter` (either case).
    #[must_use]
    pub fn from_letter(letter: char) -> Option<Animal> {
        let upper = letter.to_ascii_uppercase();
        Animal::ALL
            .into_iter()
            .find(|animal| animal.letter() == upper)
    }

    /// Whether this animal can jump the river (lion and tiger).
    #[inline]
    #[must_use]
    pub const fn jumps(self) -> bool {
        matches!(self, Animal::Tiger | Animal::Lion)
    }

    /// The bit of this animal in a set of animals (a `u8` mask).
    #[inline]
    #[must_use]
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for Animal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Animal::Rat => "rat",
            Animal::Cat => "cat",
            Animal::Dog => "dog",
            Animal::Wolf => "wolf",
            Animal::Leopard => "leopard",
            Animal::Tiger => "tiger",
            Animal::Lion => "lion",
            Animal::Elephant => "elephant",
        })
    }
}

/// An animal of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Piece {
    /// Whose piece it is.
    pub owner: Player,
    /// Which animal it is.
    pub animal: Animal,
}

impl Piece {
    /// The piece of `owner` that is `animal`.
    #[must_use]
    pub const fn new(owner: Player, animal: Animal) -> Piece {
        Piece { owner, animal }
    }

    /// Its letter in the position string: uppercase for the first player,
    /// lowercase for the second.
    #[must_use]
    pub const fn letter(self) -> char {
        let upper = self.animal.letter();
        match self.owner {
            Player::First => upper,
            Player::Second => upper.to_ascii_lowercase(),
        }
    }

    /// The piece written `letter`, if it names one.
    #[must_use]
    pub fn from_letter(letter: char) -> Option<Piece> {
        let animal = Animal::from_letter(letter)?;
        let owner = if letter.is_ascii_uppercase() {
            Player::First
        } else {
            Player::Second
        };
        Some(Piece { owner, animal })
    }

    /// The board code: `1..=8` for the first player's animals, `9..=16` for
    /// the second's (0 is an empty square).
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        1 + (self.owner.index() as u8) * 8 + self.animal as u8
    }

    /// The piece with board code `code` (`1..=16`).
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Piece {
        debug_assert!(code >= 1 && code <= 16);
        let owner = if code > 8 {
            Player::Second
        } else {
            Player::First
        };
        Piece {
            owner,
            animal: Animal::ALL[((code - 1) % 8) as usize],
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A set of animals (bit `i` is [`Animal::ALL`]`[i]`), printed as letters.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AnimalSet(pub u8);

impl AnimalSet {
    /// No animal.
    pub const EMPTY: AnimalSet = AnimalSet(0);
    /// All eight animals.
    pub const ALL: AnimalSet = AnimalSet(0xff);

    /// The set holding only `animal`.
    #[must_use]
    pub const fn only(animal: Animal) -> AnimalSet {
        AnimalSet(animal.bit())
    }

    /// Whether `animal` is in the set.
    #[must_use]
    pub const fn contains(self, animal: Animal) -> bool {
        self.0 & animal.bit() != 0
    }

    /// The number of animals in the set.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The animals of both sets.
    #[must_use]
    pub const fn intersection(self, other: AnimalSet) -> AnimalSet {
        AnimalSet(self.0 & other.0)
    }

    /// The set with `animal` added.
    #[must_use]
    pub const fn with(self, animal: Animal) -> AnimalSet {
        AnimalSet(self.0 | animal.bit())
    }

    /// The set with `animal` removed.
    #[must_use]
    pub const fn without(self, animal: Animal) -> AnimalSet {
        AnimalSet(self.0 & !animal.bit())
    }

    /// The animals of the set, weakest first.
    pub fn iter(self) -> impl Iterator<Item = Animal> {
        Animal::ALL
            .into_iter()
            .filter(move |animal| self.contains(*animal))
    }

    /// The set written as letters (`"RCDWPTLE"` order), e.g. `"TL"`.
    ///
    /// # Errors
    ///
    /// Returns the first character that is not an animal letter.
    pub fn from_letters(letters: &str) -> Result<AnimalSet, char> {
        letters.chars().try_fold(AnimalSet::EMPTY, |set, letter| {
            Animal::from_letter(letter)
                .map(|animal| set.with(animal))
                .ok_or(letter)
        })
    }
}

impl FromIterator<Animal> for AnimalSet {
    fn from_iter<I: IntoIterator<Item = Animal>>(iter: I) -> Self {
        iter.into_iter().fold(AnimalSet::EMPTY, AnimalSet::with)
    }
}

impl fmt::Display for AnimalSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.iter()
            .try_for_each(|animal| write!(f, "{}", animal.letter()))
    }
}

impl fmt::Debug for AnimalSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}
