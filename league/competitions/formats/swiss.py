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
   left there already met it) floats down to the next, the lowest-ranked first; floaters are
   paired before the group pairs among itself, against its best-ranked; score differences as
   small as possible; and in a score group the top half meets the bottom half (1st v
   (g/2+1)th, ...).

Pairing is a maximum-weight matching (networkx's blossom algorithm, maximum cardinality)
whose integer weights encode the rules as tiers, each tier worth more than everything below
it together. The blossom is O(nodes x edges) in Python: the complete graph of a 1,024 field
would take minutes, and even 4 edges per entry took 1.3 s. So the field is paired bracket by
bracket, top down as the Dutch system does, and a score group larger than ``PART_SIZE`` is
cut into parts that keep its ideal pairs together (part c gets the c-th, (c+k)-th, ... pair of
top half against bottom half), so every matching is small; rematches and seat clashes are no
edges there. Only when that leaves someone unpaired does the bottom of the field widen, one
score group at a time, into one matching that may rematch, up to the whole field, which is
exact for rules 1-3. ``benchmarks.swiss_pairing`` measures it.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from league.competitions.formats.series import finished_results, require_finished, series_games
from league.competitions.formats.standings import SWISS_ORDER, standings
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

PART_SIZE = 16
"""Entries in one matching of the bracket-by-bracket pass. On the same histories parts of 12
to 48 paired equally well (within 1 % of the complete graph's share of pairs inside their
score group, ``benchmarks.swiss_pairing``), while time grows with the part: the slowest
round of a 1,024 field (one-game series) took 0.17 s with 16, 0.50 s with 32, 1.0 s with 48."""


def default_rounds(n: int) -> int:
    """ceil(log2 n): enough for one entry to be the only one without a loss."""
    return max(1, math.ceil(math.log2(n)))


def max_rounds(n: int) -> int:
    """A round robin's worth; an odd field one more, so each entry can have its one bye."""
    return n - 1 + n % 2


@dataclass
class History:
    """What pairing needs to know of the rounds played."""

    rank: dict[EntryId, int]
    """Place in the current order (points, then seed); 0 is the top."""
    score: dict[EntryId, int]
    """Points doubled, so score groups are integers."""
    met: Counter[frozenset[EntryId]] = field(default_factory=Counter)
    byes: set[EntryId] = field(default_factory=set)
    balance: Counter[EntryId] = field(default_factory=Counter)
    """Games in the first seat minus games in the second."""
    led: Counter[EntryId] = field(default_factory=Counter)
    """Series begun in the first seat."""
    last_led: dict[EntryId, bool] = field(default_factory=dict)

    def clash(self, a: EntryId, b: EntryId) -> bool:
        """Whichever seat each took, one would end two games off balance."""
        return self.balance[a] == self.balance[b] != 0


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
    pairs, bye = _pair(ranked, h, part_size)
    pairs.sort(key=lambda p: min(h.rank[p[0]], h.rank[p[1]]))
    pairs = [_seated(a, b, h, number + board) for board, (a, b) in enumerate(pairs)]
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


Pairs = list[tuple[EntryId, EntryId]]


def _pair(ranked: list[EntryId], h: History, part_size: int) -> tuple[Pairs, EntryId | None]:
    eligible = [e for e in ranked if e not in h.byes]
    bye = None
    if len(ranked) % 2:
        if not eligible:
            raise FormatError("every entry has had its bye: no more rounds can be paired")
        bye = eligible[-1]
    # The bracket-by-bracket pass, the bye given first to the lowest-ranked without one.
    field_ = [e for e in ranked if e != bye]
    passes = _descend(_groups(field_, h), h, part_size)
    if not passes[-1][1]:
        return passes[-1][0], bye
    # Someone was left unpaired: widen the bottom group by group into one matching that may
    # rematch (and chooses the bye itself), up to the whole field.
    groups = _groups(ranked, h)
    passes = _descend(groups, h, part_size)
    for j in range(1, len(groups) + 1):
        top_pairs, floaters = passes[len(groups) - j]
        block = floaters + [e for g in groups[len(groups) - j:] for e in g]
        whole = j == len(groups)
        pairs, unpaired, given = _match(block, h, set(), final=True, bye=bye is not None,
                                        seats_soft=whole)
        rematch = any(h.met[frozenset(p)] for p in pairs)
        if whole or not (unpaired or rematch or given != bye):
            return top_pairs + pairs, given
    raise AssertionError("the whole field is always paired")  # pragma: no cover


def _groups(ranked: list[EntryId], h: History) -> list[list[EntryId]]:
    groups: list[list[EntryId]] = []
    for e in ranked:
        if groups and h.score[groups[-1][0]] == h.score[e]:
            groups[-1].append(e)
        else:
            groups.append([e])
    return groups


def _descend(groups: list[list[EntryId]], h: History, part_size: int
             ) -> list[tuple[Pairs, list[EntryId]]]:
    """Pair score groups top down, floaters carried into the next group: before the first
    group and after each, the pairs so far and the floaters."""
    state: tuple[Pairs, list[EntryId]] = ([], [])
    passes = [state]
    for g in groups:
        floaters = state[1]
        bracket = floaters + g
        pairs, unpaired = _bracket(bracket, h, set(floaters), part_size)
        state = (state[0] + pairs, unpaired)
        passes.append(state)
    return passes


def _bracket(bracket: list[EntryId], h: History, floaters: set[EntryId], part_size: int
             ) -> tuple[Pairs, list[EntryId]]:
    if len(bracket) <= part_size:
        pairs, unpaired, _ = _match(bracket, h, floaters)
        return pairs, unpaired
    half = len(bracket) // 2
    parts = math.ceil(len(bracket) / part_size)
    pairs: Pairs = []
    rest = bracket[2 * half:]  # an odd bracket's lowest entry waits for the rest
    for c in range(parts):
        # The part keeps whole ideal pairs (i-th of the top half, i-th of the bottom half), so
        # its own top half against bottom half is the whole bracket's.
        part = bracket[c:half:parts] + bracket[half + c:2 * half:parts]
        got, unpaired, _ = _match(part, h, floaters)
        pairs += got
        rest += unpaired
    rest.sort(key=h.rank.__getitem__)
    if len(rest) < len(bracket):
        got, unpaired = _bracket(rest, h, floaters, part_size)
    else:  # nothing paired in the parts: no smaller problem to recurse on
        got, unpaired, _ = _match(rest, h, floaters)
    return pairs + got, unpaired


def _match(bracket: list[EntryId], h: History, floaters: set[EntryId], final: bool = False,
           bye: bool = False, seats_soft: bool = False
           ) -> tuple[Pairs, list[EntryId], EntryId | None]:
    """One maximum-weight matching: the pairs, those left unpaired, and who got the bye.

    Not ``final``: rematches and seat clashes are no edges (whoever is left floats down).
    ``final``: rematches are edges, worth less than any pairing without; ``bye`` adds a node
    for the bye, joined to those without one; ``seats_soft`` lets a seat clash be an edge
    (worth less again), for the whole field only, so it is always paired.
    """
    size = len(bracket)
    half = size // 2
    if (not final and not floaters and size % 2 == 0
            and len({h.score[e] for e in bracket}) <= 1
            and not any(h.met[frozenset((a, b))] or h.clash(a, b)
                        for a, b in zip(bracket[:half], bracket[half:], strict=True))):
        # One score group whose ideal pairs are all allowed: that pairing is the best in
        # every tier below, so the matching would only find it again (slowly: with every
        # weight tied, as in round 1, a part of 32 took networkx 25-90 ms).
        return list(zip(bracket[:half], bracket[half:], strict=True)), [], None
    local: dict[EntryId, int] = {}  # place within its score group, in this bracket
    group_size: Counter[int] = Counter()
    for e in bracket:
        local[e] = group_size[h.score[e]]
        group_size[h.score[e]] += 1
    top = max((h.score[e] for e in bracket), default=0)
    bottom = min((h.score[e] for e in bracket), default=0)
    span = (top - bottom) ** 2
    most_met = max((h.met[frozenset((a, b))] for i, a in enumerate(bracket)
                    for b in bracket[i + 1:]), default=0) if final else 0
    edges: dict[tuple[int, int], tuple[int, ...]] = {}
    for i, a in enumerate(bracket):
        for j in range(i + 1, size):
            b = bracket[j]
            met, clash = h.met[frozenset((a, b))], h.clash(a, b)
            if (clash and not seats_soft) or (met and not final):
                continue
            sa, sb = h.score[a], h.score[b]
            if sa == sb:  # top half against bottom half of the group, if not the ideal pair
                g = group_size[sa]  # then a transposition, before two of one half meet
                dutch = ((2 * abs(local[a] - local[b]) - g) ** 2
                         + 4 * g * g * ((2 * local[a] < g) == (2 * local[b] < g)))
            else:  # a floater against the group's best-ranked
                dutch = (local[b] if sa > sb else local[a]) ** 2
            edges[i, j] = (not clash, most_met - met, 0, (a in floaters) + (b in floaters),
                           span - (sa - sb) ** 2, 2 * size - i - j, 8 * size * size - dutch)
    if bye:
        for i, a in enumerate(bracket):
            if a not in h.byes:  # the lowest-ranked weighs most
                edges[i, size] = (1, most_met, i + 1, 0, span, size - i, 8 * size * size)
    if not edges:
        return [], list(bracket), None
    graph = nx.Graph()
    graph.add_nodes_from(range(size + bye))
    for (i, j), w in _weights(edges, size + bye).items():
        graph.add_edge(i, j, weight=w)
    pairs: Pairs = []
    given = None
    for i, j in nx.max_weight_matching(graph, maxcardinality=True):
        i, j = min(i, j), max(i, j)
        if j == size:
            given = bracket[i]
        else:
            pairs.append((bracket[i], bracket[j]))
    paired = {e for p in pairs for e in p} | {given}
    return pairs, [e for e in bracket if e not in paired], given


def _weights(edges: dict[tuple[int, int], tuple[int, ...]], nodes: int
             ) -> dict[tuple[int, int], int]:
    """Tiers to integers: each tier outweighs every tier after it summed over a matching."""
    tiers = len(next(iter(edges.values())))
    scale = [1] * tiers
    most = nodes // 2 + 1  # edges in any matching
    for t in range(tiers - 2, -1, -1):
        scale[t] = scale[t + 1] * (most * max(v[t + 1] for v in edges.values()) + 1)
    return {e: sum(v * s for v, s in zip(values, scale, strict=True))
            for e, values in edges.items()}
