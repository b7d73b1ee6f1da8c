"""Shared bits of the benchmarks: timing helpers and one table format.

Every benchmark measures its baseline in the same run and prints the ratio, so figures from
a loaded or slower machine still compare like with like.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass


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
    """Stop ``process``, started in a session of its own, with everything it started:
    SIGTERM to the group, SIGKILL if it is still there after ``grace`` seconds."""
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


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
