//! Pattern evaluation in the manner of Buro's Logistello (and of Edax and
//! Egaroucid after it): the board is cut into patterns, lines and corner
//! blocks; the configuration of each pattern (every square empty, the
//! mover's or the opponent's) indexes a weight, one table per game phase,
//! and the value is the sum of the weights in discs.
//!
//! Each of the eleven [shapes](PATTERN_SHAPES) is placed in all eight
//! orientations of the board (the same ordered squares once), so the sum
//! is invariant under the board's symmetries by construction, and all the
//! placements of a shape share its table. The phase is the number of empty
//! squares, cut into [`PatternWeights::phases`] equal ranges.
//!
//! The weights are fitted by [`PatternTrainer`] (least squares by
//! gradient descent) on positions labelled with their exact or searched
//! score, and stored in a small binary format ([`PatternWeights::to_bytes`])
//! with a version and a checksum.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use game_traits::{Evaluator, FNV1A_64_OFFSET, Game, PolicyEvaluator, Range, fnv1a_64};

use crate::eval::exact_value;
use crate::{Board, ConfigError, Move, Square, Symmetry};

/// The shapes of the pattern set, by name and squares (column, row; `a1`
/// is `(0, 0)`) in one orientation.
pub const PATTERN_SHAPES: [(&str, &[(u8, u8)]); 11] = [
    (
        "edge+2x",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
            (6, 0),
            (7, 0),
            (1, 1),
            (6, 1),
        ],
    ),
    (
        "corner3x3",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ],
    ),
    (
        "corner2x5",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
        ],
    ),
    (
        "row2",
        &[
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
        ],
    ),
    (
        "row3",
        &[
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 2),
            (6, 2),
            (7, 2),
        ],
    ),
    (
        "row4",
        &[
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
            (4, 3),
            (5, 3),
            (6, 3),
            (7, 3),
        ],
    ),
    (
        "diagonal8",
        &[
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
        ],
    ),
    (
        "diagonal7",
        &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    ),
    (
        "diagonal6",
        &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)],
    ),
    ("diagonal5", &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)]),
    ("diagonal4", &[(4, 0), (5, 1), (6, 2), (7, 3)]),
];

/// The most squares of a shape.
const MAX_SQUARES: usize = 10;

/// One placement of a shape: where its table starts in a phase's weights
/// and its squares, most significant ternary digit first.
#[derive(Clone, Copy, Debug)]
struct Placement {
    offset: u32,
    len: u8,
    squares: [u8; MAX_SQUARES],
}

/// Every placement of every shape, and the size of one phase's table.
#[derive(Debug)]
struct PatternSet {
    placements: Vec<Placement>,
    /// Where the mobility tables start in a phase's weights: the mover's
    /// move count (capped at [`MOBILITY_CAP`]), then the opponent's.
    mobility_offset: u32,
    /// Weights of one phase: every shape's table, the two mobility
    /// tables, then the phase's bias.
    per_phase: usize,
    /// `powers[s][p]`: the weight of square `s`'s ternary digit in
    /// placement `p`'s index (a power of 3; 0 where `p` misses `s`).
    powers: Box<[[u16; MAX_FEATURES]; 64]>,
}

fn pattern_set() -> &'static PatternSet {
    static SET: OnceLock<PatternSet> = OnceLock::new();
    SET.get_or_init(|| {
        let mut placements: Vec<Placement> = Vec::new();
        let mut offset = 0usize;
        for (_, squares) in PATTERN_SHAPES {
            let mut seen: Vec<[u8; MAX_SQUARES]> = Vec::new();
            for symmetry in Symmetry::ALL {
                let mut mapped = [0u8; MAX_SQUARES];
                for (slot, &(col, row)) in mapped.iter_mut().zip(squares) {
                    let square = Square::from_coords(usize::from(col), usize::from(row))
                        .expect("shape squares are on the board");
                    *slot = symmetry.apply_square(square).index() as u8;
                }
                if !seen.contains(&mapped) {
                    seen.push(mapped);
                    placements.push(Placement {
                        offset: offset as u32,
                        len: squares.len() as u8,
                        squares: mapped,
                    });
                }
            }
            offset += 3usize.pow(squares.len() as u32);
        }
        let mut powers = Box::new([[0u16; MAX_FEATURES]; 64]);
        for (index, placement) in placements.iter().enumerate() {
            let len = usize::from(placement.len);
            for (digit, &square) in placement.squares[..len].iter().enumerate() {
                // A placement's index is below 3^10, so it fits a u16.
                powers[usize::from(square)][index] = 3u16.pow((len - 1 - digit) as u32);
            }
        }
        PatternSet {
            placements,
            mobility_offset: offset as u32,
            per_phase: offset + 2 * MOBILITY_ENTRIES + 1,
            powers,
        }
    })
}

