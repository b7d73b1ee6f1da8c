"""A bracket as a graph of series, and how results move entries through it.

Both elimination formats are the same machine: each node is a series whose two sides come
from a seed's place, or from the winner or loser of an earlier node. Which places are empty
(a field smaller than the bracket) is known from the start, so byes are too: a node with one
side empty is a bye, its entry advancing without playing; with both sides empty it is void.

A bracket advances series by series, but the league runs round by round, so every node gets
a round: one more than the latest round of the nodes it waits for, rounds without play
dropped. A node's entries are therefore known once every earlier round has finished. The one
node known only as the tournament goes is the bracket reset of double elimination: played
only when the grand final went to the losers' bracket's winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from league.competitions.formats.series import series_result
from league.competitions.formats.types import (
    EntryId,
    Pairing,
    PairingKind,
    Winners,
)


class From(StrEnum):
    SEED = "seed"
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True)
class Side:
    source: From
    place: int = 0
    """``SEED``: the seed's place, 1-based (past the field's size: empty)."""
    node: str = ""
    """``WINNER``, ``LOSER``: the key of the node it comes from."""


@dataclass(frozen=True)
class Node:
    key: str
    sides: tuple[Side, Side]
    stage: float
    """Order of finishing: an entry whose last series is at a later stage places higher."""
    loser_out: bool
    """Whether losing here ends the entry's tournament."""
    reset: bool = False
    """Played only if the node its sides come from was won by its second side."""


EMPTY = None


class Unknown:
    """A side whose entry is not known yet."""


UNKNOWN = Unknown()
Who = EntryId | None | Unknown


@dataclass(frozen=True)
class State:
    """A node given the results so far."""

    node: Node
    round: int
    entries: tuple[Who, Who]
    winner: Who
    loser: Who
    played: bool
    """Whether its series is (or was) played: both sides filled, and not a void reset."""

    @property
    def decided(self) -> bool:
        return not isinstance(self.winner, Unknown)


def rounds_of(nodes: Sequence[Node], field: int) -> dict[str, int]:
    """Each node's round: one after the latest round of the nodes it waits for. A bye keeps
    its place in the bracket's rhythm (seeds with a first-round bye play the second round
    together with the first round's winners), and a round in which nothing would be played
    is dropped, its byes listed with the next round that has play."""
    # Whether a node's winner and loser are empty follows from the field size alone: a
    # winner when both sides are, a loser when either is (nobody lost a bye).
    empty: dict[str, tuple[bool, bool]] = {}
    raw: dict[str, int] = {}
    with_play: set[int] = set()
    for n in nodes:
        blank = [s.place > field if s.source == From.SEED
                 else empty[s.node][s.source == From.LOSER] for s in n.sides]
        empty[n.key] = (all(blank), any(blank))
        raw[n.key] = 1 + max((raw[s.node] for s in n.sides if s.source != From.SEED),
                             default=0)
        if not any(blank):
            with_play.add(raw[n.key])
    ordered = sorted(with_play)
    rounds = {}
    for n in nodes:
        later = [i for i, r in enumerate(ordered, start=1) if r >= raw[n.key]]
        rounds[n.key] = later[0] if later else len(ordered)
    return rounds


def evaluate(nodes: Sequence[Node], seeds: Sequence[EntryId], winners: Winners,
             seed_of: Mapping[EntryId, int], games: int) -> list[State]:
    """Every node's entries and outcome given the results so far (``seeds``: the field by
    seed, best first)."""
    rounds = rounds_of(nodes, len(seeds))
    states: dict[str, State] = {}
    for n in nodes:
        if n.reset:
            void, entries = _reset(states[n.sides[0].node])
            if void is not None:
                states[n.key] = State(n, rounds[n.key], (EMPTY, EMPTY), void, EMPTY, False)
                continue
        else:
            entries = (_side(n.sides[0], seeds, states), _side(n.sides[1], seeds, states))
        a, b = entries
        winner: Who = UNKNOWN
        loser: Who = UNKNOWN
        if a is EMPTY or b is EMPTY:
            if not isinstance(a, Unknown) and not isinstance(b, Unknown):
                winner, loser = (b if a is EMPTY else a), EMPTY
        elif isinstance(a, int) and isinstance(b, int):
            pairing = _pairing(n, a, b, rounds[n.key], seed_of, games)
            result = series_result(pairing, winners.get(n.key, ()))
            if result is not None:
                winner, loser = result.winner, result.loser
        played = a is not EMPTY and b is not EMPTY
        states[n.key] = State(n, rounds[n.key], (a, b), winner, loser, played)
    return list(states.values())


def _side(side: Side, seeds: Sequence[EntryId], states: Mapping[str, State]) -> Who:
    if side.source == From.SEED:
        return seeds[side.place - 1] if side.place <= len(seeds) else EMPTY
    state = states[side.node]
    return state.winner if side.source == From.WINNER else state.loser


def _reset(final: State) -> tuple[Who, tuple[Who, Who]]:
    """The grand final's rematch, played when its second side (the losers' bracket's
    winner) won it, as both have then lost once: ``(None, entries)`` if it is played (or may
    be), ``(champion, ...)`` when the grand final's winner is already the champion."""
    first, second = final.entries
    if not final.decided:
        return None, (UNKNOWN, UNKNOWN)
    if final.winner != second or second is EMPTY:
        return final.winner, (EMPTY, EMPTY)
    return None, (first, second)


def _pairing(node: Node, a: EntryId, b: EntryId, number: int, seed_of: Mapping[EntryId, int],
             games: int) -> Pairing:
    # The better seed takes the first seat of the first game and wins a series still level
    # after its decider.
    first, second = (a, b) if seed_of[a] < seed_of[b] else (b, a)
    return Pairing(node.key, number, PairingKind.SERIES, first, second, games=games,
                   decider=True)


def pairing_of(state: State, seed_of: Mapping[EntryId, int], games: int) -> Pairing | None:
    """The node as a pairing once its entries are known (a bye as a bye); else ``None``."""
    a, b = state.entries
    if isinstance(a, Unknown) or isinstance(b, Unknown) or (a is EMPTY and b is EMPTY):
        return None
    if a is EMPTY or b is EMPTY:
        alone = b if a is EMPTY else a
        assert isinstance(alone, int)
        return Pairing(state.node.key, state.round, PairingKind.BYE, alone, games=games)
    assert isinstance(a, int) and isinstance(b, int)
    return _pairing(state.node, a, b, state.round, seed_of, games)
