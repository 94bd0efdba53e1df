#!/usr/bin/env python3
"""Generate reference.csv for tests/stats.rs, independently of the Rust code.

This script re-implements, in plain Python 3 (no scipy), the mathematics of
fishtest's LLRcalc.py (official-stockfish/fishtest, server/fishtest/stats):

* results are regularized by replacing every zero count with 1e-3;
* the empirical distribution puts mass count_i / N on score a_i = i/(n-1)
  (trinomial L, D, W -> 0, 1/2, 1; pentanomial pairs -> 0, 1/4, ..., 1);
* "logistic" model: LLR = N * E_phat[log p1 - log p0], where p_j is the
  maximum-likelihood distribution with expectation s_j = L(elo_j)
  (Van den Bergh, "support_MLE_multinomial", Proposition 1.1);
* "normalized" model: the same with p_j the maximum-likelihood distribution
  with t-value (mu - 1/2)/sigma = t_j, t_j = nelo_j / (800/ln 10), times
  sqrt(2) for pentanomial (Van den Bergh, "normalized_elo_practical",
  Section 4.1), found by fixed-point iteration from the uniform distribution.

Elo and its 95% interval follow the project BRIEF: s = (W + D/2)/N,
Elo = -400 log10(1/s - 1), interval from s +- 1.96 sigma where sigma^2 is the
variance of the mean score (unregularized counts). Normalized Elo is
(s - 1/2)/sigma_game * 800/ln 10 with sigma_game the per-game standard
deviation (pentanomial: sqrt(2 * per-pair variance of the pair mean)).

Run from the crate root:  python3 tests/data/stats/reference.py
"""

import csv
import math
import os
import sys

NELO_PER_T = 800.0 / math.log(10.0)
Z95 = 1.96


def bisect_decreasing(f, lo, hi):
    """Root of a decreasing function on the open interval (lo, hi)."""
    for _ in range(400):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def secular(phat, phi):
    """Solve sum_i phat_i phi_i / (1 + x phi_i) = 0 for x."""
    u, v = min(phi), max(phi)
    assert u < 0 < v, (u, v)

    def f(x):
        return sum(p * a / (1.0 + x * a) for p, a in zip(phat, phi))

    return bisect_decreasing(f, -1.0 / v, -1.0 / u)


def mean_var(a, p):
    mu = sum(pi * ai for ai, pi in zip(a, p))
    var = sum(pi * (ai - mu) ** 2 for ai, pi in zip(a, p))
    return mu, var


def mle_expectation(a, phat, s):
    phi = [ai - s for ai in a]
    x = secular(phat, phi)
    p = [pi / (1.0 + x * d) for pi, d in zip(phat, phi)]
    mu, _ = mean_var(a, p)
    assert abs(mu - s) < 1e-9
    return p


def mle_t_value(a, phat, ref, t):
    n = len(a)
    p = [1.0 / n] * n
    for _ in range(1000):
        mu, var = mean_var(a, p)
        sigma = math.sqrt(var)
        phi = [ai - ref - t * sigma * (1.0 + ((mu - ai) / sigma) ** 2) / 2.0 for ai in a]
        x = secular(phat, phi)
        new = [pi / (1.0 + x * d) for pi, d in zip(phat, phi)]
        diff = max(abs(u - w) for u, w in zip(new, p))
        p = new
        if diff < 1e-13:
            break
    mu, var = mean_var(a, p)
    assert abs((mu - ref) / math.sqrt(var) - t) < 1e-7
    return p


def pdf_of(counts):
    reg = [c if c > 0 else 1e-3 for c in counts]
    n = sum(reg)
    k = len(reg)
    return n, [i / (k - 1) for i in range(k)], [c / n for c in reg]


