"""Tournaments and challenges through the API, without a worker: making, listing, reading,
registering, withdrawing and cancelling with every refusal (each a JSON ``detail`` saying what
to change); whole tournaments of every format played out by ``competition_world`` and read
back, checked against a tally of their matches and against the OpenAPI schema; challenges
made and refused; ``accepts_challenges``; what anonymous callers see; no log and no server
path in any of it. (Real workers: test_api_competitions_live.py.)"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
import requests
import schemathesis
from django.conf import settings
from django.test import Client
from django.test.utils import override_settings
from django.utils import timezone
from rest_framework.test import APIClient

from league.bots.models import Bot
from league.competitions.formats import Format
from league.competitions.models import (
    Challenge,
    ChallengeGame,
    Entry,
    SeriesGame,
    Tournament,
    TournamentState,
)
from league.competitions.selectors import RULES, SERIES_RULE
from league.ladders.models import Match
from tests.league.api_world import World, make_world
from tests.league.competition_world import (
    bot_field,
    enter,
    make_tournament,
    play_to_the_end,
    start_now,
)
from tests.league.tournament_checks import series_points

HOUR = dt.timedelta(hours=1)


@pytest.fixture
def world(db: None) -> World:
    return make_world()


def _when(hours: float) -> str:
    return (timezone.now() + dt.timedelta(hours=hours)).isoformat()


def new_tournament(**overrides: Any) -> dict[str, Any]:
    """A body for POST /api/tournaments/ that the league accepts."""
    return {"name": "Friday cup", "game": "stones", "format": "swiss", "rounds": 3,
            "registration_closes": _when(1), "starts_at": _when(2), **overrides}


@pytest.fixture
def openapi(world: World) -> schemathesis.BaseSchema:
    schema = Client().get("/api/schema/?format=json").json()
    return schemathesis.openapi.from_dict(schema)


def conforms(openapi: schemathesis.BaseSchema, method: str, template: str, response: Any
             ) -> None:
    """The response is one the schema allows for that operation (raises if not)."""
    request = requests.Request(method, f"http://testserver{response.wsgi_request.path}")
    answer = schemathesis.Response(
        status_code=response.status_code,
        headers={k.lower(): [v] for k, v in response.headers.items()},
        content=response.content, request=request.prepare(), elapsed=0.0, verify=True)
    openapi[template][method].validate_response(answer)


# -- making and listing tournaments ----------------------------------------------------------

def test_a_player_makes_a_tournament_and_everyone_reads_it(world: World,
                                                           openapi: schemathesis.BaseSchema
                                                           ) -> None:
    response = world.client("owner").post("/api/tournaments/", new_tournament(
        description="three rounds, two games a series", options={"size": 7}), format="json")
    assert response.status_code == 201, response.content
    conforms(openapi, "POST", "/api/tournaments/", response)
    made = response.json()
    assert (made["name"], made["format"], made["state"], made["created_by"]) == (
        "Friday cup", "swiss", "registration", "alice")
    assert made["games_per_series"] == 2 and made["rounds"] == 3 and made["entered"] == 0
    assert made["options"]["size"] == 7 and made["limits"]["move_time"] > 0
    assert (made["entries"], made["table"], made["rounds_paired"], made["bracket"]) == (
        [], [], [], None)
    assert made["rules"] == RULES[Format.SWISS] and made["series_rule"] == SERIES_RULE
    anonymous = world.client("anonymous")
    listed = anonymous.get("/api/tournaments/")
    conforms(openapi, "GET", "/api/tournaments/", listed)
    assert [t["id"] for t in listed.json()["results"]] == [made["id"]]
    detail = anonymous.get(f"/api/tournaments/{made['id']}/")
    conforms(openapi, "GET", "/api/tournaments/{tournament_id}/", detail)
    assert detail.json() == made


def test_tournaments_are_listed_newest_first_and_filtered(world: World) -> None:
    staff = world.client("staff")  # staff make any number
    ids = [staff.post("/api/tournaments/", new_tournament(name=f"cup {i}", **extra),
                      format="json").json()["id"]
           for i, extra in enumerate([{}, {"game": "g2048", "format": "scored"},
                                      {"registration_opens": _when(0.5)}])]
    client = world.client("anonymous")

    def listed(query: str = "") -> list[int]:
        return [t["id"] for t in client.get(f"/api/tournaments/{query}").json()["results"]]

    assert listed() == ids[::-1]
    assert listed("?game=g2048") == [ids[1]]
    assert listed("?state=draft") == [ids[2]]
    assert listed("?state=registration&game=stones") == [ids[0]]
    for bad, field in (("?state=over", "state"), ("?game=chess", "game")):
        response = client.get(f"/api/tournaments/{bad}")
        assert response.status_code == 400 and response.json()["detail"].startswith(field)


@pytest.mark.parametrize(("who", "body", "status", "words"), [
    ("anonymous", {}, 401, "/account/tokens/"),
    ("owner", {"format": "knockout"}, 400, "unknown format 'knockout'; choose one of"),
    ("owner", {"game": "chess"}, 400, "unknown game 'chess'; choose one of"),
    ("owner", {"game": "g2048"}, 400, "2048 is a solo game: its tournaments are scored"),
    ("owner", {"format": "scored"}, 400, "a scored tournament is for solo games"),
    ("owner", {"starts_at": _when(-1)}, 400, '"Starts" (starts_at) is before "Registration'),
    ("owner", {"registration_closes": _when(-1), "starts_at": _when(1)}, 400,
     '"Registration closes" (registration_closes) is before registration opens (now)'),
    ("owner", {"registration_closes": _when(3)}, 400, "choose a start at or after it"),
    ("owner", {"starts_at": _when(24 * 90)}, 400, "the start must be within 60 days"),
    ("owner", {"field_limit": 1}, 400, "field_limit:"),
    ("owner", {"field_limit": 65}, 400, "a field of 2-64 entries, not 65"),
    ("owner", {"games_per_series": 10}, 400, "games_per_series:"),
    ("owner", {"official": True}, 400, "only staff make official tournaments"),
    ("owner", {"limits": {"move_time": 9}}, 400, "ask staff for others"),
    ("owner", {"options": {"size": 12}}, 400, "options: "),
    ("owner", {"name": "  "}, 400, "name"),
    ("staff", {"limits": {"move_time": -1}}, 400, "limits: "),
])
def test_a_tournament_that_cannot_be_made_says_why(world: World, who: str,
                                                   body: dict[str, Any], status: int,
                                                   words: str) -> None:
    response = world.client(who).post("/api/tournaments/", new_tournament(**body),
                                      format="json")
    assert response.status_code == status, response.content
    assert words in response.json()["detail"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("fmt", [f.value for f in Format])
def test_a_new_tournament_of_each_format_reads_before_anyone_enters(
        world: World, openapi: schemathesis.BaseSchema, fmt: str) -> None:
    game = "g2048" if fmt == "scored" else "stones"
    t = make_tournament(world.sam, fmt, game=game)
    response = world.client("anonymous").get(f"/api/tournaments/{t.pk}/")
    conforms(openapi, "GET", "/api/tournaments/{tournament_id}/", response)
    page = response.json()
    assert (page["format"], page["entries"], page["table"], page["rounds_paired"]) == (
        fmt, [], [], [])
    assert page["rules"] == RULES[Format(fmt)]
    assert page["bracket"] is None  # drawn from the seeds, given at the start
    # cancelled at the start for too few entries: still no bracket, and the reason
    enter(t, bot_field([world.alice], 1, game=game, prefix="lonely"))
    start_now(t)
    page = world.client("anonymous").get(f"/api/tournaments/{t.pk}/").json()
    assert page["state"] == "cancelled" and page["bracket"] is None
    assert page["note"] == "too few entries at the start (1): a tournament needs two"


@pytest.mark.parametrize(("who", "field", "value"), [("staff", "limits", '{"memory": 1e400}'),
                                                     ("owner", "options", '{"size": [1e400]}')])
def test_a_number_json_spells_but_nobody_can_store_is_refused(world: World, who: str,
                                                              field: str, value: str) -> None:
    body = json.dumps(new_tournament(**{field: "VALUE"})).replace('"VALUE"', value)
    response = world.client(who).post("/api/tournaments/", body,
                                      content_type="application/json")
    assert response.status_code == 400, response.content
    assert "holds a number too large to store" in response.json()["detail"]


def test_staff_make_official_tournaments_with_their_own_limits(world: World) -> None:
    response = world.client("staff").post("/api/tournaments/", new_tournament(
        official=True, limits={"move_time": 0.5}, field_limit=200), format="json")
    assert response.status_code == 201, response.content
    made = response.json()
    assert made["official"] and made["limits"]["move_time"] == 0.5
    assert made["field_limit"] == 200


def test_making_tournaments_has_a_rate(world: World) -> None:
    with override_settings(RATE_LIMITS={**settings.RATE_LIMITS, "tournament": "1/day"}):
        client = world.client("owner")
        assert client.post("/api/tournaments/", new_tournament(),
                           format="json").status_code == 201
        response = client.post("/api/tournaments/", new_tournament(), format="json")
        assert response.status_code == 429
        assert response.json()["detail"].startswith("too many tournaments made; try again in")
        assert int(response["Retry-After"]) > 0
        # a refused request counts nothing: the service checks everything first
        assert world.client("staff").post("/api/tournaments/", new_tournament(),
                                          format="json").status_code == 201


# -- entries ---------------------------------------------------------------------------------

@pytest.fixture
def cup(world: World) -> Tournament:
    """bob's Swiss tournament on stones, open for registration, for four entries."""
    return make_tournament(world.bob, "swiss", rounds=2, field_limit=4)


