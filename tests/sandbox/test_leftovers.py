"""Stopping a referee, and the leftover check itself.

A match stopped by Ctrl-C, SIGTERM or SIGHUP removes its bots and folder; one killed outright
leaves a folder that the next match sweeps. Another live match on the machine is not a
leftover of ours.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from sandbox.backends.docker import LABEL, leftover_containers
from sandbox.match_folders import MATCH_FOLDER_PREFIX, sweep_stale_match_folders
from sandbox.slots import SLOT_COUNT, UID_BASE
from tests.sandbox.conftest import (
    BOTS,
    assert_worker_clean,
    backend_or_skip,
    forfeit_of,
    leftovers,
    match_folders,
    play,
)

ROOT = Path(__file__).resolve().parents[2]
SLEEPER = """\
import time
from botlib import run


def play(turn):
    time.sleep(0.2)
    return turn.legal_moves[0]


run(play)
"""


def slot_uid(pid: int) -> bool:
    """Whether process ``pid`` runs as a slot's uid: a bot, or the sandbox around one."""
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
        uid = next(int(line.split()[1]) for line in lines if line.startswith("Uid:"))
    except (OSError, StopIteration):
        return False
    return UID_BASE <= uid < UID_BASE + SLOT_COUNT


def descendants(pid: int) -> list[int]:
    found, i = [pid], 0
    while i < len(found):
        for children in Path(f"/proc/{found[i]}/task").glob("*/children"):
            try:
                found.extend(int(x) for x in children.read_text().split())
            except OSError:
                continue
        i += 1
    return found[1:]


def bots_of(proc: subprocess.Popen[str]) -> list[int]:
    """The processes of ``proc``'s bots (process backend). Other matches may run on the
    machine meanwhile (a league worker, a benchmark): their bots are not ours to wait for."""
    return [pid for pid in descendants(proc.pid) if slot_uid(pid)]


def containers_of(bot: Path) -> list[str]:
    """The running containers of the bot named ``bot`` (docker backend)."""
    import docker

    running = docker.from_env().containers.list(filters={"label": f"{LABEL}={bot.name}"})
    return [c.name for c in running]


