//! Nim, with an optional extra-turn rule so that turns do not always
//! alternate.

use std::fmt;
use std::str::FromStr;

use crate::zobrist;
use crate::{ActionSpace, ColorFlip, Game, Outcome, Player, PositionHash};

/// The most heaps a [`Nim`] position can have.
pub const MAX_HEAPS: usize = 8;
/// The most objects a heap can hold.
pub const MAX_HEAP_SIZE: u8 = 15;

const HEAP_KEYS: [u64; MAX_HEAPS * 16] = zobrist::keys(0x0417_0000_0000_0001);
const SECOND_TO_MOVE_KEY: u64 = zobrist::mix64(0x0417_0000_0000_0002);
const EXTRA_TURN_KEY: u64 = zobrist::mix64(0x0417_0000_0000_0003);

/// A Nim move: take `take` objects (at least one) from heap `heap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NimMove {
    /// The heap, from 0.
    pub heap: u8,
    /// How many objects to take, at least 1.
    pub take: u8,
}

/// Nim: players take any positive number of objects from one heap; whoever
/// takes the last object wins (normal play).
///
/// Its solution is known (Bouton 1901): the player to move wins exactly when
/// the XOR of the heap sizes is non-zero, which makes it a check for exact
/// searchers.
///
/// With the **extra-turn rule**, a move that empties a heap while other
/// objects remain gives the mover another turn. Turns then do not alternate,
/// which exposes searchers that assume they do.
///
/// Text form: heap sizes separated by commas, the side to move (`1` or
/// `2`), and `extra` when the extra-turn rule is on: `"3,4,5 1"`,
/// `"3,0,5 2 extra"`. With the `serde` feature a position serializes as
/// this text and deserializes through [`FromStr`], so serde refuses exactly
/// what the parser refuses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "String")
)]
pub struct Nim {
    heaps: [u8; MAX_HEAPS],
    num_heaps: u8,
    to_move: Player,
    extra_turn: bool,
    hash: u64,
}

impl Nim {
    /// Normal-play Nim with the given heaps, the first player to move.
    ///
    /// # Panics
    ///
    /// If there are no heaps or more than [`MAX_HEAPS`], or a heap holds
    /// more than [`MAX_HEAP_SIZE`] objects. Use [`Nim::try_new`] or
    /// [`FromStr`] for unchecked input.
    pub fn new(heaps: &[u8]) -> Self {
        Nim::build(heaps, Player::First, false).expect("heaps out of range")
    }

    /// Nim with the extra-turn rule.
    ///
    /// # Panics
    ///
    /// As [`Nim::new`].
    pub fn with_extra_turns(heaps: &[u8]) -> Self {
        Nim::build(heaps, Player::First, true).expect("heaps out of range")
    }

    /// Nim with the given heaps, the first player to move, and the
    /// extra-turn rule if `extra_turn`: [`Nim::new`] and
    /// [`Nim::with_extra_turns`] without the panic.
    ///
    /// # Errors
    ///
    /// [`ParseNimError::HeapCount`] unless there are 1 to [`MAX_HEAPS`]
    /// heaps, [`ParseNimError::HeapSize`] for a heap above
    /// [`MAX_HEAP_SIZE`].
    pub fn try_new(heaps: &[u8], extra_turn: bool) -> Result<Self, ParseNimError> {
        Nim::build(heaps, Player::First, extra_turn)
    }

    fn build(heaps: &[u8], to_move: Player, extra_turn: bool) -> Result<Self, ParseNimError> {
        if heaps.is_empty() || heaps.len() > MAX_HEAPS {
            return Err(ParseNimError::HeapCount(heaps.len()));
        }
        if let Some(&size) = heaps.iter().find(|&&size| size > MAX_HEAP_SIZE) {
            return Err(ParseNimError::HeapSize(size.to_string()));
        }
        let mut game = Nim {
            heaps: [0; MAX_HEAPS],
            num_heaps: heaps.len() as u8,
            to_move,
            extra_turn,
            hash: 0,
        };
        game.heaps[..heaps.len()].copy_from_slice(heaps);
        game.hash = game.hash_from_scratch();
        Ok(game)
    }

