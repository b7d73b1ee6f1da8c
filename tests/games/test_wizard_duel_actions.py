"""Wizard Duel: placement, move, gather and look, each as the rule sheet states it."""

from __future__ import annotations

import pytest

from games.errors import IllegalMoveError
from games.wizard_duel.board import index
from tests.games.wizard_support import (
    code,
    events,
    fingerprint,
    give,
    new,
    placed,
    play,
    set_cell,
    wall,
    where,
)


# -- placement -------------------------------------------------------------------------------
def test_player_0_places_first_then_player_1_then_turn_1_begins():
    state = new()
    assert (state.to_move, state.turn) == (0, 0)
    state.apply("place 2 3")
    assert (state.to_move, state.turn) == (1, 0)
    state.apply("place 7 12")
    assert (state.to_move, state.turn) == (0, 1)
    assert where(state, 0) == (2, 3) and where(state, 1) == (7, 12)
    assert state.history == ["place 2 3", "place 7 12"]


def test_placement_lists_exactly_the_own_half():
    state = new()
    moves = state.legal_moves()
    assert len(moves) == 100
    assert all(int(m.split()[2]) < 10 for m in moves)
    state.apply("place 0 0")
    moves = state.legal_moves()
    assert len(moves) == 100
    assert all(int(m.split()[2]) >= 10 for m in moves)


@pytest.mark.parametrize(("before", "bad", "why"), [
    ([], "place 3 10", "own half"),
    ([], "place 10 3", "off the"),
    (["place 3 3"], "place 3 9", "own half"),
    (["place 3 3"], "place 0 20", "off the"),
])
def test_a_placement_outside_the_own_half_is_illegal(before, bad, why):
    state = play(new(), *before)
    was = fingerprint(state)
    with pytest.raises(IllegalMoveError, match=why):
        state.apply(bad)
    assert fingerprint(state) == was


def test_nothing_but_placement_before_turn_1_and_no_placement_after():
    state = new()
    with pytest.raises(IllegalMoveError, match="place your wizard first"):
        state.apply("look 1")
    play(state, "place 1 1", "place 1 11")
    with pytest.raises(IllegalMoveError, match="placement is over"):
        state.apply("place 2 2")


# -- move ------------------------------------------------------------------------------------
def test_a_wizard_moves_one_cell_each_way():
    state = placed(p0=(4, 4), p1=(4, 15))
    play(state, "move U", "move D")
    assert where(state, 0) == (3, 4) and where(state, 1) == (5, 15)
    play(state, "move L", "move R")
    assert where(state, 0) == (3, 3) and where(state, 1) == (5, 16)


def test_stepping_off_the_map_is_illegal_and_not_listed():
    state = placed(p0=(0, 0), p1=(9, 19))
    assert "move U" not in state.legal_moves() and "move L" not in state.legal_moves()
    was = fingerprint(state)
    with pytest.raises(IllegalMoveError, match="leaves the map"):
        state.apply("move U")
    assert fingerprint(state) == was


def test_moving_into_the_hidden_opponent_fails_uses_the_turn_and_reveals_the_cell():
    state = placed(p0=(4, 9), p1=(4, 10))
    assert "move R" in state.legal_moves()
    state.apply("move R")
    assert where(state, 0) == (4, 9)
    assert (state.to_move, state.turn) == (1, 2)
    assert events(state, 0, "blocked") == [{"turn": 1, "kind": "blocked", "cell": [4, 10],
                                            "by": "wizard"}]
    assert state.observation(0)["opponent"] == {"row": 4, "col": 10, "turn": 1,
                                                "how": "blocked"}
    assert events(state, 1, "blocked") == []  # the bumped wizard is not told


def test_moving_into_an_obstacle_fails_and_shows_the_obstacle():
    state = placed(p0=(4, 4))
    wall(state, 3, 4, durability=2)
    assert "move U" in state.legal_moves()  # it may not know the wall is there
    state.apply("move U")
    assert where(state, 0) == (4, 4) and state.to_move == 1
    assert events(state, 0, "blocked")[0]["by"] == "obstacle"
    assert state.observation(0)["map"]["obstacles"][3][4] == "2"


