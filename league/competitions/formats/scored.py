"""Scored tournaments, for the solo games (2048, Robots): every entry plays the same seeds.

Nobody meets anybody, so there is nothing to pair: each round every entry runs the round's
``Options.games`` seeds (the same seeds for all, so no entry gets easier deals), and the
table ranks by mean score with its 95 % confidence interval, worked out exactly as the solo
ladders' boards do (``league.ladders.ratings.mean_interval``: Student's t below 32 games).
The interval is shown, not used to rank: two entries whose intervals overlap are ordered by
their means all the same, the better seed first on an exact tie. ``Options.rounds`` spreads
the seeds over several rounds (default one), so a long tournament shows a table as it goes.
"""

from __future__ import annotations

from collections.abc import Sequence

from league.competitions.formats.types import (
    Entry,
    FormatError,
    Options,
    Pairing,
    PairingKind,
    Round,
    Scores,
    Standing,
    seeded,
)
from league.ladders.ratings import mean_interval


def _require_finished(rounds: Sequence[Round], scores: Scores) -> None:
    for r in rounds:
        for p in r.pairings:
            if len(scores.get(p.key, ())) < p.games:
                raise FormatError(f"round {r.number} is not finished: run {p.key} still owes "
                                  "games; the next round starts after it")


def next_round(entries: Sequence[Entry], options: Options, rounds: Sequence[Round],
               scores: Scores) -> Round | None:
    """The round to start now that ``rounds`` have all finished; ``None`` once over."""
    _require_finished(rounds, scores)
    if len(rounds) >= (options.rounds or 1):
        return None
    number = len(rounds) + 1
    return Round(number, tuple(
        Pairing(f"R{number}.{i}", number, PairingKind.SOLO, e.id, games=options.games)
        for i, e in enumerate(seeded(entries), start=1)))


def table(entries: Sequence[Entry], rounds: Sequence[Round], scores: Scores
          ) -> tuple[Standing, ...]:
    ordered = seeded(entries)
    runs: dict[int, list[float]] = {e.id: [] for e in ordered}
    for r in rounds:
        for p in r.pairings:
            played = scores.get(p.key, ())
            if len(played) > p.games:
                raise FormatError(f"run {p.key} owes {p.games} games, {len(played)} were "
                                  "reported")
            runs[p.first] += played
    rows = []
    for e in ordered:
        values = runs[e.id]
        mean, half = mean_interval(len(values), sum(values), sum(v * v for v in values))
        rows.append((e, mean, half, len(values)))
    rows.sort(key=lambda row: (-row[1], row[0].seed))
    return tuple(Standing(entry=e.id, rank=rank, points=mean, played=n,
                          interval=half if n > 1 else None)
                 for rank, (e, mean, half, n) in enumerate(rows, start=1))
