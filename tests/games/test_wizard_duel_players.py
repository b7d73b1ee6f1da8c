"""Wizard Duel built-in players: they play legal moves only, and the hunter beats random."""

from __future__ import annotations

import pytest

from games.players import make_player, play, player_names
from games.result import Outcome
from games.wizard_duel import WizardDuel


def test_both_players_are_registered():
    assert {"random", "hunter"} <= set(player_names("wizard_duel"))


@pytest.mark.parametrize("names", [("random", "random"), ("hunter", "hunter"),
                                   ("hunter", "random")])
def test_players_finish_games_with_legal_moves_only(names):
    game = WizardDuel({"turns_each": 60})
    for seed in range(2):
        players = [make_player(game, name, seat, seed) for seat, name in enumerate(names)]
        state = play(game, players, seed)  # apply() would raise on an illegal move
        assert state.result is not None and state.result.forfeit is None


def test_the_hunter_beats_random_from_both_seats():
    game = WizardDuel()
    outcomes = []
    for seed in range(8):
        for seat in (0, 1):
            players = [make_player(game, "random", s, seed + 100) for s in (0, 1)]
            players[seat] = make_player(game, "hunter", seat, seed)
            outcomes.append(play(game, players, seed).result.outcomes[seat])
    wins, losses = outcomes.count(Outcome.WIN), outcomes.count(Outcome.LOSS)
    assert losses == 0 and wins >= len(outcomes) // 2, outcomes
