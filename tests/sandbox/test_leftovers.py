"""Stopping a referee, and the leftover check itself.

A match stopped by Ctrl-C, SIGTERM or SIGHUP removes its bots and folder; one killed outright
leaves a folder that the next match sweeps. Another live match on the machine is not a
leftover of ours.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace

import pytest

from benchmarks.leftovers import RUN_LABEL, leftovers, run_labels, slot_processes
from sandbox.backends.base import LaunchSpec
from sandbox.backends.docker import LABEL, SLOT_LABEL, leftover_containers
from sandbox.limits import Limits
from sandbox.match_folders import MATCH_FOLDER_PREFIX, sweep_stale_match_folders
from sandbox.slots import SLOT_COUNT, UID_BASE
from tests.sandbox.conftest import BOTS, assert_worker_clean, backend_or_skip, forfeit_of, play

ROOT = Path(__file__).resolve().parents[2]
REFEREE_WAIT = 120  # seconds for a referee to start or end: slow on a loaded machine
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
    deadline = time.monotonic() + REFEREE_WAIT
    while not (containers_of(bot) if backend == "docker" else bots_of(proc)):
        assert proc.poll() is None and time.monotonic() < deadline, "the match did not start"
        time.sleep(0.05)
    return proc


@pytest.fixture(autouse=True)
def own_temp_folder(monkeypatch: pytest.MonkeyPatch,
                    tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Match folders of this module's referees (this process's and the ones it starts) in a
    temp folder of its own: every referee on this machine sweeps the stale folders it finds
    in /tmp, whoever's (by design), so one another league's match sweeps could vanish from
    under these tests' eyes. Open to every slot's uid, as /tmp is."""
    tmp_path_factory.getbasetemp()  # pytest's own, where it was: made before the change
    folder = Path(tempfile.mkdtemp(prefix="botleague-leftover-tests-", dir="/tmp"))
    folder.chmod(0o1777)
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


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
        proc.wait(timeout=REFEREE_WAIT)


def test_another_live_match_is_not_a_leftover(foreign_match):
    assert leftovers() == []
    # and a match of our own beside it runs and cleans up after itself
    record = play([str(BOTS / "first.py"), "builtin:random"], "process")
    assert forfeit_of(record) is None
    assert leftovers() == []
    assert foreign_match.poll() is None  # still mid-game: the checks above saw it running


def test_a_slot_this_process_holds_hides_nothing_of_it():
    """A slot held here (a referee of this process that never released it) is no other
    live process's: a process running as its uid is a leftover, even though the slot's lock
    is taken; once the slot is someone else's it is not."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("running as a slot's uid needs root and util-linux's setpriv")
    from sandbox.slots import acquire_slot

    slot = acquire_slot()
    stray = subprocess.Popen(["setpriv", f"--reuid={slot.uid}", f"--regid={slot.gid}",
                              "--clear-groups", "--", "sleep", "60"])
    try:
        deadline = time.monotonic() + REFEREE_WAIT  # a process start is slow under load
        while not slot_uid(stray.pid):
            assert time.monotonic() < deadline, "setpriv did not drop to the slot's uid"
            time.sleep(0.01)
        assert f"pid {stray.pid} uid {slot.uid}" in slot_processes()
        other = subprocess.Popen(  # another live process takes the slot over
            [sys.executable, "-c", "import fcntl, os, sys, time; "
             "fd = os.open(sys.argv[1], os.O_RDWR); fcntl.flock(fd, fcntl.LOCK_EX); "
             "print('held', flush=True); time.sleep(60)", _lock_file(slot.index)],
            stdout=subprocess.PIPE, text=True)
        try:
            slot.release()
            assert other.stdout is not None and other.stdout.readline() == "held\n"
            assert not any(f"pid {stray.pid} " in p for p in slot_processes())
        finally:
            other.kill()
            other.wait(10)
        # free again: stranded — unless another process on this machine (another league, a
        # test run beside this one) took the free slot meanwhile and swept it at its launch
        assert (f"pid {stray.pid} uid {slot.uid}" in slot_processes()
                or stray.poll() is not None), slot_processes()
    finally:
        slot.release()
        stray.kill()
        stray.wait(10)
    assert_worker_clean()


def test_a_zombie_is_a_leftover_only_of_the_process_that_should_reap_it():
    """A bot's process that has exited but is not reaped yet holds nothing but its pid. One
    whose parent is another process (orphaned in a container whose pid 1 reaps nothing) is
    that process's; one that is our own child, unreaped, is ours."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("running as a slot's uid needs root and util-linux's setpriv")
    from sandbox.slots import acquire_slot

    slot = acquire_slot()  # held here all along: whatever is in it is judged, not skipped
    drop = ["setpriv", f"--reuid={slot.uid}", f"--regid={slot.gid}", "--clear-groups", "--"]
    parent = subprocess.Popen(  # makes a zombie child and never reaps it
        [sys.executable, "-c", "import subprocess, sys, time; "
         "child = subprocess.Popen(sys.argv[1:]); print(child.pid, flush=True); "
         "time.sleep(60)", *drop, "true"], stdout=subprocess.PIPE, text=True)
    ours = subprocess.Popen([*drop, "true"])
    try:
        assert parent.stdout is not None
        theirs = int(parent.stdout.readline())
        deadline = time.monotonic() + 30
        while not all(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
                      == "Z" for pid in (theirs, ours.pid)):
            assert time.monotonic() < deadline, "the children did not exit"
            time.sleep(0.05)
        found = slot_processes()
        assert f"pid {ours.pid} uid {slot.uid}" in found
        assert not any(f"pid {theirs} " in p for p in found)
    finally:
        ours.wait(10)
        parent.kill()
        parent.wait(10)
        slot.release()


