"""The statistics of a test of two versions: pure arithmetic, no Django.

Two-player games are played in pairs on one seed with the seats swapped; a pair scores 0, ½,
1, 1½ or 2 points for the candidate (the pentanomial counts). The test is the generalised
SPRT of the chess engines' fishtest, with bounds in *normalised Elo* (M. Van den Bergh,
"Normalized Elo", and "A generalized sequential probability ratio test"; the formulas and
what we checked them against are in ``docs/version-tests.md``):

- a pair's score ``x`` (its points over 2, in [0, 1]) has mean ``mu`` and variance ``var``;
  normalised Elo is ``nElo = (800 / ln 10) · (mu − ½) / sqrt(2 · var)`` (``sqrt(2 · var)`` is
  the standard deviation of one game's score inside a pair);
- the log-likelihood ratio of H1 ``nElo = elo1`` against H0 ``nElo = elo0`` is
  ``LLR = N · Σ p̂ᵢ · log(p¹ᵢ / p⁰ᵢ)``, ``p̂`` the observed frequencies of the five scores and
  ``pʲ`` the distribution of largest likelihood whose normalised Elo is ``eloj``;
- the test accepts H1 once ``LLR ≥ B = log((1 − β) / α)`` and H0 once
  ``LLR ≤ A = log(β / (1 − α))``.

Solo games (both versions play the same seeds) have a real-valued paired difference ``d`` a
seed; the same test, on a normal model of ``d``: H1 ``mean / sd = t1`` against H0 ``= t0``,
with ``tj = √2 · eloj / (800 / ln 10)`` so that a bound in normalised Elo asks for as many
seeds as it asks for pairs of a two-player game. The likelihoods are the normal model's,
maximised over the standard deviation (closed form, below).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

NELO_PER_T = 800 / math.log(10)
"""Normalised Elo per unit of t-value of one game (≈ 347.4): fishtest's ``nelo_divided_by_nt``."""
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score over 2 points, for the counts of 0, ½, 1, 1½ and 2 points."""
REGULARISE = 1e-3
"""An empty count is taken as this (fishtest's ``regularize``): the likelihoods stay finite
when a score was never seen, which matters most at the start and for lopsided tests."""
Z95 = 1.959963984540054
"""The standard normal's 97.5 % quantile."""


class Verdict(StrEnum):
    CONTINUE = "continue"
    H1 = "h1"
    """The candidate is at least ``elo1`` stronger (to the test's error rates)."""
    H0 = "h0"
    """The candidate is at most ``elo0`` stronger."""


@dataclass(frozen=True)
class Bounds:
    """A test's hypotheses and error rates: H0 ``elo0`` against H1 ``elo1`` (normalised
    Elo), ``alpha`` the chance of accepting H1 at ``elo0``, ``beta`` of accepting H0 at
    ``elo1``."""

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError("elo0 must be below elo1")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("alpha and beta must be between 0 and 0.5")

    @property
    def lower(self) -> float:
        """A: H0 is accepted once the LLR is at or below it."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """B: H1 is accepted once the LLR is at or above it."""
        return math.log((1 - self.beta) / self.alpha)

    def verdict(self, llr: float) -> Verdict:
        if llr >= self.upper:
            return Verdict.H1
        if llr <= self.lower:
            return Verdict.H0
        return Verdict.CONTINUE


@dataclass(frozen=True)
class Estimate:
    """A value with its 95 % interval."""

    value: float
    low: float
    high: float

    @property
    def margin(self) -> float:
        """Half the interval's width (the "± 14" of "+38 ± 14")."""
        return (self.high - self.low) / 2


def _regularised(counts: Sequence[float]) -> list[float]:
    if len(counts) != 5:
        raise ValueError("pentanomial counts are five numbers (0, ½, 1, 1½, 2 points)")
    if any(c < 0 for c in counts):
        raise ValueError("counts cannot be negative")
    return [c if c > 0 else REGULARISE for c in counts]


def _moments(p: Sequence[float], a: Sequence[float] = PAIR_SCORES) -> tuple[float, float]:
    mu = sum(pi * ai for pi, ai in zip(p, a, strict=True))
    var = sum(pi * (ai - mu) ** 2 for pi, ai in zip(p, a, strict=True))
    return mu, var


def _secular(phat: Sequence[float], phi: Sequence[float], start: float = 0.0) -> float:
    """The root ``x`` of ``Σ p̂ᵢ φᵢ / (1 + x φᵢ) = 0`` with every ``1 + x φᵢ > 0`` (the
    function falls from +∞ to −∞ across that interval, so bisection always finds it)."""
    top, bottom = max(phi), min(phi)
    if top <= 0 or bottom >= 0:
        return 0.0  # the constraint is met by no reweighting of p̂: leave it
    lo, hi = -1 / top, -1 / bottom
    width = hi - lo
    lo, hi = lo + width * 1e-12, hi - width * 1e-12
    x = start if lo < start < hi else (lo + hi) / 2
    for _ in range(300):
        value = slope = 0.0
        for h, f in zip(phat, phi, strict=True):  # one pass for the value and its slope
            q = f / (1 + x * f)
            value += h * q
            slope -= h * q * q
        if value > 0:
            lo = x
        elif value < 0:
            hi = x
        else:
            return x
        step = x - value / slope
        # Newton's step when it stays inside the bracket, else bisection: the root may sit
        # next to a pole (a score never seen), where Newton alone overshoots.
        if lo < step < hi and abs(step - x) <= 1e-15 * max(abs(x), 1e-9):
            return step  # Newton has converged (it closes in from one side only)
        x = step if lo < step < hi else (lo + hi) / 2
        if hi - lo <= 4e-16 * (abs(lo) + abs(hi)):
            break
    return x


def mle_t_value(phat: Sequence[float], t: float, ref: float = 0.5,
                a: Sequence[float] = PAIR_SCORES,
                start: Sequence[float] | None = None) -> list[float]:
    return _mle_t_value(phat, t, ref, a, start)[0]


def _mle_t_value(phat: Sequence[float], t: float, ref: float = 0.5,
                 a: Sequence[float] = PAIR_SCORES, start: Sequence[float] | None = None,
                 x: float = 0.0) -> tuple[list[float], float]:
    """The distribution on ``a`` of largest likelihood for the frequencies ``phat`` whose
    t-value ``(mu − ref) / sigma`` is ``t``.

    Stationarity of the Lagrangian gives ``pᵢ = p̂ᵢ / (1 + x φᵢ)`` with
    ``φᵢ = (aᵢ − ref) − t·σ − t / (2σ) · ((aᵢ − mu)² − σ²)`` (the constraint's gradient,
    shifted to have mean 0 under ``p``), ``mu`` and ``σ`` those of ``p`` itself: iterate,
    solving for ``x`` each time (Van den Bergh's method for the normalised-Elo MLE).
    ``start``: where to begin (the last answer, when the counts grew by one pair: a step or
    two then suffice); the fixed point is the same."""
    total = sum(phat)
    phat = [h / total for h in phat]
    # Start halfway to uniform: from p̂ itself a lopsided sample has σ ≈ 0, which leaves the
    # constraint's gradient one-signed and the first step nowhere to go.
    p = [(h + 1 / len(a)) / 2 for h in phat] if start is None else list(start)
    for _ in range(200):
        mu, var = _moments(p, a)
        sigma = math.sqrt(max(var, 1e-300))
        phi = [(ai - ref) - t * sigma - t / (2 * sigma) * ((ai - mu) ** 2 - var) for ai in a]
        x = _secular(phat, phi, start=x)  # the last root: Newton then needs a step or two
        new = [ph / (1 + x * f) for ph, f in zip(phat, phi, strict=True)]
        total = sum(new)
        if abs(total - 1) > 1e-6:
            # The root was lost to rounding (it sits next to a pole when a score was never
            # seen): the last iterate is the answer, already met to far better than needed.
            return p, x
        new = [q / total for q in new]
        # It settles in a few steps; below 1e-8 the change moves the LLR by less than N·1e-8.
        if max(abs(q - r) for q, r in zip(new, p, strict=True)) < 1e-8:
            return new, x
        p = new
    return p, x


def llr_pentanomial(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT's LLR of ``nElo = elo1`` against ``nElo = elo0`` for the pair counts."""
    return PentanomialLLR(elo0, elo1)(counts)


class PentanomialLLR:
    """``llr_pentanomial`` for one test's growing counts: each call starts from the last
    call's distributions, which is what makes thousands of simulated tests quick."""

    def __init__(self, elo0: float, elo1: float) -> None:
        # A pair's t-value is √2 times a game's: sd(pair score) = sd(game score) / √2.
        self.t0, self.t1 = (math.sqrt(2) * elo / NELO_PER_T for elo in (elo0, elo1))
        self._last: tuple[tuple[list[float], float], tuple[list[float], float]] | None = None

    def __call__(self, counts: Sequence[float]) -> float:
        if sum(counts) <= 0:
            return 0.0
        regular = _regularised(counts)
        n = sum(regular)
        phat = [c / n for c in regular]
        (s0, x0), (s1, x1) = self._last if self._last else ((None, 0.0), (None, 0.0))
        p0, x0 = _mle_t_value(phat, self.t0, start=s0, x=x0)
        p1, x1 = _mle_t_value(phat, self.t1, start=s1, x=x1)
        self._last = ((p0, x0), (p1, x1))
        return n * sum(ph * math.log(q1 / q0) for ph, q0, q1 in zip(phat, p0, p1, strict=True))


def logistic_elo(score: float) -> float:
    """The Elo difference of an expected score (the logistic model)."""
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400 * math.log10(1 / score - 1)


def elo_estimate(counts: Sequence[float]) -> Estimate:
    """Logistic Elo with its 95 % interval from the pair counts: the mean pair score ± 1.96
    standard errors, each end turned into Elo (fishtest's ``get_elo`` on pentanomial counts)."""
    regular = _regularised(counts)
    n = sum(regular)
    mu, var = _moments([c / n for c in regular])
    margin = Z95 * math.sqrt(var / n)
    return Estimate(logistic_elo(mu), logistic_elo(mu - margin), logistic_elo(mu + margin))


def nelo_estimate(counts: Sequence[float]) -> Estimate:
    """Normalised Elo with its 95 % interval (the t-value's standard error is about
    ``1 / sqrt(N)`` a pair)."""
    regular = _regularised(counts)
    n = sum(regular)
    mu, var = _moments([c / n for c in regular])
    t_pair = (mu - 0.5) / math.sqrt(var)
    margin = Z95 / math.sqrt(n)
    scale = NELO_PER_T / math.sqrt(2)
    return Estimate(t_pair * scale, (t_pair - margin) * scale, (t_pair + margin) * scale)


# Solo games: paired differences, kept as three running sums (count, Σd, Σd²).

@dataclass(frozen=True)
class Differences:
    """The paired score differences (candidate − baseline, one a seed), as running sums."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, d: float) -> Differences:
        return Differences(self.n + 1, self.total + d, self.squares + d * d)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (n − 1 in the denominator)."""
        if self.n < 2:
            return 0.0
        return max(self.squares - self.n * self.mean ** 2, 0.0) / (self.n - 1)


def _normal_loglik(m1: float, m2: float, t: float) -> float:
    """The normal model's log-likelihood a sample, maximised over σ with ``mean = t·σ``,
    for a sample with moments ``m1 = mean(d)``, ``m2 = mean(d²)``: with ``u = 1/σ``,
    ``f(u) = log u − m2·u²/2 + t·m1·u − t²/2``, largest where ``m2·u² − t·m1·u − 1 = 0``."""
    u = (t * m1 + math.sqrt(t * t * m1 * m1 + 4 * m2)) / (2 * m2)
    return math.log(u) - m2 * u * u / 2 + t * m1 * u - t * t / 2


def llr_differences(diffs: Differences, elo0: float, elo1: float) -> float:
    """The GSPRT's LLR of ``mean/sd = t1`` against ``t0`` on a normal model of the paired
    differences (``tj = √2 · eloj / NELO_PER_T``, as for a two-player pair)."""
    if diffs.n < 2:
        return 0.0  # one difference says nothing of the spread
    m1, m2 = diffs.total / diffs.n, diffs.squares / diffs.n
    if m2 <= 0:
        return 0.0  # the versions scored the same on every seed: no evidence either way
    t0, t1 = (math.sqrt(2) * elo / NELO_PER_T for elo in (elo0, elo1))
    return diffs.n * (_normal_loglik(m1, m2, t1) - _normal_loglik(m1, m2, t0))


def difference_estimate(diffs: Differences) -> Estimate:
    """The mean score difference a seed with its 95 % interval (normal approximation)."""
    margin = Z95 * math.sqrt(diffs.variance / diffs.n) if diffs.n >= 2 else math.inf
    return Estimate(diffs.mean, diffs.mean - margin, diffs.mean + margin)


def pair_points(first: float, second: float) -> float:
    """The candidate's points in a pair from its scores (0, ½ or 1) in the pair's games."""
    return first + second


def pair_index(points: float) -> int:
    """The pentanomial cell (0 to 4) of a pair's points (0, ½, 1, 1½ or 2)."""
    index = round(points * 2)
    if not 0 <= index <= 4 or abs(points * 2 - index) > 1e-9:
        raise ValueError(f"a pair scores 0 to 2 points in halves, not {points}")
    return index
