"""Who plays whom next, free of the database (matchmaking feeds it; the ranking benchmark
simulates whole seasons through it).

Rated ladders: a new version's placement pairings come first, against opponents spread over
the board; then a bot drawn with weight toward few recent games and a wide sigma, paired with
an opponent near its rank inside a window of random width (Halite III's rule), pairs that met
recently weighed down. Scored ladders: each version plays each of the ladder's seeds once,
those with the fewest seeds played first.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from league.ladders.ratings import Skill

PLACEMENT_PAIRINGS = 4
"""Pairings (two matches each, seats swapped) a new version plays before ordinary matchmaking."""
MEAN_WINDOW = 3.0
"""Mean rank distance to an opponent; the window's width is drawn anew for every pairing."""


@dataclass
class Entry:
    """One active version on a rated ladder, as matchmaking sees it."""

    key: Hashable
    skill: Skill
    recent: int = 0
    """Matches played recently plus those queued or running."""
    placed: int = 0
    """Pairings played or scheduled since this version joined."""


def pair_key(a: Hashable, b: Hashable) -> frozenset[Hashable]:
    return frozenset((a, b))


def choose_pairings(entries: Sequence[Entry], count: int, rng: random.Random,
                    met: Counter[frozenset[Hashable]] | None = None,
                    ) -> list[tuple[Hashable, Hashable]]:
    """Up to ``count`` pairings; ``met`` counts recent meetings per pair (updated in place)."""
    if len(entries) < 2:
        return []
    met = met if met is not None else Counter()
    pairings = []
    for _ in range(count):
        board = sorted(entries, key=lambda e: e.skill.ordinal, reverse=True)
        newcomers = [e for e in entries if e.placed < PLACEMENT_PAIRINGS]
        if newcomers:
            player = min(newcomers, key=lambda e: (e.placed, rng.random()))
            opponent = _placement_opponent(player, board, met, rng)
        else:
            player = _draw_player(entries, rng)
            opponent = _nearby_opponent(player, board, met, rng)
        for e in (player, opponent):
            e.recent += 2
            e.placed += 1
        met[pair_key(player.key, opponent.key)] += 1
        pairings.append((player.key, opponent.key))
    return pairings


def _draw_player(entries: Sequence[Entry], rng: random.Random) -> Entry:
    weights = [e.skill.sigma ** 2 / (1 + e.recent) for e in entries]
    return rng.choices(list(entries), weights=weights)[0]


def _placement_opponent(player: Entry, board: list[Entry], met: Counter, rng: random.Random
                        ) -> Entry:
    """The k-th placement opponent sits at the k-th of evenly spread points of the board."""
    others = [e for e in board if e is not player]
    target = (player.placed + rng.random()) / PLACEMENT_PAIRINGS * len(others)
    return min(others, key=lambda e: (abs(others.index(e) + 0.5 - target)
                                      + 2 * met[pair_key(player.key, e.key)]))


def _nearby_opponent(player: Entry, board: list[Entry], met: Counter, rng: random.Random
                     ) -> Entry:
    rank = board.index(player)
    window = 1 + int(rng.expovariate(1 / MEAN_WINDOW))
    near = [e for i, e in enumerate(board) if e is not player and abs(i - rank) <= window]
    weights = [1 / (1 + met[pair_key(player.key, e.key)]) ** 2 for e in near]
    return rng.choices(near, weights=weights)[0]


def choose_seed_runs(played: dict[Hashable, set[int]], seeds: Sequence[int], count: int
                     ) -> list[tuple[Hashable, int]]:
    """Up to ``count`` (version, seed) runs still owed, fewest-played versions first."""
    owed = {key: [s for s in seeds if s not in done] for key, done in played.items()}
    runs: list[tuple[Hashable, int]] = []
    while len(runs) < count:
        waiting = [k for k, left in owed.items() if left]
        if not waiting:
            break
        key = min(waiting, key=lambda k: (len(seeds) - len(owed[k]), str(k)))
        runs.append((key, owed[key].pop(0)))
    return runs


def kendall_tau(order: Sequence[Hashable], truth: Sequence[Hashable]) -> float:
    """Kendall's tau between two orderings of the same keys (1 = identical)."""
    position = {key: i for i, key in enumerate(order)}
    ranks = [position[key] for key in truth]
    n = len(ranks)
    if n < 2:
        return 1.0
    concordant = sum(1 for i in range(n) for j in range(i + 1, n) if ranks[i] < ranks[j])
    pairs = n * (n - 1) // 2
    return (2 * concordant - pairs) / pairs if pairs else 1.0


__all__ = ["Entry", "choose_pairings", "choose_seed_runs", "kendall_tau"]
