//! Completed Q-values and the monotone transform sigma (Danihelka et al.,
//! 2022, Section 4 and Appendix D; mctx `qtransform_completed_by_mix_value`).

use crate::ConfigError;
use crate::tree::Edge;
use game_traits::Range;

/// Parameters of the completed-Q transform: how Q-values are completed,
/// rescaled and turned into logit offsets.
///
/// At a node with visit counts `N`, prior `pi = softmax(logits)` and value
/// estimate `v`:
///
/// 1. `v_mix = (v + sum_b N(b) * sum_{N(a)>0} pi(a) q(a) / sum_{N(a)>0} pi(a)) / (1 + sum_b N(b))`
///    (paper, Eq. 33), or `v` itself without
///    [`use_mixed_value`](CompletedQ::use_mixed_value);
/// 2. `completed(a) = q(a)` if `N(a) > 0`, else `v_mix`, for every action of
///    the action space (illegal ones too);
/// 3. with [`rescale_values`](CompletedQ::rescale_values): min-max
///    rescaling to `[0, 1]` over this node's completed values, the
///    denominator floored at [`epsilon`](CompletedQ::epsilon);
/// 4. `sigma(completed(a)) = (c_visit + max_b N(b)) * c_scale * completed(a)`
///    (paper, Eq. 8).
///
/// The defaults are the reference's: `c_visit = 50`, `c_scale = 0.1`, both
/// switches on, `epsilon = 1e-8`.
///
/// With the `serde` feature it deserializes through
/// [`CompletedQ::validate`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "crate::serde_impl::CompletedQRaw")
)]
#[non_exhaustive]
pub struct CompletedQ {
    /// `c_visit` (mctx `maxvisit_init`).
    pub c_visit: f64,
    /// `c_scale` (mctx `value_scale`).
    pub c_scale: f64,
    /// Min-max rescale the completed values at each node.
    pub rescale_values: bool,
    /// Complete unvisited actions with the mixed value `v_mix` rather than
    /// the evaluator's value.
    pub use_mixed_value: bool,
    /// Floor of the rescaling denominator.
    pub epsilon: f64,
}

impl Default for CompletedQ {
    fn default() -> Self {
        CompletedQ {
            c_visit: 50.0,
            c_scale: 0.1,
            rescale_values: true,
            use_mixed_value: true,
            epsilon: 1e-8,
        }
    }
}

impl CompletedQ {
    /// Sets `c_visit`.
    #[must_use]
    pub fn with_c_visit(mut self, c_visit: f64) -> Self {
        self.c_visit = c_visit;
        self
    }

    /// Sets `c_scale`.
    #[must_use]
    pub fn with_c_scale(mut self, c_scale: f64) -> Self {
        self.c_scale = c_scale;
        self
    }

    /// Turns min-max rescaling on or off.
    #[must_use]
    pub fn with_rescale_values(mut self, rescale_values: bool) -> Self {
        self.rescale_values = rescale_values;
        self
    }

    /// Turns the mixed value on or off.
    #[must_use]
    pub fn with_use_mixed_value(mut self, use_mixed_value: bool) -> Self {
        self.use_mixed_value = use_mixed_value;
        self
    }

    /// Sets the rescaling floor.
    #[must_use]
    pub fn with_epsilon(mut self, epsilon: f64) -> Self {
        self.epsilon = epsilon;
        self
    }

    /// Checks every parameter.
    ///
    /// # Errors
    ///
    /// Returns [`ConfigError::Range`] for a negative or non-finite
    /// `c_visit` or `c_scale` (sigma must be monotone), or a non-positive
    /// or non-finite `epsilon`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        Range::AtLeast(0.0).check("c_visit", self.c_visit)?;
        Range::AtLeast(0.0).check("c_scale", self.c_scale)?;
        Range::Above(0.0).check("epsilon", self.epsilon)?;
        Ok(())
    }
}

/// What [`complete`] learned about a node besides sigma.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Completion {
    pub(crate) sum_visits: u32,
    pub(crate) mixed_value: f64,
    /// Subtracted before the division (0 without rescaling).
    pub(crate) offset: f64,
    /// The rescaling denominator (1 without rescaling).
    pub(crate) denominator: f64,
    /// `(c_visit + max_b N(b)) * c_scale`.
    pub(crate) factor: f64,
}

impl Completion {
    /// Sigma of a completed (unscaled) value, as computed for the node.
    pub(crate) fn sigma(&self, completed: f64) -> f64 {
        self.factor * ((completed - self.offset) / self.denominator)
    }
}

