"""Uploads are held to the archive rules before anything is stored (the same table as the
sandbox's), and a stored version the worker cannot unpack is rejected, not retried."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from league.accounts.services import token_create
from league.bots.models import Bot, BotVersion
from league.ladders.models import Match
from league.ladders.services import validation_match_create
from tests.league.conftest import Worker, wait_validated
from tests.sandbox.archive_cases import BOT, CASES, Case, with_duplicate, zip_of


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_an_upload_is_refused_by_the_rules_with_nothing_stored(case: Case, people) -> None:
    _, token = token_create(user=people.alice, name="t")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    response = client.post("/api/versions/", {
        "game": "stones", "name": f"case-{case.id}",
        "file": _named("bot.zip", case.data)}, format="multipart")
    if case.refused:
        assert response.status_code == 400, response.content[:300]
        assert case.refused in response.json()["detail"]
        assert not Bot.objects.filter(name=f"case-{case.id}").exists()
        assert not BotVersion.objects.exists()
    else:
        assert response.status_code == 201, response.content[:300]


def _named(name: str, data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="application/zip")


@pytest.mark.parametrize(("data", "reason"), [
    (with_duplicate("main.py"), "are the same name"),
    (zip_of(("mybot/main.py", BOT), "empty/"), "sits beside that folder"),
], ids=["duplicate", "stray-folder"])
def test_a_stored_version_the_worker_cannot_unpack_is_rejected_and_leaves_no_folder(
        worker: Worker, ladders, alice: User, data: bytes, reason: str) -> None:
    """A version stored before today's rules: its validation rejects it with the reason (no
    server path in it) on the first attempt, and no unpacked folder stays behind."""
    bot = Bot.objects.create(owner=alice, game="stones", name="old")
    version = BotVersion.objects.create(
        bot=bot, number=1, sha256=hashlib.sha256(data).hexdigest(), size=len(data),
        language="python", entry="main.py", filename="old.zip", archive=data)
    validation_match_create(version=version)
    wait_validated(version, worker=worker)
    assert version.status == "rejected"
    assert reason in version.reason
    match = Match.objects.get(kind="validation", participants__version=version)
    assert (match.status, match.attempts) == ("finished", 1)
    assert str(settings.DATA_DIR) not in version.reason + match.detail
    cache = Path(settings.LEAGUE_VERSION_CACHE)
    assert not (cache / version.sha256).exists()
    assert not list(cache.glob(".unpack-*")), "the staging folder stayed"
