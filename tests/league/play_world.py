"""A live league to play against bots in, shared by the tests of one module: the web server
(gunicorn) and a play worker (``celery worker -Q play``) as processes of their own, on
PostgreSQL and Redis (the suite's test database, so a test may also read it through the ORM
with ``world.orm()``), or on the embedded default (SQLite and the filesystem broker, in a
data folder of its own).

Its cast (``setup``, run once in a process with the league's settings): users alice, bob and
carol (password ``PASSWORD``), bob's Stones bots ``stones-random`` (plays a random legal move)
and ``stones-crasher`` (exits at its third move), and bob's 2048 bot ``g2048-first`` with a
finished ladder run on the 2048 ladder's first seed (the bots' scores on a seed).

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

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a-long-Password-9"
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Process:
    name: str
    process: subprocess.Popen
    log: Path

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        """SIGTERM the group (warm shutdown), then SIGKILL what is left (bots included)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def cpu_seconds(self) -> float:
        """User + system CPU time of the process and its children so far (from /proc)."""
        return sum(_cpu(pid) for pid in _family(self.process.pid))


def _family(pid: int) -> list[int]:
    """``pid`` and its descendants."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo += children.get(p, [])
    return found


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class PlayLeague:
    url: str
    env: dict[str, str]
    web: Process
    play: Process
    cast: dict[str, Any]
    """What ``setup`` made: ``bots`` (name -> id), ``seeds`` (the 2048 ladder's)."""
    embedded: bool
    blocker: Any = None
    sessions: dict[str, requests.Session] = field(default_factory=dict)

    # -- people ---------------------------------------------------------------------------
    def login(self, username: str, fresh: bool = False) -> requests.Session:
        """A session signed in through the site's log-in form (one per name, kept)."""
        if username in self.sessions and not fresh:
            return self.sessions[username]
        session = requests.Session()
        session.get(f"{self.url}/account/login/", timeout=30).raise_for_status()
        answer = session.post(f"{self.url}/account/login/", timeout=30, data={
            "username": username, "password": PASSWORD,
            "csrfmiddlewaretoken": session.cookies["csrftoken"]}, allow_redirects=False)
        assert answer.status_code == 302, f"log-in as {username} failed: {answer.status_code}"
        if not fresh:
            self.sessions[username] = session
        return session

    def browser_context(self, browser: Any, username: str, **options: Any) -> Any:
        """A Playwright browser context signed in as ``username``."""
        session = self.login(username)
        context = browser.new_context(**options)
        context.add_cookies([{"name": c.name, "value": c.value or "", "url": self.url}
                             for c in session.cookies])
        return context

    @staticmethod
    def headers(session: requests.Session) -> dict[str, str]:
        return {"X-CSRFToken": session.cookies.get("csrftoken", "")}

    # -- games ----------------------------------------------------------------------------
    def start(self, session: requests.Session, *, opponent: str = "", game: str = "",
              seat: int = 0, seed: int | None = None) -> int:
        """Start a game through the form (``POST /play/``); its match id. A refusal fails
        with the message the page would show."""
        answer = self.start_answer(session, opponent=opponent, game=game, seat=seat, seed=seed)
        where = answer.headers.get("Location", "")
        found = re.fullmatch(r".*/play/(\d+)/", where)
        if found is None:
            why = (self.refusal(session, where) if where else
                   f"{answer.status_code}; the web server's log:\n{self.web.text()[-3000:]}")
            raise AssertionError(f"the game was not started: {why}")
        return int(found.group(1))

    def start_answer(self, session: requests.Session, *, opponent: str = "", game: str = "",
                     seat: int = 0, seed: int | None = None) -> requests.Response:
        data = {"opponent": opponent, "game": game, "seat": str(seat),
                "seed": "" if seed is None else str(seed),
                "csrfmiddlewaretoken": session.cookies.get("csrftoken", "")}
        return session.post(f"{self.url}/play/", data=data, allow_redirects=False,
                            headers={"Referer": f"{self.url}/"}, timeout=30)

    def refusal(self, session: requests.Session, where: str) -> str:
        """The message on the page a refused start went back to."""
        page = session.get(f"{self.url}{where}" if where.startswith("/") else where,
                           timeout=30).text
        found = re.search(r'<ul class="messages"><li class="[^"]*">(.*?)</li>', page, re.S)
        return found.group(1) if found else f"(no message on {where})"

    def state(self, session: requests.Session, match: int, since: int | None = None,
              status: str | None = None) -> dict[str, Any]:
        """``GET /api/play/<id>/``; with ``since`` (and the ``status`` seen), a long poll."""
        query = "" if since is None else f"?since={since}" + (
            f"&status={status}" if status else "")
        answer = session.get(f"{self.url}/api/play/{match}/{query}", timeout=60)
        assert answer.status_code == 200, (answer.status_code, answer.text)
        return answer.json()

    def move(self, session: requests.Session, match: int, move: str, step: int
             ) -> requests.Response:
        return session.post(f"{self.url}/api/play/{match}/move/", timeout=30,
                            json={"move": move, "step": step}, headers=self.headers(session))

    def wait_state(self, session: requests.Session, match: int,
                   done: Callable[[dict[str, Any]], bool], timeout: float = 60,
                   what: str = "the game") -> dict[str, Any]:
        """Follow the game with long polls until ``done(state)``; that state."""
        deadline = time.monotonic() + timeout
        state = self.state(session, match)
        while not done(state):
            if time.monotonic() > deadline or state["status"] not in ("queued", "running"):
                raise AssertionError(f"no {what} (timed out, or the game ended): {state}\n"
                                     f"{self.play.text()[-3000:]}")
            state = self.state(session, match, since=state["step"], status=state["status"])
        return state

    def play_out(self, session: requests.Session, match: int,
                 choose: Callable[[dict[str, Any]], str], timeout: float = 120
                 ) -> dict[str, Any]:
        """Play the person's moves with ``choose(state)`` until the game ends; the end."""
        deadline = time.monotonic() + timeout
        state = self.state(session, match)
        while state["status"] in ("queued", "running"):
            assert time.monotonic() < deadline, f"the game did not end: {state}"
            if state["your_turn"]:
                answer = self.move(session, match, choose(state), state["step"])
                assert answer.status_code == 200, (answer.status_code, answer.text)
            state = self.state(session, match, since=state["step"], status=state["status"])
        return state

    # -- the database ---------------------------------------------------------------------
    def orm(self) -> contextlib.AbstractContextManager[None]:
        """The ORM on the league's database (PostgreSQL only: the test database)."""
        assert self.blocker is not None, "the embedded league's database is its own SQLite"
        return self.blocker.unblock()


def _env(database_url: str | None, data: Path, extra: dict[str, str]) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update(BOTLEAGUE_DATA=str(data), PYTHONPATH=str(ROOT))
    if database_url is None:  # the embedded default: the league's own settings, no service
        env.update(DJANGO_SETTINGS_MODULE="league.settings",
                   LEAGUE_UPLOADS_PER_USER="100000/hour", LEAGUE_MAX_VALIDATING="1000",
                   LEAGUE_KEEP_BUSY="false")
    else:
        env.update(DJANGO_SETTINGS_MODULE="tests.league_settings", DATABASE_URL=database_url,
                   REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/15"))
    env.update(extra)
    return env


def _spawn(name: str, command: list[str], env: dict[str, str], logs: Path) -> Process:
    log = logs / f"{name}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    return Process(name, process, log)


def _wait(condition: Callable[[], bool], timeout: float, what: str,
          processes: list[Process]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in processes:
            if p.process.poll() is not None:
                raise AssertionError(f"{p.name} exited: {p.text()[-3000:]}")
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}: "
                         + "\n".join(p.text()[-2000:] for p in processes))


def _serving(url: str) -> bool:
    try:
        return requests.get(f"{url}/health/", timeout=2).status_code == 200
    except requests.RequestException:
        return False


@contextlib.contextmanager
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
    full_env = _env(database_url, data, {"LEAGUE_PLAY_SLOTS": str(play_slots),
                                         **(env or {})})
    python = sys.executable
    if embedded:
        subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=full_env,
                       check=True, timeout=300)
    else:
        import redis
        from django.conf import settings

        redis.Redis.from_url(settings.REDIS_URL).flushdb()  # no message of an earlier test
    made = subprocess.run([python, "-m", "tests.league.play_world", "setup"], cwd=ROOT,
                          env=full_env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert made.returncode == 0, made.stderr[-3000:]
    cast = json.loads(made.stdout.strip().splitlines()[-1])
    port = int(os.environ.get("PLAY_WORLD_PORT") or free_port())
    url = f"http://127.0.0.1:{port}"
    # Threads: each play page holds one in its long poll (up to ~20 s).
    web = _spawn("web", [python, "-m", "gunicorn", "league.wsgi:application", "--bind",
                         f"127.0.0.1:{port}", "--workers", "1", "--threads", "16",
                         "--graceful-timeout", "2"], full_env, base)
    play = _spawn("play", [python, "-m", "celery", "-A", "league", "worker", "-l", "info",
                           "-c", str(play_slots), "-n", f"play-test-{port}@%h", "-Q", "play",
                           "--without-mingle", "--without-gossip"], full_env, base)
    world = PlayLeague(url=url, env=full_env, web=web, play=play, cast=cast,
                       embedded=embedded, blocker=None if embedded else blocker)
    try:
        _wait(lambda: _serving(url), 60, "the web server", [web])
        _wait(lambda: " ready." in play.text(), 60, "the play worker", [play])
        yield world
    finally:
        for p in (play, web):
            p.stop()
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
              for name in ("alice", "bob", "carol")}
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
