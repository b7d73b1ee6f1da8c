"""Tournaments that come back (``league.competitions.recurring``) and who may enter
(``league.competitions.conditions``): through the services, the beat's tick run here."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from league.competitions.models import Recurrence, Tournament, TournamentState
from league.competitions.progress import league_bots
from league.competitions.recurring import (
    next_start,
    recurrence_stop,
    recurrences_tick,
    schedule_words,
)
from league.competitions.services import CompetitionError, entry_register, tournament_create
from league.ladders.models import Standing
from tests.league.competition_world import bot_field, start_now
from tests.league.conftest import People

DAY = dt.timedelta(days=1)


def _daily(people: People, user=None, every: dt.timedelta = DAY, **more: object
           ) -> Tournament:
    """A tournament that starts tomorrow at 18:00 UTC, entries closing 10 minutes before,
    coming back every day."""
    now = timezone.now()
    start = (now + DAY).replace(hour=18, minute=0, second=0, microsecond=0)
    return tournament_create(user=user or people.sam, name="Evening cup", game="stones",
                             format="swiss", rounds=2, registration_closes=start
                             - dt.timedelta(minutes=10), starts_at=start, every=every, **more)


def test_the_next_edition_is_listed_once_the_one_before_starts(people: People) -> None:
    first = _daily(people, min_rated_games=0, open_to_league_bots=True,
                   description="the regulars")
    assert schedule_words(first.recurrence, first.starts_at) == "every day at 18:00 UTC"
    assert recurrences_tick() == 0, "the first edition has not started: nothing new listed"
    bot_field([people.alice, people.bob], 2)
    first = start_now(first)  # its start comes (too few entries: cancelled; started all the same)
    assert first.state not in (TournamentState.DRAFT, TournamentState.REGISTRATION)
    assert recurrences_tick() == 1
    assert recurrences_tick() == 0, "one edition at a time is listed"
    following = Tournament.objects.exclude(pk=first.pk).get()
    assert following.starts_at == first.starts_at + DAY
    assert following.registration_closes == following.starts_at - dt.timedelta(minutes=10)
    assert following.state == TournamentState.REGISTRATION  # open as soon as listed
    assert (following.name, following.format, following.rounds, following.description,
            following.open_to_league_bots, following.recurrence_id) == (
        first.name, first.format, first.rounds, first.description, True, first.recurrence_id)


def test_starts_missed_while_the_league_was_down_are_skipped(people: People) -> None:
    first = _daily(people)
    later = first.starts_at + 3 * DAY + dt.timedelta(hours=2)  # three days down
    nxt = next_start(first.recurrence, first, later)
    assert nxt == first.starts_at + 4 * DAY
    # entries of the edition due in 5 minutes already closed (10 before): the one after it
    almost = first.starts_at + DAY - dt.timedelta(minutes=5)
    assert next_start(first.recurrence, first, almost) == first.starts_at + 2 * DAY


@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_list_one_edition(people: People) -> None:
    first = _daily(people)
    Tournament.objects.filter(pk=first.pk).update(state=TournamentState.FINISHED)
    made: list[int] = []
    barrier = threading.Barrier(2)

    def tick() -> None:
        try:
            barrier.wait()
            made.append(recurrences_tick())
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(made) == [0, 1]
    assert Tournament.objects.count() == 2


def test_a_stopped_recurrence_lists_nothing_more(people: People) -> None:
    first = _daily(people, user=people.alice)
    with pytest.raises(Exception, match="only its creator and staff"):
        recurrence_stop(user=people.bob, recurrence=first.recurrence)
    recurrence_stop(user=people.alice, recurrence=first.recurrence)
    Tournament.objects.filter(pk=first.pk).update(state=TournamentState.FINISHED)
    assert recurrences_tick() == 0
    assert Tournament.objects.count() == 1


@override_settings(LEAGUE_RECURRING_PER_USER=1)
def test_a_players_schedules_are_limited(people: People) -> None:
    with pytest.raises(CompetitionError, match="every day to 60 days, not every hour"):
        _daily(people, user=people.alice, every=dt.timedelta(hours=1))
    _daily(people, user=people.alice)
    with pytest.raises(CompetitionError, match="at most 1 at once"):
        _daily(people, user=people.alice)
    staff = _daily(people, every=dt.timedelta(minutes=15))  # staff: from 10 minutes
    assert schedule_words(staff.recurrence, staff.starts_at) == "every 15 minutes"
    assert Recurrence.objects.count() == 2


def _now_tournament(people: People, **conditions: object) -> Tournament:
    now = timezone.now()
    return tournament_create(user=people.sam, name="Band cup", game="stones",
                             format="round_robin", registration_closes=now + DAY,
                             starts_at=now + DAY, open_to_league_bots=True, **conditions)


def test_entry_conditions_refuse_with_the_reason(people: People) -> None:
    a, b, c = bot_field([people.alice, people.bob], 3)
    Standing.objects.filter(version=a).update(games=30, mu=30.0, sigma=2.0)  # rated 24
    Standing.objects.filter(version=b).update(games=5, mu=25.0, sigma=3.0)   # rated 16
    t = _now_tournament(people, min_rated_games=10, rating_min=20.0, rating_max=40.0)
    entry_register(tournament=t, bot=a.bot, user=people.alice)
    with pytest.raises(CompetitionError, match="at least 10 rated games on the ladder; "
                                               "entrant1's playing version has 5"):
        entry_register(tournament=t, bot=b.bot, user=people.bob)
    Standing.objects.filter(version=b).update(games=12)
    with pytest.raises(CompetitionError, match=r"takes bots rated 20 to 40; entrant1 is rated "
                                               r"16\.0"):
        entry_register(tournament=t, bot=b.bot, user=people.bob)
    only = _now_tournament(people, allowed_owners=["alice"])
    with pytest.raises(CompetitionError, match="takes bots of alice only"):
        entry_register(tournament=only, bot=b.bot, user=people.bob)
    entry_register(tournament=only, bot=c.bot, user=people.alice)
    # the league's own filling takes only bots that meet them
    Tournament.objects.filter(pk=t.pk).update(field_limit=8)
    assert league_bots(t) == []
    for bad in ({"allowed_owners": ["nobody-here"]}, {"rating_min": 5.0, "rating_max": 1.0},
                {"rating_min": float("inf")}):
        with pytest.raises(CompetitionError):
            _now_tournament(people, **bad)


def test_an_edition_keeps_the_conditions(people: People) -> None:
    first = _daily(people, min_rated_games=3, rating_max=50.0, allowed_owners=["alice", "bob"])
    bot_field([people.alice, people.bob], 2)
    start_now(first)
    recurrences_tick()
    following = Tournament.objects.exclude(pk=first.pk).get()
    assert (following.min_rated_games, following.rating_min, following.rating_max,
            following.allowed_owners) == (3, None, 50.0, ["alice", "bob"])


def test_a_swiss_planned_for_a_larger_field_plays_the_rounds_its_field_can(
        people: People) -> None:
    """Three rounds chosen, two entries came: one round is played (it stopped every
    tournament's tick before: the format refused to pair)."""
    now = timezone.now()
    t = tournament_create(user=people.alice, name="Hopeful", game="stones", format="swiss",
                          rounds=3, registration_closes=now + DAY, starts_at=now + DAY)
    for v in bot_field([people.alice, people.bob], 2):
        entry_register(tournament=t, bot=v.bot, user=v.bot.owner)
    t = start_now(t)
    assert t.state == TournamentState.RUNNING and t.rounds == 1
    assert "3 rounds were planned; 2 entries can play 1" in t.note
    assert t.series.count() == 1


# -- the API and the pages -------------------------------------------------------------------

def test_the_api_makes_one_that_comes_back_and_its_creator_stops_it(db: None) -> None:
    from tests.league.api_world import make_world

    world = make_world()
    start = (timezone.now() + DAY).replace(hour=18, minute=0, second=0, microsecond=0)
    body = {"name": "Nightly", "game": "stones", "format": "swiss", "rounds": 2,
            "registration_closes": (start - dt.timedelta(minutes=5)).isoformat(),
            "starts_at": start.isoformat(), "every_seconds": 86400, "min_rated_games": 5,
            "rating_min": 10.0, "allowed_owners": ["alice", "bob"]}
    hourly = world.client("owner").post("/api/tournaments/", {**body, "every_seconds": 3600},
                                        format="json")
    assert hourly.status_code == 400 and "not every hour" in hourly.json()["detail"], \
        hourly.content
    made = world.client("owner").post("/api/tournaments/", body, format="json")
    assert made.status_code == 201, made.content
    t = made.json()
    assert t["recurrence"]["schedule"] == "every day at 18:00 UTC"
    assert t["recurrence"]["every_seconds"] == 86400 and t["recurrence"]["active"]
    assert (t["min_rated_games"], t["rating_min"], t["rating_max"], t["allowed_owners"]) == (
        5, 10.0, None, ["alice", "bob"])
    listed = world.client("anonymous").get("/api/tournaments/").json()["results"]
    assert listed[0]["recurrence"]["schedule"] == "every day at 18:00 UTC"
    stop = f"/api/tournaments/{t['id']}/stop-recurring/"
    refused = world.client("other").post(stop)
    assert refused.status_code == 400 and "only its creator and staff" in \
        refused.json()["detail"]
    stopped = world.client("owner").post(stop)
    assert stopped.status_code == 200 and stopped.json()["recurrence"]["active"] is False
    again = world.client("owner").post(stop)
    assert again.status_code == 400 and "already" in again.json()["detail"]


def test_the_form_makes_one_and_its_page_says_when_and_who(client, people: People) -> None:
    client.force_login(people.alice)
    start = (timezone.now() + DAY).replace(hour=18, minute=0, second=0, microsecond=0)
    sent = client.post("/tournaments/new/", {
        "name": "Friday night", "game": "stones", "format": "round_robin", "games": 2,
        "field_limit": 8, "registration_closes": start.strftime("%Y-%m-%dT%H:%M:%S"),
        "starts_at": start.strftime("%Y-%m-%dT%H:%M:%S"), "repeat": "week",
        "min_rated_games": "3", "allowed_owners": "alice, bob"})
    assert sent.status_code == 302, sent.content.decode()[:2000]
    t = Tournament.objects.get(name="Friday night")
    page = client.get(sent["Location"]).content.decode()
    weekday = start.strftime("%A")
    assert f"Comes back every {weekday} at 18:00 UTC" in page
    assert "Who may enter: bots of alice, bob only; at least 3 rated games on the ladder" \
        in page
    assert "Stop it coming back" in page
    client.force_login(people.bob)
    assert "Stop it coming back" not in client.get(sent["Location"]).content.decode()
    client.force_login(people.alice)
    client.post(f"/tournaments/{t.pk}/stop-recurring/")
    t.refresh_from_db()
    assert t.recurrence is not None and not t.recurrence.active
    assert "(stopped)" in client.get(sent["Location"]).content.decode()
