"""Every page reads in a bounded number of queries that does not grow with the data: the
same page with 3 and with 30 matches (and as many bots and versions) runs the same count."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.bots.models import BotVersion
from league.ladders.models import Match
from tests.league import bots
from tests.league.conftest import People
from tests.league.pages import active, finished

MAX_QUERIES = 14


def populate(people: People, n: int) -> dict[str, object]:
    """alice's bot with two versions and a solo bot; ``n`` matches each against other bots."""
    mine = active(people.alice, "mine")
    newer = active(people.alice, "mine", source=bots.FIRST)
    solo = active(people.alice, "slider", game="g2048")
    last = None
    for i in range(n):
        other = active(people.bob, f"rival{i}")
        last = finished(newer if i % 2 else mine, other, seed=i, ago=i * 60)
        finished(solo, seed=101 + i % 12)
    return {"bot": mine.bot_id, "version": newer.pk, "solo": solo.bot_id, "match": last.pk}


PAGES: list[tuple[str, Callable[[dict], str]]] = [
    ("home", lambda ids: "/"),
    ("ladder", lambda ids: "/ladders/stones/"),
    ("scored ladder", lambda ids: "/ladders/2048/"),
    ("bot", lambda ids: f"/bots/{ids['bot']}/"),
    ("solo bot", lambda ids: f"/bots/{ids['solo']}/"),
    ("version", lambda ids: f"/versions/{ids['version']}/"),
    ("match", lambda ids: f"/matches/{ids['match']}/"),
    ("user", lambda ids: "/u/alice/"),
    ("my bots", lambda ids: "/my/bots/"),
    ("tokens", lambda ids: "/account/tokens/"),
    ("status", lambda ids: f"/versions/{ids['version']}/status.json"),
]


def count(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200, url
    return len(queries)


@pytest.mark.parametrize(("name", "url"), PAGES, ids=[p[0] for p in PAGES])
def test_a_page_runs_as_many_queries_with_30_matches_as_with_3(
        client: Client, people: People, name: str, url: Callable[[dict], str],
        django_assert_max_num_queries) -> None:
    client.force_login(people.alice)
    ids = populate(people, 3)
    few = count(client, url(ids))
    Match.objects.all().delete()
    BotVersion.objects.all().delete()
    ids = populate(people, 30)
    assert Match.objects.count() >= 60
    with django_assert_max_num_queries(MAX_QUERIES):
        many = count(client, url(ids))
    print(f"{name}: {few} queries")
    assert many == few, f"{name}: {few} queries with 3 matches, {many} with 30"
