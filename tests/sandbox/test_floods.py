"""Bots that print without end: the worker's memory, disk and time stay bounded.

A bot may print as fast as it can, to stdout or stderr, during its move or after the match is
over. The referee keeps only what the protocol needs (the reply lines under the output cap,
the tail of the log), nothing of it reaches the worker's disk, and a match whose bot is still
printing ends as soon as the referee is done with it.
"""

from __future__ import annotations

import time
import tracemalloc
from pathlib import Path

import pytest

from sandbox.backends import LaunchSpec
from sandbox.backends.docker import LABEL
from sandbox.limits import MIB
from sandbox.runtime import library_dir, python_interpreter
from tests.sandbox.conftest import BOTS, FAST, attack, backend_or_skip, play

pytestmark = pytest.mark.usefixtures("clean_worker")
OPPONENT = str(BOTS / "first.py")
# Prints to stdout from the start, never reads: a bot with output nobody will ever read.
FLOOD_AT_ONCE = "import os\nwhile True:\n    os.write(1, b'x' * 65536)\n"


def container_files(name: str) -> int:
    """Bytes the Docker engine keeps on disk for the running containers of bot ``name``."""
    import docker

    client = docker.from_env()
    root = Path(client.info()["DockerRootDir"]) / "containers"
    total = 0
    for container in client.containers.list(filters={"label": f"{LABEL}={name}"}):
        files = [root / container.id, Path(container.attrs.get("LogPath") or root / "-")]
        for folder in files:
            if folder.is_file():
                total += folder.stat().st_size
            elif folder.is_dir():
                total += sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())
    return total


@pytest.mark.docker
def test_a_stderr_flood_never_reaches_the_workers_disk(tmp_path: Path) -> None:
    backend_or_skip("docker")
    on_disk: list[int] = []

    def measure(_state, move) -> None:
        if move.seat == 0:  # the bot's first move is done: it has printed its 64 MiB
            on_disk.append(container_files("stderr_flood"))

    record = play([attack(tmp_path, "stderr_flood"), OPPONENT], "docker", on_move=measure)
    assert record.forfeit is None, record.result
    assert "earlier bytes dropped" in record.players[0].log  # the referee saw the flood
    assert len(record.players[0].log) < 2 * FAST.log_bytes
    assert on_disk and max(on_disk) < 1 * MIB, on_disk


@pytest.mark.parametrize("backend", [
    "process", pytest.param("docker", marks=pytest.mark.docker), "bare"])
def test_printing_after_end_is_capped_and_cut_short(tmp_path: Path, backend: str) -> None:
    backend_or_skip(backend)
    limits = FAST.with_changes(max_output=256 * 1024)
    bot = attack(tmp_path, "flood_after_end")
    tracemalloc.start()
    began = time.monotonic()
    try:
        record = play([bot, OPPONENT], backend, limits=limits)
        took = time.monotonic() - began
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert record.forfeit is None, record.result  # the match was over: nothing to forfeit
    # the referee held at most the cap and a read's worth, not what the bot printed in the
    # end grace (hundreds of MiB at full speed)
    assert peak < 8 * MIB, f"{peak / MIB:.0f} MiB"
    # the bot got its end grace, was killed, and nothing waited on what it still printed
    assert took < 10 + limits.end_grace, f"{took:.1f} s"

@pytest.mark.parametrize("backend", [
    "process", pytest.param("docker", marks=pytest.mark.docker), "bare"])
def test_a_bot_whose_output_nobody_reads_is_killed_at_once(backend: str) -> None:
    engine = backend_or_skip(backend)
    spec = LaunchSpec([python_interpreter(), "-c", FLOOD_AT_ONCE], FAST, library_dir(),
                      label="flood-at-once")
    bot = engine.launch(spec)
    try:
        time.sleep(0.5)  # every buffer between the bot and the referee fills up
        began = time.monotonic()
        bot.kill()
        exit_info = bot.wait(10.0)
        took = time.monotonic() - began
    finally:
        bot.cleanup()
    assert exit_info is not None and exit_info.signal is not None, exit_info
    # what is still in the pipes must not hold up the kill (the Docker engine once did until
    # the client's 60 s timeout)
    assert took < 5, f"{took:.1f} s"