def llr(counts, elo0, elo1, model):
    """counts ascending by score: [L, D, W] or [LL, .., WW]."""
    if sum(counts) == 0:
        return 0.0
    n, a, phat = pdf_of(counts)
    if model == "logistic":
        s0, s1 = [1.0 / (1.0 + 10.0 ** (-e / 400.0)) for e in (elo0, elo1)]
        p0, p1 = mle_expectation(a, phat, s0), mle_expectation(a, phat, s1)
    else:
        scale = 1.0 if len(counts) == 3 else math.sqrt(2.0)
        t0, t1 = [scale * e / NELO_PER_T for e in (elo0, elo1)]
        p0, p1 = mle_t_value(a, phat, 0.5, t0), mle_t_value(a, phat, 0.5, t1)
    return n * sum(q * (math.log(b) - math.log(c)) for q, b, c in zip(phat, p1, p0))


def elo_of(s):
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def rating(counts):
    """(score, elo, err95, lo, hi, nelo) from raw counts ascending by score."""
    k = len(counts)
    n = sum(counts)
    a = [i / (k - 1) for i in range(k)]
    p = [c / n for c in counts]
    s, var = mean_var(a, p)
    sigma = math.sqrt(var / n)  # standard deviation of the mean score
    lo = elo_of(max(0.0, s - Z95 * sigma))
    hi = elo_of(min(1.0, s + Z95 * sigma))
    # An infinite end (score interval reaching 0 or 1) makes the half-width infinite.
    err = math.inf if math.isinf(lo) or math.isinf(hi) else (hi - lo) / 2.0
    sigma_game = math.sqrt(var) if k == 3 else math.sqrt(2.0 * var)
    if sigma_game == 0.0:
        nelo = 0.0 if s == 0.5 else math.copysign(math.inf, s - 0.5)
    else:
        nelo = (s - 0.5) / sigma_game * NELO_PER_T
    return s, elo_of(s), err, lo, hi, nelo