def register(world: World, who: str, t: Tournament, bot: int) -> Any:
    return world.client(who).post(f"/api/tournaments/{t.pk}/entries/", {"bot": bot},
                                  format="json")


def test_registering_and_withdrawing_a_bot(world: World, cup: Tournament,
                                           openapi: schemathesis.BaseSchema) -> None:
    response = register(world, "owner", cup, world.public_bot.pk)
    assert response.status_code == 201, response.content
    conforms(openapi, "POST", "/api/tournaments/{tournament_id}/entries/", response)
    entry = response.json()
    assert (entry["tournament"], entry["bot_id"], entry["bot"], entry["owner"]) == (
        cup.pk, world.public_bot.pk, "alices-bot", "alice")
    assert entry["version"] is None and entry["seed"] is None and not entry["withdrawn"]
    detail = world.client("anonymous").get(f"/api/tournaments/{cup.pk}/").json()
    assert [e["bot"] for e in detail["entries"]] == ["alices-bot"] and detail["entered"] == 1

    again = register(world, "owner", cup, world.public_bot.pk)
    assert again.status_code == 400 and "alices-bot is registered already" in \
        again.json()["detail"]

    url = f"/api/tournaments/{cup.pk}/entries/{world.public_bot.pk}/"
    assert world.client("anonymous").delete(url).status_code == 401
    other = world.client("other").delete(url)
    assert other.status_code == 403
    assert other.json()["detail"] == "only the owner of 'alices-bot' and staff can withdraw it"
    response = world.client("owner").delete(url)
    assert response.status_code == 200, response.content
    conforms(openapi, "DELETE", "/api/tournaments/{tournament_id}/entries/{bot_id}/",
             response)
    assert response.json()["withdrawn"] is True
    assert world.client("anonymous").get(f"/api/tournaments/{cup.pk}/").json()["entered"] == 0
    gone = world.client("owner").delete(url)
    assert gone.status_code == 400 and gone.json()["detail"] == \
        "alices-bot is not in swiss cup"
    # staff may take any entry out
    assert register(world, "owner", cup, world.public_bot.pk).status_code == 201
    assert world.client("staff").delete(url).json()["withdrawn"] is True


