"""A live league to play against bots in: the web server (gunicorn) and a play worker
(``celery worker -Q play``) as processes of their own, on PostgreSQL and Redis or on the
embedded default, and a client that signs in and plays through the site's form and the play
API as the play page does. Used by ``benchmarks.play_latency`` and by the tests' world
(``tests/league/play_world.py``), which adds its cast of users and bots."""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from benchmarks.common import stop_group
from league.supervise import web_command

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a-long-Password-9"
"""Every user's password in the worlds made here."""


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
        """A warm shutdown, then SIGKILL to what is left (bots included): ``stop_group``."""
        stop_group(self.process, 10)

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
    replies: list[float] = field(default_factory=list)
    """Seconds each of the last ``play_out``'s moves waited for the person's turn again."""

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
        """Play the person's moves with ``choose(state)`` until the game ends; the end. Each
        move's wait, from its POST to the person's turn again (or the end), goes to
        ``replies`` (seconds)."""
        deadline = time.monotonic() + timeout
        state = self.state(session, match)
        self.replies = []
        sent: float | None = None
        while state["status"] in ("queued", "running"):
            assert time.monotonic() < deadline, f"the game did not end: {state}"
            if state["your_turn"]:
                if sent is not None:
                    self.replies.append(time.perf_counter() - sent)
                sent = time.perf_counter()
                answer = self.move(session, match, choose(state), state["step"])
                assert answer.status_code == 200, (answer.status_code, answer.text)
            state = self.state(session, match, since=state["step"], status=state["status"])
        return state

    # -- the database ---------------------------------------------------------------------
    def orm(self) -> contextlib.AbstractContextManager[None]:
        """The ORM of this process on the league's database, where it is the same (the
        tests' world on PostgreSQL: pytest-django's blocker, lifted)."""
        assert self.blocker is not None, "this process's ORM is not on the league's database"
        return self.blocker.unblock()


def league_env(database_url: str | None, data: Path, extra: dict[str, str], *,
               redis_url: str = "", settings_module: str = "league.settings"
               ) -> dict[str, str]:
    """The environment of the league's processes: ``database_url`` and ``redis_url`` (both, or
    neither for the embedded default), data in ``data``, and ``extra`` settings."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update(BOTLEAGUE_DATA=str(data), PYTHONPATH=str(ROOT))
    env.update(DJANGO_SETTINGS_MODULE=settings_module, LEAGUE_KEEP_BUSY="false")
    if database_url is not None:  # else the embedded default: SQLite, the filesystem broker
        env.update(DATABASE_URL=database_url, REDIS_URL=redis_url)
    env.update(extra)
    return env


def spawn(name: str, command: list[str], env: dict[str, str], logs: Path) -> Process:
    log = logs / f"{name}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    return Process(name, process, log)


def wait_until(condition: Callable[[], bool], timeout: float, what: str,
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


def serving(url: str) -> bool:
    try:
        return requests.get(f"{url}/health/", timeout=2).status_code == 200
    except requests.RequestException:
        return False


@contextlib.contextmanager
def league_processes(env: dict[str, str], logs: Path, *, port: int, play_slots: int
                     ) -> Iterator[tuple[Process, Process]]:
    """The web server (one process, as ``./dev up`` starts each of its two: a waiting play page
    holds none of its threads) and a play worker of ``play_slots`` processes, serving;
    stopped at the end."""
    python = sys.executable
    url = f"http://127.0.0.1:{port}"
    logs.mkdir(parents=True, exist_ok=True)
    web = spawn("web", web_command(f"127.0.0.1:{port}", processes=1), env, logs)
    play = spawn("play", [python, "-m", "celery", "-A", "league", "worker", "-l", "info",
                          "-c", str(play_slots), "-n", f"play-{port}@%h", "-Q", "play",
                          "--without-mingle", "--without-gossip", "--without-heartbeat"],
                 env, logs)
    try:
        wait_until(lambda: serving(url), 60, "the web server", [web])
        wait_until(lambda: " ready." in play.text(), 60, "the play worker", [play])
        yield web, play
    finally:
        for p in (play, web):
            p.stop()
