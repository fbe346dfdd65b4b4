//! Batched evaluation: positions evaluated together, as a neural network on
//! an accelerator wants them ([`Batch`], [`BatchEvaluator`]), and searches
//! that run side by side and share one batch per step ([`BatchedSearch`],
//! [`search_together`]).

use crate::{Game, Limits, PolicyEvaluator, SearchReport};

/// Positions to evaluate together, each with the moves to rate, and room
/// for the answers: one value and one logit per move.
///
/// A searcher pushes positions, a [`BatchEvaluator`] fills in the values
/// and logits, and the searcher reads them back. An entry pushed with no
/// moves asks for its value only (searchers that need no policy, such as
/// MCTS with evaluator leaves, push such entries). Values and logits start
/// at `0.0`.
///
/// The buffers are kept across [`clear`](Batch::clear), so a batch reused
/// step after step stops allocating once it has grown.
///
/// ```
/// use game_traits::testing::TicTacToe;
/// use game_traits::{Batch, BatchEvaluator, Game, UniformPrior, OutcomeEvaluator};
///
/// let mut batch = Batch::new();
/// let empty = TicTacToe::new();
/// let corner = TicTacToe::from_moves(&[0]).unwrap();
/// batch.push_legal(&empty);
/// batch.push_legal(&corner);
/// assert_eq!(batch.len(), 2);
/// assert_eq!(batch.moves(1).len(), 8);
///
/// // Every single-position evaluator evaluates batches, one entry at a time.
/// UniformPrior(OutcomeEvaluator).evaluate_batch(&mut batch);
/// assert_eq!(batch.value(0), 0.0);
/// assert_eq!(batch.logits(1), &[0.0; 8]);
/// ```
#[derive(Clone)]
pub struct Batch<G: Game> {
    /// Positions; slots past `len` are kept for reuse.
    states: Vec<G>,
    len: usize,
    moves: Vec<G::Move>,
    /// `ends[i]` is where entry `i`'s moves (and logits) end; they start
    /// where entry `i - 1`'s end.
    ends: Vec<usize>,
    logits: Vec<f32>,
    values: Vec<f32>,
    /// Scratch for [`push_legal`](Batch::push_legal).
    scratch: Vec<G::Move>,
}

/// One entry of a [`Batch`], as an evaluator fills it in.
#[derive(Debug)]
#[non_exhaustive]
pub struct BatchEntry<'a, G: Game> {
    /// The position.
    pub state: &'a G,
    /// The moves to rate (empty: the value alone is asked for).
    pub moves: &'a [G::Move],
    /// One logit per move, same order: unnormalised log-probabilities.
    pub logits: &'a mut [f32],
    /// The value of `state` for the player to move there, in `[-1, 1]`.
    pub value: &'a mut f32,
}

