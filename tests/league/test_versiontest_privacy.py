"""Who sees a version test's games (issue 33): like the test itself, its owner and staff, and
anyone once its owner makes the test public. To anyone else a private test's game is not
there: its page, status, replay export and every API read of it answer 404, and no list (the
bot's page, the ladder's, the home page, ``GET /api/matches/``) names it."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from league.ladders.models import Ladder, MatchKind
from league.versiontests.models import TestGame
from league.versiontests.services import version_test_create, version_test_set_public
from tests.league.conftest import People
from tests.league.pages import finished
from tests.league.versiontest_world import play_pair, two_versions

READS = ("/matches/{m}/", "/matches/{m}/status.json", "/matches/{m}/replay.html",
         "/api/matches/{m}/", "/api/matches/{m}/replay/", "/api/matches/{m}/viewer/",
         "/api/matches/{m}/frames/")


def signed_in(people: People, who: str) -> Client:
    client = Client()
    client.force_login(getattr(people, who))
    return client


def listed(client: Client, people: People, bot_id: int, slug: str) -> str:
    pages = [client.get(path).content.decode() for path in (
        f"/bots/{bot_id}/", f"/ladders/{slug}/", "/", f"/api/matches/?bot={bot_id}",
        "/api/matches/", "/api/matches/?kind=versiontest")]
    return "\n".join(pages)


@pytest.mark.usefixtures("ladders_rolled_back")
def test_a_private_tests_games_are_its_owners_and_staffs(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    play_pair(test, "win", "win")
    # a game with its replay, as a worker stores it, so every read has something to show
    played = finished(candidate, baseline, kind=MatchKind.VERSIONTEST)
    TestGame.objects.create(test=test, pair=99, index=0, match=played, counted=True)
    games = [played.pk, *TestGame.objects.filter(test=test).exclude(match=played)
             .values_list("match_id", flat=True)]
    assert len(games) >= 3
    slug = Ladder.objects.get(game="stones").slug
    for who in ("alice", "sam"):
        client = signed_in(people, who)
        for path in READS:
            got = client.get(path.format(m=games[0]))
            assert got.status_code == 200, (who, path, got.status_code)
    for client in (Client(), signed_in(people, "bob")):
        for path in READS:
            got = client.get(path.format(m=games[0]))
            assert got.status_code == 404, (path, got.status_code)
        text = listed(client, people, candidate.bot_id, slug)
        for match_id in games:
            found = re.search(rf"/matches/{match_id}/|\"id\": ?{match_id}\b", text)
            assert not found, text[max(0, found.start() - 300):found.end() + 30]
    version_test_set_public(user=people.alice, test=test, public=True)
    for path in READS:
        assert Client().get(path.format(m=games[0])).status_code == 200, path
