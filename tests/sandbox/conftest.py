"""Fixtures for the sandbox tests: real backends, real bots, and a check that nothing is left.

No mocks: every test starts real processes (bubblewrap) or real containers (Docker). Docker
tests are skipped, with the reason, only when no engine or runner image is available.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from benchmarks.leftovers import leftovers
from replay import MatchRecord
from sandbox import BackendUnavailable, Limits, get_backend, run_match
from sandbox.limits import MIB

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


def assert_worker_clean(timeout: float = 3.0) -> None:
    """Nothing of a bot is left by this process or a dead one. Other matches may run on the
    machine meanwhile: their bots are judged theirs by the slot's rule (``leftovers``)."""
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
