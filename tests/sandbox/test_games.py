"""Every registered game through the referee: built-in players as bot programs, and the
starter bot in ``examples/``. Games are picked up from the engine's registry, so a new game
is covered as soon as it is registered.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import games
from games.players import player_names
from tests.sandbox.conftest import FAST, play

pytestmark = pytest.mark.usefixtures("clean_worker")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LIMITS = FAST.with_changes(move_time=5.0)


def short_options(game_id: str) -> dict[str, Any]:
    """Options that keep long games short (turn caps at their minimum useful value)."""
    options = {}
    for option in games.game_class(game_id).options_schema.describe():
        if "turns" in option["name"]:
            options[option["name"]] = max(option["min"], min(option["default"], 30))
    return options


@pytest.mark.parametrize("game_id", games.game_ids())
def test_built_in_players_run_as_ordinary_bots(game_id: str) -> None:
    names = player_names(game_id)
    assert names, f"{game_id} has no built-in player"
    n = games.make_game(game_id).num_players
    bots = [f"builtin:{names[seat % len(names)]}" for seat in range(n)]
    record = play(bots, "process", game=game_id, limits=LIMITS, seed=11,
                  options=short_options(game_id))
    assert record.forfeit is None, (record.result, [p.log for p in record.players])
    assert record.moves, "no move was played"
    # The record is enough for the engine to re-derive the match.
    assert record.replay().result == record.result
    assert sum(1 for _ in record.frames()) == len(record.moves) + 1


@pytest.mark.parametrize("game_id", games.game_ids())
def test_the_starter_bot_plays_a_clean_match(game_id: str) -> None:
    starter = EXAMPLES / game_id / "main.py"
    assert starter.is_file(), f"add a starter bot: examples/{game_id}/main.py"
    n = games.make_game(game_id).num_players
    bots = [str(starter.parent)] + [f"builtin:{player_names(game_id)[0]}"] * (n - 1)
    record = play(bots, "process", game=game_id, limits=LIMITS, seed=3,
                  options=short_options(game_id))
    assert record.forfeit is None, (record.result, record.players[0].log)

