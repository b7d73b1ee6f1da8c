"""2048 boards as ints: the fast slide, legality and spawn primitives, and a plain reference.

A board of ``rows`` x ``cols`` = ``n`` cells is one int holding the same tiles twice, so both
row and column moves read whole lines with one shift and mask:

- bits ``[0, 4n)``: row-major nibbles; cell ``i = row * cols + col`` holds the exponent of its
  tile (0 = empty, 1 = a 2, 2 = a 4 ...) at bits ``4i .. 4i+3``;
- bits ``[4n, 8n)``: the same exponents column-major (cell (row, col) at nibble
  ``n + col * rows + row``);
- bits ``[8n, 9n)``: a *high plane*: bit ``8n + i`` adds 16 to cell ``i``'s exponent. It is zero
  in any realistic game (it takes a 65536 tile on 4x4); it exists so the engine stays correct
  instead of wrapping. ``max_turns`` is capped at 10**6, which bounds the tile sum of a game
  played from the start by about 4 * 10**6 < 2**22, so five bits per cell always suffice; a
  state rebuilt from an observation is refused unless its tile sum stays below 2**32 (no
  tile past 2**31, exponent 31) up to ``max_turns``.

Equal boards are equal ints, so a board is also a fine dictionary key for a search.

Slides use lookup tables with one entry per packed line: (moved line, the moved line spread
into the other layout, score gained).
- lines of width 2..4 (16**width entries, at most 65536) have full tables, built on first use
  from the tables one nibble narrower (about 0.05 s for width 4);
- lines of width 5..8 would need 1M..4G entries, so they use a memo dict that the plain slide
  fills on demand (a game meets a few thousand distinct lines).
Whenever a merge would make exponent 16, or the high plane is set, the move falls back to the
plain path, which works on a list of exponents and has no limit.

``Geometry`` methods are the unchecked fast path for engines and searches: they trust their
arguments. The validating path for untrusted input is ``G2048State.apply``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, cast

LEFT, RIGHT, UP, DOWN = 0, 1, 2, 3

# The gain of a table entry whose merge would overflow a nibble: any sum of gains containing it
# stays negative, so one ``gain < 0`` test per move catches it.
_OVERFLOW = -(1 << 62)
_MAX_TABLE_WIDTH = 4
_LOW32 = (1 << 32) - 1
# A memo that grows past this many lines is cleared rather than eating memory without bound.
_MEMO_LIMIT = 1 << 20

Entry = tuple[int, int, int]


# -- the plain reference ----------------------------------------------------------------------
def slide_line(line: Sequence[int]) -> tuple[list[int], int]:
    """Slide one line of exponents toward index 0; returns (new line, score gained).

    Scanning from the side moved to, two equal neighbours merge once; a tile made by a merge
    never merges again in the same move. The score gained is the value of every merged tile.
    """
    tiles = [e for e in line if e]
    out: list[int] = []
    gain = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(tiles[i] + 1)
            gain += 1 << (tiles[i] + 1)
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(line) - len(out)), gain


def slide_grid(grid: Sequence[Sequence[int]], direction: int) -> tuple[list[list[int]], int]:
    """Slide a whole grid of exponents (list of rows) without spawning; (new grid, gain)."""
    rows, cols = len(grid), len(grid[0])
    if direction in (LEFT, RIGHT):
        lines = [list(r) for r in grid]
    else:
        lines = [[grid[r][c] for r in range(rows)] for c in range(cols)]
    backward = direction in (RIGHT, DOWN)
    gain = 0
    moved = []
    for line in lines:
        new, g = slide_line(line[::-1] if backward else line)
        moved.append(new[::-1] if backward else new)
        gain += g
    if direction in (LEFT, RIGHT):
        return moved, gain
    return [[moved[c][r] for c in range(cols)] for r in range(rows)], gain


# -- line tables ------------------------------------------------------------------------------
def _unpack_line(key: int, width: int) -> list[int]:
    return [(key >> (4 * i)) & 15 for i in range(width)]


def _pack_line(line: Sequence[int], stride: int = 1) -> int:
    key = 0
    for i, e in enumerate(line):
        key |= e << (4 * i * stride)
    return key


class LazyTable(dict):  # type: ignore[type-arg]
    """A dict that computes missing entries, so hot loops index it exactly like a list (the
    tables' functions hand it out as the ``Sequence`` it stands in for)."""

    def __init__(self, compute: Callable[[int], Any]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: int) -> Any:
        if len(self) >= _MEMO_LIMIT:
            self.clear()
        value = self[key] = self.compute(key)
        return value


@cache
def _left_table(width: int) -> list[tuple[int, int]]:
    """(moved, gain) of every line of ``width`` nibbles slid toward nibble 0.

    Built from the table one nibble narrower: the line is its first tile ``x`` plus a tail.
    If ``x`` equals the tail's first tile they merge and the rest of the tail slides alone;
    otherwise ``x`` stays put and the whole tail slides.
    """
    if width == 0:
        return [(0, 0)]
    sub = _left_table(width - 1)
    table: list[tuple[int, int]] = []
    append = table.append
    for key in range(16 ** width):
        x, tail = key & 15, key >> 4
        if x == 0:
            append(sub[tail])
        elif tail == 0:
            append((x, 0))
        else:
            j = ((tail & -tail).bit_length() - 1) & ~3  # shift of the tail's first tile
            if (tail >> j) & 15 == x:
                m, g = sub[tail & ~(15 << j)]
                append(((x + 1) | m << 4, g + (2 << x)) if x < 15 else (0, _OVERFLOW))
            else:
                m, g = sub[tail]
                append((x | m << 4, g))
    return table


@cache
def _reverse_table(width: int) -> list[int]:
    if width == 0:
        return [0]
    sub = _reverse_table(width - 1)
    top = 4 * (width - 1)
    return [(k & 15) << top | sub[k >> 4] for k in range(16 ** width)]


@cache
def spread_table(width: int, stride: int) -> Sequence[int]:
    """For every packed line of ``width`` nibbles: nibble i moved to nibble ``i * stride``."""
    if width > _MAX_TABLE_WIDTH:
        return cast("Sequence[int]",
                    LazyTable(lambda key: _pack_line(_unpack_line(key, width), stride)))
    if width == 0:
        return [0]
    sub = spread_table(width - 1, stride)
    step = 4 * stride
    return [(k & 15) | sub[k >> 4] << step for k in range(16 ** width)]


def _plain_entry(key: int, width: int, backward: bool, stride: int) -> Entry:
    line = _unpack_line(key, width)
    new, gain = slide_line(line[::-1] if backward else line)
    if backward:
        new.reverse()
    if max(new) > 15:
        return 0, 0, _OVERFLOW
    return _pack_line(new), _pack_line(new, stride), gain


@cache
def line_table(width: int, backward: bool, stride: int) -> Sequence[Entry]:
    """(moved line, moved line spread by ``stride``, gain) for every line of ``width`` nibbles.

    ``backward`` slides toward the high nibble (right for rows, down for columns); ``stride``
    is the distance between neighbours of this line in the other layout.
    """
    if width > _MAX_TABLE_WIDTH:
        return cast("Sequence[tuple[int, int, int]]",
                    LazyTable(lambda key: _plain_entry(key, width, backward, stride)))
    left = _left_table(width)
    spread = spread_table(width, stride)
    if not backward:
        return [(m, spread[m], g) for m, g in left]
    rev = _reverse_table(width)
    out = []
    for key in range(16 ** width):
        m, g = left[rev[key]]
        m = rev[m]
        out.append((m, spread[m], g))
    return out


@cache
def legal_table(width: int) -> Sequence[int]:
    """For every line: bit 0 if sliding it toward nibble 0 changes it, bit 1 the other way."""
    def bits(key: int) -> int:
        line = _unpack_line(key, width)
        fwd = slide_line(line)[0] != line
        back = slide_line(line[::-1])[0] != line[::-1]
        return fwd | back << 1

    if width > _MAX_TABLE_WIDTH:
        return cast("Sequence[int]", LazyTable(bits))
    left, rev = _left_table(width), _reverse_table(width)
    # A merge that would overflow still changes the line, hence ``g < 0`` counts as a change.
    return [(left[k][0] != k or left[k][1] < 0)
            | (left[rev[k]][0] != rev[k] or left[rev[k]][1] < 0) << 1
            for k in range(16 ** width)]


# -- compiled slides ----------------------------------------------------------------------------
def _slide_function(table: Sequence[Entry], mask: int, pairs: Sequence[tuple[int, int]],
                    high_shift: int, plain: Callable[[int, int], tuple[int, int]],
                    direction: int) -> Callable[[int], tuple[int, int]]:
    """A slide in one direction: look each line up, put it and its spread copy back.

    ``pairs`` holds, per line, the shift where the line sits and the shift where its copy in
    the other layout goes. Four lines (the 4x4 default) get a hand-unrolled body, which is
    about a third faster than the loop in CPython.
    """
    if len(pairs) == 4:
        (h0, t0), (h1, t1), (h2, t2), (h3, t3) = pairs

        def slide4(board: int) -> tuple[int, int]:
            if board >> high_shift:
                return plain(board, direction)
            m0, s0, g0 = table[(board >> h0) & mask]
            m1, s1, g1 = table[(board >> h1) & mask]
            m2, s2, g2 = table[(board >> h2) & mask]
            m3, s3, g3 = table[(board >> h3) & mask]
            gain = g0 + g1 + g2 + g3
            if gain < 0:
                return plain(board, direction)
            return (m0 << h0 | m1 << h1 | m2 << h2 | m3 << h3
                    | s0 << t0 | s1 << t1 | s2 << t2 | s3 << t3), gain
        return slide4

    def slide(board: int) -> tuple[int, int]:
        if board >> high_shift:
            return plain(board, direction)
        out = gain = 0
        for here, there in pairs:
            m, spread, g = table[(board >> here) & mask]
            out |= m << here | spread << there
            gain += g
        if gain < 0:
            return plain(board, direction)
        return out, gain
    return slide


def _legal_function(row_table: Sequence[int], row_mask: int, row_shifts: Sequence[int],
                    col_table: Sequence[int], col_mask: int, col_shifts: Sequence[int],
                    high_shift: int, plain: Callable[[int], int]) -> Callable[[int], int]:
    """Legal directions as a 4-bit mask: OR of every row's (L, R) bits and column's (U, D)."""
    if len(row_shifts) == 4 and len(col_shifts) == 4:
        r0, r1, r2, r3 = row_shifts
        c0, c1, c2, c3 = col_shifts

        def legal4(board: int) -> int:
            if board >> high_shift:
                return plain(board)
            return (row_table[(board >> r0) & row_mask] | row_table[(board >> r1) & row_mask]
                    | row_table[(board >> r2) & row_mask] | row_table[(board >> r3) & row_mask]
                    | (col_table[(board >> c0) & col_mask] | col_table[(board >> c1) & col_mask]
                       | col_table[(board >> c2) & col_mask]
                       | col_table[(board >> c3) & col_mask]) << 2)
        return legal4

    def legal(board: int) -> int:
        if board >> high_shift:
            return plain(board)
        rows = cols = 0
        for s in row_shifts:
            rows |= row_table[(board >> s) & row_mask]
        for s in col_shifts:
            cols |= col_table[(board >> s) & col_mask]
        return rows | cols << 2
    return legal


def _spawn_function(ones: int, low_mask: int, high_shift: int, col_nibble: Sequence[int],
                    plain: Callable[[int, int, int], tuple[int, int]],
                    ) -> Callable[[int, int, int], tuple[int, int]]:
    def spawn(board: int, draw: int, two_below: int) -> tuple[int, int]:
        if board >> high_shift:
            return plain(board, draw, two_below)
        t = board & low_mask  # the row-major half is enough
        t |= t >> 1
        t |= t >> 2
        empty = ones & ~t
        count = empty.bit_count()
        for _ in range(((draw >> 32) * count) >> 32):
            empty &= empty - 1  # drop the lowest empty cell
        low = empty & -empty
        exponent = 1 if (draw & _LOW32) < two_below else 2
        return (board | low * exponent
                | exponent << col_nibble[(low.bit_length() - 1) >> 2]), count
    return spawn


# -- boards -----------------------------------------------------------------------------------
class Geometry:
    """Masks and tables for one board size; get the shared one with ``geometry(rows, cols)``.

    Public attributes a search may use: ``rows``, ``cols``, ``cells``, ``row_shifts`` and
    ``row_mask`` (row r is ``(board >> row_shifts[r]) & row_mask``, nibble c = column c),
    ``col_shifts`` and ``col_mask`` (column c likewise, nibble r = row r), ``cell_units``
    (``board | cell_units[i] * e`` puts exponent ``e <= 15`` on empty cell ``i``) and ``slides``
    (``slides[d](board) -> (board, gain)``, the fastest way to slide).
    """

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.cells = n = rows * cols
        self.nbits = 4 * n
        self.high_shift = 8 * n
        self.ones = sum(1 << (4 * i) for i in range(n))
        self.low_mask = (1 << (4 * n)) - 1
        self.row_mask = (1 << (4 * cols)) - 1
        self.col_mask = (1 << (4 * rows)) - 1
        self.row_shifts = tuple(4 * cols * r for r in range(rows))
        self.col_shifts = tuple(4 * n + 4 * rows * c for c in range(cols))
        # cell index -> shift of its nibble in the column-major half
        self.col_nibble = tuple(4 * n + 4 * ((i % cols) * rows + i // cols) for i in range(n))
        self.cell_units = tuple(1 << (4 * i) | 1 << self.col_nibble[i] for i in range(n))
        row_pairs = tuple((4 * cols * r, 4 * n + 4 * r) for r in range(rows))
        col_pairs = tuple((4 * n + 4 * rows * c, 4 * c) for c in range(cols))
        # slides[d](board) -> (board, gain); index with LEFT, RIGHT, UP, DOWN
        self.slides: tuple[Callable[[int], tuple[int, int]], ...] = tuple(
            _slide_function(line_table(width, backward, stride), mask, pairs,
                            self.high_shift, self._slide_plain, d)
            for d, (width, backward, stride, mask, pairs) in enumerate((
                (cols, False, rows, self.row_mask, row_pairs),
                (cols, True, rows, self.row_mask, row_pairs),
                (rows, False, cols, self.col_mask, col_pairs),
                (rows, True, cols, self.col_mask, col_pairs))))
        # spawn(board, draw, two_below): ``spawn_with`` without the method call
        self.spawn = _spawn_function(self.ones, self.low_mask, self.high_shift,
                                      self.col_nibble, self._spawn_plain)
        # legal(board) -> mask: ``legal_mask`` without the method call, for hot loops
        self.legal = _legal_function(legal_table(cols), self.row_mask, self.row_shifts,
                                      legal_table(rows), self.col_mask, self.col_shifts,
                                      self.high_shift, self._legal_plain)

    # -- the fast path ----------------------------------------------------------------------
    def slide(self, board: int, direction: int) -> tuple[int, int]:
        """(board after sliding, score gained), without a spawn; the same int if nothing moves."""
        return self.slides[direction](board)

    def legal_mask(self, board: int) -> int:
        """Bit d set when sliding in direction d (LEFT=0, RIGHT, UP, DOWN) changes the board."""
        return self.legal(board)

    def empty_mask(self, board: int) -> int:
        """One bit (the nibble's lowest) per empty cell, in the row-major half."""
        t = board | (board >> 1)
        t |= t >> 2
        empty = self.ones & ~t
        high = board >> self.high_shift
        while high:  # only ever runs past a 32768 tile
            low = high & -high
            empty &= ~(1 << (4 * (low.bit_length() - 1)))
            high ^= low
        return empty

    def empty_cells(self, board: int) -> list[int]:
        """Indices of the empty cells, in row-major order."""
        m = self.empty_mask(board)
        out = []
        while m:
            low = m & -m
            out.append((low.bit_length() - 1) >> 2)
            m ^= low
        return out

    def spawn_with(self, board: int, draw: int, two_below: int) -> tuple[int, int]:
        """Spawn on ``board`` (not full) from one 64-bit ``draw``: (new board, empties before).

        The draw's high half picks the empty cell (multiply-shift: each cell's chance is off by
        under 2**-26 even on 64 cells), its low half makes the tile a 2 when below ``two_below``.
        """
        return self.spawn(board, draw, two_below)

    def _spawn_plain(self, board: int, draw: int, two_below: int) -> tuple[int, int]:
        cells = self.empty_cells(board)
        cell = cells[((draw >> 32) * len(cells)) >> 32]
        exponent = 1 if (draw & _LOW32) < two_below else 2
        return self.place(board, cell, exponent), len(cells)

    def place(self, board: int, cell: int, exponent: int) -> int:
        """Put a tile of ``2 ** exponent`` on the empty ``cell`` (unchecked)."""
        low = exponent & 15
        return (board | low << (4 * cell) | low << self.col_nibble[cell]
                | (exponent >> 4) << (self.high_shift + cell))

    # -- conversions and figures --------------------------------------------------------
    def exponent(self, board: int, cell: int) -> int:
        return ((board >> (4 * cell)) & 15) | (((board >> (self.high_shift + cell)) & 1) << 4)

    def to_grid(self, board: int) -> list[list[int]]:
        """Exponents as a list of rows."""
        cols = self.cols
        return [[self.exponent(board, i) for i in range(r * cols, (r + 1) * cols)]
                for r in range(self.rows)]

    def from_rows(self, rows_half: int) -> int:
        """The packed board whose row-major half is ``rows_half`` (every exponent <= 15)."""
        spread = spread_table(self.cols, self.rows)
        board = rows_half
        for r, shift in enumerate(self.row_shifts):
            board |= spread[(rows_half >> shift) & self.row_mask] << (self.nbits + 4 * r)
        return board

    def from_grid(self, grid: Sequence[Sequence[int]]) -> int:
        """Pack a list of rows of exponents (each 0..31)."""
        board = 0
        for i, e in enumerate(e for row in grid for e in row):
            board = self.place(board, i, e)
        return board

    def _slide_plain(self, board: int, direction: int) -> tuple[int, int]:
        grid, gain = slide_grid(self.to_grid(board), direction)
        return self.from_grid(grid), gain

    def _legal_plain(self, board: int) -> int:
        return sum(1 << d for d in range(4) if self._slide_plain(board, d)[0] != board)

    def max_exponent(self, board: int) -> int:
        return max(e for row in self.to_grid(board) for e in row)

    def tile_sum(self, board: int) -> int:
        return sum(1 << e for row in self.to_grid(board) for e in row if e)


@cache
def geometry(rows: int, cols: int) -> Geometry:
    """The shared, immutable geometry (masks and tables) of a ``rows`` x ``cols`` board."""
    return Geometry(rows, cols)
