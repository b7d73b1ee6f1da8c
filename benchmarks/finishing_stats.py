"""What keeping a bot's statistics adds to the finishing transaction (``league.ladders.stats``:
one upsert a ladder match): ``match_finish`` of real Stones ladder matches timed with the
statistics kept and, alternating in the same run, with ``stats_add`` a no-op (the baseline).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/botleague_finish \\
        .venv/bin/python -m benchmarks.finishing_stats [--matches 200]

Give it a database of its own (it is migrated and written to: two versions and their
matches, deleted at the end). The records are played once beforehand by the built-in random
player, so only the write is timed; each match is made and claimed (not timed) just before
it is finished. Prints the median and p95 of each, of ``stats_rows`` alone (computed
before the transaction opens) and of ``stats_add`` alone (the upsert, in a transaction rolled
back). The first tenth of each is left out (caches warming)."""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "league.settings")
    import django
    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import transaction

    from league.bots.models import Bot
    from league.bots.services import version_create
    from league.ladders import finishing, stats
    from league.ladders.claiming import match_claim
    from league.ladders.defaults import ladders_install
    from league.ladders.models import Ladder, Match
    from league.ladders.services import match_create, standing_place
    from sandbox import BotSpec, run_match

    call_command("migrate", verbosity=0)
    ladders_install(Ladder)
    ladder = Ladder.objects.get(game="stones")
    owner, _ = User.objects.get_or_create(username="finishing-bench")
    versions = []
    for name in ("bench-a", "bench-b"):
        v = version_create(owner=owner, game="stones", name=name, filename="main.py",
                           data=b"import random\n# " + name.encode() + b"\n")
        v.status = "active"
        v.save()
        Bot.objects.filter(pk=v.bot_id).update(active_version=v)
        standing_place(ladder=ladder, version=v)
        versions.append(v)
    random = BotSpec("builtin:random")
    records = [run_match("stones", [random, random], seed=s) for s in range(20)]
    kept_add = stats.stats_add
    times: dict[str, list[float]] = {"kept": [], "baseline": []}
    rows_times: list[float] = []
    add_times: list[float] = []
    try:
        for n in range(args.matches):
            keep = n % 2 == 0
            finishing.stats_add = kept_add if keep else (lambda rows: None)  # type: ignore[assignment]
            seats = versions if n % 4 < 2 else versions[::-1]
            match = match_create(ladder=ladder, kind="ladder", seed=n, seats=seats)
            claimed = match_claim(match_id=match.pk, worker="bench:1")
            assert claimed is not None
            record = records[n % len(records)]
            start = time.perf_counter()
            assert finishing.match_finish(match=claimed, record=record, error=None,
                                          live_moves=False)
            times["kept" if keep else "baseline"].append(time.perf_counter() - start)
            start = time.perf_counter()
            rows = stats.stats_rows(rated=True, seed=n, versions=[v.pk for v in seats],
                                    seats=[{"outcome": "win"}, {"outcome": "loss"}],
                                    record=record, move_limit=1.0)
            rows_times.append(time.perf_counter() - start)
            with transaction.atomic():  # the upsert alone, in a transaction as it runs
                start = time.perf_counter()
                kept_add(rows)
                add_times.append(time.perf_counter() - start)
                transaction.set_rollback(True)
    finally:
        finishing.stats_add = kept_add  # type: ignore[assignment]
        Match.objects.filter(participants__version__in=versions).delete()
        Bot.objects.filter(owner=owner).delete()
    for name, values in (*times.items(), ("stats_rows alone", rows_times),
                         ("stats_add alone", add_times)):
        values = values[len(values) // 10:]  # the first ones warm the caches
        print(f"{name:18} median {statistics.median(values) * 1000:6.2f} ms   "
              f"p95 {sorted(values)[int(len(values) * 0.95)] * 1000:6.2f} ms   n={len(values)}")
    added = statistics.median(times["kept"]) - statistics.median(times["baseline"])
    print(f"statistics add {added * 1000:+.2f} ms a match (median against median)")


if __name__ == "__main__":
    main()
