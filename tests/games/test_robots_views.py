"""Robots determinism, views (observation, spectator, JSON) and rebuilding a state from them."""

from __future__ import annotations

import json

import pytest

import games
from games.players.robots import safe_moves
from games.robots import RobotsState


def played(seed: int, turns: int, **options) -> RobotsState:
    """A run after ``turns`` turns, steered clear of capture while a safe move exists."""
    state: RobotsState = games.new_state("robots", options, seed)  # type: ignore[assignment]
    for i in range(turns):
        if state.is_over():
            break
        safe = [str(c) for c in safe_moves(state)]
        legal = safe or state.legal_moves()
        state.apply(legal[(i * 5 + seed) % len(legal)])
    return state


def test_the_same_seed_and_moves_give_identical_states_and_results():
    for seed in range(10):
        a = played(seed, 200)
        b = games.make_game("robots").replay(seed, a.history)
        assert a.spectator() == b.spectator() and a.result == b.result
        assert a.rng.state == b.rng.state and a.history == b.history


def test_the_observation_is_the_whole_board_as_json():
    state = played(1, 3, rows=7, cols=12)
    assert not state.is_over()
    obs = state.observation(0)
    assert json.loads(json.dumps(obs)) == obs
    assert len(obs["board"]) == 7 and all(len(r) == 12 for r in obs["board"])
    assert "".join(obs["board"]).count("@") == 1
    assert "".join(obs["board"]).count("+") == obs["robots_left"]
    assert {k: obs[k] for k in ("level", "score", "turn")} == {
        "level": state.level, "score": state.score, "turn": state.turn}
    assert obs["legal_moves"] == state.legal_moves() and "5" in obs["legal_moves"]
    view = state.spectator()
    assert json.loads(json.dumps(view)) == view


def test_the_spectator_view_carries_the_result_once_over():
    state = played(2, 10_000)
    assert state.spectator()["result"]["reason"] in ("game-over", "max-turns")


@pytest.mark.parametrize(("rows", "cols"), [(10, 10), (5, 60), (23, 7)])
def test_a_state_rebuilt_from_its_observation_shows_the_same_observation(rows, cols):
    state = played(4, 2, rows=rows, cols=cols)
    assert not state.is_over()
    rebuilt = state.game.state_from_observation(json.loads(json.dumps(state.observation(0))))
    assert rebuilt.observation(0) == state.observation(0)
    assert (rebuilt.robots, rebuilt.scrap, rebuilt.player) == (state.robots, state.scrap,
                                                               state.player)


@pytest.mark.parametrize("bad", [
    {"board": ["." * 10] * 10},
    {"board": ["@" * 10] * 10},
    {"board": ["@?" + "." * 8] + ["." * 10] * 9},
    {"board": ["@" + "." * 9] * 3},
    {"board": ["@" + "." * 9] + ["." * 10] * 9, "level": 0},
])
def test_a_bad_observation_is_refused_with_a_reason(bad):
    with pytest.raises(games.GameError):
        games.make_game("robots").state_from_observation(bad)  # type: ignore[union-attr]


def test_a_copy_is_independent_both_ways():
    state = played(6, 1)
    twin = state.copy()
    before = state.spectator(), list(state.history), state.rng.state
    twin.apply("0")
    assert (state.spectator(), list(state.history), state.rng.state) == before
    state.apply("5")
    assert twin.history[-1] == "0" and state.history[-1] == "5"


def test_a_copy_draws_the_same_teleports_as_its_original():
    state = played(7, 0)
    twin = state.copy()
    state.apply("0")
    twin.apply("0")
    assert state.spectator() == twin.spectator()
