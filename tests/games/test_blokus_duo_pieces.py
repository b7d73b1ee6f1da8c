"""Blokus Duo pieces and orientations against the rule sheet, checked with numpy's rotations."""

from __future__ import annotations

import numpy as np
import pytest

from games.blokus_duo.pieces import (
    LETTERS,
    ORIENTATION_SHAPE,
    PIECE_SHAPE_INDEXES,
    PIECE_SHAPES,
    SHAPES,
    TOTAL_SQUARES,
)

SHEET = {  # the rule sheet's table, typed in again
    "A": "#", "B": "#/#", "C": "#/#/#", "D": "#./##", "E": "#/#/#/#", "F": ".#/.#/##",
    "G": "#./##/#.", "H": "##/##", "I": "##./.##", "J": "#/#/#/#/#", "K": ".#/.#/.#/##",
    "L": ".#/.#/##/#.", "M": ".#/##/##", "N": "##/.#/##", "O": "#./##/#./#.",
    "P": ".#./.#./###", "Q": "#../#../###", "R": "##./.##/..#", "S": "#../###/..#",
    "T": "#../###/.#.", "U": ".#./###/.#.",
}


def drawing(grid: np.ndarray) -> str:
    return "/".join("".join("#" if v else "." for v in row) for row in grid)


def expected(letter: str, r: int) -> str:
    """Orientation r by the sheet: rotate clockwise 90 deg x (r div 2), then mirror if odd."""
    grid = np.array([[ch == "#" for ch in row] for row in SHEET[letter].split("/")])
    grid = np.rot90(grid, k=-(r // 2))
    if r % 2:
        grid = np.fliplr(grid)
    return drawing(grid)


def engine_drawing(letter: str, r: int) -> str:
    shape = SHAPES[ORIENTATION_SHAPE[LETTERS.index(letter)][r]]
    grid = np.zeros((shape.height, shape.width), dtype=bool)
    for x, y in shape.cells:
        grid[y, x] = True
    return drawing(grid)


def test_letters_and_shapes_are_the_sheets():
    assert LETTERS == "ABCDEFGHIJKLMNOPQRSTU"
    assert PIECE_SHAPES == SHEET


def test_the_pieces_cover_89_squares():
    assert TOTAL_SQUARES == 89
    assert sorted(len(SHEET[c].replace(".", "").replace("/", "")) for c in LETTERS) == (
        [1, 2, 3, 3] + [4] * 5 + [5] * 12)


@pytest.mark.parametrize("letter", list(LETTERS))
@pytest.mark.parametrize("r", range(8))
def test_each_piece_at_each_orientation(letter, r):
    assert engine_drawing(letter, r) == expected(letter, r)


def test_orientation_examples_written_out():
    # F (L4), drawn .#/.#/## — a hand check of the numbering independent of numpy
    assert [engine_drawing("F", r) for r in range(8)] == [
        ".#/.#/##", "#./#./##", "#../###", "..#/###", "##/#./#.", "##/.#/.#", "###/..#",
        "###/#..",
    ]


def test_there_are_91_distinct_oriented_shapes():
    assert len(SHAPES) == 91
    assert [len(PIECE_SHAPE_INDEXES[i]) for i in range(21)] == [
        1, 2, 2, 4, 2, 8, 4, 1, 4, 2, 8, 8, 8, 4, 8, 4, 4, 4, 4, 8, 1]


def test_each_shape_is_named_by_its_lowest_orientation():
    for piece, per_r in enumerate(ORIENTATION_SHAPE):
        for r, index in enumerate(per_r):
            assert SHAPES[index].piece == piece
            assert SHAPES[index].orientation <= r
            assert SHAPES[index].orientation == per_r.index(index)


def test_13729_placements_fit_on_the_empty_board():
    assert sum(shape.anchors.bit_count() for shape in SHAPES) == 13_729
