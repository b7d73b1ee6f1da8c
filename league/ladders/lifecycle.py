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
from collections.abc import Callable, Iterable
from typing import Any

from django.db import connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from league.celery import app as celery_app
from league.ladders.models import Match, MatchKind, MatchStatus
from league.logs import match_fields

log = logging.getLogger(__name__)

QUEUED, RUNNING = MatchStatus.QUEUED, MatchStatus.RUNNING
FINISHED, FAILED, CANCELLED = MatchStatus.FINISHED, MatchStatus.FAILED, MatchStatus.CANCELLED

OPEN = (QUEUED, RUNNING)
"""Still to be played, or playing."""
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

COMPETITION_KINDS = (MatchKind.TOURNAMENT, MatchKind.CHALLENGE)
"""Matches that belong to a competition: never rated, not counted in a ladder's queue."""
_LISTENERS: list[Callable[[int], None]] = []
"""Called with the id of a competition's match that has ended (its result committed), in the
worker that wrote it: competitions sit above ladders, so they register here
(``CompetitionsConfig.ready``) instead of being imported."""


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


def listen_for_competition_ends(listener: Callable[[int], None]) -> None:
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


def ring_competition(*, match_id: int, kind: str) -> None:
    """After a competition's match has ended (its result committed), tell its competition
    at once, so a round's last game pairs the next round without waiting for the beat. It
    runs in the worker's result-writing thread, beside the next match, not in its slot. A
    listener that fails is logged: the beat's tick does the same work a moment later."""
    if kind not in COMPETITION_KINDS:
        return
    for listener in _LISTENERS:
        try:
            listener(match_id)
        except Exception:
            log.exception("match %s: its competition could not move on; the beat will",
                          match_id, extra=match_fields(match_id))


def match_enqueue(*, match_ids: Iterable[int]) -> None:
    """Ring the doorbell for queued matches (a doubled message is harmless: claims are once).
    One statement stamps them all, whatever their number (a tick makes several at once)."""
    ids = [int(match_id) for match_id in match_ids]
    if not ids:
        return
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    queued, own = [], not connection.in_atomic_block
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql" and own:
            # a stamp lost with the database's last moments costs a message sent again
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
        for start in range(0, len(ids), 1000):  # the reaper may resend thousands
            chunk = ids[start:start + 1000]
            cursor.execute(
                f"UPDATE {Match._meta.db_table} SET enqueued_at = %s "
                f"WHERE id IN ({', '.join(['%s'] * len(chunk))}) AND status = %s RETURNING id",
                [now, *chunk, QUEUED])
            queued += sorted(match_id for (match_id,) in cursor.fetchall())
    for match_id in queued:
        # the league's app by name: Celery's current_app is per thread, and a thread that
        # never set it would fall back to a default app with another broker
        celery_app.send_task(RUN_MATCH_TASK, (match_id,))
        log.info("match %s: enqueued", match_id, extra=match_fields(match_id))
