"""Round robin: every entry meets every other once (double: twice, seats swapped).

The whole schedule is fixed at the start by the circle method: the last seed stays put while
the others turn around a circle one place a round, so n entries need n - 1 rounds (an odd
field adds an empty place, and whoever faces it has the round's bye: each entry once per
cycle, so the byes change no order). Seats: two entries on the circle at places x and y give
the first seat of their series to x when (y - x) mod (n - 1) is odd, which gives each of
them the first seat against exactly half of the others on the circle; the fixed entry takes
the first seat in even rounds. With an odd number of games per series (where the first seat
means one more first move) every entry's first seats and second seats then differ by at
most one. The second cycle of a double round robin repeats the first with seats swapped.
"""

from __future__ import annotations

from collections.abc import Sequence

from league.competitions.formats.series import finished_results, require_finished
from league.competitions.formats.standings import ROUND_ROBIN_ORDER, standings
from league.competitions.formats.types import (
    Entry,
    EntryId,
    FormatError,
    Options,
    Pairing,
    PairingKind,
    Round,
    Standing,
    Winners,
    seeded,
)


def schedule(entries: Sequence[Entry], options: Options, double: bool = False
             ) -> tuple[Round, ...]:
    """Every round of the tournament, known from the start."""
    ordered = seeded(entries)
    places: list[EntryId | None] = [e.id for e in ordered]
    if len(places) % 2:
        places.append(None)  # whoever faces the empty place sits the round out
    rank = {e.id: i for i, e in enumerate(ordered)}
    circle, fixed = places[:-1], places[-1]
    size = len(circle)  # odd
    cycle: list[list[tuple[EntryId | None, EntryId | None]]] = []
    for r in range(size):
        pairs = [(fixed, circle[r]) if r % 2 == 0 else (circle[r], fixed)]
        for i in range(1, len(places) // 2):
            x, y = (r + i) % size, (r - i) % size
            pairs.append((circle[x], circle[y]) if (y - x) % size % 2 else (circle[y], circle[x]))
        cycle.append(pairs)
    if double:
        cycle += [[(b, a) for a, b in pairs] for pairs in cycle]
    rounds = []
    for number, pairs in enumerate(cycle, start=1):
        # Listed best seed first, the bye last, as the round's page shows them.
        pairs.sort(key=lambda p: (None in p, min(rank.get(x, len(rank)) for x in p)))
        pairings = []
        for index, (a, b) in enumerate(pairs, start=1):
            key = f"R{number}.{index}"
            if a is None or b is None:
                alone = a if b is None else b
                assert alone is not None
                pairings.append(Pairing(key, number, PairingKind.BYE, alone,
                                        games=options.games))
            else:
                pairings.append(Pairing(key, number, PairingKind.SERIES, a, b,
                                        games=options.games))
        rounds.append(Round(number, tuple(pairings)))
    return tuple(rounds)


def next_round(entries: Sequence[Entry], options: Options, rounds: Sequence[Round],
               winners: Winners, double: bool = False) -> Round | None:
    """The round to start now that ``rounds`` have all finished; ``None`` once over."""
    require_finished(rounds, winners)
    full = schedule(entries, options, double)
    if tuple(rounds) != full[:len(rounds)]:
        raise FormatError("the rounds played are not this field's schedule: were entries "
                          "added or removed after the start?")
    return full[len(rounds)] if len(rounds) < len(full) else None


def table(entries: Sequence[Entry], rounds: Sequence[Round], winners: Winners
          ) -> tuple[Standing, ...]:
    return standings(entries, finished_results(rounds, winners).values(), ROUND_ROBIN_ORDER)
