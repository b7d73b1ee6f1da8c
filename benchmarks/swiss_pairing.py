"""Swiss pairing: one round of a 1,024-entry field within a second.

    .venv/bin/python -m benchmarks.swiss_pairing [--field 1024] [--small 128 256] [--games 1]

Plays Swiss tournaments with made-up results (each game won by either seat at even odds,
drawn one time in ten) and times the pairing of every round after the results of the one
before: ``swiss.pair_round``, the league's, which pairs bracket by bracket with score groups
cut into parts of ``swiss_matching.PART_SIZE`` and widens the bottom only when someone is left over.
Baseline, measured in the same run on the same histories: the same weights solved as one
maximum-weight matching on the complete graph of the field (the whole-field matching the
league's falls back to), which is the optimum our pairing approximates; it is too slow to
run at 1,024 entries, so it is timed on ``--small`` fields. The quality rows compare the two
on those fields: rematches, pairs within their score group, and the sum of squared score
gaps (in points) over the tournament. Target (issue): a 1,024-entry round in at most 1 s.
Pinned to one core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks.common import Row, pin_to_one_core, print_table
from league.competitions.formats import (
    Entry,
    Options,
    Pairing,
    PairingKind,
    Round,
    swiss,
    swiss_matching,
)
from league.competitions.formats.series import games_to_play

Pairer = Callable[[list[Entry], int, swiss_matching.History, int], Round]


def complete_graph(entries: list[Entry], number: int, h: swiss_matching.History, games: int
                   ) -> Round:
    """The baseline: every rule as one matching on the complete graph of the field."""
    ranked = sorted((e.id for e in entries), key=h.rank.__getitem__)
    pairs, bye = swiss_matching.pair_whole(ranked, h)
    pairings = [Pairing(f"R{number}.{i}", number, PairingKind.SERIES, a, b, games=games)
                for i, (a, b) in enumerate(swiss.seat(pairs, h, number), start=1)]
    if bye is not None:
        pairings.append(Pairing(f"R{number}.bye", number, PairingKind.BYE, bye,
                                      games=games))
    return Round(number, tuple(pairings))


@dataclass
class Run:
    seconds: list[float] = field(default_factory=list)
    rematches: int = 0
    in_group: int = 0
    pairs: int = 0
    gaps: float = 0.0

    def note(self, new: Round, h: swiss_matching.History) -> None:
        for p in new.pairings:
            if p.second is None:
                continue
            self.pairs += 1
            self.rematches += h.met[frozenset(p.entries)] > 0
            gap = (h.score[p.first] - h.score[p.second]) / 2
            self.in_group += gap == 0
            self.gaps += gap * gap


def tournament(n: int, games: int, seed: int, pairers: dict[str, Pairer]) -> dict[str, Run]:
    """One Swiss of ``n`` entries played on the first pairer's rounds; every pairer is timed
    and scored on the same histories."""
    rng = random.Random(seed)
    entries = [Entry(id=i, seed=i + 1) for i in range(n)]
    rounds: list[Round] = []
    winners: dict[str, list[int | None]] = {}
    runs = {name: Run() for name in pairers}
    for number in range(1, swiss.default_rounds(n) + 1):
        h = swiss.history(entries, rounds, winners)
        played: Round | None = None
        for name, pair in pairers.items():
            began = time.perf_counter()
            new = pair(entries, number, h, games)
            runs[name].seconds.append(time.perf_counter() - began)
            runs[name].note(new, h)
            played = played or new
        assert played is not None
        rounds.append(played)
        for p in played.pairings:
            if p.kind != PairingKind.SERIES:
                continue
            w: list[int | None] = []
            while g := games_to_play(p, w):
                w.append(None if rng.random() < 0.1 else
                         g[0].first if rng.random() < 0.5 else g[0].second)
            winners[p.key] = w
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--field", type=int, default=1024)
    parser.add_argument("--small", type=int, nargs="+", default=[128, 256])
    parser.add_argument("--games", type=int, default=1, help="games per series (1: seats "
                        "constrain the pairing most)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pin_to_one_core()
    Options(games=args.games)  # validates
    ours: Pairer = swiss.pair_round
    rows: list[Row] = []
    quality: list[Row] = []
    for n in args.small:
        runs = tournament(n, args.games, args.seed, {"ours": ours, "complete": complete_graph})
        a, b = runs["ours"], runs["complete"]
        rounds = len(a.seconds)
        rows.append(Row(f"{n}-entry round, median of {rounds} (s)", statistics.median(a.seconds),
                        statistics.median(b.seconds), "s", higher_is_better=False))
        rows.append(Row(f"{n}-entry round, slowest (s)", max(a.seconds), max(b.seconds), "s",
                        higher_is_better=False))
        quality.append(Row(f"{n}: rematches over {rounds} rounds", a.rematches, b.rematches, ""))
        quality.append(Row(f"{n}: pairs within their score group (%)",
                           100 * a.in_group / a.pairs, 100 * b.in_group / b.pairs, "%"))
        quality.append(Row(f"{n}: sum of squared score gaps (points^2)", a.gaps, b.gaps, "",
                           higher_is_better=False))
    big = tournament(args.field, args.games, args.seed, {"ours": ours})["ours"]
    rows.append(Row(f"{args.field:,}-entry round, median of {len(big.seconds)} (s)",
                    statistics.median(big.seconds), None, "s", "<= 1 s", False))
    rows.append(Row(f"{args.field:,}-entry round, slowest (s)", max(big.seconds), None, "s",
                    "<= 1 s", False))
    quality.append(Row(f"{args.field:,}: rematches over {len(big.seconds)} rounds",
                       big.rematches, None, ""))
    quality.append(Row(f"{args.field:,}: pairs within their score group (%)",
                       100 * big.in_group / big.pairs, None, "%"))
    print(f"Swiss pairing, {args.games} game(s) a series; baseline: the same rules as one "
          "matching on the complete graph")
    print_table("time to pair one round (ratio: how many times faster ours is)", rows)
    print_table("quality (ratio > 1: ours better)", quality)
    print(f"per round at {args.field:,}: " + " ".join(f"{s:.2f}" for s in big.seconds))


if __name__ == "__main__":
    main()
