"""A seat that is not a process: moves from somewhere else (a person at a browser, a test).

``run_match`` takes a ``MoveSource`` in place of a bot. The referee asks it for a move with
what a bot would be sent (the observation, its legal moves, the time left) and judges the
answer as it judges a bot's line: a move the rules refuse is an ``illegal`` forfeit, no move
in time a ``timeout``; a source that raises ``Resigned`` gives the game up, a ``resigned``
forfeit. What stands behind a source (a queue, a database, a terminal) is the
caller's; the sandbox knows nothing of it.

The source's clock is its own (``SeatClock``): so long a move, so long a game, whatever the
limits the bots of the match play under.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from games import Result


class Resigned(Exception):
    """Raised by ``MoveSource.ask`` for a seat that gives the game up: the referee ends the
    game at once as that seat's forfeit of kind ``resigned``, the message its detail."""


@dataclass(frozen=True)
class SeatClock:
    """A source seat's time: each move within ``move_time`` seconds (the seat's first within
    ``first_move_time`` if given) and the whole game within ``game_time``; running out of
    either is a ``timeout`` forfeit."""

    move_time: float = 300.0
    game_time: float = 1800.0
    first_move_time: float | None = None

    def __post_init__(self) -> None:
        if not (self.move_time > 0 and self.game_time > 0):
            raise ValueError("a seat's clock needs a positive move time and game time, got "
                             f"{self.move_time!r} and {self.game_time!r}")
        if self.first_move_time is not None and not self.first_move_time > 0:
            raise ValueError(f"a first move time must be positive, got {self.first_move_time!r}")

    def allowance(self, game_left: float, first: bool = False) -> float:
        """Seconds for the next move (the seat's ``first``), when ``game_left`` seconds of
        the game are left."""
        move = self.move_time
        if first and self.first_move_time is not None:
            move = min(move, self.first_move_time)
        return max(0.0, min(move, game_left))


@dataclass(frozen=True)
class MoveRequest:
    """What the referee asks a source for one move: the same as a bot's ``turn`` message."""

    turn: int
    """Moves played so far (the step this move makes is ``turn + 1``)."""
    seat: int
    observation: dict[str, Any]
    legal_moves: list[str] | None
    time_left: float
    """Seconds for this move (the move time, or what is left of the game if less)."""
    game_time_left: float
    """Seconds left of the seat's game time before this move."""
    deadline: float
    """``time.monotonic()`` when ``time_left`` runs out."""


class MoveSource(ABC):
    """Where one seat's moves come from. ``ask`` blocks until a move arrives or the deadline
    passes; the referee times it, so a source that answers late has timed out all the same."""

    name: str = "source"
    clock: SeatClock = SeatClock()

    def start(self, *, game: str, options: dict[str, Any], seat: int, players: int) -> None:
        """Called once before the first move of the match (for any seat)."""
        return None

    @abstractmethod
    def ask(self, request: MoveRequest) -> str | None:
        """The move in the game's notation, or None for none by ``request.deadline``; raises
        ``Resigned`` to give the game up."""

    def end(self, result: Result | None) -> None:
        """Called once when the match is over (or stopped: ``result`` None)."""
        return None