impl<G: Game> Default for Batch<G> {
    fn default() -> Self {
        Batch {
            states: Vec::new(),
            len: 0,
            moves: Vec::new(),
            ends: Vec::new(),
            logits: Vec::new(),
            values: Vec::new(),
            scratch: Vec::new(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Batch<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("len", &self.len)
            .field("moves", &self.moves.len())
            .finish_non_exhaustive()
    }
}

impl<G: Game> Batch<G> {
    /// An empty batch.
    pub fn new() -> Self {
        Batch::default()
    }

    /// Removes every entry, keeping the buffers.
    pub fn clear(&mut self) {
        self.len = 0;
        self.moves.clear();
        self.ends.clear();
        self.logits.clear();
        self.values.clear();
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the batch has no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds `state`, whose `moves` are to be rated (none: its value only),
    /// and returns the entry's index.
    pub fn push(&mut self, state: &G, moves: &[G::Move]) -> usize {
        if let Some(slot) = self.states.get_mut(self.len) {
            slot.clone_from(state);
        } else {
            self.states.push(state.clone());
        }
        self.moves.extend_from_slice(moves);
        self.logits.resize(self.moves.len(), 0.0);
        self.ends.push(self.moves.len());
        self.values.push(0.0);
        self.len += 1;
        self.len - 1
    }

    /// Adds `state` with its legal moves and returns the entry's index.
    pub fn push_legal(&mut self, state: &G) -> usize {
        let mut moves = std::mem::take(&mut self.scratch);
        state.legal_moves(&mut moves);
        let index = self.push(state, &moves);
        self.scratch = moves;
        index
    }

    fn range(&self, index: usize) -> std::ops::Range<usize> {
        let start = if index == 0 { 0 } else { self.ends[index - 1] };
        start..self.ends[index]
    }

    /// The positions, in order.
    pub fn states(&self) -> &[G] {
        &self.states[..self.len]
    }

    /// Entry `index`'s position.
    ///
    /// # Panics
    ///
    /// If `index` is not below [`len`](Batch::len).
    pub fn state(&self, index: usize) -> &G {
        &self.states()[index]
    }

    /// Entry `index`'s moves.
    ///
    /// # Panics
    ///
    /// If `index` is not below [`len`](Batch::len).
    pub fn moves(&self, index: usize) -> &[G::Move] {
        &self.moves[self.range(index)]
    }

    /// Entry `index`'s logits, one per move.
    ///
    /// # Panics
    ///
    /// If `index` is not below [`len`](Batch::len).
    pub fn logits(&self, index: usize) -> &[f32] {
        &self.logits[self.range(index)]
    }

    /// Entry `index`'s value.
    ///
    /// # Panics
    ///
    /// If `index` is not below [`len`](Batch::len).
    pub fn value(&self, index: usize) -> f32 {
        self.values[index]
    }

    /// Every value, in order, to fill in at once.
    pub fn values_mut(&mut self) -> &mut [f32] {
        &mut self.values
    }

    /// Entry `index`, to fill in.
    ///
    /// # Panics
    ///
    /// If `index` is not below [`len`](Batch::len).
    pub fn entry_mut(&mut self, index: usize) -> BatchEntry<'_, G> {
        let range = self.range(index);
        BatchEntry {
            state: &self.states[..self.len][index],
            moves: &self.moves[range.clone()],
            logits: &mut self.logits[range],
            value: &mut self.values[index],
        }
    }

    /// Every entry, in order, to fill in.
    pub fn entries_mut(&mut self) -> impl Iterator<Item = BatchEntry<'_, G>> {
        let mut moves: &[G::Move] = &self.moves;
        let mut logits: &mut [f32] = &mut self.logits;
        let mut start = 0;
        self.states[..self.len]
            .iter()
            .zip(self.values.iter_mut())
            .zip(&self.ends)
            .map(move |((state, value), &end)| {
                let count = end - start;
                start = end;
                let (entry_moves, rest_moves) = moves.split_at(count);
                moves = rest_moves;
                let (entry_logits, rest_logits) = std::mem::take(&mut logits).split_at_mut(count);
                logits = rest_logits;
                BatchEntry {
                    state,
                    moves: entry_moves,
                    logits: entry_logits,
                    value,
                }
            })
    }
}

/// An evaluator that rates many positions in one call: one value and one
/// logit per move for each entry of a [`Batch`], as a neural network on an
/// accelerator does.
///
/// Values are in `[-1, 1]` for the player to move in each position; logits
/// are unnormalised log-probabilities. Searchers contain what comes back
/// with [`contain_value`](crate::contain_value) and
/// [`contain_logits`](crate::contain_logits), as they do for single
/// positions.
///
/// Every [`PolicyEvaluator`] is a `BatchEvaluator` through
/// [`PolicyEvaluator::evaluate_many`] (by default the entries one at a
/// time), so the searchers that take a `BatchEvaluator` take every
/// single-position evaluator too. A type that rates single positions as
/// well as whole batches (a network) implements `PolicyEvaluator` and
/// overrides `evaluate_many`; a type that only rates whole batches
/// implements this trait alone. To share one between searchers, implement
/// it on a cheap-to-clone handle (an `Arc` inside your type).
///
/// The result for an entry must depend on its position and moves only, not
/// on the other entries: then a search gives the same result whether its
/// positions are evaluated alone or batched with other searches'.
///
/// ```
/// use game_traits::testing::{TicTacToe, TicTacToeHeuristic};
/// use game_traits::{Batch, BatchEvaluator, Evaluator};
///
/// /// Counts its calls, whatever their size, as an accelerator's latency
/// /// would be paid once per call.
/// struct Network { calls: std::sync::atomic::AtomicUsize }
///
/// impl BatchEvaluator<TicTacToe> for Network {
///     fn evaluate_batch(&self, batch: &mut Batch<TicTacToe>) {
///         self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
///         for entry in batch.entries_mut() {
///             *entry.value = TicTacToeHeuristic.value(entry.state);
///             entry.logits.fill(0.0);
///         }
///     }
/// }
///
/// let network = Network { calls: Default::default() };
/// let mut batch = Batch::new();
/// for square in 0..9 {
///     batch.push_legal(&TicTacToe::from_moves(&[square]).unwrap());
/// }
/// network.evaluate_batch(&mut batch);
/// assert_eq!(network.calls.into_inner(), 1);
/// ```
pub trait BatchEvaluator<G: Game>: Send + Sync {
    /// Fills in the value and the logits of every entry of `batch`.
    fn evaluate_batch(&self, batch: &mut Batch<G>);
}

impl<G: Game, E: PolicyEvaluator<G> + ?Sized> BatchEvaluator<G> for E {
    fn evaluate_batch(&self, batch: &mut Batch<G>) {
        self.evaluate_many(batch);
    }
}

/// A search that runs one step at a time and hands the positions it needs
/// evaluated to its caller, so that many searches can share one batch per
/// step ([`search_together`]), as self-play runs many games at once.
///
/// A step is a call to [`request`](BatchedSearch::request), one evaluation
/// of the batch by the caller, and a call to
/// [`receive`](BatchedSearch::receive). A search driven this way must give
/// exactly the report its own [`Searcher::search`](crate::Searcher::search)
/// gives with the same evaluator, whatever else shares its batches.
pub trait BatchedSearch<G: Game> {
    /// Starts a search of `state` within `limits`; the clock starts now.
    fn begin(&mut self, state: &G, limits: &Limits);

