//! Exact counting, marginals, enumeration and uniform sampling of the
//! bijections pieces → animals in which each piece takes an allowed animal
//! (perfect matchings of a bipartite graph with at most 8 + 8 vertices).
//!
//! A dynamic program over subsets of animals counts completions: with
//! `k = |used|` pieces placed, `completions[used]` is the number of ways to
//! give pieces `k..n` the animals outside `used`. Sampling picks each
//! piece's animal with probability proportional to the completions it
//! leaves (the permanent method of the rules text, 9.6), which is exactly
//! uniform over the bijections, unlike drawing each piece's animal uniformly
//! from its allowed set.

use rand::{Rng, RngExt};

use crate::animal::{Animal, AnimalSet};

/// The bijections from `n` pieces to `n` animals with a per-piece allowed
/// set, for `n <= 8`.
///
/// ```
/// use dou_shou_qi::{Animal, AnimalSet};
/// use dou_shou_qi::hidden::Matchings;
///
/// // Two pieces; the first must be the tiger or the lion, the second anything.
/// let animals = AnimalSet::from_letters("TLE").unwrap();
/// let allowed = [AnimalSet::from_letters("TL").unwrap(), animals, animals];
/// let worlds = Matchings::new(&allowed, animals).unwrap();
/// assert_eq!(worlds.count(), 4);
/// assert_eq!(worlds.counts()[0][Animal::Tiger.index()], 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matchings {
    animals: Vec<Animal>,
    /// Per piece: the allowed animals as a mask over positions in `animals`.
    allowed: Vec<u8>,
    /// Indexed by the set of used animal positions.
    completions: Vec<u64>,
}

impl Matchings {
    /// The bijections from the pieces (one allowed set each) onto
    /// `animals`. `None` unless there are as many pieces as animals, and at
    /// most 8.
    #[must_use]
    pub fn new(allowed: &[AnimalSet], animals: AnimalSet) -> Option<Matchings> {
        let animal_list: Vec<Animal> = animals.iter().collect();
        let n = animal_list.len();
        if allowed.len() != n {
            return None;
        }
        let local: Vec<u8> = allowed
            .iter()
            .map(|set| {
                animal_list
                    .iter()
                    .enumerate()
                    .filter(|(_, animal)| set.contains(**animal))
                    .fold(0u8, |mask, (position, _)| mask | 1 << position)
            })
            .collect();
        let full = (1usize << n) - 1;
        let mut completions = vec![0u64; full + 1];
        completions[full] = 1;
        for used in (0..full).rev() {
            let piece = used.count_ones() as usize;
            let mut free = usize::from(local[piece]) & !used;
            let mut total = 0;
            while free != 0 {
                let position = free.trailing_zeros();
                free &= free - 1;
                total += completions[used | 1 << position];
            }
            completions[used] = total;
        }
        Some(Matchings {
            animals: animal_list,
            allowed: local,
            completions,
        })
    }

    /// The number of pieces (and of animals).
    #[must_use]
    pub fn len(&self) -> usize {
        self.animals.len()
    }

