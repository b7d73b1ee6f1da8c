"""Stones players: random, and a perfect player built on Sprague-Grundy values.

Stones is an impartial game under normal play (who cannot move loses), and free cells that are
not neighbours never interact, so a position is the disjunctive sum of its 8-connected groups
of free cells. Each group's Grundy value depends only on its shape, cached up to translation;
a position is lost for the player to move exactly when the XOR of its groups' values is 0.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from games.core import Game
from games.players.base import Player, RandomPlayer, register_player
from games.stones import neighbourhoods


class OutOfTime(Exception):
    """The solver's deadline passed; values cached so far are kept for the next move."""


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
        self.deadline = float("inf")
        self._misses = 0
        cells = size * size
        self.mirror = tuple(cells - 1 - i for i in range(cells))  # point reflection
        centre = {((size - 1) // 2) * size + (size - 1) // 2, (size // 2) * size + size // 2,
                  ((size - 1) // 2) * size + size // 2, (size // 2) * size + (size - 1) // 2}
        self.centre = sum(1 << i for i in centre)

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
        self._misses += 1
        if not self._misses & 255 and time.perf_counter() > self.deadline:
            raise OutOfTime
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

    def reflect(self, free: int) -> int:
        out = 0
        while free:
            low = free & -free
            out |= 1 << self.mirror[low.bit_length() - 1]
            free ^= low
        return out

    def mirror_win(self, free: int) -> int | None:
        """A cell after which the free cells are point-symmetric with the centre blocked.

        Then every answer of the opponent has a free mirror image that does not touch it (only
        centre cells touch their own reflection), so copying the opponent wins.
        """
        m = free
        while m:
            low = m & -m
            i = low.bit_length() - 1
            after = free & ~self.hood[i]
            if not after & self.centre and self.reflect(after) == after:
                return i
            m ^= low
        return None

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


register_player("stones", "random")(RandomPlayer)


@register_player("stones", "perfect")
class PerfectStones(Player):
    """Wins every won position it can prove within its time.

    The Grundy search proves wins and losses exactly; on boards too big to solve in time (7 x 7
    and up, early on) it wins by the point-mirror strategy where that applies (from the
    start on odd sizes) and otherwise plays the move leaving the most free cells. Values it
    has solved stay cached for later moves.
    """

    def __init__(self, game: Game, seat: int, seed: int = 0, time_limit: float = 1.0) -> None:
        super().__init__(game, seat, seed, time_limit)
        self.solver = StonesSolver(game.options["size"])

    def choose(self, observation: Mapping[str, Any]) -> str:
        n = self.solver.size
        free = 0
        for r, line in enumerate(observation["board"]):
            for c, ch in enumerate(line):
                if ch == ".":
                    free |= 1 << (r * n + c)
        i = self._best(free)
        return f"{i // n},{i % n}"

    def _best(self, free: int) -> int:
        mirror = self.solver.mirror_win(free)
        if mirror is not None:
            return mirror
        self.solver.deadline = time.perf_counter() + self.time_limit * 0.5
        try:
            wins = self.solver.winning_moves(free)
        except OutOfTime:
            wins = []
        finally:
            self.solver.deadline = float("inf")
        if wins:
            return wins[self.rng.below(len(wins))]
        n = self.solver.size
        cells = [i for i in range(n * n) if free >> i & 1]
        return max(cells, key=lambda c: (free & ~self.solver.hood[c]).bit_count())