/// Writes sigma(completed Q) of each edge of a node into `sigma` (one entry
/// per edge). `has_illegal` says whether the node has fewer legal moves
/// than the action space has actions: the reference completes those
/// actions too (with `v_mix`), so `v_mix` then takes part in the min-max
/// rescaling even when every legal action is visited.
pub(crate) fn complete<M>(
    edges: &[Edge<M>],
    raw_value: f64,
    has_illegal: bool,
    params: &CompletedQ,
    sigma: &mut Vec<f64>,
) -> Completion {
    let mut sum_visits = 0u32;
    let mut max_visits = 0u32;
    let mut visited_prior = 0.0;
    for edge in edges {
        sum_visits += edge.visits;
        max_visits = max_visits.max(edge.visits);
        if edge.visits > 0 {
            visited_prior += edge.prior;
        }
    }
    let mixed_value = if params.use_mixed_value {
        let mut weighted_q = 0.0;
        if sum_visits > 0 {
            for edge in edges.iter().filter(|edge| edge.visits > 0) {
                weighted_q += edge.prior * edge.q / visited_prior;
            }
        }
        let sum = f64::from(sum_visits);
        (raw_value + sum * weighted_q) / (sum + 1.0)
    } else {
        raw_value
    };
    sigma.clear();
    let (mut low, mut high) = if has_illegal {
        (mixed_value, mixed_value)
    } else {
        (f64::INFINITY, f64::NEG_INFINITY)
    };
    for edge in edges {
        let completed = if edge.visits > 0 { edge.q } else { mixed_value };
        low = low.min(completed);
        high = high.max(completed);
        sigma.push(completed);
    }
    let (offset, denominator) = if params.rescale_values {
        (low, (high - low).max(params.epsilon))
    } else {
        (0.0, 1.0)
    };
    let factor = (params.c_visit + f64::from(max_visits)) * params.c_scale;
    let completion = Completion {
        sum_visits,
        mixed_value,
        offset,
        denominator,
        factor,
    };
    for value in sigma.iter_mut() {
        *value = completion.sigma(*value);
    }
    completion
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::NO_NODE;

    fn edge(prior: f64, visits: u32, q: f64) -> Edge<u8> {
        Edge {
            mv: 0,
            action: 0,
            logit: prior.ln(),
            prior,
            child: NO_NODE,
            visits,
            q,
        }
    }

    #[test]
    fn mixed_value_weights_visited_children_by_prior() {
        let edges = [edge(0.5, 2, 1.0), edge(0.25, 1, -1.0), edge(0.25, 0, 0.0)];
        let mut sigma = Vec::new();
        let completion = complete(&edges, 0.5, false, &CompletedQ::default(), &mut sigma);
        // weighted q = (0.5 * 1 - 0.25 * 1) / 0.75 = 1/3; v_mix = (0.5 + 3/3) / 4.
        assert!((completion.mixed_value - 0.375).abs() < 1e-15);
        assert_eq!(completion.sum_visits, 3);
        // Rescaled: q = 1 -> 1, q = -1 -> 0, v_mix -> 0.6875; factor (50 + 2) * 0.1.
        let factor = 5.2;
        assert!((sigma[0] - factor).abs() < 1e-12);
        assert_eq!(sigma[1], 0.0);
        assert!((sigma[2] - factor * 0.6875).abs() < 1e-12);
    }

    #[test]
    fn illegal_actions_join_the_rescaling() {
        // Both legal actions visited; v_mix lies between their values only
        // if it is part of the min-max.
        let edges = [edge(0.5, 1, 0.2), edge(0.5, 1, 0.4)];
        let params = CompletedQ::default();
        let mut without = Vec::new();
        let mut with = Vec::new();
        complete(&edges, 0.9, false, &params, &mut without);
        let completion = complete(&edges, 0.9, true, &params, &mut with);
        // v_mix = (0.9 + 2 * 0.3) / 3 = 0.5 is the maximum with illegal actions.
        assert!((completion.mixed_value - 0.5).abs() < 1e-15);
        assert_eq!(without[1], (50.0 + 1.0) * 0.1);
        assert!((with[1] - 5.1 * (0.2 / 0.3)).abs() < 1e-12);
    }

    #[test]
    fn switches_behave_like_the_reference() {
        let edges = [edge(0.5, 1, 0.2), edge(0.5, 0, 0.0)];
        let mut sigma = Vec::new();
        let raw = CompletedQ::default().with_use_mixed_value(false);
        assert_eq!(
            complete(&edges, -0.3, false, &raw, &mut sigma).mixed_value,
            -0.3
        );
        let unscaled = CompletedQ::default().with_rescale_values(false);
        let completion = complete(&edges, -0.3, false, &unscaled, &mut sigma);
        assert!((sigma[0] - 5.1 * 0.2).abs() < 1e-12);
        assert!((sigma[1] - 5.1 * completion.mixed_value).abs() < 1e-12);
    }

    #[test]
    fn validation_refuses_bad_parameters() {
        assert!(CompletedQ::default().validate().is_ok());
        assert!(CompletedQ::default().with_c_scale(-1.0).validate().is_err());
        assert!(
            CompletedQ::default()
                .with_c_visit(f64::NAN)
                .validate()
                .is_err()
        );
        assert!(CompletedQ::default().with_epsilon(0.0).validate().is_err());
    }
}
