"""One rule for text a person types that others see (``league.text``): control, format
(zero-width, bidi), surrogate, private-use and unassigned characters are refused, and so are
line separators in a one-line field and text that shows as nothing, in the same words on
every page form, API serializer and service. An outside probe had stored a tournament named
``"\\x1b[31mred\\x07"`` through the API (201), which the terminal's ``tournament show`` (then
``python -m sandbox``'s, now ``botleague``'s) wrote raw to another person's terminal."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from league.accounts.models import ApiToken
from league.bots.models import Bot
from league.bots.services import UploadError, version_create
from league.competitions.models import Tournament
from league.competitions.services import CompetitionError, tournament_create
from league.text import RULE, text_problem
from tests.league import bots
from tests.league.api_world import World, make_world
from tests.league.conftest import People
from tests.league.test_api_competitions import new_tournament

HOSTILE = {
    "escape sequence": "\x1b[31mred\x07",
    "OSC link": "\x1b]8;;http://evil/\x1b\\click\x1b]8;;\x1b\\",
    "C1 control": "cup\x9b31m",
    "lone zero-width space": "\u200b",
    "zero-width inside": "Fri\u200bday",
    "right-to-left override": "cup\u202egnp.exe",
    "bidi isolate": "cup\u2066x\u2069",
    "byte order mark": "\ufeffcup",
    "soft hyphen": "cu\u00adp",
    "tag character": "cup\U000e0041",
    "private use": "cup\ue000",
    "unassigned": "cup\u0378",
    "surrogate": "cup\ud800",
    "line separator": "Friday\u2028cup",
    "new line": "Friday\ncup",
    "tab": "Friday\tcup",
    "only a blank filler": "\u3164",
}
FINE = ["Friday cup", "Coupe du vendredi – 2ᵉ édition", "金曜日カップ", "كأس الجمعة",
        "Ünïcode 🎲 cup", "O'Brien-Smith & co. (v2)", "a\u00a0b"]


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_rule_refuses_what_does_not_show_as_itself(text: str) -> None:
    problem = text_problem(text)
    assert problem is not None and problem.startswith(RULE)


@pytest.mark.parametrize("text", FINE)
def test_the_rule_takes_any_script_punctuation_and_symbols(text: str) -> None:
    assert text_problem(text) is None
    assert text_problem(text, multiline=True) is None


def test_a_note_keeps_its_lines_and_tabs_but_nothing_else_invisible() -> None:
    assert text_problem("first line\r\nsecond\tline\n\u2028third", multiline=True) is None
    assert text_problem("first line\n\x1b[2Jcleared", multiline=True).startswith(RULE)
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in text_problem("a\u202eb", multiline=True)
    assert text_problem("", multiline=False) is None  # whether empty is fine: the field's


# -- the API ---------------------------------------------------------------------------------

@pytest.fixture
def world(db: None) -> World:
    return make_world()


@pytest.mark.parametrize("text", [HOSTILE[k] for k in (
    "escape sequence", "lone zero-width space", "right-to-left override", "line separator",
    "surrogate", "only a blank filler")], ids=lambda t: repr(t)[:20])
def test_the_api_refuses_such_a_tournament_name_in_the_rules_words(world: World,
                                                                    text: str) -> None:
    # as JSON's own escapes: a lone surrogate has no UTF-8, but "\\ud800" is valid JSON
    response = world.client("owner").post("/api/tournaments/",
                                          json.dumps(new_tournament(name=text)),
                                          content_type="application/json")
    assert response.status_code == 400, response.content
    assert RULE in response.json()["detail"]
    assert not Tournament.objects.exists()


def test_the_api_takes_a_multi_line_description_but_not_an_override_in_it(
        world: World) -> None:
    client = world.client("staff")
    refused = client.post("/api/tournaments/", new_tournament(
        description="line one\n\u202eline two"), format="json")
    assert refused.status_code == 400 and RULE in refused.json()["detail"]
    made = client.post("/api/tournaments/", new_tournament(
        description="line one\r\n\tline two"), format="json")
    assert made.status_code == 201, made.content
    assert made.json()["description"] == "line one\r\n\tline two"
    cancel = client.post(f"/api/tournaments/{made.json()['id']}/cancel/",
                         {"reason": "\x1b]0;owned\x07"}, format="json")
    assert cancel.status_code == 400 and RULE in cancel.json()["detail"]


def test_the_api_refuses_a_bot_name_with_an_escape_in_the_same_words(world: World) -> None:
    response = world.client("owner").post("/api/versions/", {
        "game": "stones", "name": "bot\x1b[31m", "file": _source()}, format="multipart")
    assert response.status_code == 400 and RULE in response.json()["detail"]


def _source() -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("main.py", bots.RANDOM.encode())


# -- the services: the last gate, whoever calls them -----------------------------------------

def test_the_services_refuse_in_the_same_words(people: People) -> None:
    with pytest.raises(CompetitionError, match=r"^use visible characters only"):
        tournament_create(user=people.alice, name="\u202ecup", game="stones",
                          format="swiss", registration_closes=timezone.now()
                          + dt.timedelta(hours=1),
                          starts_at=timezone.now() + dt.timedelta(hours=2))
    # a bot's name has its stricter pattern, but says this rule for such characters
    with pytest.raises(UploadError, match=r"^bot name: use visible characters only.*U\+200B"):
        version_create(owner=people.alice, game="stones", name="bot\u200b", filename="a.py",
                       data=bots.RANDOM.encode())
    with pytest.raises(UploadError, match=r"^bot name 'bot name': use 1-40"):
        version_create(owner=people.alice, game="stones", name="bot name", filename="a.py",
                       data=bots.RANDOM.encode())
    assert not Bot.objects.exists()


# -- the pages' forms ------------------------------------------------------------------------

def _form(**changes: object) -> dict[str, object]:
    when = lambda hours: (timezone.now() + dt.timedelta(hours=hours)).strftime(  # noqa: E731
        "%Y-%m-%dT%H:%M:%S")
    return {"name": "Friday cup", "game": "stones", "format": "swiss", "games": 2,
            "rounds": "", "bracket_reset": "on", "field_limit": 8,
            "registration_closes": when(1), "starts_at": when(2),
            "description": "Bring your best bot.", **changes}


def test_the_tournament_form_refuses_in_the_same_words(client: Client,
                                                       people: People) -> None:
    client.force_login(people.alice)
    for changes in ({"name": "\x1b[31mred\x07"}, {"name": "\u200b"},
                    {"description": "ok\n\u202eevil"}):
        response = client.post("/tournaments/new/", _form(**changes))
        assert response.status_code == 400, changes
        assert RULE in response.content.decode(), changes
    assert client.post("/tournaments/new/", _form(
        description="line one\r\nline two")).status_code == 302
    assert Tournament.objects.get().description == "line one\r\nline two"


def test_sign_up_profile_and_token_forms_refuse_in_the_same_words(client: Client,
                                                                   people: People) -> None:
    password = "Tr1cky-horse-battery"
    for fields in ({"username": "carol\u202e"}, {"username": "carol",
                                                  "display_name": "\x1b[5mCarol"}):
        response = client.post("/account/signup/", {"username": "carol",
                                                    "password1": password,
                                                    "password2": password, **fields})
        assert response.status_code == 200 and RULE in response.content.decode(), fields
    assert not User.objects.filter(username__startswith="carol").exists()
    client.force_login(people.alice)
    response = client.post("/account/profile/", {"display_name": "Alice\u2067"})
    assert RULE in response.content.decode()
    assert client.post("/account/tokens/", {"name": "laptop\x07"}).status_code == 200
    assert not ApiToken.objects.filter(user=people.alice).exists()
