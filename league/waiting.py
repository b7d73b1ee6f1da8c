"""Where parked requests (``league.parking``) wait: on the web server's event loop, costing
no thread, until their match moves.

One ``Hub`` a process. It learns that a match moved in two ways:

- with Redis, the worker publishes on the match's channel (``league.ladders.news``) and the
  hub, subscribed to them all, reads the parked matches at once;
- always, it reads every parked match's row in one statement, on one thread of its own, every
  ``LEAGUE_PLAY_POLL_SECONDS`` without Redis (the embedded default) and every
  ``LEAGUE_WAIT_RECHECK_SECONDS`` with it (a message lost costs at most that).

So a thousand parked pages cost one small read an interval, not a thread and a read each.

``Caps`` counts each person's requests waiting at once, in Redis across the processes when
the league has it (a key a person, expiring on its own should a process die holding some),
else in the process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor

import redis
import redis.asyncio as aioredis
from django.conf import settings
from django.db import DatabaseError, connection

from league.ladders.news import CHANNEL
from league.ladders.play.state import Snapshot, moved, snapshots
from league.parking import Watch

log = logging.getLogger(__name__)


def _read(match_ids: list[int]) -> dict[int, Snapshot] | None:
    """The parked matches' rows (on the hub's thread, with its own connection); None if the
    database could not be read this time (the next interval tries again)."""
    try:
        return snapshots(match_ids)
    except DatabaseError:
        log.warning("parked pages: their games could not be read", exc_info=True)
        connection.close()
        return None


class Hub:
    def __init__(self, *, redis_url: str | None, poll_seconds: float,
                 recheck_seconds: float) -> None:
        self.redis_url = redis_url
        self.interval = recheck_seconds if redis_url else poll_seconds
        self._parked: dict[int, list[tuple[Watch, asyncio.Future[None]]]] = {}
        self._news = asyncio.Event()
        self._someone = asyncio.Event()
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="parked")
        self._tasks: list[asyncio.Task[None]] = []

    def _start(self) -> None:
        if self._tasks:
            return
        self._tasks.append(asyncio.create_task(self._read_loop()))
        if self.redis_url:
            self._tasks.append(asyncio.create_task(self._listen()))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._reader.shutdown(wait=False)

    @property
    def parked(self) -> int:
        return sum(len(waiters) for waiters in self._parked.values())

    async def wait(self, watch: Watch, timeout: float) -> bool:
        """Whether the match moved within ``timeout`` seconds."""
        self._start()
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiter = (watch, future)
        self._parked.setdefault(watch.match, []).append(waiter)
        self._someone.set()
        try:
            await asyncio.wait_for(future, timeout)
            return True
        except TimeoutError:
            return False
        finally:
            waiters = self._parked.get(watch.match, [])
            with contextlib.suppress(ValueError):
                waiters.remove(waiter)
            if not waiters:
                self._parked.pop(watch.match, None)

    async def _read_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if not self._parked:
                self._someone.clear()
                await self._someone.wait()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), self.interval)
            self._news.clear()
            ids = list(self._parked)
            if not ids:
                continue
            rows = await loop.run_in_executor(self._reader, _read, ids)
            if rows is None:
                continue
            for match_id in ids:
                for watch, future in self._parked.get(match_id, []):
                    if not future.done() and moved(watch, rows.get(match_id)):
                        future.set_result(None)

    async def _listen(self) -> None:
        """The workers' news (``league.ladders.news``): a parked match moved, read them now."""
        assert self.redis_url is not None
        while True:
            client = aioredis.Redis.from_url(self.redis_url, socket_connect_timeout=5)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(f"{CHANNEL}*")
                    async for message in pubsub.listen():
                        if message.get("type") != "pmessage":
                            continue
                        channel = message["channel"]
                        if isinstance(channel, bytes):
                            channel = channel.decode()
                        match_id = channel.removeprefix(CHANNEL)
                        if match_id.isascii() and match_id.isdigit() \
                                and int(match_id) in self._parked:
                            self._news.set()
            except (redis.RedisError, OSError):
                log.warning("parked pages: the match news are away; reading the rows every "
                            "%s s meanwhile", self.interval, exc_info=True)
                await asyncio.sleep(1.0)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()


class Caps:
    """Each person's requests waiting at once, at most ``limit``."""

    KEY = "botleague:waits:"

    def __init__(self, *, redis_url: str | None, limit: int, expire: float) -> None:
        self.limit = limit
        self.expire = max(60, int(expire) + 60)
        self._client = aioredis.Redis.from_url(redis_url, socket_connect_timeout=2,
                                               socket_timeout=2) if redis_url else None
        self._here: dict[str, int] = {}

    async def take(self, who: str) -> bool:
        if self._client is not None:
            try:
                key = f"{self.KEY}{who}"
                async with self._client.pipeline(transaction=True) as pipe:
                    count, _ = await pipe.incr(key).expire(key, self.expire).execute()
                if count <= self.limit:
                    return True
                await self._client.decr(key)
                return False
            except (redis.RedisError, OSError):  # counted in this process meanwhile
                log.warning("waits: Redis away, counting in the process", exc_info=True)
        if self._here.get(who, 0) >= self.limit:
            return False
        self._here[who] = self._here.get(who, 0) + 1
        return True

    async def give(self, who: str) -> None:
        if self._here.get(who):
            self._here[who] -= 1
            if not self._here[who]:
                del self._here[who]
            return
        if self._client is not None:
            with contextlib.suppress(redis.RedisError, OSError):
                await self._client.decr(f"{self.KEY}{who}")

    async def close(self) -> None:
        if self._client is not None:
            with contextlib.suppress(Exception):
                await self._client.aclose()


def hub() -> Hub:
    return Hub(redis_url=settings.REDIS_URL or None,
               poll_seconds=settings.LEAGUE_PLAY_POLL_SECONDS,
               recheck_seconds=settings.LEAGUE_WAIT_RECHECK_SECONDS)


def caps() -> Caps:
    return Caps(redis_url=settings.REDIS_URL or None, limit=settings.LEAGUE_WAITS_PER_USER,
                expire=settings.LEAGUE_PLAY_LONG_POLL_SECONDS)
