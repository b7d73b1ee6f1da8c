"""What a wizard learns during play: one frozen ``Event`` per thing that touched it.

Events are immutable and shared between copies of a state; ``to_json`` builds fresh data each
time so a caller may change what it is given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


SeenCell = tuple[int, int, str, int]
"""A cell as a look, scan or wall saw it: row, column, element digits, obstacle durability."""


def seen_cell(cell: int, code: int, obstacle: int) -> SeenCell:
    return (cell // COLS, cell % COLS, TEXT[code], obstacle)


def _rc(cell: int) -> tuple[int, int] | None:
    return None if cell < 0 else (cell // COLS, cell % COLS)


@dataclass(frozen=True, slots=True)
class Event:
    """``kind`` is one of damaged, shielded, attack, blocked, look, scan, wall.

    Fields unused by a kind keep their defaults and are left out of the JSON. The JSON is
    worked out once, when first asked for (observations repeat every event every turn), and
    copied on the way out.
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
    seen: tuple[SeenCell, ...] = ()
    opponent: int = -1
    result: str = ""
    _json: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)
    _pairs: tuple[str, ...] = field(default=(), init=False, repr=False, compare=False)

    def _fields(self) -> dict[str, Any]:
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
            out["cells"] = self.seen
            out["opponent"] = _rc(self.opponent)
        elif kind == "wall":
            out.update(direction=self.direction, power=self.power, cell=_rc(self.cell),
                       result=self.result)
        return out

    def to_json(self) -> dict[str, Any]:
        if self._json is None:
            fields = self._fields()
            pairs = tuple(k for k, v in fields.items() if isinstance(v, tuple) and k != "cells")
            object.__setattr__(self, "_json", fields)
            object.__setattr__(self, "_pairs", pairs)
        assert self._json is not None
        out = self._json.copy()
        for key in self._pairs:
            out[key] = list(out[key])
        if "cells" in out:
            out["cells"] = [list(cell) for cell in self.seen]
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
