"""How a person's move reaches the worker's referee: the database holds it (the exhibition's
``move_step``/``move``, written by the web once the engine accepted it, at most one per step),
and a doorbell tells the waiting worker to look, so that a waiting seat costs the worker no
CPU at all:

- with Redis (``REDIS_URL``), a list the worker blocks on (``BLPOP``) and the web pushes to;
- on the embedded default (no Redis; web and workers on one machine, sharing the data
  folder), a named pipe in ``DATA_DIR/play/`` the worker blocks on (``select``) and the web
  writes a byte to.

A resignation travels the same way, as the row's ``move_step`` ``RESIGNED_STEP``: the seat
waiting (or the next one asked) reads it and raises ``sandbox.Resigned``, so the game ends on
the referee's one path, as a timeout does (the result written, the bot told, the board freed),
and a worker lost meanwhile leaves it in the row for the attempt that resumes the game.

The row is the truth and the doorbell only says "look": the worker reads the row before each
wait and at least every ``RECHECK_SECONDS``, so a doorbell lost (Redis restarted, a pipe not
made yet) delays a move by at most that, and a doorbell left over costs one read."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import select
import time
from pathlib import Path
from typing import Protocol

import redis
from django.conf import settings

from league.ladders.models import Exhibition
from sandbox import Resigned

log = logging.getLogger(__name__)

RECHECK_SECONDS = 5.0
"""The longest a worker waits on the doorbell before it reads the row anyway."""
KEEP_SECONDS = 3600
"""A Redis doorbell nobody answered is dropped after this (its game ended meanwhile)."""
RESIGNED_STEP = 2**31 - 1
"""``move_step`` of a resignation: past every step, so no move is accepted after it."""


class Doorbell(Protocol):
    def ring(self, match_id: int) -> None: ...

    def wait(self, match_id: int, seconds: float) -> None:
        """Return when rung, or after ``seconds``."""

    def forget(self, match_id: int) -> None: ...


class RedisDoorbell:
    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url, socket_connect_timeout=5,
                                           health_check_interval=30)

    @staticmethod
    def _key(match_id: int) -> str:
        return f"botleague:play:{match_id}"

    def ring(self, match_id: int) -> None:
        with self.client.pipeline() as pipe:
            pipe.rpush(self._key(match_id), 1).expire(self._key(match_id), KEEP_SECONDS)
            pipe.execute()

    def wait(self, match_id: int, seconds: float) -> None:
        self.client.blpop([self._key(match_id)], timeout=max(0.01, seconds))

    def forget(self, match_id: int) -> None:
        self.client.delete(self._key(match_id))


class PipeDoorbell:
    """A named pipe per game. The worker holds it open for reading and writing while it
    waits (so it never sees an end of file); the web writes a byte if anyone holds it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._open: dict[int, int] = {}

    def _path(self, match_id: int) -> Path:
        return self.folder / f"{match_id}.bell"

    def ring(self, match_id: int) -> None:
        try:
            fd = os.open(self._path(match_id), os.O_WRONLY | os.O_NONBLOCK)
        except OSError:  # no pipe yet, or nobody waiting: the worker reads the row first
            return
        try:
            with contextlib.suppress(BlockingIOError):  # full: it has been rung already
                os.write(fd, b"!")
        finally:
            os.close(fd)

    def wait(self, match_id: int, seconds: float) -> None:
        fd = self._open.get(match_id)
        if fd is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(FileExistsError):
                os.mkfifo(self._path(match_id), 0o600)
            fd = self._open[match_id] = os.open(self._path(match_id),
                                                os.O_RDWR | os.O_NONBLOCK)
        ready, _, _ = select.select([fd], [], [], seconds)
        if ready:
            with contextlib.suppress(BlockingIOError):
                while os.read(fd, 512):
                    pass

    def forget(self, match_id: int) -> None:
        fd = self._open.pop(match_id, None)
        if fd is not None:
            os.close(fd)
        self._path(match_id).unlink(missing_ok=True)


@functools.cache
def doorbell() -> Doorbell:
    if settings.REDIS_URL:
        return RedisDoorbell(settings.REDIS_URL)
    return PipeDoorbell(Path(settings.DATA_DIR) / "play")


def ring(match_id: int) -> None:
    """Tell the worker a move is waiting (after the row holding it was committed)."""
    try:
        doorbell().ring(match_id)
    except (redis.RedisError, OSError):  # the worker reads the row within RECHECK_SECONDS
        log.warning("match %s: the play doorbell could not be rung", match_id, exc_info=True)


def taken(match_id: int, step: int) -> str | None:
    """The person's move for ``step``, if the web has accepted one; ``Resigned`` once the
    person has given the game up."""
    row = (Exhibition.objects.filter(pk=match_id, move_step__in=(step, RESIGNED_STEP))
           .values_list("move_step", "move").first())
    if row is None:
        return None
    if row[0] == RESIGNED_STEP:
        raise Resigned()  # no detail: "player 0 forfeits: resigned" says it
    return row[1]


def wait_for_move(match_id: int, step: int, deadline: float) -> str | None:
    """Block until the person's move for ``step`` is there, or ``deadline``
    (``time.monotonic()``) passes: None then. ``Resigned`` when the person resigns."""
    bell = doorbell()
    while True:
        move = taken(match_id, step)
        if move is not None:
            return move
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        try:
            bell.wait(match_id, min(left, RECHECK_SECONDS))
        except (redis.RedisError, OSError):  # the doorbell away: read the row meanwhile
            log.warning("match %s: the play doorbell failed; reading the row instead",
                        match_id, exc_info=True)
            time.sleep(min(left, 1.0))


def forget(match_id: int, *, move_too: bool = False, keep_step: int | None = None) -> None:
    """Drop the match's doorbell (its game ended, or a new attempt begins), and with
    ``move_too`` the move waiting in its row, unless it is for ``keep_step`` (a resignation
    always stays)."""
    if move_too:
        (Exhibition.objects.filter(pk=match_id).exclude(move_step=keep_step)
         .exclude(move_step=RESIGNED_STEP).update(move_step=None, move=""))
    with contextlib.suppress(redis.RedisError, OSError):  # a Redis one expires by itself
        doorbell().forget(match_id)
