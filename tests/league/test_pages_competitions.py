"""The competitions' pages through Django's test client on real PostgreSQL: who sees what,
the forms and their refusals, a finished tournament's table and bracket, the JSON a page polls,
challenges from a bot's page and a ladder's, and user text shown as text."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone

from league.bots.models import Bot
from league.competitions.models import Challenge, Entry, Tournament
from league.competitions.progress import competitions_tick
from league.competitions.selectors import RULES, SERIES_RULE, tournament_table
from league.competitions.services import challenge_create
from tests.league import bots
from tests.league.conftest import People
from tests.league.pages import EVIL, active
from tests.league.test_pages_escaping import assert_inert
from tests.league.test_pages_permissions import LOGIN, ROLES, client_for
from tests.league.tournament_world import (
    field,
    finish_open,
    open_tournament,
    play_rounds,
    start,
)


def text(response) -> str:
    """The page's visible text, tags dropped, entities read and spaces squeezed."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ",
                                                     response.content.decode())))


def when(**delta: float) -> str:
    """A time as the form's datetime-local input sends it (UTC)."""
    return (timezone.now() + dt.timedelta(**delta)).strftime("%Y-%m-%dT%H:%M:%S")


def form(**changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": "Friday cup", "game": "stones", "format": "swiss", "games": 2, "rounds": "",
        "bracket_reset": "on", "field_limit": 8, "registration_closes": when(hours=1),
        "starts_at": when(hours=2), "description": "Bring your best bot."}
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def world(people: People) -> dict[str, object]:
    """An open tournament, a running one, finished Swiss and double elimination, and a
    challenge: alice's and bob's bots."""
    alice = field(people.alice, 3)
    bob = field(people.bob, 3, prefix="b")
    finished = play_rounds(start(open_tournament(people.alice, alice + bob, "swiss",
                                                 name="Old Swiss", rounds=3)))
    double = play_rounds(start(open_tournament(people.sam, alice + bob[:2],
                                               "double_elimination", name="Old double",
                                               games_per_series=1)))
    challenge = challenge_create(user=people.bob, bot=bob[0].bot, opponent=alice[0].bot,
                                 games_count=2)
    competitions_tick()  # released
    finish_open()
    competitions_tick()  # finished
    running = start(open_tournament(people.bob, alice + bob, "round_robin", name="Running"))
    upcoming = open_tournament(people.alice, alice[:2] + bob[:1], "single_elimination",
                               name="Upcoming")
    return {"upcoming": upcoming, "running": running, "finished": finished, "double": double,
            "challenge": challenge, "alice_bot": alice[0].bot, "bob_bot": bob[0].bot,
            "bob_spare": bob[2].bot}


PAGES: list[tuple[str, Callable[[dict], str], dict[str, int | str]]] = [
    ("list", lambda w: "/tournaments/", {}),
    ("new", lambda w: "/tournaments/new/", {"anonymous": LOGIN}),
    ("upcoming", lambda w: f"/tournaments/{w['upcoming'].pk}/", {}),
    ("running", lambda w: f"/tournaments/{w['running'].pk}/", {}),
    ("finished", lambda w: f"/tournaments/{w['finished'].pk}/", {}),
    ("bracket", lambda w: f"/tournaments/{w['double'].pk}/", {}),
    ("status", lambda w: f"/tournaments/{w['running'].pk}/status.json", {}),
    ("challenge", lambda w: f"/challenges/{w['challenge'].pk}/", {}),
    ("challenge status", lambda w: f"/challenges/{w['challenge'].pk}/status.json", {}),
    ("bot", lambda w: f"/bots/{w['alice_bot'].pk}/", {}),
    ("ladder", lambda w: "/ladders/stones/", {}),
]


