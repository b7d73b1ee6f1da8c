"""The match lifecycle: every change of a match's status goes through this module, and the
sets of statuses that pages, matchmaking and the reaper ask about live here.

::

    queued ──claim──▶ running ──finish──▶ finished
      │  ▲              │ │
      │  └──retry, lost─┘ └──fail──▶ failed ──rerun──┐
      └──cancel──▶ cancelled ──rerun─────────────────┴──▶ queued

Each change is one conditional UPDATE: the row moves only from a status the table below
allows, and only while the caller's guard holds (its claim token, a heartbeat's age), so two
processes that race for one row never both win. The claim is written in SQL (``claim_row``):
it runs between every two matches on a worker's critical path.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from league.celery import app as celery_app
from league.ladders.kinds import kind_of
from league.ladders.models import OPEN_STATUSES, Match, MatchStatus
from league.logs import match_fields

log = logging.getLogger(__name__)

QUEUED, RUNNING = MatchStatus.QUEUED, MatchStatus.RUNNING
FINISHED, FAILED, CANCELLED = MatchStatus.FINISHED, MatchStatus.FAILED, MatchStatus.CANCELLED

OPEN = OPEN_STATUSES
"""Still to be played, or playing. Filter on ``status__open=True`` rather than
``status__in=OPEN`` where only open matches are wanted: that one reaches the index of open
matches on SQLite too (``models.OpenStatus``)."""
ENDED = (FINISHED, FAILED, CANCELLED)
PLAYED = (FINISHED, FAILED)
"""What lists of matches show: played to the end, or given up on (cancelled ones never
started)."""

MOVES: dict[MatchStatus, tuple[MatchStatus, ...]] = {
    QUEUED: (RUNNING, CANCELLED),
    RUNNING: (FINISHED, FAILED, QUEUED),
    FAILED: (QUEUED,),
    CANCELLED: (QUEUED,),
    FINISHED: (),
}
"""The statuses each status may move to."""

RUN_MATCH_TASK = "league.ladders.tasks.run_match_task"
"""The task that plays a match, named here so that ringing the doorbell needs no import of
the tasks (which import everything else)."""

def match_move(matches: QuerySet[Match], to: MatchStatus, **fields: Any) -> int:
    """Move the rows of ``matches`` that may move to ``to`` there, with ``fields``; returns
    how many moved. ``matches`` carries the caller's guard."""
    sources = [status for status, targets in MOVES.items() if to in targets]
    return matches.filter(status__in=sources).update(status=to, **fields)


def claim_row(*, match_id: int, worker: str, token: str) -> tuple[Any, ...] | None:
    """``queued → running`` for exactly one caller, however often its task is delivered:
    ``(attempt, kind, seed, ladder_id)`` of the claimed row, or None."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Match._meta.db_table} SET status = %s, attempts = attempts + 1, "
            "claimed_by = %s, claim_token = %s, heartbeat_at = %s, started_at = %s "
            "WHERE id = %s AND status = %s RETURNING attempts, kind, seed, ladder_id",
            [RUNNING, worker[:200], token, now, now, match_id, QUEUED])
        return cursor.fetchone()


def tell_end(*, match_id: int, kind: str) -> None:
    """After a match has ended (its result committed), tell the app its kind belongs to
    (``Kind.told``: a competition's bell, a message to the ticks' worker, which moves it on at
    once — a round's last game pairs the next round, and the next games are released —
    without waiting for the beat). Not here: this runs in a match worker's writing thread,
    whose process plays the next match, and pairing a round there slowed that match
    (docs/benchmarks.md, "Tournaments: overhead"). A message lost or not sent is only a delay:
    the beat's tick does the same work."""
    task = kind_of(kind).told
    if not task:
        return
    try:
        celery_app.send_task(task, (match_id,))
    except Exception:
        log.exception("match %s: the end could not be told to %s; the beat will move it on",
                      match_id, task, extra=match_fields(match_id))


def remade_if_lost(*, lock_ladders: Sequence[int] = ()) -> None:
    """Lets the current transaction's commit return without waiting for the disk (PostgreSQL;
    ~8 ms on this project's machines, the largest cost of a fill or a round's pairing).

    Only for what the beat's ticks would make again if the database lost its last moments:
    new matches nobody has played, their enqueued stamps, a tournament's next round and the
    games it releases. Nothing is lost that anything else depends on: the WAL is written in
    order, so the first commit that does wait (a claim, a result) makes these durable too.

    ``lock_ladders``: the same statement also takes those ladders' row locks (matchmaking's
    one filler a ladder at a time), in id order, so two fillers never wait on each other
    crosswise; a round trip fewer on every fill. ``NO KEY UPDATE``: the lock keeps fillers
    apart and does not hold up anyone inserting a match of the ladder meanwhile (a foreign
    key's check only shares the key). On SQLite, neither: its transactions take the write
    lock first."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            if not lock_ladders:
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
            else:
                cursor.execute(
                    "SELECT set_config('synchronous_commit', 'off', true) FROM ladders_ladder "
                    f"WHERE id IN ({', '.join(['%s'] * len(lock_ladders))}) "
                    "ORDER BY id FOR NO KEY UPDATE", list(lock_ladders))


def match_enqueue(*, match_ids: Iterable[int], queue: str | None = None) -> None:
    """Ring the doorbell for queued matches (a doubled message is harmless: claims are once),
    on ``queue`` (``kinds.queue_of`` their kind; the match queue unless given). One statement
    stamps them all, whatever their number (a tick makes several at once)."""
    queue = queue or settings.LEAGUE_MATCH_QUEUE
    ids = [int(match_id) for match_id in match_ids]
    if not ids:
        return
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    queued, own = [], not connection.in_atomic_block
    with transaction.atomic(), connection.cursor() as cursor:
        if own:  # a stamp lost with the database's last moments costs a message sent again
            remade_if_lost()
        for start in range(0, len(ids), 1000):  # the reaper may resend thousands
            chunk = ids[start:start + 1000]
            cursor.execute(
                f"UPDATE {Match._meta.db_table} SET enqueued_at = %s "
                f"WHERE id IN ({', '.join(['%s'] * len(chunk))}) AND status = %s RETURNING id",
                [now, *chunk, QUEUED])
            queued += sorted(match_id for (match_id,) in cursor.fetchall())
    matches_send(match_ids=queued, queue=queue)


def matches_send(*, match_ids: Iterable[int], queue: str) -> None:
    """Send each match's task on ``queue``, for matches already stamped ``enqueued_at`` (new
    ones are stamped as they are made, in the transaction that makes them: a fill then
    commits once, and a message lost after its commit is resent by the reaper as any other).
    One message at a time: Celery's own publish reconnects to a broker that restarted (a
    kombu batch, one round trip for them all, does not retry its flush)."""
    for match_id in match_ids:
        # the league's app by name: Celery's current_app is per thread, and a thread that
        # never set it would fall back to a default app with another broker
        celery_app.send_task(RUN_MATCH_TASK, (match_id,), queue=queue)
        log.info("match %s: enqueued", match_id, extra=match_fields(match_id))
