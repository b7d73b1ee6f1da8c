"""What decided first place when the top two of a table are level on points: a round robin
of two that ended 1-1 is won on a tie-break, and the page says so and names it rather than
crowning a winner as if outright (issue 38)."""

from __future__ import annotations

from dataclasses import dataclass

from league.competitions import formats
from league.competitions.formats.standings import ROUND_ROBIN_ORDER, SWISS_ORDER, TieBreak
from league.competitions.selectors import TableRow

NAMES = {TieBreak.BUCHHOLZ: "Buchholz", TieBreak.SONNEBORN_BERGER: "Sonneborn-Berger",
         TieBreak.GAME_POINTS: "game points", TieBreak.SEED: "seed"}


@dataclass(frozen=True)
class Tie:
    other: TableRow
    """The runner-up, level on points."""
    decided_by: str
    """The tie-break that put the winner first, by name."""
    level_on: list[str]
    """The tie-breaks before it, equal too."""


def first_place_tie(table: list[TableRow], fmt: formats.Format) -> Tie | None:
    order = {formats.Format.SWISS: SWISS_ORDER, formats.Format.ROUND_ROBIN: ROUND_ROBIN_ORDER,
             formats.Format.DOUBLE_ROUND_ROBIN: ROUND_ROBIN_ORDER}.get(fmt)
    if order is None or len(table) < 2 or table[0].points != table[1].points:
        return None
    first, second = table[0], table[1]
    level: list[str] = []
    for tb in order:
        if tb == TieBreak.SEED:
            return Tie(second, NAMES[tb], level)
        a, b = getattr(first, tb.value) or 0.0, getattr(second, tb.value) or 0.0
        if a != b:
            return Tie(second, NAMES[tb], level)
        level.append(NAMES[tb])
    return Tie(second, NAMES[TieBreak.SEED], level)
