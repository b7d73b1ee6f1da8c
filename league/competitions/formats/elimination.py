"""Single and double elimination: the brackets, the rounds they are played in, the places.

Seeding is the standard bracket: the bracket has the next power of two places, seed s meets
seed (places + 1 - s) in the first round, and the halves are built the same way recursively,
so seeds 1 and 2 can meet only in the final, 1-4 only in the semi-finals, and so on. The
places past the field are empty, and as the lowest seeds would face them, the byes go to the
top seeds. A series level after its games gets one extra game; level after that too, the
better seed advances (``series``).

Single elimination: one loss and an entry is out; optionally the semi-final losers play for
third place. Places: the final decides 1 and 2 (the third-place match 3 and 4); otherwise
those out in the same round share a place.

Double elimination: a winners' bracket as above; its losers drop into a losers' bracket and
are out at their second loss. Losers' bracket rounds alternate: in the first, the winners'
first-round losers play each other; then each round the survivors meet the losers dropping
from the next winners' round (entering in reverse order, then half-swapped, alternately, the
common pattern that keeps two entries who just met apart), and play among themselves. The
winners' bracket winner meets the losers' bracket winner in the grand final. Bracket reset
(the default, ``Options.bracket_reset``): if the losers' bracket winner wins the grand final,
both have lost once, so a second grand final decides and nobody leaves on a single loss.
Without it the grand final is final. Places: those out in the same losers' round share one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from league.competitions.formats.bracket import (
    From,
    Node,
    Side,
    State,
    evaluate,
    pairing_of,
)
from league.competitions.formats.series import require_finished
from league.competitions.formats.types import (
    Entry,
    EntryId,
    FormatError,
    Options,
    Pairing,
    Round,
    Standing,
    Winners,
    seeded,
)


def bracket_order(places: int) -> list[int]:
    """Seeds in bracket order (``places`` a power of two): 1, 8, 4, 5, 2, 7, 3, 6 for 8."""
    order = [1]
    while len(order) < places:
        size = 2 * len(order)
        order = [s for seed in order for s in (seed, size + 1 - seed)]
    return order


def _depth(field: int) -> int:
    """Rounds of the winners' bracket: log2 of the next power of two."""
    return max(1, (field - 1).bit_length())


def _winners_bracket(field: int, loser_out: bool) -> list[Node]:
    k = _depth(field)
    order = bracket_order(2 ** k)
    nodes = [Node(f"W1.{i + 1}", (Side(From.SEED, order[2 * i]), Side(From.SEED, order[2 * i + 1])),
                  1, loser_out) for i in range(2 ** (k - 1))]
    for r in range(2, k + 1):
        nodes += [Node(f"W{r}.{i}", (Side(From.WINNER, node=f"W{r - 1}.{2 * i - 1}"),
                                     Side(From.WINNER, node=f"W{r - 1}.{2 * i}")), r, loser_out)
                  for i in range(1, 2 ** (k - r) + 1)]
    return nodes


def single_bracket(field: int, third_place: bool) -> list[Node]:
    nodes = _winners_bracket(field, loser_out=True)
    k = _depth(field)
    if third_place and k >= 2:
        # The semi-finals' losers play on, for third place.
        nodes = [Node(n.key, n.sides, n.stage, False) if n.stage == k - 1 else n for n in nodes]
        nodes.append(Node("P3", (Side(From.LOSER, node=f"W{k - 1}.1"),
                                 Side(From.LOSER, node=f"W{k - 1}.2")), k - 0.5, True))
    return nodes