/// Terms of an evaluation besides the placements: two mobility entries
/// and the bias.
const TERMS_BESIDES_PLACEMENTS: usize = 3;

/// Move counts from which the mobility tables share one entry.
const MOBILITY_CAP: u32 = 31;
const MOBILITY_ENTRIES: usize = MOBILITY_CAP as usize + 1;

/// The feature indices of `board` within one phase's table (the
/// placements, the two mobility entries, the bias last), written into
/// `out`; returns how many.
///
/// Disc by disc rather than placement by placement: each disc adds its
/// square's powers to every placement at once (a row of the `powers`
/// table, added as vectors), the mover's discs once and the opponent's
/// twice, so empty squares cost nothing.
#[inline(always)]
fn features(board: &Board, out: &mut [u32; MAX_FEATURES]) -> usize {
    let mobility = mobility_entries(board.player(), board.opponent());
    features_with_mobility(board, mobility, out)
}

/// [`features`] with the mobility entries already known (a caller that
/// computed the move counts for its own use does not compute them again).
#[inline(always)]
fn features_with_mobility(
    board: &Board,
    [own, theirs]: [u32; 2],
    out: &mut [u32; MAX_FEATURES],
) -> usize {
    let set = pattern_set();
    let sums = [board.player(), board.opponent()].map(|discs| {
        let mut sum = [0u16; MAX_FEATURES];
        let mut rest = discs;
        while rest != 0 {
            let powers = &set.powers[rest.trailing_zeros() as usize];
            rest &= rest - 1;
            for (total, &power) in sum.iter_mut().zip(powers) {
                *total += power;
            }
        }
        sum
    });
    let count = set.placements.len();
    for (index, placement) in set.placements.iter().enumerate() {
        out[index] = placement.offset + u32::from(sums[0][index]) + 2 * u32::from(sums[1][index]);
    }
    out[count] = set.mobility_offset + own;
    out[count + 1] = set.mobility_offset + MOBILITY_ENTRIES as u32 + theirs;
    out[count + 2] = (set.per_phase - 1) as u32;
    count + 3
}

/// The mobility entries of a position: the mover's and the opponent's
/// move counts, capped.
#[inline(always)]
fn mobility_entries(player: u64, opponent: u64) -> [u32; 2] {
    capped_mobility(
        crate::movegen::mobility(player, opponent),
        crate::movegen::mobility(opponent, player),
    )
}

/// The mobility entries of the moves `own` and `theirs` (as bitboards).
#[inline(always)]
fn capped_mobility(own: u64, theirs: u64) -> [u32; 2] {
    [
        own.count_ones().min(MOBILITY_CAP),
        theirs.count_ones().min(MOBILITY_CAP),
    ]
}

/// The sum of `weight(index)` over the features of `board`, with indices
/// into a table of `phases` phases (its phase's block).
#[inline(always)]
fn sum_features<T: std::iter::Sum>(board: &Board, phases: usize, weight: impl Fn(usize) -> T) -> T {
    let mobility = mobility_entries(board.player(), board.opponent());
    sum_features_with_mobility(board, phases, mobility, weight)
}

/// [`sum_features`] with the mobility entries already known.
#[inline(always)]
fn sum_features_with_mobility<T: std::iter::Sum>(
    board: &Board,
    phases: usize,
    mobility: [u32; 2],
    weight: impl Fn(usize) -> T,
) -> T {
    let mut indices = [0u32; MAX_FEATURES];
    let count = features_with_mobility(board, mobility, &mut indices);
    let base = phase_of(board.empty_count(), phases) * pattern_set().per_phase;
    indices[..count]
        .iter()
        .map(|&index| weight(base + index as usize))
        .sum()
}

/// The sum of the `i16` weights (of `phases` phases) of `board`'s
/// features, in units of `1 / WEIGHT_SCALE` discs: what
/// [`dispatch::pattern_sum`](crate::dispatch) compiles once per
/// instruction set.
#[inline(always)]
pub(crate) fn weighted_sum(
    weights: &[i16],
    phases: usize,
    board: &Board,
    mobility: [u32; 2],
) -> i32 {
    sum_features_with_mobility(board, phases, mobility, |index| i32::from(weights[index]))
}

/// Room for the features of one position (placements and the bias).
const MAX_FEATURES: usize = 96;