@pytest.mark.parametrize("role", ROLES)
def test_every_competition_page_renders_for_each_role(people: People, world: dict,
                                                      role: str) -> None:
    client = client_for(role, people)
    for name, url, expected in PAGES:
        response = client.get(url(world))
        if expected.get(role) == LOGIN:
            assert response.status_code == 302, name
            assert "/account/login/" in response["Location"], name
            continue
        assert response.status_code == expected.get(role, 200), name
        if response["Content-Type"].startswith("text/html"):
            page = response.content.decode()
            # CSP: no inline script (json_script data aside) and no style attribute
            for tag in re.findall(r"<script[^>]*>", page):
                assert "src=" in tag or 'type="application/json"' in tag \
                    or 'type="importmap"' in tag, (name, tag)
            assert " style=" not in page, name
            assert 'href="/tournaments/"' in page, name  # the nav's entry


def test_a_challenge_is_seen_by_everyone_like_any_match(people: People) -> None:
    mine = active(people.bob, "keeps-its-source")
    theirs = active(people.alice, "open")
    made = challenge_create(user=people.bob, bot=Bot.objects.get(pk=mine.bot_id),
                            opponent=theirs.bot, games_count=1)
    for role in ("anonymous", "owner", "other", "staff"):
        assert client_for(role, people).get(f"/challenges/{made.pk}/").status_code == 200
    assert f"/challenges/{made.pk}/" in client_for("anonymous", people).get(
        f"/bots/{theirs.bot_id}/").content.decode(), "listed on both bots' pages"


# -- a new tournament ------------------------------------------------------------------------

def test_a_tournament_made_through_the_form_opens_for_registration(client: Client,
                                                                    people: People) -> None:
    client.force_login(people.alice)
    page = client.get("/tournaments/new/").content.decode()
    assert 'type="datetime-local"' in page and "official" not in page.lower()
    response = client.post("/tournaments/new/", form())
    made = Tournament.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{made.pk}/"
    assert (made.name, made.format, made.games, made.field_limit, made.state, made.official) \
        == ("Friday cup", "swiss", 2, 8, "registration", False)
    shown = text(client.get(response["Location"]))
    assert "Friday cup is open for registration." in shown
    assert "Bring your best bot." in shown and RULES["swiss"] in shown
    assert SERIES_RULE in shown
    assert "Friday cup" in text(client.get("/tournaments/"))


REFUSALS = [
    ({"format": "scored"}, 400, "a scored tournament is for solo games"),
    ({"game": "g2048", "format": "swiss"}, 400, "its tournaments are scored"),
    ({"registration_closes": when(hours=3)}, 400,
     "\"Starts\" (starts_at) is before \"Registration closes\": choose a start"),
    ({"registration_closes": when(hours=-1)}, 400,
     "\"Registration closes\" (registration_closes) is before registration opens (now)"),
    ({"starts_at": when(days=90)}, 400, "The start must be within 60 days."),
    ({"field_limit": 65}, 400, "less than or equal to 64"),
    ({"games": 0}, 400, "greater than or equal to 1"),
    ({"name": ""}, 400, "This field is required."),
    ({"starts_at": "tomorrow"}, 400, "Enter a valid date/time."),
]


@pytest.mark.parametrize(("changes", "status", "message"), REFUSALS,
                         ids=[m for _, _, m in REFUSALS])
def test_the_form_refuses_bad_input_with_what_to_change(
        client: Client, people: People, changes: dict, status: int, message: str) -> None:
    client.force_login(people.alice)
    response = client.post("/tournaments/new/", form(**changes))
    assert response.status_code == status
    assert message in text(response)
    assert not Tournament.objects.exists()


def test_staff_make_official_tournaments_with_their_own_limits_and_fields(
        client: Client, people: People) -> None:
    client.force_login(people.sam)
    response = client.post("/tournaments/new/", form(official="on", field_limit=200,
                                                     limits='{"move_time": 2.5}'))
    assert response.status_code == 302
    made = Tournament.objects.get()
    assert made.official and made.field_limit == 200 and made.limits["move_time"] == 2.5
    assert "official" in text(client.get("/tournaments/")).lower()
    # a player's post naming them is not obeyed: the fields are not theirs
    client.force_login(people.alice)
    client.post("/tournaments/new/", form(name="mine", official="on"))
    assert not Tournament.objects.get(name="mine").official