def _drop(i: int, count: int, m: int) -> int:
    """Which winners' round m+1 loser (1-based) meets losers' survivor i of ``count``."""
    if m % 2:
        return count + 1 - i
    return (i - 1 + count // 2) % count + 1


def double_bracket(field: int, reset: bool) -> list[Node]:
    nodes = [Node(n.key, n.sides, 0, False) for n in _winners_bracket(field, loser_out=False)]
    k = _depth(field)
    places = 2 ** k
    champion = Side(From.LOSER, node="W1.1")  # a field of two: the final's loser
    if k >= 2:
        nodes += [Node(f"L1.{i}", (Side(From.LOSER, node=f"W1.{2 * i - 1}"),
                                   Side(From.LOSER, node=f"W1.{2 * i}")), 1, True)
                  for i in range(1, places // 4 + 1)]
        for m in range(1, k):
            count = places // 2 ** (m + 1)
            nodes += [Node(f"L{2 * m}.{i}",
                           (Side(From.WINNER, node=f"L{2 * m - 1}.{i}"),
                            Side(From.LOSER, node=f"W{m + 1}.{_drop(i, count, m)}")),
                           2 * m, True) for i in range(1, count + 1)]
            if m < k - 1:
                nodes += [Node(f"L{2 * m + 1}.{i}",
                               (Side(From.WINNER, node=f"L{2 * m}.{2 * i - 1}"),
                                Side(From.WINNER, node=f"L{2 * m}.{2 * i}")), 2 * m + 1, True)
                          for i in range(1, count // 2 + 1)]
        champion = Side(From.WINNER, node=f"L{2 * k - 2}.1")
    final = 2 * k - 1
    # The grand final's loser leaves only if it came from the losers' bracket, or if there is
    # no reset; ``standings`` reads that off the reset node.
    nodes.append(Node("GF", (Side(From.WINNER, node=f"W{k}.1"), champion), final, not reset))
    if reset:
        nodes.append(Node("GF2", (Side(From.WINNER, node="GF"), Side(From.LOSER, node="GF")),
                          final + 1, True, reset=True))
    return nodes


@dataclass(frozen=True)
class Bracket:
    """An elimination tournament's bracket, evaluated on its results so far."""

    states: tuple[State, ...]
    seed_of: dict[EntryId, int]
    games: int

    def pairings(self, number: int | None = None) -> tuple[Pairing, ...]:
        """Pairings whose entries are known: those of round ``number``, or all."""
        found = [pairing_of(s, self.seed_of, self.games) for s in self.states
                 if number is None or s.round == number]
        return tuple(p for p in found if p is not None)

    def playable(self) -> tuple[Pairing, ...]:
        """Series that could be played now: both entries known, not yet decided."""
        return tuple(p for s in self.states if s.played and not s.decided
                     and (p := pairing_of(s, self.seed_of, self.games)) is not None)

    @property
    def over(self) -> bool:
        return all(s.decided for s in self.states)


def bracket(entries: Sequence[Entry], options: Options, winners: Winners, double: bool
            ) -> Bracket:
    ordered = seeded(entries)
    nodes = (double_bracket(len(ordered), options.bracket_reset) if double
             else single_bracket(len(ordered), options.third_place))
    keys = {n.key for n in nodes}
    if set(winners) - keys:
        raise FormatError(f"results for series this bracket does not have: "
                          f"{sorted(set(winners) - keys)}")
    seed_of = {e.id: i for i, e in enumerate(ordered, start=1)}
    states = evaluate(nodes, [e.id for e in ordered], winners, seed_of, options.games)
    return Bracket(tuple(states), seed_of, options.games)


def next_round(entries: Sequence[Entry], options: Options, rounds: Sequence[Round],
               winners: Winners, double: bool = False) -> Round | None:
    """The round to start now that ``rounds`` have all finished; ``None`` once over."""
    require_finished(rounds, winners)
    b = bracket(entries, options, winners, double)
    for r in rounds:
        if r.pairings != b.pairings(r.number):
            raise FormatError(f"round {r.number} is not this bracket's: were entries added or "
                              "removed after the start?")
    if b.over:
        return None
    number = len(rounds) + 1
    pairings = b.pairings(number)
    if not any(p.played for p in pairings) or any(
            s.round == number and not s.decided and pairing_of(s, b.seed_of, b.games) is None
            for s in b.states):
        raise FormatError(f"round {number} cannot start: an earlier round is missing")
    return Round(number, pairings)


def table(entries: Sequence[Entry], options: Options, winners: Winners, double: bool
          ) -> tuple[Standing, ...]:
    """Places: those still playing share the first, then by how late each went out (the
    stage of its last series, a win there above a loss); a place is shared by all out at the
    same stage, listed by seed. ``points`` counts series won, byes included."""
    b = bracket(entries, options, winners, double)
    count: dict[EntryId, list[int]] = {e: [0, 0, 0] for e in b.seed_of}  # wins, losses, byes
    last: dict[EntryId, tuple[float, bool]] = {}
    out: set[EntryId] = set()
    reset_void = any(s.node.reset and s.decided and not s.played for s in b.states)
    for s in b.states:
        if not s.decided or not s.played:
            if s.decided and isinstance(s.winner, int) and s.winner in s.entries:
                count[s.winner][2] += 1  # a bye
            continue
        for e in s.entries:
            assert isinstance(e, int)
            count[e][e != s.winner] += 1
            last[e] = (s.node.stage, e == s.winner)
        if isinstance(s.loser, int) and (s.node.loser_out or (s.node.key == "GF" and reset_void)):
            out.add(s.loser)
    finished = set(b.seed_of) if b.over else out
    key = {e: last.get(e, (-1.0, False)) if e in finished else (float("inf"), True)
           for e in b.seed_of}
    ordered = sorted(b.seed_of, key=lambda e: (tuple(-x for x in key[e]), b.seed_of[e]))
    return tuple(Standing(entry=e, rank=1 + sum(key[o] > key[e] for o in b.seed_of),
                          points=float(count[e][0] + count[e][2]), wins=count[e][0],
                          losses=count[e][1], byes=count[e][2],
                          played=count[e][0] + count[e][1], out=e in finished)
                 for e in ordered)
