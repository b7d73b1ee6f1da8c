"""The kinds of match in one table (``league.ladders.kinds``): every kind has its entry, and
the engine every match runs on asks the entry, never a kind's name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from league.ladders import kinds
from league.ladders.models import MatchKind

LADDERS = Path(kinds.__file__).parent
ENGINE = ("claiming", "finishing", "lifecycle", "live", "news", "reaper", "replay_cache",
          "replays", "running", "versions_cache", "writer")
"""The modules of the engine every match runs on (issue 32 moves them to an app of their own)."""


def test_every_kind_of_match_has_its_entry() -> None:
    assert set(kinds.KINDS) == set(MatchKind.values)
    for name, kind in kinds.KINDS.items():
        assert kind.name == name
        assert kind.queue in (settings.LEAGUE_MATCH_QUEUE, settings.LEAGUE_PLAY_QUEUE)
        assert not kind.competition or kind.own_share, "a competition's games have its share"


@pytest.mark.parametrize("module", ENGINE)
def test_the_engine_never_tests_a_kinds_name(module: str) -> None:
    source = (LADDERS / f"{module}.py").read_text()
    names = "|".join(MatchKind.values)
    found = re.findall(rf"MatchKind\.[A-Z]+|['\"]({names})['\"]", source)
    assert found == [], f"{module}.py names a kind: {found}"


def test_what_each_kind_does_differently() -> None:
    """The table as the league has always behaved (these were branches in the engine)."""
    assert kinds.kinds_where(person=True) == (MatchKind.EXHIBITION,)
    assert set(kinds.OWN_SHARE_KINDS) == {MatchKind.TOURNAMENT, MatchKind.CHALLENGE,
                                          MatchKind.EXHIBITION, MatchKind.VERSIONTEST}
    assert set(kinds.COMPETITION_KINDS) == {MatchKind.TOURNAMENT, MatchKind.CHALLENGE}
    assert set(kinds.kinds_where(refills=True)) == {MatchKind.LADDER, MatchKind.VALIDATION}
    assert kinds.kind_of(MatchKind.LADDER).ending == kinds.Ending.STANDINGS
    assert kinds.kind_of(MatchKind.VALIDATION).ending == kinds.Ending.VERDICT
    assert kinds.kinds_where(package_forfeits=True) == (MatchKind.VALIDATION,)
    assert {kinds.kind_of(k).told for k in kinds.COMPETITION_KINDS} == {
        kinds.COMPETITION_ENDED_TASK}
    assert kinds.kind_of(MatchKind.VERSIONTEST).told == kinds.VERSIONTEST_ENDED_TASK
    assert not kinds.kind_of(MatchKind.VERSIONTEST).competition
    assert kinds.VERSIONTEST_ENDED_TASK in settings.CELERY_TASK_ROUTES
    # every validation's end is told to the version tests: an upload with a test starts it
    assert kinds.kind_of(MatchKind.VALIDATION).told == kinds.VALIDATED_TASK
    assert settings.CELERY_TASK_ROUTES[kinds.VALIDATED_TASK] == {
        "queue": settings.LEAGUE_TICK_QUEUE}
    assert kinds.queue_of(MatchKind.VERSIONTEST) == settings.LEAGUE_MATCH_QUEUE
    assert kinds.queue_of(MatchKind.EXHIBITION) == settings.LEAGUE_PLAY_QUEUE
    assert kinds.queue_of(MatchKind.TOURNAMENT) == settings.LEAGUE_MATCH_QUEUE
