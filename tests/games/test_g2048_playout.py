"""2048's dedicated playout loop: the same game ``apply`` plays, uniform over legal moves."""

from __future__ import annotations

from collections import Counter

import pytest

import games
from games.g2048 import G2048


def state_key(state: games.State) -> tuple:
    result = state.result.to_json() if state.result else None
    return (state.board, state.score, state.turn, state.rng.state, result, list(state.history))


def applied(start: games.State, moves: list[str]) -> games.State:
    """``start`` with ``moves`` played through the validating contract path."""
    state = start.copy()
    for move in moves:
        state.apply(move)
    return state


@pytest.mark.parametrize("size", [(4, 4), (3, 5), (2, 2), (6, 4)])
def test_a_playout_is_the_game_apply_plays(size):
    game = G2048({"rows": size[0], "cols": size[1]})
    for seed in range(60):
        start = game.new_state(seed)
        state = start.copy()
        state.playout(games.Rng(seed * 31 + 7), max_moves=None if seed % 3 else seed)
        assert state_key(state) == state_key(applied(start, state.history))
        assert state_key(state) == state_key(game.replay(seed, state.history))


def test_a_playout_continues_from_the_middle_of_a_game():
    game = G2048()
    state = game.new_state(11)
    state.playout(1, max_moves=40)
    middle = state.copy()
    state.playout(2)
    assert state.is_over() and state.result.reason == "no-legal-move"
    assert state_key(state) == state_key(applied(middle, state.history[40:]))


def test_playout_choices_are_uniform_over_the_legal_moves():
    # L is illegal here and R, U, D are legal: a loop that skipped illegal moves in a fixed
    # order, or redrew without forgetting, would favour one of them.
    game = G2048()
    start = game.state_from_observation(
        {"grid": [[2, 4, 8, 0], [4, 2, 4, 0], [0, 0, 0, 0], [2, 0, 0, 0]]})
    legal = start.legal_moves()
    assert legal == ["R", "U", "D"]
    counts: Counter[str] = Counter()
    trials = 3000
    for seed in range(trials):
        state = start.copy()
        assert state.playout(seed, max_moves=1) == 1
        counts[state.history[-1]] += 1
    assert set(counts) == set(legal)
    expected, sigma = trials / 3, (trials * (1 / 3) * (2 / 3)) ** 0.5
    for move in legal:  # within five standard deviations: fixed seeds, and far from a bias
        assert abs(counts[move] - expected) < 5 * sigma, counts


def test_a_merge_past_32768_leaves_the_fast_loop_and_stays_exact():
    game = G2048()
    start = game.state_from_observation(
        {"grid": [[32768, 32768, 2, 4], [16384, 16384, 8, 2], [2, 4, 2, 4], [4, 2, 4, 2]]})
    reached = set()
    for seed in range(40):
        state = start.copy()
        state.playout(seed, max_moves=6)
        assert state_key(state) == state_key(applied(start, state.history))
        reached.add(state.max_tile())
    assert 65536 in reached  # some playouts made the tile the nibble cannot hold


def test_a_board_past_32768_plays_on_the_general_path():
    game = G2048()
    start = game.state_from_observation(
        {"grid": [[65536, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4], [0, 0, 0, 0]]})
    state = start.copy()
    state.playout(5, max_moves=30)
    assert state.turn == 30 and state.max_tile() == 65536
    assert state_key(state) == state_key(applied(start, state.history))


def test_a_playout_stops_at_max_turns():
    game = G2048({"max_turns": 25})
    state = game.new_state(2)
    assert state.playout(1) == 25
    assert state.result.reason == "max-turns" and state.turn == 25


def test_a_playout_does_nothing_on_an_afterstate_or_a_finished_game():
    game = G2048()
    after, _ = game.new_state(3).slide(game.new_state(3).legal_moves()[0])
    assert after.playout(1) == 0 and after.pending_spawn
    over = game.new_state(3)
    over.playout(1)
    assert over.is_over() and over.playout(1) == 0
