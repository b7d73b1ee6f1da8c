"""Keeping the embedded default's SQLite fit as the league grows: its statistics.

SQLite plans a query from ``sqlite_stat1``, which only ``ANALYZE`` writes; without it every
index looks alike, and a league that started empty never gets any, so pages that were fast on
a day's matches crawled on a month's. On the beat's schedule (``LEAGUE_DATABASE_SECONDS``, on
the ticks' worker) each table whose size has changed by half or more since it was last
analysed is analysed again, over a bounded sample of each index (``ANALYSIS_LIMIT`` rows), so
it costs milliseconds at any size while holding the write lock. PostgreSQL's autovacuum does
the same there: nothing to do.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from django.db import connection

log = logging.getLogger(__name__)

ANALYSIS_LIMIT = 2000
"""Rows of each index ANALYZE reads (SQLite's ``analysis_limit``): it estimates the rest."""
GROWTH = 1.5
"""A table is analysed again once it holds this many times as many rows as when it was last
analysed, or this many times fewer; twenty times over from 100 rows to 2,000,000."""
MIN_ROWS = 100
"""Smaller tables are not worth statistics: any plan reads them in no time."""


@dataclass
class Kept:
    analysed: list[str] = field(default_factory=list)
    """Tables analysed on this run."""
    seconds: float = 0.0


def statistics_keep(*, force: bool = False) -> Kept:
    """Analyse the league's tables whose statistics are missing or stale (every one with
    ``force``); then SQLite's own ``PRAGMA optimize``. Nothing on PostgreSQL."""
    kept = Kept()
    if connection.vendor != "sqlite":
        return kept
    start = time.monotonic()
    with connection.cursor() as cursor:
        known = analysed_rows(cursor)
        stale = []
        for table in sorted(connection.introspection.table_names(cursor)):
            if table.startswith("sqlite_"):
                continue
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            rows = cursor.fetchone()[0]
            before = known.get(table)
            if force or _stale(rows, before):
                stale.append(table)
        if stale:
            cursor.execute(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
            for table in stale:
                cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
            kept.analysed = stale
        cursor.execute("PRAGMA optimize")
    kept.seconds = time.monotonic() - start
    if kept.analysed:
        log.info("database statistics renewed in %.0f ms: %s", kept.seconds * 1000,
                 ", ".join(kept.analysed))
    return kept


def _stale(rows: int, before: int | None) -> bool:
    if before is None:
        return rows >= MIN_ROWS
    if max(rows, before) < MIN_ROWS:
        return False
    return rows >= before * GROWTH or rows * GROWTH <= before


def analysed_rows(cursor: object) -> dict[str, int]:
    """Rows each table had when last analysed (the first number of its ``sqlite_stat1``
    rows); tables never analysed are left out."""
    cursor.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'")
    if cursor.fetchone() is None:
        return {}
    cursor.execute("SELECT tbl, stat FROM sqlite_stat1")
    rows: dict[str, int] = {}
    for table, stat in cursor.fetchall():
        count = int(str(stat).split()[0]) if stat else 0
        rows[table] = max(rows.get(table, 0), count)
    return rows
