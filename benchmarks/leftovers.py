"""What a run left behind of its bots: processes, cgroups, match folders and containers.

Other matches may run on this machine meanwhile (another league, another test run, a
developer's ``sandbox play``): the slots are shared host-wide, each held by its referee for as
long as its bot runs. So the one rule here is the slot's: what belongs to a slot some *other*
live process holds is that process's, never a leftover. What belongs to a slot nobody holds,
or one this process holds (a referee here that should have released it), is.

The rule is judged while holding the slot's lock (``owned``): with only a look at the lock,
a foreign referee could release its slot between our listing of its bot and our look (a
"leftover" that is already gone) or take a free slot and start a bot in it right after.
Holding the lock, nothing of the slot can come or go by a referee's hand while we look.

Used by the tests' checks (``tests/conftest.py``, ``tests/sandbox/conftest.py``) and by the
compose harness (``deployment.Stack.leftovers``).
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from sandbox.backends.docker import RUN_LABEL
from sandbox.cgroups import CgroupManager
from sandbox.match_folders import (
    MATCH_FOLDER_PREFIX,
    match_folder_in_use,
    match_folder_owner,
    match_folder_run_tag,
    run_tag,
)
from sandbox.slots import RUN_ENV, SLOT_COUNT, UID_BASE, last_run, lock_dir, this_run, try_slot

RUN = os.environ.setdefault(RUN_ENV, this_run())
"""Names this process's run, and the workers it starts (they inherit it): their bot
containers carry it, and containers a test makes outside any slot carry it as ``RUN_LABEL``
(``run_labels``), so that another run's are not counted as ours."""


def run_labels() -> dict[str, str]:
    return {RUN_LABEL: RUN}


def slots_held_here() -> set[int]:
    """The slots whose lock file this process has open: the slots it holds (a probe closes
    its descriptor before returning)."""
    folder = str(lock_dir())
    held = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        match = re.fullmatch(re.escape(folder) + r"/(\d+)\.lock", target)
        if match:
            held.add(int(match.group(1)))
    return held


def owned(index: int, still_there: Callable[[], bool], any_run: bool = False) -> bool:
    """Whether what was seen of slot ``index`` is a leftover: it is still there while no
    other live process holds the slot, and the slot's last holder was of this run (or of
    ``any_run``). ``still_there`` is asked holding the slot's lock."""
    if index in slots_held_here():
        return still_there()  # flock would refuse us our own lock: ours, and not released
    slot = try_slot(index)
    if slot is None:
        return False  # a live referee's bot
    try:
        if not any_run and (run := last_run(slot)) is not None and run != RUN:
            return False  # a dead referee of another run's: that run's to count
        return still_there()
    finally:
        slot.release()


def _slot_uid(pid: int | str) -> int | None:
    """The slot whose uid process ``pid`` runs as, or None: not a bot's, gone, or a zombie
    another process has yet to reap. A zombie has run its last and holds nothing but its
    pid; one orphaned in a container whose pid 1 reaps no orphans (a compose worker's Celery)
    stays for good, and is that container's, not ours. Our own unreaped child still counts."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    uid = int(fields.get("Uid", "-1").split()[0])
    if not UID_BASE <= uid < UID_BASE + SLOT_COUNT:
        return None
    if fields.get("State", "").split()[:1] == ["Z"] and int(fields["PPid"]) != os.getpid():
        return None
    return uid - UID_BASE


def slot_processes(any_run: bool = False) -> list[str]:
    """Processes running as the uid of a slot no other process holds, left by this run (or
    by any: a deployment's worker, whose run is its own)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (index := _slot_uid(entry)) is not None \
                and owned(index, lambda pid=entry, slot=index: _slot_uid(pid) == slot,
                          any_run):
            found.append(f"pid {entry} uid {UID_BASE + index}")
    return found


def _pid_alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


def bot_cgroups() -> list[str]:
    """Bot cgroups of slots no other process holds, or of this process or a dead one (a
    referee that is not root names a cgroup after its pid)."""
    found = []
    for path in CgroupManager().leftovers():
        index = path.name.removeprefix("slot-")
        if path.name.startswith("slot-") and index.isdigit():
            if owned(int(index), path.exists):
                found.append(f"cgroup {path}")
        elif (pid := re.match(r"pid(\d+)-", path.name)) is None \
                or int(pid.group(1)) == os.getpid() or not _pid_alive(int(pid.group(1))):
            found.append(f"cgroup {path}")
    return found


def match_folders() -> list[str]:
    """Match folders of this process, or of a referee that is gone (nobody holds the lock).

    A live referee elsewhere is asked nothing: its folder is unlocked for a moment after it
    is made, and probing the lock then would make that referee give it up and make another.
    """
    found = []
    for path in Path(tempfile.gettempdir()).glob(f"{MATCH_FOLDER_PREFIX}*"):
        if (tag := match_folder_run_tag(path)) is not None and tag != run_tag(RUN):
            continue  # another run's referee's
        owner = match_folder_owner(path)
        gone = owner is None or not _pid_alive(owner)
        if owner == os.getpid() or (gone and not match_folder_in_use(path) and path.exists()):
            found.append(str(path))
    return found


def bot_containers() -> list[str]:
    """Bot containers of this run's (``RUN``) in slots no other process holds, and containers
    it made outside any slot (``run_labels``); nothing when there is no engine. A slot's
    container of another run (a deployment's worker killed mid-match on the same engine) is
    that run's to sweep."""
    try:
        from docker.errors import NotFound

        import docker
        from sandbox.backends.docker import LABEL, SLOT_LABEL

        client = docker.from_env()
        containers = client.containers.list(all=True, filters={"label": LABEL})
    except Exception:  # no engine here: no container either
        return []

    def exists(container_id: str) -> Callable[[], bool]:
        def check() -> bool:
            try:
                client.containers.get(container_id)
            except NotFound:
                return False
            return True
        return check

    found = []
    for container in containers:
        if container.labels.get(RUN_LABEL) != RUN:
            continue
        slot = container.labels.get(SLOT_LABEL, "")
        if slot.isdigit():
            if owned(int(slot), exists(container.id)):
                found.append(container.name)
        else:
            found.append(container.name)
    return found


def leftovers() -> list[str]:
    """Everything of a bot this process or a dead one left behind (empty: a clean machine)."""
    return [*slot_processes(), *bot_cgroups(), *(f"dir {p}" for p in match_folders()),
            *(f"container {name}" for name in bot_containers())]
