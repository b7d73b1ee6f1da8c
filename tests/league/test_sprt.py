"""The statistics of version tests against published reference values and direct
implementations of the same formulas (``league/versiontests/sprt.py``)."""

from __future__ import annotations

import math
import random

import pytest

from league.versiontests import sprt

# Published LLRs of fishtest runs (tests.stockfishchess.org, pentanomial counts, normalised
# Elo bounds) and one of fastchess's printed results (`Ptnml(0-2): [0, 0, 2, 0, 37]`,
# `LLR: 2.96 ... [0.00, 20.00]`): two decimals, as they are shown.
PUBLISHED = [
    ([103, 3851, 8316, 3728, 98], 0, 2, -2.03),  # tests/live_elo/6984bbe6473df9d1d24a937b
    ([291, 10353, 21899, 10175, 306], 0, 2, -3.08),  # tests/view/6983867b473df9d1d24a9148
    ([99, 3323, 8399, 3606, 109], 0, 2, 2.98),  # tests/view/698432f5473df9d1d24a926d
    ([2, 40, 72, 14, 0], 0, 2, -0.36),  # tests/view/6984bb68473df9d1d24a9378
    ([326, 12015, 26044, 12357, 362], 0, 2, 2.93),  # tests/view/69839ed7473df9d1d24a91ae
    ([14, 6935, 20257, 7273, 30], 0.5, 2.5, 2.95),  # tests/view/69843133473df9d1d24a9269
    ([0, 0, 2, 0, 37], 0, 20, 2.96),  # fastchess's example output
]


@pytest.mark.parametrize(("counts", "elo0", "elo1", "llr"), PUBLISHED)
def test_llr_matches_published_values(counts: list[int], elo0: float, elo1: float,
                                      llr: float) -> None:
    assert sprt.llr_pentanomial(counts, elo0, elo1) == pytest.approx(llr, abs=0.005)


def _alt2(counts: list[int], elo0: float, elo1: float) -> float:
    """Van den Bergh's quadratic approximation of the same GSPRT, written out directly:
    ``LLR ≈ N/2 · log(Σp̂(x − s0)² / Σp̂(x − s1)²)``, ``sj = ½ + eloj/(800/ln10) · sqrt(2 var)``."""
    n = sum(counts)
    xs = [0, 0.25, 0.5, 0.75, 1]
    mu = sum(c * x for c, x in zip(counts, xs, strict=True)) / n
    var = sum(c * (x - mu) ** 2 for c, x in zip(counts, xs, strict=True)) / n
    s = [0.5 + e / (800 / math.log(10)) * math.sqrt(2 * var) for e in (elo0, elo1)]
    r = [sum(c * (x - sj) ** 2 for c, x in zip(counts, xs, strict=True)) / n for sj in s]
    return n / 2 * math.log(r[0] / r[1])


def test_llr_agrees_with_the_quadratic_approximation_on_large_samples() -> None:
    """Chess-like counts, a few Elo apart: where the approximation is meant to hold."""
    rng = random.Random(7)
    for _ in range(20):
        counts = [round(c * rng.uniform(0.95, 1.05)) for c in (300, 9000, 20000, 9000, 300)]
        exact = sprt.llr_pentanomial(counts, 0, 5)
        assert exact == pytest.approx(_alt2(counts, 0, 5), abs=0.02 + 0.01 * abs(exact))


def test_the_mle_has_the_asked_t_value_and_beats_its_neighbours() -> None:
    phat = [0.02, 0.1, 0.5, 0.3, 0.08]
    t = 0.1
    p = sprt.mle_t_value(phat, t)
    mu = sum(q * a for q, a in zip(p, sprt.PAIR_SCORES, strict=True))
    sd = math.sqrt(sum(q * (a - mu) ** 2 for q, a in zip(p, sprt.PAIR_SCORES, strict=True)))
    assert sum(p) == pytest.approx(1)
    assert (mu - 0.5) / sd == pytest.approx(t, abs=1e-9)
    best = sum(h * math.log(q) for h, q in zip(phat, p, strict=True))
    rng = random.Random(3)
    for _ in range(200):  # any other distribution with that t-value is less likely
        q = sprt.mle_t_value([max(h + rng.uniform(-0.02, 0.02), 1e-3) for h in phat], t)
        assert sum(h * math.log(x) for h, x in zip(phat, q, strict=True)) <= best + 1e-12


