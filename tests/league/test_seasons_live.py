"""A season from start to end on the real thing: Celery workers and the beat on PostgreSQL and
Redis, bots playing the Stones ladder through a one-minute repeating season. Two beats run at
once, so every tick is sent twice and two ticks race at the season's end (the fault): the
season closes once, with one table, one next season, and every match counted for the season
it was made in."""

from __future__ import annotations

import datetime as dt
import subprocess
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db.models import Sum

from league.ladders.models import (
    Ladder,
    MatchKind,
    Participant,
    Season,
    SeasonPlace,
    SeasonState,
    Standing,
)
from league.ladders.ratings import START_SIGMA
from league.ladders.seasons import season_create
from tests.league.conftest import Worker, wait_for
from tests.league.pages import active
from tests.league.test_tournament_faults import FAST, start_beat  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow


def test_a_one_minute_season_plays_out_and_closes_once_with_two_beats(
        ladders: dict[str, Ladder], alice: User, start_worker: Callable[..., Worker],
        start_beat: Callable[[], subprocess.Popen]) -> None:  # noqa: F811
    ladder = ladders["stones"]
    for name in ("one", "two", "three"):
        active(alice, name)
    season = season_create(ladder=ladder, length=dt.timedelta(minutes=1), repeat=True,
                           carry=0.5)
    worker = start_worker(concurrency=3, env=FAST)
    start_beat()
    start_beat()  # the fault: every tick twice, racing

    def started() -> bool:
        return Season.objects.get(pk=season.pk).state == SeasonState.RUNNING

    wait_for(started, 30, "the season to start", worker.text)
    wait_for(lambda: Standing.objects.filter(ladder=ladder, games__gt=0).exists(), 60,
             "ladder games in the season", worker.text)

    def ended() -> bool:
        return Season.objects.filter(ladder=ladder, number=2).exists()

    wait_for(ended, 120, "the season to end and the next to start", worker.text)
    first = Season.objects.get(pk=season.pk)
    second = Season.objects.get(ladder=ladder, number=2)
    assert first.state == SeasonState.ENDED and first.ended_at >= first.ends_at
    assert second.state == SeasonState.RUNNING, "the next season started with the close"
    assert (second.starts_at, second.ends_at) == (first.ends_at,
                                                  first.ends_at + dt.timedelta(minutes=1))
    assert Season.objects.filter(ladder=ladder).count() == 2, "one next season, not two"

    places = SeasonPlace.objects.filter(season=first)
    assert 2 <= places.count() <= 3
    assert list(places.values_list("place", flat=True)) == list(range(1, places.count() + 1))
    # every rated game of the table is a match made in the season whose result committed
    # before its close; one made in it and finished after counts for no season
    made_in_first = Participant.objects.filter(
        match__ladder=ladder, match__kind=MatchKind.LADDER, match_id__gt=first.after_match,
        match_id__lte=second.after_match)
    assert places.aggregate(n=Sum("games"))["n"] == made_in_first.filter(
        mu_after__isnull=False).count()
    # (Not "finished before ``ended_at``": a match's end is stamped before its finishing
    # transaction waits for the standings the close has locked, so one that ended a moment
    # after the close began may still count, rightly, for the season it was made in; the
    # count above is what says each counted once, in the table it belongs to.)
    # the new season started everyone afresh, carrying half of each lead
    fresh = Standing.objects.filter(ladder=ladder, games=0)
    for standing in fresh:
        assert standing.sigma == START_SIGMA
    assert set(Standing.objects.filter(ladder=ladder).values_list("since_match", flat=True)
               ) == {second.after_match}
    worker.kill()
