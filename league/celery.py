"""The Celery app. The database is the truth and the broker only a doorbell: a task carries a
match id, claims the row, and a lost or doubled message changes nothing (see ladders.running).
"""

from __future__ import annotations

import contextlib
import os
import threading

from billiard.util import set_pdeathsig
from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

app = Celery("league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["league.ladders", "league.competitions", "league.versiontests",
                        "league.ops", "league.notifications"])


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**_: object) -> None:
    """Django's request rule around each task: drop a connection that broke or outlived
    ``CONN_MAX_AGE``, and health-check the kept one on its next use."""
    from django.db import close_old_connections

    close_old_connections()


_forked_off_main = False
"""In a pool process: whether a thread other than its parent's main thread forked it."""


def _note_forking_thread() -> None:
    global _forked_off_main
    _forked_off_main = threading.current_thread() is not threading.main_thread()


os.register_at_fork(before=_note_forking_thread)


@worker_process_init.connect
def _outlive_the_forking_thread(**_: object) -> None:
    """Celery has the kernel SIGKILL a pool process when its parent dies (PR_SET_PDEATHSIG),
    but the kernel's parent is the *thread* that forked it. A process that replaces a
    recycled one (``LEAGUE_WORKER_MAX_TASKS``) is forked by billiard's supervisor thread when
    no event loop runs the pool (the embedded default's filesystem broker), and that thread
    ends at a warm shutdown: the matches in hand were killed instead of finished. Such a
    process drops the signal; it still leaves with its worker, whose pipes it reads close."""
    if _forked_off_main:
        with contextlib.suppress(OSError):
            set_pdeathsig(0)
