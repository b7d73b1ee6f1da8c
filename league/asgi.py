"""The web server's application (``gunicorn league.asgi:application -k
league.web_worker.Worker``): the site as it always was, run on a small pool of threads, and
in front of it the one thing an event loop is for — requests that wait.

Every ``GET`` goes through the site once marked "may park" (``league.parking``). Most answer
at once and go out as they are. A view with nothing to say yet (the play page's state, its
game not moved) answers with a park response instead, which never leaves this process: the
request then waits here (``league.waiting``), holding no thread, until its match moves, the
wait times out or the client goes away, and goes through the site a second time, marked
"answer now". So a person with sixteen tabs, or two hundred people at their boards, hold no
thread that anyone else's page needs; each person's waits are capped
(``LEAGUE_WAITS_PER_USER``).

The site itself stays a WSGI application (``a2wsgi`` runs it on ``LEAGUE_WEB_THREADS``
threads that live as long as the process, so each keeps its database connection, as a
threaded WSGI server's did). The heavy reads of a match — its frames, record, viewer header
and ``replay.html``, which the engine may have to work out — run on threads of their own,
``LEAGUE_WEB_HEAVY_THREADS`` a process, at a lower priority (``nice`` 10): however many of
them come in, they wait their turn here on the event loop, and the site's pages keep their
threads and get the CPU first. Since a process's threads share one interpreter lock, a nice
value is not enough: a busy heavy thread still makes each page wait for the lock. So while a
page is being answered by any of the server's processes, heavy reads start only as often as
keeps their time within ``LEAGUE_WEB_HEAVY_SHARE`` of the process's (``HeavyLane``); with no
page going on they run back to back.
Each request is written to the access log (logger
``league.access``: method, path, status, bytes, milliseconds, forwarded-for, peer).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
_site = get_wsgi_application()

from league import busy_pages, parking, waiting  # noqa: E402  (after Django is set up)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

access = logging.getLogger("league.access")
_HEADER = parking.HEADER.lower().encode("latin1")
HEAVY = re.compile(r"/api/matches/\d+/(frames|replay|viewer)/|/matches/\d+/replay\.html")
"""The paths of a match's heavy reads (league/api/urls.py, league/web/urls.py)."""


