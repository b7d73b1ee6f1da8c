"""Uploading through the API with a token: a real worker validates the version and the API
shows it active; a rejected one shows its reason to all and its log to its owner only."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from league.accounts.services import token_create
from league.ladders.models import Ladder
from tests.league import bots
from tests.league.conftest import Worker

pytestmark = pytest.mark.slow


def _client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_create(user=user, name='t')[1]}")
    return client


def _wait_version(client: APIClient, version_id: int, worker: Worker) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        version = client.get(f"/api/versions/{version_id}/").json()
        if version["status"] != "validating":
            return version
        time.sleep(0.2)
    raise AssertionError(f"version {version_id} still validating\n{worker.text()[-3000:]}")


def test_an_upload_through_the_api_is_validated_and_a_crash_is_rejected_with_its_log(
        ladders: dict[str, Ladder], alice: User, bob: User, worker: Worker) -> None:
    cache.clear()
    owner, other, anonymous = _client(alice), _client(bob), APIClient()

    def upload(source: str) -> dict:
        response = owner.post("/api/versions/", {
            "file": SimpleUploadedFile("main.py", source.encode()), "game": "stones",
            "name": "api-bot"}, format="multipart")
        assert response.status_code == 201, response.content
        assert response.json()["status"] == "validating"
        return response.json()

    good = _wait_version(owner, upload(bots.RANDOM)["id"], worker)
    assert good["status"] == "active", good["reason"]
    bot = anonymous.get(f"/api/bots/{good['bot_id']}/").json()
    assert bot["active_version"]["id"] == good["id"]

    bad = _wait_version(owner, upload(bots.CRASH)["id"], worker)
    assert bad["status"] == "rejected"
    assert bad["reason"] == "crash: exited with code 3"
    assert "oh no" in bad["log"]
    seen_by_bob = other.get(f"/api/versions/{bad['id']}/").json()
    assert seen_by_bob["reason"] == bad["reason"] and seen_by_bob["log"] is None
    assert anonymous.get(f"/api/bots/{good['bot_id']}/").json()["active_version"]["id"] == \
        good["id"], "the rejected version did not replace the active one"

    matches = owner.get(f"/api/matches/?bot={good['bot_id']}&kind=validation").json()
    assert matches["count"] == 2
    crashed = matches["results"][0]["id"]
    mine = owner.get(f"/api/matches/{crashed}/replay/").json()
    theirs = other.get(f"/api/matches/{crashed}/replay/").json()
    assert any("oh no" in p["log"] for p in mine["players"])
    assert not any("oh no" in p["log"] for p in theirs["players"])
