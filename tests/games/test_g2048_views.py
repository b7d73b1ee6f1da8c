"""2048 determinism, views (observation, spectator, JSON) and rebuilding a state from them."""

from __future__ import annotations

import json

import pytest

import games
from games.g2048 import G2048, G2048State


def played(seed: int, moves: int, **options) -> G2048State:
    state: G2048State = games.new_state("g2048", options, seed)  # type: ignore[assignment]
    for i in range(moves):
        if state.is_over():
            break
        legal = state.legal_moves()
        state.apply(legal[(i * 7 + seed) % len(legal)])
    return state


def test_the_same_seed_and_moves_give_identical_states_and_results():
    a = played(5, 10_000)
    b = games.make_game("g2048").replay(5, a.history)
    assert a.board == b.board and a.score == b.score and a.turn == b.turn
    assert a.spectator() == b.spectator() and a.result == b.result
    assert a.rng.state == b.rng.state


def test_different_seeds_give_different_spawns():
    assert len({played(seed, 5).board for seed in range(20)}) > 15


def test_the_observation_holds_grid_score_turn_and_legal_moves_and_is_json():
    state = played(3, 40, rows=3, cols=5)
    obs = state.observation(0)
    assert json.loads(json.dumps(obs)) == obs
    assert obs["grid"] == state.grid() and len(obs["grid"]) == 3 and len(obs["grid"][0]) == 5
    assert obs["score"] == state.score and obs["turn"] == 40
    assert obs["legal_moves"] == state.legal_moves() and obs["to_move"] == 0
    view = state.spectator()
    assert json.loads(json.dumps(view)) == view and view["result"] is None


def test_the_spectator_view_carries_the_result_once_over():
    state = played(4, 100_000)
    view = state.spectator()
    assert view["result"]["reason"] == "no-legal-move"
    assert view["result"]["extra"] == {"max_tile": state.max_tile(), "moves": state.turn}


@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (2, 7), (6, 3)])
def test_a_state_rebuilt_from_its_observation_shows_the_same_observation(rows, cols):
    state = played(8, 30, rows=rows, cols=cols)
    game = state.game
    rebuilt = game.state_from_observation(json.loads(json.dumps(state.observation(0))))
    assert rebuilt.observation(0) == state.observation(0)
    assert rebuilt.board == state.board
    assert rebuilt.history == []  # not part of an observation


def test_a_rebuilt_state_does_not_foresee_the_real_spawns():
    real = played(12, 20)
    guesses = set()
    for seed in range(5):
        twin = real.game.state_from_observation(real.observation(0), seed=seed)
        twin.apply(twin.legal_moves()[0])
        guesses.add(twin.board)
    assert len(guesses) > 1  # the rebuilt RNG is the caller's, not the match's


@pytest.mark.parametrize("bad", [
    {"grid": [[2, 0], [0, 0]]},
    {"grid": [[3, 0, 0, 0]] * 4},
    {"grid": [[2, 0, 0, 0]] * 4, "score": -1},
    {"grid": "2 0 0 0"},
])
def test_a_bad_observation_is_refused_with_a_reason(bad):
    with pytest.raises(games.GameError):
        games.make_game("g2048").state_from_observation(bad)  # type: ignore[union-attr]


def test_tiles_whose_merge_the_board_cannot_hold_are_refused():
    game = games.make_game("g2048")
    with pytest.raises(games.GameError, match=r"at most 2\*\*31"):
        game.state_from_observation({"grid": [[2**31, 2**31, 0, 0]] + [[0] * 4] * 3})
    with pytest.raises(games.GameError, match=r"2\*\*32"):  # 2**31 after one merge, then 2**32
        game.state_from_observation({"grid": [[2**31, 2**30, 2**30, 0]] + [[0] * 4] * 3})


def test_the_largest_storable_merge_is_exact():
    game = games.make_game("g2048")
    state = game.state_from_observation({"grid": [[2**30, 2**30, 0, 0]] + [[0] * 4] * 3})
    slid, gain = state.slide("L")
    assert slid.grid() == [[2**31, 0, 0, 0]] + [[0] * 4] * 3
    assert gain == 2**31
    state.apply("L")
    assert state.grid()[0][0] == 2**31 and state.score == 2**31 and state.max_tile() == 2**31


def test_a_copy_is_independent_both_ways():
    state = played(2, 10)
    twin = state.copy()
    before = (state.board, state.score, list(state.history), state.rng.state)
    twin.apply(twin.legal_moves()[0])
    assert (state.board, state.score, list(state.history), state.rng.state) == before
    state.apply(state.legal_moves()[-1])
    assert twin.history[:-1] == before[2] and state.history[:-1] == before[2]
    assert twin.history[-1] != state.history[-1] or twin.board != state.board


def test_a_copy_draws_the_same_spawns_as_its_original():
    state = played(9, 5)
    twin = state.copy()
    move = state.legal_moves()[0]
    state.apply(move)
    twin.apply(move)
    assert twin.board == state.board


def test_the_game_describes_itself():
    described = G2048().describe()
    assert described["id"] == "g2048" and described["players"] == 1 and described["chance"]
    assert [o["name"] for o in described["options"]] == ["rows", "cols", "p_two", "max_turns"]
