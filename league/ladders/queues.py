"""What is queued and running, for a ladder's page, a version's page and the status page, and
a guess at when a queued match starts.

The guess: the workers play the match queue roughly first in, first out (matches are sent
to it in the order they are made, and ids follow that order), so a queued match starts once
the matches queued before it and itself have been taken, at the pace the league finished
matches over the last ``RATE_WINDOW``. It is a guess and the pages say so: a worker lost, a
long match, a tournament's burst all move it. Every read here is a few bounded queries on the
index of open matches (``match_open``, whose rows are only those queued or running: tens,
not the league's history) and the index of finished times.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from league.ladders.kinds import PERSON_KINDS
from league.ladders.models import OPEN_STATUSES, Ladder, Match, MatchStatus, Participant

RATE_WINDOW = timedelta(minutes=5)
"""The pace of the queue is the matches finished over this long (the status page's too)."""
NEXT_SHOWN = 5
"""Queued matches a ladder's page lists, the first to start."""


def finished_per_minute(*, now: datetime | None = None) -> float:
    """Matches the league finished a minute, over the last ``RATE_WINDOW``: all ladders'
    and competitions' alike, as they share the match queue's workers."""
    now = now or timezone.now()
    # the status in the count, not the filter: the finished-time index alone is read (with
    # status in the WHERE, SQLite without statistics walked every finished match)
    done = Match.objects.filter(finished_at__gte=now - RATE_WINDOW).aggregate(
        n=Count("id", filter=Q(status=MatchStatus.FINISHED)))["n"]
    return done / (RATE_WINDOW.total_seconds() / 60)


def wait_seconds(ahead: int, per_minute: float) -> float | None:
    """Seconds until a match with ``ahead`` queued matches before it starts, at
    ``per_minute``: it starts as the (ahead + 1)-th match from now ends and frees a slot.
    None when nothing finished lately: no pace to guess from."""
    if per_minute <= 0:
        return None
    return (ahead + 1) * 60.0 / per_minute


def _match_queue() -> QuerySet[Match]:
    """The queued matches of the match queue (a person's game goes to the play queue)."""
    return (Match.objects.filter(status__open=True, status=MatchStatus.QUEUED)
            .exclude(kind__in=PERSON_KINDS))


@dataclass(frozen=True)
class Queued:
    match_id: int
    ahead: int
    """Queued matches of the league before it (every ladder's: the workers are shared)."""
    wait: float | None
    """The guess at the seconds until it starts (``wait_seconds``)."""


@dataclass(frozen=True)
class LadderQueue:
    """A ladder's open matches: how many are queued and running, its first few queued
    with a guess at when each starts, and the pace the guesses come from."""

    queued: int
    running: int
    per_minute: float
    next: list[Queued] = field(default_factory=list)
    queued_everywhere: int = 0
    """The league's queued matches, this ladder's and every other's."""

    @property
    def drained(self) -> float | None:
        """The guess at when a match made now would start: after the whole queue."""
        return wait_seconds(self.queued_everywhere, self.per_minute)


def _ahead(match_ids: list[int]) -> dict[int, int]:
    """For each queued match, the queued matches of the match queue with a smaller id: one
    count per match, in one query (a few matches, over the few rows of the open index)."""
    if not match_ids:
        return {}
    queue = _match_queue()
    counts = queue.aggregate(**{f"m{pk}": Count("id", filter=Q(pk__lt=pk))
                                for pk in match_ids})
    return {pk: counts[f"m{pk}"] for pk in match_ids}


_PERSON = ", ".join(f"'{kind}'" for kind in PERSON_KINDS) or "''"
_OPEN = ", ".join(f"'{status.value}'" for status in OPEN_STATUSES)
_QUEUED = f"status IN ({_OPEN}) AND status = '{MatchStatus.QUEUED.value}'"
"""Queued, as the open index's condition is written first: SQLite uses a partial index only
when a query's terms repeat its condition (``models.OpenStatus``)."""
LADDER_QUEUE_SQL = f"""
SELECT 'q', q.id, NULL, q.ahead FROM (
  SELECT id, ladder_id, row_number() OVER (ORDER BY id) - 1 AS ahead
  FROM ladders_match WHERE {_QUEUED} AND kind NOT IN ({_PERSON})
) q WHERE q.ladder_id = %(ladder)s
UNION ALL
SELECT 'c', NULL, status, count(*) FROM ladders_match
WHERE status IN ({_OPEN}) AND ladder_id = %(ladder)s GROUP BY status
UNION ALL
SELECT 'a', NULL, NULL, count(*) FROM ladders_match
WHERE {_QUEUED} AND kind NOT IN ({_PERSON})
UNION ALL
SELECT 'f', NULL, NULL, count(CASE WHEN status = '{MatchStatus.FINISHED.value}' THEN 1 END)
FROM ladders_match WHERE finished_at >= %(since)s
"""
"""A ladder's queue in one statement, four kinds of rows: its queued matches, each with the
league's queued matches before it (``q``); its open matches counted by status (``c``); the
league's queued matches (``a``); the matches finished since the pace's window opened
(``f``). The queued and open ones are read from the open index (tens of rows, never the
league's history; statuses and kinds written into the SQL, as the index's condition is),
the finished ones from the index of finished times (their status tested in the count, not
the WHERE: there SQLite, without statistics, walked the (status, heartbeat) index over every
finished match). ``q`` rows are many only while the
ladder's queue is long; the caller keeps the first few."""


def ladder_queue(*, ladder: Ladder, shown: int = NEXT_SHOWN, now: datetime | None = None
                 ) -> LadderQueue:
    """The ladder's queue: its open counts, its first ``shown`` queued with the guesses,
    the league's queue and pace; one query."""
    now = now or timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(LADDER_QUEUE_SQL, {
            "ladder": ladder.pk,
            "since": connection.ops.adapt_datetimefield_value(now - RATE_WINDOW)})
        rows = cursor.fetchall()
    first = sorted((pk, n) for tag, pk, _, n in rows if tag == "q")[:shown]
    counts = {status: n for tag, _, status, n in rows if tag == "c"}
    everywhere = next((n for tag, _, _, n in rows if tag == "a"), 0)
    done = next((n for tag, _, _, n in rows if tag == "f"), 0)
    per_minute = done / (RATE_WINDOW.total_seconds() / 60)
    return LadderQueue(
        queued=counts.get(MatchStatus.QUEUED.value, 0),
        running=counts.get(MatchStatus.RUNNING.value, 0),
        per_minute=per_minute, queued_everywhere=everywhere,
        next=[Queued(pk, ahead, wait_seconds(ahead, per_minute)) for pk, ahead in first])


FIRST_QUEUED_SQL = f"""
SELECT l.slug, q.id, q.ahead FROM (
  SELECT id, ladder_id, row_number() OVER (ORDER BY id) - 1 AS ahead,
         row_number() OVER (PARTITION BY ladder_id ORDER BY id) AS nth
  FROM ladders_match WHERE {_QUEUED} AND kind NOT IN ({_PERSON})
) q
JOIN ladders_ladder l ON l.id = q.ladder_id
WHERE q.nth <= %s ORDER BY q.id
"""
"""Each ladder's first queued matches, each with the league's queued matches before it: one
pass over the queued rows (the open index's), however many ladders. The status and kinds
are written into the SQL (constants), as the open index's condition is."""


def ladders_first_queued(*, shown: int = 3, per_minute: float) -> dict[str, list[Queued]]:
    """By ladder slug: its first ``shown`` queued matches with the guess at each one's
    start, for the status page."""
    found: dict[str, list[Queued]] = {}
    with connection.cursor() as cursor:
        cursor.execute(FIRST_QUEUED_SQL, [shown])
        for slug, pk, ahead in cursor.fetchall():
            found.setdefault(slug, []).append(Queued(pk, ahead, wait_seconds(ahead, per_minute)))
    return found


@dataclass(frozen=True)
class NextGame:
    """A version's next game: running now, queued (with the guess), or not made yet."""

    running: int | None = None
    """The match it is playing now, if any."""
    queued: Queued | None = None
    """Its first queued match, if any."""
    per_minute: float = 0.0
    queue_length: int = 0
    """The league's queued matches: a version with none queued waits for matchmaking to pair
    it, which it does as the queue runs down."""

    @property
    def unpaired_wait(self) -> float | None:
        """The guess for a version with nothing queued: after the queue there is now."""
        return wait_seconds(self.queue_length, self.per_minute)


def next_game(*, version_id: int, now: datetime | None = None) -> NextGame:
    """The version's next game, in four bounded queries: its open matches (found from the
    few open matches, each probing the participants' (match, seat) index, never from the
    version's history), the matches ahead of its first queued, the queue's length and the
    league's pace."""
    open_now = Match.objects.filter(status__open=True).values("pk")
    mine = list(Participant.objects.filter(version_id=version_id, match_id__in=open_now)
                .order_by("match_id").values_list("match_id", "match__status")[:20])
    running = next((pk for pk, status in mine if status == MatchStatus.RUNNING), None)
    first = next((pk for pk, status in mine if status == MatchStatus.QUEUED), None)
    per_minute = finished_per_minute(now=now)
    length = _match_queue().count()
    queued = None
    if first is not None:
        ahead = _ahead([first])[first]
        queued = Queued(first, ahead, wait_seconds(ahead, per_minute))
    return NextGame(running=running, queued=queued, per_minute=per_minute,
                    queue_length=length)


def wait_words(seconds: float | None) -> str:
    """A guessed wait as a page says it: "about 3 min", "under a minute", or that no pace
    is known."""
    if seconds is None:
        return "unknown: no match finished in the last 5 minutes"
    if seconds < 60:
        return "under a minute"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"about {minutes} min"
    return f"about {minutes / 60:.1f} h"
