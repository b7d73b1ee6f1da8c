"""Play a match whose bots' freezers turn read-only after the first move; print the outcome.

Run by ``test_backend_faults.py`` as ``unshare --mount python -m tests.sandbox.read_only_freezer
BACKEND SPINNER OPPONENT``, in a mount namespace of its own: a bind mount on a cgroup's file
outlives the cgroup (removing the cgroup leaves the mount on a dead dentry, unreachable by
any path) until its namespace ends, so the read-only mounts are made where they end with this
process. The referee here sees them; nothing else on the machine does.

Prints one JSON line: ``outcome`` (the exception ``run_match`` raised, or "finished"),
``moves`` (the seat of each move played) and ``logged`` (what the sandbox logged at ERROR).
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

from games import State
from replay.record import MoveRecord
from sandbox import run_match
from sandbox.backends.docker import LABEL
from tests.sandbox.conftest import FAST


def freezer_file(pid: int) -> Path:
    """The file that freezes the cgroup of process ``pid`` (v1 freezer, else v2)."""
    v2 = None
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "freezer" in controllers.split(","):
            return Path("/sys/fs/cgroup/freezer") / path.lstrip("/") / "freezer.state"
        if controllers == "":
            v2 = path
    if v2 is not None:
        for line in Path("/proc/self/mounts").read_text().splitlines():
            _, mount, kind, *_ = line.split()
            if kind == "cgroup2" and (found := Path(mount) / v2.lstrip("/")
                                      / "cgroup.freeze").exists():
                return found
    raise LookupError(f"no freezer for pid {pid}")


def bot_pids(backend: str, names: list[str]) -> list[int]:
    """A host pid in each sandbox of this match: the process backend's bwrap (a child of
    this process), or a container's pid 1 (containers are labelled with the bot's name)."""
    if backend == "process":
        return [int(pid) for task in Path("/proc/self/task").iterdir()
                for pid in (task / "children").read_text().split()]
    import docker

    client = docker.from_env()
    return [int(container.attrs["State"]["Pid"]) for name in names
            for container in client.containers.list(filters={"label": f"{LABEL}={name}"})]


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def main(backend: str, spinner: str, opponent: str) -> None:
    kept = _Kept()
    logging.getLogger("sandbox").addHandler(kept)
    moves: list[int] = []

    def make_freezers_read_only(_state: State, move: MoveRecord) -> None:
        moves.append(move.seat)
        if len(moves) == 1:  # the spinner has moved (and forked); it is paused next
            names = [Path(spinner).name, Path(opponent).name]
            for pid in bot_pids(backend, names):
                path = str(freezer_file(pid))
                subprocess.run(["mount", "--bind", path, path], check=True)
                subprocess.run(["mount", "-o", "remount,bind,ro", path], check=True)

    try:
        run_match("stones", [spinner, opponent], backend=backend, limits=FAST,
                  on_move=make_freezers_read_only)
        outcome = "finished"
    except Exception as error:  # reported to the test, which judges it
        outcome = f"{type(error).__name__}: {error}"
    print(json.dumps({"outcome": outcome, "moves": moves, "logged": kept.messages}))


if __name__ == "__main__":
    main(*sys.argv[1:4])
