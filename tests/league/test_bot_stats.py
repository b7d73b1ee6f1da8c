"""A bot's statistics (``league.ladders.stats``): the sums the finishing transaction keeps
agree with the matches it finished (and with ``stats_recount``, which rebuilds them from
history); the page and the API say what they mean; they read a fixed number of queries."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from league.bots.models import BotVersion
from league.ladders.claiming import match_claim
from league.ladders.finishing import match_finish
from league.ladders.models import Ladder, Participant, VersionStats
from league.ladders.services import match_create
from league.ladders.stats import stats_recount
from sandbox import BotPackageError, BotSpec, run_match
from tests.league import bots
from tests.league.conftest import People
from tests.league.pages import active, finished
from tests.league.test_pages_queries import MAX_QUERIES, count, populate, rebuild


def _play(ladder: Ladder, seats: list[BotVersion], seed: int,
          specs: list[BotSpec]) -> None:
    """A ladder match made, claimed and finished as a worker does, played by ``specs``."""
    match = match_create(ladder=ladder, kind="ladder", seed=seed, seats=seats)
    claimed = match_claim(match_id=match.pk, worker="h:1")
    assert claimed is not None
    record = run_match(ladder.game, specs, seed=seed)
    assert match_finish(match=claimed, record=record, error=None)


def test_finishing_keeps_each_versions_sums_by_opponent_and_seat(
        ladders: dict[str, Ladder], alice: User, tmp_path: Path) -> None:
    a, b = active(alice, "a"), active(alice, "b")
    crash = tmp_path / "crash.py"
    crash.write_text(bots.CRASH)
    random = BotSpec("builtin:random")
    for seed in range(3):
        _play(ladders["stones"], [a, b], seed, [random, random])
    _play(ladders["stones"], [b, a], 9, [random, random])
    _play(ladders["stones"], [a, b], 10, [BotSpec(str(crash)), random])
    # a version that cannot start: a game and a forfeit, no length
    match = match_create(ladder=ladders["stones"], kind="ladder", seed=11, seats=[a, b])
    assert match_finish(match=match_claim(match_id=match.pk, worker="h:1"), record=None,
                        error=BotPackageError("no main.py"))

    rows = {(r.version_id, r.opponent, r.seat): r for r in VersionStats.objects.all()}
    assert set(rows) == {(a.pk, b.pk, 0), (b.pk, a.pk, 1), (b.pk, a.pk, 0), (a.pk, b.pk, 1)}
    first = rows[(a.pk, b.pk, 0)]
    assert first.games == 5
    mine = Participant.objects.filter(version=a, seat=0, match__kind="ladder")
    assert first.wins == mine.filter(outcome="win").count()
    assert first.losses == mine.filter(outcome="loss").count()
    assert first.forfeit_crash == 1 and first.forfeit_start == 1
    played = [p.match.moves for p in mine.exclude(match__reason="package-error")]
    assert first.length_sum == sum(played)
    assert sum(getattr(first, f"length_{i}") for i in range(8)) == 4
    own = sum(p.moves - 1 for p in mine.exclude(match__reason="package-error") if p.moves)
    assert first.timed_moves == own
    assert sum(getattr(first, f"move_time_{i}") for i in range(6)) == own
    assert 0 < first.move_time_max < 1  # a random player's move: well inside the limit
    assert rows[(b.pk, a.pk, 0)].games == 1
    assert stats_recount() == []


def test_a_scored_ladder_sums_by_seed(ladders: dict[str, Ladder], alice: User) -> None:
    solo = active(alice, "slider", game="g2048")
    for seed in (101, 102, 101):
        _play(ladders["g2048"], [solo], seed, [BotSpec("builtin:random")])
    rows = {r.seed: r for r in VersionStats.objects.filter(version=solo)}
    assert sorted(rows) == [101, 102]
    assert rows[101].scored == 2 and rows[101].opponent == 0
    scores = Participant.objects.filter(version=solo, match__seed=101)
    assert rows[101].score_sum == pytest.approx(sum(p.score for p in scores))
    assert stats_recount() == []


def test_stats_recount_finds_and_sets_right_sums_that_drifted(
        ladders: dict[str, Ladder], alice: User) -> None:
    a, b = active(alice, "a"), active(alice, "b")
    random = BotSpec("builtin:random")
    _play(ladders["stones"], [a, b], 1, [random, random])
    _play(ladders["stones"], [a, b], 2, [random, random])
    VersionStats.objects.filter(version=a).update(games=7, move_time_3=5)
    VersionStats.objects.filter(version=b).delete()  # a backfill: no rows yet
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("stats_recount", stdout=out)
    assert "games" in out.getvalue() and "missing" in out.getvalue()
    call_command("stats_recount", "--fix", stdout=io.StringIO())
    assert stats_recount() == []
    assert stats_recount(batch=1) == []  # each match read by both sides' batches
    assert VersionStats.objects.get(version=a).games == 2
    assert VersionStats.objects.get(version=b).games == 2


# -- the page and the API ------------------------------------------------------------------

def _world(people: People) -> dict[str, Any]:
    """alice's bot (two versions) against bob's, a timeout of hers with a detail naming a
    server folder and a private log; the sums rebuilt from these matches (``finished``
    writes the rows finishing would, not the sums)."""
    old, new = active(people.alice, "mine"), active(people.alice, "mine", source=bots.FIRST)
    rival = active(people.bob, "rival")
    for seed in range(3):
        finished(old, rival, seed=seed, ago=600 - seed)
    last = finished(new, rival, seed=5)
    finished(rival, new, seed=6)
    Participant.objects.filter(match=last, seat=0).update(
        forfeit="timeout", outcome="loss",
        forfeit_detail=f"no move in 1.0 s; see {settings.DATA_DIR}/versions/7/main.py",
        log="MY-PRIVATE-LOG")
    solo = active(people.alice, "slider", game="g2048")
    for seed in (101, 102, 101):
        finished(solo, seed=seed)
    stats_recount(fix=True)
    return {"bot": old.bot_id, "new": new, "old": old, "rival": rival, "forfeit": last,
            "solo": solo.bot_id}


def test_the_page_shows_a_versions_results_forfeits_and_lengths(
        client: Client, people: People) -> None:
    w = _world(people)
    page = client.get(f"/bots/{w['bot']}/stats/").content.decode()
    assert "mine statistics" in page and "v2" in page  # the active (newest) version
    assert "Versions compared" in page and "By opponent" in page and "By seat" in page
    assert "rival" in page and f"/bots/{w['rival'].bot_id}/" in page
    assert f"/matches/{w['forfeit'].pk}/#step={w['forfeit'].moves}" in page
    assert "timeouts" in page and "Game length" in page and "Move time" in page
    assert "&lt;server path&gt;" in page and str(settings.DATA_DIR) not in page
    assert "MY-PRIVATE-LOG" not in page  # logs are the owner's, never on this page
    older = client.get(f"/bots/{w['bot']}/stats/?version=1").content.decode()
    assert "v1 · " in older and "No forfeits." in older
    assert client.get(f"/bots/{w['bot']}/stats/?version=9").status_code == 404
    assert client.get(f"/bots/{w['bot']}/stats/?version=x").status_code == 404
    active(people.alice, "mine", source=bots.RANDOM + "# v3\n")  # active, yet to play
    fresh = client.get(f"/bots/{w['bot']}/stats/").content.decode()
    assert "v3 · " in fresh and "No ladder games yet." in fresh and "No forfeits." in fresh
    assert client.get(f"/api/bots/{w['bot']}/stats/").json()["totals"]["games"] == 0
    bot_page = client.get(f"/bots/{w['bot']}/").content.decode()
    assert f'href="/bots/{w["bot"]}/stats/"' in bot_page


def test_a_scored_bots_page_lists_its_seeds(client: Client, people: People) -> None:
    w = _world(people)
    page = client.get(f"/bots/{w['solo']}/stats/").content.decode()
    assert "By seed" in page and "By opponent" not in page
    assert re.search(r"<td>101</td><td>2</td>", page)


def test_the_api_gives_the_same_figures(client: Client, people: People) -> None:
    w = _world(people)
    data = client.get(f"/api/bots/{w['bot']}/stats/").json()
    assert data["version"] == 2 and data["rated"] is True
    assert data["totals"]["games"] == 2 and data["totals"]["forfeits"]["timeout"] == 1
    assert [v["version"] for v in data["versions"]] == [2, 1]
    assert data["versions"][1]["totals"]["games"] == 3
    assert data["opponents"][0]["name"] == "rival" and data["opponents_met"] == 1
    assert sorted(s["seat"] for s in data["seats"]) == [0, 1]
    [example] = data["latest_forfeits"]
    assert example["match"] == w["forfeit"].pk and example["step"] == w["forfeit"].moves
    assert "<server path>" in example["detail"] and "MY-PRIVATE-LOG" not in str(data)
    assert sum(b["count"] for b in data["lengths"]) == 2
    old = client.get(f"/api/bots/{w['bot']}/stats/?version=1").json()
    assert old["totals"]["games"] == 3 and old["latest_forfeits"] == []
    assert client.get(f"/api/bots/{w['bot']}/stats/?version=9").status_code == 404
    assert client.get(f"/api/bots/{w['bot']}/stats/?version=x").status_code == 400
    solo = client.get(f"/api/bots/{w['solo']}/stats/").json()
    assert {s["seed"]: s["totals"]["games"] for s in solo["seeds"]} == {101: 2, 102: 1}


@pytest.mark.parametrize("url", ["/bots/{bot}/stats/", "/api/bots/{bot}/stats/"])
def test_the_statistics_read_as_many_queries_with_30_opponents_as_with_3(
        client: Client, people: People, url: str, django_assert_max_num_queries) -> None:
    client.force_login(people.alice)
    ids = populate(people, 3)
    stats_recount(fix=True)
    few, few_listed = count(client, url.format(bot=ids["bot"]))
    ids = rebuild(people, 30)
    stats_recount(fix=True)
    with django_assert_max_num_queries(MAX_QUERIES):
        many, many_listed = count(client, url.format(bot=ids["bot"]))
    print(f"{url}: {few} queries")
    if url.startswith("/api/"):  # no "results": count the opponents listed
        assert len(client.get(url.format(bot=ids["bot"])).json()["opponents"]) == 15
    else:
        assert many_listed > few_listed
    assert many == few, f"{few} queries with 3 opponents, {many} with 30"
