"""What a wizard learns during play: one frozen ``Event`` per thing that touched it.

Events are immutable and shared between copies of a state; ``to_json`` builds fresh data each
time so a caller may change what it is given.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.wizard_duel.board import COLS, TEXT


class Hit(StrEnum):
    """What an attack found in a cell, as the attacker learns it."""

    WIZARD = "wizard"
    SHIELD = "shield"
    OBSTACLE = "obstacle"
    NOTHING = "nothing"


class WallResult(StrEnum):
    BUILT = "built"
    OFF_MAP = "off-map"
    OBSTACLE = "obstacle"
    WIZARD = "wizard"


@dataclass(frozen=True, slots=True)
class Seen:
    """One cell as a look, scan or wall saw it."""

    cell: int
    code: int
    obstacle: int

    def to_json(self) -> list[Any]:
        return [self.cell // COLS, self.cell % COLS, TEXT[self.code], self.obstacle]


def _rc(cell: int) -> list[int] | None:
    return None if cell < 0 else [cell // COLS, cell % COLS]


@dataclass(frozen=True, slots=True)
class Event:
    """``kind`` is one of damaged, shielded, attack, blocked, look, scan, wall.

    Fields unused by a kind keep their defaults and are left out of the JSON.
    """

    turn: int
    kind: str
    cell: int = -1
    damage: int = 0
    spell: str = ""
    hit: str = ""
    by: str = ""
    n: int = 0
    direction: str = ""
    power: int = 0
    seen: tuple[Seen, ...] = ()
    opponent: int = -1
    result: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turn": self.turn, "kind": self.kind}
        kind = self.kind
        if kind == "damaged":
            out["damage"] = self.damage
        elif kind == "attack":
            out.update(spell=self.spell, cell=_rc(self.cell), hit=self.hit)
        elif kind == "blocked":
            out.update(cell=_rc(self.cell), by=self.by)
        elif kind in ("look", "scan"):
            if kind == "look":
                out["n"] = self.n
            else:
                out.update(direction=self.direction, power=self.power)
            out["cells"] = [s.to_json() for s in self.seen]
            out["opponent"] = _rc(self.opponent)
        elif kind == "wall":
            out.update(direction=self.direction, power=self.power, cell=_rc(self.cell),
                       result=self.result)
        return out


@dataclass(frozen=True, slots=True)
class Sighting:
    """Where a wizard last learned the opponent stood, when, and how."""

    cell: int
    turn: int
    how: str

    def to_json(self) -> dict[str, Any]:
        return {"row": self.cell // COLS, "col": self.cell % COLS, "turn": self.turn,
                "how": self.how}
