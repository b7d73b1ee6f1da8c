"""The counters matchmaking reads (a standing's games, W/L/D, score sums, rating, recent
count) are kept by the finishing transaction and agree with a recount of the matches, however
many finish at once; ``standings_recount`` finds and sets right a counter that drifted."""

from __future__ import annotations

import io
import sqlite3
import threading
from datetime import UTC, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from league.ladders.boards import EPOCH, board_fresh
from league.ladders.claiming import match_claim
from league.ladders.finishing import match_finish
from league.ladders.models import Ladder, Standing
from league.ladders.ratings import decayed
from league.ladders.recount import standings_recount
from league.ladders.services import match_create
from sandbox import BotSpec, run_match
from tests.league.pages import active


def test_twenty_matches_finishing_at_once_leave_every_counter_exact(
        ladders: dict[str, Ladder], alice: User) -> None:
    versions = [active(alice, f"v{i}") for i in range(4)]
    claimed = []
    for n in range(20):
        a, b = versions[n % 4], versions[(n + 1 + n // 4) % 4]
        if a == b:
            b = versions[(n + 2) % 4]
        match = match_create(ladder=ladders["stones"], kind="ladder", seed=n, seats=[a, b])
        claimed.append(match_claim(match_id=match.pk, worker="host:1"))
    records = [run_match("stones", [BotSpec("builtin:random"), BotSpec("builtin:random")],
                         seed=n) for n in range(20)]
    go = threading.Barrier(20)
    written: list[bool] = []

    def finish(i: int) -> None:
        try:
            go.wait(30)
            written.append(match_finish(match=claimed[i], record=records[i], error=None))
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert written == [True] * 20
    assert sum(s.games for s in Standing.objects.filter(version__in=versions)) == 40
    assert all(s.recent > 0 for s in Standing.objects.filter(version__in=versions))
    assert standings_recount() == []


def test_a_counter_that_drifted_is_found_and_set_right(ladders: dict[str, Ladder],
                                                       alice: User) -> None:
    a, b = active(alice, "a"), active(alice, "b")
    match = match_create(ladder=ladders["stones"], kind="ladder", seed=1, seats=[a, b])
    record = run_match("stones", ["builtin:random", "builtin:random"], seed=1)
    assert match_finish(match=match_claim(match_id=match.pk, worker="h:1"), record=record,
                        error=None)
    Standing.objects.filter(version=a).update(games=7, recent=0)
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("standings_recount", stdout=out)
    assert "games 7 → 1" in out.getvalue() and "recent 0 → 1" in out.getvalue()
    call_command("standings_recount", "--fix", stdout=io.StringIO())
    assert standings_recount() == []
    assert Standing.objects.get(version=a).games == 1


def test_the_boards_recent_counts_decay_as_ratings_decayed_says(
        ladders: dict[str, Ladder], alice: User) -> None:
    """Matchmaking reads each standing's ``recent_at`` as epoch seconds from the database
    (PostgreSQL here, SQLite below: the embedded default), no datetime parsed per row, and
    decays the count with them; ``ratings.decayed`` is the rule."""
    now = timezone.now()
    ages = {"fresh": 0.0, "hour": 3600.0, "day": 86400.0, "never": None, "ahead": -60.0}
    versions = {}
    for name, age in ages.items():
        versions[name] = version = active(alice, name)
        Standing.objects.filter(version=version).update(
            recent=5.0 if age is not None else 0.0,
            recent_at=None if age is None else now - timedelta(seconds=age))
    read = board_fresh(ladders["stones"]).players
    for name, version in versions.items():
        standing = Standing.objects.get(version=version)
        want = decayed(standing.recent, standing.recent_at, now)
        assert read[version.pk].recent_now(now.timestamp()) == pytest.approx(
            want, rel=1e-9, abs=1e-12), name

    sql = f"SELECT {EPOCH['sqlite']} FROM (SELECT ? AS recent_at) s"
    with sqlite3.connect(":memory:") as db:
        for age in (0.0, 3600.0, 86400.0, -60.0):
            at = now - timedelta(seconds=age)
            stored = at.astimezone(UTC).replace(tzinfo=None).isoformat(" ")  # as Django writes
            (epoch,) = db.execute(sql, (stored,)).fetchone()
            assert epoch == pytest.approx(at.timestamp(), abs=1e-3), age
