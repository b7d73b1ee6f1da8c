"""Stones rules, the rule sheet's table of results, and the perfect player."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import games
from games.players import make_player, play
from games.players.stones import StonesSolver
from games.stones import StonesState, neighbourhoods


def new(size: int = 5) -> StonesState:
    return games.new_state("stones", {"size": size})  # type: ignore[return-value]


@pytest.mark.parametrize("size", range(2, 10))
def test_every_size_from_2_to_9_starts_with_every_cell_free(size):
    state = new(size)
    assert len(state.legal_moves()) == size * size
    assert state.render().count(".") == size * size


@pytest.mark.parametrize("size", [1, 10])
def test_sizes_outside_2_to_9_are_refused(size):
    with pytest.raises(games.OptionError, match="'size'"):
        new(size)


def test_the_default_is_5_by_5_without_holes():
    assert games.make_game("stones").options == {"size": 5, "holes": 0}
    assert games.new_state("stones", seed=7).board_rows() == ["....."] * 5  # the seed unused


# -- holes drawn from the seed (the ladder's board) ------------------------------------------

def holed(seed: int, size: int = 6, holes: int = 6) -> StonesState:
    return games.new_state("stones", {"size": size, "holes": holes}, seed)  # type: ignore[return-value]


def test_holes_are_that_many_blocked_cells_drawn_from_the_seed():
    state = holed(3)
    rows = state.board_rows()
    assert sum(row.count("x") for row in rows) == 6 and "#" not in "".join(rows)
    assert len(state.legal_moves()) == 36 - 6 and state.turn == 0 and state.to_move == 0
    assert holed(3).board_rows() == rows, "the same seed draws the same holes"
    assert len({tuple(holed(seed).board_rows()) for seed in range(20)}) == 20


def test_a_hole_cannot_be_played_and_a_holed_game_replays():
    state = holed(3)
    hole = next(f"{r},{c}" for r, row in enumerate(state.board_rows())
                for c, ch in enumerate(row) if ch == "x")
    with pytest.raises(games.IllegalMoveError, match=r"cell \(\d,\d\) is a hole"):
        state.apply(hole)
    game = state.game
    played = play(game, [make_player(game, "random", s, 3) for s in (0, 1)], 3)
    again = game.replay(3, played.history)
    assert again.board_rows() == played.board_rows() and again.result == played.result


def test_a_holed_state_rebuilt_from_an_observation_keeps_its_holes():
    state = holed(11)
    state.apply(state.legal_moves()[0])
    rebuilt = state.game.state_from_observation(state.observation(1))
    assert rebuilt.legal_moves() == state.legal_moves()
    assert rebuilt.board_rows() == state.board_rows()


def test_holes_leave_at_least_one_free_cell():
    state = games.new_state("stones", {"size": 2, "holes": 40}, 1)
    assert len(state.legal_moves()) == 1 and state.result is None


@pytest.mark.parametrize("options", [{"size": 5, "holes": 4}, {"size": 6, "holes": 6}],
                         ids=["ladder-5x5-4-holes", "6x6-6-holes"])
@pytest.mark.parametrize("seed", range(4))
def test_with_holes_the_perfect_player_wins_every_won_seat_in_its_time(options, seed):
    """The ladder's board (league/ladders/defaults.py), and the biggest board with holes that
    was measured: the perfect player proves its moves within the ladder's 1 s a move (its
    search stops at half of it), from a cold start."""
    import time

    game = games.make_game("stones", options)
    start = game.new_state(seed)
    solver = StonesSolver(options["size"])
    winner = 0 if solver.grundy(start.free_mask()) else 1
    seats = [make_player(game, "random", s, seed) for s in (0, 1)]
    seats[winner] = make_player(game, "perfect", winner, seed, time_limit=1.0)
    state = start
    while (seat := state.to_move) is not None:
        began = time.perf_counter()
        state.apply(seats[seat].choose(state.observation(seat)))
        if seat == winner:
            assert time.perf_counter() - began < 1.0
    assert state.result.winner == winner  # type: ignore[union-attr]


def test_a_stone_blocks_its_eight_neighbours_for_both_players():
    state = new(5)
    state.apply("2,2")
    assert state.to_move == 1
    for r in range(1, 4):
        for c in range(1, 4):
            with pytest.raises(games.IllegalMoveError):
                state.apply(f"{r},{c}")
    assert len(state.legal_moves()) == 25 - 9
    assert state.board_rows()[1:4] == [".xxx.", ".x#x.", ".xxx."]


@pytest.mark.parametrize(("move", "reason"), [
    ("2,2", "already holds a stone"), ("1,2", "touches a stone"), ("3,3", "touches a stone"),
    ("5,0", "off the 5x5 board"), ("0,9", "off the 5x5 board"),
])
def test_illegal_cells_are_refused_with_a_reason(move, reason):
    state = new(5)
    state.apply("2,2")
    with pytest.raises(games.IllegalMoveError, match=reason):
        state.apply(move)
    assert state.history == ["2,2"] and state.to_move == 1


@pytest.mark.parametrize("text", ["", "2", "2;2", "a,b", "-1,2", "2,2,2", "pass"])
def test_malformed_moves_say_how_to_write_one(text):
    with pytest.raises(games.MalformedMoveError, match="expected 'row,col'"):
        new().apply(text)


def test_spaces_around_numbers_are_accepted():
    state = new()
    state.apply(" 2 , 2 ")
    assert state.history == ["2,2"]


def test_the_player_with_no_free_cell_loses():
    state = new(3)
    state.apply("1,1")
    result = state.result
    assert result is not None and result.reason == "no-legal-move"
    assert result.winner == 0 and "player 1 has no free cell" in result.detail
    assert state.to_move is None


def test_there_are_no_draws_and_no_pass():
    for seed in range(30):
        game = games.make_game("stones", {"size": 4})
        result = play(game, [make_player(game, "random", s, seed + s) for s in (0, 1)],
                      seed).result
        assert result is not None and result.winner in (0, 1)
    with pytest.raises(games.MalformedMoveError):
        new().apply("X000")


def test_a_state_rebuilt_from_an_observation_has_the_same_moves():
    state = new(6)
    for move in ("0,0", "3,3", "5,0"):
        state.apply(move)
    rebuilt = state.game.state_from_observation(state.observation(1))
    assert rebuilt.legal_moves() == state.legal_moves()
    assert rebuilt.to_move == 1 and rebuilt.turn == 3


# -- the table of results --------------------------------------------------------------------
TABLE = {
    2: {(0, 0), (0, 1), (1, 0), (1, 1)},
    3: {(1, 1)},
    4: set(),
    5: {(2, 2)},
}


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_the_solver_reproduces_the_rule_sheets_table(size):
    solver = StonesSolver(size)
    wins = {(i // size, i % size) for i in solver.winning_moves((1 << size * size) - 1)}
    if size == 6:
        assert len(wins) == 20
    else:
        assert wins == TABLE[size]


@cache
def brute_force_wins(size: int, free: int) -> bool:
    """Plain negamax, no decomposition: does the player to move win?"""
    hood = neighbourhoods(size)
    m = free
    while m:
        low = m & -m
        if not brute_force_wins(size, free & ~hood[low.bit_length() - 1]):
            return True
        m ^= low
    return False


@settings(max_examples=60, deadline=None)
@given(size=st.integers(2, 5), cells=st.lists(st.integers(0, 24), max_size=4))
def test_the_grundy_solver_agrees_with_plain_search(size, cells):
    hood = neighbourhoods(size)
    free = (1 << size * size) - 1
    for cell in cells:
        if free >> (cell % (size * size)) & 1:
            free &= ~hood[cell % (size * size)]
    assert (StonesSolver(size).grundy(free) != 0) == brute_force_wins(size, free)


@pytest.mark.parametrize(("size", "perfect_seat"), [(3, 0), (4, 1), (5, 0), (6, 0)])
def test_the_perfect_player_wins_every_won_position(size, perfect_seat):
    game = games.make_game("stones", {"size": size})
    for seed in range(8):
        seats = [make_player(game, "random", s, seed) for s in (0, 1)]
        seats[perfect_seat] = make_player(game, "perfect", perfect_seat, seed)
        assert play(game, seats, seed).result.winner == perfect_seat  # type: ignore[union-attr]


def test_perfect_against_perfect_follows_the_table():
    for size, first_wins in ((3, True), (4, False), (5, True)):
        game = games.make_game("stones", {"size": size})
        state = play(game, [make_player(game, "perfect", s) for s in (0, 1)])
        assert (state.result.winner == 0) is first_wins  # type: ignore[union-attr]


def test_on_odd_boards_the_centre_then_mirroring_wins():
    for size in (3, 5, 7, 9):
        solver = StonesSolver(size)
        centre = (size // 2) * size + size // 2
        assert solver.mirror_win((1 << size * size) - 1) == centre


@pytest.mark.parametrize(("size", "perfect_seat"), [(7, 0), (9, 0), (8, 0), (9, 1)])
def test_on_big_boards_the_perfect_player_stays_within_its_time(size, perfect_seat):
    import time

    game = games.make_game("stones", {"size": size})
    seats = [make_player(game, "random", s, 5) for s in (0, 1)]
    seats[perfect_seat] = make_player(game, "perfect", perfect_seat, 5, time_limit=0.5)
    state = game.new_state(5)
    while (seat := state.to_move) is not None:
        # the CPU time its move takes: a loaded machine stretches the wall clock (the player
        # stops its search at half its time by the wall clock, so it can only spend less)
        start = time.process_time()
        state.apply(seats[seat].choose(state.observation(seat)))
        if seat == perfect_seat:
            assert time.process_time() - start < 0.5
    if size % 2 and perfect_seat == 0:  # won by the mirror strategy, whatever the clock
        assert state.result.winner == perfect_seat  # type: ignore[union-attr]
