"""Errors under /api/ are JSON with a ``detail`` a person can act on; requests are throttled
per token; a body over the upload cap is refused before it is read."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings
from rest_framework.test import APIClient

from league.accounts.services import token_create, token_revoke
from league.bots.models import BotVersion
from tests.league.api_world import World, make_world

MIB = 1024 * 1024


@pytest.fixture
def world(db: None) -> World:
    return make_world()


def _upload(client: APIClient, name: str, data: bytes, game: str = "stones",
            filename: str = "main.py"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return client.post("/api/versions/", {"file": SimpleUploadedFile(filename, data),
                                          "game": game, "name": name}, format="multipart")


def test_an_upload_refused_by_the_service_says_why_and_stores_nothing(world: World) -> None:
    before = BotVersion.objects.count()
    response = _upload(world.client("owner"), "notes", b"hello", filename="notes.txt")
    assert response.status_code == 400
    assert "not a zip and not a source file" in response.json()["detail"]
    response = _upload(world.client("owner"), "bobs-bot", b"print(1)")
    assert response.status_code == 400 and "is taken" in response.json()["detail"]
    response = _upload(world.client("owner"), "x", b"print(1)", game="chess")
    assert "unknown game 'chess'" in response.json()["detail"]
    assert BotVersion.objects.count() == before


def test_a_missing_field_is_named(world: World) -> None:
    response = world.client("owner").post("/api/versions/", {"game": "stones"},
                                          format="multipart")
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert "file:" in detail and "name:" in detail


def test_an_upload_with_a_token_returns_the_version_validating(world: World) -> None:
    response = _upload(world.client("other"), "bobs-second", b"print(1)")
    assert response.status_code == 201, response.content
    version = response.json()
    assert version["status"] == "validating" and version["bot"] == "bobs-second"
    assert response.json()["log"] == ""


def test_uploading_needs_a_token_or_a_session(world: World) -> None:
    response = _upload(world.client("anonymous"), "anon", b"print(1)")
    assert response.status_code == 401
    assert "Bearer" in response.json()["detail"] and "/account/tokens/" in \
        response.json()["detail"]
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_revoked_or_wrong_token_is_refused_not_taken_for_anonymous(world: World) -> None:
    token, raw = token_create(user=world.alice, name="old laptop")
    token_revoke(user=world.alice, token_id=token.pk)
    for header in (f"Bearer {raw}", "Bearer blt_nonsense_x", "Bearer "):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=header)
        response = client.get("/api/bots/")
        assert response.status_code == 401, header
        assert "token" in response.json()["detail"]


@pytest.mark.parametrize(("method", "url", "status", "words"), [
    ("get", "/api/nowhere/", 404, "no API endpoint"),
    ("get", "/api/bots/999999/", 404, "no bot 999999"),
    ("get", "/api/ladders/chess/", 404, "no ladder 'chess'"),
    ("put", "/api/bots/1/", 405, "not allowed"),
    ("get", "/api/versions/", 405, "not allowed"),
    ("get", "/api/matches/?bot=abc", 400, "bot:"),
])
def test_errors_are_json_with_a_detail(world: World, method: str, url: str, status: int,
                                       words: str) -> None:
    response = getattr(world.client("owner"), method)(url)
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    assert words in response.json()["detail"]


def test_a_body_over_the_cap_is_refused_from_its_content_length(world: World) -> None:
    client = Client(HTTP_AUTHORIZATION=f"Bearer {world.tokens['owner']}")
    response = client.generic("POST", "/api/versions/", b"tiny",
                              content_type="multipart/form-data; boundary=x",
                              CONTENT_LENGTH=str(11 * MIB))
    assert response.status_code == 413
    assert "at most 10 MiB" in response.json()["detail"]


def test_a_real_oversized_upload_is_refused_with_413(world: World) -> None:
    response = _upload(world.client("owner"), "big", b"#" * (11 * MIB))
    assert response.status_code == 413 and "10 MiB" in response.json()["detail"]


def test_requests_are_throttled_per_token_with_a_json_429(world: World) -> None:
    rates = {"anon": "2/min", "user": "3/min", "upload": "60/hour"}
    with override_settings(RATE_LIMITS={**settings.RATE_LIMITS, **rates}):
        alice = world.client("owner")
        for _ in range(3):
            assert alice.get("/api/games/").status_code == 200
        response = alice.get("/api/games/")
        assert response.status_code == 429
        assert "too many requests" in response.json()["detail"]
        assert "try again in" in response.json()["detail"]
        assert int(response["Retry-After"]) > 0
        _, second = token_create(user=world.alice, name="second")
        other_token = APIClient()
        other_token.credentials(HTTP_AUTHORIZATION=f"Bearer {second}")
        assert other_token.get("/api/games/").status_code == 200, "each token has its own rate"
        anonymous = world.client("anonymous")
        assert [anonymous.get("/api/games/").status_code for _ in range(3)] == [200, 200, 429]
        spoofed = anonymous.get("/api/games/", HTTP_X_FORWARDED_FOR="10.9.8.7")
        assert spoofed.status_code == 429, "a made-up X-Forwarded-For does not reset the rate"


def test_uploads_have_their_own_rate(world: World) -> None:
    rates = {"anon": "100/min", "user": "100/min", "upload": "1/hour"}
    with override_settings(RATE_LIMITS={**settings.RATE_LIMITS, **rates}):
        client = world.client("other")
        assert _upload(client, "one", b"print(1)").status_code == 201
        response = _upload(client, "two", b"print(1)")
        assert response.status_code == 429 and "try again" in response.json()["detail"]
        assert client.get("/api/games/").status_code == 200


def test_fields_over_a_mebibyte_are_refused_with_413(world: World) -> None:
    response = world.client("owner").patch(
        f"/api/bots/{world.public_bot.pk}/", {"source_public": False, "padding": "x" * (2 * MIB)},
        format="json")
    assert response.status_code == 413 and "over 1 MiB" in response.json()["detail"]


def test_an_unexpected_failure_is_a_json_500_and_is_logged(
        world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from league.api import selectors

    def broken() -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(selectors, "game_list", broken)
    response = world.client("anonymous").get("/api/games/")
    assert response.status_code == 500
    assert "try again later" in response.json()["detail"]
    assert "disk on fire" not in response.content.decode()
    assert "disk on fire" in caplog.text


def test_a_live_server_answers_413_without_waiting_for_the_body(live_server) -> None:
    import socket
    from urllib.parse import urlsplit

    address = urlsplit(live_server.url)
    with socket.create_connection((address.hostname, address.port), timeout=10) as sock:
        sock.sendall(b"POST /api/versions/ HTTP/1.1\r\nHost: localhost\r\n"
                     b"Content-Type: multipart/form-data; boundary=x\r\n"
                     b"Content-Length: 52428800\r\n\r\n" + b"x" * 1024)
        answer = ""
        while '"}' not in answer:
            chunk = sock.recv(65536).decode(errors="replace")
            if not chunk:
                break
            answer += chunk
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    assert '"detail"' in answer and "50.0 MiB" in answer
