"""Tournaments and challenges on the embedded default (SQLite, the filesystem broker, no
Redis), with a real Celery worker: ``./dev up``'s league runs them too. The issue's four
(an 8-entry Swiss of 3 rounds, a 6-entry double elimination, a 5-entry round robin, a scored
2048) and a challenge of 3 games, played at once, checked as on PostgreSQL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.league.conftest import ROOT

pytestmark = pytest.mark.slow


def test_every_format_and_a_challenge_finish_on_the_embedded_default(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL"}}
    data = tmp_path / "data"
    data.mkdir()
    tmp_path.chmod(0o755)  # bots read their cached versions below it (pytest's own is 0700)
    env.update(BOTLEAGUE_DATA=str(data), DJANGO_SETTINGS_MODULE="league.settings",
               LEAGUE_TOURNAMENTS_PER_USER="100/day")  # four made at once
    done = subprocess.run([sys.executable, "-m", "tests.league.embedded_tournament"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=450,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["engine"] == "django.db.backends.sqlite3"
    assert seen["checked"] == {fmt: "ok" for fmt in ("swiss", "double_elimination",
                                                     "round_robin", "scored")}, seen["checked"]
    assert seen["challenge"] == "finished" and seen["challenge_games"] == ["finished"] * 3
    assert seen["statuses"] == ["finished"]