def _lock_file(index: int) -> str:
    from sandbox.slots import lock_dir

    return str(lock_dir() / f"{index}.lock")


@pytest.mark.parametrize(("signum", "code", "says"), [
    (signal.SIGINT, 130, "interrupted"),
    (signal.SIGTERM, 143, "stopped by SIGTERM"),
    (signal.SIGHUP, 143, "stopped by SIGHUP"),
])
def test_a_stopped_match_leaves_nothing_behind(foreign_match, signum, code, says):
    foreign_match.send_signal(signum)
    assert foreign_match.wait(timeout=REFEREE_WAIT) == code
    assert says in foreign_match.stderr.read()
    assert_worker_clean()


class NextHolder:
    """Waits, from before its referee is killed, to take a lock the referee holds (its match
    folder's, a bot's slot's): held the moment the kernel drops the referee's, so that no
    other referee's or test run's sweep on the machine (every match's start sweeps folders, a
    new Docker backend free slots' containers) removes what it left before the test has seen
    it stranded."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = os.open(path, os.O_RDONLY)
        self.thread = threading.Thread(target=fcntl.flock, args=(self.fd, fcntl.LOCK_EX),
                                       daemon=True)
        self.thread.start()

    def held(self, timeout: float = 30) -> bool:
        self.thread.join(timeout)
        return not self.thread.is_alive()

    def release(self) -> None:
        os.close(self.fd)  # drops the lock: what it kept is a stranded one again


def folder_of(proc: subprocess.Popen[str]) -> Path:
    """The match folder of a live referee started here."""
    (folder,) = Path(tempfile.gettempdir()).glob(f"{MATCH_FOLDER_PREFIX}{proc.pid}-*")
    return folder


def slot_of_container(bot: Path) -> tuple[str, int]:
    """The name and slot of the running container of the bot named ``bot``."""
    import docker

    (container,) = docker.from_env().containers.list(filters={"label": f"{LABEL}={bot.name}"})
    return container.name, int(container.labels[SLOT_LABEL])


def test_a_killed_referees_leftovers_go_with_the_next_match(sleeper, backend):
    from sandbox.slots import lock_dir

    proc = start_match(sleeper, backend)
    bots = bots_of(proc)
    folder = folder_of(proc)
    holders = [NextHolder(folder)]
    if backend == "docker":
        container, slot = slot_of_container(sleeper)
        holders.append(NextHolder(lock_dir() / f"{slot}.lock"))
    try:
        proc.kill()
        proc.wait(timeout=REFEREE_WAIT)
        assert all(holder.held() for holder in holders), "the killed referee's locks outlived it"
        assert folder.is_dir(), "SIGKILL gives the referee no chance to clean up"
        if backend == "docker":  # a process-backend bot dies with it (bwrap --die-with-parent)
            assert container in {name for name, _ in leftover_containers()}, "a container stays"
    finally:
        for holder in holders:
            holder.release()
    wait_gone(bots)
    play([str(BOTS / "first.py"), "builtin:random"], backend)
    assert not folder.exists()
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
        holder = NextHolder(folder)
    finally:
        proc.kill()
        proc.wait(timeout=REFEREE_WAIT)
    try:
        assert holder.held(), "the killed referee's lock outlived it"
        assert folder.is_dir(), "SIGKILL gives the referee no chance to clean up"
    finally:
        holder.release()
    wait_gone(bots)
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
    # held while the scene is set too: another referee on the machine sweeps free slots
    # (at its first bot, then each minute) and would take the frozen task before we look
    setting = try_slot(free)
    assert setting is not None
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
        setting.release()
        backend = ProcessBackend()
        record = play([str(BOTS / "first.py"), "builtin:random"], backend)
        assert forfeit_of(record) is None
        assert sleepers[0].wait(timeout=10) == -signal.SIGKILL
        assert not any((root / f"slot-{free}").exists() for root in manager.roots.values())
        assert sleepers[1].poll() is None  # its slot is held: not ours to touch
        assert all((root / f"slot-{held}").exists() for root in manager.roots.values())
    finally:
        setting.release()
        for group in groups:
            with contextlib.suppress(OSError):
                group.remove()
        holder.release()
        for sleeper in sleepers:
            sleeper.wait(timeout=10)


@pytest.mark.docker
def test_a_new_docker_backend_sweeps_containers_of_free_slots():
    """Containers a killed referee left in a slot nobody takes again are removed at start."""
    from sandbox.backends.docker import DockerBackend
    from sandbox.slots import try_slot

    backend = backend_or_skip("docker")
    free, held = SLOT_COUNT - 1, SLOT_COUNT - 2
    holder = try_slot(held)
    assert holder is not None
    made = [backend.client.containers.create(
        backend.image, ["true"], labels={LABEL: "stranded", SLOT_LABEL: str(index)})
        for index in (free, held)]
    # made by no referee (as a test's probe is): no slot to judge it by, not ours to remove
    made.append(backend.client.containers.create(
        backend.image, ["true"], labels={LABEL: "probe", RUN_LABEL: "another run"}))
    try:
        DockerBackend()
        names = {name for name, _ in leftover_containers()}
        assert made[0].name not in names
        assert made[1].name in names  # its slot is held: a live referee's bot
        assert made[2].name in names
        assert not any(made[2].name in problem for problem in leftovers()), "not our run's"
    finally:
        holder.release()
        for container in made:
            with contextlib.suppress(Exception):
                container.remove(force=True)


@pytest.mark.docker
def test_a_free_slots_container_is_a_leftover_only_of_the_run_that_made_it():
    """A deployment sharing the host's engine and slots (a compose worker a fault test killed
    mid-match) leaves its bot in a slot nobody holds: its own run sweeps it, ours does not
    count it. Our bots carry our run's name, inherited by the workers we start."""
    from benchmarks.leftovers import RUN, bot_containers
    from sandbox.slots import RUN_ENV

    backend = backend_or_skip("docker")
    assert os.environ[RUN_ENV] == RUN
    free = SLOT_COUNT - 1
    theirs, ours = (backend.client.containers.create(
        backend.image, ["true"], labels={LABEL: "stranded", SLOT_LABEL: str(free),
                                         RUN_LABEL: run})
        for run in ("a deployment's worker", RUN))
    try:
        found = bot_containers()
        assert theirs.name not in found
        assert ours.name in found
    finally:
        for container in (theirs, ours):
            with contextlib.suppress(Exception):
                container.remove(force=True)
    slot = SimpleNamespace(index=free, uid=UID_BASE + free, gid=UID_BASE + free)
    spec = LaunchSpec(command=["true"], limits=Limits(), lib_dir=Path(tempfile.gettempdir()))
    assert backend._config(spec, slot)["labels"][RUN_LABEL] == RUN


