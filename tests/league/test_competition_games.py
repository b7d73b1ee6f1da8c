"""What a competition plays and how it moves on, on the test database and Redis without
workers (their own runs: test_tournaments.py, test_tournament_faults.py): the version frozen
at the start plays every game, whatever is uploaded later; a game whose match failed (an
infrastructure fault, after its retries) is played again by a new match, twice at most, then
counts as a draw and its page says so; and the bell an ended game rings goes to the ticks'
queue."""

from __future__ import annotations

import json

import pytest
import redis
from django.conf import settings
from django.test import Client
from django.utils import timezone

from league.bots.models import Bot
from league.competitions.models import ChallengeGame, ChallengeState, SeriesGame, TournamentState
from league.competitions.progress import competitions_tick
from league.competitions.results import MAX_REPLAYS
from league.competitions.selectors import tournament_table
from league.competitions.services import challenge_create
from league.ladders.kinds import COMPETITION_ENDED_TASK, VALIDATED_TASK
from league.ladders.lifecycle import tell_end
from league.ladders.models import Match, MatchKind, Participant
from tests.league import bots
from tests.league.conftest import People
from tests.league.pages import active
from tests.league.tournament_world import (
    field,
    finish_open,
    open_tournament,
    play_rounds,
    start,
)


def fail(match_id: int) -> None:
    """The match ends as the lifecycle ends one after its last retry."""
    Match.objects.filter(pk=match_id).update(
        status="failed", reason="infrastructure", finished_at=timezone.now(),
        detail="after 3 attempts: OSError: no space left on device")


def test_the_version_frozen_at_the_start_plays_every_game(people: People) -> None:
    versions = field(people.alice, 4)
    t = open_tournament(people.alice, versions, "swiss", rounds=2)
    before = active(people.alice, versions[1].bot.name, source=bots.FIRST)
    t = start(t)
    after = active(people.alice, versions[0].bot.name, source=bots.FIRST)
    assert Bot.objects.get(pk=after.bot_id).active_version_id == after.pk
    t = play_rounds(t)
    assert t.state == TournamentState.FINISHED

    def played(version) -> set[int]:
        return set(Participant.objects.filter(match__series_game__series__tournament=t,
                                              version__bot_id=version.bot_id)
                   .values_list("version_id", flat=True))

    assert played(after) == {versions[0].pk}, "a version uploaded after the start played"
    assert played(before) == {before.pk}, "the version active at the start did not play"
    assert t.entries.get(bot_id=after.bot_id).version_id == versions[0].pk


@pytest.fixture
def ticks_queue() -> redis.Redis:
    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.delete(settings.LEAGUE_TICK_QUEUE)
    yield broker
    broker.delete(settings.LEAGUE_TICK_QUEUE)


def test_an_ended_competition_match_rings_the_bell_on_the_ticks_queue(
        ticks_queue: redis.Redis) -> None:
    tell_end(match_id=41, kind=MatchKind.LADDER)
    assert ticks_queue.llen(settings.LEAGUE_TICK_QUEUE) == 0
    tell_end(match_id=42, kind=MatchKind.TOURNAMENT)
    tell_end(match_id=43, kind=MatchKind.CHALLENGE)
    # (a validation rings the version tests' bell: an upload with a test starts its test)
    tell_end(match_id=40, kind=MatchKind.VALIDATION)
    sent = [json.loads(raw)["headers"] for raw in
            ticks_queue.lrange(settings.LEAGUE_TICK_QUEUE, 0, -1)]
    assert sorted((h["task"], h["argsrepr"]) for h in sent) == sorted([
        (COMPETITION_ENDED_TASK, "(42,)"), (COMPETITION_ENDED_TASK, "(43,)"),
        (VALIDATED_TASK, "(40,)")])


