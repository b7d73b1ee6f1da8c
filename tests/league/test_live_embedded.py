"""The embedded default (SQLite, no Redis) follows a running match too: the worker's moves
go to the database, where the viewer's reads find them while the match plays."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.league.conftest import run_embedded

pytestmark = pytest.mark.slow


def test_a_running_match_is_followed_on_sqlite_without_redis(tmp_path: Path) -> None:
    seen = run_embedded("tests.league.embedded_live", tmp_path, timeout=300)
    assert seen["engine"] == "django.db.backends.sqlite3"
    assert seen["outcome"] == ["finished"] and seen["status"] == "finished"
    assert len(set(seen["seen"])) >= 3, f"moves did not show while it ran: {seen['seen']}"
    assert seen["result"] and seen["total"] >= max(seen["seen"])
