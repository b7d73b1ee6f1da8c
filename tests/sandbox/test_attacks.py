"""The attack suite: each attack is a small bot in ``attacks/``, run against every backend.

Every attack must end in the right forfeit or simply fail inside the sandbox (its log says
BLOCKED, never PWNED), and the worker must be unharmed: the referee survives, and no
process, cgroup, container or match folder is left behind (``clean_worker``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.sandbox.conftest import BOTS, FAST, SECRET, attack, forfeit_of, play

pytestmark = pytest.mark.usefixtures("clean_worker")

OPPONENT = str(BOTS / "first.py")


def blocked(record, seat: int = 0) -> str:
    log = record.players[seat].log
    assert "PWNED" not in log, log
    assert "BLOCKED" in log, log
    return log


def finished_normally(record) -> None:
    assert record.forfeit is None, record.result
    assert record.result is not None and record.result.reason != "forfeit"


def test_fork_bomb_hits_the_pids_limit(tmp_path: Path, backend: str) -> None:
    record = play([attack(tmp_path, "fork_bomb"), OPPONENT], backend)
    log = blocked(record)
    made = int(log.split("after ")[1].split()[0])
    assert made < FAST.pids
    assert forfeit_of(record) in (None, (0, "timeout"))


def test_allocating_4_gib_is_a_memory_limit_forfeit(tmp_path: Path, backend: str) -> None:
    record = play([attack(tmp_path, "memory_bomb"), OPPONENT], backend)
    assert forfeit_of(record) == (0, "memory-limit")
    assert "PWNED" not in record.players[0].log


def test_writing_2_gib_to_disk_fails_inside(tmp_path: Path, backend: str) -> None:
    record = play([attack(tmp_path, "disk_fill"), OPPONENT], backend)
    log = blocked(record)
    assert "/tmp: 16 MiB" in log or "/tmp: 15 MiB" in log, log
    finished_normally(record)


def test_nothing_but_the_private_tmp_is_writable(tmp_path: Path, backend: str) -> None:
    record = play([attack(tmp_path, "write_outside_tmp"), OPPONENT], backend)
    assert "only /tmp is writable" in blocked(record)
    finished_normally(record)


def test_no_tcp_connection_to_the_host_or_out(tmp_path: Path, backend: str) -> None:
    record = play([attack(tmp_path, "network"), OPPONENT], backend)
    blocked(record)
    finished_normally(record)


def test_shadow_and_worker_environment_are_out_of_reach(tmp_path: Path, backend: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOTLEAGUE_TEST_SECRET", SECRET)
    record = play([attack(tmp_path, "read_secrets"), OPPONENT], backend)
    log = blocked(record)
    assert SECRET not in log
    finished_normally(record)


def test_proc_1_environ_holds_no_worker_environment(tmp_path: Path, backend: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOTLEAGUE_TEST_SECRET", SECRET)
    record = play([attack(tmp_path, "proc1_environ"), OPPONENT], backend)
    blocked(record)
    finished_normally(record)


def test_another_bots_files_are_invisible(tmp_path: Path, backend: str) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "main.py").write_text((BOTS / "first.py").read_text())
    (victim / "victim-secret.txt").write_text("the victim's secret opening book")
    bot = attack(tmp_path, "other_bot", target=str(victim / "victim-secret.txt"))
    record = play([bot, str(victim)], backend)
    log = blocked(record)
    assert "opening book" not in log
    finished_normally(record)


def test_signalling_the_referee_and_parent_harms_nobody(tmp_path: Path, backend: str) -> None:
    bot = attack(tmp_path, "signal_parent", target=str(os.getpid()))
    record = play([bot, OPPONENT], backend)
    blocked(record)
    finished_normally(record)  # the opponent survived and played on; so did we


def test_printing_1_gib_is_an_output_limit_forfeit(tmp_path: Path, backend: str) -> None:
    began = time.monotonic()
    record = play([attack(tmp_path, "stdout_flood"), OPPONENT], backend)
    assert forfeit_of(record) == (0, "output-limit")
    # Killing a bot whose output nobody reads any more must not wait on that output (the
    # Docker engine once held the kill until the client timed out, 60 s).
    assert time.monotonic() - began < 10, "the forfeit did not end the match at once"


@pytest.mark.parametrize("name", ["spin", "sleep"])
def test_spinning_or_sleeping_forever_is_a_timeout(tmp_path: Path, backend: str,
                                                    name: str) -> None:
    limits = FAST.with_changes(move_time=0.3, startup_time=3.0)
    record = play([attack(tmp_path, name), OPPONENT], backend, limits=limits)
    assert forfeit_of(record) == (0, "timeout")
    assert record.players[0].time_used < 3.3 + 1.0


def test_a_child_that_outlives_the_bot_is_killed(tmp_path: Path, backend: str) -> None:
    record = play([attack(tmp_path, "orphan"), OPPONENT], backend)
    blocked(record)
    finished_normally(record)  # clean_worker then checks no process of the slot uid is left


def test_ptrace_of_the_sandbox_init_is_denied(tmp_path: Path, backend: str) -> None:
    record = play([attack(tmp_path, "ptrace_init"), OPPONENT], backend)
    log = blocked(record)
    assert "attach 1:" in log or "attach" in log
    finished_normally(record)


def test_the_docker_socket_is_unreachable(tmp_path: Path, backend: str) -> None:
    record = play([attack(tmp_path, "docker_sock"), OPPONENT], backend)
    blocked(record)
    finished_normally(record)


def test_attack_bots_really_attack_without_a_sandbox(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: on the bare backend the same bots get through, so the tests above can fail."""
    monkeypatch.setenv("BOTLEAGUE_TEST_SECRET", SECRET)
    victim = tmp_path / "victim-secret.txt"
    victim.write_text("book")
    cases = {"read_secrets": "", "other_bot": str(victim), "write_outside_tmp": ""}
    if Path("/var/run/docker.sock").exists():
        cases["docker_sock"] = ""
    for name, target in cases.items():
        record = play([attack(tmp_path, name, target), OPPONENT], "bare")
        assert "PWNED" in record.players[0].log, (name, record.players[0].log)