def test_a_tournament_over_the_rate_limit_is_a_form_error(client: Client, people: People,
                                                          settings: object) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "tournament": "1/day"}
    client.force_login(people.alice)
    assert client.post("/tournaments/new/", form()).status_code == 302
    response = client.post("/tournaments/new/", form(name="again"))
    assert response.status_code == 429
    assert "Too many tournaments made; try again in" in text(response)
    assert Tournament.objects.count() == 1


# -- entries ---------------------------------------------------------------------------------

def test_entering_withdrawing_and_cancelling(people: People) -> None:
    mine = [active(people.bob, "entrant").bot, active(people.bob, "shy").bot]
    Bot.objects.filter(pk=mine[1].pk).update(retired=True)
    t = open_tournament(people.alice, [], "swiss", name="Open")
    url = f"/tournaments/{t.pk}/"
    bob, alice, sam = (client_for(r, people) for r in ("other", "owner", "staff"))

    page = bob.get(url).content.decode()
    assert 'id="enter-form"' in page and "shy (retired)" in text(bob.get(url))
    response = bob.post(f"{url}enter/", {"bot": mine[0].pk}, follow=True)
    assert "entrant is entered in Open." in text(response)
    assert Entry.objects.filter(tournament=t, bot=mine[0], withdrawn=False).exists()
    refused = bob.post(f"{url}enter/", {"bot": mine[1].pk})
    assert refused.status_code == 400
    assert "Shy is retired." in text(refused)
    # another user's bot: not a choice at all
    assert alice.post(f"{url}enter/", {"bot": mine[0].pk}).status_code == 400

    assert "withdraw" not in text(alice.get(url))  # not alice's bot; alice does not see it
    said = text(alice.post(f"{url}withdraw/", {"bot": mine[0].pk}, follow=True))
    assert "Entrant is not yours to withdraw." in said
    said = text(bob.post(f"{url}withdraw/", {"bot": mine[0].pk}, follow=True))
    assert "entrant is withdrawn from Open." in said
    assert not Entry.objects.filter(tournament=t, withdrawn=False).exists()

    assert "Cancel the tournament" not in text(bob.get(url))
    said = text(bob.post(f"{url}cancel/", {"reason": "no"}, follow=True))
    assert "Only its creator and staff can cancel a tournament." in said
    assert "Cancel the tournament" in text(alice.get(url))
    said = text(sam.post(f"{url}cancel/", {"reason": "rain"}, follow=True))
    assert "Open is cancelled." in said and "rain" in said
    t.refresh_from_db()
    assert t.state == "cancelled"
    assert "Open Stones Swiss cancelled" in text(client_for("anonymous", people).get(
        "/tournaments/"))


def test_a_full_field_says_so_instead_of_offering_the_form(people: People) -> None:
    t = open_tournament(people.alice, field(people.alice, 2), "swiss", field_limit=2)
    active(people.bob, "late")
    shown = client_for("other", people).get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="field-full"' in shown and 'id="enter-form"' not in shown


def test_a_user_without_a_bot_that_may_enter_is_told_why(people: People) -> None:
    active(people.bob, "retiree")
    Bot.objects.filter(owner=people.bob).update(retired=True)
    t = open_tournament(people.alice, [], "swiss")
    shown = text(client_for("other", people).get(f"/tournaments/{t.pk}/"))
    assert "None of your Stones bots can enter now: retiree (retired)." in shown
    assert "Log in to enter a bot." in text(client_for("anonymous", people).get(
        f"/tournaments/{t.pk}/"))


# -- a finished tournament -------------------------------------------------------------------

def halves(value: float) -> str:
    """Points as tables write them: 2, 1½, ½."""
    return "½" if value == 0.5 else f"{value:g}".replace(".5", "½")


def rows_of(page: str, table_id: str) -> list[dict[str, str]]:
    """The rows of a table as {column header: cell text}."""
    def clean(cell: str) -> str:
        return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", cell))).strip()

    table = page[page.index(f'id="{table_id}"'):]
    table = table[:table.index("</table>")]
    head = [clean(th) for th in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
    body = table[table.index("<tbody>"):]
    return [dict(zip(head, [clean(td) for td in re.findall(r"<td[^>]*>(.*?)</td>", row,
                                                           re.S)], strict=True))
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)]


