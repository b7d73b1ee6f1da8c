"""2048 rules: the rule sheet's worked examples, spawns, scoring, legality and every ending."""

from __future__ import annotations

import json

import pytest

import games
from games.g2048 import G2048, G2048State


def game(**options) -> G2048:
    return games.make_game("g2048", options)  # type: ignore[return-value]


def position(grid: list[list[int]], **options) -> G2048State:
    """A running position with exactly ``grid`` (no spawn yet made on it)."""
    g = game(rows=len(grid), cols=len(grid[0]), **options)
    return g.state_from_observation({"grid": grid, "score": 0, "turn": 0})


def snapshot(state: G2048State) -> str:
    return (json.dumps(state.spectator(), sort_keys=True) + repr(state.history)
            + repr((state.board, state.rng.state, state.pending_spawn)))


def tiles(state: G2048State) -> list[int]:
    return [v for row in state.grid() for v in row if v]


@pytest.mark.parametrize(("row", "move", "after"), [
    ([2, 2, 2, 2], "L", [4, 4, 0, 0]),
    ([4, 2, 2, 0], "R", [0, 0, 4, 4]),
    ([2, 2, 2, 0], "L", [4, 2, 0, 0]),
])
def test_the_rule_sheets_worked_rows(row, move, after):
    state = position([row, [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    slid, _ = state.slide(move)
    assert slid.grid()[0] == after
    assert slid.grid()[1:] == [[0, 0, 0, 0]] * 3


def test_the_worked_rows_score_the_merged_tiles():
    assert position([[2, 2, 2, 2], [0] * 4, [0] * 4, [0] * 4]).slide("L")[1] == 8
    assert position([[4, 2, 2, 0], [0] * 4, [0] * 4, [0] * 4]).slide("R")[1] == 4
    assert position([[2, 2, 2, 0], [0] * 4, [0] * 4, [0] * 4]).slide("L")[1] == 4


def test_columns_slide_the_same_way_up_and_down():
    grid = [[2, 0, 4, 8], [2, 0, 2, 8], [2, 0, 2, 0], [2, 2, 0, 8]]
    up, gained_up = position(grid).slide("U")
    assert up.grid() == [[4, 2, 4, 16], [4, 0, 4, 8], [0, 0, 0, 0], [0, 0, 0, 0]]
    assert gained_up == 4 + 4 + 4 + 16
    down, gained_down = position(grid).slide("D")
    assert down.grid() == [[0, 0, 0, 0], [0, 0, 0, 0], [4, 0, 4, 8], [4, 2, 4, 16]]
    assert gained_down == gained_up


def test_a_merged_tile_does_not_merge_again_in_the_same_move():
    state = position([[4, 4, 8, 0], [0] * 4, [0] * 4, [0] * 4])
    assert state.slide("L")[0].grid()[0] == [8, 8, 0, 0]


def test_a_move_adds_its_merges_to_the_score_and_spawns_one_tile():
    state = position([[2, 2, 0, 0], [4, 4, 0, 0], [0] * 4, [0] * 4])
    state.apply("L")
    assert state.score == 4 + 8
    assert state.turn == 1 and state.history == ["L"]
    assert sorted(tiles(state))[:-2] in ([2], [4])  # the new tile, beside the 4 and the 8
    assert len(tiles(state)) == 3


def test_a_new_game_starts_with_two_spawned_tiles():
    for seed in range(30):
        state = game().new_state(seed)
        assert len(tiles(state)) == 2 and set(tiles(state)) <= {2, 4}
        assert state.score == 0 and state.turn == 0 and state.history == []


def test_p_two_sets_how_often_a_spawn_is_a_2():
    only_twos = [game(p_two=1.0).new_state(s) for s in range(20)]
    only_fours = [game(p_two=0.0).new_state(s) for s in range(20)]
    assert all(set(tiles(s)) == {2} for s in only_twos)
    assert all(set(tiles(s)) == {4} for s in only_fours)
    spawned = [v for s in range(400) for v in tiles(game().new_state(s))]
    assert 0.68 < spawned.count(2) / len(spawned) < 0.82  # default 0.75


def test_spawns_land_on_every_empty_cell():
    seen = {(r, c) for s in range(200) for r, row in enumerate(game().new_state(s).grid())
            for c, v in enumerate(row) if v}
    assert len(seen) == 16


def test_moves_are_case_insensitive_and_written_upper_case():
    state = position([[2, 0, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    state.apply("r")
    state.apply(" d ")
    assert state.history == ["R", "D"]


@pytest.mark.parametrize("text", ["X", "", "LL", "left", "1", "\x00", "L R"])
def test_text_outside_the_notation_is_malformed_and_changes_nothing(text):
    state = game().new_state(4)
    before = snapshot(state)
    with pytest.raises(games.MalformedMoveError, match="expected one of L, R, U, D"):
        state.apply(text)
    assert snapshot(state) == before


def test_a_move_that_is_not_text_is_refused():
    state = game().new_state(4)
    with pytest.raises(games.IllegalMoveError, match="must be text"):
        state.apply(2)  # type: ignore[arg-type]


def test_a_direction_that_changes_nothing_is_illegal_with_a_reason_and_changes_nothing():
    state = position([[2, 4, 0, 0], [8, 0, 0, 0], [0] * 4, [0] * 4])
    assert state.legal_moves() == ["R", "D"]
    before = snapshot(state)
    for move in ("L", "U"):
        with pytest.raises(games.IllegalMoveError) as caught:
            state.apply(move)
        assert not isinstance(caught.value, games.MalformedMoveError)
        assert "changes nothing" in caught.value.reason
        assert snapshot(state) == before


def test_the_referee_ends_a_run_on_an_illegal_move_and_the_score_stands():
    state = position([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    state.apply("L")
    result = state.forfeit(0, "illegal", "sliding up changes nothing")
    assert result.reason == "forfeit" and result.scores == (4,)
    assert result.extra == {"max_tile": 4, "moves": 1}
    assert state.to_move is None and state.legal_moves() == []


def test_no_legal_move_ends_the_game_with_the_score_and_figures():
    # Only D is legal; it always spawns a 4 (p_two 0) on the last empty cell: no pair left.
    state = position([[2, 8], [16, 0]], p_two=0.0)
    state.score = 20
    assert state.legal_moves() == ["R", "D"]
    state.apply("D")
    assert state.grid() == [[2, 4], [16, 8]]
    result = state.result
    assert result is not None and result.reason == "no-legal-move"
    assert result.scores == (20,) and result.outcomes is None
    assert result.extra == {"max_tile": 16, "moves": 1}
    assert "no tile can move" in result.detail
    assert state.to_move is None and state.legal_moves() == []


def test_a_full_board_with_a_pair_is_not_over():
    state = position([[2, 4], [2, 8]])
    assert not state.is_over() and state.legal_moves() == ["U", "D"]


def test_max_turns_ends_the_run():
    state = game(max_turns=3).new_state(1)
    for _ in range(3):
        assert state.to_move == 0
        state.apply(state.legal_moves()[0])
    assert state.result is not None and state.result.reason == "max-turns"
    assert state.result.extra["moves"] == 3 and state.to_move is None


@pytest.mark.parametrize(("option", "value"), [
    ("rows", 1), ("rows", 9), ("cols", 1), ("cols", 9), ("p_two", -0.1), ("p_two", 1.5),
    ("max_turns", 0), ("rows", 4.5), ("p_two", "half"),
])
def test_options_out_of_range_are_refused_naming_the_option(option, value):
    with pytest.raises(games.OptionError) as caught:
        game(**{option: value})
    assert caught.value.option == option
    assert option in str(caught.value)


def test_defaults_follow_the_rule_sheet():
    assert game().options == {"rows": 4, "cols": 4, "p_two": 0.75, "max_turns": 100_000}


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 8), (3, 5), (5, 3), (8, 2), (8, 8)])
def test_non_square_grids_play_to_the_end(rows, cols):
    g = game(rows=rows, cols=cols, max_turns=3000)
    state = g.new_state(rows * 10 + cols)
    while state.to_move is not None:
        moves = state.legal_moves()
        state.apply(moves[state.turn % len(moves)])
    grid = state.grid()
    assert len(grid) == rows and all(len(r) == cols for r in grid)
    assert state.result is not None and state.result.reason in ("no-legal-move", "max-turns")


def test_a_non_square_column_slides_along_its_own_length():
    state = position([[2, 0, 0], [2, 0, 4], [4, 0, 4], [0, 0, 8], [4, 2, 0]])
    slid, gained = state.slide("U")
    assert slid.grid() == [[4, 2, 8], [8, 0, 8], [0, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert gained == 4 + 8 + 8


def test_tiles_past_32768_merge_and_score_like_any_other():
    state = position([[32768, 32768, 0, 0], [65536, 0, 0, 0], [0] * 4, [0] * 4])
    slid, gained = state.slide("L")
    assert slid.grid()[0] == [65536, 0, 0, 0] and gained == 65536
    slid.place_tile((3, 3), 2)
    slid, gained = slid.slide("U")
    assert slid.grid()[0][0] == 131072 and gained == 131072
    assert slid.max_tile() == 131072
    again = position(slid.grid())
    assert again.grid() == slid.grid()
    again.apply("R")
    assert 131072 in tiles(again)


def test_the_afterstate_helpers_enumerate_chance_with_the_engine():
    state = position([[2, 2, 0, 0], [0] * 4, [0] * 4, [0] * 4])
    after, gained = state.slide("L")
    assert gained == 4 and after.pending_spawn and after.legal_moves() == []
    assert len(after.empty_cells()) == 15
    with pytest.raises(games.IllegalMoveError, match="must spawn first"):
        after.apply("R")
    after.place_tile((3, 3), 4)
    assert after.grid()[3][3] == 4 and after.legal_moves()
    with pytest.raises(games.GameError, match="not empty"):
        after.place_tile((3, 3), 2)
    with pytest.raises(games.GameError, match="2 or 4"):
        after.place_tile((2, 2), 8)
    # apply == slide + spawn from the same chance stream
    real = state.copy()
    real.apply("L")
    twin, _ = state.slide("L")
    twin.spawn()
    assert real.board == twin.board and real.history == twin.history


def test_render_shows_the_tiles_and_the_situation():
    state = position([[2, 0, 0, 0], [0, 2048, 0, 0], [0] * 4, [0] * 4])
    text = state.render()
    assert "2048" in text and "score 0" in text and "legal" in text
