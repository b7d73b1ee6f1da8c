"""Wizard Duel: refills in whole game turns, the end of the game, scores and figures."""

from __future__ import annotations

import json

import pytest

from games.errors import OptionError
from games.result import Outcome, Result
from games.wizard_duel.board import TOTAL, counts, index
from tests.games.wizard_support import give, placed, play, set_cell

CELL = index(4, 4)


def empty_own_cell(seed: int = 0) -> tuple:
    """Player 0 empties its cell on turn 1; returns the state and the drawn delay."""
    state = placed(p0=(4, 4), seed=seed)
    set_cell(state, 4, 4, F=1)
    state.apply("gather F1")
    return state, state.refill_at[CELL] - 1


def test_an_emptied_cell_stays_empty_for_its_delay_then_refills_when_that_turn_closes():
    for seed in range(12):
        state, delay = empty_own_cell(seed)
        assert 1 <= delay <= 5
        while state.turn <= 8:
            closed = state.turn - 1
            refilled = closed >= 1 + delay
            assert (state.cells[CELL] != 0) == refilled, (seed, closed, delay)
            own = state.observation(0)["map"]["elements"][4][4]
            assert (own != "00000") == refilled  # it sees its own cell every turn
            state.apply("look 1")


def test_the_refill_delay_counts_skipped_turns_as_game_turns():
    for seed in range(12):
        state, delay = empty_own_cell(seed)
        play(state, "look 1", "look 5")  # player 0 skips turns 5, 7, 9, 11
        while state.turn <= 12:
            closed = state.turn - 1
            assert (state.cells[CELL] != 0) == (closed >= 1 + delay)
            state.apply("look 1")


def test_refill_delays_and_amounts_each_take_every_value_from_1_to_5():
    delays, amounts, kinds = set(), set(), set()
    for seed in range(80):
        state, delay = empty_own_cell(seed)
        delays.add(delay)
        pending = state.pending[CELL]
        amounts.add(TOTAL[pending])
        kinds.update(k for k, n in enumerate(counts(pending)) if n)
    assert delays == amounts == {1, 2, 3, 4, 5}
    assert kinds == {0, 1, 2, 3, 4}


def test_start_maps_hold_1_to_5_elements_a_cell_and_come_from_the_seed():
    state = placed(seed=3)
    assert {TOTAL[c] for c in state.cells} == {1, 2, 3, 4, 5}
    assert placed(seed=3).cells == state.cells != placed(seed=4).cells
    assert state.observation(0)["map"]["elements"] == state.observation(1)["map"]["elements"]


# -- the end ---------------------------------------------------------------------------------
def test_three_damage_ends_the_game_and_the_other_wizard_wins():
    state = placed(p0=(4, 4), p1=(4, 15))
    give(state, 0, F=3)
    play(state, "cast arrow 4 15", "look 1", "cast arrow 4 15", "look 1", "cast arrow 4 15")
    result = state.result
    assert result is not None and state.to_move is None
    assert result.reason == "defeated" and result.winner == 0
    assert result.outcomes == (Outcome.WIN, Outcome.LOSS)
    assert result.scores == (3, 0)
    assert result.extra["damage"] == [0, 3] and result.extra["hits"] == [3, 0]
    assert state.legal_moves() == []
    assert state.observation(1)["result"]["winner"] == 0


def test_at_the_turn_limit_the_wizard_with_less_damage_wins():
    state = placed(p0=(4, 4), p1=(4, 15), turns_each=2)
    give(state, 1, F=1)
    play(state, "look 1", "cast arrow 4 4", "look 1")
    assert state.to_move == 1
    state.apply("look 1")
    result = state.result
    assert result.reason == "turn-limit" and result.winner == 1
    assert result.scores == (2, 3) and result.extra["turns"] == 4
    assert result.detail == "after 2 turns each, damage 1:0"


def test_at_the_turn_limit_equal_damage_is_a_draw():
    state = placed(turns_each=1)
    play(state, "look 1", "look 1")
    assert state.result.reason == "turn-limit"
    assert state.result.outcomes == (Outcome.DRAW, Outcome.DRAW)


def test_the_turn_limit_counts_skipped_turns():
    state = placed(turns_each=3)
    play(state, "look 3", "look 1", "look 1")  # player 0 skips turns 3 and 5
    assert state.to_move == 1 and state.turn == 6
    state.apply("look 1")
    assert state.result is not None and state.result.extra["turns_used"] == [3, 3]


def test_a_forfeit_loses_and_keeps_the_figures():
    state = placed()
    result = state.forfeit(1, "illegal", "illegal move 'move U': that step leaves the map")
    assert result.winner == 0 and result.forfeit.kind == "illegal"
    assert result.scores == (3, 3) and "damage" in result.extra
    assert Result.from_json(json.loads(json.dumps(result.to_json()))) == result
    assert state.observation(0)["phase"] == "over"


@pytest.mark.parametrize("turns_each", [0, 1001])
def test_turns_each_is_range_checked(turns_each):
    with pytest.raises(OptionError, match="turns_each"):
        placed(turns_each=turns_each)
