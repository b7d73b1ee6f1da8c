"""A season's finals (``league.competitions.finals``), on the test database without workers:
the competitions tick makes them once (a tick run twice, two ticks at once), from the top N
of the kept table with their versions at the season's end; a frozen finals hold a new
version of an entered bot (validated, waiting) until they end; results held back are
staff's only (the page, the API, the match pages and lists) until staff release them. The
real workers and beat: test_season_finals_live.py."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from league.bots.models import Bot, BotVersion, VersionStatus
from league.competitions.finals import finals_tick
from league.competitions.formats import Format
from league.competitions.models import Entry, Tournament, TournamentState
from league.competitions.progress import competitions_tick
from league.competitions.services import tournament_cancel
from league.ladders import finishing
from league.ladders.claiming import match_claim
from league.ladders.models import (
    FINALS_FORMATS,
    Ladder,
    Match,
    MatchKind,
    Season,
    SeasonPlace,
    Standing,
)
from league.ladders.seasons import SeasonError, season_create, seasons_tick
from sandbox import BotSpec, run_match
from tests.league import bots
from tests.league.competition_world import play_to_the_end
from tests.league.conftest import People, upload
from tests.league.pages import active

MINUTE = dt.timedelta(minutes=1)
BOARD = [("gamma", 34.0), ("alpha", 30.0), ("delta", 27.0), ("beta", 22.0), ("eps", 20.0)]


def _ended_season(owner: User, *, size: int = 4, fmt: str = "single_elimination",
                  **more: object) -> Season:
    """A season of the Stones ladder, ended by the season tick with five bots on its table
    (gamma first), its finals options set; the finals not made yet."""
    ladder = Ladder.objects.get(game="stones")
    versions = {name: active(owner, name) for name, _ in BOARD}
    now = timezone.now()
    season = season_create(ladder=ladder, starts_at=now - 2 * MINUTE, ends_at=now,
                           now=now - 2 * MINUTE, finals_size=size, finals_format=fmt, **more)
    seasons_tick(now - 2 * MINUTE)
    for name, mu in BOARD:
        Standing.objects.filter(version=versions[name]).update(mu=mu, sigma=2.0, games=10,
                                                               wins=5, losses=5)
    assert seasons_tick(now)["ended"] == 1
    season.refresh_from_db()
    return season


def _play(t: Tournament) -> Tournament:
    """Played to the end by finished matches written here (the tick released real ones,
    queued for workers that do not run here: taken back first)."""
    Match.objects.filter(kind=MatchKind.TOURNAMENT, status="queued").delete()
    return play_to_the_end(t)


def test_the_formats_are_the_competitions(people: People) -> None:
    assert [value for value, _ in FINALS_FORMATS] == [f.value for f in Format]


def test_the_finals_are_the_top_n_with_their_season_versions_made_once(people: People
                                                                       ) -> None:
    season = _ended_season(people.alice, size=4)
    top = list(SeasonPlace.objects.filter(season=season, place__lte=4).order_by("place")
               .values_list("bot_id", "version_id"))
    # a new version of the winner after the end: the finals still play the season's one
    winner = Bot.objects.get(pk=top[0][0])
    newer = active(people.alice, winner.name)
    assert newer.bot_id == winner.pk and newer.pk != top[0][1]

    assert competitions_tick()["finals"] == 1
    for _ in range(3):  # the tick run again (a beat restarted, a retry): nothing more
        assert competitions_tick()["finals"] == 0
        assert finals_tick()["finals"] == 0
    t = Tournament.objects.get(finals_of=season)
    assert t.name == "Stones season 1 finals"
    assert t.created_by_id is None and t.official
    assert t.state == TournamentState.RUNNING, "started at once"
    assert t.format == "single_elimination"
    entries = list(Entry.objects.filter(tournament=t).order_by("seed"))
    assert [(e.bot_id, e.version_id) for e in entries] == top
    assert [e.seed for e in entries] == [1, 2, 3, 4], "seeded by place"
    assert t.series.filter(round=1).count() == 2, "1 v 4 and 2 v 3"
    assert Tournament.objects.filter(finals_of__isnull=False).count() == 1

    finished = _play(t)
    assert finished.state == TournamentState.FINISHED
    assert not Match.objects.filter(kind=MatchKind.TOURNAMENT).exclude(
        participants__version_id__in=[v for _, v in top]).exists()


@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_make_the_finals_once(ladders: dict[str, Ladder], alice: User
                                                ) -> None:
    season = _ended_season(alice, size=2, fmt="round_robin")
    made: list[int] = []
    barrier = threading.Barrier(2)

    def tick() -> None:
        try:
            barrier.wait()
            made.append(finals_tick()["finals"])
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(made) == [0, 1], made
    assert Tournament.objects.filter(finals_of=season).count() == 1


def test_a_table_too_short_cancels_its_finals_once(people: People) -> None:
    ladder = Ladder.objects.get(game="stones")
    now = timezone.now()
    season = season_create(ladder=ladder, starts_at=now - 2 * MINUTE, ends_at=now,
                           now=now - 2 * MINUTE, finals_size=4,
                           finals_format="single_elimination")
    seasons_tick(now - 2 * MINUTE)
    seasons_tick(now)  # nobody played: an empty table
    competitions_tick()
    competitions_tick()
    t = Tournament.objects.get(finals_of=season)
    assert t.state == TournamentState.CANCELLED and "too few entries" in t.note


def test_finals_options_are_checked_and_repeating_seasons_keep_them(people: People) -> None:
    ladder = Ladder.objects.get(game="stones")
    for size, fmt, problem in [(1, "swiss", "2-64"), (4, "knockout", "format"),
                               (4, "scored", "two-player")]:
        with pytest.raises(SeasonError, match=problem):
            season_create(ladder=ladder, length=MINUTE, finals_size=size, finals_format=fmt)
    with pytest.raises(SeasonError, match="released"):
        season_create(ladder=ladder, length=MINUTE, finals_release="later")
    now = timezone.now()
    season = season_create(ladder=ladder, starts_at=now - 2 * MINUTE, ends_at=now,
                           now=now - 2 * MINUTE, repeat=True, finals_size=8,
                           finals_format="swiss", freeze_for_finals=True,
                           finals_release="staff")
    seasons_tick(now - 2 * MINUTE)
    seasons_tick(now)
    following = Season.objects.get(ladder=ladder, number=season.number + 1)
    assert (following.finals_size, following.finals_format, following.freeze_for_finals,
            following.finals_release) == (8, "swiss", True, "staff")


def _validate(version: BotVersion) -> None:
    """Its validation match played (builtin players in its seats) and finished, as the
    worker finishes it."""
    match = Match.objects.get(kind=MatchKind.VALIDATION, participants__version=version)
    claimed = match_claim(match_id=match.pk, worker="host:1")
    record = run_match("stones", [BotSpec("builtin:random"), BotSpec("builtin:random")],
                       seed=1, backend="process")
    assert finishing.match_finish(match=claimed, record=record, error=None)


def test_a_frozen_finals_hold_new_versions_of_their_bots_until_they_end(people: People
                                                                        ) -> None:
    season = _ended_season(people.alice, size=2, fmt="round_robin", freeze_for_finals=True)
    competitions_tick()
    season.refresh_from_db()
    t = Tournament.objects.get(finals_of=season)
    assert season.finals_hold and t.state == TournamentState.RUNNING
    entered = Bot.objects.get(name="gamma")
    played = entered.active_version_id
    held = upload(people.alice, "stones", "gamma", _random_source())
    _validate(held)
    held.refresh_from_db()
    entered.refresh_from_db()
    assert held.status == VersionStatus.RETIRED, held.reason
    assert "waits for the end of" in held.reason and "finals" in held.reason
    assert entered.active_version_id == played, "the season's version keeps playing"
    # a bot not in the finals is not held
    free = upload(people.alice, "stones", "eps", _random_source())
    _validate(free)
    free.refresh_from_db()
    assert free.status == VersionStatus.ACTIVE

    competitions_tick()
    assert Season.objects.get(pk=season.pk).finals_hold, "still held while they run"
    tournament_cancel(tournament=t, user=people.sam, reason="over")
    assert competitions_tick()["unfrozen"] == 1
    assert competitions_tick()["unfrozen"] == 0
    held.refresh_from_db()
    entered.refresh_from_db()
    assert held.status == VersionStatus.ACTIVE and entered.active_version_id == held.pk
    assert not Season.objects.get(pk=season.pk).finals_hold


def _random_source() -> str:
    return bots.RANDOM + "# another version\n"


def test_held_results_are_staffs_until_released(people: People) -> None:
    season = _ended_season(people.alice, size=4, finals_release="staff")
    competitions_tick()
    t = Tournament.objects.get(finals_of=season)
    assert t.results_held
    _play(t)
    game = Match.objects.filter(kind=MatchKind.TOURNAMENT).first()
    url = f"/tournaments/{t.pk}/"

    anyone, staff = Client(), Client()
    staff.force_login(people.sam)
    page = anyone.get(url).content.decode()
    assert "to be released by staff" in page and 'id="winner"' not in page
    assert 'id="release"' not in page
    assert anyone.get(f"/matches/{game.pk}/").status_code == 404
    api = APIClient()
    body = api.get(f"/api/tournaments/{t.pk}/").json()
    assert body["results_held"] and body["table"] == [] and body["rounds_paired"] == []
    assert body["created_by"] is None and body["finals_of"] == season.pk
    assert api.get(f"/api/matches/{game.pk}/").status_code == 404
    assert game.pk not in [m["id"] for m in api.get("/api/matches/").json()["results"]]
    season_page = anyone.get(f"/seasons/{season.pk}/").content.decode()
    assert "results to be released" in season_page and f"/tournaments/{t.pk}/" in season_page
    detail = api.get(f"/api/seasons/{season.pk}/").json()
    assert detail["finals"] == {"id": t.pk, "name": t.name, "state": "finished",
                                "results_held": True}

    staff_page = staff.get(url).content.decode()
    assert 'id="winner"' in staff_page and 'id="release"' in staff_page
    assert staff.get(f"/matches/{game.pk}/").status_code == 200
    bob = APIClient()
    bob.force_authenticate(people.bob)
    assert bob.post(f"/api/tournaments/{t.pk}/release/").status_code == 403
    assert staff.post(f"/tournaments/{t.pk}/release/").status_code == 302

    page = anyone.get(url).content.decode()
    assert 'id="winner"' in page and "Results released" in page
    assert anyone.get(f"/matches/{game.pk}/").status_code == 200
    body = api.get(f"/api/tournaments/{t.pk}/").json()
    assert not body["results_held"] and body["table"]
    sam = APIClient()
    sam.force_authenticate(people.sam)
    again = sam.post(f"/api/tournaments/{t.pk}/release/")
    assert again.status_code == 400 and "not held back" in again.json()["detail"]


def test_staff_set_finals_through_the_api_and_the_command(people: People) -> None:
    sam = APIClient()
    sam.force_authenticate(people.sam)
    made = sam.post("/api/ladders/stones/seasons/", {
        "length": 3600, "finals_size": 4, "finals_format": "double_elimination",
        "freeze_for_finals": True, "finals_release": "staff"}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["finals_size"], body["finals_format"], body["freeze_for_finals"],
            body["finals_release"], body["finals"]) == (4, "double_elimination", True,
                                                        "staff", None)
    refused = sam.post("/api/ladders/stones/seasons/", {
        "starts_at": (timezone.now() + dt.timedelta(hours=2)).isoformat(), "length": 3600,
        "finals_size": 4, "finals_format": "scored"}, format="json")
    assert refused.status_code == 400 and "two-player" in refused.json()["detail"]

    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("season", "stones", "--starts",
                 (timezone.now() + dt.timedelta(hours=2)).isoformat(), "--length", "1h",
                 "--finals", "8", "--finals-format", "swiss", "--freeze", stdout=out)
    assert "finals: top 8 swiss" in out.getvalue()
    assert Season.objects.filter(finals_size=8, freeze_for_finals=True).exists()
