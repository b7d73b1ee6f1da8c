"""Robots rules: levels, the keypad, simultaneous robot steps, scrap, teleport and every ending."""

from __future__ import annotations

import json
import re

import pytest

import games
from games.robots import Command, Robots, RobotsState


def game(**options) -> Robots:
    return games.make_game("robots", options)  # type: ignore[return-value]


def position(rows: list[str], level: int = 1, score: int = 0, seed: int = 0,
             **options) -> RobotsState:
    g = game(rows=len(rows), cols=len(rows[0]), **options)
    return g.state_from_observation({"board": rows, "level": level, "score": score},
                                    seed=seed)


def snapshot(state: RobotsState) -> str:
    return json.dumps(state.spectator(), sort_keys=True) + repr(state.history) + repr(
        state.rng.state)


EMPTY = ["." * 10] * 10


def board(marks: dict[tuple[int, int], str], rows: int = 10, cols: int = 10) -> list[str]:
    cells = [["."] * cols for _ in range(rows)]
    for (r, c), ch in marks.items():
        cells[r][c] = ch
    return ["".join(line) for line in cells]


def test_a_run_starts_on_level_1_with_5_robots_and_the_player_in_the_centre():
    for seed in range(20):
        state = game().new_state(seed)
        assert state.position == (5, 5) and state.level == 1 and state.score == 0
        assert len(state.robot_cells()) == 5 and len(set(state.robot_cells())) == 5
        assert (5, 5) not in state.robot_cells() and state.scrap == 0


def test_robot_placement_comes_from_the_seed():
    boards = {tuple(game().new_state(seed).board_rows()) for seed in range(30)}
    assert len(boards) == 30
    assert game().new_state(3).board_rows() == game().new_state(3).board_rows()


@pytest.mark.parametrize(("rows", "cols", "centre"), [(5, 5, (2, 2)), (7, 12, (3, 6)),
                                                       (60, 5, (30, 2))])
def test_the_player_starts_at_rows_half_cols_half(rows, cols, centre):
    assert game(rows=rows, cols=cols).new_state(1).position == centre


def test_robots_per_level_are_level_times_5_capped_by_max_robots_and_free_cells():
    g = game()
    assert [g.robots_for(level) for level in (1, 2, 7, 8, 9, 30)] == [5, 10, 35, 40, 40, 40]
    assert game(max_robots=12).robots_for(3) == 12
    small = game(rows=5, cols=5, max_robots=100)
    assert small.robots_for(4) == 20 and small.robots_for(5) == 24 and small.robots_for(9) == 24


def test_clearing_level_1_by_crashing_all_5_robots_scores_15():
    # Three robots step onto (4,5) together and two onto (6,5): all five crash at once.
    state = position(board({(5, 5): "@", (3, 4): "+", (3, 5): "+", (3, 6): "+",
                            (7, 4): "+", (7, 6): "+"}), seed=3)
    state.apply("5")
    assert state.score == 5 + 1 * 10
    assert state.destroyed == 5
    assert state.level == 2
    # the next board is fresh: player back in the centre, 10 robots, no scrap
    assert state.position == (5, 5) and len(state.robot_cells()) == 10 and state.scrap == 0


def test_robots_step_by_the_sign_of_the_difference_diagonally_when_both_differ():
    state = position(board({(5, 5): "@", (0, 0): "+", (0, 5): "+", (9, 9): "+", (5, 0): "+",
                            (2, 9): "+"}))
    state.apply("5")
    assert sorted(state.robot_cells()) == [(1, 1), (1, 5), (3, 8), (5, 1), (8, 8)]
    assert state.score == 0


def test_a_robot_stepping_onto_scrap_is_destroyed_and_the_scrap_stays():
    state = position(board({(5, 5): "@", (2, 2): "+", (3, 3): "*", (0, 9): "+"}))
    state.apply("5")
    assert state.scrap_cells() == [(3, 3)]
    assert state.robot_cells() == [(1, 8)]
    assert state.score == 1 and state.destroyed == 1


def test_two_robots_ending_on_one_cell_become_one_scrap_pile():
    state = position(board({(5, 5): "@", (3, 4): "+", (3, 6): "+", (0, 0): "+"}))
    state.apply("5")
    assert state.scrap_cells() == [(4, 5)] and state.score == 2
    assert state.robot_cells() == [(1, 1)]


def test_a_robot_reaching_the_player_ends_the_run_and_crashes_elsewhere_still_score():
    state = position(board({(5, 5): "@", (4, 4): "+", (2, 4): "+", (2, 6): "+",
                            (0, 0): "+"}), score=7)
    state.apply("5")
    result = state.result
    assert result is not None and result.reason == "game-over"
    assert result.scores == (9,) and state.destroyed == 2
    assert result.extra == {"level": 1, "turns": 1, "destroyed": 2}
    assert "at row 5, column 5" in result.detail
    assert state.to_move is None and state.legal_moves() == []


def test_robots_meeting_on_the_players_cell_end_the_run_and_score_nothing():
    state = position(board({(5, 5): "@", (4, 4): "+", (4, 6): "+", (0, 9): "+"}))
    state.apply("5")
    assert state.result is not None and state.result.reason == "game-over"
    assert state.score == 0 and state.scrap == 0


def test_stepping_next_to_a_robot_is_allowed_and_fatal():
    state = position(board({(5, 5): "@", (3, 5): "+", (0, 0): "+"}))
    state.apply("8")
    assert state.result is not None and state.result.reason == "game-over"


