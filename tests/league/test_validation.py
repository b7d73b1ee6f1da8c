"""Validation through a real Celery worker: a version that plays becomes active; one that
crashes, times out, plays an illegal move or does not compile is rejected with that reason
and its log, and the bot's previous active version stays."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from league.bots.models import Bot
from league.ladders.models import Ladder, Match, Standing
from tests.league import bots
from tests.league.conftest import Worker, upload, wait_validated

pytestmark = pytest.mark.slow


def test_a_version_that_plays_becomes_active_and_joins_the_board(
        ladders: dict[str, Ladder], alice: User, worker: Worker) -> None:
    version = upload(alice, "stones", "steady", bots.RANDOM)
    wait_validated(version, worker=worker)
    assert version.status == "active", version.reason
    assert Bot.objects.get(pk=version.bot_id).active_version_id == version.pk
    standing = Standing.objects.get(version=version)
    assert standing.sigma == pytest.approx(25 / 3)
    match = Match.objects.get(kind="validation")
    assert match.status == "finished" and match.attempts == 1
    assert match.replay.record()["moves"], "the smoke match was recorded"


@pytest.mark.parametrize(("source", "reason", "log"), [
    (bots.CRASH, "crash: exited with code 3", "oh no"),
    (bots.TIMEOUT, "timeout: no move within", "thinking very hard"),
    (bots.ILLEGAL, "illegal: '99,99': cell (99,99) is off the 5x5 board", "my luck"),
])
def test_a_version_that_forfeits_is_rejected_with_the_reason_and_its_log(
        ladders: dict[str, Ladder], alice: User, worker: Worker, source: str, reason: str,
        log: str) -> None:
    Ladder.objects.filter(game="stones").update(limits={"move_time": 0.5,
                                                        "startup_time": 2.0})
    good = upload(alice, "stones", "mybot", bots.RANDOM)
    wait_validated(good, worker=worker)
    bad = upload(alice, "stones", "mybot", source)
    wait_validated(bad, worker=worker)
    assert bad.status == "rejected"
    assert bad.reason.startswith(reason), bad.reason
    assert log in bad.log
    assert Bot.objects.get(pk=bad.bot_id).active_version_id == good.pk
    good.refresh_from_db()
    assert good.status == "active"
    assert not Standing.objects.filter(version=bad).exists()


def test_a_cpp_version_that_does_not_compile_is_rejected_with_the_compilers_output(
        ladders: dict[str, Ladder], alice: User, worker: Worker) -> None:
    bad = upload(alice, "stones", "cppbot", bots.BROKEN_CPP, filename="main.cpp")
    wait_validated(bad, timeout=180, worker=worker)
    assert bad.status == "rejected"
    assert bad.reason.startswith("compile:"), bad.reason
    assert "error" in bad.log and "main.cpp" in bad.log
    assert Bot.objects.get(pk=bad.bot_id).active_version_id is None


def test_a_solo_version_is_validated_on_the_ladders_first_seed_and_scored(
        ladders: dict[str, Ladder], alice: User, worker: Worker) -> None:
    version = upload(alice, "g2048", "sliding", bots.FIRST)
    wait_validated(version, worker=worker)
    assert version.status == "active", version.reason
    match = Match.objects.get(kind="validation")
    assert match.seed == ladders["g2048"].seeds[0]
    assert match.participants.count() == 1
    standing = Standing.objects.get(version=version)
    assert standing.games == 1 and standing.score_sum == match.participants.get().score
