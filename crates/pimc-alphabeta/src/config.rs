//! The settings of [`AlphaBeta`](crate::AlphaBeta).

use game_traits::{Range, RangeError};

/// The most threads one search may use.
pub const MAX_THREADS: usize = 64;

/// The most transposition-table entries a configuration may ask for
/// (2^28 entries, 4 GiB): checked before anything is allocated.
pub const MAX_TABLE_ENTRIES: usize = 1 << 28;

/// The deepest nominal depth a search goes to (deeper limits are clamped).
pub const MAX_DEPTH: u32 = 250;

/// How alpha-beta values the root moves it reports in
/// [`SearchReport::moves`](game_traits::SearchReport::moves).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub enum RootValues {
    /// Plain alpha-beta at the root: the best move's value is exact, every
    /// other move's is an *upper bound* (the fail-soft score of the search
    /// that refuted it), never above the best move's. The cheapest.
    #[default]
    Bounds,
    /// Every root move whose value is within this margin (in value units)
    /// of the best is valued exactly; the others get an upper bound at
    /// least the margin below the best. Each move after the first is
    /// searched with a window reaching the margin below the best so far
    /// instead of a null window: close moves cost a full search, clearly
    /// worse ones little more than a null window. The choice for Perfect
    /// Information Monte Carlo, which averages root values over worlds and
    /// is misled by upper bounds close to the best.
    Near(f32),
    /// Every root move is searched with its own window (an aspiration
    /// window around its previous value, widened until the value is
    /// inside), so every reported value is exact. Costs about as much as a
    /// principal-variation search of each root move; what Perfect
    /// Information Monte Carlo needs to average exact values.
    Exact,
}

/// Settings of [`AlphaBeta`](crate::AlphaBeta). Start from
/// [`AlphaBetaConfig::default`] and chain the `with_*` methods.
///
/// Every combination returns exactly the value of plain negamax to the
/// same depth (the crate's differential tests check each): these switches
/// change the speed, never the result. The one exception is
/// [`late_move_reductions`](AlphaBetaConfig::late_move_reductions), off by
/// default, which makes the search selective.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct AlphaBetaConfig {
    /// Transposition table entries at most (16 bytes each; rounded down to
    /// a power of two). 0 turns the table off. Default `1 << 20` (16 MiB).
    /// A search starts with a small table and grows it between iterations
    /// as the search grows, so short searches stay cheap; with more
    /// threads, it grows to this size when the other threads join.
    pub table_entries: usize,
    /// Nodes below the root with fewer plies left than this neither look
    /// at nor write to the table. Default 1 (every node but the leaves). 2 leaves out the
    /// nodes just above the leaves, the most numerous: for a game whose
    /// evaluation is dear and whose positions seldom transpose that close
    /// to the leaves, the table look-ups there (mostly cache misses once
    /// the table outgrows the cache) cost more than they save. Othello with
    /// `bitboard-othello`'s `HeuristicEvaluator` reaches depth 10 about 15%
    /// sooner with 2; Jungle is about level; a game with a wide move list
    /// and frequent transpositions (Gomoku) is better served by 1.
    #[cfg_attr(feature = "serde", serde(default = "one"))]
    pub table_from_depth: u32,
    /// Principal variation search (Marsland & Campbell 1982): every move
    /// after the first is tried with a null window, and searched again only
    /// if it beats the best so far. Default on.
    pub principal_variation_search: bool,
    /// Half-width of the aspiration window around the previous iteration's
    /// value, in value units (`[-1, 1]`); `None` searches every iteration
    /// with a full window. Default `Some(0.05)`.
    pub aspiration_window: Option<f32>,
    /// Killer moves: two per ply, the last moves that caused a cutoff
    /// there, tried right after the table's move. Default on.
    pub killer_moves: bool,
    /// History heuristic (Schaeffer 1989): moves that caused cutoffs,
    /// weighted by the square of the depth, are tried first. Default on.
    pub history_heuristic: bool,
    /// With a policy evaluator set, nodes with at least this many plies
    /// left order their moves by its logits. Default 2.
    pub policy_depth: u32,
    /// How the root moves' values are reported. Default
    /// [`RootValues::Bounds`].
    pub root_values: RootValues,
    /// Threads (lazy SMP: all threads search the same position and share
    /// the table, and put off moves into positions another thread is
    /// searching; the others join once the main thread has searched 32,768
    /// nodes alone). Default 1.
    pub threads: usize,
    /// Positions a search visits at most when no limit it honours (time,
    /// nodes, depth) is set and there is no stop flag: the default budget.
    /// Default 1,000,000.
    pub default_nodes: u64,
    /// Late move reductions: with principal variation search, at nodes
    /// with at least 3 plies left, every move after the first three in
    /// the order is first searched one ply shallower (two, after the first
    /// ten with at least 5 plies left) with a null window, and searched
    /// again to the full depth only if that beats the best so far. With a
    /// good move order (a policy, say) the search then reaches much deeper
    /// in the same time, at the risk of missing a late move's value: the
    /// result is no longer that of negamax to the same depth. Default off.
    #[cfg_attr(feature = "serde", serde(default))]
    pub late_move_reductions: bool,
}

