"""A tournament survives its worker SIGKILLed mid-round and its beat killed and restarted:
it finishes with every game played exactly once (one match per game, no game replayed, the
killed match re-queued by the reaper and finished by the next worker)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from benchmarks.common import kill_group
from league.competitions.models import Series, SeriesGame, Tournament, TournamentState
from league.ladders.models import Ladder, Match, MatchKind
from tests.league import bots
from tests.league.competition_world import enter, make_tournament, registration_over
from tests.league.conftest import ROOT, Worker, wait_for
from tests.league.conftest import test_database_url as database_url
from tests.league.pages import active

pytestmark = pytest.mark.slow
FAST = {"LEAGUE_MATCHMAKING_SECONDS": "0.5", "LEAGUE_REAPER_SECONDS": "1"}


@pytest.fixture
def start_beat(transactional_db: None, tmp_path: Path) -> Iterator[Callable[[], subprocess.Popen]]:
    started: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        env = {**os.environ, "DATABASE_URL": database_url(),
               "DJANGO_SETTINGS_MODULE": "tests.league_settings", **FAST}
        log = open(tmp_path / f"beat{len(started)}.log", "wb")  # noqa: SIM115 (closed by the OS)
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "league", "beat", "-l", "info",
             "--schedule", str(tmp_path / f"schedule{len(started)}")],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        started.append(process)
        return process

    yield start
    for process in started:
        kill_group(process)


def test_a_worker_sigkilled_and_the_beat_restarted_mid_round_lose_and_double_nothing(
        ladders: dict[str, Ladder], alice: User, start_worker: Callable[..., Worker],
        start_beat: Callable[[], subprocess.Popen]) -> None:
    worker = start_worker(env=FAST)
    beat = start_beat()
    versions = [active(alice, f"slow{i}", source=bots.SLOW) for i in range(4)]
    t = make_tournament(alice, "swiss", rounds=2, games_per_series=2, field_limit=4)
    enter(t, versions)
    registration_over(t)
    tournament_games = Match.objects.filter(kind=MatchKind.TOURNAMENT)
    wait_for(lambda: tournament_games.filter(status="running").exists(), 60,
             "a tournament game to run", worker.text)
    running = tournament_games.filter(status="running").first()
    worker.kill()  # SIGKILL to its whole group: the pool and the bots
    kill_group(beat)
    assert Match.objects.get(pk=running.pk).status == "running"
    second = start_worker(env=FAST)
    start_beat()

    def over() -> bool:
        return Tournament.objects.get(pk=t.pk).state == TournamentState.FINISHED

    wait_for(over, 240, "the tournament to finish", second.text)
    games = SeriesGame.objects.filter(series__tournament=t)
    assert Series.objects.filter(tournament=t).values("round").distinct().count() == 2
    assert games.count() == tournament_games.count() == 8, "a game played twice, or lost"
    assert not games.filter(replays__gt=0).exists()
    assert set(tournament_games.values_list("status", flat=True)) == {"finished"}
    killed = Match.objects.get(pk=running.pk)
    assert killed.attempts == 2, "the killed match was not re-queued and played again"
    assert killed.participants.exclude(outcome="").count() == 2