/// The phase of a position with `empties` empty squares among `phases`.
fn phase_of(empties: u32, phases: usize) -> usize {
    let empties = empties.clamp(1, 60) as usize;
    ((empties - 1) * phases / 60).min(phases - 1)
}

/// Weights are stored as `i16` in units of `1 / WEIGHT_SCALE` discs.
pub const WEIGHT_SCALE: f32 = 128.0;

const MAGIC: &[u8; 8] = b"OTHPATW\0";

/// The format version [`PatternWeights::to_bytes`] writes and
/// [`PatternWeights::from_bytes`] reads.
pub const WEIGHTS_FORMAT_VERSION: u32 = 2;

/// The most phases a weights file may have.
pub const MAX_PHASES: usize = 60;

/// What was wrong with a pattern weights file.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    /// The file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The file does not start with the pattern-weights magic bytes.
    #[error("not a pattern weights file (it does not start with \"OTHPATW\")")]
    NotWeights,
    /// A version this library does not read.
    #[error("weights format version {found}, this library reads version {WEIGHTS_FORMAT_VERSION}")]
    Version {
        /// The file's version.
        found: u32,
    },
    /// A phase count of zero or above [`MAX_PHASES`].
    #[error("{found} phases, expected 1 to {MAX_PHASES}")]
    Phases {
        /// The file's phase count.
        found: u32,
    },
    /// Weights for another pattern set.
    #[error("{found} weights a phase, this pattern set has {expected}")]
    PatternSet {
        /// The file's count.
        found: u32,
        /// This library's.
        expected: usize,
    },
    /// The file is shorter or longer than its header says.
    #[error("the file has {found} bytes, its header says {expected}")]
    Length {
        /// Bytes found.
        found: usize,
        /// Bytes the header implies.
        expected: usize,
    },
    /// The contents do not match the stored checksum.
    #[error("checksum mismatch: stored {stored:016x}, computed {computed:016x}")]
    Checksum {
        /// The checksum in the file.
        stored: u64,
        /// The checksum of the contents.
        computed: u64,
    },
}

/// The weights of the pattern set, per phase, in fixed point
/// ([`WEIGHT_SCALE`]).
#[derive(Clone, PartialEq, Eq)]
pub struct PatternWeights {
    phases: usize,
    weights: Vec<i16>,
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternWeights")
            .field("phases", &self.phases)
            .field("weights", &self.weights.len())
            .finish()
    }
}

/// Bytes before the weights: magic, version, phases, weights a phase.
const HEADER_BYTES: usize = 8 + 4 + 4 + 4;

impl PatternWeights {
    /// All weights zero, in `phases` phases (clamped to `1..=`[`MAX_PHASES`]).
    #[must_use]
    pub fn zeros(phases: usize) -> PatternWeights {
        let phases = phases.clamp(1, MAX_PHASES);
        PatternWeights {
            phases,
            weights: vec![0; phases * Self::per_phase()],
        }
    }

    /// Weights of one phase: every shape's table and a bias.
    #[must_use]
    pub fn per_phase() -> usize {
        pattern_set().per_phase
    }

    /// Placements of shapes on the board, the terms of one evaluation
    /// besides the two mobility entries and the bias.
    #[must_use]
    pub fn placements() -> usize {
        pattern_set().placements.len()
    }

    /// The number of phases.
    #[must_use]
    pub fn phases(&self) -> usize {
        self.phases
    }

    /// The phase of `board`: its empty squares, cut into
    /// [`phases`](PatternWeights::phases) equal ranges.
    #[must_use]
    pub fn phase(&self, board: &Board) -> usize {
        phase_of(board.empty_count(), self.phases)
    }

    /// The estimated final disc difference for the player to move (the
    /// sum of the weights; not clamped).
    #[must_use]
    pub fn discs(&self, board: &Board) -> f32 {
        let mobility = mobility_entries(board.player(), board.opponent());
        self.discs_with_moves(board, mobility)
    }

    /// [`discs`](PatternWeights::discs) with the mobility entries known.
    #[inline]
    fn discs_with_moves(&self, board: &Board, mobility: [u32; 2]) -> f32 {
        crate::dispatch::pattern_sum(&self.weights, self.phases, board, mobility) as f32
            / WEIGHT_SCALE
    }

    /// [`discs`](PatternWeights::discs) of the position with the mover's
    /// discs `player` and the other's `opponent` (disjoint), whose legal
    /// moves are `own` and `theirs` (as bitboards, already computed).
    #[inline]
    pub(crate) fn discs_of(&self, player: u64, opponent: u64, own: u64, theirs: u64) -> f32 {
        Board::from_player_opponent(player, opponent, game_traits::Player::First)
            .map_or(0.0, |board| {
                self.discs_with_moves(&board, capped_mobility(own, theirs))
            })
    }

