"""Tournaments and challenges on the embedded default (SQLite, the filesystem broker, no
Redis), with a real Celery worker: ``./dev up``'s league runs them too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.league.conftest import ROOT

pytestmark = pytest.mark.slow


def test_a_round_robin_and_a_challenge_finish_on_the_embedded_default(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL"}}
    data = tmp_path / "data"
    data.mkdir()
    tmp_path.chmod(0o755)  # bots read their cached versions below it (pytest's own is 0700)
    env.update(BOTLEAGUE_DATA=str(data), DJANGO_SETTINGS_MODULE="league.settings")
    done = subprocess.run([sys.executable, "-m", "tests.league.embedded_tournament"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=400,
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["engine"] == "django.db.backends.sqlite3"
    assert (seen["tournament"], seen["challenge"]) == ("finished", "finished"), seen
    assert seen["statuses"] == ["finished"] and seen["games"] == 12
    assert sum(points for _, points in seen["table"]) == 6  # 6 series, a point each
