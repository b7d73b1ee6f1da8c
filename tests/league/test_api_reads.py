"""Reading the league through the API: games, ladders, rankings, bots, versions, matches with
their filters and pages, replays and rating history, each in a bounded number of queries."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from league.ladders.models import Match, Participant, Standing
from tests.league.api_world import World, make_world


@pytest.fixture
def world(db: None) -> World:
    cache.clear()
    return make_world()


def test_games_lists_every_game_with_its_ladder(world: World) -> None:
    games = world.client("anonymous").get("/api/games/").json()
    by_id = {g["id"]: g for g in games}
    assert set(by_id) == {"blokus_duo", "stones", "wizard_duel", "g2048", "robots"}
    assert by_id["stones"]["players"] == 2 and by_id["stones"]["ladder"] == "stones"


def test_ladders_and_a_ladder_by_slug(world: World) -> None:
    client = world.client("anonymous")
    slugs = [ladder["slug"] for ladder in client.get("/api/ladders/").json()]
    assert "stones" in slugs and "2048" in slugs
    ladder = client.get("/api/ladders/2048/").json()
    assert ladder["kind"] == "scored" and ladder["seeds"]


def test_rankings_rank_active_versions_with_their_bot_ids(world: World) -> None:
    Standing.objects.create(ladder=world.match.ladder, version=world.active, mu=30, sigma=2,
                            games=3, wins=3)
    Standing.objects.create(ladder=world.match.ladder, version=world.bobs_bot.active_version,
                            mu=20, sigma=2, games=3, losses=3)
    page = world.client("anonymous").get("/api/ladders/stones/rankings/").json()
    rows = page["results"]
    assert page["count"] == 2 and page["next"] is None
    assert [(r["rank"], r["bot"], r["bot_id"]) for r in rows] == [
        (1, "alices-bot", world.public_bot.pk), (2, "bobs-bot", world.bobs_bot.pk)]
    assert rows[0]["rating"] == pytest.approx(24.0)


def test_rankings_page_in_the_database_and_search_keeps_the_rank(world: World) -> None:
    ladder = world.match.ladder
    Standing.objects.create(ladder=ladder, version=world.active, mu=30, sigma=2, games=3)
    Standing.objects.create(ladder=ladder, version=world.bobs_bot.active_version, mu=20,
                            sigma=2, games=3)
    client = world.client("anonymous")
    second = client.get("/api/ladders/stones/rankings/?page_size=1&page=2").json()
    assert second["count"] == 2 and second["previous"] is not None
    assert [(r["rank"], r["bot"]) for r in second["results"]] == [(2, "bobs-bot")]
    found = client.get("/api/ladders/stones/rankings/?q=BOB").json()
    assert [(r["rank"], r["bot"]) for r in found["results"]] == [(2, "bobs-bot")]
    assert client.get("/api/ladders/stones/rankings/?q=%25").json()["count"] == 0


def test_bots_filter_by_game_and_owner(world: World) -> None:
    client = world.client("anonymous")
    assert {b["name"] for b in client.get("/api/bots/").json()["results"]} == {
        "alices-bot", "open-bot", "bobs-bot"}
    assert [b["name"] for b in client.get("/api/bots/?owner=bob").json()["results"]] == [
        "bobs-bot"]
    assert client.get("/api/bots/?game=g2048").json()["count"] == 0
    bot = client.get(f"/api/bots/{world.public_bot.pk}/").json()
    assert bot["owner"] == "alice" and bot["active_version"]["number"] == 1


def test_a_bots_versions_newest_first_with_reasons(world: World) -> None:
    versions = world.client("anonymous").get(
        f"/api/bots/{world.public_bot.pk}/versions/").json()["results"]
    assert [(v["number"], v["status"]) for v in versions] == [(2, "rejected"), (1, "active")]
    assert versions[0]["reason"] == "crash: exited with code 3"


def test_matches_filter_by_ladder_bot_status_and_kind(world: World) -> None:
    client = world.client("anonymous")
    Match.objects.create(ladder=world.match.ladder.__class__.objects.get(game="g2048"),
                         seed=1, status="queued")
    assert client.get("/api/matches/").json()["count"] == 2
    assert [m["id"] for m in client.get("/api/matches/?ladder=stones").json()["results"]] == [
        world.match.pk]
    assert client.get(f"/api/matches/?bot={world.bobs_bot.pk}").json()["count"] == 1
    assert client.get(f"/api/matches/?bot={world.shared_bot.pk}").json()["count"] == 0
    assert client.get("/api/matches/?bot=999999").status_code == 404
    assert client.get("/api/matches/?status=queued").json()["count"] == 1
    assert client.get("/api/matches/?status=finished&kind=ladder").json()["count"] == 1
    assert client.get("/api/matches/?status=won").status_code == 400
    # how it ended: the code for programs, the glossary's words for people
    finished = client.get(f"/api/matches/{world.match.pk}/").json()
    assert (finished["reason"], finished["reason_text"]) == ("game-over", "caught by a robot")


def test_matches_come_in_pages(world: World) -> None:
    ladder = world.match.ladder
    Match.objects.bulk_create([Match(ladder=ladder, seed=i, status="queued")
                               for i in range(7)])
    client = world.client("anonymous")
    first = client.get("/api/matches/?page_size=3").json()
    assert first["count"] == 8 and len(first["results"]) == 3 and first["next"]
    last = client.get("/api/matches/?page_size=3&page=3").json()
    assert len(last["results"]) == 2 and last["next"] is None
    assert client.get("/api/matches/?page=9").status_code == 404


def test_a_match_shows_its_participants_inline(world: World) -> None:
    match = world.client("anonymous").get(f"/api/matches/{world.match.pk}/").json()
    assert [(p["seat"], p["bot"], p["outcome"]) for p in match["participants"]] == [
        (0, "alices-bot", "win"), (1, "bobs-bot", "loss")]


def test_a_replay_is_the_match_record(world: World) -> None:
    record = world.client("anonymous").get(f"/api/matches/{world.match.pk}/replay/").json()
    assert record["game"] == "stones" and record["seed"] == 7
    queued = Match.objects.create(ladder=world.match.ladder, seed=3)
    response = world.client("anonymous").get(f"/api/matches/{queued.pk}/replay/")
    assert response.status_code == 404 and "no replay yet" in response.json()["detail"]


def test_rating_history_lists_rating_after_each_match(world: World) -> None:
    points = world.client("anonymous").get(
        f"/api/bots/{world.public_bot.pk}/ratings/").json()["results"]
    assert [(p["match"], p["mu_after"]) for p in points] == [(world.match.pk, 27.0)]
    assert points[0]["rating"] == pytest.approx(27.0 - 3 * 7.9)


@pytest.mark.parametrize("url", ["/api/bots/", "/api/matches/", "/api/matches/?bot={bot}",
                                 "/api/bots/{bot}/versions/", "/api/bots/{bot}/ratings/",
                                 "/api/ladders/stones/rankings/", "/api/matches/{match}/"])
def test_lists_take_a_fixed_number_of_queries(world: World, url: str,
                                              django_assert_max_num_queries) -> None:
    ladder = world.match.ladder
    for i in range(20):
        match = Match.objects.create(ladder=ladder, seed=i, status="finished")
        Participant.objects.create(match=match, seat=0, version=world.active, mu_after=1,
                                   sigma_after=1)
        Participant.objects.create(match=match, seat=1,
                                   version=world.bobs_bot.active_version)
    url = url.format(bot=world.public_bot.pk, match=world.match.pk)
    client = world.client("owner")
    with django_assert_max_num_queries(8):
        assert client.get(url).status_code == 200


def test_rating_history_holds_ratings_on_rated_ladders_and_scores_on_scored_ones(
        world: World) -> None:
    from django.utils import timezone

    from league.ladders.models import Ladder
    from league.ladders.services import version_upload
    from tests.league import bots

    stones = world.match.ladder
    unrated = Match.objects.create(ladder=stones, kind="validation", seed=1,
                                   status="finished", finished_at=timezone.now())
    Participant.objects.create(match=unrated, seat=0, version=world.active, score=3.0)
    solo = version_upload(owner=world.alice, game="g2048", name="slider", filename="main.py",
                          data=bots.FIRST.encode())
    scored = Match.objects.create(ladder=Ladder.objects.get(game="g2048"), seed=1,
                                  status="finished", finished_at=timezone.now())
    Participant.objects.create(match=scored, seat=0, version=solo, score=812.0)
    client = world.client("anonymous")
    points = client.get(f"/api/bots/{world.public_bot.pk}/ratings/").json()["results"]
    assert [p["match"] for p in points] == [world.match.pk]
    points = client.get(f"/api/bots/{solo.bot_id}/ratings/").json()["results"]
    assert [(p["match"], p["score"], p["rating"]) for p in points] == [(scored.pk, 812.0, None)]
