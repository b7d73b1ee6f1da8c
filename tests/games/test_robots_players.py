"""Robots built-in players: legal to the end; ``safe`` avoids capture and beats random."""

from __future__ import annotations

import statistics

import games
from games.players import make_player, play, player_names
from games.players.robots import SafeRobots, safe_moves
from games.robots import Robots


def test_the_players_are_registered():
    assert {"random", "safe"} <= set(player_names("robots"))


def test_safe_scores_more_than_random_on_average():
    game = games.make_game("robots")
    def mean(name: str) -> float:
        return statistics.mean(play(game, [make_player(game, name, 0, s)], seed=s).score
                               for s in range(15))
    assert mean("safe") > mean("random") + 5


def test_safe_never_moves_where_a_robot_can_reach_it_when_a_safe_move_exists():
    game = games.make_game("robots")
    assert isinstance(game, Robots)
    for seed in range(8):
        player = SafeRobots(game, 0, seed)
        state = game.new_state(seed)
        while state.to_move is not None:
            safe = safe_moves(state)
            move = player.choose(state.observation(0))
            if safe:
                assert move in {str(c) for c in safe}
            else:
                assert move == "0"  # cornered: teleport
            state.apply(move)


def test_safe_takes_the_move_that_crashes_robots():
    # Only stepping left to (5,4) brings the two robots onto one cell, (4,4).
    rows = ["..........", "..........", "..........", "...+.+....", "..........",
            ".....@....", "..........", "..........", "..........", "+........."]
    game = games.make_game("robots")
    assert isinstance(game, Robots)
    state = game.state_from_observation({"board": rows})
    move = SafeRobots(game, 0).choose(state.observation(0))
    assert move == "4"
    after = state.copy()
    after.apply(move)
    assert after.score == 2 and after.scrap_cells() == [(4, 4)]