# (kind, counts in the CSV's order, elo0, elo1, model)
#   tri:   W, D, L
#   penta: LL, LD+DL, LW+DD+WL, DW+WD, WW
CASES = [
    ("tri", [120, 30, 50], 0.0, 10.0, "normalized"),
    ("tri", [120, 30, 50], 0.0, 10.0, "logistic"),
    ("tri", [10, 20, 1], 0.0, 5.0, "normalized"),
    ("tri", [10, 20, 1], 0.0, 5.0, "logistic"),
    ("tri", [5019, 15699, 5026], 0.0, 5.0, "normalized"),
    ("tri", [1450, 4000, 1500], 0.0, 6.0, "logistic"),
    ("tri", [716, 2163, 591], 0.0, 6.0, "normalized"),
    ("tri", [716, 2163, 591], 0.0, 6.0, "logistic"),
    ("tri", [13543, 34333, 13624], -3.0, 1.0, "logistic"),
    ("tri", [65388, 56553, 65804], -3.0, 1.0, "logistic"),
    ("tri", [65388, 56553, 65804], -3.0, 1.0, "normalized"),
    ("tri", [30, 0, 70], -20.0, 20.0, "normalized"),
    ("tri", [3, 1, 0], 0.0, 50.0, "normalized"),
    ("tri", [400, 100, 500], -10.0, 10.0, "logistic"),
    ("penta", [1187, 7410, 13475, 7378, 1164], -3.0, 1.0, "logistic"),
    ("penta", [10789, 19328, 33806, 19402, 10543], -3.0, 1.0, "logistic"),
    ("penta", [10789, 19328, 33806, 19402, 10543], -3.0, 1.0, "normalized"),
    ("penta", [39, 2226, 31451, 2412, 40], 0.2, 0.9, "logistic"),
    ("penta", [39, 2226, 31451, 2412, 40], 0.764, 3.439, "normalized"),
    ("penta", [5, 20, 50, 30, 15], 0.0, 10.0, "normalized"),
    ("penta", [5, 20, 50, 30, 15], 0.0, 10.0, "logistic"),
    ("penta", [0, 3, 40, 10, 0], 0.0, 5.0, "normalized"),
    ("penta", [2, 0, 10, 0, 1], -5.0, 5.0, "normalized"),
    # Cases from fastchess's app/tests/sprt_test.cpp (its published LLRs, checked
    # there to 1%: 0.92, 2.30, -1.57, -2.59, 2.25, 3.01, -3.07, -4.98); this
    # script reproduces all of them.
    ("tri", [36433, 68692, 36027], 0.0, 2.0, "normalized"),
    ("tri", [10871, 20431, 10650], -1.75, 0.25, "normalized"),
    ("tri", [21404, 40708, 21184], 0.5, 2.5, "logistic"),
    ("tri", [57433, 106593, 57030], 0.0, 2.0, "logistic"),
    ("penta", [365, 16618, 36229, 16974, 390], 0.0, 2.0, "normalized"),
    ("penta", [127, 4883, 10712, 5150, 104], -1.75, 0.25, "normalized"),
    ("penta", [223, 9863, 21279, 10037, 246], 0.5, 2.5, "logistic"),
    ("penta", [871, 26175, 55983, 26678, 821], 0.0, 2.0, "logistic"),
    # Degenerate samples. fastchess's tests list 2.97 for 16700 draws and 2.94
    # for 104 WW pairs (elo 0..5, normalized); those come from its loose
    # stopping rule (1e-4). The converged MLE differs (a brute-force 1-D search
    # over the trinomial constraint curve confirms -3.45 for all draws: with no
    # decisive game in 16700, t = 0.0144 is unlikely).
    ("tri", [0, 16700, 0], 0.0, 5.0, "normalized"),
    ("tri", [0, 1000, 0], 0.0, 5.0, "logistic"),
    ("tri", [100, 0, 0], 0.0, 5.0, "normalized"),
    ("tri", [0, 0, 100], 0.0, 5.0, "normalized"),
    ("tri", [100, 0, 0], 0.0, 5.0, "logistic"),
    ("tri", [1, 0, 0], 0.0, 5.0, "normalized"),
    ("tri", [0, 1, 0], 0.0, 5.0, "normalized"),
    ("penta", [0, 0, 0, 0, 104], 0.0, 5.0, "normalized"),
    ("penta", [0, 0, 1000, 0, 0], 0.0, 5.0, "normalized"),
    ("penta", [0, 0, 1000, 0, 0], 0.0, 5.0, "logistic"),
    ("penta", [7, 0, 0, 0, 0], -5.0, 0.0, "normalized"),
]


def fmt(x):
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(float(x))


def main():
    out_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "reference.csv")
    rows = []
    for kind, counts, elo0, elo1, model in CASES:
        padded = counts + [0] * (5 - len(counts))
        ascending = list(reversed(counts)) if kind == "tri" else counts
        s, elo, err, lo, hi, nelo = rating(ascending)
        value = llr(ascending, elo0, elo1, model)
        rows.append(
            [kind, model] + [str(c) for c in padded]
            + [fmt(elo0), fmt(elo1), fmt(s), fmt(elo), fmt(err), fmt(lo), fmt(hi), fmt(nelo), fmt(value)]
        )
    with open(out_path, "w", newline="") as fh:
        fh.write("# Generated by tests/data/stats/reference.py (fishtest LLRcalc mathematics, re-implemented).\n")
        fh.write("# Do not edit by hand; rerun the script instead.\n")
        fh.write("# kind tri: c0..c2 = W, D, L (c3, c4 unused).\n")
        fh.write("# kind penta: c0..c4 = LL, LD+DL, LW+DD+WL, DW+WD, WW pair counts.\n")
        fh.write("# model: SPRT model of elo0/elo1 (normalized Elo or logistic Elo); llr uses it.\n")
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["kind", "model", "c0", "c1", "c2", "c3", "c4", "elo0", "elo1",
                    "score", "elo", "elo_err95", "elo_lo", "elo_hi", "nelo", "llr"])
        w.writerows(rows)
    print("wrote %d cases to %s" % (len(rows), out_path), file=sys.stderr)


if __name__ == "__main__":
    main()
