"""The operator's status page, its JSON and the health endpoint: who may see them, what they
say, and that they read in a bounded number of queries however much the league has played."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league.ladders.models import Match, MatchStatus
from league.ops.models import WorkerPresence
from league.ops.selectors import platform_status
from tests.league.conftest import People
from tests.league.pages import active, finished

STAFF_URLS = ["/ops/", "/ops/status.json"]


@pytest.mark.parametrize("url", STAFF_URLS)
def test_anonymous_visitors_are_refused_the_status(client: Client, people: People,
                                                   url: str) -> None:
    response = client.get(url)
    if url.endswith(".json"):
        assert response.status_code == 403
    else:
        assert response.status_code == 302 and "/account/login/" in response["Location"]


@pytest.mark.parametrize("url", STAFF_URLS)
def test_a_user_who_is_not_staff_is_refused_the_status(client: Client, people: People,
                                                       url: str) -> None:
    client.force_login(people.alice)
    assert client.get(url).status_code == 403


def failed_match(people: People, reason: str, detail: str) -> Match:
    match = finished(active(people.alice, f"f{Match.objects.count()}"),
                     active(people.bob, f"g{Match.objects.count()}"))
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FAILED, reason=reason,
                                             detail=detail, attempts=3)
    return match


def test_staff_see_workers_queues_rate_failures_and_the_oldest_queued_match(
        client: Client, people: People) -> None:
    now = timezone.now()
    WorkerPresence.objects.create(name="w1", concurrency=2, started_at=now, seen_at=now)
    WorkerPresence.objects.create(name="w2", concurrency=1, started_at=now,
                                  seen_at=now - timedelta(minutes=10))
    a, b = active(people.alice, "a"), active(people.bob, "b")
    for _ in range(3):
        finished(a, b)
    running = finished(a, b)
    Match.objects.filter(pk=running.pk).update(status=MatchStatus.RUNNING, claimed_by="w1:77",
                                               finished_at=None)
    queued = finished(a, b)
    Match.objects.filter(pk=queued.pk).update(status=MatchStatus.QUEUED, finished_at=None,
                                              created_at=now - timedelta(seconds=90))
    failed_match(people, "infrastructure", "after 3 attempts: BackendUnavailable: no engine")
    client.force_login(people.sam)
    data = client.get("/ops/status.json").json()
    assert data["workers_alive"] == 1 and data["slots_alive"] == 2 and data["busy"] == 1
    assert {w["name"]: (w["alive"], w["busy"]) for w in data["workers"]} == {
        "w1": (True, 1), "w2": (False, 0)}
    assert data["queues"] == [{"ladder": "stones", "queued": 1, "running": 1, "next": [
        {"match": queued.pk, "ahead": 0, "wait_seconds": pytest.approx(100.0)}]}]
    assert data["oldest_queued_match"] == queued.pk
    assert data["oldest_queued_seconds"] == pytest.approx(90, abs=10)
    assert data["finished_last_5_minutes"] == 3 and data["matches_per_minute"] == 0.6
    assert data["failures_by_reason"] == {"infrastructure": 1}
    assert "BackendUnavailable" in data["recent_failures"][0]["detail"]
    page = client.get("/ops/").content.decode()
    for text in ("1 worker alive", "lost", "infrastructure", "BackendUnavailable",
                 f"#{queued.pk}"):
        assert text in page


def test_the_health_endpoint_says_degraded_without_a_live_worker(client: Client,
                                                                  people: People) -> None:
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["status"] == "degraded" and response.json()["workers_alive"] == 0
    now = timezone.now()
    WorkerPresence.objects.create(name="w1", concurrency=1, started_at=now, seen_at=now)
    body = client.get("/health/").json()
    assert body["status"] == "ok" and body["database"] == "ok" and body["broker"] == "ok"
    assert "recent_failures" not in body  # details are for staff


@pytest.mark.parametrize("n", [3, 30])
def test_the_status_reads_in_a_fixed_number_of_queries(people: People, n: int) -> None:
    now = timezone.now()
    for i in range(n):
        WorkerPresence.objects.create(name=f"w{i}", concurrency=1, started_at=now, seen_at=now)
    a = active(people.alice, "a")
    for i in range(n):
        match = finished(a, active(people.bob, f"b{i}"))
        if i % 3 == 0:
            Match.objects.filter(pk=match.pk).update(status=MatchStatus.FAILED, reason="x")
        elif i % 3 == 1:
            Match.objects.filter(pk=match.pk).update(status=MatchStatus.RUNNING,
                                                     claimed_by=f"w{i}:1")
    with CaptureQueriesContext(connection) as queries:
        platform_status()
    # running, workers, queues, oldest, rate, each ladder's first queued, failures, recent
    assert len(queries) == 8


@pytest.mark.slow
def test_a_real_worker_reports_itself_alive_and_leaves_the_list_when_stopped(
        start_worker, client: Client) -> None:
    import signal

    from tests.league.conftest import wait_for

    worker = start_worker(concurrency=2)
    wait_for(lambda: WorkerPresence.objects.filter(concurrency=2).exists(), 30,
             "the worker's presence row", worker.text)
    assert client.get("/health/").json()["workers_alive"] == 1
    worker.process.send_signal(signal.SIGTERM)
    assert worker.process.wait(60) == 0
    assert not WorkerPresence.objects.exists()


def test_a_monitor_reads_the_status_json_with_a_staff_members_api_token(
        client: Client, people: People) -> None:
    from league.accounts.services import token_create

    staff_token = token_create(user=people.sam, name="monitor")[1]
    user_token = token_create(user=people.alice, name="laptop")[1]
    assert client.get("/ops/status.json",
                      HTTP_AUTHORIZATION=f"Bearer {staff_token}").status_code == 200
    assert client.get("/ops/status.json",
                      HTTP_AUTHORIZATION=f"Bearer {user_token}").status_code == 403
    assert client.get("/ops/status.json", HTTP_AUTHORIZATION="Bearer blt_x_y").status_code == 403
