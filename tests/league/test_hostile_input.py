"""No input answers 500. An outside probe found these, each now a 404 or a 400 that says
what was wrong: ids past the database's integers in an address (``league.ids``'s ``<id:…>``
converter), digits of other scripts where an id is expected (``"²"`` failed in ``int()``,
``"٣"`` was taken as bot 3), and JSON nested ten thousand deep (``RecursionError`` inside
``json``; ``league.nesting`` caps it first). Then a bounded fuzz of every page form with
hostile values, and schemathesis's negative mode (requests that break the API's schema) on
every operation of the API."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from html import unescape

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.test import Client
from django.test.utils import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode

from league.competitions.models import Entry, Tournament
from league.ids import ID_MAX, parse_id
from league.ladders.models import Match, MatchKind
from league.ladders.play.services import exhibition_create
from league.nesting import MAX_DEPTH
from tests.league.api_world import World, make_world
from tests.league.conftest import People
from tests.league.pages import active
from tests.league.test_api_schema import api_schema as api_schema  # the fixture
from tests.league.tournament_world import open_tournament

HUGE = "99999999999999999999"  # past 2**63 - 1
VERY_HUGE = "9" * 5000
DEEP = "[" * 10_000 + "]" * 10_000


@pytest.mark.parametrize(("text", "expected"), [
    ("12", 12), (" 12 ", 12), (str(ID_MAX), ID_MAX), (str(ID_MAX + 1), None), (HUGE, None),
    (VERY_HUGE, None), ("0", None), ("-3", None), ("+3", None), ("²", None), ("٣", None),
    ("１２", None), ("1_000", None), ("", None), ("3.0", None), ("0x1f", None),
])
def test_an_id_is_ascii_digits_from_1_to_the_largest_bigint(text: str,
                                                            expected: int | None) -> None:
    assert parse_id(text) == expected


@pytest.mark.parametrize("number", [HUGE, VERY_HUGE, str(ID_MAX + 1), "0", "٣", "²"])
@pytest.mark.parametrize("path", [
    "/play/{}/", "/api/play/{}/", "/matches/{}/", "/bots/{}/", "/tournaments/{}/",
    "/challenges/{}/status.json", "/versions/{}/source/", "/api/bots/{}/",
    "/api/matches/{}/frames/", "/api/tournaments/{}/entries/{}/", "/api/challenges/{}/",
])
def test_an_id_out_of_range_in_an_address_is_not_found(people: People, path: str,
                                                       number: str) -> None:
    client = Client()
    client.force_login(people.alice)
    response = client.get(path.format(number, number))
    assert response.status_code == 404, (path, response.status_code)
    if path.startswith("/api/"):
        assert response.json()["detail"]
    posted = client.post(path.format(number, number), {"move": "a1"})
    assert posted.status_code in (404, 405), (path, posted.status_code)


def test_the_largest_id_still_reaches_its_view(people: People) -> None:
    client = Client()
    client.force_login(people.alice)
    for path in ("/play/{}/", "/api/play/{}/", "/api/bots/{}/"):
        response = client.get(path.format(ID_MAX))
        assert response.status_code in (302, 404), path  # the view's own answer
    assert Client().post(f"/api/play/{ID_MAX}/move/", {"move": "a1"},
                         content_type="application/json").status_code in (401, 403, 404)


# -- ids in forms ----------------------------------------------------------------------------

def _message(client: Client, response) -> str:
    assert response.status_code == 302, response.status_code
    return client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("opponent", ["²", "{}", VERY_HUGE[:40], HUGE, "0"])
def test_the_play_form_takes_an_opponent_id_in_ascii_digits_only(
        client: Client, people: People, opponent: str) -> None:
    bot = active(people.bob, "opponent")
    client.force_login(people.alice)
    # "{}" is the bot's own id in Arabic-Indic digits: once taken as that bot
    given = opponent.format("".join(chr(0x660 + int(d)) for d in str(bot.bot_id)))
    response = client.post("/play/", {"opponent": given, "game": "stones"})
    assert "The opponent is a bot's id or builtin:NAME" in unescape(_message(client, response))
    assert not Match.objects.filter(kind=MatchKind.EXHIBITION).exists()


@pytest.mark.parametrize("bot", ["²", "٣", VERY_HUGE, HUGE, "-1", ""])
def test_withdrawing_takes_a_bot_id_in_ascii_digits_only(client: Client, people: People,
                                                         bot: str) -> None:
    mine = active(people.alice, "entrant")
    t = open_tournament(people.alice, [mine])
    client.force_login(people.alice)
    response = client.post(f"/tournaments/{t.pk}/withdraw/", {"bot": bot})
    assert response.status_code == 400
    assert "digits 0-9" in response.content.decode()
    assert not Entry.objects.get(tournament=t).withdrawn


@pytest.mark.parametrize("bot", ["{}", "²", HUGE])
def test_entering_takes_a_bot_id_in_ascii_digits_only(client: Client, people: People,
                                                      bot: str) -> None:
    mine = active(people.alice, "entrant")
    t = open_tournament(people.bob, [])
    client.force_login(people.alice)
    given = bot.format("".join(chr(0x660 + int(d)) for d in str(mine.bot_id)))
    response = client.post(f"/tournaments/{t.pk}/enter/", {"bot": given})
    assert response.status_code == 400
    assert not Entry.objects.filter(tournament=t).exists()


def test_the_api_takes_ids_in_ascii_digits_only(world: World) -> None:
    owner = world.client("owner")
    theirs = "".join(chr(0x660 + int(d)) for d in str(world.bobs_bot.pk))  # Arabic-Indic
    mine = "".join(chr(0x660 + int(d)) for d in str(world.public_bot.pk))
    for query in (f"/api/matches/?bot={theirs}", f"/api/challenges/?bot={theirs}",
                  "/api/matches/?bot=²", f"/api/matches/?bot={HUGE}"):
        response = owner.get(query)
        assert response.status_code == 400, query
        assert response.json()["detail"].startswith("bot:"), query
    for body in ({"bot": mine, "builtin": "random"}, {"bot": "²", "builtin": "random"},
                 {"bot": str(world.public_bot.pk), "opponent": theirs}):
        response = owner.post("/api/challenges/", body, format="json")
        assert response.status_code == 400, body
    t = open_tournament(world.bob, [])
    entered = owner.post(f"/api/tournaments/{t.pk}/entries/", {"bot": mine}, format="json")
    assert entered.status_code == 400 and not Entry.objects.exists()


# -- JSON nested too deep --------------------------------------------------------------------

@pytest.fixture
def world(db: None) -> Iterator[World]:
    rates = {"anon": "100000/min", "user": "100000/min", "upload": "100000/hour",
             "viewer": "100000/min", "play-api": "100000/min"}
    with override_settings(RATE_LIMITS={**django_settings.RATE_LIMITS, **rates}):
        yield make_world()


@pytest.mark.parametrize("body", [DEEP, "{\"a\":" * 10_000 + "1" + "}" * 10_000,
                                  "[" * 10_000, "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)])
def test_json_nested_too_deep_is_refused_with_what_was_wrong(world: World, body: str) -> None:
    owner = world.client("owner")
    match = exhibition_create(user=world.alice, game="stones", builtin="random")
    for path in ("/api/tournaments/", f"/api/play/{match.pk}/move/",
                 f"/api/bots/{world.public_bot.pk}/"):
        method = owner.patch if path.startswith("/api/bots/") else owner.post
        response = method(path, body, content_type="application/json")
        assert response.status_code == 400, (path, response.content[:200])
        assert response.json()["detail"] == (
            f"the JSON is nested deeper than {MAX_DEPTH} arrays and objects; send a flatter "
            "body"), path
    assert not Tournament.objects.exists()


def test_json_as_deep_as_allowed_is_parsed_as_before(world: World) -> None:
    body = '{"name": "x", "options": ' + '{"a": ' * (MAX_DEPTH - 1) + "1" + "}" * MAX_DEPTH
    response = world.client("owner").post("/api/tournaments/", body,
                                          content_type="application/json")
    assert response.status_code == 400
    assert "nested" not in response.json()["detail"]  # the serializer's own refusal


def test_the_staff_limits_field_refuses_deep_json_as_a_form_error(client: Client,
                                                                  people: People) -> None:
    client.force_login(people.sam)
    response = client.post("/tournaments/new/", {"name": "cup", "limits": DEEP})
    assert response.status_code == 400
    assert f"nested deeper than {MAX_DEPTH}" in response.content.decode()


# -- a fuzz of the page forms ----------------------------------------------------------------

HOSTILE_VALUES = ["", " ", HUGE, VERY_HUGE, "-1", "0", "²", "٣", "１", "1e400", "NaN",
                  "x" * 10_000, "\x00\x1b[31m\u202e\u200b", DEEP[:20_000], '{"a": [1, {}]}',
                  "builtin:" + "x" * 500, "2026-13-45T25:61:00", "on"]


ALONE = [VERY_HUGE, "²", "\x00\x1b[31m\u202e\u200b", DEEP[:20_000]]
"""The values also sent in one field at a time, the others left out."""


def _fuzz_form(client: Client, path: str, fields: list[str], files: bool = False) -> None:
    """POST each hostile value in every field at once, and the worst of them in each field
    alone: about 20 + 4 per field requests a form."""
    failures = []
    batches = [dict.fromkeys(fields, value) for value in HOSTILE_VALUES]
    batches += [{name: value} for name in fields for value in ALONE]
    for data in batches:
        if files:
            data = {**data, "file": ""}
        response = client.post(path, data)
        if response.status_code >= 500:
            failures.append((path, list(data), next(iter(data.values()))[:30],
                             response.status_code))
    assert not failures, failures


def test_no_page_form_answers_5xx_to_hostile_values(people: People) -> None:
    mine = active(people.alice, "mine")
    theirs = active(people.bob, "theirs")
    t = open_tournament(people.alice, [mine])
    anonymous = Client()
    _fuzz_form(anonymous, "/account/login/", ["username", "password"])
    _fuzz_form(anonymous, "/account/signup/", ["username", "password1", "password2",
                                               "display_name"])
    client = Client()
    client.force_login(people.alice)
    _fuzz_form(client, "/play/", ["opponent", "game", "seat", "seed"])
    _fuzz_form(client, f"/tournaments/{t.pk}/enter/", ["bot"])
    _fuzz_form(client, f"/tournaments/{t.pk}/withdraw/", ["bot"])
    _fuzz_form(client, f"/bots/{theirs.bot_id}/challenge/", ["bot", "builtin", "games"])
    _fuzz_form(client, "/ladders/stones/challenge/", ["bot", "builtin", "games"])
    _fuzz_form(client, "/my/bots/", ["game", "name"], files=True)
    _fuzz_form(client, "/account/profile/", ["display_name"])
    _fuzz_form(client, "/account/tokens/", ["name"])
    staff = Client()
    staff.force_login(people.sam)  # the tournament form's every field, moderation
    _fuzz_form(staff, "/tournaments/new/", [
        "name", "game", "format", "games", "rounds", "field_limit", "registration_closes",
        "starts_at", "description", "official", "limits"])
    _fuzz_form(staff, f"/bots/{mine.bot_id}/moderate/", ["action", "reason"])
    _fuzz_form(client, f"/tournaments/{t.pk}/cancel/", ["reason"])  # the last: it cancels


# -- the API's schema, broken on purpose -----------------------------------------------------

def test_schemathesis_negative_requests_find_no_server_error(
        api_schema: schemathesis.BaseSchema, world: World) -> None:
    """Requests that break the schema (wrong types, out-of-range numbers, missing fields,
    bodies of the wrong shape) to every operation, with a token: a few per operation, so
    the run stays within seconds; test_api_schema.py sends the positive ones."""
    headers = {"Authorization": f"Bearer {world.tokens['owner']}"}
    operations = [result.ok() for result in api_schema.get_all_operations()]
    writes = [op for op in operations if op.method.upper() in ("POST", "PUT", "PATCH",
                                                               "DELETE")]
    assert len(writes) >= 6 and any("/play/" in op.path for op in writes)
    broken = 0
    for operation in itertools.chain(writes, (op for op in operations if op not in writes)):
        @given(case=operation.as_strategy(generation_mode=GenerationMode.NEGATIVE))
        @settings(max_examples=6, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def check(case: schemathesis.Case) -> None:
            case.call_and_validate(checks=[not_a_server_error], headers=headers)

        try:
            check()
        except Unsatisfiable:  # nothing in it to break (no parameter, no body)
            continue
        broken += 1
    assert broken >= len(writes)
