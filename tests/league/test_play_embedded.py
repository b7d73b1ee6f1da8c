"""Playing against a bot on the embedded default (SQLite, the filesystem broker, no Redis):
the play worker reads the person's moves from the database, and a whole game is played
through the play API as on PostgreSQL and Redis."""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from typing import Any

import pytest

from tests.league.play_world import PlayLeague, running_play_league

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def league(django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[PlayLeague]:
    with running_play_league(django_db_blocker, tmp_path_factory, embedded=True,
                             play_slots=1) as world:
        yield world


def test_a_game_is_played_to_its_end_on_the_embedded_default(league: PlayLeague) -> None:
    assert "REDIS_URL" not in league.env and "DATABASE_URL" not in league.env
    assert "league.broker:Transport" in league.play.text()  # the filesystem broker, no Redis
    alice = league.login("alice")
    match = league.start(alice, opponent=str(league.cast["bots"]["stones-random"]), seat=0)
    state = league.wait_state(alice, match, lambda s: s["your_turn"])
    refused = league.move(alice, match, "5,5", state["step"])
    assert refused.status_code == 400, refused.text
    assert refused.json()["error"] == "illegal move: cell (5,5) is off the 5x5 board"
    end = league.play_out(alice, match, lambda s: s["legal_moves"][0])
    assert end["status"] == "finished" and end["result"] is not None
    # each move reached the worker by its doorbell (the named pipe), not by the row's
    # reading every 5 s: the bot's reply came well within that
    # (how many replies depends on how soon the random bot loses: at least one)
    assert league.replies and statistics.median(league.replies) < 2, league.replies
    assert end["moves"][0] == {"seat": 0, "move": state["legal_moves"][0],
                               "seconds": end["moves"][0]["seconds"]}
    replay = alice.get(f"{league.url}/api/matches/{match}/replay/", timeout=30).json()
    assert [m["move"] for m in replay["moves"]] == [m["move"] for m in end["moves"]]
