"""Matchmaking's kept boards (``league.ladders.boards``): brought up to date from what the
filler reads under the ladder's lock, a kept board is the board a fresh read gives, so the
pairings chosen from it are the same; it reads the few standings that changed, not the
board; and a fill that rolls back leaves the board its process kept."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import transaction

from league.ladders import boards
from league.ladders.claiming import match_claim
from league.ladders.finishing import match_finish
from league.ladders.matchmaking import ladder_fill
from league.ladders.models import Ladder, Match, MatchKind
from tests.league.board_scenario import play_records, run
from tests.league.pages import active

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _only_what_matches_say(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No slack for stamped standings: every standing a kept board reads again is one the
    matches, the board's members or a stamp since the last read told it to."""
    monkeypatch.setattr(boards, "STAMP_SLACK", 0.0)
    monkeypatch.setattr(boards, "_kept", {})
    yield


def test_a_kept_board_is_the_fresh_board_through_a_ladders_random_life(
        ladders: dict[str, Ladder]) -> None:
    seen = run(steps=120, seed=3)
    # the scenario's steps all happened, and the ladder played
    assert {"fill", "finish", "fail", "re-run", "new version", "validating",
            "disable", "enable", "retire",
            "recount"} <= seen["steps"].keys(), seen
    assert seen["finished"] > 20 and seen["players"] >= 2, seen


def test_on_the_embedded_default_too(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    env.update(BOTLEAGUE_DATA=str(tmp_path), DJANGO_SETTINGS_MODULE="league.settings",
               LEAGUE_KEEP_BUSY="false", SCENARIO_STEPS="60")
    done = subprocess.run([sys.executable, "-m", "tests.league.board_scenario"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["engine"] == "sqlite" and seen["finished"] > 5, seen


def test_a_fill_reads_the_standings_its_matches_changed_not_the_board(
        ladders: dict[str, Ladder], alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    ladder = ladders["stones"]
    for i in range(12):
        active(alice, f"p{i}")
    read: list[int] = []
    board_read = boards._read

    def counted(*args: object, **kwargs: object) -> boards.Read:
        rows = board_read(*args, **kwargs)
        read.append(len(rows.players))
        return rows

    monkeypatch.setattr(boards, "_read", counted)
    assert ladder_fill(ladder=ladder, target=2, rng=random.Random(1)) == 2
    assert read == [12]  # the first fill reads the board
    [match, _] = Match.objects.filter(ladder=ladder, kind=MatchKind.LADDER)
    assert match_finish(match=match_claim(match_id=match.pk, worker="h:1"),
                        record=play_records()[0], error=None)
    assert ladder_fill(ladder=ladder, target=2, rng=random.Random(1)) == 2
    assert read == [12, 2]  # then the two whose standings the finished match changed
    assert ladder_fill(ladder=ladder, target=4, rng=random.Random(1)) == 2
    assert read == [12, 2, 0]  # nothing has finished since


def test_a_fill_that_rolls_back_leaves_the_kept_board_as_it_was(
        ladders: dict[str, Ladder], alice: User) -> None:
    ladder = ladders["stones"]
    for i in range(3):
        active(alice, f"r{i}")
    ladder_fill(ladder=ladder, target=2, rng=random.Random(1))
    kept = boards.board_known(ladder)
    assert kept is not None and kept.last_match == 0  # read before it made its matches
    with transaction.atomic():
        ladder_fill(ladder=ladder, target=4, rng=random.Random(1))
        transaction.set_rollback(True)
    assert boards.board_known(ladder) is kept
    ladder_fill(ladder=ladder, target=4, rng=random.Random(1))
    first_two = sorted(Match.objects.filter(ladder=ladder).values_list("pk", flat=True))[:2]
    assert boards.board_known(ladder).last_match == first_two[-1]


def test_boards_are_not_kept_across_a_restart_of_the_database_server(
        ladders: dict[str, Ladder], alice: User) -> None:
    """A fill commits without waiting for the disk: a server that crashed may have lost
    matches a kept board saw made. A new connection to a server started since forgets."""
    from django.db import connection

    ladder = ladders["stones"]
    for i in range(3):
        active(alice, f"s{i}")
    ladder_fill(ladder=ladder, target=2, rng=random.Random(1))
    assert boards.board_known(ladder) is not None
    connection.close()
    connection.ensure_connection()  # the same server: kept
    assert boards.board_known(ladder) is not None
    boards._server_started = "another start"  # as if the server had restarted meanwhile
    connection.close()
    connection.ensure_connection()
    assert boards.board_known(ladder) is None


def test_the_members_are_read_again_only_when_the_games_roster_has_moved(
        ladders: dict[str, Ladder], alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    """The roster (``bots.models.Roster``) is moved on by the database's own triggers, so a
    raw write to a bot, as a restore or a hand in psql makes, is seen as the services' are."""
    from django.db import connection

    ladder = ladders["stones"]
    versions = [active(alice, f"m{i}") for i in range(4)]
    asked: list[bool] = []  # whether each read of the board read its members
    board_read = boards._read

    def counted(*args: object, **kwargs: object) -> boards.Read:
        rows = board_read(*args, **kwargs)
        asked.append(rows.members is not None)
        return rows

    monkeypatch.setattr(boards, "_read", counted)
    ladder_fill(ladder=ladder, target=2, rng=random.Random(1))
    ladder_fill(ladder=ladder, target=4, rng=random.Random(1))
    assert asked == [True, False]  # read in full, then nothing about the bots changed
    with connection.cursor() as cursor:  # a write that changes no member
        cursor.execute("UPDATE bots_bot SET name = name || 'x' WHERE id = %s",
                       [versions[0].bot_id])
    ladder_fill(ladder=ladder, target=6, rng=random.Random(1))
    assert asked[-1] is False
    with connection.cursor() as cursor:  # one that takes a bot off the board
        cursor.execute("UPDATE bots_bot SET disabled = TRUE WHERE id = %s",
                       [versions[0].bot_id])
    ladder_fill(ladder=ladder, target=8, rng=random.Random(1))
    assert asked[-1] is True
    assert boards.board_known(ladder).members == {v.pk for v in versions[1:]}


def test_the_novices_kept_find_the_same_placing_players_as_a_pass_over_the_board() -> None:
    """Few still placing among many: each found by a search from the kept novices; what a
    pass over every player finds, in board order, with the open matches counted in."""
    from league.ladders.ratings import Skill

    rng = random.Random(5)
    players = {v: boards.Player(v, 1000 + v, Skill(rng.uniform(0, 50), rng.uniform(1, 8)),
                                rng.choice([0, 3, boards.NOVICE_GAMES - 1]) if v % 40 == 0
                                else rng.randrange(boards.NOVICE_GAMES, 200), 0.0, None)
               for v in range(2000)}
    order = sorted(p.place for p in players.values())
    novices = frozenset(v for v, p in players.items() if p.games < boards.NOVICE_GAMES)
    playing = {0: 1, 40: 2, 80: 1, 41: 3}
    searched = boards.BoardEntries(order, playing, 0.0, novices, players).placing()
    assert 0 < len(searched) < len(novices) * 2
    assert searched == boards.BoardEntries(order, playing, 0.0).placing()
    assert [order[i][2].version for i, _ in searched] == [
        p.version for _, _, p in order
        if p.games + playing.get(p.version, 0) < boards.NOVICE_GAMES]
