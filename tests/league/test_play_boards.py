"""The boards shared fairly, on a live league with small settings (two boards, a queue of two,
a first move within a few seconds): two accounts that take every board and never move cannot
keep a third person out. Each new account holds one board until it has played a game to its
end; a board whose person makes no first move is free again within the first-move time; a
game started while every board is taken waits in the queue with its place shown, the place
moves up as others leave or start, and the game starts when a board comes free. A game that
waits on a person costs the play worker no CPU."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.play_league import _family
from league.ladders.models import Match
from tests.league.play_world import PlayLeague, running_play_league
from tests.league.test_play_limits import refused

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

FIRST_MOVE = 5
MARGIN = 15
"""Seconds beyond the first-move time for a freed board to take the next game (the worker
noticing the timeout, writing the result, claiming the next), on a loaded 2-core machine."""


@pytest.fixture(scope="module")
def league(django_db_setup: None, django_db_blocker: Any,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayLeague]:
    with running_play_league(django_db_blocker, tmp_path_factory, play_slots=2, env={
            "LEAGUE_PLAY_SLOTS": "2", "LEAGUE_PLAY_QUEUE_LENGTH": "2",
            "LEAGUE_PLAY_FIRST_MOVE_SECONDS": str(FIRST_MOVE),
            "LEAGUE_PLAY_MOVE_SECONDS": "60", "LEAGUE_PLAY_GAMES_PER_USER": "2"}) as world:
        yield world


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its descendants, in MB."""
    total = 0
    for p in _family(pid):
        try:
            status = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        total += next((int(line.split()[1]) for line in status.splitlines()
                       if line.startswith("VmRSS:")), 0)
    return total / 1024


def test_two_accounts_holding_every_board_keep_nobody_out(league: PlayLeague) -> None:
    stones = {"opponent": "builtin:random", "game": "stones"}
    idle_mb = rss_mb(league.play.process.pid)
    # Two fresh accounts take both boards and never move (alice second: the bot moves first).
    alice, bob = league.login("alice"), league.login("bob")
    held = [league.start(alice, seat=1, **stones), league.start(bob, seat=0, **stones)]
    began = time.monotonic()
    for who, match in zip((alice, bob), held, strict=True):
        league.wait_state(who, match, lambda s: s["your_turn"] and s["status"] == "running"
                          and s["clocks"][s["seat"]]["running"], what="the board to be taken")
    # Waiting on people costs the play worker no CPU (the bots paused or blocked on a read,
    # the seats blocked on their doorbells); what it costs is the processes' memory.
    before = league.play.cpu_seconds()
    time.sleep(1.0)
    used = league.play.cpu_seconds() - before
    print(f"\nplay worker, 2 boards: {idle_mb:.0f} MB idle, "
          f"{rss_mb(league.play.process.pid):.0f} MB with two games waiting on people; "
          f"{used:.3f} s CPU in 1 s of waiting")
    assert used < 0.1, used
    assert time.monotonic() - began < FIRST_MOVE, "too slow a machine for this test's clock"
    # A fresh account holds one board until it has played a game to its end.
    assert refused(league, "alice", **stones) == (
        "You have a game going already: play your first game to its end before you start a "
        'second one beside it. <a href="/play/#your-games">Your games</a>')
    # Every board taken: carol and dave get places in the queue, erin is refused (its cap).
    carol, dave = league.login("carol"), league.login("dave")
    carols = league.start(carol, seat=0, **stones)
    daves = league.start(dave, seat=0, **stones)
    queued_at = time.monotonic()
    assert league.state(carol, carols)["message"] == (
        "you are 1st in the queue for a board (all 2 are taken): the game starts when one is "
        "free")
    assert league.state(dave, daves)["message"].startswith("you are 2nd in the queue")
    assert refused(league, "erin", **stones) == (
        "All 2 boards for playing against bots are taken; try again in a few minutes.")
    page = carol.get(f"{league.url}/play/{carols}/", timeout=30).text
    assert 'id="play-leave"' in page and "Leave the queue" in page
    # Carol leaves the queue: dave moves up.
    left = carol.post(f"{league.url}/play/{carols}/leave/", timeout=30, allow_redirects=False,
                      data={"csrfmiddlewaretoken": carol.cookies["csrftoken"]},
                      headers={"Referer": f"{league.url}/play/{carols}/"})
    assert left.status_code == 302 and left.headers["Location"] == f"/play/{carols}/"
    gone = league.state(carol, carols)
    assert gone["status"] == "cancelled" and gone["result"] is None
    assert league.state(dave, daves)["message"].startswith("you are 1st in the queue")
    # Nobody moves on the held boards: their first-move time frees them, and dave plays.
    league.wait_state(dave, daves, lambda s: s["status"] == "running",
                      timeout=FIRST_MOVE + MARGIN, what="dave's game to get a board")
    assert time.monotonic() - queued_at < FIRST_MOVE + MARGIN
    for who, match in zip((alice, bob), held, strict=True):
        end = league.wait_state(who, match, lambda s: s["status"] == "finished", timeout=30,
                                what="the held board's game to end")
        assert "you forfeit: timeout" in end["result"]["reason"], end["result"]
        assert f"no move within {FIRST_MOVE} s" in end["result"]["reason"]
    with league.orm():
        assert Match.objects.get(pk=carols).status == "cancelled"
    # dave's clock: the first move's time, not the move time
    state = league.wait_state(dave, daves, lambda s: s["your_turn"]
                              and s["clocks"][0]["running"], what="dave's clock")
    assert 0 < state["clocks"][0]["move_ms"] <= FIRST_MOVE * 1000
    assert league.move(dave, daves, state["legal_moves"][0], state["step"]).ok
    state = league.wait_state(dave, daves, lambda s: s["your_turn"] and s["step"] > 0,
                              what="dave's second move")
    assert state["clocks"][0]["move_ms"] > FIRST_MOVE * 1000  # the move time from now on


def test_a_game_played_to_its_end_lets_a_person_hold_two_boards(league: PlayLeague) -> None:
    erin = league.login("erin")
    stones = {"opponent": "builtin:random", "game": "stones"}
    with league.orm():  # the boards free again (the test above's games end by the clock)
        open_games = list(Match.objects.filter(kind="exhibition", status__in=[
            "queued", "running"]).values_list("pk", flat=True))
    for match in open_games:
        with league.orm():
            who = Match.objects.get(pk=match).exhibition.user.username
        league.wait_state(league.login(who), match, lambda s: s["status"] == "finished",
                          timeout=60 + MARGIN, what="the earlier games to end")
    first = league.start(erin, seat=0, **stones)
    end = league.play_out(erin, first, lambda s: s["legal_moves"][0])
    assert end["status"] == "finished"
    both = [league.start(erin, seat=0, **stones), league.start(erin, seat=0, **stones)]
    for match in both:
        league.wait_state(erin, match, lambda s: s["status"] == "running",
                          timeout=30, what="erin's games to start side by side")
