"""The limits on playing against bots, on a live league with small ones (a person's clock of a
few seconds, two boards and no queue for them, one game a person, three games an hour): a game
left alone (its tab closed) ends by the person's clock and frees its board; a second game of
one person, a game when every board is taken and a game over the rate are refused with a
message. test_play_boards.py has the queue and the first-move time."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from league.ladders.models import Exhibition, Match
from tests.league.play_world import PlayLeague, running_play_league

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

MOVE_SECONDS = 3


@pytest.fixture(scope="module")
def league(django_db_setup: None, django_db_blocker: Any,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayLeague]:
    with running_play_league(django_db_blocker, tmp_path_factory, play_slots=2, env={
            "LEAGUE_PLAY_MOVE_SECONDS": str(MOVE_SECONDS), "LEAGUE_PLAY_SLOTS": "2",
            "LEAGUE_PLAY_GAMES_PER_USER": "1", "LEAGUE_PLAY_GAMES_RATE": "3/hour",
            "LEAGUE_PLAY_QUEUE_LENGTH": "0"}) as world:
        yield world


def refused(league: PlayLeague, who: str, **game: Any) -> str:
    session = league.login(who)
    answer = league.start_answer(session, **game)
    assert answer.status_code == 302 and "/play/" not in answer.headers["Location"]
    return league.refusal(session, answer.headers["Location"])


def test_a_game_left_alone_ends_by_the_clock_and_frees_its_board(league: PlayLeague) -> None:
    alice = league.login("alice")
    stones_bot = str(league.cast["bots"]["stones-random"])
    match = league.start(alice, opponent=stones_bot, seat=0)
    state = league.wait_state(alice, match, lambda s: s["your_turn"]
                              and s["clocks"][0]["running"], what="alice's clock to run")
    assert 0 < state["clocks"][0]["move_ms"] <= MOVE_SECONDS * 1000
    # One game a person: alice's second is refused while this one runs.
    assert refused(league, "alice", opponent=stones_bot) == (
        "You have 1 game going already (at most 1 at once): finish one, or let its clock "
        'run out, first. <a href="/play/#your-games">Your games</a>')
    # Every board taken: bob's game takes the second one, carol's finds none free.
    bobs = league.start(league.login("bob"), opponent="builtin:random", game="stones", seat=0)
    assert refused(league, "carol", opponent="builtin:random", game="stones") == (
        "All 2 boards for playing against bots are taken; try again in a few minutes.")
    # Alice's tab is closed: nothing more is sent. Her clock runs out; the game is lost.
    began = time.monotonic()
    end = league.wait_state(alice, match, lambda s: s["status"] == "finished",
                            timeout=MOVE_SECONDS + 30, what="the clock to run out")
    assert time.monotonic() - began < MOVE_SECONDS + 10
    assert end["result"]["winner"] == 1 and "you forfeit: timeout" in end["result"]["reason"]
    assert f"no move within {MOVE_SECONDS} s" in end["result"]["reason"]
    with league.orm():
        row = Match.objects.get(pk=match)
        assert row.participants.get(seat=0).forfeit == "timeout"
    # Her board is free again: carol gets one now (bob still holds the other).
    carol = league.login("carol")
    carols = league.start(carol, opponent="builtin:random", game="stones", seat=1)
    state = league.wait_state(carol, carols, lambda s: s["status"] == "running",
                              what="carol's game to start on the freed board")
    with league.orm():
        assert Match.objects.get(pk=bobs).status == "running"
        assert Exhibition.objects.filter(match__status="running").count() == 2


def test_games_over_the_rate_are_refused(league: PlayLeague) -> None:
    # The rate counts games started (3 an hour; every test starts with fresh counts). The
    # games of the test above end by the clock first (one game a person at once).
    for name in ("alice", "bob", "carol"):
        session = league.login(name)
        with league.orm():
            games = list(Exhibition.objects.filter(user__username=name,
                                                   match__status__in=["queued", "running"])
                         .values_list("pk", flat=True))
        for match in games:
            league.wait_state(session, match, lambda s: s["status"] == "finished",
                              timeout=MOVE_SECONDS + 30, what="the earlier games to end")
    alice = league.login("alice")
    for _ in range(3):
        match = league.start(alice, game="g2048")
        league.wait_state(alice, match, lambda s: s["status"] == "finished",
                          timeout=MOVE_SECONDS + 30, what="a 2048 game left alone to end")
    message = refused(league, "alice", game="g2048")
    assert message.startswith("Too many games against bots started; try again in "), message