    /// The estimate of `board` for the player to move, or its final disc
    /// difference when neither side can move: the move counts are
    /// computed once for both questions.
    #[inline]
    fn discs_or_final(&self, board: &Board) -> (f32, bool) {
        let own = crate::movegen::mobility(board.player(), board.opponent());
        let theirs = crate::movegen::mobility(board.opponent(), board.player());
        if own | theirs == 0 {
            (board.final_score() as f32, true)
        } else {
            (
                self.discs_with_moves(board, capped_mobility(own, theirs)),
                false,
            )
        }
    }

    /// The file contents: magic `OTHPATW\0`, then little-endian `u32`s
    /// version, phases and weights a phase, the weights as `i16`, and the
    /// FNV-1a 64 checksum of everything before it.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(HEADER_BYTES + 2 * self.weights.len() + 8);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&WEIGHTS_FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&(self.phases as u32).to_le_bytes());
        bytes.extend_from_slice(&(Self::per_phase() as u32).to_le_bytes());
        for weight in &self.weights {
            bytes.extend_from_slice(&weight.to_le_bytes());
        }
        let checksum = fnv1a_64(FNV1A_64_OFFSET, &bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads weights written by [`to_bytes`](PatternWeights::to_bytes).
    ///
    /// # Errors
    ///
    /// A [`WeightsError`] saying what is wrong: not a weights file, another
    /// version, an impossible phase count, another pattern set, a wrong
    /// length or a checksum mismatch. Nothing is read from a file that
    /// fails any check.
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(WeightsError::NotWeights);
        }
        let word = |at: usize| -> Result<u32, WeightsError> {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .ok_or(WeightsError::Length {
                    found: bytes.len(),
                    expected: HEADER_BYTES,
                })
        };
        let version = word(8)?;
        if version != WEIGHTS_FORMAT_VERSION {
            return Err(WeightsError::Version { found: version });
        }
        let phases = word(12)?;
        if phases == 0 || phases as usize > MAX_PHASES {
            return Err(WeightsError::Phases { found: phases });
        }
        let per_phase = word(16)?;
        if per_phase as usize != Self::per_phase() {
            return Err(WeightsError::PatternSet {
                found: per_phase,
                expected: Self::per_phase(),
            });
        }
        let count = phases as usize * Self::per_phase();
        let expected = HEADER_BYTES + 2 * count + 8;
        if bytes.len() != expected {
            return Err(WeightsError::Length {
                found: bytes.len(),
                expected,
            });
        }
        let (contents, stored) = bytes.split_at(expected - 8);
        let stored = u64::from_le_bytes(stored.try_into().expect("eight bytes"));
        let computed = fnv1a_64(FNV1A_64_OFFSET, contents);
        if stored != computed {
            return Err(WeightsError::Checksum { stored, computed });
        }
        let weights = contents[HEADER_BYTES..]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect();
        Ok(PatternWeights {
            phases: phases as usize,
            weights,
        })
    }

    /// Reads a weights file.
    ///
    /// # Errors
    ///
    /// [`WeightsError::Io`] if it cannot be read, otherwise as
    /// [`from_bytes`](PatternWeights::from_bytes).
    pub fn read(path: &Path) -> Result<PatternWeights, WeightsError> {
        let bytes = std::fs::read(path).map_err(|source| WeightsError::Io {
            path: path.display().to_string(),
            source,
        })?;
        PatternWeights::from_bytes(&bytes)
    }

    /// Writes a weights file, to a temporary name first and then renamed,
    /// so that a failed write never leaves half a file under `path`.
    ///
    /// # Errors
    ///
    /// [`WeightsError::Io`] if it cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), WeightsError> {
        let io = |source| WeightsError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".partial");
        std::fs::write(&temporary, self.to_bytes()).map_err(io)?;
        std::fs::rename(&temporary, path).map_err(io)
    }

    /// The weights shipped with the crate (`weights/patterns.bin`),
    /// trained on positions solved exactly at 20 to 24 empty squares and
    /// searched before that (see [`SHIPPED_WEIGHTS_BYTES`]); read once,
    /// then shared.
    #[must_use]
    pub fn shipped() -> Arc<PatternWeights> {
        static SHIPPED: OnceLock<Arc<PatternWeights>> = OnceLock::new();
        Arc::clone(SHIPPED.get_or_init(|| {
            // The file is part of the crate and checked by its tests.
            Arc::new(
                PatternWeights::from_bytes(SHIPPED_WEIGHTS_BYTES)
                    .unwrap_or_else(|error| panic!("the shipped pattern weights: {error}")),
            )
        }))
    }
}