    /// The heap sizes.
    pub fn heaps(&self) -> &[u8] {
        &self.heaps[..usize::from(self.num_heaps)]
    }

    /// Whether the extra-turn rule is on.
    pub fn extra_turn(&self) -> bool {
        self.extra_turn
    }

    /// The winner of normal-play Nim (no extra turns) with perfect play,
    /// by Bouton's theorem.
    pub fn bouton_winner(&self) -> Player {
        let xor = self.heaps().iter().fold(0, |acc, &size| acc ^ size);
        if xor == 0 {
            self.to_move.opponent()
        } else {
            self.to_move
        }
    }

    fn heap_key(heap: usize, size: u8) -> u64 {
        HEAP_KEYS[heap * 16 + usize::from(size)]
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut hash = 0;
        if self.to_move == Player::Second {
            hash ^= SECOND_TO_MOVE_KEY;
        }
        if self.extra_turn {
            hash ^= EXTRA_TURN_KEY;
        }
        for (heap, &size) in self.heaps().iter().enumerate() {
            hash ^= Nim::heap_key(heap, size);
        }
        hash
    }
}

impl Game for Nim {
    type Move = NimMove;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<NimMove>) {
        out.clear();
        for (heap, &size) in self.heaps().iter().enumerate() {
            out.extend((1..=size).map(|take| NimMove {
                heap: heap as u8,
                take,
            }));
        }
    }

    fn play(&mut self, mv: NimMove) {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} in {self}");
        let heap = usize::from(mv.heap);
        let old = self.heaps[heap];
        let new = old - mv.take;
        self.heaps[heap] = new;
        self.hash ^= Nim::heap_key(heap, old) ^ Nim::heap_key(heap, new);
        let again = self.extra_turn && new == 0 && self.heaps().iter().any(|&size| size > 0);
        if !again {
            self.to_move = self.to_move.opponent();
            self.hash ^= SECOND_TO_MOVE_KEY;
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        // The last mover took the last object; the side to move has lost.
        self.heaps()
            .iter()
            .all(|&size| size == 0)
            .then(|| Outcome::Win(self.to_move.opponent()))
    }

    fn is_legal(&self, mv: NimMove) -> bool {
        usize::from(mv.heap) < self.heaps().len()
            && mv.take >= 1
            && mv.take <= self.heaps[usize::from(mv.heap)]
    }
}

impl ActionSpace for Nim {
    fn num_actions(&self) -> usize {
        MAX_HEAPS * usize::from(MAX_HEAP_SIZE)
    }

    fn action_index(&self, mv: NimMove) -> usize {
        usize::from(mv.heap) * usize::from(MAX_HEAP_SIZE) + usize::from(mv.take) - 1
    }

    fn action(&self, index: usize) -> Option<NimMove> {
        (index < self.num_actions()).then(|| NimMove {
            heap: (index / usize::from(MAX_HEAP_SIZE)) as u8,
            take: (index % usize::from(MAX_HEAP_SIZE)) as u8 + 1,
        })
    }
}

impl PositionHash for Nim {
    fn position_hash(&self) -> u64 {
        self.hash
    }
}

impl ColorFlip for Nim {
    fn color_flipped(&self) -> Self {
        let mut flipped = self.clone();
        flipped.to_move = self.to_move.opponent();
        flipped.hash ^= SECOND_TO_MOVE_KEY;
        flipped
    }

    fn flip_move(mv: NimMove) -> NimMove {
        mv
    }
}

impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let heaps: Vec<String> = self.heaps().iter().map(u8::to_string).collect();
        let side = if self.to_move == Player::First { 1 } else { 2 };
        write!(f, "{} {side}", heaps.join(","))?;
        if self.extra_turn {
            f.write_str(" extra")?;
        }
        Ok(())
    }
}