def wait_gone(pids: list[int], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while any(Path(f"/proc/{pid}").exists() for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)


def default_signals() -> None:
    # A job started in the background of a script inherits SIGINT ignored; a terminal's
    # Ctrl-C reaches a foreground `sandbox play` with the default action.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_match(bot: Path, backend: str, wrapper: Sequence[str] = ()) -> subprocess.Popen[str]:
    """A match run by another process (as a developer's `sandbox play` would), mid-game."""
    proc = subprocess.Popen([*wrapper, sys.executable, "-m", "sandbox", "play", "g2048", str(bot),
                             "--backend", backend, "--startup-time", "60"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, preexec_fn=default_signals)
    deadline = time.monotonic() + 60
    while not (containers_of(bot) if backend == "docker" else bots_of(proc)):
        assert proc.poll() is None and time.monotonic() < deadline, "the match did not start"
        time.sleep(0.05)
    return proc


@pytest.fixture
def sleeper(tmp_path: Path) -> Path:
    bot = tmp_path / "sleeper.py"
    bot.write_text(SLEEPER)
    return bot


@pytest.fixture
def foreign_match(sleeper: Path):
    backend_or_skip("process")
    proc = start_match(sleeper, "process")
    yield proc
    if proc.poll() is None:
        proc.terminate()
        proc.wait(timeout=30)


def test_another_live_match_is_not_a_leftover(foreign_match):
    assert leftovers() == []
    # and a match of our own beside it runs and cleans up after itself
    record = play([str(BOTS / "first.py"), "builtin:random"], "process")
    assert forfeit_of(record) is None
    assert leftovers() == []
    assert foreign_match.poll() is None  # still mid-game: the checks above saw it running


@pytest.mark.parametrize(("signum", "code", "says"), [
    (signal.SIGINT, 130, "interrupted"),
    (signal.SIGTERM, 143, "stopped by SIGTERM"),
    (signal.SIGHUP, 143, "stopped by SIGHUP"),
])
def test_a_stopped_match_leaves_nothing_behind(foreign_match, signum, code, says):
    foreign_match.send_signal(signum)
    assert foreign_match.wait(timeout=30) == code
    assert says in foreign_match.stderr.read()
    assert_worker_clean()


def test_a_killed_referees_leftovers_go_with_the_next_match(sleeper, backend):
    proc = start_match(sleeper, backend)
    bots = bots_of(proc)
    proc.kill()
    proc.wait(timeout=30)
    # a process-backend bot dies with its referee (bwrap --die-with-parent); a container stays
    wait_gone(bots)
    stranded = [p for p in match_folders() if f"-{proc.pid}-" in p]
    assert stranded, "SIGKILL gives the referee no chance to clean up"
    if backend == "docker":
        assert any(name for name, _ in leftover_containers())
    play([str(BOTS / "first.py"), "builtin:random"], backend)
    assert not any(Path(p).exists() for p in stranded)
    assert_worker_clean()


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                    reason="a pid namespace needs root and util-linux's unshare")
def test_a_killed_referee_in_a_pid_namespace_is_swept_too(sleeper):
    """A referee in a container names its folder after its pid there: here 1, alive here."""
    backend_or_skip("process")
    pattern = f"{MATCH_FOLDER_PREFIX}1-*"
    before = set(Path(tempfile.gettempdir()).glob(pattern))
    # --mount-proc: a /proc of its own, as in a container; --kill-child: our SIGKILL of
    # unshare reaches the referee (pid 1 there), whose death ends its whole namespace
    proc = start_match(sleeper, "process",
                       ["unshare", "--pid", "--fork", "--mount-proc", "--kill-child"])
    bots = bots_of(proc)
    try:
        deadline = time.monotonic() + 30
        while not (stranded := set(Path(tempfile.gettempdir()).glob(pattern)) - before):
            assert time.monotonic() < deadline, "no match folder of pid 1 appeared"
            time.sleep(0.05)
        (folder,) = stranded
        assert folder not in sweep_stale_match_folders()  # its referee is alive
    finally:
        proc.kill()
        proc.wait(timeout=30)
    wait_gone(bots)
    assert folder.is_dir(), "SIGKILL gives the referee no chance to clean up"
    play([str(BOTS / "first.py"), "builtin:random"], "process")
    assert not folder.exists(), "pid 1 is alive here: only the referee's lock could tell"
    assert_worker_clean()


def test_a_frozen_bot_of_a_killed_worker_is_thawed_and_killed_by_the_next_backend():
    """cgroup v1 holds a frozen task even from SIGKILL: the bot a SIGKILLed worker had frozen
    outlives it in its slot's cgroup. A process backend sweeps the cgroups of free slots at its
    first bot (and each minute); one whose slot is held is a live referee's and stays."""
    from sandbox.backends.process import ProcessBackend
    from sandbox.cgroups import CgroupManager
    from sandbox.slots import try_slot

    backend_or_skip("process")
    manager = CgroupManager()
    if os.geteuid() != 0 or not manager.available:
        pytest.skip("bot cgroups need root and a memory/pids hierarchy")
    free, held = SLOT_COUNT - 1, SLOT_COUNT - 2
    holder = try_slot(held)
    assert holder is not None
    groups, sleepers = [], []
    try:
        for index in (free, held):
            group = manager.create(f"slot-{index}", 64 << 20, 16)
            sleeper = subprocess.Popen(["sleep", "600"])
            for procs in group.procs_files:
                Path(procs).write_text(str(sleeper.pid))
            group.freeze()
            sleeper.kill()  # as the kernel does to a dead container's processes
            groups.append(group)
            sleepers.append(sleeper)
        time.sleep(0.2)
        if manager.version == 1:  # v2's freezer lets SIGKILL through: nothing to strand there
            assert all(s.poll() is None for s in sleepers), "a frozen task ignores SIGKILL"
        backend = ProcessBackend()
        record = play([str(BOTS / "first.py"), "builtin:random"], backend)
        assert forfeit_of(record) is None
        assert sleepers[0].wait(timeout=10) == -signal.SIGKILL
        assert not any((root / f"slot-{free}").exists() for root in manager.roots.values())
        assert sleepers[1].poll() is None  # its slot is held: not ours to touch
        assert all((root / f"slot-{held}").exists() for root in manager.roots.values())
    finally:
        for group in groups:
            with contextlib.suppress(OSError):
                group.remove()
        holder.release()
        for sleeper in sleepers:
            sleeper.wait(timeout=10)


@pytest.mark.docker
def test_a_new_docker_backend_sweeps_containers_of_free_slots():
    """Containers a killed referee left in a slot nobody takes again are removed at start."""
    from sandbox.backends.docker import SLOT_LABEL, DockerBackend
    from sandbox.slots import try_slot

    backend = backend_or_skip("docker")
    free, held = SLOT_COUNT - 1, SLOT_COUNT - 2
    holder = try_slot(held)
    assert holder is not None
    made = [backend.client.containers.create(
        backend.image, ["true"], labels={LABEL: "stranded", SLOT_LABEL: str(index)})
        for index in (free, held)]
    try:
        DockerBackend()
        names = {name for name, _ in leftover_containers()}
        assert made[0].name not in names
        assert made[1].name in names  # its slot is held: a live referee's bot
    finally:
        holder.release()
        for container in made:
            with contextlib.suppress(Exception):
                container.remove(force=True)


@pytest.mark.docker
def test_a_container_stranded_under_the_slots_name_is_replaced_at_launch():
    """A launch does not look for its slot's leftovers (an engine call per bot); a container
    a killed referee left under the slot's name shows up as a name conflict and is replaced."""
    from sandbox.backends.docker import CONTAINER_PREFIX, SLOT_LABEL
    from sandbox.slots import acquire_slot

    backend = backend_or_skip("docker")
    probe = acquire_slot()  # the slot the match's first bot will take
    index = probe.index
    probe.release()
    stranded = backend.client.containers.create(
        backend.image, ["true"], name=f"{CONTAINER_PREFIX}{index}",
        labels={LABEL: "stranded", SLOT_LABEL: str(index)})
    try:
        record = play([str(BOTS / "first.py"), "builtin:random"], "docker")
        assert record.forfeit is None, record.result
        ids = {c.id for c in backend.client.containers.list(all=True)}
        assert stranded.id not in ids
    finally:
        with contextlib.suppress(Exception):
            stranded.remove(force=True)
    assert_worker_clean()


@pytest.mark.docker
def test_the_docker_bot_is_found_in_the_hosts_cgroups_without_asking_the_engine():
    """Pausing by signal needs the bot's cgroup and host pid; both come from the container id
    and /proc, not from an inspect call per bot."""
    from sandbox.backends.docker import _cgroup_by_id, _namespace_init

    if os.geteuid() != 0:
        pytest.skip("the host's cgroups of containers are root's")
    backend = backend_or_skip("docker")
    container = backend.client.containers.run(backend.image, ["sleep", "30"], detach=True,
                                              labels={LABEL: "cgroup-probe"})
    try:
        cgroup = _cgroup_by_id(container.id)
        if cgroup is None:
            pytest.skip("this engine's cgroups are not where docker's drivers put them")
        container.reload()
        assert _namespace_init(cgroup.pids()) == container.attrs["State"]["Pid"]
    finally:
        container.remove(force=True)