/// The shipped weights file, as [`PatternWeights::shipped`] reads it.
pub const SHIPPED_WEIGHTS_BYTES: &[u8] = include_bytes!("../weights/patterns.bin");

/// An [`Evaluator`] on [`PatternWeights`]: the estimated disc difference
/// over 64, clamped to `[-1, 1]`, the exact score at finished games (the
/// scale of [`exact_value`], so searched and solved values compare).
#[derive(Clone, Debug)]
pub struct PatternEvaluator {
    weights: Arc<PatternWeights>,
}

impl PatternEvaluator {
    /// An evaluator on `weights` (shared, not copied, by clones).
    #[must_use]
    pub fn new(weights: Arc<PatternWeights>) -> PatternEvaluator {
        PatternEvaluator { weights }
    }

    /// The weights.
    #[must_use]
    pub fn weights(&self) -> &Arc<PatternWeights> {
        &self.weights
    }

    /// The estimated final disc difference for the player to move; the
    /// exact one at a finished game.
    #[must_use]
    pub fn discs(&self, board: &Board) -> f32 {
        self.weights.discs_or_final(board).0
    }
}

impl Default for PatternEvaluator {
    /// The evaluator on the [shipped weights](PatternWeights::shipped).
    fn default() -> Self {
        PatternEvaluator::new(PatternWeights::shipped())
    }
}

impl Evaluator<Board> for PatternEvaluator {
    fn value(&self, board: &Board) -> f32 {
        match self.weights.discs_or_final(board) {
            (_, true) => exact_value(board),
            (discs, false) => (discs / 64.0).clamp(-1.0, 1.0),
        }
    }
}

/// A prior over moves from a [`PatternEvaluator`], for the searchers that
/// take a [`PolicyEvaluator`] (Gumbel AlphaZero, PUCT): each move's logit
/// is the pattern estimate of the position after it, for the player
/// making it, in units of [`temperature`](PatternPolicy::temperature)
/// discs (one ply of look-ahead). The value is the evaluator's.
///
/// ```
/// use std::sync::Arc;
/// use bitboard_othello::{Board, PatternEvaluator, PatternPolicy, PatternWeights};
/// use game_traits::{Game, PolicyEvaluator};
///
/// let evaluator = PatternEvaluator::new(Arc::new(PatternWeights::zeros(12)));
/// let policy = PatternPolicy::new(evaluator).with_temperature(2.0)?;
/// let board = Board::start();
/// let mut moves = Vec::new();
/// board.legal_moves(&mut moves);
/// let mut logits = vec![0.0; moves.len()];
/// let value = policy.evaluate(&board, &moves, &mut logits);
/// // Zero weights: every move looks alike, and the start is even.
/// assert!(logits.iter().all(|&logit| logit == 0.0));
/// assert_eq!(value, 0.0);
/// # Ok::<(), bitboard_othello::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PatternPolicy {
    evaluator: PatternEvaluator,
    temperature: f32,
}

impl Default for PatternPolicy {
    /// The policy of the [shipped weights](PatternWeights::shipped) at the
    /// default temperature.
    fn default() -> Self {
        PatternPolicy::new(PatternEvaluator::default())
    }
}

impl PatternPolicy {
    /// Discs of estimate per unit of logit by default: a move 4 discs
    /// better is `e` times as likely.
    pub const DEFAULT_TEMPERATURE: f32 = 4.0;

    /// The policy of `evaluator` at [`DEFAULT_TEMPERATURE`](Self::DEFAULT_TEMPERATURE).
    #[must_use]
    pub fn new(evaluator: PatternEvaluator) -> PatternPolicy {
        PatternPolicy {
            evaluator,
            temperature: Self::DEFAULT_TEMPERATURE,
        }
    }

    /// The same policy with `temperature` discs per unit of logit.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Range`] unless `temperature` is a finite number above
    /// 0.
    pub fn with_temperature(self, temperature: f32) -> Result<PatternPolicy, ConfigError> {
        Range::Above(0.0).check("temperature", f64::from(temperature))?;
        Ok(PatternPolicy {
            temperature,
            ..self
        })
    }

    /// Discs of estimate per unit of logit.
    #[must_use]
    pub fn temperature(&self) -> f32 {
        self.temperature
    }

    /// The evaluator.
    #[must_use]
    pub fn evaluator(&self) -> &PatternEvaluator {
        &self.evaluator
    }

