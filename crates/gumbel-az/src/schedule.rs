//! The Sequential Halving visit schedule at the root.

/// The Sequential Halving schedule of Gumbel AlphaZero (Danihelka et al.,
/// 2022, Section 3.2 and Appendix F), as the reference implementation
/// (mctx `get_sequence_of_considered_visits`) lays it out: item `i` is the
/// visit count a root action must have to be chosen in simulation `i`.
///
/// With `considered` (m) actions and `simulations` (n) simulations: for
/// `m <= 1` the sequence is `0, 1, .., n - 1`. Otherwise the search runs in
/// phases; a phase with `c` actions still in play (first `c = m`) gives each
/// of them `max(1, floor(n / (ceil(log2 m) * c)))` more visits, one round at
/// a time, then halves `c` (never below 2). The sequence is cut at `n`.
///
/// The iterator is lazy and allocation-free, so a huge planned budget costs
/// nothing up front.
///
/// ```
/// use gumbel_az::ConsideredVisits;
///
/// let schedule: Vec<u32> = ConsideredVisits::new(4, 8).collect();
/// assert_eq!(schedule, [0, 0, 0, 0, 1, 1, 2, 2]);
/// let schedule: Vec<u32> = ConsideredVisits::new(3, 8).collect();
/// assert_eq!(schedule, [0, 0, 0, 1, 1, 2, 2, 3]);
/// ```
#[derive(Clone, Debug)]
pub struct ConsideredVisits {
    considered: u64,
    simulations: u64,
    emitted: u64,
    /// `ceil(log2 m)`; unused when `m <= 1`.
    log2_considered: u64,
    /// Actions still in play in the current phase.
    in_play: u64,
    /// The visit count every action in play has reached.
    visits: u32,
    /// Rounds left in the current phase, the current one included.
    rounds_left: u64,
    /// Items left in the current round.
    left_in_round: u64,
}

impl ConsideredVisits {
    /// The schedule for `considered` actions and `simulations` simulations.
    pub fn new(considered: usize, simulations: u64) -> Self {
        let considered = considered as u64;
        let log2_considered = if considered <= 1 {
            0
        } else {
            u64::from(u64::BITS - (considered - 1).leading_zeros())
        };
        let mut schedule = ConsideredVisits {
            considered,
            simulations,
            emitted: 0,
            log2_considered,
            in_play: considered,
            visits: 0,
            rounds_left: 0,
            left_in_round: considered,
        };
        if considered > 1 {
            schedule.rounds_left = schedule.rounds_in_phase();
        }
        schedule
    }

    fn rounds_in_phase(&self) -> u64 {
        (self.simulations / self.log2_considered.saturating_mul(self.in_play)).max(1)
    }
}

impl Iterator for ConsideredVisits {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.emitted >= self.simulations {
            return None;
        }
        self.emitted += 1;
        if self.considered <= 1 {
            return Some(u32::try_from(self.emitted - 1).unwrap_or(u32::MAX));
        }
        if self.left_in_round == 0 {
            self.visits = self.visits.saturating_add(1);
            self.rounds_left -= 1;
            if self.rounds_left == 0 {
                self.in_play = (self.in_play / 2).max(2);
                self.rounds_left = self.rounds_in_phase();
            }
            self.left_in_round = self.in_play;
        }
        self.left_in_round -= 1;
        Some(self.visits)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.simulations - self.emitted).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

impl ExactSizeIterator for ConsideredVisits {}

/// The whole [`ConsideredVisits`] schedule as a vector, or `None` if it
/// would not fit in memory (more than [`MAX_SCHEDULE_LENGTH`] items; the
/// lazy [`ConsideredVisits`] has no such limit).
///
/// ```
/// // 16 actions, 64 simulations: sixteen 0s, eight 1s, eight 2s, ...
/// let schedule = gumbel_az::considered_visit_sequence(16, 64).unwrap();
/// assert_eq!(&schedule[..17], &[0; 16].iter().chain(&[1]).copied().collect::<Vec<_>>()[..]);
/// assert_eq!(schedule.iter().filter(|&&visits| visits == 2).count(), 8);
/// ```
pub fn considered_visit_sequence(considered: usize, simulations: u64) -> Option<Vec<u32>> {
    (simulations <= MAX_SCHEDULE_LENGTH)
        .then(|| ConsideredVisits::new(considered, simulations).collect())
}

/// The longest schedule [`considered_visit_sequence`] builds as a vector
/// (2^32 items: a visit count is a `u32`).
pub const MAX_SCHEDULE_LENGTH: u64 = 1 << 32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_actions_sixty_four_simulations() {
        let schedule = considered_visit_sequence(16, 64).unwrap();
        let mut expected = vec![0; 16];
        expected.extend([1; 8]);
        expected.extend([2; 8]);
        for visits in 3..=6 {
            expected.extend([visits; 4]);
        }
        for visits in 7..=14 {
            expected.extend([visits; 2]);
        }
        assert_eq!(schedule, expected);
    }

    #[test]
    fn one_or_no_action_counts_simulations() {
        assert_eq!(considered_visit_sequence(1, 5).unwrap(), [0, 1, 2, 3, 4]);
        assert_eq!(considered_visit_sequence(0, 3).unwrap(), [0, 1, 2]);
        assert!(considered_visit_sequence(5, 0).unwrap().is_empty());
    }

    #[test]
    fn huge_inputs_neither_overflow_nor_allocate() {
        assert_eq!(considered_visit_sequence(16, u64::MAX), None);
        assert_eq!(considered_visit_sequence(usize::MAX, u64::MAX), None);
        let mut lazy = ConsideredVisits::new(usize::MAX, u64::MAX);
        assert_eq!(lazy.next(), Some(0));
        assert_eq!(lazy.len(), usize::MAX - 1);
        let schedule = considered_visit_sequence(usize::MAX, 10).unwrap();
        assert_eq!(schedule, [0; 10]);
    }

    #[test]
    fn size_hint_is_exact() {
        let mut schedule = ConsideredVisits::new(7, 30);
        assert_eq!(schedule.size_hint(), (30, Some(30)));
        schedule.next();
        assert_eq!(schedule.len(), 29);
    }
}
