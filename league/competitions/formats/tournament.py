"""One entry point for the service, whatever the format.

The service keeps a tournament's entries, its format and options, the rounds it has started
(each exactly as ``next_round`` returned it) and the results so far, and asks:

- ``next_round``: once the last round has finished, the pairings of the next (``None`` once
  the tournament is over). Each series then owes the games ``series.games_to_play`` lists
  (seats and seed indices included): one Match row each; a bye owes none.
- ``playable``: the series that could be played now (elimination: every series whose two
  entries are known, whatever its round; a bracket can show them ahead of the league's round).
- ``is_over`` and ``standings``: the table, final once it is over.

Every answer is a pure function of those inputs: asking twice gives the same pairings, and
nothing is random (where a format needs a choice it takes the better seed).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import cast

from league.competitions.formats import elimination, round_robin, scored, swiss
from league.competitions.formats.series import series_result
from league.competitions.formats.types import (
    Entry,
    Options,
    Pairing,
    PairingKind,
    Round,
    Scores,
    Standing,
    Winners,
    seeded,
)


class Format(StrEnum):
    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    SWISS = "swiss"
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    SCORED = "scored"
    """Solo games: every entry plays the same seeds, ranked by mean score."""


ELIMINATION = (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)

Results = Winners | Scores
"""Game winners by pairing key (two-player formats) or game scores (``SCORED``)."""


def next_round(fmt: Format, entries: Sequence[Entry], options: Options,
               rounds: Sequence[Round], results: Results) -> Round | None:
    """The next round's pairings, once every series of ``rounds`` has finished; ``None`` when
    the tournament is over. Raises ``FormatError`` while a round is unfinished."""
    winners = cast(Winners, results)
    if fmt in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
        return round_robin.next_round(entries, options, rounds, winners,
                                      double=fmt == Format.DOUBLE_ROUND_ROBIN)
    if fmt == Format.SWISS:
        return swiss.next_round(entries, options, rounds, winners)
    if fmt in ELIMINATION:
        return elimination.next_round(entries, options, rounds, winners,
                                      double=fmt == Format.DOUBLE_ELIMINATION)
    return scored.next_round(entries, options, rounds, cast(Scores, results))


def _unfinished(rounds: Sequence[Round], results: Results) -> list[Pairing]:
    left = []
    for r in rounds:
        for p in r.pairings:
            if p.kind == PairingKind.SOLO:
                if len(cast(Scores, results).get(p.key, ())) < p.games:
                    left.append(p)
            elif p.played and series_result(p, cast(Winners, results).get(p.key, ())) is None:
                left.append(p)
    return left


def playable(fmt: Format, entries: Sequence[Entry], options: Options,
             rounds: Sequence[Round], results: Results) -> tuple[Pairing, ...]:
    """Series (and solo runs) that could be played now and have not finished."""
    if fmt in ELIMINATION:
        return elimination.bracket(entries, options, cast(Winners, results),
                                   fmt == Format.DOUBLE_ELIMINATION).playable()
    return tuple(_unfinished(rounds, results))


def is_over(fmt: Format, entries: Sequence[Entry], options: Options,
            rounds: Sequence[Round], results: Results) -> bool:
    if fmt in ELIMINATION:
        return elimination.bracket(entries, options, cast(Winners, results),
                                   fmt == Format.DOUBLE_ELIMINATION).over
    if _unfinished(rounds, results):
        return False
    n = len(seeded(entries))
    if fmt == Format.SWISS:
        total = options.rounds or swiss.default_rounds(n)
    elif fmt == Format.SCORED:
        total = options.rounds or 1
    else:
        total = len(round_robin.schedule(entries, options,
                                         double=fmt == Format.DOUBLE_ROUND_ROBIN))
    return len(rounds) >= total


def standings(fmt: Format, entries: Sequence[Entry], options: Options,
              rounds: Sequence[Round], results: Results) -> tuple[Standing, ...]:
    """The table as it stands (final once ``is_over``), best first."""
    winners = cast(Winners, results)
    if fmt in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
        return round_robin.table(entries, rounds, winners)
    if fmt == Format.SWISS:
        return swiss.table(entries, rounds, winners)
    if fmt in ELIMINATION:
        return elimination.table(entries, options, winners, fmt == Format.DOUBLE_ELIMINATION)
    return scored.table(entries, rounds, cast(Scores, results))
