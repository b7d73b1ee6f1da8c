"""How a game ended: per-player outcome and score, the reason, and the game's extra figures."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Outcome(StrEnum):
    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"


@dataclass(frozen=True)
class Forfeit:
    """A player lost (or a solo run stopped) for breaking a rule or the referee's limits.

    ``kind`` is one of the referee's forfeit reasons (``illegal``, ``malformed``, ``timeout``,
    ``crash``, ``output-limit``, ``memory-limit``); ``detail`` says what happened.
    """

    player: int
    kind: str
    detail: str = ""


@dataclass(frozen=True)
class Result:
    """The end of a game.

    ``reason`` is a short machine-readable code (``both-passed``, ``no-legal-move``,
    ``game-over``, ``max-turns``, ``forfeit`` ...). Two-player games fill ``outcomes``; solo
    games leave it ``None`` and are ranked by ``scores``.
    """

    reason: str
    scores: tuple[float, ...]
    outcomes: tuple[Outcome, ...] | None = None
    detail: str = ""
    forfeit: Forfeit | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    scored: bool = True  # False for games decided by win/loss alone (Stones)

    @property
    def winner(self) -> int | None:
        if self.outcomes is None:
            return None
        for seat, outcome in enumerate(self.outcomes):
            if outcome is Outcome.WIN:
                return seat
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "detail": self.detail,
            "scores": list(self.scores),
            "outcomes": None if self.outcomes is None else [str(o) for o in self.outcomes],
            "winner": self.winner,
            "forfeit": None if self.forfeit is None else {
                "player": self.forfeit.player, "kind": self.forfeit.kind,
                "detail": self.forfeit.detail},
            "extra": dict(self.extra),
            "scored": self.scored,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        f = data.get("forfeit")
        outcomes = data.get("outcomes")
        return cls(
            reason=data["reason"],
            detail=data.get("detail", ""),
            scores=tuple(data["scores"]),
            outcomes=None if outcomes is None else tuple(Outcome(o) for o in outcomes),
            forfeit=None if f is None else Forfeit(f["player"], f["kind"], f.get("detail", "")),
            extra=dict(data.get("extra", {})),
            scored=data.get("scored", True),
        )

    def summary(self, names: Mapping[int, str] | None = None, unit: str = "") -> str:
        """One line for people: who won or what was scored, and why the game ended.

        ``names`` (seat to name) puts names where seats would be ("alice-bot wins", in the
        reason's text too); ``unit`` says what a score counts ("61 : 56 squares")."""
        scores = " : ".join(_fmt(s) for s in self.scores)
        counted = f"{scores} {unit}" if unit else scores
        figures = f" ({counted})" if self.scored else ""
        if self.outcomes is None:
            head = f"score {counted}"
        elif self.winner is None:
            head = f"draw{figures}"
        else:
            head = f"{_who(self.winner, names)} wins{figures}"
        why = self.detail or self.reason
        if names:
            why = re.sub(r"\bplayer (\d+)\b", lambda m: _who(int(m[1]), names), why)
        return f"{head} — {why}"


def _who(seat: int, names: Mapping[int, str] | None) -> str:
    return (names or {}).get(seat) or f"player {seat}"


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def two_player_outcomes(winner: int | None) -> tuple[Outcome, Outcome]:
    if winner is None:
        return (Outcome.DRAW, Outcome.DRAW)
    return (Outcome.WIN, Outcome.LOSS) if winner == 0 else (Outcome.LOSS, Outcome.WIN)
