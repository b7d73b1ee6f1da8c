"""Keeping the embedded default's SQLite fit as the league grows: its statistics.

SQLite plans a query from ``sqlite_stat1``, which only ``ANALYZE`` writes; without it every
index looks alike, and a league that started empty never gets any. On the beat's schedule
(``LEAGUE_DATABASE_SECONDS``, on the ticks' worker) each table whose size has changed by half
since it was last analysed is analysed again, one index at a time: ANALYZE holds the write
lock while it reads, about a second per index of 2,000,000 rows, and between two indexes
the workers' writes go on. It runs rarely: at 1.5 times the size each time, twenty times from
100 rows to 2,000,000.

Not ``PRAGMA optimize``: SQLite 3.40 (Debian 12's) only looks at the tables the calling
connection has queried, and then analyses them whole in one statement; nor ``analysis_limit``,
whose sample of an index's first rows made a ladder look as selective as a match id.
PostgreSQL's autovacuum keeps its own statistics: nothing to do there.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

log = logging.getLogger(__name__)

GROWTH = 1.5
"""A table is analysed again once it holds this many times as many rows as when it was last
analysed, or this many times fewer."""
MIN_ROWS = 100
"""Smaller tables are not worth statistics: any plan reads them in no time."""


@dataclass
class Kept:
    analysed: list[str] = field(default_factory=list)
    """Tables analysed on this run."""
    seconds: float = 0.0


def statistics_keep(*, force: bool = False) -> Kept:
    """Analyse the tables whose statistics are missing or stale (every one with ``force``).
    Nothing on PostgreSQL."""
    kept = Kept()
    if connection.vendor != "sqlite":
        return kept
    start = time.monotonic()
    with connection.cursor() as cursor:
        known = analysed_rows(cursor)
        for table in sorted(connection.introspection.table_names(cursor)):
            if table.startswith("sqlite_"):
                continue
            if force or _stale(cursor, table, known.get(table)):
                _analyse(cursor, table)
                kept.analysed.append(table)
    kept.seconds = time.monotonic() - start
    if kept.analysed:
        log.info("database statistics renewed in %.0f ms: %s", kept.seconds * 1000,
                 ", ".join(kept.analysed))
    return kept


def _stale(cursor: Any, table: str, before: int | None) -> bool:
    name = connection.ops.quote_name(table)
    # At most this many rows, from the ends of the rowid's index: a table that cannot have
    # grown enough is not counted (a count reads the whole of a table's smallest index).
    cursor.execute(f"SELECT max(rowid) - min(rowid) + 1 FROM {name}")
    bound = cursor.fetchone()[0] or 0
    if before is not None and bound < before * GROWTH and bound >= before / GROWTH:
        return False
    if before is None and bound < MIN_ROWS:
        return False
    cursor.execute(f"SELECT count(*) FROM {name}")
    rows = cursor.fetchone()[0]
    if before is None:
        return rows >= MIN_ROWS
    if max(rows, before) < MIN_ROWS:
        return False
    return rows >= before * GROWTH or rows * GROWTH <= before


def _analyse(cursor: Any, table: str) -> None:
    """Each index by itself (each its own statement, so the write lock is let go between
    them); a table without an index, whole (its row count)."""
    cursor.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = %s "
                   "ORDER BY name", [table])
    indexes = [name for (name,) in cursor.fetchall()]
    for name in indexes or [table]:
        cursor.execute(f"ANALYZE {connection.ops.quote_name(name)}")


def analysed_rows(cursor: Any) -> dict[str, int]:
    """Rows each table had when last analysed (the first number of its ``sqlite_stat1``
    rows; the largest, as a partial index counts only its own); tables never analysed are
    left out."""
    cursor.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'")
    if cursor.fetchone() is None:
        return {}
    cursor.execute("SELECT tbl, stat FROM sqlite_stat1")
    rows: dict[str, int] = {}
    for table, stat in cursor.fetchall():
        count = int(str(stat).split()[0]) if stat else 0
        rows[table] = max(rows.get(table, 0), count)
    return rows
