"""Who may read and change what: anonymous, the owner (alice), another user (bob) and staff,
against every endpoint that reads or changes a bot, a version, a source or a log."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from league.bots.models import Bot
from tests.league.api_world import World, make_world

VIEWERS = ["anonymous", "owner", "other", "staff"]


@pytest.fixture
def world(db: None) -> World:
    cache.clear()
    return make_world()


def _expect(statuses: str) -> list[tuple[str, int]]:
    """``"200 404 404 200"`` → one expected status per viewer, in ``VIEWERS`` order."""
    return list(zip(VIEWERS, (int(s) for s in statuses.split()), strict=True))


# (method, url template, body, expected statuses for anonymous / owner / other / staff)
MATRIX: list[tuple[str, str, Any, str]] = [
    ("get", "/api/bots/{public}/", None, "200 200 200 200"),
    ("get", "/api/bots/{private}/", None, "404 200 404 200"),
    ("get", "/api/bots/{public}/versions/", None, "200 200 200 200"),
    ("get", "/api/bots/{private}/versions/", None, "404 200 404 200"),
    ("get", "/api/bots/{public}/ratings/", None, "200 200 200 200"),
    ("get", "/api/bots/{private}/ratings/", None, "404 200 404 200"),
    ("get", "/api/versions/{rejected}/", None, "200 200 200 200"),
    ("get", "/api/versions/{private_version}/", None, "404 200 404 200"),
    ("get", "/api/versions/{rejected}/source/", None, "401 200 403 200"),
    ("get", "/api/versions/{private_version}/source/", None, "404 200 404 200"),
    ("get", "/api/matches/{match}/", None, "200 200 200 200"),
    ("get", "/api/matches/{match}/replay/", None, "200 200 200 200"),
    ("get", "/api/matches/{match}/viewer/", None, "200 200 200 200"),
    ("get", "/api/matches/{match}/frames/", None, "200 200 200 200"),
    ("get", "/api/matches/?bot={private}", None, "404 200 404 200"),
    ("patch", "/api/bots/{public}/", {"public": False}, "401 200 403 403"),
    ("patch", "/api/bots/{private}/", {"public": True}, "401 200 404 403"),
    ("post", "/api/bots/{public}/retire/", None, "401 200 403 403"),
    ("post", "/api/bots/{private}/retire/", None, "401 200 404 403"),
]


@pytest.mark.parametrize(("method", "template", "body", "viewer", "expected"), [
    (method, template, body, viewer, expected)
    for method, template, body, statuses in MATRIX
    for viewer, expected in _expect(statuses)])
def test_permission_matrix(world: World, method: str, template: str, body: Any, viewer: str,
                           expected: int) -> None:
    url = template.format(public=world.public_bot.pk, private=world.private_bot.pk,
                          rejected=world.rejected.pk,
                          private_version=world.private_version.pk, match=world.match.pk)
    response = getattr(world.client(viewer), method)(url, body, format="json")
    assert response.status_code == expected, response.content
    if expected >= 400:
        assert response["Content-Type"] == "application/json"
        assert response.json()["detail"]


@pytest.mark.parametrize(("viewer", "sees"), [("anonymous", False), ("owner", True),
                                              ("other", False), ("staff", True)])
def test_a_versions_log_is_shown_only_to_its_owner_and_staff(world: World, viewer: str,
                                                             sees: bool) -> None:
    version = world.client(viewer).get(f"/api/versions/{world.rejected.pk}/").json()
    assert version["reason"] == "crash: exited with code 3"
    assert version["log"] == ("oh no, alice's log" if sees else None)


@pytest.mark.parametrize(("viewer", "logs"), [
    ("anonymous", [None, None]), ("owner", ["alice in match", None]),
    ("other", [None, "bob in match"]), ("staff", ["alice in match", "bob in match"])])
def test_match_logs_are_shown_only_to_each_bots_owner_and_staff(world: World, viewer: str,
                                                                logs: list) -> None:
    client = world.client(viewer)
    match = client.get(f"/api/matches/{world.match.pk}/").json()
    assert [p["log"] for p in match["participants"]] == logs
    replay = client.get(f"/api/matches/{world.match.pk}/replay/").json()
    assert [p["log"] or None for p in replay["players"]] == logs


@pytest.mark.parametrize("viewer", VIEWERS)
def test_private_bots_are_listed_only_for_their_owner_and_staff(world: World,
                                                                viewer: str) -> None:
    names = {b["name"] for b in world.client(viewer).get("/api/bots/").json()["results"]}
    assert ("hidden-bot" in names) == (viewer in ("owner", "staff"))


def test_the_owner_retires_a_bot_and_hides_it(world: World) -> None:
    client = world.client("owner")
    bot = client.post(f"/api/bots/{world.public_bot.pk}/retire/").json()
    assert bot["retired"] is True
    assert client.patch(f"/api/bots/{world.public_bot.pk}/", {"public": False},
                        format="json").json()["public"] is False
    assert not Bot.objects.get(pk=world.public_bot.pk).public
    assert world.client("other").get(f"/api/bots/{world.public_bot.pk}/").status_code == 404


def test_the_site_session_works_like_a_token(world: World) -> None:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(world.alice)
    assert client.get(f"/api/bots/{world.private_bot.pk}/").status_code == 200
    enforcing = APIClient(enforce_csrf_checks=True)
    enforcing.force_login(world.alice)
    response = enforcing.post(f"/api/bots/{world.public_bot.pk}/retire/")
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
