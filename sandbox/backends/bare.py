"""The ``bare`` backend: plain subprocesses on pipes, no isolation at all.

Only the baseline for benchmarks and a quick way to test the referee itself; never run
strangers' bots with it. Bots are not paused either, which is exactly what makes it the
baseline the sandboxes' costs are measured against.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from pathlib import Path

from sandbox.backends.base import Backend, ExitInfo, LaunchSpec, RunningBot
from sandbox.backends.process import BOT_ENV, spawn_on_pipes
from sandbox.channel import PipeTransport
from sandbox.languages import Places


class BareBot(RunningBot):
    def __init__(self, proc: subprocess.Popen[bytes], transport: PipeTransport) -> None:
        self.proc = proc
        self.transport = transport
        self._cleaned = False

    def pause(self) -> None:
        pass

    def resume(self) -> None:
        pass

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)

    def wait(self, timeout: float) -> ExitInfo | None:
        try:
            return ExitInfo.from_status(self.proc.wait(timeout))
        except subprocess.TimeoutExpired:
            return None

    def cleanup(self) -> None:
        if self._cleaned:
            return
        self._cleaned = True
        self.kill()
        self.proc.wait()
        self.transport.close()


class BareBackend(Backend):
    name = "bare"
    places = Places()

    def describe(self) -> str:
        return "bare backend: plain subprocesses, NO isolation (baseline and tests only)"

    def places_for(self, lib_dir: Path, package_dir: Path | None,
                   build_dir: Path | None) -> Places:
        return Places(bot=str(package_dir or "/nonexistent"), lib=str(lib_dir),
                      build=str(build_dir or "/nonexistent"))

    def launch(self, spec: LaunchSpec) -> RunningBot:
        cwd = str(spec.package_dir or spec.build_dir or "/tmp")
        env = {**BOT_ENV, "HOME": "/tmp", **spec.env}
        proc, transport = spawn_on_pipes(spec.command, env=env, cwd=cwd, process_group=0)
        return BareBot(proc, transport)
