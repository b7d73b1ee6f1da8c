"""Platform overhead: the same N matches played through the league (queue → Celery worker →
database) and directly through ``sandbox.run_match``, alternating in the same run, with the
same bots, seeds, seats, limits and backend.

    .venv/bin/python -m benchmarks.league_overhead [--matches 10] [--rounds 30]
                                                   [--game stones|blokus_duo] [--embedded]
                                                   [--keep-busy [--board 2000]]

By default the league runs on PostgreSQL and Redis (a scratch database named after
``DATABASE_URL``'s with ``_bench`` added, ``botleague_bench`` without one, is created and
dropped; ``BENCH_REDIS_URL``, else Redis db 14, is flushed and used); ``--embedded`` measures
the no-configuration default (SQLite, filesystem broker) instead. The worker runs one match at
a time, like the direct loop, with ``LEAGUE_KEEP_BUSY`` off: each round's matches are the
benchmark's. ``--keep-busy`` turns it on, as a league runs: the worker's writing thread refills
the ladder as each match ends, so besides the round's matches it plays those its refills make
(on a board of ``--board`` versions, copies of the same starter, so that each refill reads,
pairs and writes as on a big ladder); a round ends when the round's own matches are done and
its time counts every match played, and the direct loop then plays the very same matches.
Target (issue 8): the platform adds at most 10 % to the time per match.
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
BENCH_DB = "botleague_bench"
BOTS = {"stones": ROOT / "examples" / "stones" / "main.py",
        "blokus_duo": ROOT / "examples" / "blokus_duo" / "main.py"}


def bench_database() -> str:
    """A scratch database of one's own: the configured one's name with ``_bench`` added."""
    url = os.environ.get("DATABASE_URL", "")
    name = url.rsplit("/", 1)[-1].split("?")[0] if url.startswith("postgres") else ""
    return f"{name}_bench" if name else BENCH_DB


def configure(embedded: bool, data: Path, keep_busy: bool) -> None:
    """Environment for this process and the worker, set before Django is imported."""
    global BENCH_DB
    os.environ["BOTLEAGUE_DATA"] = str(data)
    os.environ["DJANGO_SETTINGS_MODULE"] = "league.settings"
    os.environ["LEAGUE_KEEP_BUSY"] = str(keep_busy).lower()
    BENCH_DB = bench_database()
    if embedded:
        os.environ.pop("DATABASE_URL", None)
        os.environ.pop("REDIS_URL", None)
        return
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                         autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB}")
        conn.execute(f"CREATE DATABASE {BENCH_DB}")
    os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{BENCH_DB}"
    os.environ["REDIS_URL"] = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")


def drop_database() -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres",
                         autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")


def start_worker(log: Path, *args: str) -> subprocess.Popen:
    """A worker of one process (``args``: its queues, its name), once it says it is ready."""
    command = [sys.executable, "-m", "celery", "-A", "league", "worker", "-l", "info",
               "-c", "1", "--without-mingle", "--without-gossip", "--without-heartbeat", *args]
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


def through_platform(ladder, versions, seeds: list[int], keep_busy: bool
                     ) -> tuple[float, list]:
    """Seconds from committing N queued matches to the last one written, and every match
    played meanwhile as (seed, seats). With keep-busy, only the first two are queued, and the
    refills make the rest as a league does (a pairing whenever the ladder's queue runs short)
    until N have been played. The end is the last ``finished_at`` the worker wrote: this
    process looks only a few times a second, as a tight loop of queries would take the cores
    the matches run on (the direct loop has no such watcher)."""
    from django.db import transaction
    from django.db.models import Max

    from league.ladders.lifecycle import OPEN as OPEN_STATUSES
    from league.ladders.models import Ladder, Match, MatchKind, Participant
    from league.ladders.services import match_create

    first = Match.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    Ladder.objects.filter(pk=ladder.pk).update(active=True)
    start = time.time()
    with transaction.atomic():
        ids = [match_create(ladder=ladder, kind=MatchKind.LADDER, seed=seed,
                            seats=versions if i % 2 == 0 else versions[::-1]).pk
               for i, seed in enumerate(seeds[:2] if keep_busy else seeds)]
    while (Match.objects.filter(pk__gt=first, status="finished").count() < len(seeds)
           if keep_busy else Match.objects.filter(pk__in=ids, status__in=OPEN_STATUSES).exists()):
        time.sleep(0.5)
    Ladder.objects.filter(pk=ladder.pk).update(active=False)  # no refill after the round
    wait_idle(poll=0.5)
    played = Match.objects.filter(pk__gt=first, status="finished")
    end = played.aggregate(end=Max("finished_at"))["end"]
    seats: dict[int, list] = {}
    for match_id, version_id in Participant.objects.filter(match__in=played).order_by(
            "match_id", "seat").values_list("match_id", "version_id"):
        seats.setdefault(match_id, []).append(version_id)
    return end.timestamp() - start, [(seed, seats[pk]) for pk, seed in
                                     played.order_by("pk").values_list("pk", "seed")]


def directly(ladder, games: list) -> float:
    """The same (seed, seats) played in a loop through ``sandbox.run_match``."""
    from league.bots.models import BotVersion
    from league.ladders.versions_cache import version_folder
    from sandbox import BotSpec, run_match

    specs = {v.pk: BotSpec(str(version_folder(v)), label=str(v))
             for v in BotVersion.objects.filter(pk__in={pk for _, pks in games for pk in pks})}
    start = time.perf_counter()
    for seed, pks in games:
        run_match(ladder.game, [specs[pk] for pk in pks], options=ladder.options,
                  seed=seed, limits=ladder.sandbox_limits, backend=ladder.backend)
    return time.perf_counter() - start


def prepare(game: str, board: int):
    """The ladder, and the two versions whose matches the rounds queue; ``board`` versions
    on the ladder in all, the others placed at once with a rating and 20 games each (one
    archive for all, which a worker unpacks once: a league's steady state)."""
    import random

    from django.contrib.auth.models import User
    from django.core.management import call_command

    from league.bots.models import Bot, BotVersion
    from league.ladders.models import Ladder, Match, Standing
    from league.ladders.services import standing_place, version_upload

    call_command("migrate", verbosity=0)
    owner = User.objects.create_user("bench")
    source = BOTS[game].read_bytes()
    versions = [version_upload(owner=owner, game=game, name=f"bench{i}", filename="main.py",
                               data=source + f"\n# copy {i}\n".encode()) for i in range(2)]
    ladder = Ladder.objects.get(game=game)
    rng = random.Random(1)
    for i in range(2, board):
        version = version_upload(owner=owner, game=game, name=f"bench{i}", filename="main.py",
                                 data=source + b"\n# copy 0\n", limited=False)
        Match.objects.filter(participants__version=version).delete()
        BotVersion.objects.filter(pk=version.pk).update(status="active")
        Bot.objects.filter(pk=version.bot_id).update(active_version=version)
        standing_place(ladder=ladder, version=version)
        Standing.objects.filter(ladder=ladder, version=version).update(
            games=20, mu=rng.gauss(25, 5), sigma=rng.uniform(1, 3))
    Ladder.objects.filter(pk=ladder.pk).update(active=False)  # refilled during rounds only
    return ladder, versions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--game", choices=sorted(BOTS), default="stones")
    parser.add_argument("--embedded", action="store_true",
                        help="SQLite and the filesystem broker instead of PostgreSQL and Redis")
    parser.add_argument("--keep-busy", action="store_true",
                        help="refill the ladder as each match ends, as a league runs")
    parser.add_argument("--board", type=int, default=2000,
                        help="with --keep-busy: versions on the ladder the refills pair from")
    args = parser.parse_args()
    data = Path(tempfile.mkdtemp(prefix="botleague-bench-"))
    configure(args.embedded, data, args.keep_busy)
    import django

    django.setup()
    logging.getLogger("league").setLevel(logging.WARNING)  # not a line per match enqueued
    if not args.embedded:
        import redis
        from django.conf import settings

        redis.Redis.from_url(settings.REDIS_URL).flushdb()
    ladder, versions = prepare(args.game, args.board if args.keep_busy else 2)
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
    busy = (f"keep-busy on: refills pair a board of {args.board}" if args.keep_busy
            else "keep-busy off")
    print(f"{args.matches} {args.game} matches per round, {args.rounds} rounds, backend "
          f"{ladder.backend}, league on {where}, one match at a time, {busy}")
    direct, platform = [], []
    for round_ in range(args.rounds):
        seeds = [1000 * round_ + i for i in range(args.matches)]
        took, games = through_platform(ladder, versions, seeds, args.keep_busy)
        platform.append(took / len(games))
        direct.append(directly(ladder, games) / len(games))
        print(f"  round {round_ + 1}: {len(games)} matches, direct {direct[-1] * 1000:7.1f} "
              f"ms/match   platform {platform[-1] * 1000:7.1f} ms/match")
    d, p = statistics.median(direct), statistics.median(platform)
    # each round's platform time against its own direct time, so that a slow spell of the
    # machine (this VM's speed drifts by ±10 % over tens of seconds) hits both sides
    overhead = statistics.median(q / b for q, b in zip(platform, direct, strict=True)) - 1
    print(f"{'':2}{'path':<34}{'ms per match':>14}{'ratio':>9}")
    print(f"{'':2}{'sandbox.run_match (baseline)':<34}{d * 1000:>14.1f}{1.0:>9.2f}")
    print(f"{'':2}{'queue → worker → database':<34}{p * 1000:>14.1f}{p / d:>9.2f}")
    verdict = "met" if overhead <= 0.10 else "NOT met"
    print(f"platform overhead {overhead * 100:+.1f} % per match (median of the rounds' ratios; "
          f"medians {(p - d) * 1000:+.1f} ms apart) — target ≤ +10 %: {verdict}; load "
          f"average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end")


if __name__ == "__main__":
    main()