@pytest.mark.docker
def test_a_container_stranded_under_the_slots_name_is_replaced_at_launch():
    """A launch does not look for its slot's leftovers (an engine call per bot); a container
    a killed referee left under the slot's name shows up as a name conflict and is replaced."""
    import docker.errors

    from sandbox.backends.docker import CONTAINER_PREFIX
    from sandbox.slots import acquire_slot

    backend = backend_or_skip("docker")
    # Other processes on this machine take slots too: the slot probed may be taken before
    # the match's first bot takes it (the name in use, or the bot in another slot). Such a
    # round says nothing either way and is played again; one clean round must replace it.
    for _ in range(5):
        probe = acquire_slot()  # the slot the match's first bot will take
        index = probe.index
        probe.release()
        try:
            stranded = backend.client.containers.create(
                backend.image, ["true"], name=f"{CONTAINER_PREFIX}{index}",
                labels={LABEL: "stranded", SLOT_LABEL: str(index)})
        except docker.errors.APIError as error:
            if error.status_code != 409:
                raise
            continue  # another process's live bot has the name now
        try:
            record = play([str(BOTS / "first.py"), "builtin:random"], "docker")
            assert record.forfeit is None, record.result
            ids = {c.id for c in backend.client.containers.list(all=True)}
            if stranded.id not in ids:
                break
        finally:
            with contextlib.suppress(Exception):
                stranded.remove(force=True)
    else:
        raise AssertionError("in five rounds, no launch replaced the stranded container")
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
                                              labels={LABEL: "cgroup-probe", **run_labels()})
    try:
        cgroup = _cgroup_by_id(container.id)
        if cgroup is None:
            pytest.skip("this engine's cgroups are not where docker's drivers put them")
        container.reload()
        assert _namespace_init(cgroup.pids()) == container.attrs["State"]["Pid"]
    finally:
        container.remove(force=True)