def test_registration_refusals(world: World, cup: Tournament) -> None:
    def refused(who: str, bot: int, status: int, words: str,
                t: Tournament = cup) -> None:
        response = register(world, who, t, bot)
        assert response.status_code == status, response.content
        assert words in response.json()["detail"], response.json()["detail"]

    refused("anonymous", world.public_bot.pk, 401, "sign in")
    refused("other", world.public_bot.pk, 403, "only the owner of 'alices-bot' can register")
    Bot.objects.filter(pk=world.shared_bot.pk).update(retired=True)
    refused("owner", world.shared_bot.pk, 400, "open-bot is retired")
    refused("other", world.shared_bot.pk, 403, "only the owner of 'open-bot' can register")
    refused("owner", 999999, 400, "bot: no bot 999999")
    response = world.client("owner").post("/api/tournaments/999999/entries/",
                                          {"bot": world.public_bot.pk}, format="json")
    assert response.status_code == 404 and "no tournament 999999" in response.json()["detail"]
    solo = bot_field([world.alice], 1, game="g2048", prefix="slider")[0]
    refused("owner", solo.bot_id, 400, "plays g2048, not stones")
    retired = bot_field([world.alice], 1, prefix="old")[0]
    Bot.objects.filter(pk=retired.bot_id).update(retired=True)
    refused("owner", retired.bot_id, 400, "old0 is retired")

    # a full field
    enter(cup, bot_field([world.bob, world.sam], 4))
    refused("owner", world.public_bot.pk, 400, "the field is full (4 entries)")

    # registration not open yet, then closed
    later = make_tournament(world.bob, "round_robin",
                            registration_opens=timezone.now() + dt.timedelta(minutes=30))
    assert later.state == TournamentState.DRAFT
    refused("owner", world.public_bot.pk, 400, "registration for round_robin cup is not open",
            later)
    Tournament.objects.filter(pk=later.pk).update(
        state=TournamentState.REGISTRATION, registration_opens=timezone.now() - HOUR,
        registration_closes=timezone.now() - dt.timedelta(minutes=1))
    refused("owner", world.public_bot.pk, 400, "is not open (it runs from", later)


