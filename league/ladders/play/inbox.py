"""How a person's move reaches the worker's referee: the database holds it (the exhibition's
``move_step``/``move``, written by the web once the engine accepted it, at most one per step),
and Redis, when the league has it, rings a doorbell the worker waits on with a blocking pop:
a waiting seat costs the worker no CPU at all. On the embedded default (no Redis) the worker
reads the row every ``LEAGUE_PLAY_POLL_SECONDS``, one indexed read.

The row is the truth and the doorbell only says "look": a doorbell lost (Redis restarted)
delays a move by at most ``RECHECK_SECONDS``, and a doorbell left over costs one read."""

from __future__ import annotations

import contextlib
import functools
import logging
import time

import redis
from django.conf import settings

from league.ladders.models import Exhibition

log = logging.getLogger(__name__)

RECHECK_SECONDS = 5.0
"""The longest a worker blocks on the doorbell before it reads the row anyway."""
KEEP_SECONDS = 3600
"""A doorbell nobody answered is dropped after this (its game ended meanwhile)."""


def _key(match_id: int) -> str:
    return f"botleague:play:{match_id}"


@functools.cache
def _redis() -> redis.Redis | None:
    if not settings.REDIS_URL:
        return None
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=5,
                                health_check_interval=30)


def ring(match_id: int) -> None:
    """Tell the worker a move is waiting (after the row holding it was committed)."""
    client = _redis()
    if client is None:
        return
    try:
        with client.pipeline() as pipe:
            pipe.rpush(_key(match_id), 1).expire(_key(match_id), KEEP_SECONDS).execute()
    except redis.RedisError:  # the worker reads the row within RECHECK_SECONDS anyway
        log.warning("match %s: the play doorbell could not be rung", match_id, exc_info=True)


def taken(match_id: int, step: int) -> str | None:
    """The person's move for ``step``, if the web has accepted one."""
    return (Exhibition.objects.filter(pk=match_id, move_step=step)
            .values_list("move", flat=True).first())


def wait_for_move(match_id: int, step: int, deadline: float) -> str | None:
    """Block until the person's move for ``step`` is there, or ``deadline``
    (``time.monotonic()``) passes: None then."""
    client = _redis()
    while True:
        move = taken(match_id, step)
        if move is not None:
            return move
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        if client is None:
            time.sleep(min(left, settings.LEAGUE_PLAY_POLL_SECONDS))
            continue
        try:
            client.blpop([_key(match_id)], timeout=max(0.01, min(left, RECHECK_SECONDS)))
        except redis.RedisError:  # Redis away: read the row at the polling pace meanwhile
            time.sleep(min(max(left, 0.0), 1.0))


def forget(match_id: int, *, move_too: bool = False) -> None:
    """Drop the match's doorbell (its game ended, or a new attempt begins), and with
    ``move_too`` the move waiting in its row."""
    if move_too:
        Exhibition.objects.filter(pk=match_id).update(move_step=None, move="")
    client = _redis()
    if client is not None:
        with contextlib.suppress(redis.RedisError):  # else it expires by itself
            client.delete(_key(match_id))
