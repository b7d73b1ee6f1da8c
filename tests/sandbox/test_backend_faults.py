"""When the sandbox itself fails mid-match: an infrastructure error, never a bot's loss.

A pause, resume or kill that does not happen, or a container removed under the referee, makes
``run_match`` raise ``BackendFault`` (a ``SandboxError``: the league marks the match failed,
nobody's loss) after logging it, instead of playing on with the bot unpaused or recording a
crash the bot never had. What a bot can do itself, such as exiting between moves, stays its
own forfeit. Every failure is real: a freezer made read-only under the referee, a container
removed through the engine; nothing of the backends or of Docker's SDK is mocked, and nothing
may be left behind (``clean_worker``).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import State
from replay.record import MoveRecord
from sandbox import BackendFault, Limits
from sandbox.backends import LaunchSpec, RunningBot
from sandbox.backends.docker import LABEL, DockerBackend, DockerBot
from tests.sandbox.conftest import (
    BOTS,
    FAST,
    backend_or_skip,
    bot_folder,
    forfeit_of,
    play,
    scripted,
)

pytestmark = pytest.mark.usefixtures("clean_worker")
ROOT = Path(__file__).resolve().parents[2]
# The opponent thinks 0.2 s on its first move: far past the 1 ms pause grace, so the bot that
# just moved is surely paused (or its pause tried) while the opponent is on move.
SLOW_FIRST = {"0": "sleep:0.2"}
LIMITS: Limits = FAST


class ApiPausingDocker(DockerBackend):
    """The docker backend as on a host whose engine's cgroups are not visible (a worker not
    run as root, another cgroup driver): idle bots are paused through the engine's API."""

    def launch(self, spec: LaunchSpec) -> RunningBot:
        bot = super().launch(spec)
        assert isinstance(bot, DockerBot)
        bot._pauser = None  # what attach_cgroup leaves when it finds no cgroup
        return bot


@pytest.fixture(params=[pytest.param("docker", marks=pytest.mark.docker),
                        pytest.param("docker-api", marks=pytest.mark.docker)])
def docker_engine(request: pytest.FixtureRequest) -> Iterator[DockerBackend]:
    """The docker backend, pausing through the container's cgroup or through the API."""
    backend_or_skip("docker")
    made = ApiPausingDocker() if request.param == "docker-api" else DockerBackend()
    yield made
    made.close()


@pytest.mark.docker
def test_a_bot_that_exits_between_moves_still_forfeits_when_paused_by_the_api(
        tmp_path: Path) -> None:
    """The engine refuses to pause a container whose bot has exited (409): that is no fault,
    its next turn shows the exit as its crash. Otherwise a losing bot could turn its loss
    into a failed match by exiting after a move (test_forfeits checks the other pausers)."""
    backend_or_skip("docker")
    engine = ApiPausingDocker()
    bot = scripted(tmp_path, {"0": "reply-then-exit"}, "exits")
    try:
        record = play([bot, scripted(tmp_path, SLOW_FIRST, "slow")], engine, limits=LIMITS)
    finally:
        engine.close()
    assert forfeit_of(record) == (0, "crash"), record.result
    assert "exited with code 0" in record.result.forfeit.detail


# -- a freezer that cannot be written ------------------------------------------------------
@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                    reason="bind-mounting over a cgroup's freezer needs root and unshare")
def test_a_freeze_that_fails_is_an_infrastructure_failure(tmp_path: Path, backend: str) -> None:
    """The spinner forks, so pausing it freezes its cgroup; its freezer is made read-only
    (a read-only bind mount) once it has moved. The referee must stop there, say why, and
    not play on with the spinners running. The match runs in a process of its own, in its
    own mount namespace, so the mounts end with it (read_only_freezer.py says why)."""
    spinner = bot_folder(tmp_path, BOTS / "spinner.py")
    opponent = scripted(tmp_path, SLOW_FIRST, "slow")
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", sys.executable, "-m",
         "tests.sandbox.read_only_freezer", backend, spinner, opponent],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.splitlines()[-1])
    assert said["outcome"].startswith("BackendFault: pausing"), said
    assert "Read-only file system" in said["outcome"], said
    assert said["moves"] == [0], "the match went on after the pause failed"
    assert any("pausing" in line for line in said["logged"]), said


# -- a container removed under the referee --------------------------------------------------
@pytest.mark.parametrize("when", ["before-its-pause", "while-paused"])
def test_a_container_removed_under_the_referee_is_an_infrastructure_failure(
        tmp_path: Path, docker_engine: DockerBackend, when: str,
        caplog: pytest.LogCaptureFixture) -> None:
    """Seat 0's container is removed through the engine (as a careless operator or a
    clean-up job on the host would), right after its move (its pause finds it gone) or after
    the opponent's move (it was paused; its resume and next turn find it gone). Its missing
    output is not its crash: the match fails."""
    moves: list[int] = []
    victim = scripted(tmp_path, {}, "victim")

    def remove_victim(_state: State, move: MoveRecord) -> None:
        moves.append(move.seat)
        if len(moves) == (1 if when == "before-its-pause" else 2):
            for container in docker_engine.client.containers.list(
                    filters={"label": f"{LABEL}=victim"}):
                container.remove(force=True)

    with caplog.at_level(logging.ERROR, logger="sandbox"), pytest.raises(BackendFault):
        play([victim, scripted(tmp_path, SLOW_FIRST, "slow")], docker_engine, limits=LIMITS,
             on_move=remove_victim)
    assert len(moves) <= 2, f"the match went on after its container was removed: {moves}"
    assert caplog.records, "the failure was not logged"
