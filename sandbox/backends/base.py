"""The one interface every sandbox backend implements.

A backend ``launch``es a command for one bot and returns a ``RunningBot``: a transport to
talk to it, ``pause``/``resume`` so the bot not on move cannot use the other's time, and
``kill``/``cleanup`` that leave nothing behind (no process, file, cgroup or container).
"""

from __future__ import annotations

import signal
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path

from sandbox.channel import Transport
from sandbox.languages import Places
from sandbox.limits import Limits


@dataclass(frozen=True)
class ExitInfo:
    """How a bot's process ended: exit code or signal, and whether it hit the memory limit."""

    code: int | None = None
    signal: int | None = None
    oom: bool = False

    def describe(self) -> str:
        if self.oom:
            return "killed for exceeding its memory limit"
        if self.signal is not None:
            try:
                name = signal.Signals(self.signal).name
            except ValueError:
                name = f"signal {self.signal}"
            return f"killed by {name}"
        if self.code is None:
            return "ended (status unknown)"
        return f"exited with code {self.code}"

    @classmethod
    def from_status(cls, status: int, oom: bool = False) -> ExitInfo:
        """From a Popen-style return code, or a shell-style 128+N for a wrapper's child."""
        if status < 0:
            return cls(signal=-status, oom=oom)
        if 128 < status < 128 + 65:
            return cls(code=status, signal=status - 128, oom=oom)
        return cls(code=status, oom=oom)


@dataclass(frozen=True)
class LaunchSpec:
    """What to run for one bot and which host folders it sees."""

    command: list[str]
    limits: Limits
    lib_dir: Path
    package_dir: Path | None = None
    build_dir: Path | None = None
    build_writable: bool = False
    label: str = "bot"
    env: dict[str, str] = field(default_factory=dict)


class RunningBot(ABC):
    transport: Transport

    @abstractmethod
    def pause(self) -> None:
        """Stop every process of the bot until ``resume``."""

    @abstractmethod
    def resume(self) -> None: ...

    @abstractmethod
    def kill(self) -> None:
        """Kill every process of the bot now (idempotent)."""

    @abstractmethod
    def wait(self, timeout: float) -> ExitInfo | None:
        """The bot's exit, waiting up to ``timeout`` seconds; ``None`` if still running."""

    @abstractmethod
    def cleanup(self) -> None:
        """Kill what is left and remove everything created for this bot (idempotent)."""


class Backend(ABC):
    name: str
    places: Places
    parallel_launch: bool = False
    """Launch a match's bots from threads (only where launching is slow and thread-safe)."""

    @abstractmethod
    def describe(self) -> str:
        """One line for people: how bots are isolated on this machine."""

    @abstractmethod
    def launch(self, spec: LaunchSpec) -> RunningBot: ...

    def places_for(self, lib_dir: Path, package_dir: Path | None,
                   build_dir: Path | None) -> Places:
        """Where the bot will see its folders (fixed paths inside a sandbox)."""
        return self.places

    def cache_key(self) -> str:
        """What compiled code depends on besides its source (image, toolchain)."""
        return self.name

    def close(self) -> None:  # noqa: B027  (most backends hold nothing)
        """Release what the backend holds (clients, connections)."""
