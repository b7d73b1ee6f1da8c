"""The plain values every tournament format reads and returns.

They sit below all formats because the Django service stores and reloads exactly these (entry
ids, pairing keys, seats, seed indices) and hands them back to whichever format is asked; a
format never sees a model row. Everything is frozen: a round, once returned, is a record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

EntryId: TypeAlias = int
"""The service's id for an entry (a bot's version frozen at the tournament's start)."""

Winners: TypeAlias = Mapping[str, Sequence["EntryId | None"]]
"""Results of two-player series so far: pairing key -> each game's winner in the order the
games were played (``None`` for a drawn game). A series with fewer games than it owes is
unfinished; a bye needs no entry."""

Scores: TypeAlias = Mapping[str, Sequence[float]]
"""Results of solo runs so far: pairing key -> each game's score in game order."""


class FormatError(ValueError):
    """A tournament asked for something its format cannot do: bad options, a field too small,
    a round asked for before the last one finished, a result naming an entry that did not
    play. The message says which and what to do."""


@dataclass(frozen=True)
class Entry:
    id: EntryId
    seed: int
    """Seed rank: 1 is the strongest. Distinct within a tournament (the service seeds by the
    ladder's board, or by registration order)."""


@dataclass(frozen=True)
class Options:
    """A tournament's format options; each format reads the fields it knows."""

    games: int = 2
    """Games per series (two-player), seats alternated; scored: seeds per round."""
    rounds: int | None = None
    """Swiss: rounds to play (default: ceil(log2 of the field)). Scored: rounds the seeds are
    spread over (default 1). The other formats' rounds follow from the field."""
    third_place: bool = False
    """Single elimination: the semi-final losers play for third place."""
    bracket_reset: bool = True
    """Double elimination: when the losers' bracket winner wins the grand final, both have
    lost once and a second grand final decides (no entry leaves with a single loss)."""

    def __post_init__(self) -> None:
        if self.games < 1:
            raise FormatError(f"a series needs at least one game, not {self.games}")
        if self.rounds is not None and self.rounds < 1:
            raise FormatError(f"a tournament needs at least one round, not {self.rounds}")


class PairingKind(StrEnum):
    SERIES = "series"
    """Two entries play ``games`` games, seats alternated."""
    BYE = "bye"
    """One entry has no opponent this round: nothing is played and it counts as a series won."""
    SOLO = "solo"
    """One entry plays the round's seeds alone (solo games)."""


@dataclass(frozen=True)
class Game:
    """One game a series or run owes: one Match row for the service."""

    index: int
    """0-based position in its series; a decider is index ``games``."""
    first: EntryId
    """The entry in seat 0."""
    second: EntryId | None
    """The entry in seat 1; ``None`` in a solo run."""
    seed_index: int
    """Which of the tournament's seeds the game is played on (the service turns the index into
    an engine seed, the same way for every game). Every series of a round plays the same
    seeds, so no pairing gets easier deals than another."""


@dataclass(frozen=True)
class Pairing:
    """A series between two entries, a bye, or a solo run; one Series row for the service."""

    key: str
    """Unique within the tournament and stable: the service stores results under it."""
    round: int
    kind: PairingKind
    first: EntryId
    """Two-player: the entry in seat 0 of the first game (seats then alternate). In elimination
    it is the better seed, who also advances from a series still tied after its decider."""
    second: EntryId | None = None
    games: int = 1
    """Games owed (a decider, where played, comes on top)."""
    decider: bool = False
    """Elimination: a series tied after ``games`` games gets one extra game, then goes to
    ``first``; elsewhere a tied series is a draw."""

    def __post_init__(self) -> None:
        if (self.second is None) != (self.kind != PairingKind.SERIES):
            raise FormatError(f"pairing {self.key}: a {self.kind} "
                              f"{'has no' if self.kind != PairingKind.SERIES else 'needs a'} "
                              "second entry")
        if self.second == self.first:
            raise FormatError(f"pairing {self.key}: an entry cannot play itself")

    @property
    def entries(self) -> tuple[EntryId, ...]:
        return (self.first,) if self.second is None else (self.first, self.second)

    @property
    def played(self) -> bool:
        """Whether the service has games to run for it (a bye has none)."""
        return self.kind != PairingKind.BYE


@dataclass(frozen=True)
class Round:
    number: int
    """1-based. The league starts a round once every series of the one before has finished."""
    pairings: tuple[Pairing, ...]


class Decision(StrEnum):
    """How a finished series was decided: shown next to its score."""

    GAMES = "games"
    """More game points than the opponent in the owed games (or an even score, a draw)."""
    DECIDER = "decider"
    """Elimination: even after the owed games, the extra game was won."""
    SEEDING = "seeding"
    """Elimination: even after the decider too; the better seed advances."""
    BYE = "bye"


@dataclass(frozen=True)
class SeriesResult:
    """A finished series (or a bye), as standings and brackets read it."""

    key: str
    round: int
    first: EntryId
    second: EntryId | None
    first_points: float
    """Game points: 1 a game won, 1/2 a game drawn (a bye: half the owed games, a par score)."""
    second_points: float
    winner: EntryId | None
    """``None``: a drawn series (never in elimination)."""
    decided_by: Decision

    @property
    def loser(self) -> EntryId | None:
        if self.winner is None or self.second is None:
            return None
        return self.second if self.winner == self.first else self.first

    def opponent(self, entry: EntryId) -> EntryId | None:
        return self.second if entry == self.first else self.first

    def points(self, entry: EntryId) -> float:
        """Series points: 1 for a win (a bye is one), 1/2 for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == entry else 0.0

    def game_points(self, entry: EntryId) -> float:
        return self.first_points if entry == self.first else self.second_points


@dataclass(frozen=True)
class Standing:
    """One line of a tournament's table."""

    entry: EntryId
    rank: int
    """1-based. Shared only where the format cannot separate entries (elimination: all those
    out at the same stage); the table lists them by seed."""
    points: float = 0.0
    """Series points (two-player); the mean score (scored)."""
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    game_points: float = 0.0
    buchholz: float | None = None
    sonneborn_berger: float | None = None
    played: int = 0
    """Series played, byes not counted; scored: games played."""
    interval: float | None = None
    """Scored: half-width of the mean's 95 % confidence interval."""
    out: bool = False
    """Elimination: no longer playing (finished its last series)."""


def seeded(entries: Sequence[Entry]) -> list[Entry]:
    """The field by seed, best first; ids and seeds must be distinct (every format's
    tie-breaks end on the seed) and a tournament needs two entries."""
    ordered = sorted(entries, key=lambda e: (e.seed, e.id))
    if (len({e.seed for e in ordered}) != len(ordered)
            or len({e.id for e in ordered}) != len(ordered)):
        raise FormatError("every entry needs its own id and its own seed")
    if len(ordered) < 2:
        raise FormatError(f"a tournament needs at least two entries, not {len(ordered)}")
    return ordered