def test_a_finished_swiss_shows_its_final_table_and_rounds(client: Client,
                                                           world: dict) -> None:
    t = world["finished"]
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    table = tournament_table(t)
    rows = rows_of(html, "standings")
    assert len(rows) == len(table) == 6
    assert list(rows[0]) == ["#", "bot", "points", "W/L/D", "game pts", "Buchholz", "S-B",
                             "played"]  # six entries: no byes, no byes column
    for shown, row in zip(rows, table, strict=True):
        assert shown["#"] == str(row.rank)
        assert shown["bot"].startswith(row.entry.bot.name + " v1")
        assert shown["points"] == halves(row.points)
        assert shown["W/L/D"] == f"{row.wins}/{row.losses}/{row.draws}"
        assert shown["game pts"] == halves(row.game_points)
        assert shown["Buchholz"] == halves(row.buchholz)
        assert shown["S-B"] == halves(row.sonneborn_berger)
        assert shown["played"] == str(row.played)
    assert "Final standings" in html and f"Winner: {table[0].entry.bot.name}" in text(
        client.get(f"/tournaments/{t.pk}/"))
    # three rounds, each series' games linked to their matches
    assert html.count('class="round"') == 3
    for g in t.series.get(round=1, position=0).series_games.all():
        assert f'href="/matches/{g.match_id}/"' in html
    # and a game's match page leads back to its series
    match_page = text(client.get(f"/matches/{g.match_id}/"))
    assert f"part of Old Swiss: round 1, series {g.series.key}, game 2" in match_page


def test_a_finished_double_elimination_draws_its_bracket(client: Client,
                                                         world: dict) -> None:
    t = world["double"]
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    shown = text(client.get(f"/tournaments/{t.pk}/"))
    for section in ["Winners' bracket", "Losers' bracket", "Grand final"]:
        assert section in shown
    assert "Winners' final" in shown
    # every played series is in the bracket with its games linked
    for s in t.series.exclude(kind="bye"):
        assert f'id="node-{s.key}"' in html
        for g in s.series_games.all():
            assert f'href="/matches/{g.match_id}/"' in html
    champion = tournament_table(t)[0].entry.bot.name
    final = html[html.index('id="node-GF"'):]
    assert re.search(r'class="side won">\s*<span class="seed">\d+</span><span class="name">'
                     rf'<a href="/bots/\d+/">{champion}</a>', final)
    assert "bye" in html  # five entries in an eight-place bracket: the top seeds' byes
    assert 'id="rounds"' not in html  # the bracket is the rounds


def test_the_status_json_sends_the_parts_that_changed(client: Client, world: dict) -> None:
    t = world["running"]
    first = client.get(f"/tournaments/{t.pk}/status.json").json()
    assert first["state"] == "running" and first["round"] == 1 and not first["done"]
    assert first["rounds"] == 5 and first["interval"] == 3000
    stamps = {name: part["stamp"] for name, part in first["parts"].items()}
    assert "Round 1 of 5" in first["parts"]["status"]["html"]
    known = ",".join(f"{name}:{stamp}" for name, stamp in stamps.items())
    again = client.get(f"/tournaments/{t.pk}/status.json", {"known": known}).json()
    assert all("html" not in part for part in again["parts"].values())
    play_rounds(t, rounds=1)
    moved = client.get(f"/tournaments/{t.pk}/status.json", {"known": known}).json()
    assert moved["round"] == 2
    assert "html" in moved["parts"]["standings"] and "html" in moved["parts"]["rounds"]
    assert "Round 2 of 5" in moved["parts"]["status"]["html"]
    # at the start the entries' list empties: the same text as the empty standings had, but
    # parts are compared by name, so the page is told
    t = world["upcoming"]
    before = client.get(f"/tournaments/{t.pk}/status.json").json()["parts"]
    known = ",".join(f"{name}:{part['stamp']}" for name, part in before.items())
    start(t)
    after = client.get(f"/tournaments/{t.pk}/status.json", {"known": known}).json()["parts"]
    assert after["entries"]["html"].strip() == "" and after["entries"]["stamp"] in {
        part["stamp"] for part in before.values()}
    done = client.get(f"/tournaments/{world['finished'].pk}/status.json").json()
    assert done["done"] and done["interval"] == 0


