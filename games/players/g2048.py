"""2048 players: random, greedy (one move ahead) and expectimax (a timed search).

The expectimax searches with the engine's own packed boards (``games.g2048.board``): a max
node tries the four slides, a chance node averages over every empty cell getting a 2 or a 4,
and leaves are scored by a heuristic looked up per line. It deepens iteratively within a
per-move time budget and keeps the deepest search that finished.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import pairwise
from typing import Any

from games.core import Game
from games.g2048 import G2048, Geometry
from games.g2048.board import LazyTable
from games.players.base import Player, RandomPlayer, register_player

_NAMES = ("L", "R", "U", "D")


def board_from_observation(geom: Geometry, observation: Mapping[str, Any]) -> int:
    return geom.from_grid([[v.bit_length() - 1 if v else 0 for v in row]
                           for row in observation["grid"]])


register_player("g2048", "random")(RandomPlayer)


@register_player("g2048", "greedy")
class Greedy2048(Player):
    """The move that scores most now; ties go to the one leaving most empty cells."""

    def choose(self, observation: Mapping[str, Any]) -> str:
        geom = self.game.geometry  # type: ignore[attr-defined]
        board = board_from_observation(geom, observation)
        best: list[str] = []
        best_key = (-1, -1)
        for text in observation["legal_moves"]:
            after, gain = geom.slide(board, _NAMES.index(text))
            key = (gain, geom.empty_mask(after).bit_count())
            if key > best_key:
                best, best_key = [text], key
            elif key == best_key:
                best.append(text)
        return self.rng.choice(best)


# -- the heuristic ---------------------------------------------------------------------------
# Per-line weights of the well-known nneonneo/2048-ai evaluation: reward empty cells and
# adjacent equal tiles, punish lines that are not monotonic and big tiles sitting anywhere.
_LOST_BASE = 200_000.0
_MONO_POWER, _MONO_WEIGHT = 4.0, 47.0
_SUM_POWER, _SUM_WEIGHT = 3.5, 11.0
_MERGE_WEIGHT = 700.0
_EMPTY_WEIGHT = 270.0


def line_score(line: Sequence[int]) -> float:
    """Heuristic value of one row or column of exponents (either orientation scores alike)."""
    total = 0.0
    empty = merges = 0
    previous = run = 0
    for e in line:
        total += e ** _SUM_POWER
        if e == 0:
            empty += 1
            continue
        if e == previous:
            run += 1
        elif run:
            merges += 1 + run
            run = 0
        previous = e
    if run:
        merges += 1 + run
    down = up = 0.0
    for a, b in pairwise(line):
        if a > b:
            down += a ** _MONO_POWER - b ** _MONO_POWER
        else:
            up += b ** _MONO_POWER - a ** _MONO_POWER
    return (_LOST_BASE + _EMPTY_WEIGHT * empty + _MERGE_WEIGHT * merges
            - _MONO_WEIGHT * min(down, up) - _SUM_WEIGHT * total)


@cache
def line_scores(width: int) -> Sequence[float]:
    """``line_score`` of every packed line of ``width`` nibbles: a table, or a memo if wide."""
    def score(key: int) -> float:
        return line_score([(key >> (4 * i)) & 15 for i in range(width)])

    if width > 4:
        return LazyTable(score)  # type: ignore[return-value]
    return [score(key) for key in range(16 ** width)]


class _OutOfTime(Exception):
    pass


class ExpectimaxSearch:
    """Depth-limited expectimax over one board size; reusable across moves."""

    # Chance branches less likely than this are scored by the heuristic instead of searched.
    min_probability = 1e-4

    def __init__(self, geom: Geometry, p_two: float) -> None:
        self.geom = geom
        self.p_two, self.p_four = p_two, 1.0 - p_two
        self.row_scores = line_scores(geom.cols)
        self.col_scores = line_scores(geom.rows)
        self.deadline = 0.0
        self.nodes = 0
        self.cache: dict[tuple[int, int], float] = {}

    def evaluate(self, board: int) -> float:
        geom, rows, cols = self.geom, self.row_scores, self.col_scores
        rm, cm = geom.row_mask, geom.col_mask
        return (sum(rows[(board >> s) & rm] for s in geom.row_shifts)
                + sum(cols[(board >> s) & cm] for s in geom.col_shifts))

    def best_move(self, board: int, budget: float) -> tuple[int, int]:
        """(direction, depth searched) for ``board``, spending about ``budget`` seconds."""
        start = time.perf_counter()
        self.deadline = start + budget
        self.cache.clear()
        moves = [(d, after) for d, slide in enumerate(self.geom.slides)
                 if (after := slide(board)[0]) != board]
        if not moves:
            raise ValueError("no legal move on this board")
        # Depth 0 (the heuristic of each afterstate) always completes: a fallback if the
        # process stalls before even depth 1 finishes.
        best = max((self.evaluate(after), d) for d, after in moves)[1]
        depth = 0
        last = 0.0
        while depth < 8:
            began = time.perf_counter()
            # The next depth costs roughly (branching factor) times the last: skip it if it
            # cannot finish in the time left.
            if depth and began + last * self._growth(board) > self.deadline:
                break
            try:
                values = [(self._chance(after, depth + 1, 1.0), d) for d, after in moves]
            except _OutOfTime:
                break
            best = max(values)[1]
            depth += 1
            last = time.perf_counter() - began
            if len(moves) == 1:
                break
        return best, depth

    def _growth(self, board: int) -> float:
        empties = max(1, self.geom.empty_mask(board).bit_count())
        return 2.0 * empties * 2.5  # spawns x player moves, pruning and caching make up

    def _chance(self, board: int, depth: int, probability: float) -> float:
        """Expected value of an afterstate, averaging over the spawn."""
        if depth == 0 or probability < self.min_probability:
            return self.evaluate(board)
        key = (board, depth)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        self.nodes += 1
        # A chance node costs tens of microseconds, so reading the clock at each is cheap.
        if time.perf_counter() > self.deadline:
            raise _OutOfTime
        units = self.geom.cell_units
        cells = self.geom.empty_cells(board)
        if not cells:
            return self.evaluate(board)
        p2 = probability * self.p_two / len(cells)
        p4 = probability * self.p_four / len(cells)
        total = 0.0
        for cell in cells:
            unit = units[cell]
            if self.p_two:
                total += self.p_two * self._max(board | unit, depth - 1, p2)
            if self.p_four:
                total += self.p_four * self._max(board | unit << 1, depth - 1, p4)
        value = total / len(cells)
        self.cache[key] = value
        return value

    def _max(self, board: int, depth: int, probability: float) -> float:
        best = 0.0  # no legal move: lost, worth less than any live position
        for slide in self.geom.slides:
            after = slide(board)[0]
            if after != board:
                value = self._chance(after, depth, probability)
                if value > best:
                    best = value
        return best


@register_player("g2048", "expectimax")
class Expectimax2048(Player):
    """Expectimax with iterative deepening.

    ``budget_ms`` is the search time per move: by default 50 ms (half of the 100 ms a move may
    take, leaving room for a busy machine), or half the referee's
    ``time_limit`` if that is shorter (the clock is checked at every chance node, so a move
    overshoots its budget by well under a millisecond of search).
    """

    default_budget_ms = 50.0

    def __init__(self, game: Game, seat: int, seed: int = 0, time_limit: float = 1.0,
                 budget_ms: float | None = None) -> None:
        super().__init__(game, seat, seed, time_limit)
        if not isinstance(game, G2048):
            raise TypeError("the expectimax player plays g2048")
        if budget_ms is None:
            budget_ms = min(self.default_budget_ms, time_limit * 500.0)
        self.budget = budget_ms / 1000.0
        self.search = ExpectimaxSearch(game.geometry, game.options["p_two"])
        self.depths: list[int] = []  # depth reached at each move, for benchmarks

    def choose(self, observation: Mapping[str, Any]) -> str:
        board = board_from_observation(self.search.geom, observation)
        direction, depth = self.search.best_move(board, self.budget)
        self.depths.append(depth)
        return _NAMES[direction]