def test_withdrawing_after_the_start_is_refused(world: World, cup: Tournament) -> None:
    versions = bot_field([world.alice], 3)
    enter(cup, versions)
    start_now(cup)
    assert cup.state == TournamentState.RUNNING
    response = world.client("owner").delete(
        f"/api/tournaments/{cup.pk}/entries/{versions[0].bot_id}/")
    assert response.status_code == 400
    assert response.json()["detail"] == \
        "swiss cup has started; entries can no longer withdraw"
    response = world.client("owner").delete(
        f"/api/tournaments/{cup.pk}/entries/{world.shared_bot.pk}/")
    assert response.status_code == 400 and "open-bot is not in swiss cup" in \
        response.json()["detail"]
    assert world.client("other").delete(
        f"/api/tournaments/{cup.pk}/entries/{world.shared_bot.pk}/").status_code == 403


# -- cancelling ------------------------------------------------------------------------------

def test_the_creator_or_staff_cancel_a_tournament(world: World, cup: Tournament) -> None:
    url = f"/api/tournaments/{cup.pk}/cancel/"
    assert world.client("anonymous").post(url).status_code == 401
    response = world.client("owner").post(url, {"reason": "mine now"}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"] == "only the creator of 'swiss cup' and staff can cancel it"
    response = world.client("other").post(url, {"reason": "rain"}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["state"], response.json()["note"]) == ("cancelled", "rain")
    again = world.client("staff").post(url)
    assert again.status_code == 400 and again.json()["detail"] == "swiss cup is cancelled already"
    # staff cancel anyone's, and their games not played yet are cancelled with it
    running = make_tournament(world.alice, "round_robin")
    enter(running, bot_field([world.alice, world.bob], 4))
    start_now(running)
    from league.competitions.progress import release

    assert release() > 0
    response = world.client("staff").post(f"/api/tournaments/{running.pk}/cancel/")
    assert response.status_code == 200 and response.json()["note"] == "cancelled by sam"
    statuses = set(Match.objects.filter(series_game__series__tournament=running)
                   .values_list("status", flat=True))
    assert statuses == {"cancelled"}


# -- whole tournaments, read back -------------------------------------------------------------

@pytest.mark.parametrize(("fmt", "n", "options"), [
    ("round_robin", 5, {}),
    ("double_round_robin", 3, {"games_per_series": 1}),
    ("swiss", 7, {"rounds": 3}),
    ("single_elimination", 6, {"third_place": True, "games_per_series": 1}),
    ("double_elimination", 5, {"games_per_series": 2}),
])
def test_a_tournament_played_to_its_end_reads_back_as_its_matches_say(
        world: World, openapi: schemathesis.BaseSchema, fmt: str, n: int,
        options: dict[str, Any]) -> None:
    t = make_tournament(world.alice, fmt, field_limit=n, **options)
    enter(t, bot_field([world.alice, world.bob], n))
    t = play_to_the_end(start_now(t))
    assert t.state == TournamentState.FINISHED, t.note
    response = world.client("anonymous").get(f"/api/tournaments/{t.pk}/")
    conforms(openapi, "GET", "/api/tournaments/{tournament_id}/", response)
    page = response.json()
    assert page["state"] == "finished" and page["finished_at"]

    # the table: every entry once, ranked 1.., points as the matches tally them
    entries = {e["id"]: e for e in page["entries"]}
    assert sorted(entries) == sorted(Entry.objects.filter(tournament=t).values_list(
        "pk", flat=True))
    assert all(e["version"] == 1 and e["seed"] for e in entries.values())
    table = page["table"]
    assert [row["rank"] for row in table] == sorted(row["rank"] for row in table)
    assert table[0]["rank"] == 1 and len(table) == n
    if "elimination" not in fmt:
        assert {row["entry"]["id"]: row["points"] for row in table} == dict(series_points(t))
        assert [row["points"] for row in table] == sorted(
            (row["points"] for row in table), reverse=True)
        assert all(row["wins"] + row["draws"] + row["losses"] == row["played"]
                   for row in table)

    # every game of every series, with its match and result
    games = [g for r in page["rounds_paired"] for s in r["series"] for g in s["games"]]
    matches = dict(SeriesGame.objects.filter(series__tournament=t).values_list("match_id",
                                                                               "index"))
    assert sorted(g["match"] for g in games) == sorted(matches)
    assert {g["status"] for g in games} == {"finished"}
    assert {g["result"] for g in games} <= {"1-0", "0-1", "½-½"}
    for r in page["rounds_paired"]:
        for s in r["series"]:
            assert s["done"] and s["round"] == r["number"]
            if s["kind"] == "series":
                assert s["winner"] in (s["first"]["id"], s["second"]["id"], None)
                assert s["decided_by"] and ":" in s["score"]
    if "elimination" in fmt:
        sections = [section["title"] for section in page["bracket"]["sections"]]
        assert sections[0] == "Winners' bracket"
        assert ("Losers' bracket" in sections) == (fmt == "double_elimination")
        champion = table[0]["entry"]["id"]
        by_title = {section["title"]: section for section in page["bracket"]["sections"]}
        assert ("Third place" in by_title) == (fmt == "single_elimination")
        last = by_title.get("Grand final") or by_title["Winners' bracket"]
        # the last final played (a grand final reset is not played when the winners'
        # bracket winner takes the first)
        final = [node for column in last["columns"] for node in column if node["played"]][-1]
        assert final["decided"] and champion in [
            side["entry"]["id"] for side in final["sides"] if side["won"]]
    else:
        assert page["bracket"] is None


def test_games_a_disabled_bot_never_played_read_as_lost_not_waiting(world: World,
                                                                     settings: object) -> None:
    t = make_tournament(world.alice, "round_robin", games_per_series=1, field_limit=4)
    versions = bot_field([world.alice, world.bob], 4)
    enter(t, versions)
    start_now(t)
    from league.ladders.services import bot_disable

    bot_disable(bot=versions[3].bot, reason="misbehaves")
    t = play_to_the_end(t)
    page = world.client("anonymous").get(f"/api/tournaments/{t.pk}/").json()
    gone = next(e["id"] for e in page["entries"] if e["bot_id"] == versions[3].bot_id)
    for s in (s for r in page["rounds_paired"] for s in r["series"]
              if gone in (s["first"]["id"], (s["second"] or {}).get("id"))):
        (game,) = s["games"]
        assert (game["status"], game["match"]) == ("not played", None)
        assert game["result"] == ("0-1" if game["first"] == gone else "1-0")
        assert s["done"] and s["winner"] != gone
    row = next(r for r in page["table"] if r["entry"]["id"] == gone)
    assert (row["losses"], row["points"]) == (3, 0)

    # the competitions' share taken by another challenge: this one's games wait unreleased
    settings.LEAGUE_COMPETITION_OPEN = 1
    challenge(world, opponent=versions[2].bot_id, games=1)
    made = challenge(world, opponent=versions[1].bot_id, games=2).json()
    assert [g["match"] for g in made["results"]] == [None, None]
    bot_disable(bot=versions[1].bot, reason="misbehaves")
    from league.competitions.progress import challenge_advance

    challenge_advance(challenge_id=made["id"])
    done = world.client("anonymous").get(f"/api/challenges/{made['id']}/").json()
    assert done["state"] == "finished"
    assert [(g["status"], g["result"]) for g in done["results"]] == [("not played",) * 2] * 2


def test_a_scored_tournament_reads_back_with_means_and_intervals(
        world: World, openapi: schemathesis.BaseSchema) -> None:
    t = make_tournament(world.alice, "scored", game="g2048", games_per_series=3,
                        field_limit=3)
    enter(t, bot_field([world.alice], 3, game="g2048", prefix="slider"))
    t = play_to_the_end(start_now(t))
    response = world.client("anonymous").get(f"/api/tournaments/{t.pk}/")
    conforms(openapi, "GET", "/api/tournaments/{tournament_id}/", response)
    page = response.json()
    table = page["table"]
    for row in table:
        scores = [m.participants.get().score for m in Match.objects.filter(
            series_game__first_id=row["entry"]["id"])]
        assert row["points"] == pytest.approx(sum(scores) / len(scores))
        assert row["interval"] is not None
    series = page["rounds_paired"][0]["series"]
    assert {s["kind"] for s in series} == {"solo"}
    assert all(s["second"] is None and s["score"].startswith("mean ") for s in series)
    assert all(g["second"] is None for s in series for g in s["games"])


def test_tournaments_and_challenges_read_in_a_fixed_number_of_queries(
        world: World, django_assert_max_num_queries: Any) -> None:
    small = make_tournament(world.alice, "double_elimination", field_limit=4)
    enter(small, bot_field([world.alice], 4, prefix="small"))
    play_to_the_end(start_now(small))
    big = make_tournament(world.alice, "double_elimination", field_limit=12)
    enter(big, bot_field([world.bob], 12, prefix="big"))
    play_to_the_end(start_now(big))
    client = world.client("anonymous")
    with django_assert_max_num_queries(12) as few:
        client.get(f"/api/tournaments/{small.pk}/")
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(f"/api/tournaments/{big.pk}/").status_code == 200
    with django_assert_max_num_queries(6):
        assert client.get("/api/tournaments/").status_code == 200

    for _ in range(15):
        made = challenge(world, opponent=world.bobs_bot.pk, games=2).json()
    from league.competitions.progress import release

    release()
    with django_assert_max_num_queries(6):
        assert len(client.get("/api/challenges/").json()["results"]) == 15
    with django_assert_max_num_queries(6):
        assert len(client.get(f"/api/challenges/{made['id']}/").json()["results"]) == 2


# -- challenges ------------------------------------------------------------------------------

def challenge(world: World, who: str = "owner", **body: Any) -> Any:
    return world.client(who).post("/api/challenges/", {"bot": world.public_bot.pk, **body},
                                  format="json")


def test_a_challenge_is_made_and_read_by_anyone(world: World,
                                                openapi: schemathesis.BaseSchema) -> None:
    response = challenge(world, opponent=world.bobs_bot.pk, games=3)
    assert response.status_code == 201, response.content
    conforms(openapi, "POST", "/api/challenges/", response)
    made = response.json()
    assert (made["challenger"], made["bot"], made["version"], made["opponent"],
            made["opponent_owner"], made["opponent_version"], made["builtin"]) == (
        "alice", "alices-bot", 1, "bobs-bot", "bob", 1, None)
    assert made["games"] == 3 and made["state"] == "playing" and made["game"] == "stones"
    # queued at once: each game has its match when the answer comes
    assert [(g["index"], g["challenger_seat"], g["result"]) for g in made["results"]] == [
        (0, 0, "queued"), (1, 1, "queued"), (2, 0, "queued")]
    assert all(Match.objects.get(pk=g["match"]).status == "queued" for g in made["results"])
    assert (made["won"], made["lost"], made["drawn"]) == (0, 0, 0)
    builtin = challenge(world, builtin="random", games=1).json()
    assert builtin["opponent"] is None and builtin["builtin"] == "random"

    anonymous = world.client("anonymous")
    detail = anonymous.get(f"/api/challenges/{made['id']}/")
    conforms(openapi, "GET", "/api/challenges/{challenge_id}/", detail)
    assert detail.json() == made
    listed = anonymous.get("/api/challenges/")
    conforms(openapi, "GET", "/api/challenges/", listed)
    assert [c["id"] for c in listed.json()["results"]] == [builtin["id"], made["id"]]
    assert [c["id"] for c in anonymous.get(
        f"/api/challenges/?bot={world.bobs_bot.pk}").json()["results"]] == [made["id"]]
    assert anonymous.get(f"/api/challenges/?bot={world.shared_bot.pk}").json()[
        "results"] == []
    assert anonymous.get("/api/challenges/?bot=999999").status_code == 404
    assert anonymous.get("/api/challenges/?bot=x").status_code == 400
    missing = anonymous.get("/api/challenges/999999/")
    assert missing.status_code == 404 and "no challenge 999999" in missing.json()["detail"]


def test_a_challenge_is_an_even_number_of_games_unless_asked_otherwise(world: World) -> None:
    """Each side has each seat as often by default (on a board the seat decides, an odd series
    goes to whoever moved first more often); an odd count asked for is still played."""
    made = challenge(world, builtin="random").json()
    assert made["games"] == 2
    assert [g["challenger_seat"] for g in made["results"]] == [0, 1]
    assert challenge(world, builtin="random", games=3).json()["games"] == 3


def test_a_challenge_reads_its_results_as_they_come(world: World) -> None:
    made = challenge(world, opponent=world.bobs_bot.pk, games=3).json()
    from league.competitions.progress import challenge_advance, release

    release()
    rows = list(ChallengeGame.objects.filter(challenge_id=made["id"]).select_related("match")
                .order_by("index"))
    alice = world.active
    # game 0: alice (seat 0) wins; game 1: alice (seat 1) loses; game 2 still running
    for row, outcomes in zip(rows[:2], [("win", "loss"), ("win", "loss")], strict=True):
        Match.objects.filter(pk=row.match_id).update(status="finished")
        for p, outcome in zip(row.match.participants.order_by("seat"), outcomes, strict=True):
            p.outcome = outcome
            p.save()
    Match.objects.filter(pk=rows[2].match_id).update(status="running")
    challenge_advance(challenge_id=made["id"])
    page = world.client("anonymous").get(f"/api/challenges/{made['id']}/").json()
    assert [g["result"] for g in page["results"]] == ["won", "lost", "running"]
    assert [g["status"] for g in page["results"]] == ["finished", "finished", "running"]
    assert (page["won"], page["lost"], page["drawn"], page["state"]) == (1, 1, 0, "playing")
    seats = [Match.objects.get(pk=g["match"]).participants.get(version=alice).seat
             for g in page["results"]]
    assert seats == [g["challenger_seat"] for g in page["results"]]


@pytest.mark.parametrize(("who", "body", "status", "words"), [
    ("anonymous", {"opponent": "bobs"}, 401, "sign in"),
    ("other", {"opponent": "bobs"}, 403, "only the owner of 'alices-bot' can challenge with"),
    ("owner", {}, 400, "name one opponent: a bot, or a built-in player"),
    ("owner", {"opponent": "bobs", "builtin": "random"}, 400, "name one opponent"),
    ("owner", {"opponent": "bobs", "games": 11}, 400, "games:"),
    ("owner", {"opponent": "public"}, 400, "a bot cannot challenge itself"),
    ("owner", {"builtin": "grandmaster"}, 400, "no built-in player 'grandmaster' for stones"),
    ("other", {"bot": "bobs", "opponent": "retired"}, 400, "open-bot has no version that "
                                                             "plays"),
    ("owner", {"opponent": 999999}, 400, "opponent: no bot 999999"),
    ("owner", {"opponent": "solo"}, 400, "slider0 plays g2048, not stones"),
    ("owner", {"bot": "solo", "builtin": "random"}, 400, "is a solo game: there is nobody"),
    ("owner", {"opponent": "shy"}, 400, "bobs-bot's owner does not take challenges to it"),
])
def test_a_challenge_that_cannot_be_made_says_why(world: World, who: str,
                                                  body: dict[str, Any], status: int,
                                                  words: str) -> None:
    solo = bot_field([world.alice], 1, game="g2048", prefix="slider")[0].bot_id
    if body.get("opponent") == "shy":
        Bot.objects.filter(pk=world.bobs_bot.pk).update(accepts_challenges=False)
    if body.get("opponent") == "retired":
        Bot.objects.filter(pk=world.shared_bot.pk).update(retired=True)
    ids = {"bobs": world.bobs_bot.pk, "shy": world.bobs_bot.pk, "public": world.public_bot.pk,
           "retired": world.shared_bot.pk, "solo": solo}
    body = {k: ids.get(v, v) if isinstance(v, str) and k != "builtin" else v
            for k, v in body.items()}
    response = challenge(world, who, **body)
    assert response.status_code == status, response.content
    assert words in response.json()["detail"], response.json()["detail"]
    assert not Challenge.objects.exists()


def test_challenge_games_have_an_hourly_rate(world: World) -> None:
    with override_settings(RATE_LIMITS={**settings.RATE_LIMITS, "challenge": "5/hour"}):
        assert challenge(world, builtin="random", games=3).status_code == 201
        response = challenge(world, builtin="random", games=3)
        assert response.status_code == 429
        assert response.json()["detail"].startswith(
            "too many challenge games asked for; try again in")
        assert int(response["Retry-After"]) > 0
        assert challenge(world, "other", bot=world.bobs_bot.pk, builtin="random",
                         games=3).status_code == 201, "each user has their own"


def test_the_owner_turns_challenges_to_a_bot_off_and_on(world: World) -> None:
    url = f"/api/bots/{world.bobs_bot.pk}/"
    assert world.client("anonymous").get(url).json()["accepts_challenges"] is True
    for who, status in (("anonymous", 401), ("owner", 403), ("staff", 403)):
        assert world.client(who).patch(url, {"accepts_challenges": False},
                                       format="json").status_code == status
    response = world.client("other").patch(url, {"accepts_challenges": False}, format="json")
    assert response.status_code == 200 and response.json()["accepts_challenges"] is False
    assert response.json()["source_public"] is False
    refused = challenge(world, opponent=world.bobs_bot.pk)
    assert refused.status_code == 400 and "does not take challenges" in \
        refused.json()["detail"]
    # its owner still may, with another of their bots
    other_bot = bot_field([world.bob], 1, prefix="bobs-second")[0].bot_id
    assert challenge(world, "other", bot=other_bot, opponent=world.bobs_bot.pk
                     ).status_code == 201
    empty = world.client("other").patch(url, {}, format="json")
    assert empty.status_code == 400 and "send source_public, accepts_challenges, or both" in \
        empty.json()["detail"]
    assert world.client("other").patch(url, {"accepts_challenges": True},
                                       format="json").json()["accepts_challenges"] is True
    assert challenge(world, opponent=world.bobs_bot.pk).status_code == 201


# -- nothing private -------------------------------------------------------------------------

def test_no_log_or_server_path_in_any_competition_answer(world: World) -> None:
    t = make_tournament(world.alice, "round_robin", field_limit=3)
    versions = bot_field([world.alice, world.bob], 3)
    enter(t, versions)
    start_now(t)
    from league.competitions.progress import release

    release()
    Match.objects.filter(series_game__series__tournament=t).update(
        detail=f"failed at {settings.DATA_DIR}/versions/1")
    from league.ladders.models import Participant

    Participant.objects.filter(match__series_game__series__tournament=t).update(
        log="SECRET-TOURNAMENT-LOG")
    made = challenge(world, opponent=world.bobs_bot.pk).json()
    release()
    Participant.objects.filter(match__challenge_game__challenge_id=made["id"]).update(
        log="SECRET-CHALLENGE-LOG")
    urls = ["/api/tournaments/", f"/api/tournaments/{t.pk}/", "/api/challenges/",
            f"/api/challenges/{made['id']}/", f"/api/challenges/?bot={world.bobs_bot.pk}"]
    for who in ("anonymous", "owner", "other", "staff"):
        for url in urls:
            text = world.client(who).get(url).content.decode()
            assert "SECRET" not in text and str(settings.DATA_DIR) not in text, (who, url)
            assert str(settings.BASE_DIR) not in text, (who, url)


def test_anonymous_callers_read_everything_and_write_nothing(world: World,
                                                             cup: Tournament) -> None:
    made = challenge(world, builtin="random", games=1).json()
    anonymous = world.client("anonymous")
    for url in ("/api/tournaments/", f"/api/tournaments/{cup.pk}/", "/api/challenges/",
                f"/api/challenges/{made['id']}/"):
        assert anonymous.get(url).status_code == 200, url
    writes = [("post", "/api/tournaments/", new_tournament()),
              ("post", f"/api/tournaments/{cup.pk}/entries/", {"bot": world.public_bot.pk}),
              ("delete", f"/api/tournaments/{cup.pk}/entries/{world.public_bot.pk}/", None),
              ("post", f"/api/tournaments/{cup.pk}/cancel/", {}),
              ("post", "/api/challenges/", {"bot": world.public_bot.pk, "builtin": "random"}),
              ("patch", f"/api/bots/{world.public_bot.pk}/", {"accepts_challenges": False})]
    for method, url, body in writes:
        response = getattr(anonymous, method)(url, body, format="json")
        assert response.status_code == 401, (method, url)
        assert "Bearer" in response.json()["detail"]
    session = APIClient()  # a signed-in session works like a token
    session.force_login(world.alice)
    assert session.post(f"/api/tournaments/{cup.pk}/entries/",
                        {"bot": world.public_bot.pk}, format="json").status_code == 201
