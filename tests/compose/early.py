"""The deployments a run needs (compose projects, the swarm stack), brought up in a thread as
soon as the run's tests are collected, while the tests before them run; and brought down in a
thread once their tests are done, while the tests after them run. Building the images and
starting a deployment is minutes of waiting on Docker, and so is stopping one (a worker
finishes its match first); a deployment idle meanwhile (no bot uploaded yet, so no match)
costs the tests beside it next to nothing.

A fixture takes its deployment when its first test starts (waiting for the bring-up, if it
is not done) and gives it back at its end; what was given back is checked gone (containers,
volumes, host folder) before the run ends, and a run whose deployment is not gone fails. One
never taken (its tests deselected, or the run stopped early) is brought down at the end."""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
import traceback
import uuid
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from benchmarks.deployment import Deployment, Stack, build_images, docker_ready

SETTINGS = {
    # Seconds, not minutes: a lost worker or message is noticed within the test's patience.
    "LEAGUE_HEARTBEAT_SECONDS": "1", "LEAGUE_STALE_AFTER": "8", "LEAGUE_RESEND_AFTER": "6",
    "LEAGUE_REAPER_SECONDS": "2", "LEAGUE_MATCHMAKING_SECONDS": "2",
    "LEAGUE_WORKER_BEAT_SECONDS": "2", "LEAGUE_WORKER_SLOTS": "2", "WORKER_CONCURRENCY": "1",
    "WEB_PROCESSES": "1", "LOG_FORMAT": "json",
    # The fault tests count what the beat makes: no ladder refills itself between beats.
    "LEAGUE_KEEP_BUSY": "false",
}


def compose_up(workers: int, sandbox: str) -> Deployment:
    """A compose project of its own, up with ``workers`` workers (``bwrap``: bubblewrap
    inside the worker's container; ``docker``: bots in the host engine's containers)."""
    project = f"bltest{uuid.uuid4().hex[:8]}"
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"botleague-{project}"
    dep = Deployment(project=project, folder=folder, settings=SETTINGS, sandbox=sandbox)
    try:
        dep.up(workers=workers)
    except BaseException:
        with contextlib.suppress(Exception):
            compose_down(dep)
        raise
    return dep


def compose_down(dep: Deployment) -> None:
    """Workers first, gently (their matches end and their bots go with them), then the rest;
    checked gone (containers, volumes, host folder)."""
    dep.compose("stop", "-t", "60", dep.worker, check=False)
    dep.down()
    label = f"label=com.docker.compose.project={dep.project}"
    leftovers = subprocess.run(["docker", "ps", "-aq", "--filter", label],
                               capture_output=True, text=True, check=False).stdout.split()
    volumes = subprocess.run(["docker", "volume", "ls", "-q", "--filter", label],
                             capture_output=True, text=True, check=False).stdout.split()
    assert not leftovers and not volumes and not dep.folder.exists(), (leftovers, volumes)


def swarm_up(images: dict[str, str]) -> tuple[Stack, contextlib.ExitStack]:
    """The stack on a single-node swarm made for it (or the swarm this engine manages): one
    worker task playing two matches at once; the mesh needs IPVS, and without it web is
    published on the node itself, where one replica holds the port."""
    from tests.compose.swarm import ipvs, single_node_swarm, why_not

    reason = why_not()
    if reason:
        pytest.skip(reason)
    mesh = ipvs()
    left = contextlib.ExitStack()
    left.enter_context(single_node_swarm())
    try:
        name = f"blswarm{uuid.uuid4().hex[:8]}"
        folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"botleague-{name}"
        stack = Stack(name=name, folder=folder,
                      settings={**SETTINGS, "WORKER_CONCURRENCY": "2"},
                      web_replicas=2 if mesh else 1, publish="ingress" if mesh else "host",
                      images=images)
        left.callback(stack.down)  # idempotent: the swarm test's last test has done it
        stack.up()
    except BaseException:
        left.close()
        raise
    return stack, left


@dataclass(frozen=True)
class Kind:
    """A deployment some of the run's modules use: how it is brought up (given the images
    built) and down."""

    up: Callable[[dict[str, str]], Any]
    down: Callable[[Any], None]
    modules: tuple[str, ...]


KINDS = {
    # the package's (tests/compose/conftest.py): two workers, bubblewrap inside
    "bwrap": Kind(lambda images: compose_up(2, "bwrap"), compose_down,
                  ("tests/compose/test_deployment.py", "tests/compose/test_faults.py")),
    "engine": Kind(lambda images: compose_up(1, "docker"), compose_down,
                   ("tests/compose/test_engine_worker.py",)),
    "swarm": Kind(swarm_up, lambda made: made[1].close(), ("tests/compose/test_swarm.py",)),
}


class Early:
    """The deployments being brought up for this run, and those being brought down."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._made: dict[str, Future[Any]] = {}
        self._taken: set[str] = set()
        self._downs: list[tuple[str, Future[None]]] = []

    def start(self, kinds: Iterable[str]) -> None:
        """Bring these up in one thread, one after the other, the images first."""
        with self._lock:
            order = [k for k in dict.fromkeys(kinds) if k not in self._made]
            if not order or docker_ready():
                return
            for k in order:
                self._made[k] = Future()
        threading.Thread(target=self._bring_up, args=(order,), daemon=True,
                         name="deployments-up").start()

    def _bring_up(self, order: list[str]) -> None:
        try:
            images = build_images()
        except BaseException as error:  # every fixture waiting says why
            for k in order:
                self._made[k].set_exception(error)
            return
        for k in order:
            try:
                self._made[k].set_result(KINDS[k].up(images))
            except BaseException as error:  # a skip too: the fixture raises it
                self._made[k].set_exception(error)

    def take(self, kind: str) -> Any:
        """The deployment, once up (brought up now if nothing started it)."""
        reason = docker_ready()
        if reason:
            pytest.skip(reason)
        self.start([kind])
        with self._lock:
            self._taken.add(kind)
        return self._made[kind].result(timeout=1500)

    @contextlib.contextmanager
    def lent(self, kind: str) -> Iterator[Any]:
        """A fixture's deployment for its block: taken, then given back however it ends."""
        made = self.take(kind)
        try:
            yield made
        finally:
            self.give_back(kind, made)

    def give_back(self, kind: str, made: Any) -> None:
        """Bring it down in a thread; ``close`` says whether that went well."""
        done: Future[None] = Future()

        def down() -> None:
            try:
                KINDS[kind].down(made)
            except BaseException as error:
                done.set_exception(error)
            else:
                done.set_result(None)

        self._downs.append((kind, done))
        threading.Thread(target=down, daemon=True, name=f"{kind}-down").start()

    def close(self) -> list[str]:
        """Bring down what was never taken, wait for every bring-down: what went wrong."""
        for kind, made in list(self._made.items()):
            if kind not in self._taken:
                with contextlib.suppress(BaseException):
                    self.give_back(kind, made.result(timeout=1500))
        problems = []
        for kind, done in self._downs:
            try:
                done.result(timeout=600)
            except BaseException as error:
                problems.append(f"the {kind} deployment was not brought down cleanly:\n"
                                + "".join(traceback.format_exception(error)))
        return problems


EARLY = Early()


def kinds_used(items: Iterable[pytest.Item]) -> list[str]:
    """The deployments the collected ``items`` use, in the order their tests run."""
    modules = {item.path.relative_to(item.config.rootpath).as_posix() for item in items}
    return [k for k, kind in KINDS.items() if modules & set(kind.modules)]
