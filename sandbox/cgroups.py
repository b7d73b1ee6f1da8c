"""A cgroup per bot: memory and pids limits, the freezer, the OOM-kill count, and a sweep.

Works with cgroup v2 (one hierarchy, ``/sys/fs/cgroup``) and with v1 hierarchies (the
``memory``, ``pids`` and ``freezer`` controllers mounted separately, as on this worker kind).
Bot cgroups live under a ``botleague`` parent and are named after the bot's slot, so one left
by a crashed worker is swept and reused by the next bot in that slot.

Teardown is asynchronous: processes of a dying pid namespace linger for a moment after its
init exits, so ``remove`` first kills and waits until the cgroup is empty, then removes it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

PARENT = "botleague"


def _mounts() -> list[tuple[str, str, set[str]]]:
    out = []
    with open("/proc/self/mounts") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 4 and parts[2] in {"cgroup", "cgroup2"}:
                out.append((parts[2], parts[1], set(parts[3].split(","))))
    return out


def _write(path: Path, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


@dataclass
class Cgroup:
    """One bot's cgroup: a directory per hierarchy (v1) or a single one (v2)."""

    version: int
    dirs: dict[str, Path]  # controller ("memory", "pids", "freezer", or "" for v2) -> dir
    _freeze_fd: int = -1

    def __post_init__(self) -> None:
        self._procs_path = str(self._main_dir() / "cgroup.procs")

    @property
    def procs_files(self) -> list[str]:
        return [str(d / "cgroup.procs") for d in dict.fromkeys(self.dirs.values())]

    def _main_dir(self) -> Path:
        return self.dirs.get("pids") or next(iter(self.dirs.values()))

    def pids(self) -> tuple[int, ...]:
        # Opened afresh each time: v1 caches the pid list per open file, so re-reading a
        # kept descriptor returns processes that are long gone.
        fd = os.open(self._procs_path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            data = os.read(fd, 1 << 16)
        finally:
            os.close(fd)
        return tuple(sorted(int(x) for x in data.split()))

    def freeze(self) -> None:
        self._freezer_write(b"1" if self.version == 2 else b"FROZEN")

    def thaw(self) -> None:
        self._freezer_write(b"0" if self.version == 2 else b"THAWED")

    def _freezer_write(self, value: bytes) -> None:
        if self._freeze_fd < 0:
            if self.version == 2:
                path = self.dirs[""] / "cgroup.freeze"
            else:
                path = self.dirs["freezer"] / "freezer.state"
            self._freeze_fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
        os.write(self._freeze_fd, value)

    @property
    def can_freeze(self) -> bool:
        return self.version == 2 or "freezer" in self.dirs

    def oom_kills(self) -> int:
        if self.version == 2:
            path, key = self.dirs[""] / "memory.events", "oom_kill"
        elif "memory" in self.dirs:
            path, key = self.dirs["memory"] / "memory.oom_control", "oom_kill"
        else:
            return 0
        try:
            for line in path.read_text().splitlines():
                name, _, value = line.partition(" ")
                if name == key:
                    return int(value)
        except OSError:
            pass
        return 0

    def sweep(self, timeout: float = 5.0) -> bool:
        """Kill every process in the cgroup and wait until it is empty; True if it emptied."""
        deadline = time.monotonic() + timeout
        pause = 0.0005
        while True:
            try:
                pids = self.pids()
            except OSError:
                return True
            if not pids:
                return True
            if time.monotonic() > deadline:
                return False
            self._kill_all(pids)
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def kill_all(self) -> None:
        """SIGKILL every process now, without waiting for them to go."""
        try:
            pids = self.pids()
        except OSError:
            return
        if pids:
            self._kill_all(pids)

    def _kill_all(self, pids: tuple[int, ...]) -> None:
        kill_file = self.dirs.get("", Path("/nonexistent")) / "cgroup.kill"
        if self.version == 2 and kill_file.exists():
            _write(kill_file, "1")
            return
        # Freeze first so nothing forks between listing and killing, then thaw to let die.
        frozen = False
        if self.can_freeze:
            try:
                self.freeze()
                frozen = True
            except OSError:
                pass
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if frozen:
            self.thaw()

    def remove(self) -> None:
        """Sweep, then remove every directory (retrying while the kernel still holds it)."""
        self.sweep()
        if self._freeze_fd >= 0:
            os.close(self._freeze_fd)
        self._freeze_fd = -1
        for path in dict.fromkeys(self.dirs.values()):
            _rmdir_patiently(path)


def _rmdir_patiently(path: Path, timeout: float = 2.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            os.rmdir(path)
            return
        except FileNotFoundError:
            return
        except OSError as error:
            if error.errno != errno.EBUSY or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


class CgroupManager:
    """Finds the usable hierarchy on this host and creates bot cgroups under ``botleague``."""

    def __init__(self) -> None:
        self.version = 0
        self.roots: dict[str, Path] = {}
        self.problem = ""
        self._detect()

    @property
    def available(self) -> bool:
        return bool(self.roots)

    def describe(self) -> str:
        if not self.available:
            return f"no cgroups ({self.problem})"
        controllers = ", ".join(sorted(k or "memory+pids+freeze" for k in self.roots))
        return f"cgroup v{self.version} ({controllers})"

    def _detect(self) -> None:
        if os.geteuid() != 0:
            self.problem = "not root"
            return
        mounts = _mounts()
        for kind, where, _opts in mounts:
            if kind == "cgroup2":
                controllers = Path(where, "cgroup.controllers")
                if controllers.exists() and {"memory", "pids"} <= set(
                        controllers.read_text().split()) and self._prepare_v2(Path(where)):
                    return
        for kind, where, opts in mounts:
            if kind == "cgroup":
                for controller in ("memory", "pids", "freezer"):
                    if controller in opts and controller not in self.roots:
                        parent = Path(where) / PARENT
                        try:
                            parent.mkdir(exist_ok=True)
                        except OSError as error:
                            self.problem = f"cannot create {parent}: {error.strerror}"
                            continue
                        self.roots[controller] = parent
        if self.roots:
            self.version = 1
        elif not self.problem:
            self.problem = "no memory/pids controller mounted"

    def _prepare_v2(self, mount: Path) -> bool:
        parent = mount / PARENT
        try:
            parent.mkdir(exist_ok=True)
            for level in (mount, parent):
                _write(level / "cgroup.subtree_control", "+memory +pids")
        except OSError as error:
            self.problem = f"cgroup v2 delegation failed: {error.strerror}"
            return False
        self.version = 2
        self.roots = {"": parent}
        return True

    def create(self, name: str, memory: int, pids: int) -> Cgroup:
        dirs = {controller: root / name for controller, root in self.roots.items()}
        existing = {c: d for c, d in dirs.items() if d.exists()}
        if existing:  # left by a worker that died mid-match
            Cgroup(self.version, existing).remove()
        for d in dirs.values():
            d.mkdir()
        group = Cgroup(self.version, dirs)
        try:
            self._limit(group, memory, pids)
        except OSError:
            group.remove()
            raise
        return group

    def _limit(self, group: Cgroup, memory: int, pids: int) -> None:
        if self.version == 2:
            d = group.dirs[""]
            _write(d / "memory.max", str(memory))
            if (d / "memory.swap.max").exists():
                _write(d / "memory.swap.max", "0")
            _write(d / "pids.max", str(pids))
            return
        if "memory" in group.dirs:
            d = group.dirs["memory"]
            _write(d / "memory.limit_in_bytes", str(memory))
            if (d / "memory.memsw.limit_in_bytes").exists():
                _write(d / "memory.memsw.limit_in_bytes", str(memory))
            if (d / "memory.swappiness").exists():
                _write(d / "memory.swappiness", "0")
        if "pids" in group.dirs:
            _write(group.dirs["pids"] / "pids.max", str(pids))

    def remove_named(self, name: str) -> None:
        """Kill what is in the bot cgroup ``name`` and remove it (thawing it if frozen)."""
        dirs = {c: root / name for c, root in self.roots.items() if (root / name).exists()}
        if dirs:
            Cgroup(self.version, dirs).remove()

    def leftovers(self) -> list[Path]:
        """Bot cgroups that still exist (tests check that none are left behind)."""
        return sorted(p for root in self.roots.values() if root.exists()
                      for p in root.iterdir() if p.is_dir())
