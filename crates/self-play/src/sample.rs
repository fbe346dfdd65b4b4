//! Training samples: a position's planes, the search's policy, the game's
//! result; the replay window they are drawn from; and the batches the
//! trainer takes, turned by the board's symmetries.

use std::collections::VecDeque;

use game_traits::{GridSymmetry, PlaneEncoding, PlaneShape};
use rand::RngExt;
use rand_pcg::Pcg64Mcg;

/// A position's planes, kept small: one bit per value when every value
/// is 0 or 1 (the usual case), the values otherwise.
#[derive(Clone, Debug, PartialEq)]
pub enum Planes {
    /// Bit `i` of word `i / 64` is value `i` (0 or 1).
    Bits(Vec<u64>),
    /// The values as they are.
    Values(Vec<f32>),
}

impl Planes {
    /// `values` in the smallest form that keeps them exactly.
    pub fn pack(values: &[f32]) -> Planes {
        if values.iter().all(|&value| value == 0.0 || value == 1.0) {
            let mut bits = vec![0u64; values.len().div_ceil(64)];
            for (index, &value) in values.iter().enumerate() {
                if value == 1.0 {
                    bits[index / 64] |= 1 << (index % 64);
                }
            }
            Planes::Bits(bits)
        } else {
            Planes::Values(values.to_vec())
        }
    }

    /// Writes the values into `out` (`len` values long).
    pub fn unpack(&self, out: &mut [f32]) {
        match self {
            Planes::Bits(bits) => {
                for (index, value) in out.iter_mut().enumerate() {
                    *value = if bits[index / 64] >> (index % 64) & 1 == 1 {
                        1.0
                    } else {
                        0.0
                    };
                }
            }
            Planes::Values(values) => out.copy_from_slice(values),
        }
    }
}

/// One position of a self-play game, as the trainer learns from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The position's planes.
    pub planes: Planes,
    /// The search's policy over the legal moves: (policy index,
    /// probability), probabilities summing to 1.
    pub policy: Vec<(u32, f32)>,
    /// The game's result for the player to move here: 1 a win, 0 a draw
    /// (or a game stopped at the ply cap), -1 a loss.
    pub outcome: f32,
    /// The search's value of the position for the player to move.
    pub search_value: f32,
}

impl Sample {
    /// The value target: the outcome, mixed with the search value by
    /// `search_weight` (0: the outcome alone, as AlphaZero).
    pub fn value_target(&self, search_weight: f32) -> f32 {
        (1.0 - search_weight) * self.outcome + search_weight * self.search_value
    }
}

/// The most recent samples, up to a capacity: what training draws from.
#[derive(Clone, Debug)]
pub struct ReplayWindow {
    samples: VecDeque<Sample>,
    capacity: usize,
    /// Samples ever added.
    added: u64,
}

impl ReplayWindow {
    /// An empty window keeping the last `capacity` samples (at least 1).
    pub fn new(capacity: usize) -> Self {
        ReplayWindow {
            samples: VecDeque::new(),
            capacity: capacity.max(1),
            added: 0,
        }
    }

    /// Adds samples, dropping the oldest beyond the capacity.
    pub fn extend(&mut self, samples: impl IntoIterator<Item = Sample>) {
        for sample in samples {
            if self.samples.len() == self.capacity {
                self.samples.pop_front();
            }
            self.samples.push_back(sample);
            self.added += 1;
        }
    }

    /// Samples held.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Samples ever added.
    pub fn added(&self) -> u64 {
        self.added
    }

    /// The samples, oldest first.
    pub fn samples(&self) -> impl Iterator<Item = &Sample> {
        self.samples.iter()
    }

    /// `size` samples drawn uniformly (with replacement) by `rng`.
    pub(crate) fn draw<'a>(&'a self, size: usize, rng: &mut Pcg64Mcg) -> Vec<&'a Sample> {
        (0..size)
            .map(|_| &self.samples[rng.random_range(..self.samples.len())])
            .collect()
    }
}

/// A batch as the network takes it: planes, dense policy targets and value
/// targets, position after position.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingBatch {
    /// Positions.
    pub size: usize,
    /// `size * planes.len()` values.
    pub planes: Vec<f32>,
    /// `size * policy_len` probabilities.
    pub policy: Vec<f32>,
    /// `size` value targets.
    pub values: Vec<f32>,
}

/// Moves samples by the symmetries of a game's encoding: the planes cell
/// by cell, the policy by the game's own index map.
#[derive(Clone, Debug)]
pub struct Augmenter {
    shape: PlaneShape,
    policy_len: usize,
    symmetries: Vec<GridSymmetry>,
    /// Per symmetry: the image of each policy index.
    policy_maps: Vec<Vec<u32>>,
}

