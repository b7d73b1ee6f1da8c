"""Swiss: a fixed number of rounds, each entry paired with one of equal or near score.

Rules, strongest first (what ``docs/tournaments.md`` tells entrants):

1. Seats stay balanced: with an odd number of games per series (where the first seat means
   one more first move), an entry's first-seat and second-seat games never differ by more than
   one. (With an even number the series balances itself.)
2. No rematch while a pairing of the whole field without one exists.
3. At most one bye per entry; the bye goes to the lowest-ranked entry that has not had one
   (unless that alone would force a rematch). A bye is a series won: 1 point.
4. Within those rules, the Dutch system's preferences: pair as many as possible within each
   score group, top down; an entry that cannot be paired in its group (odd size, or everyone
   left there already met it) floats down to the next, the lowest-ranked first, and a group
   floats down whatever the field below needs to stay pairable on seats; floaters are
   paired before the group pairs among itself, against its best-ranked; score differences as
   small as possible; and in a score group the top half meets the bottom half (1st v
   (g/2+1)th, ...).

The pairs are found by maximum-weight matchings (networkx), bracket by bracket, in
``swiss_matching``; this module keeps the format: rounds, the history they leave, seats and
the table. Seats: whoever is owed the first seat takes it; then whoever led fewer series,
then whoever was second last time; else the better-ranked on alternate boards.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from league.competitions.formats.series import finished_results, require_finished, series_games
from league.competitions.formats.standings import SWISS_ORDER, standings
from league.competitions.formats.swiss_matching import PART_SIZE, History, Pairs, pair_field
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


def default_rounds(n: int) -> int:
    """ceil(log2 n): enough for one entry to be the only one without a loss."""
    return max(1, math.ceil(math.log2(n)))


def max_rounds(n: int) -> int:
    """A round robin's worth; an odd field one more, so each entry can have its one bye."""
    return n - 1 + n % 2


def history(entries: Sequence[Entry], rounds: Sequence[Round], winners: Winners) -> History:
    ordered = seeded(entries)
    points = Counter[EntryId]()
    for r in finished_results(rounds, winners).values():
        for e in (r.first, r.second):
            if e is not None:
                points[e] += int(2 * r.points(e))
    order = sorted(ordered, key=lambda e: (-points[e.id], e.seed))
    h = History(rank={e.id: i for i, e in enumerate(order)},
                score={e.id: points[e.id] for e in ordered})
    for r in rounds:
        for p in r.pairings:
            if p.second is None:
                h.byes.add(p.first)
                continue
            h.met[frozenset(p.entries)] += 1
            for g in series_games(p):
                h.balance[g.first] += 1
                h.balance[p.second if g.first == p.first else p.first] -= 1
            h.led[p.first] += 1
            h.last_led[p.first], h.last_led[p.second] = True, False
    return h


def pair_round(entries: Sequence[Entry], number: int, h: History, games: int,
               part_size: int = PART_SIZE) -> Round:
    """Round ``number``'s pairings for the field as ``h`` describes it."""
    ranked = sorted((e.id for e in seeded(entries)), key=h.rank.__getitem__)
    pairs, bye = pair_field(ranked, h, part_size)
    pairs = seat(pairs, h, number)
    pairings = [Pairing(f"R{number}.{i}", number, PairingKind.SERIES, a, b, games=games)
                for i, (a, b) in enumerate(pairs, start=1)]
    if bye is not None:
        pairings.append(Pairing(f"R{number}.{len(pairs) + 1}", number, PairingKind.BYE, bye,
                                games=games))
    return Round(number, tuple(pairings))


def next_round(entries: Sequence[Entry], options: Options, rounds: Sequence[Round],
               winners: Winners, part_size: int = PART_SIZE) -> Round | None:
    """The round to start now that ``rounds`` have all finished; ``None`` once over."""
    require_finished(rounds, winners)
    n = len(seeded(entries))
    total = options.rounds or default_rounds(n)
    if total > max_rounds(n):
        raise FormatError(f"a Swiss of {n} entries can have at most {max_rounds(n)} rounds, "
                          f"not {total}")
    if len(rounds) >= total:
        return None
    return pair_round(entries, len(rounds) + 1, history(entries, rounds, winners),
                      options.games, part_size)


def table(entries: Sequence[Entry], rounds: Sequence[Round], winners: Winners
          ) -> tuple[Standing, ...]:
    return standings(entries, finished_results(rounds, winners).values(), SWISS_ORDER)


def seat(pairs: Pairs, h: History, number: int) -> Pairs:
    """The pairs in board order (best-ranked first), each with its first seat first."""
    pairs = sorted(pairs, key=lambda p: min(h.rank[p[0]], h.rank[p[1]]))
    return [_seated(a, b, h, number + board) for board, (a, b) in enumerate(pairs)]


def _seated(a: EntryId, b: EntryId, h: History, turn: int) -> tuple[EntryId, EntryId]:
    """Who begins: the one owed a first seat, then the one who led fewer series, then the one
    who was second last time; else, as in round 1, the better-ranked on alternate boards
    (``turn``: round plus board), so a score group does not come out all on one seat."""
    for owed in (h.balance[a] - h.balance[b], h.led[a] - h.led[b],
                 h.last_led.get(a, False) - h.last_led.get(b, False)):
        if owed:
            return (a, b) if owed < 0 else (b, a)
    better, worse = (a, b) if h.rank[a] < h.rank[b] else (b, a)
    return (better, worse) if turn % 2 else (worse, better)