# -- user text -------------------------------------------------------------------------------

def test_a_tournaments_name_and_description_are_shown_as_text(client: Client,
                                                              people: People) -> None:
    version = active(people.alice, "plain")
    t = open_tournament(people.alice, [version], "swiss", name=EVIL[:80],
                        description=EVIL)
    for url in ["/tournaments/", f"/tournaments/{t.pk}/", f"/bots/{version.bot_id}/"]:
        html = client.get(url).content.decode()
        assert "<script>alert" not in html and "<img src=x" not in html, url
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html, url
    assert_inert(client.get(f"/tournaments/{t.pk}/").content.decode())
    parts = client.get(f"/tournaments/{t.pk}/status.json").json()["parts"]
    assert all("<script>alert" not in p["html"] for p in parts.values())


# -- challenges ------------------------------------------------------------------------------

def test_a_bots_page_offers_a_challenge_to_users_with_a_bot_of_its_game(
        people: People) -> None:
    target = active(people.alice, "target").bot
    mine = active(people.bob, "mine").bot
    active(people.bob, "slider", game="g2048")
    url = f"/bots/{target.pk}/"
    bob, anonymous, sam = (client_for(r, people) for r in ("other", "anonymous", "staff"))

    page = bob.get(url).content.decode()
    assert f'action="/bots/{target.pk}/challenge/"' in page
    assert f'<option value="{mine.pk}"' in page and "slider" not in page
    assert "Log in to challenge target" in text(anonymous.get(url))
    assert "you need a Stones bot of your own" in text(sam.get(url))

    # the form offers an even series, each bot in each seat as often
    assert re.search(r'name="games" value="2"', page), "the games field's initial value"
    response = bob.post(f"{url}challenge/", {"bot": mine.pk, "games": 4})
    made = Challenge.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/challenges/{made.pk}/"
    assert (made.bot_id, made.opponent_id, made.games) == (mine.pk, target.pk, 4)
    shown = text(bob.get(response["Location"]))
    assert "mine v1" in shown and "target v1" in shown and "playing" in shown.lower()
    mine_page = text(bob.get(f"/bots/{mine.pk}/"))
    assert "made to target" in mine_page
    assert "from mine" in text(bob.get(url))

    refused = bob.post(f"{url}challenge/", {"bot": mine.pk, "games": 11})
    assert refused.status_code == 400
    assert "less than or equal to 10" in text(refused)


def test_an_owner_can_refuse_challenges_and_take_them_again(people: People) -> None:
    target = active(people.alice, "target").bot
    mine = active(people.bob, "mine").bot
    alice, bob = client_for("owner", people), client_for("other", people)
    url = f"/bots/{target.pk}/"
    assert "Refuse challenges" in text(alice.get(url))
    assert "Refuse challenges" not in text(bob.get(url))
    said = text(alice.post(f"{url}challengeable/", {}, follow=True))
    assert "target refuses challenges" in said and "Take challenges" in said
    assert not Bot.objects.get(pk=target.pk).accepts_challenges
    page = text(bob.get(url))
    assert "target's owner does not take challenges to it." in page
    assert 'id="challenge"' not in bob.get(url).content.decode()
    refused = bob.post(f"{url}challenge/", {"bot": mine.pk, "games": 2})
    assert refused.status_code == 400
    assert "owner does not take challenges to it" in text(refused)
    assert bob.post(f"/bots/{target.pk}/challengeable/", {"accepts": "on"}).status_code == 404
    alice.post(f"{url}challengeable/", {"accepts": "on"})
    assert Bot.objects.get(pk=target.pk).accepts_challenges


def test_a_challenge_over_the_rate_limit_is_a_form_error(people: People,
                                                         settings: object) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "challenge": "5/hour"}
    target = active(people.alice, "target").bot
    mine = active(people.bob, "mine").bot
    bob = client_for("other", people)
    assert bob.post(f"/bots/{target.pk}/challenge/", {"bot": mine.pk,
                                                      "games": 4}).status_code == 302
    refused = bob.post(f"/bots/{target.pk}/challenge/", {"bot": mine.pk, "games": 4})
    assert refused.status_code == 429
    assert "Too many challenge games asked for; try again in" in text(refused)
    assert 'id="challenge"' in refused.content.decode()  # the form, with its error
    assert Challenge.objects.count() == 1


