"""A season that ends in finals, on the real thing: Celery workers and the beat on PostgreSQL
and Redis. Bots play a one-minute Stones season; at its end the competitions tick makes its
finals (the top 2, a round robin) and the workers play them to the end. The fault: two beats
run at once, so every tick is sent twice and two competitions ticks race at the season's end,
and one beat is killed and started again meanwhile: the finals are made once."""

from __future__ import annotations

import datetime as dt
import subprocess
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from benchmarks.common import kill_group
from league.competitions.models import Entry, Tournament, TournamentState
from league.ladders.models import Ladder, MatchKind, Season, SeasonPlace, SeasonState, Standing
from league.ladders.seasons import season_create
from tests.league.conftest import Worker, wait_for
from tests.league.pages import active
from tests.league.test_tournament_faults import FAST, start_beat  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow


def test_a_one_minute_season_ends_in_finals_made_once_and_played(
        ladders: dict[str, Ladder], alice: User, start_worker: Callable[..., Worker],
        start_beat: Callable[[], subprocess.Popen]) -> None:  # noqa: F811
    ladder = ladders["stones"]
    for name in ("one", "two", "three"):
        active(alice, name)
    season = season_create(ladder=ladder, length=dt.timedelta(minutes=1), finals_size=2,
                           finals_format="round_robin")
    worker = start_worker(concurrency=3, env=FAST)
    first_beat = start_beat()
    start_beat()  # the fault: every tick twice, racing

    wait_for(lambda: Season.objects.get(pk=season.pk).state == SeasonState.RUNNING, 30,
             "the season to start", worker.text)
    wait_for(lambda: Standing.objects.filter(ladder=ladder, games__gt=0).count() >= 2, 60,
             "ladder games in the season", worker.text)
    kill_group(first_beat)  # the beat restarted before the end
    start_beat()

    def finals() -> Tournament | None:
        return Tournament.objects.filter(finals_of=season).first()

    wait_for(finals, 150, "the season to end and its finals to be made", worker.text)
    wait_for(lambda: finals().state in (TournamentState.FINISHED, TournamentState.CANCELLED),
             120, "the finals to be played", worker.text)
    t = finals()
    assert t.state == TournamentState.FINISHED, t.note
    assert Tournament.objects.filter(finals_of__isnull=False).count() == 1, "made once"
    assert t.name == "Stones season 1 finals" and t.created_by_id is None
    top = list(SeasonPlace.objects.filter(season=season, place__lte=2).order_by("place")
               .values_list("bot_id", "version_id"))
    assert list(Entry.objects.filter(tournament=t).order_by("seed")
                .values_list("bot_id", "version_id")) == top
    games = t.series.get().series_games.select_related("match")
    assert games.count() >= 2
    assert all(g.match.kind == MatchKind.TOURNAMENT and g.match.status == "finished"
               for g in games)
