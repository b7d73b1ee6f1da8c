"""The referee's limits for one match: time per move, start-up, time bank, output and resources.

One frozen value passed from the league (per ladder) or the command line down to the backends,
so every bot in a match plays under exactly the same numbers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

KIB = 1024
MIB = 1024 * KIB


@dataclass(frozen=True)
class Limits:
    move_time: float = 1.0
    """Wall-clock seconds a bot may take for each move."""
    startup_time: float = 10.0
    """Extra seconds allowed for the bot's first reply (interpreter start, imports, tables)."""
    time_bank: float = 0.0
    """Seconds shared across the match; a move that runs over ``move_time`` draws on it."""
    max_line: int = 4 * KIB
    """Longest reply line in bytes (a move is short; this stops a bot flooding stdout)."""
    max_output: int = 1 * MIB
    """Total bytes a bot may write to stdout over the whole match."""
    log_bytes: int = 64 * KIB
    """How much of each bot's stderr is kept as its log (the tail is kept)."""
    memory: int = 512 * MIB
    """Memory limit per bot (all its processes), bytes."""
    pids: int = 64
    """Most processes/threads a bot may have at once."""
    tmp_size: int = 16 * MIB
    """Size of the bot's private writable /tmp."""
    cpus: float = 1.0
    """CPU share per bot (docker backend; the process backend relies on pausing the idle bot)."""
    pause_grace: float = 0.001
    """Seconds the bot that just moved may run on before it is paused (0: at once).

    Stopping and continuing a process costs ~100 µs per turn on a VM (each signal wakes a task
    on another vCPU). With a grace, exchanges quicker than it skip the signals entirely, while
    a bot that ponders or spins is stopped after at most this much of the other's move."""
    end_grace: float = 0.5
    """Seconds a bot gets to exit by itself after the ``end`` message before it is killed."""
    compile_time: float = 120.0
    """Wall-clock seconds for compiling a C++ bot (once per source, then cached)."""
    compile_memory: int = 1024 * MIB

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
                raise ValueError(f"limit {f.name} must be a non-negative number, got {value!r}")
        if self.move_time <= 0:
            raise ValueError("limit move_time must be positive")

    def with_changes(self, **changes: Any) -> Limits:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Limits:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown limits: {', '.join(sorted(unknown))}")
        return cls(**data)

    def for_bot(self) -> dict[str, Any]:
        """What a bot is told at start (the figures that concern its own play)."""
        return {"move_time": self.move_time, "startup_time": self.startup_time,
                "time_bank": self.time_bank, "max_line": self.max_line,
                "memory": self.memory}
