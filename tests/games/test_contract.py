"""The engine contract, checked for every registered game with its built-in random player."""

from __future__ import annotations

import json

import pytest

import games
from games.players import make_player, player_names

GAME_IDS = games.game_ids()


def random_game(game_id: str, seed: int) -> games.State:
    game = games.make_game(game_id)
    state = game.new_state(seed)
    players = [make_player(game, "random", seat, seed + seat) for seat in range(game.num_players)]
    while (seat := state.to_move) is not None:
        state.apply(players[seat].choose(state.observation(seat)))
    return state


def snapshot(state: games.State) -> str:
    return json.dumps(state.spectator(), sort_keys=True) + repr(state.history)


def test_the_registry_knows_the_games():
    assert {"blokus_duo", "stones"} <= set(GAME_IDS)


def test_an_unknown_game_is_a_clear_error():
    with pytest.raises(games.UnknownGameError, match="unknown game 'chess'"):
        games.make_game("chess")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_unknown_option_is_named(game_id):
    with pytest.raises(games.OptionError) as caught:
        games.make_game(game_id, {"no_such_option": 1})
    assert caught.value.option == "no_such_option"
    assert "unknown option" in str(caught.value)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_out_of_range_and_mistyped_options_are_named(game_id):
    schema = games.game_class(game_id).options_schema
    for option in schema.options.values():
        with pytest.raises(games.OptionError, match=f"'{option.name}'.*out of range"):
            games.make_game(game_id, {option.name: option.max + 1})
        with pytest.raises(games.OptionError, match=f"'{option.name}'"):
            games.make_game(game_id, {option.name: "seven"})
        with pytest.raises(games.OptionError, match=f"'{option.name}'"):
            games.make_game(game_id, {option.name: True})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_options_get_their_defaults(game_id):
    game = games.make_game(game_id)
    assert game.options == game.options_schema.defaults()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_has_a_random_player(game_id):
    assert "random" in player_names(game_id)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_seed_and_moves_reproduce_every_state(game_id):
    state = random_game(game_id, seed=7)
    game = state.game
    again = game.new_state(7)
    replayed = game.new_state(7)
    for move in state.history:
        again.apply(move)
    assert snapshot(again) == snapshot(state)
    assert snapshot(game.replay(7, state.history)) == snapshot(state)
    assert again.result == state.result
    assert snapshot(replayed) != snapshot(state)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_ends_with_a_result(game_id):
    state = random_game(game_id, seed=3)
    assert state.to_move is None and state.is_over()
    result = state.result
    assert result is not None and result.reason
    assert len(result.scores) == state.game.num_players
    if state.game.num_players == 2:
        assert result.outcomes is not None
    assert games.Result.from_json(json.loads(json.dumps(result.to_json()))) == result
    assert state.legal_moves() == []
    with pytest.raises(games.IllegalMoveError, match="the game is over"):
        state.apply("anything")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_observations_are_json_and_round_trip(game_id):
    game = games.make_game(game_id)
    state = game.new_state(11)
    players = [make_player(game, "random", seat, seat) for seat in range(game.num_players)]
    while (seat := state.to_move) is not None:
        for viewer in range(game.num_players):
            obs = state.observation(viewer)
            assert json.loads(json.dumps(obs)) == obs
        assert json.loads(json.dumps(state.spectator())) == state.spectator()
        assert isinstance(state.render(), str) and state.render()
        obs = state.observation(seat)
        assert sorted(obs["legal_moves"]) == sorted(state.legal_moves())
        state.apply(players[seat].choose(obs))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_rejected_move_leaves_the_state_unchanged(game_id):
    state = games.make_game(game_id).new_state(5)
    before = snapshot(state)
    for bad in ("", "???", "X", "99,99", "Z999", "move nowhere", "\x00"):
        with pytest.raises(games.IllegalMoveError) as caught:
            state.apply(bad)
        assert caught.value.reason
        assert snapshot(state) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_copy_is_independent(game_id):
    state = games.make_game(game_id).new_state(2)
    twin = state.copy()
    before = snapshot(state)
    twin.apply(twin.legal_moves()[0])
    assert snapshot(state) == before
    assert snapshot(twin) != before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_forfeit_is_a_result_with_its_reason(game_id):
    state = games.make_game(game_id).new_state(0)
    result = state.forfeit(0, "timeout", "no move within 5 s")
    assert result.reason == "forfeit" and result.forfeit == games.Forfeit(0, "timeout",
                                                                          "no move within 5 s")
    assert state.to_move is None
    if state.game.num_players == 2:
        assert result.winner == 1
    with pytest.raises(games.GameError):
        state.forfeit(1, "timeout")


def test_the_rng_is_deterministic_and_copies_cheaply():
    a, b = games.Rng(42), games.Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    c = a.copy()
    assert [a.below(10) for _ in range(20)] == [c.below(10) for _ in range(20)]
    values = [games.Rng(s).below(6) for s in range(600)]
    assert set(values) == set(range(6))
    assert all(0 <= games.Rng(s).random() < 1 for s in range(100))
    with pytest.raises(ValueError):
        a.below(0)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_playout_plays_legal_moves_to_the_end_and_replays(game_id):
    game = games.make_game(game_id)
    for seed in range(3):
        state = game.new_state(seed)
        played = state.playout(games.Rng(100 + seed))
        assert state.is_over() and played == len(state.history) > 0
        assert snapshot(game.replay(seed, state.history)) == snapshot(state)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_playout_stops_after_max_moves_and_leaves_a_copy_alone(game_id):
    game = games.make_game(game_id)
    state = game.new_state(4)
    before = snapshot(state)
    twin = state.copy()
    played = twin.playout(9, max_moves=3)
    assert len(twin.history) == played and (played == 3 or (played < 3 and twin.is_over()))
    assert snapshot(state) == before
    assert twin.playout(9, max_moves=0) == 0
    assert snapshot(game.replay(4, twin.history)) == snapshot(twin)
    twin.playout(9)
    assert twin.is_over() and twin.playout(9) == 0
