"""The embedded default (SQLite) as the league grows (issue 24): its statistics are kept, and
every page, ``/health/`` and the beat's ticks reach their indexes as SQLite plans them on a
league of 2,000,000 matches (``embedded_plans.py``, in a process of its own on SQLite)."""

from __future__ import annotations

import json

import pytest

from tests.league.conftest import run_embedded
from tests.league.embedded_plans import scans

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return run_embedded("tests.league.embedded_plans", tmp_path_factory.mktemp("embedded"),
                        timeout=600)


def test_statistics_appear_and_follow_a_table_that_grew(report: dict) -> None:
    stats = report["statistics"]
    assert {"ladders_match", "ladders_participant", "ladders_replay"} <= set(stats["first"])
    assert "bots_bot" not in stats["first"], "40 bots: too few to be worth statistics"
    assert stats["rows_first"]["ladders_match"] == stats["matches"] // 2
    assert stats["again"] == [], "nothing changed: nothing analysed again"
    assert "ladders_match" in stats["grown"] and "ladders_participant" not in stats["grown"]
    assert stats["rows_after"]["ladders_match"] == stats["matches"]


def test_pages_health_and_ticks_read_no_big_table_whole(report: dict) -> None:
    plans = report["plans"]
    assert len(plans) >= 14
    scanning = {name: found for name, found in plans.items() if found}
    assert not scanning, json.dumps(scanning, indent=1)


def test_the_check_tells_a_walk_to_a_limit_from_a_whole_scan() -> None:
    sql = 'SELECT "ladders_match"."id" FROM "ladders_match" WHERE "ladders_match"."status" = %s'
    assert scans(sql, ["SCAN ladders_match"]) == ["SCAN ladders_match"]
    assert scans("SELECT p.id FROM ladders_participant p", ["SCAN p USING COVERING INDEX x"])
    assert not scans(sql + " ORDER BY finished_at DESC LIMIT 20",
                     ["SCAN ladders_match USING INDEX ladders_mat_finishe_b5dd0d_idx"])
    assert not scans("SELECT * FROM (SELECT id FROM ladders_participant) AS v0",
                     ["SCAN v0"])
