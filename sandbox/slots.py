"""Per-slot unprivileged uids, so no two bots running on this machine ever share one.

A slot is a lock file held with ``flock`` for as long as the bot runs; the lock vanishes
with its holder, so a crashed worker never leaks a slot. Slot ``n`` runs as uid/gid
``base + n`` (base 60000 unless ``BOTLEAGUE_UID_BASE`` says otherwise), a uid with no
account, no files and no other processes.

The lock file also records which run (``this_run``) took the slot last. What a killed holder
left in a slot nobody holds now is garbage whoever left it, and the slot's next holder sweeps
it; but a run checking for its own leftovers (a test session on a machine shared with other
leagues and test runs) counts only what its own processes left.
"""

from __future__ import annotations

import fcntl
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from sandbox.errors import SandboxError

SLOT_COUNT = int(os.environ.get("BOTLEAGUE_SLOTS", "256"))
UID_BASE = int(os.environ.get("BOTLEAGUE_UID_BASE", "60000"))
RUN_ENV = "BOTLEAGUE_RUN"
"""Names a run: a test session and the workers it starts, which inherit it. Unset, a process
is a run of its own."""


def this_run() -> str:
    return os.environ.get(RUN_ENV) or f"{socket.gethostname()}-{os.getpid()}"


def lock_dir() -> Path:
    """The folder of the slots' lock files, one per slot (``<index>.lock``)."""
    for candidate in (Path("/run/botleague/slots"), Path("/tmp/botleague-slots")):
        try:
            candidate.mkdir(parents=True, exist_ok=True, mode=0o700)
            return candidate
        except OSError:
            continue
    raise SandboxError("no writable folder for slot locks (/run/botleague or /tmp)")


@dataclass
class Slot:
    index: int
    fd: int

    @property
    def uid(self) -> int:
        return UID_BASE + self.index

    @property
    def gid(self) -> int:
        return UID_BASE + self.index

    @property
    def name(self) -> str:
        return f"slot-{self.index}"

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing drops the flock
            self.fd = -1


def acquire_slot() -> Slot:
    """The lowest free slot; raises ``SandboxError`` when all are taken."""
    folder = lock_dir()
    for index in range(SLOT_COUNT):
        fd = os.open(folder / f"{index}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        os.ftruncate(fd, 0)
        os.pwrite(fd, this_run().encode(), 0)
        return Slot(index, fd)
    raise SandboxError(f"all {SLOT_COUNT} sandbox slots are busy; raise BOTLEAGUE_SLOTS")


def try_slot(index: int) -> Slot | None:
    """Slot ``index`` if nobody holds it, else ``None`` (never waits)."""
    fd = os.open(lock_dir() / f"{index}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return Slot(index, fd)



def last_run(slot: Slot) -> str | None:
    """The run whose process took ``slot`` last (the caller holds it, so nobody writes), or
    None when the lock file does not say (made before runs were recorded)."""
    text = os.pread(slot.fd, 4096, 0).decode(errors="replace")
    return text or None
