"""How a Swiss round's pairs are found: maximum-weight matchings, bracket by bracket.

``swiss`` states the rules; this module finds pairs that keep them, fast enough for a
1,024-entry field. Each matching is networkx's blossom algorithm with maximum cardinality,
its integer weights encoding the rules as tiers, each tier worth more than everything after
it together. The blossom is O(nodes x edges) in Python: the complete graph of a 1,024 field
would take minutes, and even 4 edges per entry took 1.3 s. So the field is paired bracket by
bracket, top down as the Dutch system does (a bracket: one score group and the floaters from
above), with rematches and seat clashes left out of the graph, and:

- a bracket floats down what the field below needs to stay pairable on seats (the Dutch
  completion rule; ``_need``);
- a bracket larger than ``PART_SIZE`` is cut into parts made of whole ideal pairs (top half
  against bottom half), bundled so that each part balances on seats (``_bundles``), so every
  matching is small;
- only when someone is still left at the bottom does the bottom widen, one score group at a
  time, into one matching that may rematch, up to the whole field, which is exact for the
  rules. ``benchmarks.swiss_pairing`` measures it against the whole-field matching.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

import networkx as nx

from league.competitions.formats.types import EntryId, FormatError

Pairs = list[tuple[EntryId, EntryId]]

PART_SIZE = 16
"""Entries in one matching of the bracket-by-bracket pass. On the same histories parts of 12
to 48 paired equally well (within 1 % of the complete graph's share of pairs inside their
score group, ``benchmarks.swiss_pairing``), while time grows with the part: the slowest
round of a 1,024 field (one-game series) took about 0.2 s with 16, 0.5 s with 32, 1 s with 48."""


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

    def side(self, e: EntryId) -> int:
        """-1, 0 or +1: which seat the entry is ahead on (with an odd number of games per
        series it is never more than one game either way)."""
        return (self.balance[e] > 0) - (self.balance[e] < 0)


def pair_field(ranked: list[EntryId], h: History, part_size: int = PART_SIZE
               ) -> tuple[Pairs, EntryId | None]:
    """The round's pairs for the field in ranked order, and who has the bye (if odd)."""
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
    below = Counter(h.side(e) for g in groups for e in g)
    for g in groups:
        floaters = state[1]
        below.subtract(h.side(e) for e in g)
        pairs, unpaired = _bracket(floaters + g, h, set(floaters), part_size, _need(below))
        state = (state[0] + pairs, unpaired)
        passes.append(state)
    return passes


Need = tuple[int, int]
"""How many entries a bracket must float down, and of which side (their own or one on
balance), so that the field below can still be paired on seats."""


def _need(below: Counter[int]) -> Need:
    """The Dutch system's completion rule, for seats. With an odd number of games per series
    two entries ahead on the same seat cannot meet; the field below a bracket can be paired
    only if its entries on balance cover its excess of one side, so the bracket must float
    down the difference, from the other side (or on balance). Pairing the most in each group
    and floating whoever was left once left two entries at the bottom of a 1,023 field that
    could meet nobody, and the whole field had to be paired again (minutes)."""
    excess = below[1] - below[-1]
    return (excess < 0) - (excess > 0), max(0, abs(excess) - below[0])


def _bracket(bracket: list[EntryId], h: History, floaters: set[EntryId], part_size: int,
             need: Need = (0, 0)) -> tuple[Pairs, list[EntryId]]:
    if len(bracket) <= part_size:
        pairs, unpaired, _ = _match(bracket, h, floaters, need=need)
        return pairs, unpaired
    # Too big for one matching: float what the field below needs first (the lowest-ranked
    # that may go), then pair the rest in parts.
    side, count = need
    sent = [e for e in reversed(bracket) if h.side(e) in (side, 0)][:count]
    bracket = [e for e in bracket if e not in sent]
    half = len(bracket) // 2
    parts = math.ceil(len(bracket) / part_size)
    members: list[list[EntryId]] = [[] for _ in range(parts)]
    # Parts are made of whole ideal pairs (i-th of the top half, i-th of the bottom half), so
    # a part's own top half against its bottom half is the whole bracket's; bundles of them
    # are dealt out in turn, so each part spans the bracket.
    ideal = list(zip(bracket[:half], bracket[half:2 * half], strict=True))
    for k, bundle in enumerate(_bundles(ideal, h)):
        members[k % parts] += [e for pair in bundle for e in pair]
    pairs: Pairs = []
    rest = bracket[2 * half:]  # an odd bracket's lowest entry waits for the rest
    for part in members:
        got, unpaired, _ = _match(sorted(part, key=h.rank.__getitem__), h, floaters,
                                  need=(side, 0))
        pairs += got
        rest += unpaired
    rest.sort(key=h.rank.__getitem__)
    if len(rest) < len(bracket):
        got, unpaired = _bracket(rest, h, floaters, part_size, (side, 0))
    else:  # nothing paired in the parts: no smaller problem to recurse on
        got, unpaired, _ = _match(rest, h, floaters, need=(side, 0))
    return pairs + got, unpaired + sent


