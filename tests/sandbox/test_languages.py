"""Python, Node.js and C++ bots on every backend; C++ compiled once and cached by content."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from sandbox import BotBuildError
from sandbox.build import build_key
from sandbox.packages import BotSpec, unpack
from sandbox.runtime import cache_root
from tests.sandbox.conftest import BOTS, CPP_BOT, JS_BOT, backend_or_skip, bot_folder, play

pytestmark = pytest.mark.usefixtures("clean_worker")


@pytest.mark.parametrize("entry", [BOTS / "first.py", JS_BOT, CPP_BOT], ids=["py", "js", "cpp"])
def test_each_language_plays_a_whole_match(tmp_path: Path, backend: str, entry: Path) -> None:
    bot = bot_folder(tmp_path, entry, "bot")
    record = play([bot, str(BOTS / "first.py")], backend, options={"size": 7})
    assert record.forfeit is None, (record.result, record.players[0].log)
    assert record.players[0].moves >= 3
    assert record.players[0].language == {"py": "python", "js": "node", "cpp": "cpp"}[
        entry.suffix[1:]]


def test_cpp_is_compiled_once_per_source(tmp_path: Path, backend: str) -> None:
    source = tmp_path / "src" / "main.cpp"
    source.parent.mkdir()
    # A unique comment makes a fresh cache entry for this test run.
    source.write_text(f"// {time.time_ns()}\n" + CPP_BOT.read_text())
    package = unpack(BotSpec(str(source)), tmp_path / "unpacked")
    cached = cache_root() / "cpp" / build_key(package, backend_or_skip(backend))
    assert not cached.exists()
    t0 = time.perf_counter()
    play([str(source), str(BOTS / "first.py")], backend)
    first = time.perf_counter() - t0
    assert (cached / "bot").is_file()
    stamp = (cached / "bot").stat().st_mtime_ns
    t0 = time.perf_counter()
    play([str(source), str(BOTS / "first.py")], backend)
    second = time.perf_counter() - t0
    assert (cached / "bot").stat().st_mtime_ns == stamp
    assert second < first
    shutil.rmtree(cached)


def test_a_compile_error_is_reported_before_any_move(tmp_path: Path, backend: str) -> None:
    with pytest.raises(BotBuildError) as caught:
        play([str(BOTS / "broken.cpp"), str(BOTS / "first.py")], backend)
    assert "compilation failed" in str(caught.value)
    assert "error" in caught.value.log


def test_the_compiler_runs_inside_the_sandbox(tmp_path: Path) -> None:
    source = tmp_path / "main.cpp"
    source.write_text('#include "/etc/shadow"\nint main() {}\n')
    with pytest.raises(BotBuildError) as caught:
        play([str(source), str(BOTS / "first.py")], "process")
    assert "root:" not in caught.value.log
    assert "/etc/shadow" in caught.value.log


def test_a_python_bot_imports_the_engine(tmp_path: Path, backend: str) -> None:
    (tmp_path / "main.py").write_text(
        "from botlib import run\n"
        "def play(turn):\n"
        "    state = turn.state()\n"
        "    return state.legal_moves()[-1]\n"
        "run(play)\n")
    record = play([str(tmp_path / "main.py"), str(BOTS / "first.py")], backend)
    assert record.forfeit is None, record.players[0].log