/// Why a Nim position string was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseNimError {
    /// Not `heaps side [extra]`.
    #[error("expected heaps, side and optional rule (like \"3,4,5 1 extra\"), got {0:?}")]
    Shape(String),
    /// Too few or too many heaps.
    #[error("expected 1 to {MAX_HEAPS} heaps, got {0}")]
    HeapCount(usize),
    /// A heap size that is not a number from 0 to 15.
    #[error("heap size {0:?} is not a number from 0 to {MAX_HEAP_SIZE}")]
    HeapSize(String),
    /// A side other than `1` or `2`.
    #[error("side to move {0:?} is not 1 or 2")]
    Side(String),
    /// A rule other than `extra`.
    #[error("unknown rule {0:?}; the only rule is \"extra\"")]
    Rule(String),
}

impl FromStr for Nim {
    type Err = ParseNimError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (heaps, side, rule) = match fields.as_slice() {
            [heaps, side] => (heaps, side, None),
            [heaps, side, rule] => (heaps, side, Some(rule)),
            _ => return Err(ParseNimError::Shape(text.to_string())),
        };
        let heaps = heaps
            .split(',')
            .map(|size| {
                size.parse::<u8>()
                    .map_err(|_| ParseNimError::HeapSize(size.to_string()))
            })
            .collect::<Result<Vec<u8>, _>>()?;
        let to_move = match *side {
            "1" => Player::First,
            "2" => Player::Second,
            other => return Err(ParseNimError::Side(other.to_string())),
        };
        let extra_turn = match rule {
            None => false,
            Some(&"extra") => true,
            Some(other) => return Err(ParseNimError::Rule(other.to_string())),
        };
        Nim::build(&heaps, to_move, extra_turn)
    }
}

impl TryFrom<String> for Nim {
    type Error = ParseNimError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<Nim> for String {
    fn from(game: Nim) -> String {
        game.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_turn_keeps_the_mover() {
        let mut game = Nim::with_extra_turns(&[1, 2]);
        game.play(NimMove { heap: 0, take: 1 });
        assert_eq!(game.to_move(), Player::First);
        game.play(NimMove { heap: 1, take: 1 });
        assert_eq!(game.to_move(), Player::Second);
        game.play(NimMove { heap: 1, take: 1 });
        assert_eq!(game.outcome(), Some(Outcome::Win(Player::Second)));
    }

    #[test]
    fn text_round_trip_and_errors() {
        let game: Nim = "3,0,5 2 extra".parse().unwrap();
        assert_eq!(game.to_string(), "3,0,5 2 extra");
        assert_eq!(game.position_hash(), game.hash_from_scratch());
        assert_eq!(
            "3,x 1".parse::<Nim>(),
            Err(ParseNimError::HeapSize("x".to_string()))
        );
        assert_eq!(
            "3,16 1".parse::<Nim>(),
            Err(ParseNimError::HeapSize("16".to_string()))
        );
        assert_eq!(
            "3 3".parse::<Nim>(),
            Err(ParseNimError::Side("3".to_string()))
        );
        assert_eq!(
            "3 1 misere".parse::<Nim>(),
            Err(ParseNimError::Rule("misere".to_string()))
        );
        assert!(matches!(
            "1,1,1,1,1,1,1,1,1 1".parse::<Nim>(),
            Err(ParseNimError::HeapCount(9))
        ));
        assert_eq!(Nim::try_new(&[], false), Err(ParseNimError::HeapCount(0)));
        assert_eq!(
            Nim::try_new(&[3, 16], true),
            Err(ParseNimError::HeapSize("16".to_string()))
        );
        assert_eq!(
            Nim::try_new(&[3, 4], true),
            Ok(Nim::with_extra_turns(&[3, 4]))
        );
    }
}
