"""2048 built-in players: they play legal moves to the end, and search beats chance."""

from __future__ import annotations

import statistics

import pytest

import games
from games.g2048.board import geometry
from games.players import make_player, play, player_names
from games.players.g2048 import Expectimax2048, ExpectimaxSearch, line_score


def test_the_players_are_registered():
    assert {"random", "greedy", "expectimax"} <= set(player_names("g2048"))


@pytest.mark.parametrize("name", ["random", "greedy"])
@pytest.mark.parametrize(("rows", "cols"), [(4, 4), (3, 5)])
def test_quick_players_play_legal_moves_to_the_end(name, rows, cols):
    game = games.make_game("g2048", {"rows": rows, "cols": cols})
    state = play(game, [make_player(game, name, 0, seed=1)], seed=2)
    assert state.result is not None and state.result.reason == "no-legal-move"


def test_greedy_scores_more_than_random_on_average():
    game = games.make_game("g2048")
    def mean(name: str) -> float:
        return statistics.mean(play(game, [make_player(game, name, 0, s)], seed=s).score
                               for s in range(12))
    assert mean("greedy") > mean("random")


def test_expectimax_plays_a_small_board_within_its_budget():
    game = games.make_game("g2048", {"rows": 3, "cols": 3})
    player = Expectimax2048(game, 0, budget_ms=5)
    state = play(game, [player], seed=4)
    assert state.result is not None
    # A busy machine may stall a 5 ms move before depth 1 ends; the heuristic alone (depth 0)
    # is the fallback. Most moves still search.
    assert sum(d >= 1 for d in player.depths) >= 0.5 * len(player.depths)


def test_expectimax_takes_the_referees_time_limit_into_account():
    game = games.make_game("g2048")
    assert Expectimax2048(game, 0).budget == pytest.approx(Expectimax2048.default_budget_ms / 1000)
    assert Expectimax2048(game, 0, time_limit=0.05).budget == pytest.approx(0.025)
    assert make_player(game, "expectimax", 0, 0, 0.02).budget == pytest.approx(0.010)  # type: ignore[attr-defined]


def test_expectimax_reaches_a_512_tile_in_a_short_game():
    game = games.make_game("g2048")
    player = Expectimax2048(game, 0, budget_ms=2)
    state = game.new_state(1)
    while state.to_move is not None and state.max_tile() < 512:
        state.apply(player.choose(state.observation(0)))
    assert state.max_tile() >= 512


def test_the_search_prefers_keeping_a_corner_row_monotonic():
    geom = geometry(4, 4)
    search = ExpectimaxSearch(geom, 0.75)
    good = geom.from_grid([[8, 7, 6, 5], [1, 2, 3, 4], [0] * 4, [0] * 4])
    bad = geom.from_grid([[5, 8, 6, 7], [1, 2, 3, 4], [0] * 4, [0] * 4])
    assert search.evaluate(good) > search.evaluate(bad)
    assert line_score([3, 2, 1, 0]) > line_score([1, 3, 0, 2])


def test_the_search_never_returns_an_illegal_move():
    geom = geometry(2, 2)
    search = ExpectimaxSearch(geom, 0.75)
    board = geom.from_grid([[1, 2], [3, 0]])  # only R and D change it
    direction, depth = search.best_move(board, 0.01)
    assert direction in (1, 3) and depth >= 1
    with pytest.raises(ValueError):
        search.best_move(geom.from_grid([[1, 2], [2, 1]]), 0.01)
