"""A backend that cannot sandbox says so before any bot starts: the league then counts the
match as an infrastructure failure, never as a bot's crash."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import BackendUnavailable
from sandbox.backends.process import ProcessBackend

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A folder the unprivileged uid the check runs as may enter (pytest's tmp_path is
    private to root)."""
    path = Path(tempfile.mkdtemp(prefix="botleague-fakebin-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path)


def test_a_bwrap_that_cannot_make_namespaces_makes_the_backend_unavailable(
        open_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # What bubblewrap says in a container without the privileges it needs.
    fake = open_dir / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\n"
                    "exit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{open_dir}:/usr/bin:/bin:/usr/sbin:/sbin")
    with pytest.raises(BackendUnavailable, match="No permissions to create new namespace"):
        ProcessBackend()


def test_a_working_bwrap_passes_the_check() -> None:
    backend = ProcessBackend()
    assert backend.isolation == "bwrap"
