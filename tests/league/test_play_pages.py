"""Starting a game against a bot through the site's pages (Django's test client, no worker):
the forms on a bot's page and a ladder's page, every refusal back on its page as a message,
the play page with its data only for the person playing, and what a running game of hidden
information shows on its match page; /play/ (each game's form, your games), resigning and
a rematch. The games themselves are played in test_play.py (resign and rematch in a browser
in test_play_browser.py)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from league.bots.models import Bot
from league.ladders.models import Exhibition, Match, MatchKind, Participant
from league.ladders.play.services import PlayError, exhibition_create
from tests.league.conftest import People
from tests.league.pages import active


def messages_on(client: Client, response) -> list[str]:
    assert response.status_code == 302, response.status_code
    page = client.get(response["Location"]).content.decode()
    found = re.search(r'<ul class="messages">(.*?)</ul>', page, re.S)
    return re.findall(r'<li class="[^"]*">(.*?)</li>', found.group(1), re.S) if found else []


def test_the_forms_are_on_a_bots_page_and_a_ladders_page(client: Client,
                                                         people: People) -> None:
    bot = active(people.bob, "opponent")
    assert "Log in</a> to play against opponent" in client.get(
        f"/bots/{bot.bot_id}/").content.decode()
    client.force_login(people.alice)
    page = client.get(f"/bots/{bot.bot_id}/").content.decode()
    assert 'action="/play/"' in page and f'name="opponent" value="{bot.bot_id}"' in page
    assert 'name="seat"' in page and "5 minutes a move and 30 minutes for the game" in page
    ladder = client.get("/ladders/stones/").content.decode()
    assert '<option value="builtin:perfect">built-in perfect</option>' in ladder
    solo = client.get("/ladders/2048/").content.decode()
    assert "Play 2048 yourself" in solo and '<option value="101">101</option>' in solo
    assert 'name="opponent"' not in solo.split('id="play-form"')[1].split("</section>")[0]


def test_a_game_started_from_the_form_is_an_unrated_exhibition_on_the_play_queue(
        client: Client, people: People) -> None:
    bot = active(people.bob, "opponent")
    client.force_login(people.alice)
    response = client.post("/play/", {"opponent": str(bot.bot_id), "seat": "1"})
    match = Match.objects.get(kind=MatchKind.EXHIBITION)
    assert response.status_code == 302 and response["Location"] == f"/play/{match.pk}/"
    seats = {p.seat: p for p in Participant.objects.filter(match=match)}
    assert seats[1].player == people.alice and seats[0].version_id == bot.pk
    ex = Exhibition.objects.get(pk=match.pk)
    assert (ex.user, ex.seat, ex.move_time, ex.game_time, ex.first_move_time) == (
        people.alice, 1, 300, 1800, 30)
    page = client.get(f"/play/{match.pk}/").content.decode()
    data = json.loads(re.search(r'<script id="play-data" type="application/json">(.*?)'
                                "</script>", page, re.S).group(1))
    assert data == {"match": match.pk, "game": "stones", "seat": 1,
                    "state_url": f"/api/play/{match.pk}/",
                    "move_url": f"/api/play/{match.pk}/move/",
                    "your_games_url": "/play/#your-games",
                    "match_url": f"/matches/{match.pk}/", "title": "Stones",
                    "rules_url": "/games/stones/#rules",
                    "options": {"size": 5, "holes": 4}, "assets": {}}
    # the game's rules, one click from the board (issue 38 item 8)
    assert 'href="/games/stones/#rules" class="play-rules"' in page
    assert 'type="importmap"' in page and "/static/viewer/play.js" in page
    assert "csrftoken" in client.cookies
    client.force_login(people.bob)
    other = client.get(f"/play/{match.pk}/")
    assert other.status_code == 302 and other["Location"] == f"/matches/{match.pk}/"


@pytest.mark.parametrize(("form", "message"), [
    ({"opponent": "999999"}, "No bot 999999."),
    ({"opponent": "somebody"}, "The opponent is a bot's id or builtin:NAME, not 'somebody'."),
    ({"opponent": "builtin:nobody", "game": "stones"},
     "No built-in player 'nobody' for stones (there are "),
    ({"game": "stones"}, "Choose one opponent: a bot, or a built-in player."),
    ({"opponent": "builtin:random", "game": "stones", "seat": "2"},
     "Seat: Ensure this value is less than or equal to 1."),
    ({"opponent": "builtin:greedy", "game": "g2048"}, "2048 is a solo game: you play it alone"),
    ({"game": "g2048", "seed": "5"}, "Seed 5 is not one of 2048's seeds (101, 102"),
    ({"game": "chess"}, "Unknown game 'chess'"),
])
def test_a_refused_game_comes_back_as_a_message(client: Client, people: People,
                                                form: dict[str, str], message: str) -> None:
    client.force_login(people.alice)
    got = messages_on(client, client.post("/play/", form))
    assert len(got) == 1 and got[0].replace("&#x27;", "'").startswith(message), got
    assert not Match.objects.filter(kind=MatchKind.EXHIBITION).exists()


def test_not_signed_in_goes_to_the_log_in_page_and_a_retired_bot_is_refused(
        client: Client, people: People) -> None:
    bot = active(people.bob, "opponent")
    response = client.post("/play/", {"opponent": str(bot.bot_id)})
    assert response["Location"] == f"/account/login/?next=/bots/{bot.bot_id}/"
    Bot.objects.filter(pk=bot.bot_id).update(retired=True)
    client.force_login(people.alice)
    got = messages_on(client, client.post("/play/", {"opponent": str(bot.bot_id)}))
    assert got[-1].startswith("Opponent has no version that plays"), got
    with pytest.raises(PlayError, match="sign in"):
        from django.contrib.auth.models import AnonymousUser

        exhibition_create(user=AnonymousUser(), game="stones", builtin="random")


def test_while_a_person_plays_wizard_duel_its_match_page_shows_no_play(
        client: Client, people: People) -> None:
    match = exhibition_create(user=people.alice, game="wizard_duel", builtin="random")
    Match.objects.filter(pk=match.pk).update(status="running", attempts=1)
    for who in (None, people.bob, people.alice):
        if who is not None:
            client.force_login(who)
        page = client.get(f"/matches/{match.pk}/").content.decode()
        assert "withheld until it ends" in page and 'id="viewer-header"' not in page
        assert str(match.seed) not in page and "withheld until the game ends" in page
        assert ('id="play-link"' in page) == (who == people.alice)
        api = client.get(f"/api/matches/{match.pk}/").json()
        assert api["seed"] is None and api["kind"] == "exhibition"
        assert [p["player"] for p in api["participants"]] == ["alice", None]
    Match.objects.filter(pk=match.pk).update(status="failed")
    assert client.get(f"/api/matches/{match.pk}/").json()["seed"] == match.seed


def test_exhibitions_go_to_the_play_queue_and_the_reaper_sends_them_back_there(
        people: People, django_capture_on_commit_callbacks) -> None:
    from datetime import timedelta

    import redis
    from django.conf import settings
    from django.utils import timezone

    from league.ladders.reaper import reaper_tick

    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.delete("play", "celery")
    with django_capture_on_commit_callbacks(execute=True):
        match = exhibition_create(user=people.alice, game="stones", builtin="random")
    assert (broker.llen("play"), broker.llen("celery")) == (1, 0)
    stale = timezone.now() - timedelta(minutes=10)
    Match.objects.filter(pk=match.pk).update(status="running", attempts=1, heartbeat_at=stale)
    assert reaper_tick().requeued == [match.pk]
    assert (broker.llen("play"), broker.llen("celery")) == (2, 0)
    broker.delete("play", "celery")


def test_play_lists_each_games_form_and_your_games_and_the_refusal_links_them(
        client: Client, people: People) -> None:
    page = client.get("/play/").content.decode()
    assert "Log in</a> to play" in page and 'id="your-games"' not in page
    client.force_login(people.alice)
    page = client.get("/play/").content.decode()
    for game, title in (("stones", "Play Stones against a built-in player"),
                        ("wizard_duel", "Play Wizard Duel against a built-in player"),
                        ("g2048", "Play 2048 yourself")):
        form = page.split(f'id="play-form-{game}"')[1].split("</section>")[0]
        assert title in form and 'name="back" value="play"' in form, game
        assert f'id="play-seat-{game}"' in form or game == "g2048"
    assert "No game going now." in page
    first = exhibition_create(user=people.alice, game="stones", builtin="random")
    # the second game is refused (one at a time until one is played to its end): the
    # message links to the games going, and /play/ lists them, each to its board
    got = messages_on(client, client.post("/play/", {"opponent": "builtin:perfect",
                                                     "game": "stones", "back": "play"}))
    assert len(got) == 1 and "You have a game going already" in got[0], got
    assert got[0].endswith('<a href="/play/#your-games">Your games</a>'), got
    going = client.get("/play/").content.decode().split('id="your-games"')[1]
    assert f'href="/play/{first.pk}/"' in going and "against built-in random" in going
    # the same list on your own page, and nobody else's
    assert f'href="/play/{first.pk}/"' in client.get("/u/alice/").content.decode()
    client.force_login(people.bob)
    assert 'id="your-games"' not in client.get("/u/alice/").content.decode()


def test_resigning_a_queued_game_cancels_it_and_a_running_one_tells_the_seat(
        client: Client, people: People) -> None:
    from league.ladders.play import inbox
    from sandbox import Resigned

    queued = exhibition_create(user=people.alice, game="stones", builtin="random")
    client.force_login(people.bob)  # not bob's game: nothing happens
    assert client.post(f"/play/{queued.pk}/resign/")["Location"] == f"/matches/{queued.pk}/"
    assert Match.objects.get(pk=queued.pk).status == "queued"
    client.force_login(people.alice)
    assert client.get(f"/play/{queued.pk}/resign/").status_code == 405
    assert client.post(f"/play/{queued.pk}/resign/")["Location"] == f"/play/{queued.pk}/"
    assert Match.objects.get(pk=queued.pk).status == "cancelled"
    running = exhibition_create(user=people.alice, game="stones", builtin="random")
    Match.objects.filter(pk=running.pk).update(status="running", attempts=1)
    assert inbox.taken(running.pk, 0) is None
    client.post(f"/play/{running.pk}/resign/")
    # the worker's seat, asked for any step, gives the game up; a new attempt keeps it
    with pytest.raises(Resigned):
        inbox.taken(running.pk, 4)
    inbox.forget(running.pk, move_too=True, keep_step=2)
    with pytest.raises(Resigned):
        inbox.taken(running.pk, 2)
    Match.objects.filter(pk=running.pk).update(status="finished")
    got = messages_on(client, client.post(f"/play/{running.pk}/resign/"))
    assert got == ["The game is over already."], got


def test_a_rematch_is_the_same_opponent_with_the_seats_swapped_after_the_end(
        client: Client, people: People) -> None:
    bot = active(people.bob, "opponent")
    client.force_login(people.alice)
    game = exhibition_create(user=people.alice, game="stones",
                             opponent=Bot.objects.get(pk=bot.bot_id), seat=0)
    got = messages_on(client, client.post(f"/play/{game.pk}/rematch/"))
    assert got == ["The game is still going: a rematch comes after its end."], got
    Match.objects.filter(pk=game.pk).update(status="finished")
    response = client.post(f"/play/{game.pk}/rematch/")
    again = Match.objects.exclude(pk=game.pk).get(kind=MatchKind.EXHIBITION)
    assert response["Location"] == f"/play/{again.pk}/"
    seats = {p.seat: p for p in Participant.objects.filter(match=again)}
    assert seats[1].player == people.alice and seats[0].version_id == bot.pk
    Match.objects.filter(pk=again.pk).update(status="finished")
    solo = exhibition_create(user=people.alice, game="g2048", seed=102)
    Match.objects.filter(pk=solo.pk).update(status="finished")
    client.post(f"/play/{solo.pk}/rematch/")
    same = Match.objects.filter(kind=MatchKind.EXHIBITION, status="queued").get()
    assert same.seed == 102 and same.ladder.game == "g2048"
