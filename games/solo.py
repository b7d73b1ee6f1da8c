"""What the states of the solo games (2048, Robots) share: one seat that moves until the run
ends, its score, and a move history that copies share until one of them moves (a search
copies far more often than it keeps the copy)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from games.core import Game, State
from games.errors import GameError
from games.result import Result


class SoloState(State):
    score: int

    def __init__(self, game: Game, seed: int) -> None:
        super().__init__(game, seed)
        self._history: list[str] = []
        self._history_shared = False

    @property
    def history(self) -> list[str]:  # type: ignore[override]
        """Moves applied so far, canonical. Read-only: copies share it until they diverge."""
        return self._history

    def _own_history(self) -> None:
        """Before a move is appended while a copy shares the history: this state's own."""
        self._history = list(self._history)
        self._history_shared = False

    @property
    def to_move(self) -> int | None:
        return None if self._result is not None else 0

    def _end(self, reason: str, detail: str) -> None:
        self._result = Result(reason=reason, scores=self.scores(), outcomes=None,
                              detail=detail, extra=self.extra())

    def scores(self) -> tuple[float, ...]:
        return (self.score,)

    def spectator(self) -> dict[str, Any]:
        view = self.observation(0)
        view["result"] = None if self._result is None else self._result.to_json()
        return view

    def copy(self) -> Self:
        cls = type(self)
        twin = cls.__new__(cls)
        twin.__dict__.update(self.__dict__)
        twin.rng = self.rng.copy()
        self._history_shared = twin._history_shared = True
        return twin


def observed_count(observation: Mapping[str, Any], key: str, least: int = 0) -> int:
    """A counter of an observation a state is rebuilt from (``state_from_observation``): a
    whole number from ``least`` up, ``least`` when missing. The observation may come from a
    bot, so anything else is refused as a ``GameError``."""
    value = observation.get(key, least)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise GameError(f"{key!r} must be a whole number >= {least}, got {value!r}")
    return value
