//! Match statistics: Elo difference with a 95% confidence interval, the
//! likelihood of superiority, and the sequential probability ratio test.
//!
//! Scores count a win 1, a draw 1/2 and a loss 0 ([`Tally`]).
//!
//! * **Elo difference** from a score `s` (logistic model, as the Elo
//!   system defines it): `elo = -400 log10(1/s - 1)`. The 95% interval is
//!   the Wilson interval of the score ([`Tally::confidence95`], the one
//!   every table of `docs/results.md` uses) mapped through the same
//!   formula; a score of 0 or 1 maps to an infinite difference.
//! * **Likelihood of superiority**, the probability that the first side is
//!   the stronger given its wins `W` and losses `L` (draws carry no
//!   information): `LOS = Phi((W - L) / sqrt(W + L))`, the normal
//!   approximation of the binomial test over the decisive games.
//! * **SPRT** (Wald, *Sequential tests of statistical hypotheses*, Annals
//!   of Mathematical Statistics 16, 1945): H0 "the Elo difference is
//!   `elo0`" against H1 "it is `elo1`", stopping as soon as the
//!   log-likelihood ratio leaves `[ln(beta / (1 - alpha)), ln((1 - beta) /
//!   alpha)]`. The ratio is the generalized SPRT's normal approximation
//!   (the form used by chess-engine testing frameworks such as fishtest):
//!   with the sample mean score `s`, its per-game variance `var` and the
//!   expected scores `s0`, `s1` of the two hypotheses,
//!   `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var)`.

use game_traits::Tally;

pub use game_traits::{EloEstimate, elo_from_score, format_elo, score_from_elo};

/// The Elo difference of the side whose results `tally` holds, with the
/// 95% interval from the Wilson interval of its score ([`Tally::elo`]).
pub fn elo_estimate(tally: &Tally) -> EloEstimate {
    tally.elo()
}

/// The likelihood that the side whose results `tally` holds is the
/// stronger, in `[0, 1]`; 0.5 without decisive games.
pub fn likelihood_of_superiority(tally: &Tally) -> f64 {
    let decisive = f64::from(tally.wins) + f64::from(tally.losses);
    if decisive == 0.0 {
        return 0.5;
    }
    let z = (f64::from(tally.wins) - f64::from(tally.losses)) / decisive.sqrt();
    0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2))
}

/// The error function, by Abramowitz & Stegun, *Handbook of Mathematical
/// Functions*, formula 7.1.26 (absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// What an SPRT concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SprtDecision {
    /// The difference is `elo0` (or less): H0 accepted.
    AcceptH0,
    /// The difference is `elo1` (or more): H1 accepted.
    AcceptH1,
}

impl std::fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

/// A sequential probability ratio test between two Elo differences.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1 (greater than `elo0`).
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates `alpha` and
    /// `beta`.
    ///
    /// # Errors
    ///
    /// A message if `elo0 >= elo1` or an error rate is not in `(0, 0.5)`.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!(
                "SPRT needs finite Elo bounds with elo0 < elo1, got {elo0} and {elo1}"
            ));
        }
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(format!("SPRT {name} must be in (0, 0.5), got {rate}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds `(lower, upper)` of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the results in
    /// `tally` (0 while the scores have no variance).
    pub fn llr(&self, tally: &Tally) -> f64 {
        let games = f64::from(tally.games());
        if games == 0.0 {
            return 0.0;
        }
        let score = tally.score();
        let variance = (f64::from(tally.wins) * (1.0 - score).powi(2)
            + f64::from(tally.draws) * (0.5 - score).powi(2)
            + f64::from(tally.losses) * score.powi(2))
            / games;
        if variance <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        games * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    /// The decision for the results in `tally`, once there is one.
    pub fn decide(&self, tally: &Tally) -> Option<SprtDecision> {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::AcceptH1)
        } else if llr <= lower {
            Some(SprtDecision::AcceptH0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!((elo_from_score(0.75) - 190.848).abs() < 0.01);
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        for elo in [-400.0, -35.0, 0.0, 12.5, 300.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
        assert_eq!(format_elo(190.848), "+191");
        assert_eq!(format_elo(f64::NEG_INFINITY), "-inf");
        assert_eq!(format_elo(-0.2), "0");
        assert_eq!(elo_from_score(1.0 - 1e-15), f64::INFINITY);
    }

    #[test]
    fn elo_interval_contains_the_estimate() {
        let estimate = elo_estimate(&tally(75, 0, 25));
        assert!(estimate.low < estimate.elo && estimate.elo < estimate.high);
        // Wilson interval of 75/100: 0.657..0.824.
        assert!(
            (estimate.low - elo_from_score(0.657)).abs() < 2.0,
            "{estimate}"
        );
        assert!(
            (estimate.high - elo_from_score(0.824)).abs() < 2.0,
            "{estimate}"
        );
        let perfect = elo_estimate(&tally(10, 0, 0));
        assert_eq!(perfect.elo, f64::INFINITY);
        assert!(perfect.low.is_finite());
    }

    #[test]
    fn erf_and_los_match_tables() {
        assert!(erf(0.0).abs() < 1e-9);
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 2e-7);
        // 60 wins, 40 losses: z = 2, Phi(2) = 0.97725.
        assert!((likelihood_of_superiority(&tally(60, 30, 40)) - 0.977_25).abs() < 1e-4);
        assert_eq!(likelihood_of_superiority(&tally(0, 8, 0)), 0.5);
        assert!(likelihood_of_superiority(&tally(40, 0, 60)) < 0.03);
    }

    #[test]
    fn sprt_decides_clear_cases_and_waits_on_close_ones() {
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 0.001 && (lower + 2.944).abs() < 0.001);
        assert_eq!(sprt.decide(&tally(80, 0, 20)), Some(SprtDecision::AcceptH1));
        assert_eq!(sprt.decide(&tally(20, 0, 80)), Some(SprtDecision::AcceptH0));
        assert_eq!(sprt.decide(&tally(6, 0, 4)), None);
        assert_eq!(sprt.decide(&tally(0, 0, 0)), None);
        assert_eq!(sprt.llr(&tally(0, 10, 0)), 0.0);
        // The ratio grows with the evidence.
        assert!(sprt.llr(&tally(120, 0, 80)) > sprt.llr(&tally(60, 0, 40)));
        assert!(Sprt::new(10.0, 5.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    }
}
