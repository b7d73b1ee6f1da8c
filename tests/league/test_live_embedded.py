"""The embedded default (SQLite, no Redis) follows a running match too: the worker's moves
go to the database, where the viewer's reads find them while the match plays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.league.conftest import ROOT

pytestmark = pytest.mark.slow


def test_a_running_match_is_followed_on_sqlite_without_redis(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "CACHE_URL"}}
    env.update(BOTLEAGUE_DATA=str(tmp_path), DJANGO_SETTINGS_MODULE="league.settings")
    done = subprocess.run([sys.executable, "-m", "tests.league.embedded_live"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["engine"] == "django.db.backends.sqlite3"
    assert seen["outcome"] == ["finished"] and seen["status"] == "finished"
    assert len(set(seen["seen"])) >= 3, f"moves did not show while it ran: {seen['seen']}"
    assert seen["result"] and seen["total"] >= max(seen["seen"])
