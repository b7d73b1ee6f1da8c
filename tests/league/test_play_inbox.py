"""The doorbells a play worker waits on for a person's move (``league.ladders.play.inbox``):
each wakes its waiter as soon as it is rung, from another thread (or process), and waits out
its time when it is not; a ring with nobody waiting is harmless."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from django.conf import settings

from league.ladders.play.inbox import Doorbell, PipeDoorbell, RedisDoorbell


@pytest.fixture(params=["pipe", "redis"])
def bell(request: pytest.FixtureRequest, tmp_path: Path) -> Doorbell:
    if request.param == "pipe":
        return PipeDoorbell(tmp_path / "play")
    return RedisDoorbell(settings.REDIS_URL)


def test_a_ring_wakes_the_waiter_at_once(bell: Doorbell) -> None:
    bell.forget(901)
    bell.wait(901, 0.01)  # the pipe is made by its first wait
    threading.Timer(0.2, bell.ring, (901,)).start()
    began = time.monotonic()
    bell.wait(901, 5.0)
    assert 0.15 < time.monotonic() - began < 1.0
    bell.forget(901)


def test_unrung_it_waits_its_time_and_a_ring_before_the_wait_is_kept(bell: Doorbell) -> None:
    bell.forget(902)
    bell.wait(902, 0.01)
    began = time.monotonic()
    bell.wait(902, 0.3)
    assert time.monotonic() - began >= 0.29
    bell.ring(902)  # rung between two waits: the next wait returns at once
    began = time.monotonic()
    bell.wait(902, 5.0)
    assert time.monotonic() - began < 0.5
    bell.forget(902)


def test_a_ring_with_nobody_waiting_is_harmless(tmp_path: Path) -> None:
    pipe = PipeDoorbell(tmp_path / "play")
    pipe.ring(903)  # no pipe at all
    pipe.wait(903, 0.01)
    pipe.forget(903)
    assert not (tmp_path / "play" / "903.bell").exists()
    pipe.ring(903)
