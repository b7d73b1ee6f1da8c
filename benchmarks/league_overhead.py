"""Platform overhead: the same N matches played through the league (queue → Celery worker →
database) and directly through ``sandbox.run_match``, alternating in the same run, with the
same bots, seeds, seats, limits and backend.

    .venv/bin/python -m benchmarks.league_overhead [--matches 10] [--rounds 30]
                                                   [--game stones|blokus_duo] [--embedded]

By default the league runs on PostgreSQL and Redis (a scratch database ``botleague_bench``
is created and dropped, Redis db 14 is used; ``BENCH_DATABASE`` and ``BENCH_REDIS_URL`` name
others, so that runs side by side do not share them); ``--embedded`` measures the no-configuration
default (SQLite, filesystem broker) instead. The worker runs one match at a time, like the
direct loop. Target (issue 8): the platform adds at most 10 % to the time per match.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH_DB = os.environ.get("BENCH_DATABASE", "botleague_bench")
BENCH_REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
BOTS = {"stones": ROOT / "examples" / "stones" / "main.py",
        "blokus_duo": ROOT / "examples" / "blokus_duo" / "main.py"}


def configure(embedded: bool, data: Path) -> None:
    """Environment for this process and the worker, set before Django is imported."""
    os.environ["BOTLEAGUE_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings"
    if embedded:
        os.environ.pop("DATABASE_URL", None)
        os.environ.pop("REDIS_URL", None)
        return
    import psycopg

    if not BENCH_DB.isidentifier():  # it goes into the SQL as a name
        raise SystemExit(f"BENCH_DATABASE={BENCH_DB!r}: expected a plain name")
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                         autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{BENCH_DB}"
    os.environ["REDIS_URL"] = BENCH_REDIS


def drop_database() -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                         autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")


def start_worker(log: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "celery", "-A", "league", "worker", "-l", "info",
               "-c", "1", "--without-mingle", "--without-gossip", "--without-heartbeat"]
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    deadline = time.monotonic() + 60
    while " ready." not in log.read_text(errors="replace"):
        if time.monotonic() > deadline or process.poll() is not None:
            raise SystemExit(f"the worker did not start; see {log}")
        time.sleep(0.1)
    return process


def wait_idle(timeout: float = 600, poll: float = 0.02) -> None:
    from league.ladders.lifecycle import OPEN as OPEN_STATUSES
    from league.ladders.models import Match

    deadline = time.monotonic() + timeout
    while Match.objects.filter(status__in=OPEN_STATUSES).exists():
        if time.monotonic() > deadline:
            raise SystemExit("matches did not finish in time")
        time.sleep(poll)


def through_platform(ladder, versions, seeds: list[int]) -> float:
    """Seconds from committing N queued matches to the last one written. The end is the
    last ``finished_at`` the worker wrote: this process looks only a few times a second, as a
    tight loop of queries would take the cores the matches run on (the direct loop has no such
    watcher)."""
    from django.db import transaction
    from django.db.models import Max

    from league.ladders.models import Match, MatchKind
    from league.ladders.services import match_create

    start = time.time()
    with transaction.atomic():
        ids = [match_create(ladder=ladder, kind=MatchKind.LADDER, seed=seed,
                            seats=versions if i % 2 == 0 else versions[::-1]).pk
               for i, seed in enumerate(seeds)]
    wait_idle(poll=0.5)
    end = Match.objects.filter(pk__in=ids).aggregate(end=Max("finished_at"))["end"]
    return end.timestamp() - start


def directly(ladder, versions, seeds: list[int]) -> float:
    from league.ladders.versions_cache import version_folder
    from sandbox import BotSpec, run_match

    specs = [BotSpec(str(version_folder(v)), label=str(v)) for v in versions]
    start = time.perf_counter()
    for i, seed in enumerate(seeds):
        run_match(ladder.game, specs if i % 2 == 0 else specs[::-1], options=ladder.options,
                  seed=seed, limits=ladder.sandbox_limits, backend=ladder.backend)
    return time.perf_counter() - start


def prepare(game: str):
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from league.ladders.models import Ladder
    from league.ladders.services import version_upload

    call_command("migrate", verbosity=0)
    owner = User.objects.create_user("bench")
    source = BOTS[game].read_bytes()
    versions = [version_upload(owner=owner, game=game, name=f"bench{i}", filename="main.py",
                               data=source + f"\n# copy {i}\n".encode()) for i in range(2)]
    return Ladder.objects.get(game=game), versions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--game", choices=sorted(BOTS), default="stones")
    parser.add_argument("--embedded", action="store_true",
                        help="SQLite and the filesystem broker instead of PostgreSQL and Redis")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="botleague-bench-"))
    configure(args.embedded, data)
    # Only the benchmark's own matches: a ladder that refilled itself as each one finished
    # would never be idle, and the rounds would time different work.
    os.environ["LEAGUE_KEEP_BUSY"] = "false"
    import django

    django.setup()
    logging.getLogger("league").setLevel(logging.WARNING)  # not a line per match enqueued
    if not args.embedded:
        import redis
        from django.conf import settings

        redis.Redis.from_url(settings.REDIS_URL).flushdb()
    ladder, versions = prepare(args.game)
    worker = start_worker(data / "worker.log")
    try:
        wait_idle()  # the two validation matches
        for v in versions:
            v.refresh_from_db()
            if v.status != "active":
                raise SystemExit(f"{v} was not validated: {v.reason}")
        report(args, ladder, versions)
    finally:
        if os.environ.get("BENCH_KEEP_LOG"):
            print((data / "worker.log").read_text())
        os.killpg(worker.pid, signal.SIGKILL)
        worker.wait()
        if not args.embedded:
            drop_database()
        shutil.rmtree(data, ignore_errors=True)


def report(args: argparse.Namespace, ladder, versions) -> None:
    where = "SQLite + filesystem broker" if args.embedded else "PostgreSQL + Redis"
    print(f"{args.matches} {args.game} matches per round, {args.rounds} rounds, backend "
          f"{ladder.backend}, league on {where}, one match at a time")
    direct, platform = [], []
    for round_ in range(args.rounds):
        seeds = [1000 * round_ + i for i in range(args.matches)]
        direct.append(directly(ladder, versions, seeds) / args.matches)
        platform.append(through_platform(ladder, versions, seeds) / args.matches)
        print(f"  round {round_ + 1}: direct {direct[-1] * 1000:7.1f} ms/match   "
              f"platform {platform[-1] * 1000:7.1f} ms/match")
    d, p = statistics.median(direct), statistics.median(platform)
    # each round's platform time against its own direct time, so that a slow spell of the
    # machine (this VM's speed drifts by ±10 % over tens of seconds) hits both sides
    overhead = statistics.median(q / b for q, b in zip(platform, direct, strict=True)) - 1
    print(f"{'':2}{'path':<34}{'ms per match':>14}{'ratio':>9}")
    print(f"{'':2}{'sandbox.run_match (baseline)':<34}{d * 1000:>14.1f}{1.0:>9.2f}")
    print(f"{'':2}{'queue → worker → database':<34}{p * 1000:>14.1f}{p / d:>9.2f}")
    verdict = "met" if overhead <= 0.10 else "NOT met"
    print(f"platform overhead {overhead * 100:+.1f} % per match (median of the rounds' ratios; "
          f"medians {(p - d) * 1000:+.1f} ms apart) — target ≤ +10 %: {verdict}")


if __name__ == "__main__":
    main()