    /// Pushes onto `batch` the positions the search needs evaluated before
    /// it can go on (possibly none: it may have made progress without the
    /// evaluator), and returns `true`; or returns `false`, pushing nothing,
    /// once the search has ended. Entries already in `batch` belong to
    /// others and are left alone.
    fn request(&mut self, batch: &mut Batch<G>) -> bool;

    /// Takes the evaluations of the entries pushed by the last
    /// [`request`](BatchedSearch::request), which start at index `first`
    /// of `batch`, in the order they were pushed.
    fn receive(&mut self, batch: &Batch<G>, first: usize);

    /// The report of the search, once [`request`](BatchedSearch::request)
    /// has returned `false`.
    fn report(&mut self) -> SearchReport<G::Move>;
}

impl<G: Game, S: BatchedSearch<G> + ?Sized> BatchedSearch<G> for Box<S> {
    fn begin(&mut self, state: &G, limits: &Limits) {
        (**self).begin(state, limits);
    }

    fn request(&mut self, batch: &mut Batch<G>) -> bool {
        (**self).request(batch)
    }

    fn receive(&mut self, batch: &Batch<G>, first: usize) {
        (**self).receive(batch, first);
    }

    fn report(&mut self) -> SearchReport<G::Move> {
        (**self).report()
    }
}

impl<G: Game, S: BatchedSearch<G> + ?Sized> BatchedSearch<G> for &mut S {
    fn begin(&mut self, state: &G, limits: &Limits) {
        (**self).begin(state, limits);
    }

    fn request(&mut self, batch: &mut Batch<G>) -> bool {
        (**self).request(batch)
    }

    fn receive(&mut self, batch: &Batch<G>, first: usize) {
        (**self).receive(batch, first);
    }

