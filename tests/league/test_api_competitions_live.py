"""Tournaments and challenges made and followed through the API while real Celery workers
play their games on PostgreSQL and Redis: the table read back at the end is the one a tally
of the matches gives, and a challenge's tally is its matches' outcomes. The test process
plays the beat (``competitions_tick``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from league.accounts.services import token_create
from league.competitions.models import Tournament
from league.competitions.progress import competitions_tick
from league.ladders.models import Ladder, Match
from tests.league import bots
from tests.league.competition_world import bot_field
from tests.league.conftest import Worker, wait_for
from tests.league.pages import active
from tests.league.tournament_checks import check_common, series_points

pytestmark = pytest.mark.slow


def client_of(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_create(user=user, name='t')[1]}")
    return client


def follow(client: APIClient, url: str, done: str, timeout: float, worker: Worker
           ) -> dict[str, Any]:
    """Read ``url`` while the beat ticks until its state is ``done``; the last answer."""
    answer: dict[str, Any] = {}

    def over() -> bool:
        competitions_tick()
        answer.update(client.get(url).json())
        return answer["state"] == done

    wait_for(over, timeout, f"{url} to be {done}", worker.text)
    return answer


def test_a_tournament_made_and_entered_through_the_api_plays_to_its_end(
        worker: Worker, ladders: dict[str, Ladder], alice: User, bob: User) -> None:
    clients = {alice.pk: client_of(alice), bob.pk: client_of(bob)}
    now = timezone.now()
    response = clients[alice.pk].post("/api/tournaments/", {
        "name": "live round robin", "game": "stones", "format": "round_robin",
        "games_per_series": 2, "field_limit": 4,
        "registration_closes": (now + dt.timedelta(hours=1)).isoformat(),
        "starts_at": (now + dt.timedelta(hours=1)).isoformat()}, format="json")
    assert response.status_code == 201, response.content
    tid = response.json()["id"]
    for version in bot_field([alice, bob], 4, prefix="live"):
        registered = clients[version.bot.owner_id].post(
            f"/api/tournaments/{tid}/entries/", {"bot": version.bot_id}, format="json")
        assert registered.status_code == 201, registered.content
    # the start time comes (rather than waiting for it)
    Tournament.objects.filter(pk=tid).update(registration_closes=timezone.now(),
                                             starts_at=timezone.now())

    page = follow(client_of(None), f"/api/tournaments/{tid}/", "finished", 240, worker)
    t = Tournament.objects.get(pk=tid)
    check_common(t)
    assert {row["entry"]["id"]: row["points"] for row in page["table"]} == \
        dict(series_points(t))
    assert [row["rank"] for row in page["table"]] == [1, 2, 3, 4]
    assert len(page["rounds_paired"]) == 3  # four entries: three rounds of two series
    games = [g for r in page["rounds_paired"] for s in r["series"] for g in s["games"]]
    assert len(games) == 12 and {g["status"] for g in games} == {"finished"}
    assert sorted(g["match"] for g in games) == sorted(
        Match.objects.filter(series_game__series__tournament=t).values_list("pk", flat=True))
    listed = client_of(None).get("/api/tournaments/?state=finished").json()["results"]
    assert [x["id"] for x in listed] == [tid]


def test_a_challenge_made_through_the_api_is_followed_to_its_tally(
        worker: Worker, ladders: dict[str, Ladder], alice: User, bob: User) -> None:
    mine = active(alice, "challenger", source=bots.FIRST)
    theirs = active(bob, "defender", source=bots.RANDOM)
    response = client_of(alice).post("/api/challenges/", {
        "bot": mine.bot_id, "opponent": theirs.bot_id, "games": 3}, format="json")
    assert response.status_code == 201, response.content
    made = response.json()
    page = follow(client_of(None), f"/api/challenges/{made['id']}/", "finished", 120, worker)
    assert page["finished_at"] and [g["challenger_seat"] for g in page["results"]] == [0, 1, 0]
    tally = {"won": 0, "lost": 0, "drawn": 0}
    for game in page["results"]:
        match = Match.objects.get(pk=game["match"])
        assert match.status == "finished" and match.kind == "challenge"
        mine_in = match.participants.get(version=mine)
        assert mine_in.seat == game["challenger_seat"]
        word = {"win": "won", "loss": "lost", "draw": "draw"}[mine_in.outcome]
        assert game["result"] == word
        tally["drawn" if word == "draw" else word] += 1
    assert {k: page[k] for k in tally} == tally and sum(tally.values()) == 3
