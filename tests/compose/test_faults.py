"""Faults the deployment survives: each starts with matches in flight, counts them, breaks
something, and once the league has settled checks that every one of them finished exactly
once — one replay each, every rating applied once and in a chain (tests/compose/ledger.py).
The host-process versions of some (a worker SIGKILLed, a backend down) are in
tests/league/test_matches.py; these run the same faults on the containers."""

from __future__ import annotations

import subprocess
import time
from typing import Any

import pytest

from tests.compose.deployment import Deployment, wait
from tests.compose.ledger import in_flight, ledger, matches, set_matchmaking, settle
from tests.league import bots

pytestmark = [pytest.mark.compose, pytest.mark.slow]


@pytest.fixture(scope="module")
def players(deployment: Deployment) -> list[dict[str, Any]]:
    """Two slow bots on Stones (0.3 s a move): matches last long enough to be hit mid-way."""
    token = deployment.token("carol")
    versions = [deployment.upload(token, "stones", f"steady{i}", bots.SLOW + f"# {i}\n")
                for i in range(2)]
    wait(lambda: all(deployment.get(f"/api/versions/{v['id']}/")["status"] == "active"
                     for v in versions), 120, "validation", deployment.logs)
    return versions


def assert_all_finished_once(dep: Deployment, ids: list[int]) -> dict[str, Any]:
    books = settle(dep)
    assert books["problems"] == [], books["problems"]
    ended = matches(dep, ids)
    assert {m: row["status"] for m, row in ended.items()} == dict.fromkeys(ids, "finished"), \
        ended
    return books


def docker(*args: str) -> None:
    subprocess.run(["docker", *args], check=True, capture_output=True, timeout=120)


def test_a_worker_sigkilled_mid_match_loses_and_doubles_nothing(
        deployment: Deployment, players: list[dict[str, Any]]) -> None:
    dep = deployment
    for _ in range(5):  # a match may end between our look and the kill: look again
        ids = in_flight(dep)
        host = dep.shell(f"from league.ladders.models import Match\n"
                         f"result = Match.objects.get(pk={ids[0]}).claimed_by.split(':')[0]")
        victim = next(c for c in dep.containers("worker") if c.startswith(host))
        docker("kill", "--signal", "KILL", victim)  # the worker and its pool: no goodbye
        killed = dep.shell(f"from league.ladders.models import Match\n"
                           f"result = list(Match.objects.filter(status='running', "
                           f"claimed_by__startswith={host + ':'!r}).values_list('pk', flat=True))")
        docker("start", victim)  # the machine comes back
        if killed:
            break
    assert killed, "no match was running on the killed worker"
    books = assert_all_finished_once(dep, ids + killed)
    for match_id in killed:  # played again after the reaper took the match back
        assert books["attempts"].get(str(match_id), 1) >= 2, books["attempts"]


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


def test_a_worker_whose_sandbox_backend_is_gone_fails_matches_with_the_reason_not_a_loss(
        deployment: Deployment, players: list[dict[str, Any]]) -> None:
    dep = deployment
    settle(dep)
    set_matchmaking(dep, False)
    dep.compose("stop", "-t", "60", "worker")
    broken = dep.compose("run", "-d", "--no-deps", "-e",
                         "DOCKER_HOST=unix:///nonexistent/docker.sock", "worker").stdout.split()
    broken_id = broken[-1] if broken else ""
    try:
        a, b = (p["id"] for p in players)
        match_id = dep.shell(f"""
from django.db import transaction
from league.bots.models import BotVersion
from league.ladders.models import Ladder
from league.ladders.services import match_create
with transaction.atomic():
    result = match_create(ladder=Ladder.objects.get(game="stones"), kind="ladder", seed=5,
                          seats=[BotVersion.objects.get(pk={a}), BotVersion.objects.get(pk={b})]).pk
""")
        wait(lambda: matches(dep, [match_id])[match_id]["status"] == "failed", 120,
             "the match to fail after its retries", lambda: dep.logs(tail=100))
        row = matches(dep, [match_id])[match_id]
        assert row["attempts"] == 3 and row["reason"] == "infrastructure"
        assert "BackendUnavailable" in row["detail"] and "after 3 attempts" in row["detail"]
        forfeits = dep.shell(f"from league.ladders.models import Participant\n"
                             f"result = list(Participant.objects.filter(match_id={match_id})"
                             f".values_list('forfeit', 'mu_after'))")
        assert forfeits == [["", None], ["", None]]  # nobody lost, nobody was rated
        assert ledger(dep)["problems"] == []
    finally:
        if broken_id:
            subprocess.run(["docker", "rm", "-f", broken_id], capture_output=True, check=False)
        dep.compose("start", "worker")
        set_matchmaking(dep, True)
