#!/usr/bin/env python3
"""Reference values for game-arena's pentanomial statistics.

Standard library only; run it with `python3 pentanomial_reference.py >
pentanomial_reference.tsv`. The Rust test `pentanomial_reference` reads the
TSV and checks every number of `game_arena::stats` against it.

Each count vector is `[LL, LD, DD+WL, WD, WW]`: the number of game pairs in
which the first side scored 0, 1/2, 1, 3/2 and 2 points. The formulas are
the ones fastchess uses (github.com/Disservin/fastchess,
app/src/matchmaking/elo/elo_pentanomial.cpp and sprt/sprt.cpp), after
Michel Van den Bergh, "Comments on Normalized Elo"
(https://www.cantate.be/Fishtest/normalized_elo_practical.pdf):

* a pair's per-game score is its points / 2, one of 0, 1/4, 1/2, 3/4, 1;
  `score` is the mean of it over the N pairs and `variance` its variance
  (divided by N, not N - 1);
* the score's standard error is sqrt(variance / N); the 95% interval of the
  score is score -/+ z sqrt(variance / N) with z = 1.959963984540054, and
  the Elo interval is that interval mapped through
  elo(s) = -400 log10(1/s - 1) (infinite at scores <= 1e-12 or >= 1 - 1e-12,
  so an interval past 0 or 1 ends at an infinity); `elo_error` is half its
  width, 0 when both ends are equal (fastchess prints `elo +/- elo_error`);
* nElo = (score - 1/2) / sqrt(2 variance) * 800 / ln 10, and its error
  z / sqrt(2 N) * 800 / ln 10;
* the LLR is N times the mean, under the empirical distribution, of
  log(p1 / p0), where p0 and p1 are the maximum-likelihood distributions
  on the five outcomes under H0 and H1, with zero counts replaced by
  1e-3 (and N the sum of the regularized counts). `llr_logistic`: the
  hypotheses fix the mean score at score(elo0), score(elo1) (logistic Elo);
  `llr_normalized`: they fix (mean - 1/2) / sigma at
  sqrt(2) nelo / (800 / ln 10) (normalized Elo, fastchess's default).

fastchess stops its root finder and its fixed-point iteration early
(tolerances 1e-3, 1e-7 and 1e-4); this script solves both to the limit of
double precision, so its LLRs are the exact maximum-likelihood values that
fastchess's approximate (they differ in the fourth digit at most).
"""

import math

Z95 = 1.959963984540054
NELO_SCALE = 800.0 / math.log(10.0)
POINTS = [0.0, 0.25, 0.5, 0.75, 1.0]
ZERO_COUNT = 1e-3

COUNTS = [
    # fastchess app/tests/elo_test.cpp "EloPentanomial 1..3"
    ("fastchess_elo_1", [34, 54, 63, 64, 75]),
    ("fastchess_elo_2", [332, 433, 498, 333, 334]),
    ("fastchess_elo_3", [7895, 8757, 5685, 568, 9999]),
    # fastchess app/tests/sprt_test.cpp "logistic pentanomial 1, 2"
    ("fastchess_sprt_logistic_1", [223, 9863, 21279, 10037, 246]),
    ("fastchess_sprt_logistic_2", [871, 26175, 55983, 26678, 821]),
    # fastchess app/tests/sprt_test.cpp "normalized pentanomial 1..3"
    ("fastchess_sprt_normalized_1", [365, 16618, 36229, 16974, 390]),
    ("fastchess_sprt_normalized_2", [127, 4883, 10712, 5150, 104]),
    ("all_wins", [0, 0, 0, 0, 104]),
    ("one_lost_pair", [1, 0, 0, 0, 0]),
    ("all_even", [0, 0, 7, 0, 0]),
    ("zero_cells", [0, 3, 10, 0, 1]),
    ("extremes_only", [2, 0, 5, 0, 2]),
    ("lopsided", [0, 1, 4, 20, 75]),
    ("small", [3, 12, 30, 25, 9]),
]

BOUNDS = [(0.0, 2.0), (-1.75, 0.25), (0.5, 2.5), (0.0, 5.0), (0.0, 50.0)]


def elo_from_score(score):
    if score <= 1e-12:
        return -math.inf
    if score >= 1.0 - 1e-12:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_and_variance(counts):
    pairs = float(sum(counts))
    score = sum(c * a for c, a in zip(counts, POINTS)) / pairs
    variance = sum(c * (a - score) * (a - score) for c, a in zip(counts, POINTS)) / pairs
    return score, variance


