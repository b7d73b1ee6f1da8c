"""The embedded side of the throughput benchmark: the no-configuration league (SQLite, kombu's
filesystem broker, the ladder's process backend) with a real Celery worker of 1 or N
processes on this machine, timed from committing the matches to the last one finished."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def configure(data: Path) -> None:
    """Before Django is imported: the embedded default, its data in a scratch folder."""
    os.environ["BOTLEAGUE_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings"
    for name in ("DATABASE_URL", "REDIS_URL", "CACHE_URL", "LEAGUE_SANDBOX_BACKEND"):
        os.environ.pop(name, None)


class EmbeddedBench:
    def __init__(self, data: Path) -> None:
        self.data = data
        self.worker: subprocess.Popen | None = None
        self.processes = 0
        self.versions: list = []

    def start(self, source: bytes) -> None:
        from django.contrib.auth.models import User
        from django.core.management import call_command

        from league.ladders.models import Ladder
        from league.ladders.services import version_upload

        call_command("migrate", verbosity=0)
        owner = User.objects.create_user("bench")
        self.versions = [version_upload(owner=owner, game="stones", name=f"bench{i}",
                                        filename="main.py", data=source + f"\n# {i}\n".encode())
                         for i in range(2)]
        self.scale(1)
        wait_idle()
        Ladder.objects.update(active=False)

    def scale(self, processes: int) -> None:
        if self.worker is not None and self.processes == processes:
            return
        self.stop()
        self.processes = processes
        log = self.data / f"worker{processes}.log"
        command = [sys.executable, "-m", "celery", "-A", "league", "worker", "-l", "info",
                   "-c", str(processes), "--without-mingle", "--without-gossip",
                   "--without-heartbeat"]
        with open(log, "wb") as out:
            self.worker = subprocess.Popen(command, cwd=ROOT, stdout=out,
                                           stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 90
        while " ready." not in log.read_text(errors="replace"):
            if time.monotonic() > deadline or self.worker.poll() is not None:
                raise SystemExit(f"the worker did not start; see {log}")
            time.sleep(0.1)

    def run(self, seeds: list[int]) -> float:
        from django.db import transaction

        from league.ladders.models import Ladder, MatchKind
        from league.ladders.services import match_create

        ladder = Ladder.objects.get(game="stones")
        a, b = self.versions
        start = time.perf_counter()
        with transaction.atomic():
            for i, seed in enumerate(seeds):
                match_create(ladder=ladder, kind=MatchKind.LADDER, seed=seed,
                             seats=[a, b] if i % 2 == 0 else [b, a])
        wait_idle()
        return time.perf_counter() - start

    def run_costed(self, seeds: list[int]) -> tuple[float, None]:
        return self.run(seeds), None

    def stop(self) -> None:
        if self.worker is not None:
            os.killpg(self.worker.pid, signal.SIGKILL)
            self.worker.wait()
            self.worker = None


def wait_idle(timeout: float = 900) -> None:
    from league.ladders.lifecycle import OPEN as OPEN_STATUSES
    from league.ladders.models import Match

    deadline = time.monotonic() + timeout
    while Match.objects.filter(status__in=OPEN_STATUSES).exists():
        if time.monotonic() > deadline:
            raise SystemExit("matches did not finish in time")
        time.sleep(0.05)
