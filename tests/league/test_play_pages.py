"""Starting a game against a bot through the site's pages (Django's test client, no worker):
the forms on a bot's page and a ladder's page, every refusal back on its page as a message,
the play page with its data only for the person playing, and what a running game of hidden
information shows on its match page. The games themselves are played in test_play.py."""

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
    assert (ex.user, ex.seat, ex.move_time, ex.game_time) == (people.alice, 1, 300, 1800)
    page = client.get(f"/play/{match.pk}/").content.decode()
    data = json.loads(re.search(r'<script id="play-data" type="application/json">(.*?)'
                                "</script>", page, re.S).group(1))
    assert data == {"match": match.pk, "game": "stones", "seat": 1,
                    "state_url": f"/api/play/{match.pk}/",
                    "move_url": f"/api/play/{match.pk}/move/",
                    "match_url": f"/matches/{match.pk}/", "title": "Stones",
                    "options": {"size": 5}, "assets": {}}
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
