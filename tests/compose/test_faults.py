"""Faults the deployment survives: each starts with matches in flight, counts them, breaks
something, and once the league has settled checks that every one of them finished exactly
once — one replay each, every rating applied once and in a chain (tests/compose/ledger.py).
The host-process versions of some (a worker SIGKILLed, a backend down) are in
tests/league/test_matches.py; these run the same faults on the containers."""

from __future__ import annotations

import time
from typing import Any

import pytest

from benchmarks.deployment import Deployment, wait
from tests.compose.ledger import in_flight, ledger, matches
from tests.compose.scenarios import (
    assert_all_finished_once,
    broken_worker_fails_matches,
    killed_worker_loses_and_doubles_nothing,
    steady_players,
)

pytestmark = [pytest.mark.compose, pytest.mark.slow]


@pytest.fixture(scope="module")
def players(deployment: Deployment) -> list[dict[str, Any]]:
    return steady_players(deployment)


def test_a_worker_sigkilled_mid_match_loses_and_doubles_nothing(
        deployment: Deployment, players: list[dict[str, Any]]) -> None:
    killed_worker_loses_and_doubles_nothing(deployment)


def test_redis_restarted_with_its_data_gone_loses_nothing(
        deployment: Deployment, players: list[dict[str, Any]]) -> None:
    dep = deployment
    ids = in_flight(dep)
    dep.compose("restart", "-t", "1", "redis")  # keeps nothing on disk: every message gone
    dep.wait_healthy()
    assert_all_finished_once(dep, ids)


def test_postgresql_restarted_while_workers_write_loses_nothing(
        deployment: Deployment, players: list[dict[str, Any]]) -> None:
    dep = deployment
    ids = in_flight(dep, at_least=2)
    dep.compose("restart", "-t", "2", "db")
    dep.wait_healthy()
    assert_all_finished_once(dep, ids)


def test_beat_stopped_and_restarted_finishes_what_was_running_then_makes_more(
        deployment: Deployment, players: list[dict[str, Any]]) -> None:
    dep = deployment
    ids = in_flight(dep)
    dep.compose("stop", "-t", "5", "beat")
    # workers finish what they hold without beat
    wait(lambda: all(m["status"] == "finished" for m in matches(dep, ids).values()), 120,
         "the running matches to finish without beat", dep.logs)
    total = sum(ledger(dep)["statuses"].values())
    time.sleep(5)  # several matchmaking periods: nothing new without beat
    assert sum(ledger(dep)["statuses"].values()) == total
    dep.compose("start", "beat")
    wait(lambda: sum(ledger(dep)["statuses"].values()) > total, 60,
         "matchmaking to resume", lambda: dep.logs("beat"))
    assert_all_finished_once(dep, ids)


def test_a_worker_whose_sandbox_cannot_work_fails_matches_with_the_reason_not_a_loss(
        deployment: Deployment, players: list[dict[str, Any]]) -> None:
    # Started without its command's first step, which lifts Docker's masks on /proc, the
    # worker's bubblewrap cannot build a sandbox.
    dep = deployment
    broken_worker_fails_matches(
        dep, players, [dep.worker, "celery", "-A", "league", "worker", "-l", "info", "-c", "1",
                       "-n", "broken@%h"], says="bubblewrap cannot build a sandbox")
