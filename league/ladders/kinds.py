"""Every kind of match, in one table: what the engine does differently for each.

The engine (claiming, running, finishing, the reaper, live moves, the replays it serves)
asks a match's ``Kind`` what to do — which queue plays it, whether a person sits at its
board, what its finishing transaction writes, whom its end is told to — and never tests a
kind's name. The apps above it (ladders, play, competitions) keep their own kind's name in
their own modules. A new kind of match is a ``MatchKind`` value, an entry here and its own
module; ``tests/league/test_kinds.py`` fails if a value has no entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings

from league.ladders.models import MatchKind


class Ending(StrEnum):
    """What a finishing transaction writes for a kind, beside the match, its seats and
    replay."""

    NOTHING = "nothing"
    STANDINGS = "standings"
    """The ladder's standings of the match's versions: ratings or score totals."""
    VERDICT = "verdict"
    """The candidate version's validation: active, or rejected with why."""


@dataclass(frozen=True)
class Kind:
    name: MatchKind
    label: str
    """How lists of matches name it ("" for the ladders' own, the most common)."""
    ending: Ending = Ending.NOTHING
    person: bool = False
    """A person may sit at its board: played from the play queue on workers of its own, its
    moves sent out as they are played, resumed from them when its worker is lost, its page
    told when it ends, and its hidden information withheld until then."""
    own_share: bool = False
    """Has a share of the workers of its own: never counted in a ladder's queue."""
    competition: bool = False
    """Belongs to a competition, which plays it out: never rated, and a disabled bot's games
    of it are lost, not cancelled (``competitions.results``)."""
    refills: bool = False
    """Its end tops its ladder's queue up at once (no slot waits for the next beat)."""
    told: str = ""
    """The Celery task told of its end (its match id), named, not imported: the app that
    owns the kind sits above the engine. It runs on the ticks' queue (``CELERY_TASK_ROUTES``)."""
    package_forfeits: bool = False
    """A version whose package will not unpack forfeits the match (the version is what is on
    trial), rather than failing the match as the infrastructure's fault."""
    private: bool = False
    """Its games are seen only by whoever may see what they belong to (a version test's: its
    owner and staff until the owner makes it public): the app that owns the kind filters the
    pages and API reads of its games; the engine leaves them out of what it shows others
    (a bot's statistics' examples)."""
    crash_streaks: bool = True
    """Its crash forfeits count towards disabling a bot that keeps crashing
    (``ladders.streaks``); a validation's do not: its rejection is the version's verdict,
    and the bot's active version plays on."""

    @property
    def queue(self) -> str:
        """The Celery queue it is played from: a person at the board holds a worker process
        up to the person's game time, so on the play queue and its own workers, never a slot
        of the ladders' and competitions' workers."""
        return settings.LEAGUE_PLAY_QUEUE if self.person else settings.LEAGUE_MATCH_QUEUE


COMPETITION_ENDED_TASK = "league.competitions.tasks.match_ended_task"
"""The competitions' task that moves a competition on once one of its matches has ended."""

VERSIONTEST_ENDED_TASK = "league.versiontests.tasks.match_ended_task"
"""The version tests' task that counts a test's game once it has ended and queues the next."""

VALIDATED_TASK = "league.versiontests.tasks.version_validated_task"
"""The version tests' task told of every validation's end: an upload with a test that passed
its validation starts its test (any other version: nothing to do)."""

KINDS: dict[str, Kind] = {kind.name: kind for kind in (
    Kind(MatchKind.LADDER, label="", ending=Ending.STANDINGS, refills=True),
    Kind(MatchKind.VALIDATION, label="validation", ending=Ending.VERDICT, refills=True,
         package_forfeits=True, told=VALIDATED_TASK, crash_streaks=False),
    Kind(MatchKind.CHALLENGE, label="challenge", own_share=True, competition=True,
         told=COMPETITION_ENDED_TASK),
    Kind(MatchKind.TOURNAMENT, label="tournament", own_share=True, competition=True,
         told=COMPETITION_ENDED_TASK),
    Kind(MatchKind.EXHIBITION, label="exhibition", person=True, own_share=True),
    Kind(MatchKind.VERSIONTEST, label="version test", own_share=True, private=True,
         told=VERSIONTEST_ENDED_TASK),
)}


def kind_of(name: str) -> Kind:
    return KINDS[name]


def queue_of(name: str) -> str:
    """The Celery queue a match of kind ``name`` is played from."""
    return KINDS[name].queue


def kinds_where(**wanted: object) -> tuple[str, ...]:
    """The names of the kinds whose attributes have the ``wanted`` values (for a query)."""
    return tuple(name for name, kind in KINDS.items()
                 if all(getattr(kind, key) == value for key, value in wanted.items()))


OWN_SHARE_KINDS = kinds_where(own_share=True)
"""Matches with a share of the workers of their own (competitions; games a person plays, on
the play queue's workers): never counted in a ladder's queue."""
PERSON_KINDS = kinds_where(person=True)
"""Matches a person may play in (``Kind.person``)."""
COMPETITION_KINDS = kinds_where(competition=True)
PRIVATE_KINDS = kinds_where(private=True)
"""Matches seen only by whoever may see what they belong to (``Kind.private``)."""