    fn report(&mut self) -> SearchReport<G::Move> {
        (**self).report()
    }
}

/// Runs `searches[i]` on `states[i]` for every `i`, all at once: each step
/// collects the positions every running search needs into one batch, which
/// `evaluator` rates in a single call. Returns the reports in order.
///
/// Each search gives the same report it would give alone with the same
/// evaluator (see [`BatchedSearch`]); what sharing buys is fewer, larger
/// evaluator calls. With an evaluator whose cost is mostly a fixed latency
/// per call, 16 searches at once run nearly 16 times as many simulations per
/// second as one.
///
/// # Panics
///
/// If `searches` and `states` differ in length.
pub fn search_together<G, S, E>(
    evaluator: &E,
    searches: &mut [S],
    states: &[G],
    limits: &Limits,
) -> Vec<SearchReport<G::Move>>
where
    G: Game,
    S: BatchedSearch<G>,
    E: BatchEvaluator<G> + ?Sized,
{
    assert_eq!(
        searches.len(),
        states.len(),
        "one position per search is needed"
    );
    for (search, state) in searches.iter_mut().zip(states) {
        search.begin(state, limits);
    }
    let mut running = vec![true; searches.len()];
    let mut firsts = vec![0; searches.len()];
    let mut batch = Batch::new();
    while running.iter().any(|&on| on) {
        batch.clear();
        for ((search, on), first) in searches.iter_mut().zip(&mut running).zip(&mut firsts) {
            if *on {
                *first = batch.len();
                *on = search.request(&mut batch);
            }
        }
        if !batch.is_empty() {
            evaluator.evaluate_batch(&mut batch);
        }
        for ((search, &on), &first) in searches.iter_mut().zip(&running).zip(&firsts) {
            if on {
                search.receive(&batch, first);
            }
        }
    }
    searches.iter_mut().map(|search| search.report()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{TicTacToe, TicTacToeHeuristic};
    use crate::{Evaluator, UniformPrior};

    #[test]
    fn entries_line_up_with_their_moves_and_logits() {
        let mut batch = Batch::new();
        let positions = [
            TicTacToe::new(),
            TicTacToe::from_moves(&[4]).unwrap(),
            TicTacToe::from_moves(&[4, 0]).unwrap(),
        ];
        for position in &positions {
            batch.push_legal(position);
        }
        // A value-only entry between the others.
        batch.push(&positions[0], &[]);
        assert_eq!(batch.len(), 4);
        for (index, entry) in batch.entries_mut().enumerate() {
            assert_eq!(entry.moves.len(), entry.logits.len());
            for (logit, &square) in entry.logits.iter_mut().zip(entry.moves) {
                *logit = f32::from(square) + 10.0 * index as f32;
            }
            *entry.value = index as f32;
        }
        assert_eq!(batch.moves(0).len(), 9);
        assert_eq!(batch.moves(1).len(), 8);
        assert_eq!(batch.moves(2), &[1, 2, 3, 5, 6, 7, 8]);
        assert!(batch.moves(3).is_empty() && batch.logits(3).is_empty());
        assert_eq!(batch.logits(2), &[21.0, 22.0, 23.0, 25.0, 26.0, 27.0, 28.0]);
        assert_eq!(batch.value(3), 3.0);
        let entry = batch.entry_mut(1);
        assert_eq!(entry.state.stone(4), Some(crate::Player::First));
        assert_eq!(entry.logits[0], 10.0);
        // Cleared batches reuse their slots and start from zero again.
        batch.clear();
        assert!(batch.is_empty());
        batch.push_legal(&positions[2]);
        assert_eq!(batch.logits(0), &[0.0; 7]);
        assert_eq!(batch.value(0), 0.0);
        assert_eq!(batch.states().len(), 1);
    }

    #[test]
    fn single_position_evaluators_rate_each_entry() {
        let mut batch = Batch::new();
        let positions = [
            TicTacToe::from_moves(&[4, 0]).unwrap(),
            TicTacToe::from_moves(&[0, 4, 1]).unwrap(),
        ];
        for position in &positions {
            batch.push_legal(position);
        }
        UniformPrior(TicTacToeHeuristic).evaluate_batch(&mut batch);
        for (index, position) in positions.iter().enumerate() {
            assert_eq!(batch.value(index), TicTacToeHeuristic.value(position));
        }
    }

    /// Counts to `target` in steps of at most `per_step`, asking for one
    /// evaluation per count, and sums the values it is given.
    struct Counter {
        target: usize,
        per_step: usize,
        done: usize,
        asked: usize,
        sum: f32,
    }

    impl BatchedSearch<TicTacToe> for Counter {
        fn begin(&mut self, _state: &TicTacToe, _limits: &Limits) {
            self.done = 0;
            self.sum = 0.0;
        }

        fn request(&mut self, batch: &mut Batch<TicTacToe>) -> bool {
            if self.done == self.target {
                return false;
            }
            self.asked = self.per_step.min(self.target - self.done);
            for _ in 0..self.asked {
                batch.push_legal(&TicTacToe::from_moves(&[4]).unwrap());
            }
            true
        }

        fn receive(&mut self, batch: &Batch<TicTacToe>, first: usize) {
            for index in first..first + self.asked {
                self.sum += batch.value(index);
            }
            self.done += self.asked;
        }

        fn report(&mut self) -> SearchReport<u8> {
            SearchReport::new(None, self.sum)
        }
    }

    struct Calls(std::sync::atomic::AtomicUsize);

    impl BatchEvaluator<TicTacToe> for Calls {
        fn evaluate_batch(&self, batch: &mut Batch<TicTacToe>) {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            for entry in batch.entries_mut() {
                *entry.value = 0.5;
            }
        }
    }

    #[test]
    fn searches_together_share_one_call_per_step() {
        let mut searches: Vec<Counter> = [3, 7, 5]
            .into_iter()
            .map(|target| Counter {
                target,
                per_step: 2,
                done: 0,
                asked: 0,
                sum: 0.0,
            })
            .collect();
        let calls = Calls(Default::default());
        let states = vec![TicTacToe::new(); 3];
        let reports = search_together(&calls, &mut searches, &states, &Limits::none());
        // The longest search needs four steps of two.
        assert_eq!(calls.0.into_inner(), 4);
        let sums: Vec<f32> = reports.iter().map(|report| report.value).collect();
        assert_eq!(sums, [1.5, 3.5, 2.5]);
    }
}
