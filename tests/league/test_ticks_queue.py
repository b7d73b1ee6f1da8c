"""The beat's ticks run on a queue and a worker of their own: matches keep flowing at their
rate while a tick takes its time, and the ticks (and the competitions' bell) are routed there
by name."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.auth.models import User

from league.celery import app
from league.ladders.kinds import COMPETITION_ENDED_TASK
from league.ladders.models import Ladder, Match, MatchKind, Participant
from league.ladders.tasks import run_match_task
from tests.league.conftest import Worker, wait_for

pytestmark = pytest.mark.slow


def test_ticks_are_routed_to_their_own_queue() -> None:
    for name in ("league.ladders.tasks.matchmaking_tick", "league.ladders.tasks.reaper_tick",
                 "league.competitions.tasks.competitions_tick", COMPETITION_ENDED_TASK):
        assert app.amqp.router.route({}, name)["queue"].name == settings.LEAGUE_TICK_QUEUE
    assert app.amqp.router.route({}, "league.ladders.tasks.run_match_task")["queue"].name \
        == settings.LEAGUE_MATCH_QUEUE


def matches(ladder: Ladder, n: int) -> list[int]:
    ids = []
    for seed in range(n):
        match = Match.objects.create(ladder=ladder, kind=MatchKind.CHALLENGE, seed=seed)
        Participant.objects.create(match=match, seat=0, builtin="random")
        Participant.objects.create(match=match, seat=1, builtin="random")
        ids.append(match.pk)
    return ids


def play(ids: list[int]) -> float:
    start = time.monotonic()
    for pk in ids:
        run_match_task.delay(pk)
    wait_for(lambda: Match.objects.filter(pk__in=ids, status="finished").count() == len(ids),
             120, "the matches to finish")
    return time.monotonic() - start


def test_matches_keep_their_rate_while_a_tick_is_slow(
        ladders: dict[str, Ladder], alice: User, start_worker: Callable[..., Worker]) -> None:
    start_worker(concurrency=1, queues=settings.LEAGUE_MATCH_QUEUE)
    ticks = start_worker(concurrency=1, queues=settings.LEAGUE_TICK_QUEUE,
                         include="tests.league.slow_tick")
    ladder = ladders["stones"]
    alone = play(matches(ladder, 8))
    app.send_task("tests.slow_tick", (30,), queue=settings.LEAGUE_TICK_QUEUE)
    wait_for(lambda: "tests.slow_tick" in ticks.text(), 20, "the slow tick to start")
    during = play(matches(ladder, 8))
    assert "succeeded" not in ticks.text().split("tests.slow_tick")[-1], \
        "the tick ended before the matches did: the test proved nothing"
    assert during < alone * 1.5 + 1, f"matches slowed by a tick: {during:.1f} s vs {alone:.1f} s"
