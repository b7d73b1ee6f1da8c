"""The process backend without bubblewrap: root's ``unshare`` fallback, on a core of attacks."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from sandbox.backends.process import ProcessBackend
from tests.sandbox.conftest import BOTS, SECRET, attack, forfeit_of, play

pytestmark = [pytest.mark.usefixtures("clean_worker"),
              pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                                 reason="the unshare fallback needs root and util-linux")]
OPPONENT = str(BOTS / "first.py")


@pytest.fixture(scope="module")
def unshare() -> ProcessBackend:
    backend = ProcessBackend(isolation="unshare")
    assert "unshare" in backend.describe()
    return backend


def test_a_clean_match(unshare: ProcessBackend) -> None:
    record = play([OPPONENT, "builtin:random"], unshare)
    assert record.forfeit is None, [p.log for p in record.players]


@pytest.mark.parametrize("name", ["read_secrets", "network", "docker_sock", "disk_fill",
                                  "fork_bomb", "orphan", "proc1_environ", "signal_parent",
                                  "write_outside_tmp"])
def test_attacks_fail_inside(tmp_path: Path, unshare: ProcessBackend, name: str,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOTLEAGUE_TEST_SECRET", SECRET)
    record = play([attack(tmp_path, name, str(os.getpid()) if name == "signal_parent" else ""),
                   OPPONENT], unshare)
    log = record.players[0].log
    assert "BLOCKED" in log and "PWNED" not in log and SECRET not in log, log


def test_another_bots_files_are_invisible(tmp_path: Path, unshare: ProcessBackend) -> None:
    secret = tmp_path / "victim-secret.txt"
    secret.write_text("book")
    record = play([attack(tmp_path, "other_bot", str(secret)), OPPONENT], unshare)
    assert "BLOCKED" in record.players[0].log, record.players[0].log


@pytest.mark.parametrize(("name", "kind"), [("memory_bomb", "memory-limit"),
                                            ("stdout_flood", "output-limit")])
def test_limits_forfeit(tmp_path: Path, unshare: ProcessBackend, name: str, kind: str) -> None:
    record = play([attack(tmp_path, name), OPPONENT], unshare)
    assert forfeit_of(record) == (0, kind)
