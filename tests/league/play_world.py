"""A live league to play against bots in, shared by the tests of one module: the web server
(gunicorn) and a play worker (``celery worker -Q play``) as processes of their own, on
PostgreSQL and Redis (the suite's test database, so a test may also read it through the ORM
with ``world.orm()``), or on the embedded default (SQLite and the filesystem broker, in a
data folder of its own).

Its cast (``setup``, run once in a process with the league's settings): users alice, bob,
carol, dave and erin (password ``PASSWORD``), bob's Stones bots ``stones-random`` (plays a
random legal move) and ``stones-crasher`` (exits at its third move), and bob's 2048 bot
``g2048-first`` with a finished ladder run on the 2048 ladder's first seed (the bots' scores
on a seed).

Use in a test module (the ``django_db`` mark makes pytest-django create the test database
the world runs on; each test's own writes through the ORM are rolled back)::

    from tests.league.play_world import PlayLeague, play_league   # noqa: F401 (fixture)

    pytestmark = pytest.mark.django_db

    def test_something(play_league: PlayLeague) -> None:
        alice = play_league.login("alice")                    # a requests.Session
        match = play_league.start(alice, opponent="builtin:perfect", game="stones", seat=0)
        state = play_league.state(alice, match)              # GET /api/play/<id>/
        play_league.move(alice, match, state["legal_moves"][0], state["step"])

or with settings of its own (a short clock for the person, say)::

    @pytest.fixture(scope="module")
    def short_clock(django_db_setup, django_db_blocker, tmp_path_factory):
        with running_play_league(django_db_blocker, tmp_path_factory,
                                 env={"LEAGUE_PLAY_MOVE_SECONDS": "3"}) as world:
            yield world

In a browser (Playwright): ``play_league.browser_context(browser, "alice")`` is a context
signed in as alice. Tests using the world must not ask for ``transactional_db`` (each
test's flush would empty the shared league); the world flushes the test database when the
module is done. ``PLAY_WORLD_PORT`` chooses the web server's port (else a free one)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from benchmarks.play_league import (
    PASSWORD,
    ROOT,
    PlayLeague,
    free_port,
    league_env,
    league_processes,
)

__all__ = ["PASSWORD", "PlayLeague", "play_league", "running_play_league"]

CRASHER = """\
from botlib import run

moves = 0

def play(turn):
    global moves
    moves += 1
    if moves == 3:
        raise SystemExit(3)
    return turn.legal_moves[0]

run(play)
"""


@contextmanager
def running_play_league(blocker: Any, tmp_path_factory: pytest.TempPathFactory, *,
                        env: dict[str, str] | None = None, embedded: bool = False,
                        play_slots: int = 3) -> Iterator[PlayLeague]:
    """Start the league (web and a play worker of ``play_slots`` processes), make the cast,
    yield it; stop everything and flush the test database at the end."""
    base = tmp_path_factory.mktemp("play-league")
    base.chmod(0o755)  # bots read their cached versions below it (pytest's own is 0700)
    data = base / "data"
    data.mkdir()
    database_url = None
    if not embedded:
        from tests.league.conftest import test_database_url

        with blocker.unblock():
            database_url = test_database_url()
    from django.conf import settings

    full_env = league_env(database_url, data, {
        "LEAGUE_PLAY_SLOTS": str(play_slots), "LEAGUE_UPLOADS_PER_USER": "100000/hour",
        "LEAGUE_MAX_VALIDATING": "1000", **(env or {})},
        redis_url=settings.REDIS_URL,
        settings_module="league.settings" if embedded else "tests.league_settings")
    python = sys.executable
    if embedded:
        subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=full_env,
                       check=True, timeout=300)
    else:
        import redis

        redis.Redis.from_url(settings.REDIS_URL).flushdb()  # no message of an earlier test
    made = subprocess.run([python, "-m", "tests.league.play_world", "setup"], cwd=ROOT,
                          env=full_env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert made.returncode == 0, made.stderr[-3000:]
    cast = json.loads(made.stdout.strip().splitlines()[-1])
    port = int(os.environ.get("PLAY_WORLD_PORT") or free_port())
    try:
        with league_processes(full_env, base, port=port, play_slots=play_slots) as (web, play):
            yield PlayLeague(url=f"http://127.0.0.1:{port}", env=full_env, web=web, play=play,
                             cast=cast, embedded=embedded,
                             blocker=None if embedded else blocker)
    finally:
        if not embedded:
            from django.core.management import call_command

            with blocker.unblock():
                call_command("flush", interactive=False, verbosity=0)


@pytest.fixture(scope="module")
def play_league(django_db_setup: None, django_db_blocker: Any,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayLeague]:
    """The live league on PostgreSQL and Redis, with the default settings."""
    with running_play_league(django_db_blocker, tmp_path_factory) as world:
        yield world


def setup() -> dict[str, Any]:
    """The cast, made through the league's services (run in a process of the league's)."""
    import django

    django.setup()
    from django.contrib.auth.models import User

    from league.ladders.defaults import ladders_install
    from league.ladders.models import Ladder
    from tests.league import bots
    from tests.league.pages import active, finished

    ladders_install(Ladder)
    people = {name: User.objects.create_user(name, password=PASSWORD)
              for name in ("alice", "bob", "carol", "dave", "erin")}
    bob = people["bob"]
    made = {
        "stones-random": active(bob, "stones-random", source=bots.RANDOM),
        "stones-crasher": active(bob, "stones-crasher", source=CRASHER),
        "g2048-first": active(bob, "g2048-first", game="g2048", source=bots.FIRST),
    }
    seeds = list(Ladder.objects.get(game="g2048").seeds)
    run = finished(made["g2048-first"], seed=seeds[0])
    return {"bots": {name: v.bot_id for name, v in made.items()},
            "users": {name: u.pk for name, u in people.items()},
            "seeds": seeds, "bot_run": run.pk}


if __name__ == "__main__":
    if sys.argv[1:] != ["setup"]:
        raise SystemExit("usage: python -m tests.league.play_world setup")
    print(json.dumps(setup()))
