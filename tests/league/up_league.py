"""The whole league as a newcomer starts it (``./dev up`` or ``manage.py up``) on the embedded
default, for the tests that walk it: a free port, a process group of its own, none of this
shell's database, broker or league settings, and nothing left running however the test ends."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.league.conftest import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def league_up(command: list[str], data: Path, out: Path, **settings: str
              ) -> Iterator[subprocess.Popen]:
    """``command`` run from the project's folder on the data folder ``data`` with ``settings``
    added to its environment, its output in ``out``; its process group killed at the end of
    the block if the test has not stopped it."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
           and not k.startswith("LEAGUE_")}
    env.update(BOTLEAGUE_DATA=str(data), **settings)
    with open(out, "wb") as sink:
        up = subprocess.Popen(command, cwd=ROOT, env=env, stdout=sink,
                              stderr=subprocess.STDOUT, start_new_session=True)
    try:
        yield up
    finally:
        if up.poll() is None:
            os.killpg(up.pid, signal.SIGKILL)
            up.wait()