def nelo(score, variance):
    if variance > 0.0:
        return (score - 0.5) / math.sqrt(2.0 * variance) * NELO_SCALE
    if score == 0.5:
        return 0.0
    return math.copysign(math.inf, score - 0.5)


def elo_error(low, high):
    """Half the width of the Elo interval; 0 for an interval of no width
    (both ends at the same infinity included)."""
    if low == high:
        return 0.0
    return (high - low) / 2.0


def root_of_decreasing(f, low, high):
    """The root of f, decreasing on the open interval (low, high), by
    bisection down to adjacent doubles."""
    for _ in range(400):
        middle = 0.5 * (low + high)
        if middle <= low or middle >= high:
            break
        if f(middle) > 0.0:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


def regularized(counts):
    values = [ZERO_COUNT if c == 0 else float(c) for c in counts]
    total = sum(values)
    return total, [v / total for v in values]


def mle_with_mean(probs, mean):
    """The distribution on POINTS closest to probs (maximum likelihood)
    whose mean is `mean`: p_i = q_i / (1 + theta (a_i - mean))."""
    def f(theta):
        return sum(q * (a - mean) / (1.0 + theta * (a - mean)) for q, a in zip(probs, POINTS))

    theta = root_of_decreasing(f, -1.0 / (POINTS[-1] - mean), -1.0 / (POINTS[0] - mean))
    return [q / (1.0 + theta * (a - mean)) for q, a in zip(probs, POINTS)]


def mle_with_t(probs, t):
    """The maximum-likelihood distribution on POINTS with
    (mean - 1/2) / sigma = t, by the fixed-point iteration of section 4.1
    of Van den Bergh's note, from the uniform distribution."""
    p = [1.0 / len(POINTS)] * len(POINTS)
    for _ in range(1000):
        mu = sum(x * a for x, a in zip(p, POINTS))
        var = sum(x * (a - mu) * (a - mu) for x, a in zip(p, POINTS))
        sigma = math.sqrt(var)
        phi = [a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma) * ((a - mu) / sigma)) for a in POINTS]
        smallest, largest = min(phi), max(phi)
        if not (smallest < 0.0 < largest):
            break

        def f(theta):
            return sum(q * v / (1.0 + theta * v) for q, v in zip(probs, phi))

        theta = root_of_decreasing(f, -1.0 / largest, -1.0 / smallest)
        new = [q / (1.0 + theta * v) for q, v in zip(probs, phi)]
        change = max(abs(n - o) for n, o in zip(new, p))
        p = new
        if change < 1e-14:
            break
    return p


def llr_from(total, probs, p0, p1):
    return total * sum(q * (math.log(b) - math.log(a)) for q, a, b in zip(probs, p0, p1))


def llr_logistic(counts, elo0, elo1):
    if sum(counts) == 0:
        return 0.0
    total, probs = regularized(counts)
    return llr_from(total, probs, mle_with_mean(probs, score_from_elo(elo0)),
                    mle_with_mean(probs, score_from_elo(elo1)))


def llr_normalized(counts, nelo0, nelo1):
    if sum(counts) == 0:
        return 0.0
    total, probs = regularized(counts)
    t0 = math.sqrt(2.0) * nelo0 / NELO_SCALE
    t1 = math.sqrt(2.0) * nelo1 / NELO_SCALE
    return llr_from(total, probs, mle_with_t(probs, t0), mle_with_t(probs, t1))


def number(x):
    return "%.15g" % x


def main():
    columns = ["name", "ll", "ld", "dd_wl", "wd", "ww", "elo0", "elo1", "score", "variance",
               "elo", "elo_low", "elo_high", "elo_error", "nelo", "nelo_error",
               "llr_normalized", "llr_logistic"]
    print("\t".join(columns))
    for name, counts in COUNTS:
        pairs = sum(counts)
        score, variance = score_and_variance(counts)
        spread = Z95 * math.sqrt(variance / pairs)
        low = elo_from_score(score - spread)
        high = elo_from_score(score + spread)
        nelo_error = Z95 / math.sqrt(2.0 * pairs) * NELO_SCALE
        for elo0, elo1 in BOUNDS:
            row = [name] + [str(c) for c in counts] + [number(elo0), number(elo1)]
            row += [number(x) for x in (score, variance, elo_from_score(score), low, high,
                                        elo_error(low, high), nelo(score, variance), nelo_error,
                                        llr_normalized(counts, elo0, elo1),
                                        llr_logistic(counts, elo0, elo1))]
            print("\t".join(row))


if __name__ == "__main__":
    main()
