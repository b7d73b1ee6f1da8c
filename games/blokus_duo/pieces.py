"""Blokus Duo pieces, their eight orientations, and the bit tables built from them at import.

The board is 14 x 14; square (x, y), both 0-based here, is bit ``y * 14 + x`` of an int.
Every distinct oriented shape (91 of them) gets an index; its table holds the cell offsets
from the top-left of its bounding box, the mask of anchors where it fits on the board, and
the canonical move code for each anchor.
"""

from __future__ import annotations

from dataclasses import dataclass

SIZE = 14
CELLS = SIZE * SIZE
BOARD = (1 << CELLS) - 1
COL0 = sum(1 << (y * SIZE) for y in range(SIZE))
COL_LAST = COL0 << (SIZE - 1)
NOT_COL0 = BOARD & ~COL0
NOT_COL_LAST = BOARD & ~COL_LAST
HEX = "0123456789ABCDE"
START_SQUARES = ((4, 4), (9, 9))  # (5,5) and (A,A) in the sheet's 1-based hex

# Letters and shapes at orientation 0, exactly as the rule sheet draws them.
PIECE_SHAPES: dict[str, str] = {
    "A": "#", "B": "#/#", "C": "#/#/#", "D": "#./##", "E": "#/#/#/#", "F": ".#/.#/##",
    "G": "#./##/#.", "H": "##/##", "I": "##./.##", "J": "#/#/#/#/#", "K": ".#/.#/.#/##",
    "L": ".#/.#/##/#.", "M": ".#/##/##", "N": "##/.#/##", "O": "#./##/#./#.",
    "P": ".#./.#./###", "Q": "#../#../###", "R": "##./.##/..#", "S": "#../###/..#",
    "T": "#../###/.#.", "U": ".#./###/.#.",
}
LETTERS = "".join(PIECE_SHAPES)
Cells = tuple[tuple[int, int], ...]


def parse_shape(drawing: str) -> Cells:
    return tuple(sorted((x, y) for y, row in enumerate(drawing.split("/"))
                        for x, ch in enumerate(row) if ch == "#"))


def normalise(cells: Cells) -> Cells:
    mx = min(x for x, _ in cells)
    my = min(y for _, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))


def orient(cells: Cells, r: int) -> Cells:
    """Orientation ``r``: rotate clockwise 90 deg x (r // 2), then mirror left-right if r is odd."""
    out = cells
    for _ in range(r // 2):
        height = max(y for _, y in out) + 1
        out = tuple((height - 1 - y, x) for x, y in out)
    if r % 2:
        width = max(x for x, _ in out) + 1
        out = tuple((width - 1 - x, y) for x, y in out)
    return normalise(out)


def square_name(x: int, y: int) -> str:
    """The sheet's name of 0-based square (x, y), e.g. (4, 4) -> '(5,5)'."""
    return f"({HEX[x + 1]},{HEX[y + 1]})"


@dataclass(frozen=True)
class Shape:
    """One distinct oriented shape of a piece."""

    index: int
    piece: int           # 0..20 for A..U
    orientation: int     # the canonical (lowest) orientation that draws it
    cells: Cells
    width: int
    height: int
    offsets: tuple[int, ...]
    mask: int            # the cells with the bounding box's top-left at square (0, 0)
    anchors: int         # bit (y*14 + x) set where the shape fits with its top-left at (x, y)
    codes: tuple[str, ...]  # canonical move code per anchor bit ("" where it does not fit)

    @property
    def letter(self) -> str:
        return LETTERS[self.piece]

    @property
    def size(self) -> int:
        return len(self.cells)


def _build() -> tuple[tuple[Shape, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    shapes: list[Shape] = []
    by_piece: list[tuple[int, ...]] = []
    orientation_shape: list[tuple[int, ...]] = []
    for piece, letter in enumerate(LETTERS):
        base = parse_shape(PIECE_SHAPES[letter])
        seen: dict[Cells, int] = {}
        per_r = []
        for r in range(8):
            cells = orient(base, r)
            if cells not in seen:
                seen[cells] = len(shapes)
                shapes.append(_shape(len(shapes), piece, r, cells))
            per_r.append(seen[cells])
        by_piece.append(tuple(dict.fromkeys(per_r)))
        orientation_shape.append(tuple(per_r))
    return tuple(shapes), tuple(by_piece), tuple(orientation_shape)


def _shape(index: int, piece: int, r: int, cells: Cells) -> Shape:
    width = max(x for x, _ in cells) + 1
    height = max(y for _, y in cells) + 1
    anchors = 0
    codes = [""] * CELLS
    for y in range(SIZE - height + 1):
        for x in range(SIZE - width + 1):
            anchors |= 1 << (y * SIZE + x)
            codes[y * SIZE + x] = f"{LETTERS[piece]}{r}{HEX[x + 1]}{HEX[y + 1]}"
    return Shape(
        index=index, piece=piece, orientation=r, cells=cells, width=width, height=height,
        offsets=tuple(y * SIZE + x for x, y in cells),
        mask=sum(1 << (y * SIZE + x) for x, y in cells),
        anchors=anchors, codes=tuple(codes))


SHAPES, PIECE_SHAPE_INDEXES, ORIENTATION_SHAPE = _build()
PIECE_SIZES = tuple(len(parse_shape(PIECE_SHAPES[letter])) for letter in LETTERS)
TOTAL_SQUARES = sum(PIECE_SIZES)


def edge_neighbours(m: int) -> int:
    """Squares sharing an edge with a square of ``m`` (not those of ``m`` itself excluded)."""
    return (((m << 1) & NOT_COL0) | ((m >> 1) & NOT_COL_LAST) | (m << SIZE) | (m >> SIZE)) & BOARD


def corner_neighbours(m: int) -> int:
    """Squares touching a square of ``m`` corner to corner."""
    right = (m << (SIZE + 1)) | (m >> (SIZE - 1))
    left = (m << (SIZE - 1)) | (m >> (SIZE + 1))
    return ((right & NOT_COL0) | (left & NOT_COL_LAST)) & BOARD