def test_a_failed_game_is_played_again_twice_then_counts_as_a_draw(people: People) -> None:
    a, b = field(people.alice, 2)
    t = start(open_tournament(people.alice, [a, b], "round_robin", games_per_series=2))
    first = SeriesGame.objects.filter(series__tournament=t).order_by("index").first()
    matches = []
    for replays in range(MAX_REPLAYS + 1):
        game = SeriesGame.objects.select_related("match").get(pk=first.pk)
        assert (game.replays, game.match.status) == (replays, "queued")
        assert game.match_id not in matches, "a failed match was given to the game again"
        matches.append(game.match_id)
        fail(game.match_id)
        competitions_tick()  # what the bell does on the ticks' worker
    game = SeriesGame.objects.get(pk=first.pk)
    assert (game.replays, game.match_id) == (MAX_REPLAYS, matches[-1]), "played a 4th time"
    finish_open()  # the other game: the older version, a's, wins it
    competitions_tick()
    t.refresh_from_db()
    assert t.state == TournamentState.FINISHED
    rows = {row.entry.bot_id: row for row in tournament_table(t)}
    assert (rows[a.bot_id].points, rows[a.bot_id].game_points) == (1, 1.5)
    assert (rows[b.bot_id].points, rows[b.bot_id].game_points) == (0, 0.5)
    html = Client().get(f"/tournaments/{t.pk}/").content.decode()
    assert f'href="/matches/{matches[-1]}/"' in html
    assert "the league could not play it (no bot's fault): counted as a draw" in html


def test_a_failed_challenge_game_is_played_again_then_given_up(people: People) -> None:
    mine, theirs = active(people.bob, "mine"), active(people.alice, "theirs")
    c = challenge_create(user=people.bob, bot=Bot.objects.get(pk=mine.bot_id),
                         opponent=theirs.bot, games_count=1)
    for replays in range(MAX_REPLAYS + 1):
        game = ChallengeGame.objects.get(challenge=c)
        assert game.replays == replays and game.match is not None
        fail(game.match_id)
        competitions_tick()
    c.refresh_from_db()
    assert c.state == ChallengeState.FINISHED
    assert ChallengeGame.objects.get(challenge=c).replays == MAX_REPLAYS


def test_a_challenge_cancelled_midway_keeps_its_played_games_and_plays_no_more(
        people: People) -> None:
    """Its challenger (or staff) cancels it: the games not played yet are cancelled, the one
    played keeps its result, nothing is released for it again; nobody else may."""
    from league.competitions.services import CompetitionError, challenge_cancel

    mine, theirs = active(people.bob, "mine"), active(people.alice, "theirs")
    c = challenge_create(user=people.bob, bot=Bot.objects.get(pk=mine.bot_id),
                         opponent=theirs.bot, games_count=4)
    first = ChallengeGame.objects.filter(challenge=c).order_by("index").first()
    finish_open([first.match])
    with pytest.raises(CompetitionError, match="only the challenger and staff"):
        challenge_cancel(challenge=c, user=people.alice)
    client = Client()
    client.force_login(people.bob)
    assert "Cancel the challenge" in client.get(f"/challenges/{c.pk}/").content.decode()
    assert client.post(f"/challenges/{c.pk}/cancel/").status_code == 302
    c.refresh_from_db()
    assert c.state == ChallengeState.CANCELLED and c.finished_at is not None
    statuses = sorted(g.match.status for g in ChallengeGame.objects.filter(challenge=c)
                      .select_related("match") if g.match is not None)
    assert statuses.count("finished") == 1 and set(statuses) <= {"finished", "cancelled"}
    competitions_tick()
    assert not Match.objects.filter(challenge_game__challenge=c, status__in=["queued",
                                                                             "running"])
    page = client.get(f"/challenges/{c.pk}/").content.decode()
    assert "after 1 of 4 games" in page and "Cancel the challenge" not in page
    with pytest.raises(CompetitionError, match="cancelled already"):
        challenge_cancel(challenge=c, user=people.sam)