impl Default for AlphaBetaConfig {
    fn default() -> Self {
        AlphaBetaConfig {
            table_entries: 1 << 20,
            table_from_depth: 1,
            principal_variation_search: true,
            aspiration_window: Some(0.05),
            killer_moves: true,
            history_heuristic: true,
            policy_depth: 2,
            root_values: RootValues::Bounds,
            threads: 1,
            default_nodes: 1_000_000,
            late_move_reductions: false,
        }
    }
}

impl AlphaBetaConfig {
    /// Plain alpha-beta: no table, no principal variation search, no
    /// aspiration, no killers, no history; moves in generation order. The
    /// reference the enhancements are measured against.
    pub fn plain() -> Self {
        AlphaBetaConfig {
            table_entries: 0,
            table_from_depth: 1,
            principal_variation_search: false,
            aspiration_window: None,
            killer_moves: false,
            history_heuristic: false,
            policy_depth: u32::MAX,
            root_values: RootValues::Bounds,
            threads: 1,
            default_nodes: 1_000_000,
            late_move_reductions: false,
        }
    }

    /// Sets the table size in entries (0: no table).
    #[must_use]
    pub fn with_table_entries(mut self, entries: usize) -> Self {
        self.table_entries = entries;
        self
    }

    /// Sets the least depth left at which nodes use the table.
    #[must_use]
    pub fn with_table_from_depth(mut self, depth: u32) -> Self {
        self.table_from_depth = depth;
        self
    }

    /// Turns late move reductions on or off (see
    /// [`late_move_reductions`](AlphaBetaConfig::late_move_reductions)).
    #[must_use]
    pub fn with_late_move_reductions(mut self, on: bool) -> Self {
        self.late_move_reductions = on;
        self
    }

    /// Turns principal variation search on or off.
    #[must_use]
    pub fn with_principal_variation_search(mut self, on: bool) -> Self {
        self.principal_variation_search = on;
        self
    }

    /// Sets the aspiration window's half-width (`None`: full windows).
    #[must_use]
    pub fn with_aspiration_window(mut self, half_width: Option<f32>) -> Self {
        self.aspiration_window = half_width;
        self
    }

    /// Turns killer moves on or off.
    #[must_use]
    pub fn with_killer_moves(mut self, on: bool) -> Self {
        self.killer_moves = on;
        self
    }

    /// Turns the history heuristic on or off.
    #[must_use]
    pub fn with_history_heuristic(mut self, on: bool) -> Self {
        self.history_heuristic = on;
        self
    }

    /// Sets the least depth left at which a policy orders moves.
    #[must_use]
    pub fn with_policy_depth(mut self, depth: u32) -> Self {
        self.policy_depth = depth;
        self
    }

    /// Sets how root moves are valued.
    #[must_use]
    pub fn with_root_values(mut self, root_values: RootValues) -> Self {
        self.root_values = root_values;
        self
    }

    /// Sets the number of threads.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Sets the default budget in nodes.
    #[must_use]
    pub fn with_default_nodes(mut self, nodes: u64) -> Self {
        self.default_nodes = nodes;
        self
    }

    /// Checks the settings.
    ///
    /// # Errors
    ///
    /// [`ConfigError`] for 0 or more than [`MAX_THREADS`] threads, an
    /// aspiration window that is not a positive finite number, a default
    /// budget of 0 nodes, or more than [`MAX_TABLE_ENTRIES`] table entries.
    pub fn validate(&self) -> Result<(), ConfigError> {
        Range::check_count("default_nodes", self.default_nodes, 1, u64::MAX)?;
        Range::check_count(
            "table_entries",
            self.table_entries as u64,
            0,
            MAX_TABLE_ENTRIES as u64,
        )?;
        Range::check_count("threads", self.threads as u64, 1, MAX_THREADS as u64)?;
        if let Some(width) = self.aspiration_window {
            Range::Above(0.0).check("aspiration_window", f64::from(width))?;
        }
        if let RootValues::Near(margin) = self.root_values {
            Range::Above(0.0).check("root_values", f64::from(margin))?;
        }
        Ok(())
    }
}

/// The default of [`AlphaBetaConfig::table_from_depth`], for settings
/// written before it existed.
#[cfg(feature = "serde")]
fn one() -> u32 {
    1
}

/// A setting refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConfigError {
    /// A numeric setting outside its range.
    #[error(transparent)]
    Range(#[from] RangeError),
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_and_older_ones_read_with_the_table_at_every_node() {
        let config = AlphaBetaConfig::default()
            .with_table_from_depth(2)
            .with_root_values(RootValues::Near(0.1));
        let text = serde_json::to_string(&config).unwrap();
        assert_eq!(
            serde_json::from_str::<AlphaBetaConfig>(&text).unwrap(),
            config
        );
        let mut fields: serde_json::Value =
            serde_json::to_value(AlphaBetaConfig::default()).unwrap();
        fields
            .as_object_mut()
            .unwrap()
            .remove("table_from_depth")
            .expect("the field is written");
        let older: AlphaBetaConfig = serde_json::from_value(fields).unwrap();
        assert_eq!(older, AlphaBetaConfig::default());
    }
}
