"""Matches through real workers: matchmaking → matches → ratings/scores → the board, and the
faults a platform must survive (a worker SIGKILLed mid-match, a doubled message, a lost one,
a backend that is down) without losing a match or counting one twice."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from league.bots.models import BotVersion
from league.ladders.matchmaking import ladder_fill
from league.ladders.models import Ladder, Match, MatchKind, Participant, Replay, Standing
from league.ladders.ratings import Skill, rate_match
from league.ladders.reaper import reaper_tick
from league.ladders.selectors import ladder_board
from league.ladders.services import match_create
from league.ladders.tasks import run_match_task
from tests.league import bots
from tests.league.conftest import Worker, upload, wait_for, wait_matches_done, wait_validated

pytestmark = pytest.mark.slow


def active(owner: User, game: str, name: str, source: str, worker: Worker) -> BotVersion:
    version = upload(owner, game, name, source)
    wait_validated(version, worker=worker)
    assert version.status == "active", version.reason
    return version


def test_a_rated_ladder_plays_rates_and_ranks(ladders: dict[str, Ladder], alice: User,
                                              bob: User, worker: Worker) -> None:
    ladder = ladders["stones"]
    versions = [active(alice, "stones", "first", bots.FIRST, worker),
                active(bob, "stones", "random", bots.RANDOM, worker),
                active(bob, "stones", "random2", bots.RANDOM, worker)]
    rng = random.Random(5)
    for _ in range(3):
        assert ladder_fill(ladder=ladder, target=4, rng=rng) > 0
        wait_matches_done(worker=worker)
    matches = Match.objects.filter(kind=MatchKind.LADDER)
    assert matches.count() >= 6
    assert set(matches.values_list("status", flat=True)) == {"finished"}
    assert Replay.objects.filter(match__in=matches).count() == matches.count()
    # every pairing is played twice on one seed, seats swapped
    by_seed: dict[int, list[tuple[int, int]]] = {}
    for m in matches:
        seats = tuple(m.participants.order_by("seat").values_list("version_id", flat=True))
        by_seed.setdefault(m.seed, []).append(seats)
    for pair in by_seed.values():
        assert sorted(pair) == sorted([pair[0], pair[0][::-1]])
    # one rating row per participation, chained from one match to the next
    for version in versions:
        rows = list(Participant.objects.filter(version=version, match__kind="ladder")
                    .order_by("match__finished_at"))
        standing = Standing.objects.get(version=version)
        assert standing.games == len(rows)
        assert rows[-1].mu_after == pytest.approx(standing.mu)
        assert standing.wins + standing.losses + standing.draws == standing.games
    board = ladder_board(ladder)
    assert [row.rank for row in board] == [1, 2, 3]
    assert board[0].rating >= board[1].rating >= board[2].rating


def test_a_scored_ladder_plays_every_seed_once_and_ranks_by_mean(
        ladders: dict[str, Ladder], alice: User, worker: Worker) -> None:
    ladder = ladders["g2048"]
    ladder.seeds = [11, 12, 13]
    ladder.save()
    versions = [active(alice, "g2048", "first", bots.FIRST, worker),
                active(alice, "g2048", "random", bots.RANDOM, worker)]
    for _ in range(4):
        ladder_fill(ladder=ladder, target=4, rng=random.Random(1))
        wait_matches_done(worker=worker)
    assert ladder_fill(ladder=ladder, target=4, rng=random.Random(1)) == 0, "all seeds played"
    for version in versions:
        seeds = sorted(Participant.objects.filter(version=version).values_list(
            "match__seed", flat=True))
        assert seeds == [11, 12, 13]
        standing = Standing.objects.get(version=version)
        scores = Participant.objects.filter(version=version).values_list("score", flat=True)
        assert standing.games == 3 and standing.score_sum == pytest.approx(sum(scores))
    board = ladder_board(ladder)
    assert board[0].mean >= board[1].mean and board[0].seeds == 3 and board[0].ci is not None


def pairing(worker: Worker, alice: User, bob: User, source: str = bots.SLOW
            ) -> tuple[BotVersion, BotVersion, Ladder]:
    a = active(alice, "stones", "a", source, worker)
    b = active(bob, "stones", "b", source, worker)
    return a, b, Ladder.objects.get(game="stones")


def create_match(ladder: Ladder, a: BotVersion, b: BotVersion) -> Match:
    from django.db import transaction

    with transaction.atomic():
        return match_create(ladder=ladder, kind=MatchKind.LADDER, seed=7, seats=[a, b])


def running_match(worker: Worker, alice: User, bob: User
                  ) -> tuple[BotVersion, BotVersion, Match]:
    """Two slow bots' match, once ``worker`` is playing it: for the tests that stop a worker
    mid-match."""
    a, b, ladder = pairing(worker, alice, bob)
    match = create_match(ladder, a, b)
    wait_for(lambda: Match.objects.get(pk=match.pk).status == "running", 30, "the match to run")
    return a, b, match


def assert_rated_once(match: Match, a: BotVersion, b: BotVersion,
                      attempts: int | None = None) -> None:
    """Finished with one replay and each standing rated by it once; with ``attempts``, after
    that many tries at playing it."""
    match.refresh_from_db()
    if attempts is not None:
        assert match.attempts == attempts
    assert match.status == "finished"
    assert Replay.objects.filter(match=match).count() == 1
    start = Skill()
    winner = match.result["winner"]
    expected = rate_match(start, start, winner)
    for version, skill in zip((a, b), expected, strict=True):
        standing = Standing.objects.get(version=version)
        assert standing.games == 1
        assert (standing.mu, standing.sigma) == pytest.approx((skill.mu, skill.sigma))


def test_a_worker_killed_mid_match_loses_nothing_and_counts_nothing_twice(
        ladders: dict[str, Ladder], alice: User, bob: User,
        start_worker: Callable[..., Worker]) -> None:
    first = start_worker()
    a, b, match = running_match(first, alice, bob)
    time.sleep(1.0)  # a few moves into it
    first.kill()
    assert Match.objects.get(pk=match.pk).status == "running"
    assert not Replay.objects.filter(match=match).exists()
    second = start_worker()
    # the heartbeat stopped with the worker: the reaper re-queues the match
    wait_for(lambda: match.pk in reaper_tick().requeued, 30, "the reaper to re-queue it")
    wait_for(lambda: Match.objects.get(pk=match.pk).status == "finished", 60,
             "the second worker to finish it", second.text)
    assert_rated_once(match, a, b, attempts=2)


def test_a_task_delivered_twice_runs_and_writes_once(
        ladders: dict[str, Ladder], alice: User, bob: User, worker: Worker) -> None:
    a, b, ladder = pairing(worker, alice, bob, bots.RANDOM)
    match = create_match(ladder, a, b)
    run_match_task.delay(match.pk)
    run_match_task.delay(match.pk)
    wait_matches_done(worker=worker)
    time.sleep(1.0)  # let the extra deliveries land: they must find nothing to do
    assert worker.text().count("skipped") >= 2, worker.text()
    assert_rated_once(match, a, b, attempts=1)


def test_a_lost_message_is_sent_again_by_the_reaper(
        ladders: dict[str, Ladder], alice: User, bob: User, worker: Worker) -> None:
    a, b, ladder = pairing(worker, alice, bob, bots.RANDOM)
    # a match whose message never reached the broker
    match = Match.objects.create(ladder=ladder, kind=MatchKind.LADDER, seed=3)
    Participant.objects.create(match=match, seat=0, version=a)
    Participant.objects.create(match=match, seat=1, version=b)
    time.sleep(1.0)
    assert Match.objects.get(pk=match.pk).status == "queued"
    assert match.pk in reaper_tick().resent
    wait_matches_done(worker=worker)
    assert_rated_once(match, a, b)


def test_a_backend_that_is_down_ends_the_match_failed_with_the_reason_after_retries(
        ladders: dict[str, Ladder], alice: User, bob: User,
        start_worker: Callable[..., Worker]) -> None:
    worker = start_worker(env={"DOCKER_HOST": "unix:///nonexistent/docker.sock"})
    a, b, ladder = pairing(worker, alice, bob, bots.RANDOM)
    Ladder.objects.filter(pk=ladder.pk).update(backend="docker")
    match = create_match(ladder, a, b)
    wait_for(lambda: Match.objects.get(pk=match.pk).status == "failed", 60,
             "the match to fail", worker.text)
    match.refresh_from_db()
    assert match.attempts == 3
    assert match.reason == "infrastructure"
    assert "BackendUnavailable" in match.detail and "after 3 attempts" in match.detail
    assert not Standing.objects.filter(version__in=[a, b], games__gt=0).exists()
    assert not Participant.objects.filter(match=match).exclude(forfeit="").exists()


def test_a_worker_stopped_gently_finishes_and_writes_its_match_first(
        ladders: dict[str, Ladder], alice: User, bob: User,
        start_worker: Callable[..., Worker]) -> None:
    import signal

    worker = start_worker()
    a, b, match = running_match(worker, alice, bob)
    worker.process.send_signal(signal.SIGTERM)  # warm shutdown: the match plays to its end
    assert worker.process.wait(60) == 0, worker.text()
    assert_rated_once(match, a, b)


def _sessions_opened() -> int:
    """Sessions PostgreSQL has counted on the test database (cumulative statistics)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def test_a_worker_keeps_its_database_connection_from_one_match_to_the_next(
        ladders: dict[str, Ladder], start_worker: Callable[..., Worker]) -> None:
    """Celery's Django fixup would close it around every task: ~5 ms a match to reconnect."""
    worker = start_worker(concurrency=1)
    played = 0

    def play(n: int) -> None:
        nonlocal played
        for _ in range(n):
            match = Match.objects.create(ladder=ladders["stones"], kind="challenge",
                                         seed=played)
            Participant.objects.create(match=match, seat=0, builtin="random")
            Participant.objects.create(match=match, seat=1, builtin="random")
            run_match_task.delay(match.pk)
            played += 1
        wait_matches_done(worker=worker)

    play(2)  # the worker's pool process and its result writer connect once
    time.sleep(1.5)  # sessions are counted as their statistics reach shared memory
    before = _sessions_opened()
    play(8)
    time.sleep(1.5)
    assert _sessions_opened() - before <= 2, "a new connection for every match"
