"""Every page reads in a bounded number of queries that does not grow with the data: the
same page with 3 and with 30 matches (and as many bots and versions) runs the same count.

So that an equal count means something, the larger world really shows more on the pages
that list things (more board rows, opponents, matches, bots); a query per listed row would
show as a difference. ``test_the_check_sees_a_query_per_row`` proves the harness does."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.bots.models import BotVersion
from league.ladders.models import Match, Participant
from league.web import selectors
from league.web.match_lists import match_rows
from tests.league import bots
from tests.league.conftest import People
from tests.league.pages import active, finished

MAX_QUERIES = 17
"""A bot page is the most: its ladder data, its tournaments and challenges (two more), and its
places in past seasons (one)."""


def populate(people: People, n: int) -> dict[str, object]:
    """alice's bot with two versions and a solo bot; ``n`` rivals (every other one alice's)
    each playing it once, ``n`` more solo bots, and ``n`` solo matches."""
    mine = active(people.alice, "mine")
    newer = active(people.alice, "mine", source=bots.FIRST)
    solo = active(people.alice, "slider", game="g2048")
    last = None
    for i in range(n):
        other = active(people.bob if i % 2 else people.alice, f"rival{i}")
        last = finished(newer if i % 2 else mine, other, seed=i, ago=i * 60)
        finished(solo, seed=101 + i % 12)
        active(people.bob, f"solo{i}", game="g2048")
    return {"bot": mine.bot_id, "version": newer.pk, "solo": solo.bot_id, "match": last.pk}


PAGES: list[tuple[str, Callable[[dict], str], bool]] = [
    # (name, url, whether the page lists more things in the larger world)
    ("home", lambda ids: "/", True),
    ("ladder", lambda ids: "/ladders/stones/", True),
    ("searched ladder", lambda ids: "/ladders/stones/?q=rival", True),
    ("scored ladder", lambda ids: "/ladders/2048/", True),
    ("rankings api", lambda ids: "/api/ladders/stones/rankings/", True),
    ("searched rankings api", lambda ids: "/api/ladders/stones/rankings/?q=RIVAL", True),
    ("scored rankings api", lambda ids: "/api/ladders/2048/rankings/", True),
    ("bot", lambda ids: f"/bots/{ids['bot']}/", True),
    ("solo bot", lambda ids: f"/bots/{ids['solo']}/", True),
    ("version", lambda ids: f"/versions/{ids['version']}/", False),
    ("match", lambda ids: f"/matches/{ids['match']}/", False),
    ("user", lambda ids: "/u/alice/", True),
    ("my bots", lambda ids: "/my/bots/", True),
    ("tokens", lambda ids: "/account/tokens/", False),
    ("status", lambda ids: f"/versions/{ids['version']}/status.json", False),
    ("seasons", lambda ids: "/ladders/stones/seasons/", False),
    ("seasons api", lambda ids: "/api/ladders/stones/seasons/", False),
]


def count(client: Client, url: str) -> tuple[int, int]:
    """The queries a GET of ``url`` runs, and how many things the page lists (table rows,
    or an API page's results)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, url
    if response["Content-Type"].startswith("application/json"):
        data = response.json()
        listed = len(data.get("results", [])) if isinstance(data, dict) else len(data)
    else:
        listed = len(re.findall(r"<tr[ >]", response.content.decode()))
    return len(queries), listed


def rebuild(people: People, n: int) -> dict[str, object]:
    Match.objects.all().delete()
    BotVersion.objects.all().delete()
    return populate(people, n)


@pytest.mark.parametrize(("name", "url", "grows"), PAGES, ids=[p[0] for p in PAGES])
def test_a_page_runs_as_many_queries_with_30_matches_as_with_3(
        client: Client, people: People, name: str, url: Callable[[dict], str], grows: bool,
        django_assert_max_num_queries) -> None:
    client.force_login(people.alice)
    ids = populate(people, 3)
    few, few_listed = count(client, url(ids))
    ids = rebuild(people, 30)
    assert Match.objects.count() >= 60
    with django_assert_max_num_queries(MAX_QUERIES):
        many, many_listed = count(client, url(ids))
    print(f"{name}: {few} queries, {few_listed} -> {many_listed} things listed")
    if grows:
        assert many_listed > few_listed, f"{name}: the larger world lists no more"
    assert many == few, f"{name}: {few} queries with 3 matches, {many} with 30"


def test_the_check_sees_a_query_per_row(client: Client, people: People,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the players of listed matches read match by match, the bot page's count grows
    with its matches, and the comparison above would fail."""
    def players_one_match_at_a_time(matches, limit):
        rows = match_rows(matches, limit)
        for row in rows:
            list(Participant.objects.filter(match_id=row.pk))
        return rows

    monkeypatch.setattr(selectors, "match_rows", players_one_match_at_a_time)
    ids = populate(people, 3)
    few, _ = count(client, f"/bots/{ids['bot']}/")
    ids = rebuild(people, 30)
    many, _ = count(client, f"/bots/{ids['bot']}/")
    assert many > few
