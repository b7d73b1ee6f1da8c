"""The single-node swarm the swarm test's stack runs on (``tests/compose/early.py``): made here
with ``docker swarm init``, or the one this engine already manages, and left as found."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

from benchmarks.deployment import docker_lines, engine_ready, wait


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


