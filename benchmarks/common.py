"""Shared bits of the benchmarks: timing helpers and one table format.

Every benchmark measures its baseline in the same run and prints the ratio, so figures from
a loaded or slower machine still compare like with like.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Row:
    what: str
    ours: float
    baseline: float | None
    unit: str
    target: str = ""
    higher_is_better: bool = True

    @property
    def ratio(self) -> float | None:
        if self.baseline in (None, 0) or self.ours == 0:
            return None
        return self.ours / self.baseline if self.higher_is_better else self.baseline / self.ours


def stop_group(process: subprocess.Popen, grace: float) -> None:
    """Stop ``process``, started in a session of its own, with everything it started.

    SIGTERM goes to the main process alone, which stops its children its own way (a Celery
    worker its pool, ``./dev up`` its services, gunicorn its workers), as an operator's stop
    does: sent to the whole group it reaches those children too, and a Celery main then
    waits for a pool that is already going until it is killed. Whatever of the group is left
    after ``grace`` seconds is SIGKILLed; returns once none of it runs.
    """
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(grace)
    kill_group(process)


def kill_group(process: subprocess.Popen, timeout: float = 60) -> None:
    """SIGKILL ``process``'s whole group (it started a session of its own) and return once
    none of it runs: a child still dying could yet write to a database the caller is about
    to clean (its pool's processes are not ``process``'s to wait for)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout)
    deadline = time.monotonic() + timeout
    while left := group_members(process.pid):
        if time.monotonic() > deadline:
            raise RuntimeError(f"processes {left} of group {process.pid} outlived SIGKILL")
        time.sleep(0.05)


def group_members(pgid: int) -> list[int]:
    """The processes of group ``pgid`` that still run (a zombie has run its last)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()  # state, ppid, pgrp, ...
        if int(fields[2]) == pgid and fields[0] not in "ZX":
            found.append(int(entry))
    return found


def pin_to_one_core() -> None:
    """Measure on one core, as the targets are stated (no-op where not supported)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def rate(fn: Callable[[], int], seconds: float) -> float:
    """Call ``fn`` (which returns how many units it did) for ``seconds``; units per second."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += fn()
    return done / elapsed


def print_table(title: str, rows: list[Row]) -> None:
    print(f"\n{title}")
    print(f"{'measure':<52} {'ours':>14} {'baseline':>14} {'ratio':>9}  target")
    for r in rows:
        base = "-" if r.baseline is None else f"{r.baseline:,.4g}"
        ratio = "-" if r.ratio is None else f"{r.ratio:,.1f}x"
        print(f"{r.what:<52} {r.ours:>10,.4g} {r.unit:<3} {base:>14} {ratio:>9}  {r.target}")