    /// The logit of legal move `mv` at `board`.
    #[must_use]
    pub fn logit(&self, board: &Board, mv: Move) -> f32 {
        let mut after = board.clone();
        after.play(mv);
        // The estimate after the move is for the opponent, who moves next.
        -self.evaluator.discs(&after) / self.temperature
    }
}

impl PolicyEvaluator<Board> for PatternPolicy {
    fn evaluate(&self, board: &Board, moves: &[Move], logits: &mut [f32]) -> f32 {
        debug_assert_eq!(moves.len(), logits.len());
        for (&mv, logit) in moves.iter().zip(logits.iter_mut()) {
            *logit = self.logit(board, mv);
        }
        self.evaluator.value(board)
    }
}

impl Evaluator<Board> for PatternPolicy {
    fn value(&self, board: &Board) -> f32 {
        self.evaluator.value(board)
    }
}

/// A position and its score: the final disc difference for the player to
/// move, exact or from a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelledPosition {
    /// The position.
    pub board: Board,
    /// Its score in discs, `-64..=64`.
    pub score: i8,
}

/// What was wrong with a line of labelled positions.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LabelError {
    /// The board part did not parse.
    #[error("line {line}: {source}")]
    Board {
        /// The line, from 1.
        line: usize,
        /// Why.
        source: crate::ParseBoardError,
    },
    /// The score is missing, not a number or outside `-64..=64`.
    #[error("line {line}: score {found:?} is not a number from -64 to 64")]
    Score {
        /// The line, from 1.
        line: usize,
        /// The text found.
        found: String,
    },
}

impl LabelledPosition {
    /// Reads lines `<board> <side> <score>` (the board as
    /// [`Board`]'s text, then the score); blank lines and lines starting
    /// with `#` are skipped.
    ///
    /// # Errors
    ///
    /// [`LabelError`] naming the first line that does not parse.
    pub fn parse_lines(text: &str) -> Result<Vec<LabelledPosition>, LabelError> {
        let mut positions = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let line_number = number + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (board_text, score_text) = line.rsplit_once(' ').unwrap_or((line, ""));
            let score = score_text
                .parse::<i8>()
                .ok()
                .filter(|score| (-64..=64).contains(score))
                .ok_or_else(|| LabelError::Score {
                    line: line_number,
                    found: score_text.to_string(),
                })?;
            let board = board_text.parse().map_err(|source| LabelError::Board {
                line: line_number,
                source,
            })?;
            positions.push(LabelledPosition { board, score });
        }
        Ok(positions)
    }
}

impl std::fmt::Display for LabelledPosition {
    /// The line [`parse_lines`](LabelledPosition::parse_lines) reads.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.board, self.score)
    }
}

/// How [`PatternTrainer::fit`] fits.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct FitConfig {
    /// Passes over the data.
    pub epochs: usize,
    /// Step size: each weight moves by this times the mean error of the
    /// positions it appears in (divided among a position's terms).
    pub learning_rate: f32,
    /// Ridge penalty pulling every weight towards zero, in the same units
    /// as a squared error; rarely seen configurations stay near zero.
    pub l2: f32,
    /// Empty squares either side of its own count whose phases a
    /// position also trains (0: its own phase only). Neighbouring phases
    /// differ little, so a phase with few positions borrows those of
    /// its neighbours.
    pub phase_spread: u32,
}

impl Default for FitConfig {
    /// 200 epochs, rate 1.0, penalty 1.0, no phase spread.
    fn default() -> Self {
        FitConfig {
            epochs: 200,
            learning_rate: 1.0,
            l2: 1.0,
            phase_spread: 0,
        }
    }
}

impl FitConfig {
    /// The same settings with `epochs` passes.
    #[must_use]
    pub fn with_epochs(mut self, epochs: usize) -> Self {
        self.epochs = epochs;
        self
    }

    /// The same settings with step size `rate`.
    #[must_use]
    pub fn with_learning_rate(mut self, rate: f32) -> Self {
        self.learning_rate = rate;
        self
    }

    /// The same settings with ridge penalty `l2`.
    #[must_use]
    pub fn with_l2(mut self, l2: f32) -> Self {
        self.l2 = l2;
        self
    }

    /// The same settings with each position also training the phases
    /// within `empties` empty squares of its own.
    #[must_use]
    pub fn with_phase_spread(mut self, empties: u32) -> Self {
        self.phase_spread = empties;
        self
    }
}

/// Mean absolute and root mean squared error, in discs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FitError {
    /// Positions measured.
    pub positions: usize,
    /// Mean absolute error.
    pub mean_absolute: f64,
    /// Root mean squared error.
    pub root_mean_squared: f64,
}

