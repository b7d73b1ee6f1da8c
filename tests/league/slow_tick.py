"""A tick that takes its time, loaded into a test's ticks worker (``--include``)."""

from __future__ import annotations

import time

from celery import shared_task


@shared_task(name="tests.slow_tick")
def slow_tick(seconds: float) -> None:
    time.sleep(seconds)
