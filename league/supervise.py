"""``./dev up``: the whole league on one machine — web server, Celery workers (matches, the
beat's ticks, games against people) and beat — started together, watched, and stopped
together on Ctrl-C or SIGTERM, leaving nothing behind."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from league.logs import RotatingLog, pump
from sandbox.referee import sweep_stale_match_folders

STOP_GRACE = 8.0
"""Seconds each process gets to stop by itself before its whole process group is killed."""


@dataclass
class Child:
    name: str
    process: subprocess.Popen
    logger: threading.Thread
    """Copies the process's output into its rotated log file (``league.logs.pump``)."""

    def signal_group(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, sig)


class Stop(Exception):
    """Raised from the signal handler to unwind into the one cleanup path."""


def commands(host: str, port: int, workers: int) -> dict[str, list[str]]:
    python = sys.executable
    return {
        "web": web_command(f"{host}:{port}", processes=2),
        # Concurrency = cores: each match runs one bot at a time, so no two share a core.
        "worker": [*_nice(), python, "-m", "celery", "-A", "league", "worker", "-l", "info",
                   "-c", str(workers), "-n", "embedded@%h", "-Q", settings.LEAGUE_MATCH_QUEUE,
                   "--without-mingle", "--without-gossip", "--without-heartbeat"],
        # The beat's ticks on a process of their own: a match never waits behind a tick, and
        # one process runs them one at a time.
        "ticks": [python, "-m", "celery", "-A", "league", "worker", "-l", "info", "-c", "1",
                  "-n", "ticks@%h", "-Q", settings.LEAGUE_TICK_QUEUE, "--without-mingle",
                  "--without-gossip", "--without-heartbeat"],
        # Games against people on a queue and processes of their own: a person's game holds
        # its process for up to the person's game time, mostly waiting (no CPU: a blocking
        # read), and must never take a slot from the ladders.
        "play": [python, "-m", "celery", "-A", "league", "worker", "-l", "info", "-c",
                 str(settings.LEAGUE_PLAY_SLOTS), "-n", "play@%h", "-Q",
                 settings.LEAGUE_PLAY_QUEUE, "--without-mingle", "--without-gossip",
                 "--without-heartbeat"],
        # Notifications' mails and webhooks: mostly waiting on other servers (a short
        # timeout each), so one process, apart from the matches and the ticks.
        "notify": [python, "-m", "celery", "-A", "league", "worker", "-l", "info", "-c", "1",
                   "-n", "notify@%h", "-Q", settings.LEAGUE_NOTIFY_QUEUE, "--without-mingle",
                   "--without-gossip", "--without-heartbeat"],
        # No pidfile: a lock file is one more thing a crash would leave behind.
        "beat": [python, "-m", "celery", "-A", "league", "beat", "-l", "info", "--pidfile=",
                 "-s", str(Path(settings.DATA_DIR) / "celerybeat-schedule")],
    }


def web_command(bind: str, *, processes: int) -> list[str]:
    """The web server (``league/gunicorn_conf.py``: uvicorn's worker, ``league/asgi.py``)."""
    return [sys.executable, "-m", "gunicorn", "-c", "python:league.gunicorn_conf", "--bind",
            bind, "--workers", str(processes)]


def _nice() -> list[str]:
    """The match worker below the web server and the ticks (``LEAGUE_WORKER_NICE``)."""
    return ["nice", "-n", str(settings.LEAGUE_WORKER_NICE)] if settings.LEAGUE_WORKER_NICE \
        else []


def run(host: str, port: int, workers: int, say: Callable[[str], object]) -> int:
    logs = Path(settings.DATA_DIR) / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    children: list[Child] = []

    def on_signal(signum: int, frame: object) -> None:
        raise Stop(signal.Signals(signum).name)

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    url = f"http://{host}:{port}/"
    try:
        for name, command in commands(host, port, workers).items():
            children.append(start(name, command, logs))
        wait_until_serving(url + "health/", children)
        mail = "" if settings.EMAIL_HOST else f"; mail: {settings.EMAIL_FILE_PATH}"
        print(f"botleague is up at {url}  (logs: {logs}{mail}; Ctrl-C stops it)", flush=True)
        while True:
            for child in children:
                if child.process.poll() is not None:
                    say(f"{child.name} exited with status {child.process.returncode}; "
                        f"see {logs / (child.name + '.log')}. Stopping everything.")
                    return 1
            time.sleep(0.5)
    except Stop as stop:
        say(f"{stop}: stopping web, workers and beat")
        return 0
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN)  # a second Ctrl-C must not cut the cleanup
        stop_all(children)
        sweep_stale_match_folders()


def start(name: str, command: list[str], logs: Path) -> Child:
    """The process, its output (and its children's) through a pipe into ``logs/name.log``,
    rotated: a file grown past ``LEAGUE_LOG_MAX_BYTES`` becomes ``name.log.1`` and the
    ``LEAGUE_LOG_KEEP``-th older one is deleted."""
    log = RotatingLog(logs / f"{name}.log", settings.LEAGUE_LOG_MAX_BYTES,
                      settings.LEAGUE_LOG_KEEP)
    read, write = os.pipe()
    try:
        process = subprocess.Popen(command, cwd=settings.BASE_DIR, stdout=write,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
    except BaseException:
        os.close(read)
        log.close()
        raise
    finally:
        os.close(write)  # the child's copy is the only writer: its exit is the pipe's end
    logger = threading.Thread(target=pump, args=(read, log), name=f"log-{name}", daemon=True)
    logger.start()
    return Child(name, process, logger)


def wait_until_serving(url: str, children: list[Child], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for child in children:
            if child.process.poll() is not None:
                raise SystemExit(f"{child.name} failed to start; see "
                                 f"{Path(settings.DATA_DIR) / 'logs' / child.name}.log")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"the web server did not answer on {url} within {timeout:.0f} s")


def stop_all(children: list[Child]) -> None:
    """SIGTERM every group, wait, then SIGKILL what is left: bots go with their worker
    (bubblewrap's --die-with-parent), and unfinished matches are the reaper's next start."""
    for child in children:
        if child.process.poll() is None:
            child.process.terminate()  # the main process: it stops its own children
    deadline = time.monotonic() + STOP_GRACE
    for child in children:
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.process.wait(max(0.1, deadline - time.monotonic()))
    for child in children:
        child.signal_group(signal.SIGKILL)  # the group: pool children and bots too
        child.process.wait()
    for child in children:  # their last lines written; a stray holder of the pipe not awaited
        child.logger.join(2)
