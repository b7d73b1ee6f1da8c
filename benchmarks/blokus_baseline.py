"""The straightforward Blokus Duo legality check of the source document, for comparison.

Every candidate (piece, orientation, top-left square) is laid on a 14 x 14 grid of lists and
its squares are tested one by one: on the board, empty, no own piece edge to edge, an own
piece (or the start square) corner to corner. Used by the benchmark as the baseline and by
the tests as an independent check of the bitboard generator.
"""

from __future__ import annotations

SIZE = 14
HEX = "0123456789ABCDE"
LETTERS = "ABCDEFGHIJKLMNOPQRSTU"
DRAWINGS = (
    "#", "#/#", "#/#/#", "#./##", "#/#/#/#", ".#/.#/##", "#./##/#.", "##/##", "##./.##",
    "#/#/#/#/#", ".#/.#/.#/##", ".#/.#/##/#.", ".#/##/##", "##/.#/##", "#./##/#./#.",
    ".#./.#./###", "#../#../###", "##./.##/..#", "#../###/..#", "#../###/.#.", ".#./###/.#.",
)
START = ((4, 4), (9, 9))
EDGES = ((1, 0), (-1, 0), (0, 1), (0, -1))
CORNERS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def grid_of(drawing: str) -> list[list[int]]:
    return [[1 if ch == "#" else 0 for ch in row] for row in drawing.split("/")]


def rotate_clockwise(grid: list[list[int]]) -> list[list[int]]:
    return [list(row) for row in zip(*grid[::-1], strict=True)]


def mirror(grid: list[list[int]]) -> list[list[int]]:
    return [row[::-1] for row in grid]


def oriented(piece: int, r: int) -> list[list[int]]:
    grid = grid_of(DRAWINGS[piece])
    for _ in range(r // 2):
        grid = rotate_clockwise(grid)
    return mirror(grid) if r % 2 else grid


def cells_at(grid: list[list[int]], x: int, y: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dy, row in enumerate(grid) for dx, v in enumerate(row) if v]


def is_legal(board: list[list[int]], player: int, cells: list[tuple[int, int]],
             first: bool) -> bool:
    """``board[y][x]`` is -1 empty or the owner; the source's three conditions, square by square."""
    corner = False
    for x, y in cells:
        if not (0 <= x < SIZE and 0 <= y < SIZE) or board[y][x] != -1:
            return False
        for dx, dy in EDGES:
            nx, ny = x + dx, y + dy
            if 0 <= nx < SIZE and 0 <= ny < SIZE and board[ny][nx] == player:
                return False
        if first:
            corner = corner or (x, y) == START[player]
        else:
            for dx, dy in CORNERS:
                nx, ny = x + dx, y + dy
                if 0 <= nx < SIZE and 0 <= ny < SIZE and board[ny][nx] == player:
                    corner = True
    return corner


def legal_codes(board: list[list[int]], player: int, pieces_left: list[int],
                first: bool) -> list[str]:
    """One code per distinct legal placement, trying every piece, orientation and square."""
    seen: set[frozenset[tuple[int, int]]] = set()
    codes = []
    for piece in pieces_left:
        for r in range(8):
            grid = oriented(piece, r)
            height, width = len(grid), len(grid[0])
            for y in range(SIZE - height + 1):
                for x in range(SIZE - width + 1):
                    cells = cells_at(grid, x, y)
                    if is_legal(board, player, cells, first):
                        key = frozenset(cells)
                        if key not in seen:
                            seen.add(key)
                            codes.append(f"{LETTERS[piece]}{r}{HEX[x + 1]}{HEX[y + 1]}")
    return codes


def board_from_rows(rows: list[str]) -> list[list[int]]:
    return [[-1 if ch == "." else int(ch) for ch in row] for row in rows]
