"""``botleague``, the command the project installs: the sandbox's ``play`` and ``show`` as
``python -m sandbox`` runs them, and the league's ``submit``, ``challenge`` and
``tournament`` (their runs against a league: tests/league/test_api_submit.py and
test_api_competitions_cli.py). ``python -m sandbox`` points at the commands that moved."""

from __future__ import annotations

import importlib
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.sandbox.conftest import BOTS

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("play", "show", "submit", "challenge", "tournament")


def run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_project_installs_botleague_from_the_client_package(
        capsys: pytest.CaptureFixture[str]) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"] == {"botleague": "client.cli:main"}
    assert "client*" in project["tool"]["setuptools"]["packages"]["find"]["include"]
    module, _, name = project["project"]["scripts"]["botleague"].partition(":")
    main = getattr(importlib.import_module(module), name)
    with pytest.raises(SystemExit) as help_asked:
        main(["--help"])
    assert help_asked.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: botleague ")
    assert all(f"    {command}" in shown for command in COMMANDS), shown


def test_botleague_play_is_the_sandboxs_play() -> None:
    args = ("play", "stones", str(BOTS / "first.py"), "builtin:random", "--seed", "3")
    ours, sandbox = run("client", *args), run("sandbox", *args)
    assert ours.returncode == sandbox.returncode == 0, ours.stderr + sandbox.stderr
    assert ours.stdout.splitlines()[0] == sandbox.stdout.splitlines()[0]  # the result
    assert [line.split(" — ")[0] for line in ours.stdout.splitlines()[1:]] == \
        [line.split(" — ")[0] for line in sandbox.stdout.splitlines()[1:]]  # seats and bots


def test_botleague_mistakes_are_the_sandboxs_one_line_errors() -> None:
    done = run("client", "play", "stones", "builtin:random")
    assert done.returncode == 2
    assert done.stderr.strip() == "error: stones needs 2 bot(s), got 1"


@pytest.mark.parametrize("command", ["submit", "challenge", "tournament"])
def test_python_m_sandbox_points_at_the_commands_that_moved(command: str) -> None:
    done = run("sandbox", command, "whatever")
    assert done.returncode == 2
    assert done.stderr.strip() == (f"error: {command} is now `botleague {command}` (or "
                                   f"`python -m client {command}`)")


def test_python_m_sandbox_keeps_play_and_show_only() -> None:
    done = run("sandbox", "--help")
    assert done.returncode == 0
    assert "    play" in done.stdout and "    show" in done.stdout
    assert not any(f"    {command}" in done.stdout for command in COMMANDS[2:])
