"""Version tests through the API, without a worker: start, read, list, make public, cancel;
who sees a test (its owner and staff, anyone once public; a stranger gets a 404, or a 403
for changing a public one); refusals as a 400 naming what to change, the start's rate as a
429; the answers match the OpenAPI schema's names."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings

from league.versiontests.models import VersionTest
from tests.league.api_world import World, make_world
from tests.league.pages import active
from tests.league.versiontest_world import play_pair


@pytest.fixture
def world(db: None) -> World:
    return make_world()


def start(world: World, who: str = "owner", **body: Any) -> Any:
    newer = active(world.alice, "alices-bot")  # the active version now; the older: baseline
    body = {"candidate": newer.pk, "baseline": world.active.pk, **body}
    return world.client(who).post("/api/version-tests/", body, format="json")


def test_start_read_and_play_a_test(world: World) -> None:
    response = start(world, elo1=40, public=False)
    assert response.status_code == 201, response.content
    made = response.json()
    assert made["state"] == "running" and made["elo1"] == 40 and made["baseline"]["version"] \
        == world.active.pk and made["candidate"]["bot"] == "alices-bot"
    assert made["pairs"] == 0 and made["games_played"] == 0 and made["elo"] is None
    assert [(g["pair"], g["index"], g["status"]) for g in made["games"]] == [
        (0, 0, "queued"), (0, 1, "queued"), (1, 0, "queued"), (1, 1, "queued")]
    assert made["lower"] < 0 < made["upper"] and made["verdict"].startswith("Running")
    test = VersionTest.objects.get(pk=made["id"])
    for _ in range(20):
        play_pair(test, "win", "win")
        test.refresh_from_db()
        if test.state != "running":
            break
    read = world.client("owner").get(f"/api/version-tests/{test.pk}/").json()
    assert read["state"] == "h1" and read["pairs"] == len(read["history"]) == test.pairs
    assert read["counts"][4] == test.pairs and read["wins"] == 2 * test.pairs
    assert read["elo"]["value"] > 0 and read["elo"]["low"] < read["elo"]["value"]
    assert read["verdict"].startswith(f"alices-bot v{test.candidate.number} is stronger: +")
    assert read["verdict"].endswith(f"(at least +{read['elo']['low']:.0f}), after "
                                    f"{2 * test.pairs} games")  # every pair won: no upper end
    assert read["games_left"] is None
    won = [g for g in read["games"] if g["result"] == "win"]
    assert len(won) == 2 * test.pairs and all(g["match"] for g in won)
    assert {g["status"] for g in read["games"]} == {"finished", "cancelled"}


def test_refusals_are_400s_naming_what_to_change(world: World) -> None:
    bobs = world.bobs_bot.active_version_id
    cases = [({"candidate": bobs}, "not yours"),
             ({"elo0": 10, "elo1": 5}, "elo0 must be below elo1"),
             ({"alpha": 0.7}, "alpha and beta"),
             ({"max_games": 100000}, "2 to 2000 games"),
             ({"candidate": 999999}, "candidate: no version 999999"),
             ({"baseline": world.rejected.pk}, "is rejected")]
    for body, words in cases:
        response = start(world, **body)
        assert response.status_code == 400, (body, response.content)
        assert words in response.json()["detail"], (body, response.json())
    assert start(world, who="anonymous").status_code in (401, 403)
    assert not VersionTest.objects.exists()


@override_settings(LEAGUE_VERSION_TESTS_AT_ONCE=50,
                   RATE_LIMITS={**settings.RATE_LIMITS, "versiontest": "2/hour"})
def test_starts_over_the_rate_are_429s(world: World) -> None:
    assert start(world).status_code == 201
    assert start(world).status_code == 201
    response = start(world)
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "too many version tests started" in response.json()["detail"]


def test_who_sees_a_test(world: World) -> None:
    test_id = start(world).json()["id"]
    path = f"/api/version-tests/{test_id}/"
    assert world.client("owner").get(path).status_code == 200
    assert world.client("staff").get(path).status_code == 200
    for who in ("other", "anonymous"):
        assert world.client(who).get(path).status_code == 404, who
        listed = world.client(who).get("/api/version-tests/").json()["results"]
        assert test_id not in [t["id"] for t in listed], who
        assert world.client(who).post(f"{path}cancel/", {}, format="json").status_code \
            in (401, 403, 404)
    assert world.client("other").patch(path, {"public": True}, format="json").status_code \
        == 404
    made_public = world.client("owner").patch(path, {"public": True}, format="json")
    assert made_public.status_code == 200 and made_public.json()["public"] is True
    for who in ("other", "anonymous"):
        assert world.client(who).get(path).status_code == 200, who
        listed = world.client(who).get("/api/version-tests/").json()["results"]
        assert test_id in [t["id"] for t in listed], who
    assert world.client("other").post(f"{path}cancel/", {}, format="json").status_code == 403
    assert world.client("other").patch(path, {"public": False}, format="json").status_code \
        == 403
    mine = world.client("other").get("/api/version-tests/?mine=true").json()["results"]
    assert mine == []
    assert world.client("anonymous").get("/api/version-tests/?mine=true").status_code \
        in (401, 403)


def test_the_owner_or_staff_cancel_it_and_its_queued_games_go(world: World) -> None:
    first = start(world).json()["id"]
    second = start(world).json()["id"]
    done = world.client("owner").post(f"/api/version-tests/{first}/cancel/", {},
                                      format="json").json()
    assert done["state"] == "cancelled" and done["reason"] == "cancelled by its owner"
    assert {g["status"] for g in done["games"]} == {"cancelled"}
    done = world.client("staff").post(f"/api/version-tests/{second}/cancel/",
                                      {"reason": "the workers are needed"},
                                      format="json").json()
    assert done["state"] == "cancelled" and done["reason"] == "the workers are needed"
    assert done["verdict"] == "Cancelled (the workers are needed), after 0 games"
    filtered = world.client("owner").get("/api/version-tests/?state=cancelled").json()
    assert {t["id"] for t in filtered["results"]} == {first, second}
    by_bot = world.client("owner").get(f"/api/version-tests/?bot={world.public_bot.pk}").json()
    assert {t["id"] for t in by_bot["results"]} == {first, second}


def test_the_schema_names_the_endpoints_and_their_fields(world: World) -> None:
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("/api/version-tests/", "/api/version-tests/{test_id}/",
                 "/api/version-tests/{test_id}/cancel/"):
        assert path in schema["paths"], path
    detail = schema["components"]["schemas"]["VersionTestDetail"]["properties"]
    read = start(world).json()
    assert set(read) == set(detail), set(read) ^ set(detail)