impl FitError {
    /// The errors of `predict` against the scores of `positions`.
    pub fn measure(
        positions: &[LabelledPosition],
        mut predict: impl FnMut(&Board) -> f32,
    ) -> FitError {
        let (mut absolute, mut squared) = (0f64, 0f64);
        for position in positions {
            let error = f64::from(predict(&position.board)) - f64::from(position.score);
            absolute += error.abs();
            squared += error * error;
        }
        let n = positions.len().max(1) as f64;
        FitError {
            positions: positions.len(),
            mean_absolute: absolute / n,
            root_mean_squared: (squared / n).sqrt(),
        }
    }
}

/// Fits [`PatternWeights`] to labelled positions by least squares with a
/// ridge penalty, by gradient descent: in each epoch every weight moves by
/// the mean error of the positions it appears in, scaled by the learning
/// rate over the number of terms of a position (so that a position's
/// terms together correct its error once), the classic update of pattern
/// evaluators.
#[derive(Clone, Debug)]
pub struct PatternTrainer {
    phases: usize,
    weights: Vec<f32>,
}

impl PatternTrainer {
    /// A trainer starting from zero weights in `phases` phases (clamped
    /// to `1..=`[`MAX_PHASES`]).
    #[must_use]
    pub fn new(phases: usize) -> PatternTrainer {
        PatternTrainer::from_weights(&PatternWeights::zeros(phases))
    }

    /// A trainer starting from `weights`.
    #[must_use]
    pub fn from_weights(weights: &PatternWeights) -> PatternTrainer {
        PatternTrainer {
            phases: weights.phases,
            weights: weights
                .weights
                .iter()
                .map(|&weight| f32::from(weight) / WEIGHT_SCALE)
                .collect(),
        }
    }

    /// The phase of `board`, as [`PatternWeights::phase`].
    #[must_use]
    pub fn phase(&self, board: &Board) -> usize {
        self.phase_of_empties(board.empty_count())
    }

    /// The phase of positions with `empties` empty squares.
    #[must_use]
    pub fn phase_of_empties(&self, empties: u32) -> usize {
        phase_of(empties, self.phases)
    }

    /// The estimate of `board` with the current (unrounded) weights.
    #[must_use]
    pub fn discs(&self, board: &Board) -> f32 {
        sum_features(board, self.phases, |index| self.weights[index])
    }

    /// Copies phase `from`'s weights into phase `to`: a start for a phase
    /// with little data from its neighbour.
    ///
    /// # Panics
    ///
    /// If either phase is not below [`PatternTrainer::phases`].
    pub fn copy_phase(&mut self, from: usize, to: usize) {
        let per_phase = PatternWeights::per_phase();
        self.weights
            .copy_within(from * per_phase..(from + 1) * per_phase, to * per_phase);
    }

    /// The number of phases.
    #[must_use]
    pub fn phases(&self) -> usize {
        self.phases
    }

    /// Fits the weights of every phase that has positions in `data`
    /// (within [`FitConfig::phase_spread`]; other phases keep theirs) and
    /// returns the training error.
    pub fn fit(&mut self, data: &[LabelledPosition], config: &FitConfig) -> FitError {
        let per_phase = PatternWeights::per_phase();
        // Each (position, phase trained) pair's absolute weight indices.
        let mut indices: Vec<u32> = Vec::new();
        let mut spans: Vec<(usize, usize, f32)> = Vec::with_capacity(data.len());
        let mut buffer = [0u32; MAX_FEATURES];
        for position in data {
            let count = features(&position.board, &mut buffer);
            let empties = position.board.empty_count();
            let spread = config.phase_spread;
            let nearest = empties.saturating_sub(spread).max(1);
            let farthest = (empties + spread).min(60);
            let mut trained = usize::MAX;
            for phase in (nearest..=farthest).map(|empties| self.phase_of_empties(empties)) {
                if phase == trained {
                    continue;
                }
                trained = phase;
                let base = (phase * per_phase) as u32;
                let start = indices.len();
                indices.extend(buffer[..count].iter().map(|&index| base + index));
                spans.push((start, count, f32::from(position.score)));
            }
        }
        let mut occurrences = vec![0u32; self.weights.len()];
        for &index in &indices {
            occurrences[index as usize] += 1;
        }
        let terms = (PatternWeights::placements() + TERMS_BESIDES_PLACEMENTS) as f32;
        let mut gradient = vec![0f32; self.weights.len()];
        for _ in 0..config.epochs {
            gradient.iter_mut().for_each(|value| *value = 0.0);
            for &(start, count, score) in &spans {
                let features = &indices[start..start + count];
                let predicted: f32 = features
                    .iter()
                    .map(|&index| self.weights[index as usize])
                    .sum();
                let error = predicted - score;
                for &index in features {
                    gradient[index as usize] += error;
                }
            }
            for ((weight, &sum), &seen) in self.weights.iter_mut().zip(&gradient).zip(&occurrences)
            {
                if seen > 0 {
                    let step = (sum + config.l2 * *weight) / (seen as f32 + config.l2);
                    *weight -= config.learning_rate * step / terms;
                }
            }
        }
        FitError::measure(data, |board| self.discs(board))
    }

