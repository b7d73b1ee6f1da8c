"""The baseline of the throughput benchmark: the same matches run straight through
``sandbox.run_match``, in 1 or N processes at once, no league around them."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPTIONS = {"size": 5}
PACED = """\
import random, time
from botlib import run

def play(turn):
    time.sleep({think})  # thinks on the clock, not on a core
    return random.choice(turn.legal_moves)

run(play)
"""
"""A bot whose moves take wall time but almost no CPU: with it the rate measures how well the
platform runs matches side by side, not how many free cores the machine has."""


def bot_source(kind: str, think_ms: int = 20) -> bytes:
    if kind == "paced":
        return PACED.format(think=think_ms / 1000).encode()
    return (ROOT / "examples" / "stones" / "main.py").read_bytes()


def _play(bot: str, backend: str, seeds: list[int], first: int) -> int:
    from sandbox import BotSpec, Limits, run_match

    specs = [BotSpec(bot, label="a"), BotSpec(bot, label="b")]
    for i, seed in enumerate(seeds, start=first):
        run_match("stones", specs if i % 2 == 0 else specs[::-1], options=OPTIONS, seed=seed,
                  limits=Limits(move_time=1.0, time_bank=2.0), backend=backend)
    return len(seeds)


def machine_cpu_seconds() -> float:
    """CPU time every process on the machine has used since boot (engine and kernel too)."""
    with open("/proc/stat") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle and iowait
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK")


def direct_seconds(bot: str, backend: str, seeds: list[int], processes: int
                   ) -> tuple[float, float]:
    """Wall seconds for every seed's match, split over ``processes`` processes, and the
    machine's CPU seconds meanwhile: a container engine's work shows there, not in ours."""
    shares = [seeds[i::processes] for i in range(processes)]
    with ProcessPoolExecutor(processes) as pool:
        for warm in [pool.submit(_play, bot, backend, seeds[:1], 0) for _ in range(processes)]:
            warm.result()  # imports, the backend, the image: untimed, as in the league
        start, cpu = time.perf_counter(), machine_cpu_seconds()
        done = sum(f.result() for f in [pool.submit(_play, bot, backend, share, i)
                                         for i, share in enumerate(shares)])
        elapsed, cpu = time.perf_counter() - start, machine_cpu_seconds() - cpu
    assert done == len(seeds)
    return elapsed, cpu
