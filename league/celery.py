"""The Celery app. The database is the truth and the broker only a doorbell: a task carries a
match id, claims the row, and a lost or doubled message changes nothing (see ladders.running).
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")

app = Celery("league")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["league.ladders", "league.ops"])
