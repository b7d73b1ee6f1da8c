"""Reads for the operator: the platform's state in a fixed handful of bounded queries, however
many matches the league has played (each is an indexed count, a grouped count, or LIMITed)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, Q
from django.utils import timezone

from league.ladders.models import Match, MatchStatus
from league.ladders.queues import ladders_first_queued
from league.ops.models import WorkerPresence

FAILURE_WINDOW = timedelta(hours=24)
RECENT_FAILURES = 10
MAX_WORKERS_LISTED = 200
NEXT_LISTED = 3
"""Queued matches listed per ladder: the first to start."""


@dataclass(frozen=True)
class WorkerRow:
    name: str
    concurrency: int
    busy: int
    alive: bool
    seen_seconds_ago: float
    backend: str


@dataclass(frozen=True)
class QueuedRow:
    match: int
    ahead: int
    """Queued matches of the league before it."""
    wait_seconds: float | None
    """A guess at when it starts: the matches before it at the last 5 minutes' pace."""


@dataclass(frozen=True)
class LadderQueue:
    ladder: str
    queued: int
    running: int
    next: list[QueuedRow] = field(default_factory=list)
    """Its first queued matches (``NEXT_LISTED``)."""


@dataclass(frozen=True)
class FailureRow:
    match: int
    ladder: str
    reason: str
    detail: str
    attempts: int
    finished_at: datetime | None


@dataclass(frozen=True)
class PlatformStatus:
    now: datetime
    workers: list[WorkerRow]
    workers_alive: int
    slots_alive: int
    busy: int
    queues: list[LadderQueue]
    queued: int
    running: int
    oldest_queued_match: int | None
    oldest_queued_seconds: float | None
    finished_last_minute: int
    finished_last_5_minutes: int
    failures_by_reason: dict[str, int]
    recent_failures: list[FailureRow] = field(default_factory=list)
    broker_waiting: int | None = None
    """Messages waiting in the broker (None: could not ask)."""

    @property
    def matches_per_minute(self) -> float:
        """Over the last five minutes: steadier than the last one alone."""
        return self.finished_last_5_minutes / 5

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["matches_per_minute"] = self.matches_per_minute
        return data


def alive_after(now: datetime) -> datetime:
    """A worker silent for three beats is taken for lost."""
    return now - timedelta(seconds=3 * settings.LEAGUE_WORKER_BEAT_SECONDS)


def platform_status(*, now: datetime | None = None, with_failures: bool = True
                    ) -> PlatformStatus:
    now = now or timezone.now()
    fresh = alive_after(now)
    running_by = Match.objects.filter(status__open=True, status=MatchStatus.RUNNING).values(
        "claimed_by").annotate(n=Count("id"))
    busy_by_host: dict[str, int] = {}
    for row in running_by:  # at most one row per busy worker process
        host = row["claimed_by"].rsplit(":", 1)[0]
        busy_by_host[host] = busy_by_host.get(host, 0) + row["n"]
    workers = [WorkerRow(name=w.name, concurrency=w.concurrency,
                         busy=busy_by_host.get(w.name, 0), alive=w.seen_at >= fresh,
                         seen_seconds_ago=(now - w.seen_at).total_seconds(), backend=w.backend)
               for w in WorkerPresence.objects.order_by("name")[:MAX_WORKERS_LISTED]]
    queues: dict[str, dict[str, int]] = {}
    for row in Match.objects.filter(status__open=True
                                    ).values("ladder__slug", "status").annotate(n=Count("id")):
        queues.setdefault(row["ladder__slug"], {})[row["status"]] = row["n"]
    done = Match.objects.filter(status=MatchStatus.FINISHED,
                                finished_at__gte=now - timedelta(minutes=5)).aggregate(
        five=Count("id"), one=Count("id", filter=Q(finished_at__gte=now - timedelta(minutes=1))))
    first = ladders_first_queued(shown=NEXT_LISTED, per_minute=done["five"] / 5)
    ladder_queues = [LadderQueue(ladder=slug, queued=c.get("queued", 0),
                                 running=c.get("running", 0),
                                 next=[QueuedRow(q.match_id, q.ahead, q.wait)
                                       for q in first.get(slug, [])])
                     for slug, c in sorted(queues.items())]
    oldest = (Match.objects.filter(status__open=True, status=MatchStatus.QUEUED)
              .order_by("created_at", "pk")
              .values("pk", "created_at").first())
    failures: dict[str, int] = {}
    recent: list[FailureRow] = []
    if with_failures:
        failed = Match.objects.filter(status=MatchStatus.FAILED,
                                      finished_at__gte=now - FAILURE_WINDOW)
        failures = {r["reason"] or "?": r["n"]
                    for r in failed.values("reason").annotate(n=Count("id")).order_by("-n")}
        recent = [FailureRow(match=m["pk"], ladder=m["ladder__slug"], reason=m["reason"],
                             detail=m["detail"][:500], attempts=m["attempts"],
                             finished_at=m["finished_at"])
                  for m in failed.order_by("-finished_at").values(
                      "pk", "ladder__slug", "reason", "detail", "attempts",
                      "finished_at")[:RECENT_FAILURES]]
    alive = [w for w in workers if w.alive]
    return PlatformStatus(
        now=now, workers=workers, workers_alive=len(alive),
        slots_alive=sum(w.concurrency for w in alive),
        busy=sum(r["n"] for r in running_by),
        queues=ladder_queues, queued=sum(q.queued for q in ladder_queues),
        running=sum(q.running for q in ladder_queues),
        oldest_queued_match=oldest["pk"] if oldest else None,
        oldest_queued_seconds=(now - oldest["created_at"]).total_seconds() if oldest else None,
        finished_last_minute=done["one"], finished_last_5_minutes=done["five"],
        failures_by_reason=failures, recent_failures=recent,
        broker_waiting=broker_waiting())


def broker_waiting() -> int | None:
    """Messages in the broker's default queue: Redis's list length, or the files of the
    embedded filesystem broker. None when the broker cannot be asked."""
    try:
        if settings.REDIS_URL:
            import redis

            client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1,
                                          socket_connect_timeout=1)
            try:
                return int(client.llen("celery"))
            finally:
                client.close()
        return sum(1 for _ in (settings.BROKER_DIR / "queue").iterdir())
    except Exception:
        return None


def database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except Exception:
        return False