impl Augmenter {
    /// The symmetries of `prototype`'s encoding (any position of the game),
    /// or the identity alone when `augment` is off.
    pub fn new<G: PlaneEncoding>(prototype: &G, augment: bool) -> Augmenter {
        let symmetries: Vec<GridSymmetry> = if augment {
            prototype.symmetries().to_vec()
        } else {
            vec![GridSymmetry::Identity]
        };
        let policy_len = prototype.policy_len();
        let policy_maps = symmetries
            .iter()
            .map(|&symmetry| {
                (0..policy_len)
                    .map(|index| prototype.policy_symmetry(symmetry, index) as u32)
                    .collect()
            })
            .collect();
        Augmenter {
            shape: prototype.plane_shape(),
            policy_len,
            symmetries,
            policy_maps,
        }
    }

    /// The symmetries used.
    pub fn symmetries(&self) -> &[GridSymmetry] {
        &self.symmetries
    }

    /// A batch of `samples`, each moved by a symmetry drawn by `rng`, with
    /// value targets mixed by `search_weight` (see
    /// [`Sample::value_target`]).
    pub fn batch(
        &self,
        samples: &[&Sample],
        search_weight: f32,
        rng: &mut Pcg64Mcg,
    ) -> TrainingBatch {
        let len = self.shape.len();
        let mut planes = vec![0.0; samples.len() * len];
        let mut policy = vec![0.0; samples.len() * self.policy_len];
        let mut scratch = vec![0.0; len];
        for ((sample, planes), policy) in samples
            .iter()
            .zip(planes.chunks_exact_mut(len))
            .zip(policy.chunks_exact_mut(self.policy_len))
        {
            let which = if self.symmetries.len() > 1 {
                rng.random_range(..self.symmetries.len())
            } else {
                0
            };
            if which == 0 {
                sample.planes.unpack(planes);
            } else {
                sample.planes.unpack(&mut scratch);
                self.symmetries[which].transform_planes(self.shape, &scratch, planes);
            }
            for &(index, probability) in &sample.policy {
                let image = self.policy_maps[which]
                    .get(index as usize)
                    .copied()
                    .unwrap_or(index);
                if let Some(slot) = policy.get_mut(image as usize) {
                    *slot += probability;
                }
            }
        }
        TrainingBatch {
            size: samples.len(),
            planes,
            policy,
            values: samples
                .iter()
                .map(|sample| sample.value_target(search_weight))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_traits::testing::TicTacToe;
    use rand::SeedableRng;

    #[test]
    fn planes_pack_to_bits_when_they_can() {
        let binary = [0.0, 1.0, 1.0, 0.0, 1.0];
        let packed = Planes::pack(&binary);
        assert!(matches!(packed, Planes::Bits(ref bits) if bits == &[0b10110]));
        let mut out = [9.0; 5];
        packed.unpack(&mut out);
        assert_eq!(out, binary);
        let real = [0.5, 1.0];
        let packed = Planes::pack(&real);
        assert_eq!(packed, Planes::Values(real.to_vec()));
    }

    #[test]
    fn the_window_keeps_the_newest() {
        let sample = |outcome| Sample {
            planes: Planes::Values(vec![]),
            policy: vec![],
            outcome,
            search_value: 0.0,
        };
        let mut window = ReplayWindow::new(3);
        window.extend((0..5).map(|index| sample(index as f32)));
        assert_eq!(window.len(), 3);
        assert_eq!(window.added(), 5);
        let kept: Vec<f32> = window.samples().map(|sample| sample.outcome).collect();
        assert_eq!(kept, [2.0, 3.0, 4.0]);
    }

    #[test]
    fn augmented_batches_move_planes_and_policy_together() {
        // x on the top-left corner, o to move; the policy favours the
        // top-right corner.
        let game = TicTacToe::from_moves(&[0]).unwrap();
        let mut values = vec![0.0; 27];
        game.encode_planes(&mut values);
        let sample = Sample {
            planes: Planes::pack(&values),
            policy: vec![(2, 0.75), (8, 0.25)],
            outcome: 1.0,
            search_value: 0.5,
        };
        let augmenter = Augmenter::new(&TicTacToe::new(), true);
        assert_eq!(augmenter.symmetries().len(), 8);
        let mut rng = Pcg64Mcg::seed_from_u64(1);
        let batch = augmenter.batch(&vec![&sample; 64], 0.5, &mut rng);
        let mut seen = std::collections::HashSet::new();
        for position in 0..64 {
            let planes = &batch.planes[position * 27..(position + 1) * 27];
            let policy = &batch.policy[position * 9..(position + 1) * 9];
            // The opponent's stone (plane 1) is on a corner, and the 0.25
            // move is on the corner opposite it.
            let stone = (0..9).find(|&cell| planes[9 + cell] == 1.0).unwrap();
            let likely = (0..9).find(|&cell| policy[cell] == 0.25).unwrap();
            assert_eq!(likely, 8 - stone, "{planes:?} {policy:?}");
            assert!((policy.iter().sum::<f32>() - 1.0).abs() < 1e-6);
            seen.insert(stone);
        }
        assert_eq!(seen.len(), 4, "all four corners");
        assert_eq!(batch.values, vec![0.75; 64]);
    }
}