def test_a_built_in_player_is_challenged_from_the_ladders_page(people: People) -> None:
    mine = active(people.bob, "mine", source=bots.FIRST).bot
    bob = client_for("other", people)
    page = bob.get("/ladders/stones/").content.decode()
    assert "Challenge a built-in player" in page and '<option value="perfect"' in page
    response = bob.post("/ladders/stones/challenge/", {"bot": mine.pk, "builtin": "perfect",
                                                       "games": 2})
    made = Challenge.objects.get()
    assert response.status_code == 302 and made.opponent_builtin == "perfect"
    assert "built-in perfect" in text(bob.get(f"/challenges/{made.pk}/"))
    refused = bob.post("/ladders/stones/challenge/", {"bot": mine.pk, "builtin": "nobody",
                                                      "games": 2})
    assert refused.status_code == 400 and "Select a valid choice" in text(refused)
    # solo games have nobody to challenge
    active(people.bob, "slider", game="g2048")
    assert "Challenge a built-in player" not in text(bob.get("/ladders/2048/"))
    assert bob.post("/ladders/2048/challenge/", {}).status_code == 404


def test_a_finished_challenge_shows_its_tally_and_games(client: Client, world: dict) -> None:
    c = world["challenge"]
    shown = text(client.get(f"/challenges/{c.pk}/"))
    assert "Finished" in shown
    status = client.get(f"/challenges/{c.pk}/status.json").json()
    assert status["done"] and status["wins"] + status["losses"] + status["draws"] == 2
    html = client.get(f"/challenges/{c.pk}/").content.decode()
    for row in c.rows.all():
        assert f'href="/matches/{row.match_id}/"' in html
    assert "replay" in shown
    assert f"part of challenge {c.pk}, game 1" in text(
        client.get(f"/matches/{c.rows.get(index=0).match_id}/"))


# -- the admin -------------------------------------------------------------------------------

def test_staff_find_and_cancel_competitions_in_the_admin(people: People, world: dict) -> None:
    from django.contrib.auth.models import User

    root = Client()
    root.force_login(User.objects.create_superuser("root", password="pw"))
    t, series = world["upcoming"], world["finished"].series.first()
    pages = {"/admin/competitions/tournament/": "Upcoming",
             "/admin/competitions/tournament/?state__exact=finished": "Old Swiss",
             f"/admin/competitions/tournament/{t.pk}/change/": "bot0",  # its entries inline
             "/admin/competitions/series/": series.key,
             f"/admin/competitions/series/{series.pk}/change/": f"Old Swiss: round 1, {series.key}",
             "/admin/competitions/challenge/": "b0",
             f"/admin/competitions/challenge/{world['challenge'].pk}/change/": "b0"}
    for url, shown in pages.items():
        response = root.get(url)
        assert response.status_code == 200 and shown in text(response), url
    # series and challenges are the formats' and workers' rows: read, never edited by hand
    change = root.post(f"/admin/competitions/series/{series.pk}/change/", {"key": "X"})
    assert change.status_code == 403
    assert root.get("/admin/competitions/challenge/add/").status_code == 403
    response = root.post("/admin/competitions/tournament/",
                         {"action": "cancel", "_selected_action": [t.pk]})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.state == "cancelled" and t.note == "cancelled by staff"
    # a tournament already over is left as it was, with the reason
    said = text(root.post("/admin/competitions/tournament/",
                          {"action": "cancel", "_selected_action": [world["finished"].pk]},
                          follow=True))
    assert "Old Swiss is finished already" in said
    assert Tournament.objects.get(pk=world["finished"].pk).state == "finished"
    for role in ("anonymous", "owner", "other"):
        assert client_for(role, people).get("/admin/competitions/tournament/")[
            "Location"].startswith("/admin/login/"), role
