"""Tournaments and challenges on the embedded default (SQLite, the filesystem broker, no
Redis), with a real Celery worker: ``./dev up``'s league runs them too. The issue's four
(an 8-entry Swiss of 3 rounds, a 6-entry double elimination, a 5-entry round robin, a scored
2048) and a challenge of 3 games, played at once, checked as on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.league.conftest import run_embedded

pytestmark = pytest.mark.slow


def test_every_format_and_a_challenge_finish_on_the_embedded_default(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    tmp_path.chmod(0o755)  # bots read their cached versions below it (pytest's own is 0700)
    seen = run_embedded("tests.league.embedded_tournament", data, timeout=450,
                        LEAGUE_TOURNAMENTS_PER_USER="100/day")  # four made at once
    assert seen["engine"] == "django.db.backends.sqlite3"
    assert seen["checked"] == {fmt: "ok" for fmt in ("swiss", "double_elimination",
                                                     "round_robin", "scored")}, seen["checked"]
    assert seen["challenge"] == "finished" and seen["challenge_games"] == ["finished"] * 3
    assert seen["statuses"] == ["finished"]
