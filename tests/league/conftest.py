"""Fixtures for the league tests: real PostgreSQL (pytest-django's test database), real
Redis, and real Celery worker processes started here, never ``task_always_eager``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connections

from benchmarks.common import kill_group
from league.bots.models import BotVersion
from league.ladders.defaults import ladders_install
from league.ladders.models import Ladder, Match, MatchStatus
from league.ladders.services import version_upload

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Worker:
    process: subprocess.Popen
    log: Path

    def kill(self) -> None:
        """SIGKILL the worker's whole process group (main process, pool children, bots) and
        wait until none of it runs: a pool child still dying could write a match's moves
        after the test's database is cleaned (``kill_group``)."""
        kill_group(self.process)

    def text(self) -> str:
        return self.log.read_text(errors="replace")


def run_embedded(module: str, data: Path, timeout: float, **settings: str) -> dict:
    """Run ``python -m module`` on the embedded default (SQLite in ``data``, the filesystem
    broker): the tests' database, Redis and cache are left out of its environment, so it
    cannot fall back on them. Its report: the last line it prints, as JSON."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL"}}
    env.update(BOTLEAGUE_DATA=str(data), DJANGO_SETTINGS_MODULE="league.settings", **settings)
    done = subprocess.run([sys.executable, "-m", module], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_database_url() -> str:
    db = connections["default"].settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@pytest.fixture
def start_worker(transactional_db: None, tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """Start real ``celery worker`` processes on the test database; all killed at the end."""
    redis.Redis.from_url(settings.REDIS_URL).flushdb()  # no message left by an earlier test
    started: list[Worker] = []

    def start(concurrency: int = 2, env: dict[str, str] | None = None,
              queues: str = "celery,ticks", include: str = "") -> Worker:
        log = tmp_path / f"worker{len(started)}.log"
        command = [sys.executable, "-m", "celery", "-A", "league", "worker", "-l", "info",
                   "-c", str(concurrency), "-n", f"test{len(started)}@%h",
                   "-Q", queues,  # a test's workers also run a beat's ticks, by default
                   *(["--include", include] if include else []),
                   "--without-mingle", "--without-gossip"]
        full_env = {**os.environ, "DATABASE_URL": test_database_url(),
                    "DJANGO_SETTINGS_MODULE": "tests.league_settings", **(env or {})}
        with open(log, "wb") as out:
            process = subprocess.Popen(command, cwd=ROOT, env=full_env, stdout=out,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        worker = Worker(process, log)
        started.append(worker)
        wait_for(lambda: " ready." in worker.text(), 60, "the worker to start",
                 worker.text)
        return worker

    yield start
    for worker in started:
        worker.kill()


@pytest.fixture
def worker(start_worker: Callable[..., Worker]) -> Worker:
    return start_worker()


@pytest.fixture
def ladders(transactional_db: None) -> dict[str, Ladder]:
    """The default ladders (the data migration's rows do not survive a flushed test)."""
    ladders_install(Ladder)
    return {ladder.game: ladder for ladder in Ladder.objects.all()}


@pytest.fixture
def ladders_rolled_back(db: None) -> None:
    """The default ladders in the plain (rolled back) database, for modules that need no
    commit (``pytest.mark.usefixtures`` it): faster than ``ladders``' flushed one."""
    ladders_install(Ladder)


@pytest.fixture
def alice(transactional_db: None) -> User:
    return User.objects.create_user("alice")


@pytest.fixture
def bob(transactional_db: None) -> User:
    return User.objects.create_user("bob")


def wait_for(condition: Callable[[], object], timeout: float, what: str,
             explain: Callable[[], str] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    detail = f"\n{explain()[-3000:]}" if explain else ""
    raise AssertionError(f"timed out after {timeout} s waiting for {what}{detail}")


def upload(owner: User, game: str, name: str, source: str | bytes,
           filename: str = "main.py") -> BotVersion:
    data = source.encode() if isinstance(source, str) else source
    return version_upload(owner=owner, game=game, name=name, filename=filename, data=data)


def wait_validated(*versions: BotVersion, timeout: float = 60,
                   worker: Worker | None = None) -> None:
    def done() -> bool:
        return all(BotVersion.objects.get(pk=v.pk).status != "validating" for v in versions)

    wait_for(done, timeout, "validation", worker.text if worker else None)
    for v in versions:
        v.refresh_from_db()


def wait_matches_done(timeout: float = 90, worker: Worker | None = None) -> None:
    wait_for(lambda: not Match.objects.filter(
        status__in=[MatchStatus.QUEUED, MatchStatus.RUNNING]).exists(), timeout,
        "every match to end", worker.text if worker else None)


@dataclass
class People:
    """The page tests' cast: alice owns bots, bob is another user, sam is staff."""

    alice: User
    bob: User
    sam: User
    password: str = "a-long-Password-9"


@pytest.fixture
def people(db: None) -> People:
    ladders_install(Ladder)  # a transactional test before may have flushed the migration's rows
    password = People.password
    return People(alice=User.objects.create_user("alice", password=password),
                  bob=User.objects.create_user("bob", password=password),
                  sam=User.objects.create_user("sam", password=password, is_staff=True))


@pytest.fixture(autouse=True)
def _no_outside_names(monkeypatch: pytest.MonkeyPatch) -> None:
    """Webhook addresses are resolved when saved and delivered (``notifications.targets``):
    a name a test (or schemathesis) makes up must not become a DNS query leaving the machine.
    Addresses written as IPs and ``localhost`` resolve as ever; other names do not."""
    import ipaddress
    import socket

    from league.notifications import targets

    real = targets._resolve

    def resolve(host: str, *args: Any, **kwargs: Any) -> Any:
        try:
            ipaddress.ip_address(host)
        except ValueError:
            if host != "localhost":
                raise socket.gaierror(socket.EAI_NONAME,
                                      "tests resolve no outside name") from None
        return real(host, *args, **kwargs)

    monkeypatch.setattr(targets, "_resolve", resolve)


@pytest.fixture(autouse=True)
def _fresh_rates() -> Iterator[None]:
    """Rate limits count in Redis, and finished matches' answers are kept there
    (``ladders.replay_cache``): no count and no kept answer leaks from one test to the next
    (a test database made again reuses match and replay ids)."""
    from league.ladders import replay_cache
    from league.rate_limits import rates_reset

    rates_reset()
    replay_cache.clear()
    yield
    rates_reset()


@pytest.fixture
def viewer_browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Debian's Chromium for the viewer's browser tests. Make data before asking for it:
    ORM calls made while Playwright's loop runs open a connection nobody closes."""
    from league.ladders.replays import SOURCES
    from tests.browser import chromium

    # Playwright's sync API runs an event loop in this thread; ORM calls made in between
    # are plain synchronous ones.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    # The live server answers each keep-alive connection of the browser in a thread of its
    # own; with persistent database connections those threads would hold sessions open
    # past the test and keep the test database from being dropped.
    monkeypatch.setitem(connections["default"].settings_dict, "CONN_MAX_AGE", 0)
    SOURCES.clear()
    with chromium() as browser:
        yield browser