    /// Whether there are no pieces at all (one empty bijection).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.animals.is_empty()
    }

    /// The number of bijections.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.completions[0]
    }

    /// Draws one bijection uniformly into `out` (one animal per piece).
    /// Returns `false`, leaving `out` unspecified, when there is none.
    ///
    /// # Panics
    ///
    /// If `out` is shorter than [`Matchings::len`].
    pub fn sample_into<R: Rng + ?Sized>(&self, rng: &mut R, out: &mut [Animal]) -> bool {
        if self.count() == 0 {
            return false;
        }
        let mut used = 0usize;
        for (piece, slot) in out[..self.len()].iter_mut().enumerate() {
            let mut pick = rng.random_range(..self.completions[used]);
            let mut free = usize::from(self.allowed[piece]) & !used;
            loop {
                let position = free.trailing_zeros() as usize;
                free &= free - 1;
                let weight = self.completions[used | 1 << position];
                if pick < weight {
                    used |= 1 << position;
                    *slot = self.animals[position];
                    break;
                }
                pick -= weight;
            }
        }
        true
    }

    /// Draws one bijection uniformly, `None` if there is none.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<Vec<Animal>> {
        let mut out = vec![Animal::Rat; self.len()];
        self.sample_into(rng, &mut out).then_some(out)
    }

    /// For each piece and each animal (by [`Animal::index`]), the number of
    /// bijections giving that piece that animal. Dividing by
    /// [`Matchings::count`] gives the marginals.
    #[must_use]
    pub fn counts(&self) -> Vec<[u64; 8]> {
        let n = self.len();
        let full = (1usize << n) - 1;
        // prefixes[used]: ways to give pieces 0..|used| exactly the animals of `used`.
        let mut prefixes = vec![0u64; full + 1];
        prefixes[0] = 1;
        for used in 0..full {
            let ways = prefixes[used];
            if ways == 0 {
                continue;
            }
            let piece = used.count_ones() as usize;
            let mut free = usize::from(self.allowed[piece]) & !used;
            while free != 0 {
                let position = free.trailing_zeros();
                free &= free - 1;
                prefixes[used | 1 << position] += ways;
            }
        }
        let mut counts = vec![[0u64; 8]; n];
        for (used, &ways) in prefixes.iter().enumerate().take(full) {
            let piece = used.count_ones() as usize;
            if ways == 0 {
                continue;
            }
            let mut free = usize::from(self.allowed[piece]) & !used;
            while free != 0 {
                let position = free.trailing_zeros() as usize;
                free &= free - 1;
                counts[piece][self.animals[position].index()] +=
                    ways * self.completions[used | 1 << position];
            }
        }
        counts
    }

    /// Calls `visit` with every bijection (one animal per piece), in a fixed
    /// order.
    pub fn for_each(&self, mut visit: impl FnMut(&[Animal])) {
        let mut current = vec![Animal::Rat; self.len()];
        self.extend(0, &mut current, &mut visit);
    }

    fn extend(&self, used: usize, current: &mut [Animal], visit: &mut impl FnMut(&[Animal])) {
        let piece = used.count_ones() as usize;
        if piece == self.len() {
            visit(current);
            return;
        }
        let mut free = usize::from(self.allowed[piece]) & !used;
        while free != 0 {
            let position = free.trailing_zeros() as usize;
            free &= free - 1;
            if self.completions[used | 1 << position] > 0 {
                current[piece] = self.animals[position];
                self.extend(used | 1 << position, current, visit);
            }
        }
    }

    /// The first bijection in the order of [`Matchings::for_each`], if any.
    #[must_use]
    pub fn first(&self) -> Option<Vec<Animal>> {
        if self.count() == 0 {
            return None;
        }
        let mut used = 0usize;
        let mut out = Vec::with_capacity(self.len());
        for &allowed in &self.allowed {
            let mut free = usize::from(allowed) & !used;
            loop {
                let position = free.trailing_zeros() as usize;
                free &= free - 1;
                if self.completions[used | 1 << position] > 0 {
                    used |= 1 << position;
                    out.push(self.animals[position]);
                    break;
                }
            }
        }
        Some(out)
    }

    /// Every bijection, in the order of [`Matchings::for_each`].
    #[must_use]
    pub fn all(&self) -> Vec<Vec<Animal>> {
        let mut all = Vec::with_capacity(self.count() as usize);
        self.for_each(|animals| all.push(animals.to_vec()));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn counts_agree_with_enumeration() {
        let animals = AnimalSet::from_letters("RCDWPTLE").unwrap();
        let allowed = [
            AnimalSet::from_letters("R").unwrap(),
            AnimalSet::from_letters("TL").unwrap(),
            AnimalSet::from_letters("WPTLE").unwrap(),
            animals,
            animals,
            animals,
            animals,
            AnimalSet::from_letters("CD").unwrap(),
        ];
        let matchings = Matchings::new(&allowed, animals).unwrap();
        let all = matchings.all();
        assert_eq!(all.len() as u64, matchings.count());
        let mut brute = vec![[0u64; 8]; 8];
        for world in &all {
            for (piece, animal) in world.iter().enumerate() {
                assert!(allowed[piece].contains(*animal));
                brute[piece][animal.index()] += 1;
            }
            let distinct: AnimalSet = world.iter().copied().collect();
            assert_eq!(distinct, animals);
        }
        assert_eq!(matchings.counts(), brute);
        assert_eq!(matchings.first().as_ref(), all.first());
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        for _ in 0..100 {
            let world = matchings.sample(&mut rng).unwrap();
            assert!(all.contains(&world));
        }
    }

    #[test]
    fn impossible_and_empty_cases() {
        let animals = AnimalSet::from_letters("RC").unwrap();
        let rat = AnimalSet::from_letters("R").unwrap();
        let none = Matchings::new(&[rat, rat], animals).unwrap();
        assert_eq!(none.count(), 0);
        assert!(none.all().is_empty());
        let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(3);
        assert_eq!(none.sample(&mut rng), None);
        assert!(Matchings::new(&[rat], animals).is_none());
        let empty = Matchings::new(&[], AnimalSet::EMPTY).unwrap();
        assert_eq!(empty.count(), 1);
        assert_eq!(empty.all(), vec![Vec::<Animal>::new()]);
    }
}
