"""The workers' share between ladders and competitions (docs/league.md, "The workers' share"):
competitions hold at most their open matches, challenges first and queued at once; ladders
count only their own and divide their part among the ladders that have something to play.
On the test database, without workers (the share measured with them:
benchmarks/competition_share.py)."""

from __future__ import annotations

import random

from league.bots.models import Bot
from league.competitions.models import ChallengeGame, SeriesGame
from league.competitions.progress import release
from league.competitions.services import challenge_create
from league.ladders.kinds import COMPETITION_KINDS
from league.ladders.lifecycle import OPEN
from league.ladders.matchmaking import matchmaking_tick, playing_ladders
from league.ladders.models import Ladder, Match, Standing
from tests.league.conftest import People
from tests.league.pages import active
from tests.league.tournament_world import (
    field,
    finish_open,
    open_tournament,
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
