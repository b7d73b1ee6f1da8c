"""2048 properties: the packed-int fast path against the plain reference, and tile accounting."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.g2048 import DOWN, LEFT, RIGHT, UP, geometry, slide_grid, slide_line
from games.g2048.board import line_table

SIZES = st.tuples(st.integers(2, 8), st.integers(2, 8))
# Mostly small exponents (merges happen), sometimes 15/16 (the nibble overflow fallback).
EXPONENT = st.one_of(st.integers(0, 4), st.integers(0, 17))


@st.composite
def grids(draw, sizes=SIZES):
    rows, cols = draw(sizes)
    return [[draw(EXPONENT) for _ in range(cols)] for _ in range(rows)]


def value_slide(line: list[int]) -> tuple[list[int], int]:
    """The rule sheet's row move on tile values, written independently of the engine."""
    out: list[int] = []
    gained = 0
    merged_last = False
    for v in (v for v in line if v):
        if out and out[-1] == v and not merged_last:
            out[-1] *= 2
            gained += out[-1]
            merged_last = True
        else:
            out.append(v)
            merged_last = False
    return out + [0] * (len(line) - len(out)), gained


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([0, 2, 4, 8, 16]), min_size=2, max_size=8))
def test_the_reference_line_slide_matches_the_rule_sheet_on_values(values):
    exponents = [v.bit_length() - 1 if v else 0 for v in values]
    moved, gained = slide_line(exponents)
    assert ([1 << e if e else 0 for e in moved], gained) == value_slide(values)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grids())
def test_the_fast_path_agrees_with_the_plain_path_on_every_size(grid):
    geom = geometry(len(grid), len(grid[0]))
    board = geom.from_grid(grid)
    assert geom.to_grid(board) == grid
    legal = geom.legal_mask(board)
    for direction in (LEFT, RIGHT, UP, DOWN):
        moved, gained = geom.slide(board, direction)
        expected, expected_gain = slide_grid(grid, direction)
        assert geom.to_grid(moved) == expected and gained == expected_gain
        assert moved == geom.from_grid(expected)  # both halves and the high plane agree
        assert bool(legal >> direction & 1) == (expected != grid)


def test_every_full_table_entry_agrees_with_the_plain_slide():
    for width in (2, 3, 4):
        for backward in (False, True):
            table = line_table(width, backward, 1)
            for key in range(0, 16 ** width, 7):
                line = [(key >> (4 * i)) & 15 for i in range(width)]
                src = line[::-1] if backward else line
                new, gained = slide_line(src)
                new = new[::-1] if backward else new
                moved, _, gain = table[key]
                if max(new) > 15:
                    assert gain < 0  # overflow: the engine falls back to the plain path
                else:
                    assert [(moved >> (4 * i)) & 15 for i in range(width)] == new
                    assert gain == gained


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 2**32), st.lists(
    st.sampled_from("LRUD"), min_size=1, max_size=60))
def test_every_move_adds_exactly_the_spawned_tile_to_the_tile_sum(rows, cols, seed, moves):
    state = games.new_state("g2048", {"rows": rows, "cols": cols}, seed)
    geom = state.geometry
    for move in moves:
        if move not in state.legal_moves():
            continue
        before = geom.tile_sum(state.board)
        after, _ = state.slide(move)
        assert geom.tile_sum(after.board) == before  # sliding and merging keep the sum
        state.apply(move)
        spawned = geom.tile_sum(state.board) - before
        assert spawned in (2, 4)
        # exactly one new tile, on a cell that was empty after the slide
        new_cells = set(after.empty_cells()) - set(state.empty_cells())
        assert len(new_cells) == 1 and len(state.empty_cells()) == len(after.empty_cells()) - 1
        if state.is_over():
            break


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 200))
def test_the_legal_list_is_exactly_the_directions_that_change_the_board(seed, steps):
    state = games.new_state("g2048", None, seed)
    for i in range(steps):
        if state.is_over():
            break
        legal = state.legal_moves()
        for move in "LRUD":
            changed = state.geometry.slide(state.board, "LRUD".index(move))[0] != state.board
            assert (move in legal) == changed
        state.apply(legal[i % len(legal)])


@pytest.mark.parametrize("rows", range(2, 9))
@pytest.mark.parametrize("cols", range(2, 9))
def test_the_fast_path_agrees_with_the_plain_path_for_every_width_and_height(rows, cols):
    rng = random.Random(rows * 100 + cols)
    geom = geometry(rows, cols)
    for _ in range(25):
        top = rng.choice((3, 6, 17))
        grid = [[rng.choice((0, 0, rng.randint(1, top))) for _ in range(cols)] for _ in range(rows)]
        board = geom.from_grid(grid)
        for direction in (LEFT, RIGHT, UP, DOWN):
            moved, gained = geom.slide(board, direction)
            assert (geom.to_grid(moved), gained) == slide_grid(grid, direction)
