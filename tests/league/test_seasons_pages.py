"""Seasons on the pages and in the API: the ladder names its running season and when it ends,
the archive lists the seasons with their winners, a season's page keeps its final table with
a podium, a bot's page lists its past places; the API reads the same and only staff make a
season."""

from __future__ import annotations

import pytest
from django.test import Client

from league.ladders.models import Season
from tests.league.conftest import People
from tests.league.season_world import FINAL, SeasonWorld, season_world


@pytest.fixture
def world(people: People) -> SeasonWorld:
    return season_world(people)


def test_the_ladder_page_names_the_running_season_and_links_the_last(world: SeasonWorld
                                                                      ) -> None:
    html = Client().get("/ladders/stones/").content.decode()
    assert "Season 2</a></strong> is running" in html
    assert 'class="countdown"' in html and "web/countdown.js" in html
    assert f'href="/seasons/{world.past.pk}/"' in html and "Opening season’s final table" in html
    assert 'href="/ladders/stones/seasons/"' in html


def test_the_archive_lists_seasons_with_their_winners(world: SeasonWorld) -> None:
    html = Client().get("/ladders/stones/seasons/").content.decode()
    assert "Opening season" in html and "Season 2" in html
    assert "queen-of-the-hill" in html and "running · ends in" in html
    assert Client().get("/ladders/nope/seasons/").status_code == 404


def test_a_seasons_page_keeps_its_final_table_with_a_podium(world: SeasonWorld) -> None:
    html = Client().get(f"/seasons/{world.past.pk}/").content.decode()
    podium = html[html.index('id="podium"'):html.index('id="table"')]
    assert podium.index("runner-up") < podium.index("queen-of-the-hill") < podium.index(
        "bronze-with"), "second, first, third, as a podium stands"
    table = html[html.index('id="table"'):]
    assert [table.index(name) for name, *_ in FINAL] == sorted(
        table.index(name) for name, *_ in FINAL)
    assert "every 50 minutes" in html and "kept 0.50 of its lead" in html
    running = Client().get(f"/seasons/{world.running.pk}/").content.decode()
    assert "running: ends in" in running and 'id="table"' not in running
    assert Client().get("/seasons/999999/").status_code == 404


def test_a_bots_page_lists_its_past_seasons(world: SeasonWorld) -> None:
    html = Client().get(f"/bots/{world.bots['runner-up']}/").content.decode()
    seasons = html[html.index('id="bot-seasons"'):]
    assert "Opening season" in seasons and "2 <small>of 4</small>" in seasons


def test_the_api_reads_seasons_and_their_tables(world: SeasonWorld) -> None:
    listed = Client().get("/api/ladders/stones/seasons/").json()
    assert [s["title"] for s in listed["results"]] == ["Season 2", "Opening season"]
    assert listed["results"][0]["state"] == "running"
    assert listed["results"][1]["repeat_every"] == 3000.0
    detail = Client().get(f"/api/seasons/{world.past.pk}/").json()
    assert [(p["place"], p["bot"]) for p in detail["table"]] == [
        (i, name) for i, (name, *_) in enumerate(FINAL, start=1)]
    assert detail["table"][0]["rating"] == pytest.approx(34.0 - 3 * 1.8)
    assert Client().get(f"/api/seasons/{world.running.pk}/").json()["table"] == []
    places = Client().get(f"/api/bots/{world.bots['fourth']}/seasons/").json()
    assert [(p["season"]["id"], p["place"], p["of"]) for p in places] == [(world.past.pk, 4, 4)]


def test_only_staff_make_a_season_through_the_api(world: SeasonWorld, people: People) -> None:
    body = {"starts_at": world.running.ends_at.isoformat(), "length": 3600, "carry": 0.25,
            "name": "Staff's own"}
    assert Client().post("/api/ladders/stones/seasons/", body,
                         content_type="application/json").status_code in (401, 403)
    alice = Client()
    alice.force_login(people.alice)
    assert alice.post("/api/ladders/stones/seasons/", body,
                      content_type="application/json").status_code == 403
    sam = Client()
    sam.force_login(people.sam)
    made = sam.post("/api/ladders/stones/seasons/", body, content_type="application/json")
    assert made.status_code == 201, made.json()
    assert made.json()["number"] == 3 and made.json()["carry"] == 0.25
    again = sam.post("/api/ladders/stones/seasons/", body, content_type="application/json")
    assert again.status_code == 400 and "runs until" in again.json()["detail"]
    both = sam.post("/api/ladders/stones/seasons/", {**body, "ends_at": body["starts_at"]},
                    content_type="application/json")
    assert both.status_code == 400
    assert Season.objects.filter(ladder=world.ladder).count() == 3