def _bundles(ideal: Pairs, h: History) -> list[Pairs]:
    """Ideal pairs grouped so that each group can be paired among itself on seats.

    With an odd number of games, an ideal pair of two entries both a first seat ahead
    (+, +) cannot be played; with a (-, -) pair it can swap partners, so the two go into one
    part. A surplus of one side goes with a pair holding an entry on balance, which can take
    it: (0, -) and (+, +) make (0, +) and (+, -). Parts that each balance on seats leave
    nobody over who could have been paired in the group (a part with the group's only entry
    on balance and more of one side than the other once paired it with the wrong side, and
    left two entries at the bottom of the field that could meet nobody).
    """
    side = h.side
    bundles: list[tuple[int, Pairs]] = []
    waiting: dict[int, list[tuple[int, tuple[EntryId, EntryId]]]] = {2: [], -2: []}
    level: list[tuple[int, tuple[EntryId, EntryId]]] = []
    for j, (a, b) in enumerate(ideal):
        q = side(a) + side(b)
        if abs(q) == 2 and waiting[-q]:
            k, other = waiting[-q].pop(0)
            bundles.append((k, [other, (a, b)]))
        elif abs(q) == 2:
            waiting[q].append((j, (a, b)))
        else:
            level.append((j, (a, b)))
    for q, left in waiting.items():
        for j, pair in left:
            taker = next((i for i, (_, (a, b)) in enumerate(level)
                          if 0 in (side(a), side(b)) and side(a) + side(b) != q // 2), None)
            if taker is None:
                bundles.append((j, [pair]))
            else:
                k, other = level.pop(taker)
                bundles.append((min(j, k), [other, pair]))
    bundles += [(j, [pair]) for j, pair in level]
    return [pairs for _, pairs in sorted(bundles)]


def _match(bracket: list[EntryId], h: History, floaters: set[EntryId], final: bool = False,
           bye: bool = False, seats_soft: bool = False, need: Need = (0, 0)
           ) -> tuple[Pairs, list[EntryId], EntryId | None]:
    """One maximum-weight matching: the pairs, those left unpaired, and who got the bye.

    Not ``final``: rematches and seat clashes are no edges (whoever is left floats down), and
    ``need`` adds that many nodes that float an entry of its side (or on balance), while an
    entry of the other side is kept paired where it can be (floating it would add to the
    excess below). ``final``: rematches are edges, worth less than any pairing without;
    ``bye`` adds a node for the bye, joined to those without one; ``seats_soft`` lets a seat
    clash be an edge (worth less again), for the whole field only, so it is always paired.
    """
    size = len(bracket)
    half = size // 2
    side, sinks = need
    if (not final and not floaters and not sinks and size % 2 == 0
            and len({h.score[e] for e in bracket}) <= 1
            and not any(h.met[frozenset((a, b))] or h.clash(a, b)
                        for a, b in zip(bracket[:half], bracket[half:], strict=True))):
        # One score group whose ideal pairs are all allowed: that pairing is the best in
        # every tier below, so the matching would only find it again (slowly: with every
        # weight tied, as in round 1, networkx took 25-90 ms on a part of 32).
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
    keep = [side != 0 and h.side(e) == -side for e in bracket]  # floating them adds excess
    dutch_max = 8 * size * size
    # Tiers, each worth more than all after it: no seat clash, fewest meetings before, the
    # bye to the lowest-ranked, entries that must not float paired, floaters paired,
    # smallest score gaps, the lowest-ranked left over, the Dutch ideal pairs.
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
            edges[i, j] = (not clash, most_met - met, 0, keep[i] + keep[j],
                           (a in floaters) + (b in floaters), span - (sa - sb) ** 2,
                           2 * size - i - j, dutch_max - dutch)
    extra = 0
    if bye:
        extra = 1
        for i, a in enumerate(bracket):
            if a not in h.byes:  # the lowest-ranked weighs most
                edges[i, size] = (1, most_met, i + 1, 0, 0, span, size, dutch_max)
    for k in range(size + extra, size + extra + sinks):
        for i, a in enumerate(bracket):
            if h.side(a) in (side, 0):  # floated down; the lowest-ranked first (see ``size``)
                edges[i, k] = (1, most_met, 0, 0, 0, span, size, dutch_max)
    if not edges:
        return [], list(bracket), None
    graph = nx.Graph()
    graph.add_nodes_from(range(size + extra + sinks))
    for (i, j), w in _weights(edges, size + extra + sinks).items():
        graph.add_edge(i, j, weight=w)
    pairs: Pairs = []
    given = None
    for i, j in nx.max_weight_matching(graph, maxcardinality=True):
        i, j = min(i, j), max(i, j)
        if j < size:
            pairs.append((bracket[i], bracket[j]))
        elif bye and j == size:
            given = bracket[i]
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


def pair_whole(ranked: list[EntryId], h: History) -> tuple[Pairs, EntryId | None]:
    """Every rule as one matching on the complete graph of the field: exact, and far too slow
    for a big field. The last widening step; the benchmark's baseline."""
    pairs, _, bye = _match(ranked, h, set(), final=True, bye=len(ranked) % 2 == 1,
                           seats_soft=True)
    return pairs, bye
