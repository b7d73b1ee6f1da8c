"""Points and tie-breaks for the formats that rank by points (round robin, Swiss).

A series won is 1 point, drawn 1/2, lost 0; a bye is a series won (1 point, as a bye is in
chess). Entries level on points are separated by the format's published tie-breaks, in order:

- Buchholz: the sum of the final points of every opponent played. A bye counts as an opponent
  with the entry's own final points (FIDE's rule for unplayed rounds since 2023), so a bye
  neither lifts nor sinks an entry against those who played that round.
- Sonneborn-Berger: the final points of every opponent beaten, plus half those of every
  opponent drawn with; a bye adds nothing (nobody was beaten).
- Game points: games won plus half the games drawn, over all series (a bye: half its games).
- Seed: the better seed first, so the order is total and the same on every page.

Swiss uses all four; round robin leaves Buchholz out, since everyone meets everyone and it is
then the same for all entries level on points. Every figure is a multiple of 1/4, exact in a
float, so no rounding can reorder a table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from league.competitions.formats.types import (
    Entry,
    EntryId,
    FormatError,
    SeriesResult,
    Standing,
)


class TieBreak(StrEnum):
    BUCHHOLZ = "buchholz"
    SONNEBORN_BERGER = "sonneborn_berger"
    GAME_POINTS = "game_points"
    SEED = "seed"


SWISS_ORDER = (TieBreak.BUCHHOLZ, TieBreak.SONNEBORN_BERGER, TieBreak.GAME_POINTS,
               TieBreak.SEED)
ROUND_ROBIN_ORDER = (TieBreak.SONNEBORN_BERGER, TieBreak.GAME_POINTS, TieBreak.SEED)


@dataclass
class Tally:
    """One entry's record over its finished series: what was played; the rest follows."""

    opponents: list[tuple[EntryId, float]] = field(default_factory=list)
    """Each opponent played, with the series points scored against it (in order played)."""
    byes: int = 0
    game_points: float = 0.0

    @property
    def points(self) -> float:
        return sum(scored for _, scored in self.opponents) + self.byes  # a bye is a win

    def count(self, scored: float) -> int:
        """Series won (1), drawn (0.5) or lost (0)."""
        return sum(s == scored for _, s in self.opponents)


def tally(entries: Sequence[Entry], results: Iterable[SeriesResult]) -> dict[EntryId, Tally]:
    tallies = {e.id: Tally() for e in entries}
    for r in results:
        for entry in (r.first, r.second):
            if entry is None:
                continue
            if entry not in tallies:
                raise FormatError(f"series {r.key}: entry {entry} is not in the tournament")
            t = tallies[entry]
            t.game_points += r.game_points(entry)
            opponent = r.opponent(entry)
            if opponent is None:
                t.byes += 1
            else:
                t.opponents.append((opponent, r.points(entry)))
    return tallies


def buchholz(entry: EntryId, tallies: dict[EntryId, Tally]) -> float:
    t = tallies[entry]
    return sum(tallies[o].points for o, _ in t.opponents) + t.byes * t.points


def sonneborn_berger(entry: EntryId, tallies: dict[EntryId, Tally]) -> float:
    return sum(scored * tallies[o].points for o, scored in tallies[entry].opponents)


def standings(entries: Sequence[Entry], results: Iterable[SeriesResult],
              order: Sequence[TieBreak]) -> tuple[Standing, ...]:
    """The table: by points, then ``order``'s tie-breaks; the seed always settles the rest."""
    tallies = tally(entries, results)
    rows = []
    for e in entries:
        t = tallies[e.id]
        rows.append(Standing(
            entry=e.id, rank=0, points=t.points, wins=t.count(1.0), draws=t.count(0.5),
            losses=t.count(0.0), byes=t.byes, game_points=t.game_points, played=len(t.opponents),
            buchholz=(buchholz(e.id, tallies) if TieBreak.BUCHHOLZ in order else None),
            sonneborn_berger=(sonneborn_berger(e.id, tallies)
                              if TieBreak.SONNEBORN_BERGER in order else None)))
    seed = {e.id: e.seed for e in entries}

    def key(row: Standing) -> tuple[float, ...]:
        values: list[float] = [-row.points]
        for tb in order:
            if tb == TieBreak.BUCHHOLZ:
                values.append(-(row.buchholz or 0.0))
            elif tb == TieBreak.SONNEBORN_BERGER:
                values.append(-(row.sonneborn_berger or 0.0))
            elif tb == TieBreak.GAME_POINTS:
                values.append(-row.game_points)
            else:
                values.append(seed[row.entry])
        return (*values, seed[row.entry])

    ordered = sorted(rows, key=key)
    return tuple(replace(row, rank=i + 1) for i, row in enumerate(ordered))
