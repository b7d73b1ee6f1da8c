"""Throughput: matches per minute with 1 and 2 worker processes, through the compose
deployment and through the embedded default, next to the same matches run directly by
``sandbox.run_match`` (1 and 2 processes) in the same run; and what PostgreSQL and Redis
spend per match in the compose deployment.

    .venv/bin/python -m benchmarks.throughput [--matches 24] [--rounds 3]
                                              [--bot paced [--think MS]]
                                              [--compose-sandbox bwrap|docker|both]
                                              [--skip-compose] [--skip-embedded]

Stones 5x5, two copies of one bot, the same seeds and seats on every path. ``--bot starter``
(examples/stones) keeps a core busy while it thinks, so on a machine of 2 shared cores the
rate with 2 processes is bounded by the cores left free; ``--bot paced`` sleeps ``--think``
ms a move (20 by default), so the rate measures how well the platform itself runs matches
side by side. At 20 ms a match is ~0.1 s of play and starting the two bots' containers costs
more CPU than the match (~0.3 s more CPU a match on the docker backend than on the
process one).

Compose: workers of one process each (``--scale worker=N``), bots in bubblewrap inside the
worker's container (the service worker), so its baseline is ``run_match`` on the process
backend; or, with ``--compose-sandbox docker``, in containers of the host's engine (the
service worker-engine), baseline the docker backend. Embedded: one Celery worker with N
processes, bots on the process backend (bubblewrap), baseline the same.
Target (issue 11): 2 workers reach at least 1.8x one worker's rate.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import uuid
from dataclasses import asdict
from pathlib import Path
from typing import Any

from benchmarks.throughput_direct import bot_source, direct_seconds
from benchmarks.throughput_embedded import EmbeddedBench, configure

TARGET = 1.8


def warm_up(processes: int) -> list[int]:
    """Seeds of a few untimed matches first: every worker process imports, unpacks the bots
    and starts its backend on its first match, which the direct baseline does untimed too."""
    return list(range(9000, 9000 + 2 * processes))


def per_minute(matches: int, seconds: float) -> float:
    return matches / seconds * 60


def line(name: str, one: float, two: float) -> str:
    return f"  {name:<52}{one:>9.1f}{two:>9.1f}{two / one:>8.2f}x"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=3,
                        help="medians over this many rounds (default 3)")
    parser.add_argument("--bot", choices=["starter", "paced"], default="starter",
                        help="starter: examples/stones (busy on a core while it thinks); "
                             "paced: sleeps --think ms a move (the platform's parallelism "
                             "alone)")
    parser.add_argument("--think", type=int, default=20, metavar="MS",
                        help="a paced bot's thinking time per move (default 20 ms: matches of "
                             "~0.1 s of play, where starting the bots' containers dominates)")
    parser.add_argument("--compose-sandbox", choices=["bwrap", "docker", "both"],
                        default="bwrap",
                        help="how the compose workers sandbox bots: bubblewrap inside the "
                             "worker's own container (the service worker), containers of the "
                             "host's engine (worker-engine), or one after the other")
    parser.add_argument("--skip-compose", action="store_true")
    parser.add_argument("--skip-embedded", action="store_true")
    args = parser.parse_args()
    seeds = list(range(500, 500 + args.matches))
    data = Path(tempfile.mkdtemp(prefix="botleague-throughput-"))
    configure(data)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    source = bot_source(args.bot, args.think)
    bot = data / "bot"
    bot.mkdir()
    (bot / "main.py").write_bytes(source)
    rows: list[str] = []
    load = os.getloadavg()
    bots = f"paced bots, {args.think} ms a move" if args.bot == "paced" else "starter bots"
    print(f"{args.matches} Stones 5x5 matches per measurement ({bots}), median of "
          f"{args.rounds} rounds; "
          f"load average before: "
          f"{load[0]:.2f} on {os.cpu_count()} cores")
    try:
        if not args.skip_embedded:
            rows += embedded_rows(data, str(bot), source, seeds, args.rounds)
        if not args.skip_compose:
            for sandbox in (["bwrap", "docker"] if args.compose_sandbox == "both"
                            else [args.compose_sandbox]):
                rows += compose_rows(data, str(bot), source.decode(), seeds, args.rounds,
                                     sandbox)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print(f"  {'matches per minute':<52}{'1 proc':>9}{'2 procs':>9}{'ratio':>9}")
    for row in rows:
        print(row)


def measure(bench: Any, bot: str, backend: str, seeds: list[int], rounds: int
            ) -> tuple[list[float], list[float], list[Any]]:
    """Medians over rounds of [1 process, 2 processes] for run_match and the league, the two
    measured back to back in each round so that both see the same outside load."""
    direct: dict[int, list[float]] = {1: [], 2: []}
    league: dict[int, list[float]] = {1: [], 2: []}
    costs: dict[int, Any] = {}
    n = len(seeds)
    for _ in range(rounds):
        for processes in (1, 2):
            bench.scale(processes)
            bench.run(warm_up(processes))
            seconds, cpu = direct_seconds(bot, backend, seeds, processes)
            direct[processes].append(per_minute(n, seconds))
            seconds, costs[processes] = bench.run_costed(seeds)
            league[processes].append(per_minute(n, seconds))
            print(f"  round {len(league[processes])}, {processes} process(es): direct "
                  f"{direct[processes][-1]:.1f} per min ({cpu / n * 1000:.0f} ms of machine "
                  f"CPU a match), league {league[processes][-1]:.1f} per min; "
                  f"load {os.getloadavg()[0]:.2f}", flush=True)
    return ([statistics.median(direct[p]) for p in (1, 2)],
            [statistics.median(league[p]) for p in (1, 2)], [costs[1], costs[2]])


def verdict(direct: list[float], league: list[float]) -> str:
    ratio = league[1] / league[0]
    met = "met" if ratio >= TARGET else "NOT met"
    # three decimals: a ratio just under the target would print as the target at two
    return (f"  {'':<52}league/direct {league[0] / direct[0]:.2f} and "
            f"{league[1] / direct[1]:.2f}; 2/1 {ratio:.3f}x, target {TARGET}x: {met}")


def embedded_rows(data: Path, bot: str, source: bytes, seeds: list[int], rounds: int
                  ) -> list[str]:
    bench = EmbeddedBench(data)
    try:
        bench.start(source)
        direct, league, _ = measure(bench, bot, "process", seeds, rounds)
    finally:
        bench.stop()
    return [line("run_match, process backend (baseline)", *direct),
            line("embedded league (SQLite + filesystem broker)", *league),
            verdict(direct, league)]


def compose_rows(data: Path, bot: str, source: str, seeds: list[int], rounds: int,
                 sandbox: str) -> list[str]:
    """The compose deployment against run_match on the backend its workers use: the process
    backend (bubblewrap in the service worker) or the docker backend (worker-engine)."""
    from benchmarks.deployment import Deployment
    from benchmarks.throughput_compose import ComposeBench

    dep = Deployment(project=f"blbench{uuid.uuid4().hex[:6]}", folder=data / "compose",
                     settings={"WORKER_CONCURRENCY": "1", "LOG_FORMAT": "json",
                               "LEAGUE_WORKER_SLOTS": "2"}, sandbox=sandbox)
    backend = "process" if sandbox == "bwrap" else "docker"
    print(f"compose deployment, service {dep.worker} ({backend} backend):", flush=True)
    bench = ComposeBench(dep)
    try:
        bench.start(source)
        direct, league, costs = measure(bench, bot, backend, seeds, rounds)
    finally:
        dep.compose("stop", "-t", "30", dep.worker, check=False)
        dep.down()
    out = [line(f"run_match, {backend} backend (baseline)", *direct),
           line(f"compose league (PostgreSQL + Redis, {dep.worker})", *league),
           verdict(direct, league),
           "  per match in the compose deployment (1 worker | 2 workers; last round), "
           "background work (presence, beat, health checks) included:"]
    for key, value in asdict(costs[0]).items():
        out.append(f"    {key:<20}{value:>12.1f} | {asdict(costs[1])[key]:>10.1f}")
    return out


if __name__ == "__main__":
    main()
