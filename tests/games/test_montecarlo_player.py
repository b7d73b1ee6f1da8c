"""The flat Monte Carlo player: legal, stronger than random, and inside its time budget."""

from __future__ import annotations

import time

import pytest

from games import Outcome, make_game
from games.players import make_player, play
from games.players.montecarlo import MonteCarlo


def test_it_beats_random_at_stones():
    game = make_game("stones")
    wins = 0
    for seed in range(16):
        seat = seed % 2
        players = [make_player(game, "random", s, seed) for s in (0, 1)]
        players[seat] = MonteCarlo(game, seat, seed, rollouts=60)
        wins += play(game, players, seed=seed).result.outcomes[seat] is Outcome.WIN
    assert wins >= 12, wins


def test_it_outlasts_and_outscores_random_at_2048():
    game = make_game("g2048", {"max_turns": 150})
    mc = [play(game, [MonteCarlo(game, 0, seed, rollouts=40)], seed) for seed in range(3)]
    rnd = [play(game, [make_player(game, "random", 0, seed)], seed) for seed in range(3)]
    assert all(state.result.reason == "max-turns" for state in mc)
    assert any(state.result.reason == "no-legal-move" for state in rnd)
    assert sum(s.score for s in mc) > 1.2 * sum(s.score for s in rnd)


def test_it_keeps_to_its_budget_when_moves_outnumber_rollouts():
    # Blokus Duo opens with hundreds of moves and a rollout costs milliseconds: trying each
    # move once would take seconds.
    game = make_game("blokus_duo")
    state = game.new_state(1)
    player = make_player(game, "montecarlo", 0, 1, time_limit=0.04)
    started = time.perf_counter()
    move = player.choose(state.observation(0))
    assert time.perf_counter() - started < 0.25
    assert move in state.legal_moves()
    assert 0 < player.rollouts < len(state.legal_moves())


@pytest.mark.parametrize("game_id", ["g2048", "robots", "stones", "blokus_duo"])
def test_it_is_built_in_for_every_perfect_information_game(game_id):
    game = make_game(game_id)
    state = game.new_state(2)
    player = make_player(game, "montecarlo", 0, 2, time_limit=0.01)
    assert player.choose(state.observation(0)) in state.legal_moves()
