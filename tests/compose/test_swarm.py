"""The league as a swarm stack (docker/stack.yml through docker/stack.sh), on a single-node
swarm made here with ``docker swarm init`` (or on the swarm this engine already manages,
which is then left as it is): bots uploaded through the API are validated and rated; a
worker container killed with ``docker kill`` is replaced by the swarm and the matches it was
playing finish exactly once; and the stack's removal leaves nothing of it — services,
containers, secrets, network, volume, node labels — and the engine's swarm state as found."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.deployment import Stack, build_images, docker_lines, engine_ready, wait
from tests.compose.conftest import SETTINGS
from tests.compose.ledger import ledger
from tests.compose.scenarios import killed_worker_loses_and_doubles_nothing, steady_players

pytestmark = [pytest.mark.compose, pytest.mark.slow]


def engine_swarm() -> str:
    """``inactive``, ``active`` (a manager), or what else this engine's swarm state is."""
    state = docker_lines("info", "-f", "{{.Swarm.LocalNodeState}} {{.Swarm.ControlAvailable}}")
    return {"inactive false": "inactive", "active true": "active"}.get(state[0], state[0])


def why_not() -> str | None:
    """Why the swarm test cannot run here, or None."""
    reason = engine_ready()
    if reason:
        return reason
    state = engine_swarm()
    if state not in ("inactive", "active"):
        return f"this engine is in a swarm it does not manage ({state})"
    return None


def ipvs() -> bool:
    """Whether the kernel has IPVS, which the routing mesh needs (dockerd loads it)."""
    if not Path("/proc/net/ip_vs").exists() and shutil.which("modprobe"):
        subprocess.run(["modprobe", "-q", "ip_vs"], capture_output=True, check=False)
    return Path("/proc/net/ip_vs").exists()


@contextlib.contextmanager
def single_node_swarm() -> Iterator[None]:
    """This engine as a swarm manager, for the block; a swarm made here is left again, and
    the bridge it made (docker_gwbridge) removed."""
    if engine_swarm() == "active":
        yield
        return
    bridge_before = bool(docker_lines("network", "ls", "-q", "--filter", "name=^docker_gwbridge$"))
    # A loopback address: the swarm is this one machine, and nothing outside can join it.
    docker_lines("swarm", "init", "--advertise-addr", "127.0.0.1",
                 "--listen-addr", "127.0.0.1:2377")
    try:
        yield
    finally:
        docker_lines("swarm", "leave", "--force")
        if not bridge_before:
            # The bridge outlives the swarm; it goes once its last endpoint has.
            wait(lambda: subprocess.run(
                ["docker", "network", "rm", "docker_gwbridge"], capture_output=True,
                check=False).returncode == 0
                or not docker_lines("network", "ls", "-q", "--filter", "name=^docker_gwbridge$"),
                60, "docker_gwbridge removed")
        assert engine_swarm() == "inactive"


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    reason = why_not()
    if reason:
        pytest.skip(reason)
    images = build_images()
    # One worker task (one node), playing two matches at once. The mesh needs IPVS; without
    # it web is published on the node itself, where one replica holds the port.
    mesh = ipvs()
    with single_node_swarm():
        name = f"blswarm{uuid.uuid4().hex[:8]}"
        folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"botleague-{name}"
        dep = Stack(name=name, folder=folder, settings={**SETTINGS, "WORKER_CONCURRENCY": "2"},
                    web_replicas=2 if mesh else 1, publish="ingress" if mesh else "host",
                    images=images)
        try:
            dep.up()
            yield dep
        finally:
            # Idempotent: the last test has normally done it and checked what is left.
            dep.down()


def rows(answer: list | dict) -> list:
    return answer["results"] if isinstance(answer, dict) else answer


@pytest.fixture(scope="module")
def players(stack: Stack) -> list[dict[str, Any]]:
    return steady_players(stack)


def test_bots_uploaded_through_the_api_are_validated_and_rated(
        stack: Stack, players: list[dict[str, Any]]) -> None:
    # steady_players uploaded two bots through the API and waited for their validation
    def rated() -> bool:
        board = rows(stack.get("/api/ladders/stones/rankings/"))
        return len(board) == 2 and all(row["games"] >= 2 for row in board)

    wait(rated, 240, "both bots rated twice", lambda: stack.logs("worker", "ticks"))
    assert ledger(stack)["problems"] == []
    health = stack.get("/health/")
    assert health["status"] == "ok" and health["workers_alive"] == 1, health
    assert len(stack.containers("web")) == stack.web_replicas
    # the secrets came from files: no service's spec holds a value
    spec = "\n".join(docker_lines("service", "inspect", "-f", "{{json .Spec}}",
                                  *(stack.service(s) for s in ("web", "worker", "db"))))
    env = dict(line.split("=", 1) for line in stack.env_file.read_text().splitlines())
    assert "DATABASE_URL_FILE" in spec
    for name in ("SECRET_KEY", "POSTGRES_PASSWORD", "REDIS_PASSWORD"):
        assert env[name] not in spec, name


def test_a_worker_killed_is_replaced_by_the_swarm_and_its_matches_finish_once(
        stack: Stack, players: list[dict[str, Any]]) -> None:
    def swarm_replaces(victim: str) -> None:
        wait(lambda: [c for c in stack.containers("worker") if c != victim], 120,
             "the swarm to start a new worker", lambda: stack.logs("worker"))

    # the killed worker's matches are played again by the new worker
    killed_worker_loses_and_doubles_nothing(stack, comes_back=swarm_replaces)
    wait(lambda: stack.get("/health/")["workers_alive"] >= 1, 60, "the new worker alive")


def test_removing_the_stack_leaves_nothing_of_it(stack: Stack) -> None:
    said = stack.down()
    assert "stack removed" in said, said
    assert not any(stack.leftovers().values()), stack.leftovers()