    /// The weights rounded to the stored fixed point.
    #[must_use]
    pub fn weights(&self) -> PatternWeights {
        let limit = f32::from(i16::MAX);
        PatternWeights {
            phases: self.phases,
            weights: self
                .weights
                .iter()
                .map(|&weight| (weight * WEIGHT_SCALE).round().clamp(-limit, limit) as i16)
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_has_its_placements() {
        let set = pattern_set();
        // Rows and short diagonals: 8 ordered placements each (4 lines,
        // both directions); the long diagonal 4; the corner shapes 8.
        assert_eq!(set.placements.len(), 8 + 8 + 8 + 3 * 8 + 4 + 4 * 8);
        let expected: usize = PATTERN_SHAPES
            .iter()
            .map(|(_, squares)| 3usize.pow(squares.len() as u32))
            .sum();
        assert_eq!(set.per_phase, expected + 2 * MOBILITY_ENTRIES + 1);
    }

    /// The index of every placement read digit by digit, most significant
    /// first: the definition the weights are stored by.
    fn features_by_definition(board: &Board) -> Vec<u32> {
        let set = pattern_set();
        let (player, opponent) = (board.player(), board.opponent());
        let mut out: Vec<u32> = set
            .placements
            .iter()
            .map(|placement| {
                let squares = &placement.squares[..usize::from(placement.len)];
                let index = squares.iter().fold(0u32, |index, &square| {
                    let digit = ((player >> square) & 1) + 2 * ((opponent >> square) & 1);
                    index * 3 + digit as u32
                });
                placement.offset + index
            })
            .collect();
        // Move counts by trying every square.
        let count_moves = |board: &Board| {
            (0..64)
                .filter_map(Square::new)
                .filter(|&square| board.is_legal(crate::Move::Place(square)))
                .count() as u32
        };
        let passed =
            Board::from_player_opponent(opponent, player, board.to_move()).expect("disjoint discs");
        out.push(set.mobility_offset + count_moves(board).min(MOBILITY_CAP));
        out.push(
            set.mobility_offset + MOBILITY_ENTRIES as u32 + count_moves(&passed).min(MOBILITY_CAP),
        );
        out.push((set.per_phase - 1) as u32);
        out
    }

    #[test]
    fn features_square_by_square_match_their_definition() {
        use game_traits::Game;
        use game_traits::rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(5);
        let mut moves = Vec::new();
        let mut checked = 0;
        for _ in 0..40 {
            let mut board = Board::start();
            while !board.is_game_over() {
                let mut indices = [0u32; MAX_FEATURES];
                let count = features(&board, &mut indices);
                assert_eq!(
                    indices[..count],
                    features_by_definition(&board)[..],
                    "{board:?}"
                );
                checked += 1;
                board.legal_moves(&mut moves);
                board.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(checked > 2_000);
    }

    #[test]
    fn the_dispatched_sum_matches_the_definition() {
        use game_traits::Game;
        use game_traits::rand::{RngExt, SeedableRng};
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(6);
        let phases = 6;
        let weights: Vec<i16> = (0..phases * pattern_set().per_phase)
            .map(|_| rng.random_range(-300..=300))
            .collect();
        let table = PatternWeights {
            phases,
            weights: weights.clone(),
        };
        let mut moves = Vec::new();
        for _ in 0..20 {
            let mut board = Board::start();
            while !board.is_game_over() {
                let base = phase_of(board.empty_count(), phases) * pattern_set().per_phase;
                let expected: i32 = features_by_definition(&board)
                    .iter()
                    .map(|&index| i32::from(weights[base + index as usize]))
                    .sum();
                assert_eq!(
                    table.discs(&board),
                    expected as f32 / WEIGHT_SCALE,
                    "{board:?}"
                );
                board.legal_moves(&mut moves);
                board.play(moves[rng.random_range(0..moves.len())]);
            }
        }
    }
}
