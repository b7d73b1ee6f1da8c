"""One compose deployment for the module's tests: images built (or reused), brought up under a
project name of its own, and brought down — containers, network, volumes, host folder —
however the tests end."""

from __future__ import annotations

import contextlib
import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from benchmarks.deployment import Deployment, build_images, docker_ready

SETTINGS = {
    # Seconds, not minutes: a lost worker or message is noticed within the test's patience.
    "LEAGUE_HEARTBEAT_SECONDS": "1", "LEAGUE_STALE_AFTER": "8", "LEAGUE_RESEND_AFTER": "6",
    "LEAGUE_REAPER_SECONDS": "2", "LEAGUE_MATCHMAKING_SECONDS": "2",
    "LEAGUE_WORKER_BEAT_SECONDS": "2", "LEAGUE_WORKER_SLOTS": "2", "WORKER_CONCURRENCY": "1",
    "WEB_PROCESSES": "1", "LOG_FORMAT": "json",
    # The fault tests count what the beat makes: no ladder refills itself between beats.
    "LEAGUE_KEEP_BUSY": "false",
}


@contextlib.contextmanager
def deployed(workers: int, sandbox: str = "bwrap") -> Iterator[Deployment]:
    """A deployment of its own project, up with ``workers`` workers, then brought down and
    checked gone (containers, volumes, host folder) however the tests end."""
    reason = docker_ready()
    if reason:
        pytest.skip(reason)
    build_images()
    project = f"bltest{uuid.uuid4().hex[:8]}"
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"botleague-{project}"
    dep = Deployment(project=project, folder=folder, settings=SETTINGS, sandbox=sandbox)
    try:
        dep.up(workers=workers)
        yield dep
    finally:
        # Workers first, gently: their matches end and their bots go with them.
        dep.compose("stop", "-t", "60", dep.worker, check=False)
        dep.down()
        leftovers = subprocess.run(
            ["docker", "ps", "-aq", "--filter", f"label=com.docker.compose.project={project}"],
            capture_output=True, text=True, check=False).stdout.split()
        volumes = subprocess.run(["docker", "volume", "ls", "-q", "--filter",
                                  f"label=com.docker.compose.project={project}"],
                                 capture_output=True, text=True, check=False).stdout.split()
        assert not leftovers and not volumes and not folder.exists(), (leftovers, volumes)


@pytest.fixture(scope="package")
def deployment() -> Iterator[Deployment]:
    with deployed(workers=2) as dep:
        yield dep
