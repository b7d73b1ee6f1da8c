"""The baseline of the throughput benchmark: the same matches run straight through
``sandbox.run_match``, in 1 or N processes at once, no league around them."""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOT = ROOT / "examples" / "stones"
OPTIONS = {"size": 5}


def _play(backend: str, seeds: list[int], first: int) -> int:
    from sandbox import BotSpec, Limits, run_match

    specs = [BotSpec(str(BOT), label="a"), BotSpec(str(BOT), label="b")]
    for i, seed in enumerate(seeds, start=first):
        run_match("stones", specs if i % 2 == 0 else specs[::-1], options=OPTIONS, seed=seed,
                  limits=Limits(move_time=1.0, time_bank=2.0), backend=backend)
    return len(seeds)


def direct_seconds(backend: str, seeds: list[int], processes: int) -> float:
    """Wall seconds for every seed's match, split over ``processes`` processes."""
    shares = [seeds[i::processes] for i in range(processes)]
    with ProcessPoolExecutor(processes) as pool:
        _play_warm = pool.submit(_play, backend, seeds[:1], 0)  # imports, backend, image
        _play_warm.result()
        start = time.perf_counter()
        done = sum(f.result() for f in [pool.submit(_play, backend, share, i)
                                         for i, share in enumerate(shares)])
        elapsed = time.perf_counter() - start
    assert done == len(seeds)
    return elapsed
