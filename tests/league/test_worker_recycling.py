"""Worker processes recycled after ``LEAGUE_WORKER_MAX_TASKS`` tasks (Celery's
``worker_max_tasks_per_child``) must not die when the thread that forked them ends: on the
embedded default, billiard's supervisor thread forks the replacements, and a warm shutdown
ends it (``league.celery``). ``test_up.py`` recycles every 3 tasks on the running league."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from django.conf import settings

from tests.league.conftest import ROOT

CHILD = """
import os, signal, sys, threading, time
import django
django.setup()
from billiard.util import set_pdeathsig
from celery.signals import worker_process_init
import league.celery  # noqa: F401  (its fork hook and signal handler)

mark = sys.argv[1]
fix = sys.argv[2] == "fix"

def fork():
    if os.fork() == 0:  # a pool process, as Celery's initializer prepares one
        set_pdeathsig(signal.SIGKILL)
        if fix:
            worker_process_init.send(sender=None)
        time.sleep(1.0)  # meanwhile the forking thread ends
        open(mark, "w").write("alive")
        os._exit(0)
    time.sleep(0.3)  # billiard's supervisor thread lives on until the pool closes

thread = threading.Thread(target=fork)
thread.start()
thread.join()
time.sleep(2.0)
"""


def run(tmp_path: Path, mode: str) -> bool:
    mark = tmp_path / mode
    subprocess.run([sys.executable, "-c", CHILD, str(mark), mode], cwd=ROOT, check=True,
                   timeout=60, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT),
                                    "DJANGO_SETTINGS_MODULE": "league.settings",
                                    "BOTLEAGUE_DATA": str(tmp_path / "data")})
    return mark.exists()


def test_a_pool_process_forked_by_a_thread_outlives_that_thread(tmp_path: Path) -> None:
    assert not run(tmp_path, "celery-alone"), "the kernel no longer kills it: test is moot"
    assert run(tmp_path, "fix")


def test_pool_processes_are_recycled_by_default() -> None:
    assert settings.CELERY_WORKER_MAX_TASKS_PER_CHILD == settings.LEAGUE_WORKER_MAX_TASKS > 0