def test_lopsided_results_are_decided_quickly() -> None:
    """Bots differ far more than chess engines' patches: all pairs won is strong evidence
    (20 pairs here, 40 games)."""
    bounds = sprt.Bounds(0, 50)
    assert bounds.verdict(sprt.llr_pentanomial([0, 0, 0, 0, 20], 0, 50)) == sprt.Verdict.H1
    assert bounds.verdict(sprt.llr_pentanomial([20, 0, 0, 0, 0], 0, 50)) == sprt.Verdict.H0
    assert sprt.llr_pentanomial([0, 0, 0, 0, 0], 0, 50) == 0


def test_bounds() -> None:
    b = sprt.Bounds(0, 50, alpha=0.05, beta=0.05)
    assert (b.lower, b.upper) == (pytest.approx(-2.944, abs=1e-3), pytest.approx(2.944, abs=1e-3))
    assert b.lower == math.log(0.05 / 0.95) and b.upper == math.log(0.95 / 0.05)
    assert b.verdict(3) == sprt.Verdict.H1 and b.verdict(-3) == sprt.Verdict.H0
    assert b.verdict(0) == sprt.Verdict.CONTINUE
    with pytest.raises(ValueError):
        sprt.Bounds(5, 5)
    with pytest.raises(ValueError):
        sprt.Bounds(0, 5, alpha=0.6)


def test_elo_estimate_and_interval() -> None:
    counts = [10, 40, 100, 60, 20]
    n = sum(counts)
    xs = [0, 0.25, 0.5, 0.75, 1]
    mu = sum(c * x for c, x in zip(counts, xs, strict=True)) / n
    sd = math.sqrt(sum(c * (x - mu) ** 2 for c, x in zip(counts, xs, strict=True)) / n)

    def elo(s: float) -> float:
        return -400 * math.log10(1 / s - 1)

    est = sprt.elo_estimate(counts)
    assert est.value == pytest.approx(elo(mu))
    assert est.low == pytest.approx(elo(mu - 1.959964 * sd / math.sqrt(n)))
    assert est.high == pytest.approx(elo(mu + 1.959964 * sd / math.sqrt(n)))
    # fastchess prints "Elo: 631.91" for 76 wins and 2 losses (pairs [0, 0, 2, 0, 37]).
    assert sprt.elo_estimate([0, 0, 2, 0, 37]).value == pytest.approx(631.91, abs=1)
    # ... and "nElo: 1056.68 +/- 77.10".
    nelo = sprt.nelo_estimate([0, 0, 2, 0, 37])
    assert nelo.value == pytest.approx(1056.68, abs=3)
    assert nelo.margin == pytest.approx(77.10, abs=1)


def test_paired_differences_llr_is_the_normal_likelihood_maximised_over_sigma() -> None:
    rng = random.Random(11)
    ds = [rng.gauss(0.4, 1.3) for _ in range(40)]
    diffs = sprt.Differences()
    for d in ds:
        diffs = diffs.add(d)

    def best_loglik(t: float) -> float:
        # Direct: the normal log-likelihood with mean t·σ, maximised over σ on a fine grid.
        return max(sum(-math.log(s) - (d - t * s) ** 2 / (2 * s * s) for d in ds)
                   for s in (0.01 * k for k in range(1, 600)))

    t0, t1 = (math.sqrt(2) * e / sprt.NELO_PER_T for e in (0, 50))
    assert sprt.llr_differences(diffs, 0, 50) == pytest.approx(
        best_loglik(t1) - best_loglik(t0), abs=0.01)
    est = sprt.difference_estimate(diffs)
    mean = sum(ds) / len(ds)
    sd = math.sqrt(sum((d - mean) ** 2 for d in ds) / (len(ds) - 1))
    assert est.value == pytest.approx(mean)
    assert est.margin == pytest.approx(1.959964 * sd / math.sqrt(len(ds)))
    assert sprt.llr_differences(sprt.Differences(), 0, 50) == 0


def test_pair_points() -> None:
    assert [sprt.pair_index(p) for p in (0, 0.5, 1, 1.5, 2)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        sprt.pair_index(2.5)
