"""Uploads with a test on the embedded default (SQLite, the filesystem broker, no Redis),
with a real Celery worker, as ``./dev up``'s league runs them: a stronger version promoted
after H1, a copy of the active bot left out (H0 or undecided, never H1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.league.conftest import run_embedded

pytestmark = pytest.mark.slow


def test_uploads_with_a_test_promote_and_do_not_on_the_embedded_default(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    tmp_path.chmod(0o755)  # bots read their cached versions below it (pytest's own is 0700)
    seen = run_embedded("tests.league.embedded_versiontest", data, timeout=300)
    assert seen["engine"] == "django.db.backends.sqlite3"
    better, copy = seen["better"], seen["copy"]
    assert better["test"] == "h1" and better["status"] == "active" and better["active"], seen
    assert copy["test"] in ("h0", "undecided") and copy["status"] == "retired", seen
    assert copy["old_active"] and copy["reason"].endswith("it stays inactive"), seen
    print(f"both tests ended in {seen['seconds']} s")