def _left_by(run: str, code: str) -> str:
    """What a referee of ``run`` prints, run in a process that then exits without cleaning
    up (as a killed worker does): its slot's lock and its folder's are dropped with it."""
    env = {**os.environ, "BOTLEAGUE_RUN": run}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=REFEREE_WAIT, check=True)
    return done.stdout.strip()


def test_what_a_dead_referee_left_in_a_free_slot_is_a_leftover_only_of_its_run():
    """Another run's worker killed mid-match (another test run, another league on this
    machine) leaves its bot in a slot nobody holds now: the slot's next holder sweeps it, but
    it is not ours to count; one of ours is."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("running as a slot's uid needs root and util-linux's setpriv")
    from benchmarks.leftovers import RUN
    from sandbox.slots import try_slot

    take = "from sandbox.slots import acquire_slot; print(acquire_slot().index)"
    strays = []
    held = []  # each run's slot held here (a look, recording no run) while the next takes one
    try:
        for run in ("another run", RUN):
            index = int(_left_by(run, take))
            held.append(try_slot(index))
            stray = subprocess.Popen(["setpriv", f"--reuid={UID_BASE + index}",
                                      f"--regid={UID_BASE + index}", "--clear-groups", "--",
                                      "sleep", "60"])
            strays.append((run, stray, index))
        deadline = time.monotonic() + REFEREE_WAIT
        while not all(slot_uid(stray.pid) for _, stray, _ in strays):
            assert time.monotonic() < deadline, "setpriv did not drop to the slot's uid"
            time.sleep(0.01)
        for slot in held:
            if slot is not None:
                slot.release()
        (_, theirs, their_slot), (_, ours, our_slot) = strays
        assert their_slot != our_slot
        found = slot_processes()
        assert f"pid {ours.pid} uid {UID_BASE + our_slot}" in found
        assert not any(f"pid {theirs.pid} " in p for p in found)
        assert f"pid {theirs.pid} uid {UID_BASE + their_slot}" in slot_processes(any_run=True)
    finally:
        for slot in held:
            if slot is not None:
                slot.release()  # no-op when released already
        for _, stray, _ in strays:
            stray.kill()
            stray.wait(10)
    assert_worker_clean()


def test_a_dead_referees_match_folder_is_a_leftover_only_of_its_run():
    from benchmarks.leftovers import RUN

    left = ("import os; from sandbox.match_folders import match_folder\n"
            "with match_folder() as path:\n    print(path, flush=True); os._exit(0)")
    theirs, ours = (Path(_left_by(run, left)) for run in ("another run", RUN))
    try:
        assert theirs.exists() and ours.exists()
        found = [problem for problem in leftovers() if problem.startswith("dir ")]
        assert f"dir {ours}" in found
        assert f"dir {theirs}" not in found
    finally:
        sweep_stale_match_folders()
    assert not theirs.exists() and not ours.exists(), "a folder nobody holds is swept, whoever's"


@pytest.mark.docker
def test_a_docker_launch_clears_the_process_cgroup_a_killed_referee_left_in_its_slot():
    """One host may run both backends: a process backend's referee killed in a slot leaves
    its bot's cgroup, and the slot's next holder clears it even when it launches containers
    (else it is counted against a run that never made it)."""
    from sandbox.cgroups import CgroupManager
    from sandbox.slots import acquire_slot

    backend_or_skip("docker")
    manager = CgroupManager()
    if os.geteuid() != 0 or not manager.available:
        pytest.skip("bot cgroups need root and a cgroup hierarchy")
    for _ in range(5):  # other processes take slots too: the probed one must be the bot's
        probe = acquire_slot()
        name = f"slot-{probe.index}"
        manager.create(name, 64 * 2**20, 16)  # as a killed referee left it
        probe.release()
        record = play([str(BOTS / "first.py"), "builtin:random"], "docker")
        assert record.forfeit is None, record.result
        if not any(path.name == name for path in manager.leftovers()):
            break
        manager.remove_named(name)  # another process took the slot first: again
    else:
        raise AssertionError("in five rounds, no docker launch cleared the stranded cgroup")
    assert_worker_clean()
