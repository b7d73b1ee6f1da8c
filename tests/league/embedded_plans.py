"""Run by ``test_embedded_sqlite.py`` in a process of its own on the embedded default (SQLite,
no Redis): a small generated league, its statistics kept (``ops.database``), then every page,
``/health/`` and the beat's ticks planned by SQLite as on a league of 2,000,000 matches (the
statistics of one loaded into ``sqlite_stat1``: SQLite plans from them alone). Prints what it
found as JSON."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import django

STATS = Path(__file__).with_name("sqlite_stat1_2m.json")
"""``sqlite_stat1`` of ``benchmarks.embedded_league``'s league (2,000 bots, 2,000,000
matches), as ``python -m benchmarks.embedded_league --dump-stats`` writes it."""
BIG = {"ladders_match", "ladders_participant", "ladders_replay", "ladders_livemove",
       "ladders_standing", "bots_botversion"}
"""Tables that grow with the league's history (or its uploads)."""
ALIAS = re.compile(r'\b(?:FROM|JOIN)\s+"?(\w+)"?(?:\s+(?:AS\s+)?"?(\w+)"?)?', re.IGNORECASE)


def scans(sql: str, plan: list[str]) -> list[str]:
    """Plan lines that read a whole big table, or a whole index of one without a LIMIT to
    stop the walk (an index read in order up to a LIMIT is what a latest-first list is)."""
    aliases = {}
    for table, alias in ALIAS.findall(sql):
        aliases[table] = table
        if alias and alias.upper() not in {"WHERE", "ON", "INNER", "LEFT", "JOIN", "GROUP",
                                           "ORDER", "LIMIT"}:
            aliases[alias] = table
    found = []
    for line in plan:
        words = line.split()
        if len(words) < 2 or words[0] != "SCAN":
            continue
        table = aliases.get(words[1].strip('"'), words[1])
        ordered_walk = "INDEX" in line and "LIMIT" in sql.upper()
        if table in BIG and not ordered_walk:
            found.append(line)
    return found


class Recorder:
    def __init__(self) -> None:
        self.queries: list[tuple[str, Any]] = []

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool,
                 context: Any) -> Any:
        self.queries.append((sql, params))
        return execute(sql, params, many, context)


def main() -> None:
    assert "DATABASE_URL" not in os.environ and "REDIS_URL" not in os.environ
    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.test import Client

    from benchmarks.scale.generate import scale_generate
    from league.bots.models import Bot
    from league.competitions.progress import competitions_tick
    from league.ladders.matchmaking import matchmaking_tick
    from league.ladders.models import Ladder, Match
    from league.ladders.reaper import reaper_tick
    from league.ops.database import analysed_rows, statistics_keep

    call_command("migrate", verbosity=0)
    scale_generate(bots=40, matches=2000, days=2, seed=3)
    report: dict[str, Any] = {}

    # -- statistics kept -------------------------------------------------------------------
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM sqlite_stat1")  # a league that never had any
        cursor.execute("ANALYZE sqlite_schema")
    first = statistics_keep().analysed
    with connection.cursor() as cursor:
        rows = analysed_rows(cursor)
    again = statistics_keep().analysed
    ladder = Ladder.objects.get(game="stones")
    Match.objects.bulk_create([Match(ladder=ladder, seed=n, status="finished")
                               for n in range(Match.objects.count())])  # twice as many
    grown = statistics_keep().analysed
    with connection.cursor() as cursor:
        after = analysed_rows(cursor)
    report["statistics"] = {"first": first, "again": again, "grown": grown,
                            "matches": Match.objects.count(), "rows_first": rows,
                            "rows_after": after}

    # -- plans as on 2,000,000 matches -----------------------------------------------------
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM sqlite_stat1")
        for table, index, stat in json.loads(STATS.read_text()):
            cursor.execute("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (%s, %s, %s)",
                           [table, index, stat])
        cursor.execute("ANALYZE sqlite_schema")  # reloads the statistics
    connection.close()
    rng = random.Random(5)
    bots = list(Bot.objects.filter(active_version__isnull=False).values_list(
        "pk", "owner__username", "active_version_id"))
    bot, owner, version = rng.choice(bots)
    match = Match.objects.filter(status="finished").order_by("?").values_list(
        "pk", flat=True).first()
    staff = User.objects.create_user("staff", is_staff=True)
    pages = ["/", "/ladders/stones/", "/ladders/2048/", "/ladders/stones/?page=2&q=a",
             f"/bots/{bot}/", f"/versions/{version}/", f"/matches/{match}/", f"/u/{owner}/",
             "/tournaments/", "/health/", "/api/ladders/stones/rankings/"]
    client = Client()
    checked: dict[str, list[dict[str, Any]]] = {}

    def check(name: str, run: Callable[[], object]) -> None:
        recorder = Recorder()
        with connection.execute_wrapper(recorder):
            run()
        found = []
        for sql, params in recorder.queries:
            if not sql.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE", "WITH")):
                continue
            with connection.cursor() as cursor:
                cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
                plan = [row[3] for row in cursor.fetchall()]
            bad = scans(sql, plan)
            if bad:
                found.append({"sql": " ".join(sql.split())[:600], "scans": bad})
        checked[name] = found
        print(f"{name}: {len(recorder.queries)} queries, {len(found)} scanning",
              file=sys.stderr)

    for url in pages:
        def get(url: str = url) -> None:
            assert client.get(url, HTTP_HOST="127.0.0.1").status_code == 200, url
        check(url, get)
    client.force_login(staff)
    check("/ops/status.json", lambda: client.get("/ops/status.json", HTTP_HOST="127.0.0.1"))

    def full_tick() -> None:
        with transaction.atomic():
            matchmaking_tick(rng=random.Random(1))
            transaction.set_rollback(True)

    check("matchmaking tick, queues empty", full_tick)
    with transaction.atomic():
        matchmaking_tick(rng=random.Random(1))
        check("matchmaking tick, queues full", lambda: matchmaking_tick(rng=random.Random(1)))
        check("reaper tick", reaper_tick)
        check("competitions tick", competitions_tick)
        transaction.set_rollback(True)
    report["plans"] = checked
    print(json.dumps(report))


if __name__ == "__main__":
    main()
