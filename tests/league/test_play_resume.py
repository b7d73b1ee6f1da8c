"""A person's game survives its play worker: the worker SIGKILLed mid-game (its pool and its
bots with it), the reaper re-queues the match, and a new play worker resumes the game from
the moves stored so far: the person finds the same position, the same moves and their clock
where it was, and plays it to the end. On a live league (gunicorn, real play workers, a
real sandboxed bot) on PostgreSQL and Redis."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.play_league import ROOT, spawn, wait_until
from league.ladders.models import LiveMove, Match
from tests.league.conftest import wait_for
from tests.league.play_world import PlayLeague, running_play_league

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


@pytest.fixture(scope="module")
def league(django_db_setup: None, django_db_blocker: Any,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayLeague]:
    with running_play_league(django_db_blocker, tmp_path_factory, play_slots=1) as world:
        yield world


def reap(league: PlayLeague) -> list[int]:
    """One reaper tick in a process of the league's (its writes committed, as the beat's
    are): the matches it re-queued."""
    done = subprocess.run(
        [sys.executable, "-c", "import django, json; django.setup(); "
         "from league.ladders.reaper import reaper_tick; "
         "print(json.dumps(reaper_tick().requeued))"],
        cwd=ROOT, env=league.env, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


EACH = 2
"""Moves each side plays before the worker is killed."""


def test_a_game_whose_worker_is_killed_resumes_where_it_was_and_finishes(
        league: PlayLeague, tmp_path_factory: pytest.TempPathFactory) -> None:
    alice = league.login("alice")
    match = league.start(alice, opponent=str(league.cast["bots"]["stones-random"]), seat=0)
    state = league.wait_state(alice, match, lambda s: s["your_turn"])
    for _ in range(EACH):  # moves each: alice's and the bot's replies
        # a middle move: the first ones crowd a corner, and the game could end before the kill
        middle = state["legal_moves"][len(state["legal_moves"]) // 2]
        assert league.move(alice, match, middle, state["step"]).ok
        state = league.wait_state(alice, match, lambda s, step=state["step"]:
                                  s["your_turn"] and s["step"] > step)
    before = state
    assert before["step"] == 2 * EACH and before["status"] == "running"
    # SIGKILL the play worker's whole group: its main process, the pool and the bot
    os.killpg(league.play.process.pid, signal.SIGKILL)
    league.play.process.wait(30)
    with league.orm():
        assert Match.objects.get(pk=match).status == "running"  # nobody knows yet
    wait_for(lambda: match in reap(league), 30, "the reaper to re-queue the game")
    logs = tmp_path_factory.mktemp("second-play-worker")
    second = spawn("play2", [sys.executable, "-m", "celery", "-A", "league", "worker", "-l",
                             "info", "-c", "1", "-n", "play2@%h", "-Q", "play",
                             "--without-mingle", "--without-gossip", "--without-heartbeat"],
                   league.env, logs)
    try:
        wait_until(lambda: " ready." in second.text(), 60, "the second play worker", [second])
        league.play = second
        after = league.wait_state(alice, match, lambda s: s["your_turn"] and s["status"]
                                  == "running", timeout=60, what="the game to resume")
        with league.orm():
            assert Match.objects.get(pk=match).attempts == 2
            # the new attempt's own moves hold the resumed ones
            assert LiveMove.objects.filter(match_id=match, attempt=2).count() >= 2 * EACH
        # the same position, the same moves, and alice's clock where it was
        assert after["step"] == before["step"]
        assert after["moves"] == before["moves"]
        assert after["frame"]["view"] == before["frame"]["view"]
        assert after["legal_moves"] == before["legal_moves"]
        spent = sum(m["seconds"] for m in before["moves"] if m["seat"] == 0)
        assert abs(after["clocks"][0]["game_ms"] - (1800 - spent) * 1000) < 2000
        end = league.play_out(alice, match, lambda s: s["legal_moves"][0])
        assert end["status"] == "finished", end
        assert end["moves"][:2 * EACH] == before["moves"]
        record = alice.get(f"{league.url}/api/matches/{match}/replay/", timeout=30).json()
        assert [m["move"] for m in record["moves"][:2 * EACH]] == [m["move"] for m in
                                                             before["moves"]]
    finally:
        second.stop()
