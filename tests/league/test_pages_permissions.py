"""Who may read and change what: anonymous, the owner, another user and staff, against
every page that reads or changes a bot, a version, a token or a log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.test import Client

from league.accounts.models import ApiToken
from league.accounts.services import token_create
from league.bots.models import Bot, BotVersion
from league.ladders.models import Match
from tests.league.conftest import People
from tests.league.pages import active, finished

ROLES = ["anonymous", "owner", "other", "staff"]
SECRET_LOG = "the secret bot log of alice"


@dataclass
class World:
    public: BotVersion
    """Its source is its owner's (the default)."""
    private: BotVersion
    """Its owner shares its source: named for what it is not, private code."""
    match: Match
    token: ApiToken


@pytest.fixture
def world(people: People) -> World:
    public = active(people.alice, "open")
    BotVersion.objects.filter(pk=public.pk).update(log=SECRET_LOG)
    private = active(people.alice, "sharing")
    Bot.objects.filter(pk=private.bot_id).update(source_public=True)
    match = finished(public, active(people.bob, "rival"), log=SECRET_LOG)
    match.participants.filter(seat=1).update(log="the log of bob's bot")
    token, _ = token_create(user=people.alice, name="alices-laptop")
    return World(public, private, match, token)


def client_for(role: str, people: People) -> Client:
    client = Client()
    user = {"owner": people.alice, "other": people.bob, "staff": people.sam}.get(role)
    if user is not None:
        client.force_login(user)
    return client


LOGIN = "login"  # redirected to the log-in page
# (page, method, url, expected per role: a status, or LOGIN)
READS: list[tuple[str, Callable[[World], str], dict[str, int | str]]] = [
    ("public bot", lambda w: f"/bots/{w.public.bot_id}/",
     {"anonymous": 200, "owner": 200, "other": 200, "staff": 200}),
    ("bot sharing its source", lambda w: f"/bots/{w.private.bot_id}/",
     {"anonymous": 200, "owner": 200, "other": 200, "staff": 200}),
    ("version", lambda w: f"/versions/{w.public.pk}/",
     {"anonymous": 200, "owner": 200, "other": 200, "staff": 200}),
    ("version status", lambda w: f"/versions/{w.public.pk}/status.json",
     {"anonymous": 200, "owner": 200, "other": 200, "staff": 200}),
    ("a source not shared", lambda w: f"/versions/{w.public.pk}/source/",
     {"anonymous": 404, "owner": 200, "other": 404, "staff": 200}),
    ("a shared source", lambda w: f"/versions/{w.private.pk}/source/",
     {"anonymous": 200, "owner": 200, "other": 200, "staff": 200}),
    ("match", lambda w: f"/matches/{w.match.pk}/",
     {"anonymous": 200, "owner": 200, "other": 200, "staff": 200}),
    ("tokens", lambda w: "/account/tokens/",
     {"anonymous": LOGIN, "owner": 200, "other": 200, "staff": 200}),
    ("my bots", lambda w: "/my/bots/",
     {"anonymous": LOGIN, "owner": 200, "other": 200, "staff": 200}),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("page", "url", "expected"), READS, ids=[r[0] for r in READS])
def test_who_may_read(people: People, world: World, role: str, page: str,
                      url: Callable[[World], str], expected: dict[str, int | str]) -> None:
    response = client_for(role, people).get(url(world))
    if expected[role] == LOGIN:
        assert response.status_code == 302 and "/account/login/" in response["Location"]
    else:
        assert response.status_code == expected[role], page


# Logs, private names and tokens inside pages everyone may open.
@pytest.mark.parametrize(("role", "sees"), [("anonymous", False), ("owner", True),
                                            ("other", False), ("staff", True)])
def test_bot_logs_are_shown_only_to_the_owner_and_staff(
        people: People, world: World, role: str, sees: bool) -> None:
    client = client_for(role, people)
    for url in [f"/matches/{world.match.pk}/", f"/versions/{world.public.pk}/"]:
        assert (SECRET_LOG in client.get(url).content.decode()) is sees, url