def test_the_keypad_moves_the_player_as_on_a_numeric_keypad():
    expected = {"7": (4, 4), "8": (4, 5), "9": (4, 6), "4": (5, 4), "5": (5, 5), "6": (5, 6),
                "1": (6, 4), "2": (6, 5), "3": (6, 6)}
    for key, where in expected.items():
        state = position(board({(5, 5): "@", (0, 0): "+"}))
        state.apply(key)
        assert state.position == where, key
        assert Command.parse(key).delta == (where[0] - 5, where[1] - 5)


def test_legal_commands_exclude_steps_off_the_board_or_onto_robots_and_scrap():
    state = position(board({(0, 0): "@", (1, 1): "+", (0, 1): "*", (9, 9): "+"}))
    assert state.legal_moves() == ["0", "2", "5"]


@pytest.mark.parametrize(("marks", "move", "why"), [
    ({(0, 4): "@", (9, 9): "+"}, "8", "leaves the board"),
    ({(5, 9): "@", (0, 0): "+"}, "3", "leaves the board"),
    ({(5, 5): "@", (5, 6): "+"}, "6", "runs into the robot at row 5, column 6"),
    ({(5, 5): "@", (4, 4): "*", (0, 0): "+"}, "7", "runs into the scrap at row 4, column 4"),
])
def test_a_blocked_step_is_illegal_with_a_reason_and_changes_nothing(marks, move, why):
    state = position(board(marks))
    before = snapshot(state)
    with pytest.raises(games.IllegalMoveError, match=re.escape(why)) as caught:
        state.apply(move)
    assert not isinstance(caught.value, games.MalformedMoveError)
    assert snapshot(state) == before


@pytest.mark.parametrize("text", ["", "x", "10", "55", "-1", "five", "\x00", 5])
def test_anything_but_one_digit_is_malformed_and_changes_nothing(text):
    state = game().new_state(2)
    before = snapshot(state)
    with pytest.raises(games.IllegalMoveError) as caught:
        state.apply(text)  # type: ignore[arg-type]
    assert caught.value.reason
    assert snapshot(state) == before


def test_the_referee_ends_a_run_on_an_illegal_command_and_the_score_stands():
    state = position(board({(5, 5): "@", (3, 4): "+", (3, 6): "+", (0, 0): "+"}))
    state.apply("5")
    result = state.forfeit(0, "illegal", "stepping up runs into the robot")
    assert result.reason == "forfeit" and result.scores == (2,)
    assert result.extra == {"level": 1, "turns": 1, "destroyed": 2}


def test_teleport_lands_on_a_random_free_cell_other_than_the_players():
    # Neither robot can crash in one step, so the board after the turn is the same board.
    marks = {(5, 5): "@", (0, 0): "+", (9, 0): "+", (0, 9): "*"}
    landed = set()
    for seed in range(200):
        state = position(board(marks), seed=seed)
        state.apply("0")
        assert state.history == ["0"]
        if not state.is_over():
            landed.add(state.position)
    assert not landed & {(5, 5), (0, 0), (9, 0), (0, 9)}
    assert len(landed) > 70  # spread over the board


def test_teleport_is_not_safe_it_may_land_next_to_a_robot():
    outcomes = set()
    for seed in range(300):
        state = position(board({(2, 2): "@", (0, 0): "+", (0, 4): "+", (4, 0): "+",
                                (4, 4): "+"}, rows=5, cols=5), seed=seed)
        state.apply("0")
        outcomes.add(state.result.reason if state.result else "alive")
    assert outcomes == {"alive", "game-over"}


def test_teleport_with_no_free_cell_is_the_same_as_waiting():
    rows = ["*****", "*****", "**@**", "*****", "+****"]
    waited, teleported = position(rows, seed=1), position(rows, seed=1)
    waited.apply("5")
    teleported.apply("0")
    assert teleported.position == waited.position == (2, 2)
    assert teleported.board_rows() == waited.board_rows()
    assert teleported.score == waited.score == 11  # the robot hits scrap: +1, level clear +10


def test_max_turns_ends_the_run():
    state = position(board({(5, 5): "@", (0, 0): "+", (0, 9): "+"}), max_turns=2)
    state.apply("5")
    assert state.to_move == 0
    state.apply("5")
    assert state.result is not None and state.result.reason == "max-turns"
    assert state.result.extra == {"level": 1, "turns": 2, "destroyed": 0}


def test_a_level_clear_scores_level_times_10():
    state = position(board({(5, 5): "@", (3, 4): "+", (3, 6): "+"}), level=4, score=100)
    state.apply("5")
    assert state.score == 100 + 2 + 40 and state.level == 5
    assert len(state.robot_cells()) == 25


@pytest.mark.parametrize(("option", "value"), [
    ("rows", 4), ("rows", 61), ("cols", 4), ("cols", 61), ("max_robots", 0),
    ("max_turns", 0), ("rows", "ten"),
])
def test_options_out_of_range_are_refused_naming_the_option(option, value):
    with pytest.raises(games.OptionError) as caught:
        game(**{option: value})
    assert caught.value.option == option and option in str(caught.value)


def test_defaults_follow_the_rule_sheet():
    assert game().options == {"rows": 10, "cols": 10, "max_robots": 40, "max_turns": 5000}


def test_render_draws_the_board_and_the_situation():
    text = position(board({(5, 5): "@", (0, 0): "+", (1, 1): "*"})).render()
    assert text.splitlines()[0] == "+........." and "@" in text and "level 1" in text
