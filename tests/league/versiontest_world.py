"""Version tests for the tests that need no worker: two versions of one bot, and their
games "played" by finishing the matches by hand, then ringing the bell a worker rings (the
task function, called directly), so the test's own code counts, decides and queues."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.utils import timezone

from league.bots.models import BotVersion
from league.ladders.models import Match, MatchStatus, Participant
from league.versiontests import models as vt
from league.versiontests.tasks import match_ended_task
from tests.league import bots
from tests.league.pages import active


def two_versions(owner: User, name: str = "mybot", game: str = "stones"
                 ) -> tuple[BotVersion, BotVersion]:
    """(candidate, baseline): two validated versions of one bot, the newer the active one."""
    baseline = active(owner, name, game=game, source=bots.RANDOM)
    candidate = active(owner, name, game=game, source=bots.FIRST)
    return candidate, baseline


def open_games(test: vt.VersionTest) -> list[vt.TestGame]:
    return list(vt.TestGame.objects.filter(test=test, match__status=MatchStatus.QUEUED)
                .select_related("match"))


def finish(game: vt.TestGame, candidate: str | float) -> None:
    """End ``game``'s match as a worker would, the candidate's outcome ``candidate`` ("win",
    "draw", "loss"; a solo game: its score), then ring its bell."""
    match = game.match
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED,
                                             finished_at=timezone.now(), reason="game-over")
    test = game.test
    if test.solo:
        Participant.objects.filter(match=match, seat=0).update(score=float(candidate))
    else:
        other = {"win": "loss", "loss": "win", "draw": "draw"}[str(candidate)]
        mine = game.index  # game 0: the candidate in seat 0; game 1: in seat 1
        Participant.objects.filter(match=match, seat=mine).update(outcome=candidate)
        Participant.objects.filter(match=match, seat=1 - mine).update(outcome=other)
    match_ended_task(match.pk)


def fail(game: vt.TestGame) -> None:
    Match.objects.filter(pk=game.match_id).update(
        status=MatchStatus.FAILED, reason="infrastructure", finished_at=timezone.now())
    match_ended_task(game.match_id)


def play_pair(test: vt.VersionTest, first: str, second: str) -> None:
    """The lowest open pair: the candidate's results in its two games."""
    games = open_games(test)
    pair = min(g.pair for g in games)
    a, b = sorted((g for g in games if g.pair == pair), key=lambda g: g.index)
    finish(a, first)
    finish(b, second)
