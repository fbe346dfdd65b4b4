//! Random variates for root noise: Gumbel (Gumbel AlphaZero) and Dirichlet
//! (AlphaZero), on top of any [`Rng`].

use rand::Rng;

/// A uniform number in the open interval `(0, 1)`: 53 random bits, centred
/// in their cell, so neither 0 nor 1 can come out (both would break a
/// logarithm).
pub fn open_unit<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    const SCALE: f64 = 1.0 / (1u64 << 53) as f64;
    ((rng.next_u64() >> 11) as f64 + 0.5) * SCALE
}

/// A standard Gumbel variate, `-ln(-ln U)` with `U` uniform on `(0, 1)`.
///
/// Adding independent Gumbel noise to logits and taking the top `k` draws
/// `k` actions without replacement from their softmax (the Gumbel-Top-k
/// trick; Kool et al., 2019; Danihelka et al., 2022, Section 2).
pub fn gumbel<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    -(-open_unit(rng).ln()).ln()
}

/// A standard normal variate (Marsaglia's polar method).
pub fn standard_normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    loop {
        let u = 2.0 * open_unit(rng) - 1.0;
        let v = 2.0 * open_unit(rng) - 1.0;
        let s = u * u + v * v;
        if s > 0.0 && s < 1.0 {
            return u * (-2.0 * s.ln() / s).sqrt();
        }
    }
}

/// A Gamma(`shape`, 1) variate by Marsaglia and Tsang's method ("A simple
/// method for generating gamma variables", ACM TOMS 26(3), 2000); shapes
/// below 1 use their boost `Gamma(shape + 1) * U^(1 / shape)` (same paper,
/// Section 6).
///
/// # Panics
///
/// Debug builds panic if `shape` is not positive and finite; callers
/// validate it first (the searchers' configurations do).
pub fn gamma<R: Rng + ?Sized>(shape: f64, rng: &mut R) -> f64 {
    debug_assert!(shape > 0.0 && shape.is_finite(), "gamma shape {shape}");
    if shape < 1.0 {
        return gamma(shape + 1.0, rng) * open_unit(rng).powf(1.0 / shape);
    }
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = standard_normal(rng);
        let t = 1.0 + c * x;
        if t <= 0.0 {
            continue;
        }
        let v = t * t * t;
        let u = open_unit(rng);
        let x2 = x * x;
        // Cheap squeeze first, exact test second.
        if u < 1.0 - 0.0331 * x2 * x2 || u.ln() < 0.5 * x2 + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// Fills `out` with a sample of the symmetric Dirichlet distribution with
/// concentration `alpha` (normalised Gamma(`alpha`) variates).
///
/// For very small `alpha` every Gamma variate can underflow to zero; the
/// sample is then a corner of the simplex chosen uniformly, which is the
/// limit of the distribution as `alpha` goes to 0.
pub fn dirichlet<R: Rng + ?Sized>(alpha: f64, out: &mut [f64], rng: &mut R) {
    if out.is_empty() {
        return;
    }
    let mut sum = 0.0;
    for value in out.iter_mut() {
        *value = gamma(alpha, rng);
        sum += *value;
    }
    if sum > 0.0 {
        for value in out.iter_mut() {
            *value /= sum;
        }
    } else {
        let corner = ((open_unit(rng) * out.len() as f64) as usize).min(out.len() - 1);
        out.fill(0.0);
        out[corner] = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_pcg::Pcg64Mcg;

    fn mean_and_variance(samples: &[f64]) -> (f64, f64) {
        let n = samples.len() as f64;
        let mean = samples.iter().sum::<f64>() / n;
        let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, variance)
    }

    #[test]
    fn gamma_has_the_right_mean_and_variance() {
        let mut rng = Pcg64Mcg::seed_from_u64(7);
        for shape in [0.03, 0.3, 1.0, 2.5, 10.0] {
            let samples: Vec<f64> = (0..200_000).map(|_| gamma(shape, &mut rng)).collect();
            assert!(samples.iter().all(|&x| x >= 0.0 && x.is_finite()));
            let (mean, variance) = mean_and_variance(&samples);
            // Gamma(k, 1): mean k, variance k. Five standard errors.
            let mean_error = (shape / samples.len() as f64).sqrt();
            assert!(
                (mean - shape).abs() < 5.0 * mean_error,
                "shape {shape}: mean {mean}"
            );
            assert!(
                (variance - shape).abs() < 0.05 * shape.max(0.1),
                "shape {shape}: variance {variance}"
            );
        }
    }

    #[test]
    fn gumbel_has_the_right_mean_and_variance() {
        let mut rng = Pcg64Mcg::seed_from_u64(8);
        let samples: Vec<f64> = (0..200_000).map(|_| gumbel(&mut rng)).collect();
        let (mean, variance) = mean_and_variance(&samples);
        // Euler-Mascheroni constant and pi^2 / 6.
        assert!((mean - 0.577_215_664_9).abs() < 0.01, "mean {mean}");
        assert!(
            (variance - 1.644_934_066_8).abs() < 0.03,
            "variance {variance}"
        );
    }

    #[test]
    fn normal_is_standard() {
        let mut rng = Pcg64Mcg::seed_from_u64(9);
        let samples: Vec<f64> = (0..200_000).map(|_| standard_normal(&mut rng)).collect();
        let (mean, variance) = mean_and_variance(&samples);
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((variance - 1.0).abs() < 0.02, "variance {variance}");
    }

    #[test]
    fn dirichlet_lies_on_the_simplex_with_the_right_spread() {
        let mut rng = Pcg64Mcg::seed_from_u64(10);
        let mut sample = [0.0; 8];
        let mut firsts = Vec::new();
        for _ in 0..50_000 {
            dirichlet(0.3, &mut sample, &mut rng);
            assert!((sample.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(sample.iter().all(|&x| (0.0..=1.0).contains(&x)));
            firsts.push(sample[0]);
        }
        // Symmetric Dirichlet(alpha) over K: mean 1/K, variance
        // (K - 1) / (K^2 (K alpha + 1)).
        let (mean, variance) = mean_and_variance(&firsts);
        let k = 8.0;
        assert!((mean - 1.0 / k).abs() < 0.005, "mean {mean}");
        let expected = (k - 1.0) / (k * k * (k * 0.3 + 1.0));
        assert!(
            (variance - expected).abs() < 0.05 * expected,
            "variance {variance}"
        );
        // Tiny concentrations fall back to a corner, never to NaN.
        dirichlet(1e-300, &mut sample, &mut rng);
        assert!((sample.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
