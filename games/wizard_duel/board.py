"""Map geometry and cell contents, as tables built once at import.

Cells are indices ``row * COLS + col``. A cell's elements are packed into one int, three bits
per kind in the order F W T A E (a cell holds at most 5, so every count fits), which keeps the
map a flat list of ints that copies in one step.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from games.rng import Rng
from games.wizard_duel.actions import DIRECTIONS, ELEMENTS

ROWS, COLS = 10, 20
CELLS = ROWS * COLS
HALF = COLS // 2
CELL_MAX = 5
"""Most elements a cell holds (at the start and after each refill)."""
REFILL_DELAY = (1, 5)
BITS = 3
_KIND_MASK = (1 << BITS) - 1


def index(row: int, col: int) -> int:
    return row * COLS + col


def on_map(row: int, col: int) -> bool:
    return 0 <= row < ROWS and 0 <= col < COLS


def half_of(col: int) -> int:
    """The seat owning a column: player 0 the left half, player 1 the right."""
    return 0 if col < HALF else 1


def _step_table() -> tuple[tuple[int, ...], ...]:
    table = []
    for d in DIRECTIONS:
        dr, dc = d.delta
        table.append(tuple(index(r + dr, c + dc) if on_map(r + dr, c + dc) else -1
                           for r in range(ROWS) for c in range(COLS)))
    return tuple(table)


STEP = _step_table()
"""STEP[direction][cell]: the neighbouring cell that way, or -1 off the map."""


def _ray_table() -> tuple[tuple[tuple[int, ...], ...], ...]:
    rays = []
    for d, step in enumerate(STEP):
        per_cell = []
        for start in range(CELLS):
            ray, i = [], step[start]
            while i >= 0:
                ray.append(i)
                i = STEP[d][i]
            per_cell.append(tuple(ray))
        rays.append(tuple(per_cell))
    return tuple(rays)


RAY = _ray_table()
"""RAY[direction][cell]: the cells that way from the cell, nearest first, to the edge."""

HALF_CELLS = (tuple(index(r, c) for r in range(ROWS) for c in range(HALF)),
              tuple(index(r, c) for r in range(ROWS) for c in range(HALF, COLS)))


# -- packed element counts -------------------------------------------------------------------
def count(code: int, kind: int) -> int:
    return code >> (BITS * kind) & _KIND_MASK


def counts(code: int) -> tuple[int, ...]:
    return tuple(code >> (BITS * k) & _KIND_MASK for k in range(5))


def pack(values: tuple[int, ...] | list[int]) -> int:
    code = 0
    for k, n in enumerate(values):
        code |= n << (BITS * k)
    return code


def _cell_codes() -> list[int]:
    return [pack(c) for c in product(range(CELL_MAX + 1), repeat=5) if sum(c) <= CELL_MAX]


TEXT = {code: "".join(str(n) for n in counts(code)) for code in _cell_codes()}
"""Packed code -> five digits, the counts of F W T A E (``"20010"``), for views."""
TOTAL = {code: sum(counts(code)) for code in TEXT}
KIND_UNIT = tuple(1 << (BITS * k) for k in range(5))


_KINDS_SPACE = 5 ** CELL_MAX
_DELAYS = REFILL_DELAY[1] - REFILL_DELAY[0] + 1


def _cell_from(x: int) -> int:
    """Contents from a number uniform in [0, 5 * 5**5): the count 1-5 from its last base-5
    digit, then one kind per further digit, so one draw makes a whole cell."""
    n = x % CELL_MAX + 1
    x //= CELL_MAX
    code = 0
    for _ in range(n):
        code += KIND_UNIT[x % 5]
        x //= 5
    return code


def random_cell(rng: Rng) -> int:
    """1-5 elements (uniform), each of a kind chosen uniformly."""
    return _cell_from(rng.below(CELL_MAX * _KINDS_SPACE))


def refill_draw(base: int, cell: int, serial: int) -> tuple[int, int]:
    """(delay, contents) of ``cell``'s ``serial``-th refill.

    Each (cell, serial) pair has its own stream forked from ``base`` (drawn once from the
    match seed), so what one wizard does to a cell never shifts the chance anywhere else: a
    refill the other wizard can see is the same whatever happened out of its sight.
    """
    x = Rng(base).fork((cell << 32) | serial).below(_DELAYS * CELL_MAX * _KINDS_SPACE)
    return REFILL_DELAY[0] + x % _DELAYS, _cell_from(x // _DELAYS)


@cache
def gather_texts(code: int, room: int) -> tuple[str, ...]:
    """Every legal ``gather`` from a cell holding ``code`` with ``room`` free in the bag."""
    have = counts(code)
    out = []
    for take in product(*(range(n + 1) for n in have)):
        if 0 < sum(take) <= room:
            out.append("gather " + " ".join(f"{ELEMENTS[k]}{n}" for k, n in enumerate(take)
                                            if n))
    return tuple(out)