class _Capture:
    """Passes a response on to the client, unless it is a park response: that one is kept."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.park: parking.Park | None = None

    async def send(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            for name, value in message.get("headers", []):
                if name == _HEADER:
                    self.park = parking.Park.from_header(value.decode("latin1"))
                    return
        elif self.park is not None:
            return
        await self._send(message)


async def _no_body() -> Message:
    return {"type": "http.request", "body": b"", "more_body": False}


async def _gone(receive: Receive) -> None:
    """Return when the client has gone away (a ``GET``'s empty body is read first)."""
    while (await receive())["type"] != "http.disconnect":
        pass


class HeavyLane:
    """The turn of a process's heavy reads: ``threads`` at once and, while any page is being
    answered by any of the server's processes (``league.busy_pages``), each one's start put
    off until the heavy reads' time since the last start is within ``share`` of the time gone
    by (a heavy read of 5 ms at a share of 0.2 lets the pages have the next 20 ms). Pages
    never wait for it."""

    POLL = 0.005
    """How often a put-off heavy read looks again whether another process's pages are done
    (its own process's wake it at once)."""

    def __init__(self, threads: int, share: float,
                 answering: Callable[[], int] = busy_pages.answering,
                 began: Callable[[], None] = busy_pages.began,
                 ended: Callable[[], None] = busy_pages.ended) -> None:
        self.threads = threads
        self.share = share
        self.pages = 0
        self._answering, self._began, self._ended = answering, began, ended
        self._turns: asyncio.Semaphore | None = None
        self._quiet: asyncio.Event | None = None
        self._next = 0.0

    def _made(self) -> tuple[asyncio.Semaphore, asyncio.Event]:
        # made on first use, inside the server's event loop
        if self._turns is None or self._quiet is None:
            self._turns, self._quiet = asyncio.Semaphore(self.threads), asyncio.Event()
        return self._turns, self._quiet

    @contextlib.asynccontextmanager
    async def page(self) -> AsyncIterator[None]:
        _, quiet = self._made()
        self.pages += 1
        self._began()
        quiet.clear()
        try:
            yield
        finally:
            self.pages -= 1
            self._ended()
            if not self.pages:
                quiet.set()

    @contextlib.asynccontextmanager
    async def heavy(self) -> AsyncIterator[Callable[[], None]]:
        """Wait for the turn of a heavy read; it calls what this yields once its answer is
        made (its headers go out): what is sent after that, to however slow a reader, is the
        event loop's to write and costs the pages nothing."""
        turns, quiet = self._made()
        loop = asyncio.get_running_loop()
        async with turns:
            while self._answering() and (wait := self._next - loop.time()) > 0:
                if self.pages:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(quiet.wait(), wait)
                else:  # another process's pages: they cannot wake this one
                    await asyncio.sleep(min(wait, self.POLL))
            began = loop.time()
            made = [began]

            def answered() -> None:
                made[0] = loop.time()

            try:
                yield answered
            finally:
                took = (made[0] if made[0] > began else loop.time()) - began
                self._next = loop.time() + took * (1 / self.share - 1)


class Router:
    def __init__(self, site: Callable[..., Awaitable[None]], heavy: Callable[..., Awaitable[None]],
                 hub: waiting.Hub, caps: waiting.Caps, lane: HeavyLane | None = None) -> None:
        self.site = site
        self.heavy = heavy
        self.hub = hub
        self.caps = caps
        self.lane = lane or HeavyLane(settings.LEAGUE_WEB_HEAVY_THREADS,
                                      settings.LEAGUE_WEB_HEAVY_SHARE)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        if scope["type"] != "http":
            return await self.site(scope, receive, send)
        began = time.perf_counter()
        sent = {"status": 0, "bytes": 0}

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start":
                sent["status"] = message["status"]
            elif message["type"] == "http.response.body":
                sent["bytes"] += len(message.get("body", b""))
            await send(message)

        try:
            if HEAVY.fullmatch(scope["path"]):
                async with self.lane.heavy() as answered:
                    async def made(message: Message) -> None:
                        if message["type"] == "http.response.start":
                            answered()
                        await counted(message)
                    await self.heavy(scope, receive, made)
            elif scope["method"] in ("GET", "HEAD"):
                await self._may_park(scope, receive, counted)
            else:
                async with self.lane.page():
                    await self.site(scope, receive, counted)
        finally:
            _log(scope, sent["status"], sent["bytes"], time.perf_counter() - began)

    async def _may_park(self, scope: Scope, receive: Receive, send: Send) -> None:
        first = _Capture(send)
        async with self.lane.page():
            await self.site({**scope, parking.SCOPE_KEY: "park"}, receive, first.send)
        parked = first.park
        if parked is None:
            return
        if not await self.caps.take(parked.who):
            return await _refuse(send, 429, (
                f"too many requests waiting at once (at most {self.caps.limit} a person); "
                "close another tab of the game and try again"))
        try:
            moved = asyncio.ensure_future(self.hub.wait(parked.watch, parked.timeout))
            gone = asyncio.ensure_future(_gone(receive))
            await asyncio.wait({moved, gone}, return_when=asyncio.FIRST_COMPLETED)
            for task in (moved, gone):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            if gone.done() and not gone.cancelled() and gone.exception() is None:
                return  # nobody to answer
        finally:
            await self.caps.give(parked.who)
        async with self.lane.page():
            await self.site({**scope, parking.SCOPE_KEY: "answer"}, _no_body, send)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.hub.close()
                await self.caps.close()
                await send({"type": "lifespan.shutdown.complete"})
                return


async def _refuse(send: Send, status: int, text: str) -> None:
    body = json.dumps({"error": text, "detail": text}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"retry-after", b"5")]})
    await send({"type": "http.response.body", "body": body})


def _log(scope: Scope, status: int, size: int, seconds: float) -> None:
    if not access.isEnabledFor(logging.INFO):
        return
    forwarded = next((value.decode("latin1") for name, value in scope.get("headers", [])
                      if name == b"x-forwarded-for"), "-")
    client = (scope.get("client") or ("-", 0))[0]
    # the path is the client's: %r keeps a made-up line break from forging a log line
    access.info("%s %r %s %s %.0fms %r %s", scope.get("method"), scope.get("path"), status,
                size, seconds * 1000, forwarded, client)


def _lower_priority() -> None:
    """A heavy read's thread yields the CPU to the pages' (Linux: a thread has its own nice)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HEAVY_NICE)


HEAVY_NICE = 10


def _heavy_site() -> WSGIMiddleware:
    threads = settings.LEAGUE_WEB_HEAVY_THREADS
    site = WSGIMiddleware(_site, workers=threads)
    site.executor = ThreadPoolExecutor(threads, thread_name_prefix="heavy",
                                       initializer=_lower_priority)
    return site


application = Router(WSGIMiddleware(_site, workers=settings.LEAGUE_WEB_THREADS), _heavy_site(),
                     waiting.hub(), waiting.caps())