# -- gather ----------------------------------------------------------------------------------
def test_gather_takes_the_named_elements_from_the_own_cell():
    state = placed(p0=(4, 4))
    set_cell(state, 4, 4, F=2, W=1, A=2)
    state.apply("gather F2 A1")
    you = state.observation(0)["you"]
    assert you["elements"] == {"F": 2, "W": 0, "T": 0, "A": 1, "E": 0}
    assert you["held"] == 3
    assert state.cells[index(4, 4)] == code(W=1, A=1)
    assert state.observation(0)["map"]["elements"][4][4] == "01010"


def test_gathering_more_than_the_cell_holds_is_illegal():
    state = placed(p0=(4, 4))
    set_cell(state, 4, 4, F=2, A=1)
    was = fingerprint(state)
    for bad, why in (("gather F3", "holds 2 fire, not 3"), ("gather W1", "holds 0 water"),
                     ("gather F1 A2", "holds 1 wind, not 2")):
        with pytest.raises(IllegalMoveError, match=why):
            state.apply(bad)
    assert fingerprint(state) == was


def test_a_wizard_holds_at_most_ten_elements():
    state = placed(p0=(4, 4))
    set_cell(state, 4, 4, F=3)
    give(state, 0, W=4, T=4)
    with pytest.raises(IllegalMoveError, match="room for 2, not 3"):
        state.apply("gather F3")
    state.apply("gather F2")
    assert state.observation(0)["you"]["held"] == 10


def test_legal_gathers_are_every_combination_the_cell_and_the_bag_allow():
    state = placed(p0=(4, 4))
    set_cell(state, 4, 4, F=2, A=1)
    give(state, 0, E=8)
    gathers = {m for m in state.legal_moves() if m.startswith("gather")}
    assert gathers == {"gather F1", "gather F2", "gather A1", "gather F1 A1"}
    give(state, 0, E=10)
    assert not [m for m in state.legal_moves() if m.startswith("gather")]


# -- look ------------------------------------------------------------------------------------
def test_look_sees_n_cells_each_way_and_updates_only_those_in_the_view():
    state = placed(p0=(4, 4))
    for r, c in ((2, 4), (3, 4), (5, 4), (6, 4), (4, 2), (4, 3), (4, 5), (4, 6), (4, 7), (7, 4)):
        set_cell(state, r, c, E=5)
    state.apply("look 2")
    view = state.observation(0)["map"]
    for r, c in ((2, 4), (3, 4), (5, 4), (6, 4), (4, 2), (4, 3), (4, 5), (4, 6)):
        assert view["elements"][r][c] == "00005" and view["seen"][r][c] == 1
    for r, c in ((4, 7), (7, 4)):
        assert view["elements"][r][c] != "00005" and view["seen"][r][c] == 0
    look = events(state, 0, "look")[0]
    assert look["n"] == 2 and len(look["cells"]) == 8 and look["opponent"] is None


def test_look_vision_stops_at_the_first_obstacle_which_is_seen():
    state = placed(p0=(4, 4))
    wall(state, 4, 6, durability=1)
    state.apply("look 5")
    view = state.observation(0)["map"]
    assert view["obstacles"][4][6] == "1" and view["seen"][4][6] == 1
    assert view["seen"][4][5] == 1 and view["seen"][4][7] == 0
    assert [view["seen"][4][c] for c in range(4)] == [1, 1, 1, 1]  # no obstacle that way
    assert [view["seen"][r][4] for r in range(10)] == [1] * 10
    seen_cells = {(r, c) for r, c, _, _ in events(state, 0, "look")[0]["cells"]}
    assert (4, 6) in seen_cells and (4, 7) not in seen_cells


def test_look_spots_the_opponent_as_of_that_moment():
    state = placed(p0=(4, 8), p1=(4, 11))
    state.apply("look 3")
    assert events(state, 0, "look")[0]["opponent"] == [4, 11]
    assert state.observation(0)["opponent"] == {"row": 4, "col": 11, "turn": 1, "how": "look"}
    play(state, "move D", "move U", "move U")  # player 1 moves on while player 0 skips
    assert state.observation(0)["opponent"]["row"] == 4


def test_look_n_skips_the_next_n_minus_1_turns_which_still_count():
    state = placed(p0=(4, 4), p1=(4, 15))
    state.apply("look 3")
    assert state.observation(0)["you"]["skip"] == 2
    seats = []
    for _ in range(3):
        seats.append((state.turn, state.to_move))
        state.apply("move D")
    assert seats == [(2, 1), (4, 1), (6, 1)]
    assert (state.turn, state.to_move) == (7, 0)
    assert state.used == [3, 3]
    assert state.history[-4:] == ["look 3", "move D", "move D", "move D"]
