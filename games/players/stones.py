"""Stones players: random, and a perfect player built on Sprague-Grundy values.

Stones is an impartial game under normal play (who cannot move loses), and free cells that are
not neighbours never interact, so a position is the disjunctive sum of its 8-connected groups
of free cells. Each group's Grundy value depends only on its shape, cached up to translation;
a position is lost for the player to move exactly when the XOR of its groups' values is 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.players.base import Player, register_player
from games.stones import neighbourhoods


class StonesSolver:
    """Grundy values of free-cell sets on a ``size`` x ``size`` board."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.hood = neighbourhoods(size)
        self.cache: dict[int, int] = {}
        full = (1 << size * size) - 1
        first_col = sum(1 << (r * size) for r in range(size))
        last_col = first_col << (size - 1)
        self._not_first = full & ~first_col
        self._not_last = full & ~last_col
        self._full = full
        self._cols = [first_col << c for c in range(size)]

    def _dilate(self, m: int) -> int:
        n = self.size
        h = m | ((m << 1) & self._not_first) | ((m >> 1) & self._not_last)
        return (h | (h << n) | (h >> n)) & self._full

    def groups(self, free: int) -> list[int]:
        out = []
        while free:
            group = free & -free
            while True:
                grown = self._dilate(group) & free
                if grown == group:
                    break
                group = grown
            out.append(group)
            free &= ~group
        return out

    def _key(self, group: int) -> int:
        low = group & -group
        row_shift = (low.bit_length() - 1) // self.size * self.size
        col = next(c for c, cm in enumerate(self._cols) if group & cm)
        return group >> (row_shift + col)

    def grundy(self, free: int) -> int:
        value = 0
        for group in self.groups(free):
            value ^= self._group_grundy(group)
        return value

    def _group_grundy(self, group: int) -> int:
        key = self._key(group)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        seen = set()
        m = group
        while m:
            low = m & -m
            seen.add(self.grundy(group & ~self.hood[low.bit_length() - 1]))
            m ^= low
        g = 0
        while g in seen:
            g += 1
        self.cache[key] = g
        return g

    def winning_moves(self, free: int) -> list[int]:
        """Cells whose stone leaves the opponent a lost position."""
        wins = []
        m = free
        while m:
            low = m & -m
            i = low.bit_length() - 1
            if self.grundy(free & ~self.hood[i]) == 0:
                wins.append(i)
            m ^= low
        return wins


@register_player("stones", "random")
class RandomStones(Player):
    def choose(self, observation: Mapping[str, Any]) -> str:
        return self.rng.choice(observation["legal_moves"])


@register_player("stones", "perfect")
class PerfectStones(Player):
    """Wins every won position; in a lost one, plays the move leaving the most free cells."""

    def __init__(self, game, seat: int, seed: int = 0) -> None:  # type: ignore[no-untyped-def]
        super().__init__(game, seat, seed)
        self.solver = StonesSolver(game.options["size"])

    def choose(self, observation: Mapping[str, Any]) -> str:
        n = self.solver.size
        free = 0
        for r, line in enumerate(observation["board"]):
            for c, ch in enumerate(line):
                if ch == ".":
                    free |= 1 << (r * n + c)
        wins = self.solver.winning_moves(free)
        if wins:
            i = wins[self.rng.below(len(wins))]
        else:
            cells = [int(t.split(",")[0]) * n + int(t.split(",")[1])
                     for t in observation["legal_moves"]]
            i = max(cells, key=lambda c: (free & ~self.solver.hood[c]).bit_count())
        return f"{i // n},{i % n}"