@pytest.mark.parametrize("role", ["anonymous", "owner", "other", "staff"])
def test_every_bot_is_listed_for_everyone(people: People, world: World, role: str) -> None:
    page = client_for(role, people).get("/u/alice/").content.decode()
    assert "open" in page and "sharing" in page


@pytest.mark.parametrize("role", ["other", "staff"])
def test_nobody_sees_anothers_tokens_or_bots_on_their_own_pages(
        people: People, world: World, role: str) -> None:
    client = client_for(role, people)
    assert "alices-laptop" not in client.get("/account/tokens/").content.decode()
    assert "sharing" not in client.get("/my/bots/").content.decode()


def _retired(w: World) -> bool:
    return Bot.objects.get(pk=w.public.bot_id).retired


def _unshared(w: World) -> bool:
    return not Bot.objects.get(pk=w.private.bot_id).source_public


def _revoked(w: World) -> bool:
    return ApiToken.objects.get(pk=w.token.pk).revoked_at is not None


CHANGES: list[tuple[str, Callable[[World], str], Callable[[World], bool]]] = [
    ("retire", lambda w: f"/bots/{w.public.bot_id}/retire/", _retired),
    ("stop sharing the source", lambda w: f"/bots/{w.private.bot_id}/visibility/",
     _unshared),
    ("revoke token", lambda w: f"/account/tokens/{w.token.pk}/revoke/", _revoked),
]


@pytest.mark.parametrize(("role", "expected"), [
    ("anonymous", LOGIN), ("owner", 302), ("other", 404), ("staff", 404)])
@pytest.mark.parametrize(("action", "url", "done"), CHANGES, ids=[c[0] for c in CHANGES])
def test_only_the_owner_changes_their_bots_and_tokens(
        people: People, world: World, role: str, expected: int | str, action: str,
        url: Callable[[World], str], done: Callable[[World], bool]) -> None:
    response = client_for(role, people).post(url(world))
    if expected == LOGIN:
        assert response.status_code == 302 and "/account/login/" in response["Location"]
    else:
        assert response.status_code == expected, action
    assert done(world) is (role == "owner"), action


@pytest.mark.parametrize("role", ["other", "staff"])
def test_nobody_uploads_a_version_of_anothers_bot(people: People, world: World,
                                                 role: str) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.league import bots

    response = client_for(role, people).post("/my/bots/", {
        "game": "stones", "name": "open",
        "file": SimpleUploadedFile("main.py", bots.FIRST.encode())})
    assert response.status_code == 400
    assert "is taken for stones" in response.content.decode()
    assert BotVersion.objects.filter(bot__name="open").count() == 1


@pytest.mark.parametrize(("role", "expected"), [
    ("anonymous", LOGIN), ("owner", 404), ("other", 404), ("staff", 302)])
def test_only_staff_disable_a_bot_and_the_reason_is_shown(
        people: People, world: World, role: str, expected: int | str) -> None:
    client = client_for(role, people)
    response = client.post(f"/bots/{world.public.bot_id}/moderate/",
                           {"action": "disable", "reason": "plays from a lookup table"})
    if expected == LOGIN:
        assert response.status_code == 302 and "/account/login/" in response["Location"]
    else:
        assert response.status_code == expected
    bot = Bot.objects.get(pk=world.public.bot_id)
    assert bot.disabled is (role == "staff")
    if role == "staff":
        page = client_for("owner", people).get(f"/bots/{bot.pk}/").content.decode()
        assert "disabled by staff: plays from a lookup table" in page
        client.post(f"/bots/{bot.pk}/moderate/", {"action": "enable"})
        assert not Bot.objects.get(pk=bot.pk).disabled


def test_disabling_needs_a_reason(people: People, world: World) -> None:
    client = client_for("staff", people)
    response = client.post(f"/bots/{world.public.bot_id}/moderate/",
                           {"action": "disable", "reason": " "}, follow=True)
    assert "Give a reason" in response.content.decode()
    assert not Bot.objects.get(pk=world.public.bot_id).disabled
