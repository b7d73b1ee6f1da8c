"""One matchmaking tick on a league's data set, as the ticks worker runs it (each rated board
kept from the last fill, ``league.ladders.boards``), next to two baselines measured in the
same run: the same tick reading every board afresh (as on a process's first tick), and the
recount the tick used to be (every participation of every playing version counted again).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/botleague_scale \\
        .venv/bin/python -m benchmarks.matchmaking_tick [--ticks 40]

Measured on the data set of ``python -m benchmarks.scale_data`` (10,000 bots and 1,000,000
matches, or 100,000 with ``--matches 100000``; with no ``DATABASE_URL``, the embedded
default's SQLite): a **full** tick finds every ladder's queue empty, so each rated ladder
pairs and makes its matches, committed and sent to the broker as the beat's tick does; the
matches are then cancelled (not timed), as if played, so the next tick's fills read their
versions' standings again. An **idle** tick finds the queues full: nothing to make. Every match the
benchmark made is deleted at the end (a worker drops a message whose match is gone). Then
placement pairing on a synthetic ladder of 100,000 bots. Times are wall-clock (median, p95)
and this process's CPU (median; the rest is the database's and the wait for it).
Targets (issue 24): ≤ 50 ms a tick, full and idle, at either size; placement ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable


def timed(run: Callable[[], object], n: int, after: Callable[[], object] = lambda: None,
          ) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU seconds of ``n`` runs, each followed by ``after`` (not timed)."""
    wall, cpu = [], []
    for _ in range(n):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        after()
    return wall, cpu


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def old_counts() -> None:
    """The first baseline: the aggregate the tick ran before, per rated ladder (total and
    recent participations of every playing version, recounted from all matches)."""
    from datetime import timedelta

    from django.db.models import Count, F, Q
    from django.utils import timezone

    from league.bots.models import BotVersion
    from league.ladders.lifecycle import OPEN
    from league.ladders.models import Ladder, MatchKind, MatchStatus, Participant

    for ladder in Ladder.objects.filter(active=True, kind="rated"):
        versions = list(BotVersion.objects.filter(
            bot__game=ladder.game, bot__retired=False, bot__disabled=False, status="active",
            bot__active_version=F("pk")).values_list("pk", flat=True))
        counted = Q(match__ladder=ladder, match__kind=MatchKind.LADDER) & ~Q(
            match__status__in=[MatchStatus.CANCELLED, MatchStatus.FAILED])
        recent = Q(match__status__in=OPEN) | Q(
            match__finished_at__gte=timezone.now() - timedelta(hours=6))
        list(Participant.objects.filter(counted, version_id__in=versions)
             .values("version_id").annotate(total=Count("id"),
                                            recent=Count("id", filter=recent)))


def full_tick(fresh: bool = False) -> None:
    """A tick with every queue empty. ``fresh``: no board kept from the tick before (the
    second baseline)."""
    from league.ladders.boards import boards_forget
    from league.ladders.matchmaking import matchmaking_tick

    if fresh:
        boards_forget()
    matchmaking_tick(rng=random.Random(1))


def ended(first: int) -> Callable[[], None]:
    """After a full tick (not timed): its matches end (cancelled), as if played, so that the
    next tick finds every queue empty again."""
    from league.ladders.lifecycle import QUEUED
    from league.ladders.models import Match

    return lambda: Match.objects.filter(pk__gt=first, status=QUEUED).update(status="cancelled")


def placement(size: int) -> tuple[float, float]:
    """A newcomer placed on a board of ``size`` bots, its entries made in board order as the
    league makes them (``ladders.boards.Board.entries``): wall and CPU seconds."""
    from league.ladders.pairing import Entry, choose_pairings
    from league.ladders.ratings import Skill

    rng = random.Random(1)
    newcomer = Skill()
    skills = [newcomer, *(Skill(rng.uniform(0, 50), rng.uniform(1, 8)) for _ in range(size))]
    skills.sort(key=lambda skill: skill.ordinal, reverse=True)
    board = [Entry(key=i, skill=skill, placed=0 if skill is newcomer else 9)
             for i, skill in enumerate(skills)]
    start, start_cpu = time.perf_counter(), time.process_time()
    choose_pairings(board, 1, rng, ranked=True)
    return time.perf_counter() - start, time.process_time() - start_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ticks", type=int, default=40)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
    import logging

    import django

    django.setup()
    logging.getLogger("league").setLevel(logging.WARNING)  # a line per match enqueued
    from django.conf import settings
    from django.db import connection

    from league.ladders.lifecycle import OPEN
    from league.ladders.matchmaking import matchmaking_tick
    from league.ladders.models import Match, Participant

    matches = Match.objects.count()
    participants = Participant.objects.count()
    if Match.objects.filter(status__in=OPEN).exists():
        raise SystemExit("the data set has open matches: a full tick would find no room")
    first = Match.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    print(f"data set ({connection.vendor}): {matches:,} matches, {participants:,} "
          f"participants, {settings.LEAGUE_WORKER_SLOTS} worker slots; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    try:
        timed(full_tick, 3, ended(first))  # boards kept, caches warm
        full = timed(full_tick, args.ticks, ended(first))
        fresh = timed(lambda: full_tick(fresh=True), max(5, args.ticks // 4), ended(first))
        matchmaking_tick(rng=random.Random(1))  # the queues filled once, for the idle ticks
        idle = timed(lambda: matchmaking_tick(rng=random.Random(1)), args.ticks)
    finally:
        Match.objects.filter(pk__gt=first).delete()
    baseline = timed(old_counts, max(3, args.ticks // 10))
    place = [placement(100_000) for _ in range(5)]
    rows = (("tick, every queue empty (full)", full),
            ("tick, queues full (idle)", idle),
            ("baseline: full tick, boards read afresh", fresh),
            ("baseline: the old recount alone", baseline),
            ("placement, 100,000 bots on a ladder", tuple(zip(*place, strict=True))))
    print(f"{'':2}{'':<42}{'median':>9}{'p95':>9}{'CPU':>9}")
    for label, (wall, cpu) in rows:
        print(f"{'':2}{label:<42}{statistics.median(wall) * 1000:>6.1f} ms"
              f"{p95(wall) * 1000:>6.1f} ms{statistics.median(cpu) * 1000:>6.1f} ms")
    worst = max(p95(full[0]), p95(idle[0]))
    placed = p95(rows[-1][1][0])
    print(f"the full tick takes {statistics.median(full[0]) / statistics.median(fresh[0]):.2f}x"
          f" the tick reading its boards afresh, "
          f"{statistics.median(full[0]) / statistics.median(baseline[0]):.3f}x the old "
          f"recount alone; target ≤ 50 ms a tick: {'met' if worst <= 0.05 else 'NOT met'} "
          f"(p95 {worst * 1000:.0f} ms); placement ≤ 100 ms: "
          f"{'met' if placed <= 0.1 else 'NOT met'} (p95 {placed * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
