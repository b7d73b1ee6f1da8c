"""botleague's sandbox and referee: play bots written by strangers, safely and fairly.

    from sandbox import BotSpec, Limits, run_match

    record = run_match("stones", [BotSpec("mybot.zip"), BotSpec("builtin:random")],
                       options={"size": 5}, seed=7, limits=Limits(move_time=0.5),
                       backend="process")
    record.result.summary(), record.to_json()

A seat may be a ``MoveSource`` instead of a bot (``sandbox.seats``): moves from outside any
process, such as a person's, on a clock of its own.

Backends: ``process`` (bubblewrap namespaces, the default), ``docker`` (one container per
bot), ``bare`` (no isolation: the benchmark baseline only). See ``docs/sandbox.md`` and the
bot protocol in ``docs/protocol.md``.
"""

from sandbox.backends import BACKENDS, Backend, get_backend
from sandbox.build import BotBuildError
from sandbox.errors import BackendFault, BackendUnavailable, BotPackageError, SandboxError
from sandbox.forfeits import PLAYING_FORFEITS, ForfeitKind
from sandbox.limits import Limits
from sandbox.packages import BotSpec
from sandbox.referee import run_match
from sandbox.seats import MoveRequest, MoveSource, Resigned, SeatClock

FORFEIT_REASONS = tuple(str(kind) for kind in PLAYING_FORFEITS)

__all__ = [
    "BACKENDS",
    "FORFEIT_REASONS",
    "Backend",
    "BackendFault",
    "BackendUnavailable",
    "BotBuildError",
    "BotPackageError",
    "BotSpec",
    "ForfeitKind",
    "Limits",
    "MoveRequest",
    "MoveSource",
    "Resigned",
    "SandboxError",
    "SeatClock",
    "get_backend",
    "run_match",
]
