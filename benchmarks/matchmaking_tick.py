"""One matchmaking tick on a league's data set: the tick as it runs (what a version has
played read from its standing and its open matches), next to the baseline the tick used to
be (every participation of every playing version recounted), both measured in this run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/botleague_scale \\
        .venv/bin/python -m benchmarks.matchmaking_tick [--ticks 20]

Measured on the data set of ``python -m benchmarks.scale_data`` (10,000 bots and 1,000,000
matches, or 100,000 matches with ``--matches 100000``): a **full** tick (every ladder's queue
empty, so each pairs and makes its matches; rolled back after each run) and an **idle** tick
(queues full: nothing to make). Then placement on a synthetic ladder of 100,000 bots.
Targets (issue 24): ≤ 50 ms a tick, full and idle, at either size; placement ≤ 100 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable


def timed(run: Callable[[], object], n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        run()
        out.append(time.perf_counter() - start)
    return out


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


def old_counts() -> None:
    """The baseline: the aggregate the tick ran before, per rated ladder (total and recent
    participations of every playing version, recounted from all matches)."""
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


def full_tick() -> None:
    """A tick with every queue empty, rolled back so the next run finds them empty too."""
    from django.db import transaction

    from league.ladders.matchmaking import matchmaking_tick

    with transaction.atomic():
        matchmaking_tick(rng=random.Random(1))
        transaction.set_rollback(True)


def placement(size: int) -> float:
    """A newcomer placed on a board of ``size`` bots, given in board order as the league reads
    it (``ladders.selectors.board_players``, from the board's index)."""
    from league.ladders.pairing import Entry, choose_pairings
    from league.ladders.ratings import Skill

    rng = random.Random(1)
    board = [Entry(key=i, skill=Skill(rng.uniform(0, 50), rng.uniform(1, 8)), placed=9)
             for i in range(size)]
    board.insert(size // 3, Entry(key="new", skill=Skill(), placed=0))
    board.sort(key=lambda e: e.skill.ordinal, reverse=True)
    start = time.perf_counter()
    choose_pairings(board, 1, rng, ranked=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ticks", type=int, default=20)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
    import django

    django.setup()
    from league.ladders.lifecycle import OPEN
    from league.ladders.matchmaking import matchmaking_tick
    from league.ladders.models import Match, Participant

    matches = Match.objects.count()
    participants = Participant.objects.count()
    open_now = Match.objects.filter(status__in=OPEN).count()
    print(f"data set: {matches:,} matches, {participants:,} participants, {open_now} open")
    timed(full_tick, 2)  # warm the caches
    full = timed(full_tick, args.ticks)
    baseline = timed(old_counts, max(3, args.ticks // 4))
    from django.db import transaction

    with transaction.atomic():  # queues filled once for the idle ticks, then rolled back
        matchmaking_tick(rng=random.Random(1))
        idle = timed(lambda: matchmaking_tick(rng=random.Random(1)), args.ticks)
        transaction.set_rollback(True)
    place = [placement(100_000) for _ in range(5)]
    print(f"{'':2}{'':<44}{'median':>9}{'p95':>9}")
    for label, values in (("tick, every queue empty (full)", full),
                          ("tick, queues full (idle)", idle),
                          ("baseline: the old recount alone", baseline),
                          ("placement, 100,000 bots on a ladder", place)):
        print(f"{'':2}{label:<44}{statistics.median(values) * 1000:>7.1f} ms"
              f"{p95(values) * 1000:>7.1f} ms")
    worst = max(p95(full), p95(idle))
    print(f"the full tick takes {statistics.median(full) / statistics.median(baseline):.2f}x "
          f"the old recount alone; target ≤ 50 ms a tick: "
          f"{'met' if worst <= 0.05 else 'NOT met'} (p95 {worst * 1000:.0f} ms); placement "
          f"≤ 100 ms: {'met' if p95(place) <= 0.1 else 'NOT met'}")


if __name__ == "__main__":
    main()
