"""The Celery app. The database is the truth and the broker only a doorbell: a task carries a
match id, claims the row, and a lost or doubled message changes nothing (see ladders.running).
"""

from __future__ import annotations

import os

from celery import Celery
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

app = Celery("league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["league.ladders", "league.competitions", "league.ops"])


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**_: object) -> None:
    """Django's request rule around each task: drop a connection that broke or outlived
    ``CONN_MAX_AGE``, and health-check the kept one on its next use."""
    from django.db import close_old_connections

    close_old_connections()
