"""Version tests' error rates and lengths, simulated (issue 33).

Runs ``--tests`` sequential tests (``league.versiontests.sprt``, exactly as the league runs
them: the LLR after every pair, stop at a bound or at the cap) on simulated game pairs at a
true difference of ``elo0``, of ``elo1`` and halfway, and reports how often H1 was accepted
and the mean number of games. Beside it, in the same run, the baseline: a fixed-length match
of equal power (a one-sided z-test on the pairs' normalised Elo with the same α and β),
its length computed and its error rates simulated on the same pair distributions. The ratio
is the fixed match's games over the sequential test's mean games.

    .venv/bin/python -m benchmarks.sprt_sim            # --tests 1000 --elo0 0 --elo1 50

Pairs are drawn from a pentanomial distribution: two independent games with 10 % draws at
even strength, exponentially tilted until its normalised Elo is the asked one.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from dataclasses import dataclass

from league.versiontests import sprt

BASE = (0.2025, 0.09, 0.415, 0.09, 0.2025)
"""Two independent games, 45 % wins, 10 % draws, 45 % losses each, as pair counts."""


def nelo_of(p: list[float]) -> float:
    mu = sum(q * a for q, a in zip(p, sprt.PAIR_SCORES, strict=True))
    var = sum(q * (a - mu) ** 2 for q, a in zip(p, sprt.PAIR_SCORES, strict=True))
    return sprt.NELO_PER_T * (mu - 0.5) / math.sqrt(2 * var)


def tilted(nelo: float) -> list[float]:
    """BASE tilted by exp(θ·score) to normalised Elo ``nelo`` (θ by bisection)."""
    def at(theta: float) -> list[float]:
        w = [b * math.exp(theta * a) for b, a in zip(BASE, sprt.PAIR_SCORES, strict=True)]
        return [x / sum(w) for x in w]
    lo, hi = -20.0, 20.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if nelo_of(at(mid)) < nelo else (lo, mid)
    return at((lo + hi) / 2)


@dataclass
class Outcome:
    h1: int = 0
    h0: int = 0
    undecided: int = 0
    pairs: list[int] | None = None


def sequential(p: list[float], bounds: sprt.Bounds, tests: int, cap: int,
               rng: random.Random) -> Outcome:
    out = Outcome(pairs=[])
    for _ in range(tests):
        counts = [0] * 5
        verdict = sprt.Verdict.CONTINUE
        llr = sprt.PentanomialLLR(bounds.elo0, bounds.elo1)
        n = 0
        while verdict is sprt.Verdict.CONTINUE and n < cap:
            counts[rng.choices(range(5), weights=p)[0]] += 1
            n += 1
            verdict = bounds.verdict(llr(counts))
        out.pairs.append(n)
        if verdict is sprt.Verdict.H1:
            out.h1 += 1
        elif verdict is sprt.Verdict.H0:
            out.h0 += 1
        else:
            out.undecided += 1
    return out


def fixed_pairs(bounds: sprt.Bounds) -> int:
    """Pairs a fixed-length one-sided z-test on the pair t-value needs for the same α, β:
    ``N = ((z(1−α) + z(1−β)) / (t1 − t0))²``, ``tj`` a pair's t-value at ``eloj``."""
    z = statistics.NormalDist()
    t0, t1 = (math.sqrt(2) * e / sprt.NELO_PER_T for e in (bounds.elo0, bounds.elo1))
    return math.ceil(((z.inv_cdf(1 - bounds.alpha) + z.inv_cdf(1 - bounds.beta))
                      / (t1 - t0)) ** 2)


def fixed(p: list[float], bounds: sprt.Bounds, tests: int, pairs: int,
          rng: random.Random) -> int:
    """How many of ``tests`` fixed matches of ``pairs`` pairs accept H1 (the t-value of the
    pairs above the midpoint of t0 and t1, which is where α and β balance when equal)."""
    t0, t1 = (math.sqrt(2) * e / sprt.NELO_PER_T for e in (bounds.elo0, bounds.elo1))
    z = statistics.NormalDist()
    za, zb = z.inv_cdf(1 - bounds.alpha), z.inv_cdf(1 - bounds.beta)
    threshold = t0 + (t1 - t0) * za / (za + zb)
    accepted = 0
    for _ in range(tests):
        counts = [0] * 5
        for i in rng.choices(range(5), weights=p, k=pairs):
            counts[i] += 1
        mu = sum(c * a for c, a in zip(counts, sprt.PAIR_SCORES, strict=True)) / pairs
        var = sum(c * (a - mu) ** 2 for c, a in zip(counts, sprt.PAIR_SCORES, strict=True))
        t = (mu - 0.5) / math.sqrt(var / pairs)
        accepted += t > threshold
    return accepted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tests", type=int, default=1000)
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=50.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--cap", type=int, default=2000, help="pairs before undecided")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    bounds = sprt.Bounds(args.elo0, args.elo1, args.alpha, args.beta)
    rng = random.Random(args.seed)
    n_fixed = fixed_pairs(bounds)
    print(f"bounds [{bounds.elo0:g}, {bounds.elo1:g}] nElo, alpha {bounds.alpha}, "
          f"beta {bounds.beta}, {args.tests} tests each; fixed match of equal power: "
          f"{2 * n_fixed} games")
    print(f"{'true nElo':>10} {'H1 seq':>8} {'±2se':>6} {'H1 fixed':>9} {'mean games':>11} "
          f"{'p90 games':>10} {'undecided':>10} {'fixed/seq':>10}")
    started = time.perf_counter()
    for truth in (bounds.elo0, (bounds.elo0 + bounds.elo1) / 2, bounds.elo1):
        p = tilted(truth)
        seq = sequential(p, bounds, args.tests, args.cap, rng)
        assert seq.pairs is not None
        rate = seq.h1 / args.tests
        se2 = 2 * math.sqrt(max(rate * (1 - rate), 1e-9) / args.tests)
        fixed_rate = fixed(p, bounds, args.tests, n_fixed, rng) / args.tests
        mean_games = 2 * statistics.fmean(seq.pairs)
        p90 = 2 * sorted(seq.pairs)[int(0.9 * len(seq.pairs))]
        print(f"{truth:>10g} {rate:>8.3f} {se2:>6.3f} {fixed_rate:>9.3f} {mean_games:>11.1f} "
              f"{p90:>10d} {seq.undecided:>10d} {2 * n_fixed / mean_games:>9.2f}x")
    print(f"({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
