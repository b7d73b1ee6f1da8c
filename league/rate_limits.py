"""Limits on every way to create rows or work: sign-ups, uploads, tokens, log-in attempts, mails
and password changes, API requests. One place counts them all, where every process and
machine sees the same count.

The counting is ``limits``' fixed window (it starts at a client's first hit and lasts the
rate's period). Its store is Redis when the league has one (``CACHE_URL``, else
``REDIS_URL``), and on the embedded default a small SQLite file of its own in the data folder
(``limits.sqlite3``, each connection set up under ``limits.sqlite3.lock``): one atomic
statement per hit, shared by the web server's processes, and apart from the league's
database so that counting never waits on the league's write lock.
Rates are ``settings.RATE_LIMITS`` (``scope: "count/period"``), read on every hit so a changed
setting takes effect.
"""

from __future__ import annotations

import fcntl
import functools
import math
import random
import sqlite3
import threading
import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from limits import RateLimitItem, parse
from limits.storage import RedisStorage, Storage
from limits.strategies import FixedWindowRateLimiter

WHAT = {
    "signup": "too many sign-ups from this address",
    "upload": "too many uploads",
    "token": "too many API tokens made",
    "login": "too many failed log-ins for this name from this address",
    "reset": "too many password resets asked for from this address",
    "mail": "too many mails sent to that e-mail address",
    "email": "too many e-mail changes for this account",
    "password": "too many password changes tried for this account",
    "anon": "too many requests from this address",
    "user": "too many requests from this client",
    "viewer": "too many requests from this client",
    "tournament": "too many tournaments made",
    "challenge": "too many challenge games asked for",
    "play": "too many games against bots started",
    "versiontest": "too many version tests started",
    "play-api": "too many requests from this game's page",
    "notify": "too many changes of notification settings",
    "heavy": "too many replay frames and files worked out for this address (signed-in "
             "readers are not counted here)",
}
"""What each scope counts, as a refusal says it."""

_PERIODS = {"s": "second", "sec": "second", "m": "minute", "min": "minute", "h": "hour",
            "d": "day"}


class RateLimited(Exception):
    """A request over its limit; ``wait`` is the seconds until the window ends."""

    def __init__(self, scope: str, wait: int, what: str = "") -> None:
        self.scope = scope
        self.wait = wait
        super().__init__(f"{what or WHAT.get(scope, 'too many requests')}; try again in "
                         f"{wait} s")

    def sentence(self) -> str:
        """The refusal as a sentence for a page: capital first, full stop."""
        text = str(self)
        return f"{text[:1].upper()}{text[1:]}."


def client_address(request: HttpRequest) -> str:
    """The client's address: the peer's, or read from ``X-Forwarded-For`` through exactly
    ``NUM_PROXIES`` proxies of ours (a made-up header never moves a client to another
    count)."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if settings.NUM_PROXIES and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",")]
        return hops[-min(settings.NUM_PROXIES, len(hops))]
    return request.META.get("REMOTE_ADDR", "")


def rate_of(scope: str) -> RateLimitItem:
    return _parse(settings.RATE_LIMITS[scope])


@functools.cache
def _parse(rate: str) -> RateLimitItem:
    """``60/min``, ``5/15min`` (``league.env.RATE_PATTERN``) in ``limits``' words."""
    count, per = rate.split("/")
    multiple = per.rstrip("abcdefghijklmnopqrstuvwxyz") or "1"
    unit = per[len(multiple) if per[0].isdigit() else 0:]
    return parse(f"{count} per {multiple} {_PERIODS.get(unit, unit)}")


def rate_hit(scope: str, ident: str | int, cost: int = 1) -> None:
    """Count ``cost`` hits of ``scope`` by ``ident``; ``RateLimited`` once it is over."""
    item = rate_of(scope)
    if _limiter().hit(item, scope, str(ident), cost=cost):
        return
    raise RateLimited(scope, _wait(item, scope, str(ident)))


def rate_clear(scope: str, ident: str | int) -> None:
    _limiter().clear(rate_of(scope), scope, str(ident))


def _wait(item: RateLimitItem, scope: str, ident: str) -> int:
    reset = _limiter().get_window_stats(item, scope, ident).reset_time
    return max(1, math.ceil(reset - time.time()))


def rates_reset() -> None:
    """Forget every count (tests; an operator after a false alarm)."""
    _store().reset()


@functools.cache
def _store() -> Storage:
    url = settings.CACHE_URL or settings.REDIS_URL
    if url:
        return RedisStorage(url)
    return SqliteStorage(str(settings.DATA_DIR / "limits.sqlite3"))


@functools.cache
def _limiter() -> FixedWindowRateLimiter:
    return FixedWindowRateLimiter(_store())


class SqliteStorage(Storage):
    """``limits``' storage in a SQLite file: counts shared by the processes of one machine.

    Each hit is one ``INSERT … ON CONFLICT DO UPDATE … RETURNING`` statement, atomic under
    SQLite's lock; counts are not worth an fsync (``synchronous=OFF``)."""

    STORAGE_SCHEME = ["botleague+sqlite"]

    def __init__(self, path: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(path, wrap_exceptions=wrap_exceptions)
        self.path = path
        self._local = threading.local()

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def _db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = self._local.db = self._open()
        return db

    def _open(self) -> sqlite3.Connection:
        """A connection to the file, made and set up under an exclusive lock of its own.

        Turning a fresh file to WAL fails at once with "database is locked" while another
        process is opening it too (SQLite's busy timeout does not wait there): gunicorn's
        workers of a fresh clone, counting their first hits together, once failed so. The
        lock makes each process's first connection wait its turn; later statements wait on
        SQLite's own lock (``timeout``)."""
        with open(f"{self.path}.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
            db = sqlite3.connect(self.path, timeout=10, isolation_level=None,
                                 check_same_thread=False)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=OFF")
                db.execute("CREATE TABLE IF NOT EXISTS hits (key TEXT PRIMARY KEY, "
                           "count INTEGER NOT NULL, expires REAL NOT NULL)")
            except BaseException:
                db.close()
                raise
        return db

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        db = self._db()
        (count,) = db.execute(
            "INSERT INTO hits (key, count, expires) VALUES (?1, ?2, ?3) ON CONFLICT (key) DO "
            "UPDATE SET count = CASE WHEN expires <= ?4 THEN ?2 ELSE count + ?2 END, "
            "expires = CASE WHEN expires <= ?4 THEN ?3 ELSE expires END RETURNING count",
            (key, amount, now + expiry, now)).fetchone()
        if random.random() < 0.001:  # now and then, forget windows long over
            db.execute("DELETE FROM hits WHERE expires <= ?", (now,))
        return int(count)

    def get(self, key: str) -> int:
        row = self._db().execute("SELECT count FROM hits WHERE key = ? AND expires > ?",
                                 (key, time.time())).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        row = self._db().execute("SELECT expires FROM hits WHERE key = ? AND expires > ?",
                                 (key, time.time())).fetchone()
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            self._db().execute("SELECT 1")
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        return self._db().execute("DELETE FROM hits").rowcount

    def clear(self, key: str) -> None:
        self._db().execute("DELETE FROM hits WHERE key = ?", (key,))
