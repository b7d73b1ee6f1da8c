"""Who may read and change what: anonymous, the owner (alice), another user (bob) and staff,
against every endpoint that reads or changes a bot, a version, a source or a log. Every bot is
public; its source is its owner's unless shared (``source_public``); its logs are always its
owner's and staff's. This matrix is the one printed in docs/api.md."""

from __future__ import annotations

from typing import Any

import pytest

from league.bots.models import Bot
from tests.league.api_world import World, make_world

VIEWERS = ["anonymous", "owner", "other", "staff"]


@pytest.fixture
def world(db: None) -> World:
    return make_world()


def _expect(statuses: str) -> list[tuple[str, int]]:
    """``"200 404 404 200"`` → one expected status per viewer, in ``VIEWERS`` order."""
    return list(zip(VIEWERS, (int(s) for s in statuses.split()), strict=True))


# (method, url template, body, expected statuses for anonymous / owner / other / staff);
# {bot}: source kept by its owner, {shared}: source shared with everyone
MATRIX: list[tuple[str, str, Any, str]] = [
    ("get", "/api/bots/{bot}/", None, "200 200 200 200"),
    ("get", "/api/bots/{shared}/", None, "200 200 200 200"),
    ("get", "/api/bots/{bot}/versions/", None, "200 200 200 200"),
    ("get", "/api/bots/{bot}/ratings/", None, "200 200 200 200"),
    ("get", "/api/versions/{rejected}/", None, "200 200 200 200"),
    ("get", "/api/versions/{shared_version}/", None, "200 200 200 200"),
    ("get", "/api/versions/{rejected}/source/", None, "401 200 403 200"),
    ("get", "/api/versions/{shared_version}/source/", None, "200 200 200 200"),
    ("get", "/api/matches/{match}/", None, "200 200 200 200"),
    ("get", "/api/matches/{match}/replay/", None, "200 200 200 200"),
    ("get", "/api/matches/{match}/viewer/", None, "200 200 200 200"),
    ("get", "/api/matches/{match}/frames/", None, "200 200 200 200"),
    ("get", "/api/matches/?bot={shared}", None, "200 200 200 200"),
    ("patch", "/api/bots/{bot}/", {"source_public": True}, "401 200 403 403"),
    ("patch", "/api/bots/{shared}/", {"source_public": False}, "401 200 403 403"),
    ("post", "/api/bots/{bot}/retire/", None, "401 200 403 403"),
]


@pytest.mark.parametrize(("method", "template", "body", "viewer", "expected"), [
    (method, template, body, viewer, expected)
    for method, template, body, statuses in MATRIX
    for viewer, expected in _expect(statuses)])
def test_permission_matrix(world: World, method: str, template: str, body: Any, viewer: str,
                           expected: int) -> None:
    url = template.format(bot=world.public_bot.pk, shared=world.shared_bot.pk,
                          rejected=world.rejected.pk, shared_version=world.shared_version.pk,
                          match=world.match.pk)
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
    shared = world.client(viewer).get(f"/api/versions/{world.shared_version.pk}/").json()
    assert shared["log"] == ("open bot's log" if sees else None), "sharing the source is not "\
        "sharing the logs"


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
def test_every_bot_is_listed_for_everyone(world: World, viewer: str) -> None:
    names = {b["name"] for b in world.client(viewer).get("/api/bots/").json()["results"]}
    assert {"alices-bot", "open-bot", "bobs-bot"} <= names


def test_the_owner_shares_and_unshares_the_source_and_retires_a_bot(world: World) -> None:
    client = world.client("owner")
    url = f"/api/bots/{world.public_bot.pk}/"
    assert client.patch(url, {"source_public": True}, format="json").json()["source_public"]
    source = f"/api/versions/{world.active.pk}/source/"
    assert world.client("anonymous").get(source).status_code == 200
    assert client.patch(url, {"source_public": False}, format="json").json()[
        "source_public"] is False
    assert world.client("other").get(source).status_code == 403
    bot = client.post(f"/api/bots/{world.public_bot.pk}/retire/").json()
    assert bot["retired"] is True and Bot.objects.get(pk=world.public_bot.pk).retired
    assert world.client("other").get(url).status_code == 200, "a retired bot keeps its page"


def test_the_site_session_works_like_a_token(world: World) -> None:
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(world.alice)
    assert client.get(f"/api/versions/{world.rejected.pk}/source/").status_code == 200
    enforcing = APIClient(enforce_csrf_checks=True)
    enforcing.force_login(world.alice)
    response = enforcing.post(f"/api/bots/{world.public_bot.pk}/retire/")
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
