"""botlib: the helper on every Python bot's import path, so a bot is ten lines.

    from botlib import run

    def play(turn):
        return turn.legal_moves[0]

    run(play)

``run`` reads the referee's JSON lines, calls ``play(turn)`` for each turn and prints the
move it returns. ``turn.state()`` rebuilds an engine state from the observation (games that
support it), so a bot can search with the very rules the referee uses. ``log(...)`` writes to
stderr, which the referee keeps (the tail of it) as the bot's log for the match.

This module runs inside the sandbox: standard library only, and ``games`` imported lazily
(only when a bot asks for it) so a bot that does not search starts fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Start", "Turn", "log", "run"]


@dataclass
class Start:
    """The ``start`` message: which game, options, your seat, your limits."""

    game_id: str
    options: dict[str, Any]
    seat: int
    players: int
    seed: int
    limits: dict[str, Any]
    _game: Any = field(default=None, repr=False)

    @property
    def game(self) -> Any:
        """The engine's ``Game`` for this match (imports ``games`` on first use)."""
        if self._game is None:
            import games

            self._game = games.make_game(self.game_id, self.options)
        return self._game


@dataclass
class Turn:
    """One ``turn`` message: what you see, what you may play, how long you have."""

    start: Start
    number: int
    observation: dict[str, Any]
    legal_moves: list[str] | None
    time_left: float
    time_bank: float

    @property
    def seat(self) -> int:
        return self.start.seat

    @property
    def game(self) -> Any:
        return self.start.game

    def state(self) -> Any:
        """An engine ``State`` rebuilt from the observation, to search from."""
        return self.start.game.state_from_observation(self.observation)


def log(*parts: object) -> None:
    """A line in your log (stderr); the referee keeps the tail of it."""
    print(*parts, file=sys.stderr, flush=True)


def run(play: Callable[[Turn], str], setup: Callable[[Start], None] | None = None,
        finish: Callable[[dict[str, Any]], None] | None = None) -> None:
    """Speak the protocol on stdin/stdout until the ``end`` message or end of input."""
    start: Start | None = None
    out = sys.stdout
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            start = Start(message["game"], message.get("options", {}), message["seat"],
                          message.get("players", 1), message.get("seed", 0),
                          message.get("limits", {}))
            if setup is not None:
                setup(start)
        elif kind == "turn":
            if start is None:
                raise RuntimeError("turn before start")
            turn = Turn(start, message.get("turn", 0), message["observation"],
                        message.get("legal_moves"), message.get("time_left", 0.0),
                        message.get("time_bank", 0.0))
            move = play(turn)
            out.write(f"{move}\n")
            out.flush()
        elif kind == "end":
            if finish is not None:
                finish(message.get("result", {}))
            return
