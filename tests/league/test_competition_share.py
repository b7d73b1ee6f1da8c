"""The workers' share between ladders and competitions (docs/league.md, "The workers' share"):
competitions hold at most their open matches, challenges first; ladders count only their own
and divide their part among the ladders that have something to play. Then what a tournament
plays and how it moves on: the version frozen at the start, and the bell an ended game rings
on the ticks' queue. On the test database and Redis, without workers (the workers' own runs:
test_tournaments.py; the share measured: benchmarks/competition_share.py)."""

from __future__ import annotations

import json
import random

import pytest
import redis
from django.conf import settings

from league.bots.models import Bot
from league.competitions.models import ChallengeGame, SeriesGame, TournamentState
from league.competitions.progress import release
from league.competitions.services import challenge_create
from league.ladders.lifecycle import (
    COMPETITION_ENDED_TASK,
    COMPETITION_KINDS,
    OPEN,
    ring_competition,
)
from league.ladders.matchmaking import matchmaking_tick, playing_ladders
from league.ladders.models import Ladder, Match, MatchKind, Participant, Standing
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

open_competition = Match.objects.filter(kind__in=COMPETITION_KINDS, status__in=OPEN)


def test_competitions_hold_at_most_their_share_and_a_challenge_goes_first(
        people: People, settings: object) -> None:
    settings.LEAGUE_COMPETITION_OPEN = 3
    versions = field(people.alice, 4)
    t = start(open_tournament(people.alice, versions, "round_robin", games_per_series=2))
    owed = SeriesGame.objects.filter(series__tournament=t)
    assert owed.count() == 4 and open_competition.count() == 3  # round 1: two series of two
    mine = active(people.bob, "challenger")
    c = challenge_create(user=people.bob, bot=Bot.objects.get(pk=mine.bot_id),
                         opponent=versions[0].bot, games_count=2)
    assert not ChallengeGame.objects.filter(challenge=c, match__isnull=False).exists(), \
        "released beyond the competitions' share"
    finish_open(list(open_competition[:2]))
    assert release() == 2
    # the room went to the challenge (someone is waiting), not to the older tournament game
    assert ChallengeGame.objects.filter(challenge=c, match__isnull=False).count() == 2
    assert owed.filter(match=None).count() == 1 and open_competition.count() == 3


def test_a_challenge_is_queued_at_once(people: People) -> None:
    mine, theirs = active(people.bob, "mine"), active(people.alice, "theirs")
    c = challenge_create(user=people.bob, bot=Bot.objects.get(pk=mine.bot_id),
                         opponent=theirs.bot, games_count=3)
    games = ChallengeGame.objects.filter(challenge=c).select_related("match").order_by("index")
    assert [g.match.status for g in games if g.match] == ["queued"] * 3


def test_the_ladders_part_is_divided_among_the_ladders_that_play(people: People,
                                                                  settings: object) -> None:
    settings.LEAGUE_WORKER_SLOTS = 4
    settings.LEAGUE_COMPETITION_OPEN = 8
    stones = field(people.alice, 4)
    active(people.alice, "alone", game="blokus_duo")  # one bot: nobody to pair it with
    active(people.alice, "slider", game="g2048")  # owes every seed
    done = active(people.alice, "robot", game="robots")
    robots = Ladder.objects.get(game="robots")
    Standing.objects.filter(ladder=robots, version=done).update(games=len(robots.seeds))
    ladders = Ladder.objects.filter(active=True).order_by("pk")
    assert {ladder.game for ladder in playing_ladders(ladders)} == {"stones", "g2048"}
    # the competitions' part full of Stones games: they do not count against the ladder
    start(open_tournament(people.alice, stones, "round_robin", games_per_series=4))
    assert open_competition.count() == 8
    made = matchmaking_tick(rng=random.Random(1))
    # ceil(2 × 4 slots / 2 ladders that play) each; counting all five ladders would give 2
    assert made["stones"] == 4 and made["2048"] == 4
    assert made["blokus-duo"] == made["robots"] == made["wizard-duel"] == 0


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
    ring_competition(match_id=41, kind=MatchKind.LADDER)
    ring_competition(match_id=40, kind=MatchKind.VALIDATION)
    assert ticks_queue.llen(settings.LEAGUE_TICK_QUEUE) == 0
    ring_competition(match_id=42, kind=MatchKind.TOURNAMENT)
    ring_competition(match_id=43, kind=MatchKind.CHALLENGE)
    sent = [json.loads(raw)["headers"] for raw in
            ticks_queue.lrange(settings.LEAGUE_TICK_QUEUE, 0, -1)]
    assert sorted((h["task"], h["argsrepr"]) for h in sent) == [
        (COMPETITION_ENDED_TASK, "(42,)"), (COMPETITION_ENDED_TASK, "(43,)")]
