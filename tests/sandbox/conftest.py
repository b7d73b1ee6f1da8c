"""Fixtures for the sandbox tests: real backends, real bots, and a check that nothing is left.

No mocks: every test starts real processes (bubblewrap) or real containers (Docker). Docker
tests are skipped, with the reason, only when no engine or runner image is available.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from replay import MatchRecord
from sandbox import BackendUnavailable, Limits, get_backend, run_match
from sandbox.cgroups import CgroupManager
from sandbox.limits import MIB
from sandbox.match_folders import (
    MATCH_FOLDER_PREFIX,
    match_folder_in_use,
    match_folder_owner,
)
from sandbox.slots import SLOT_COUNT, UID_BASE, slot_busy

HERE = Path(__file__).resolve().parent
BOTS = HERE / "bots"
# The Node.js and C++ starters double as the language tests' bots: what authors copy is tested.
EXAMPLES = HERE.parent.parent / "examples"
JS_BOT = EXAMPLES / "stones_js" / "main.js"
CPP_BOT = EXAMPLES / "stones_cpp" / "main.cpp"
ATTACKS = HERE / "attacks"
SECRET = "hunter2-must-never-reach-a-bot"

# Small limits keep the suite quick on a shared 2-core machine.
FAST = Limits(move_time=1.0, startup_time=10.0, memory=256 * MIB, pids=64,
              tmp_size=16 * MIB, end_grace=0.5)


def backend_or_skip(name: str):
    try:
        return get_backend(name)
    except BackendUnavailable as error:
        pytest.skip(f"{name} backend unavailable here: {error}")


@pytest.fixture(params=["process", pytest.param("docker", marks=pytest.mark.docker)])
def backend(request: pytest.FixtureRequest) -> str:
    backend_or_skip(request.param)
    return request.param


# Other matches may run on this machine while the tests do (a developer's `sandbox play`, a
# league worker): what belongs to a slot some live process holds, or to another live
# referee's match folder, is theirs. Anything else of a bot is a leftover.
def slot_processes() -> list[str]:
    """Processes running as the uid of a slot nobody holds: after a match there must be none."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("Uid:"):
                uid = int(line.split()[1])
                if UID_BASE <= uid < UID_BASE + SLOT_COUNT and not slot_busy(uid - UID_BASE):
                    found.append(f"pid {entry} uid {uid}")
    return found


def match_folders() -> list[str]:
    """Match folders of this process or of a referee that is gone (nobody holds the lock)."""
    found = []
    for path in Path(tempfile.gettempdir()).glob(f"{MATCH_FOLDER_PREFIX}*"):
        if match_folder_owner(path) == os.getpid() or not match_folder_in_use(path):
            found.append(str(path))
    return found


def leftovers() -> list[str]:
    problems = slot_processes()
    problems += [f"cgroup {p}" for p in CgroupManager().leftovers()
                 if not (p.name.startswith("slot-") and p.name[5:].isdigit()
                         and slot_busy(int(p.name[5:])))]
    problems += [f"dir {p}" for p in match_folders()]
    try:
        from sandbox.backends.docker import leftover_containers

        containers = leftover_containers()
    except Exception:  # no docker here: nothing of it can be left either
        containers = []
    problems += [f"container {name}" for name, slot in containers
                 if slot is None or not slot_busy(slot)]
    return problems


def assert_worker_clean(timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while (found := leftovers()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not found, f"left behind: {found}"


@pytest.fixture
def clean_worker():
    """Fails the test if anything of a bot survives it."""
    assert_worker_clean()
    yield
    assert_worker_clean()


def bot_folder(tmp_path: Path, main: Path | str, name: str | None = None,
               extra: dict[str, str] | None = None) -> str:
    """A bot package folder with ``main`` as its entry point (plus extra files)."""
    main = Path(main)
    folder = tmp_path / (name or main.stem)
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(main, folder / f"main{main.suffix}")
    for filename, text in (extra or {}).items():
        (folder / filename).write_text(text)
    return str(folder)


def scripted(tmp_path: Path, script: dict[str, str], name: str = "scripted") -> str:
    return bot_folder(tmp_path, BOTS / "scripted.py", name,
                      {"script.json": json.dumps(script)})


def attack(tmp_path: Path, name: str, target: str = "") -> str:
    return bot_folder(tmp_path, ATTACKS / f"{name}.py", name,
                      {"_common.py": (ATTACKS / "_common.py").read_text(),
                       "target.txt": target})


def play(bots: list[str], backend: str, game: str = "stones", limits: Limits = FAST,
         **kwargs) -> MatchRecord:
    return run_match(game, bots, backend=backend, limits=limits, **kwargs)


def forfeit_of(record: MatchRecord) -> tuple[int, str] | None:
    f = record.forfeit
    return None if f is None else (f.player, f.kind)
