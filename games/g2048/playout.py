"""Random playouts on a 4x4 board: the rollout loop of a Monte Carlo search.

``G2048State.playout`` hands a 4x4 game here. The loop keeps a plain 64-bit row-major board
(the low half of the engine's packed int) instead of the two-layout one, because a rollout
needs no column copy between moves and no per-move score:

- left/right read a row with one shift and mask and index a list; up/down read a column as a
  sparse mask (nibbles 16 bits apart) and look it up in a dict, so no transpose is kept;
- no legal list is built: a direction is drawn uniformly and redrawn while it changes nothing
  (those already seen to fail are skipped), which is uniform over the legal moves;
- the score is settled once at the end: a tile ``2**e`` made by merges alone is worth
  ``(e - 1) * 2**e`` points and a spawned 4 is 4 points short of that, so the points gained are
  the change in that worth minus 4 per spawned 4.

Spawns replay ``Rng.next64`` and ``Geometry.spawn`` exactly, so the state a playout leaves is
the one ``apply`` would reach with the same moves. The loop stops before any merge that would
make a 65536 tile and leaves that move to the general path, which keeps exact beyond 4 bits.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from games.g2048.board import _left_table, _reverse_table, spread_table
from games.rng import Rng

# A moved line that would need a 65536 tile: any board containing it is >= 2**64.
_OVERFLOW = 1 << 64
_NAMES = ("L", "R", "U", "D")

# The loop's ways to stop.
LIMIT, STUCK, OVERFLOW = "limit", "stuck", "overflow"

Tables = tuple[list[int], list[int], dict[int, int], dict[int, int], list[int],
               dict[int, tuple[int, ...]]]


@cache
def tables() -> Tables:
    """Row tables (left, right), sparse-column tables (up, down) and each row's worth.

    Built on the first playout (~0.2 s, ~20 MB), never at import.
    """
    left, rev, spread = _left_table(4), _reverse_table(4), spread_table(4, 4)
    row_left = [moved if gain >= 0 else _OVERFLOW for moved, gain in left]
    row_right = []
    for key in range(1 << 16):
        moved, gain = left[rev[key]]
        row_right.append(rev[moved] if gain >= 0 else _OVERFLOW)

    def as_column(moved: int) -> int:
        return _OVERFLOW if moved == _OVERFLOW else spread[moved]
    col_up = {spread[k]: as_column(m) for k, m in enumerate(row_left)}
    col_down = {spread[k]: as_column(m) for k, m in enumerate(row_right)}
    tile = [(e - 1) << e if e else 0 for e in range(16)]
    worth = [tile[k & 15] + tile[k >> 4 & 15] + tile[k >> 8 & 15] + tile[k >> 12]
             for k in range(1 << 16)]
    # empty-cell flags (bit 4i for cell i) -> each empty cell's bit, lowest first: the k-th
    # empty cell in one lookup instead of a loop clearing k low bits. Built by doubling.
    keys: list[int] = [0]
    cells: list[tuple[int, ...]] = [()]
    for unit in (1 << (4 * i) for i in range(16)):
        keys += [key | unit for key in keys]
        cells += [(*found, unit) for found in cells]
    empties = dict(zip(keys, cells, strict=True))
    return row_left, row_right, col_up, col_down, worth, empties


def worth(board: int) -> int:
    """Points a 64-bit board would be worth had every tile been built from 2s."""
    table = tables()[4]
    return (table[board & 0xFFFF] + table[board >> 16 & 0xFFFF] + table[board >> 32 & 0xFFFF]
            + table[board >> 48])


def playout(board: int, spawn_state: int, chooser: Rng, turns_left: int, two_below: int,
            record: Callable[[str], None]) -> tuple[int, int, int, int, str]:
    """Random moves on the 64-bit ``board`` until ``turns_left`` run out or none is legal.

    ``spawn_state`` is the game's ``Rng`` state; ``record`` gets each move's text.
    Returns (board, spawn_state, moves played, spawned 4s, why it stopped).
    """
    row_left, row_right, col_up, col_down, _, empties = tables()
    line: list[int] | dict[int, int]  # a row's table is a list, a sparse column's a dict
    bits = 1  # direction draws, 2 bits each, above a sentinel 1 bit: refill when it is alone
    played = fours = 0
    why = LIMIT
    while played < turns_left:
        failed = 0
        while True:
            if bits == 1:
                bits = chooser.next64() | 1 << 64
            d = bits & 3
            bits >>= 2
            if failed >> d & 1:
                continue
            if d < 2:
                line = row_left if d == 0 else row_right
                new = (line[board & 0xFFFF] | line[board >> 16 & 0xFFFF] << 16
                       | line[board >> 32 & 0xFFFF] << 32 | line[board >> 48] << 48)
            else:
                line = col_up if d == 2 else col_down
                new = (line[board & 0xF000F000F000F] | line[board >> 4 & 0xF000F000F000F] << 4
                       | line[board >> 8 & 0xF000F000F000F] << 8
                       | line[board >> 12 & 0xF000F000F000F] << 12)
            if new != board:
                break
            failed |= 1 << d
            if failed == 15:
                return board, spawn_state, played, fours, STUCK
        if new >> 64:
            why = OVERFLOW
            break
        played += 1
        record(_NAMES[d])
        # Rng.next64 inline, constants as literals (cheaper than globals in the hot loop)
        spawn_state = s = (spawn_state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        s = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        s = ((s ^ (s >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        draw = s ^ (s >> 31)
        # Geometry.spawn, on one layout
        t = new | new >> 1
        t |= t >> 2
        cells = empties[0x1111111111111111 & ~t]
        cell = cells[((draw >> 32) * len(cells)) >> 32]
        if (draw & 0xFFFFFFFF) < two_below:
            board = new | cell
        else:
            board = new | cell << 1
            fours += 1
    return board, spawn_state, played, fours, why
