"""Tournaments and challenges through real Celery workers on PostgreSQL and Redis: each format
run to its end, its table checked against a tally of the games' own results
(``tournament_checks``); a challenge of three games. The test process plays the beat
(``competitions_tick``), except for the round robin, whose rounds only the bell pairs: each
ended game rings it, and the workers (match and ticks queues) answer it. The embedded
default's run of the same is test_tournaments_embedded.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from league.bots.models import Bot, BotVersion
from league.competitions.models import (
    Challenge,
    ChallengeState,
    Series,
    SeriesGame,
    Tournament,
    TournamentState,
)
from league.competitions.progress import competitions_tick
from league.competitions.selectors import tournament_table
from league.competitions.services import challenge_create
from league.ladders.models import Ladder, Match, Standing
from tests.league import bots
from tests.league.competition_world import enter, make_tournament, registration_over
from tests.league.conftest import Worker, wait_for
from tests.league.pages import active
from tests.league.tournament_checks import (
    check_double_elimination,
    check_round_robin,
    check_scored,
    check_swiss,
)

pytestmark = pytest.mark.slow

SOURCES = [bots.RANDOM, bots.FIRST]


def field(game: str, n: int, owner: User) -> list[BotVersion]:
    """``n`` public bots with a validated version (random or first-legal-move players)."""
    return [active(owner, f"t{game[:3]}{i}", game=game, source=SOURCES[i % 2])
            for i in range(n)]


def run_tournament(worker: Worker, owner: User, game: str, fmt: str, n: int,
                   timeout: float = 240, beat: bool = True, **options: object) -> Tournament:
    """Made, entered, started by a tick and played to its end; ``beat=False``: no tick after
    the start, the bell alone moves it on."""
    versions = field(game, n, owner)
    t = make_tournament(owner, fmt, game, field_limit=n, **options)
    enter(t, versions)
    registration_over(t)

    def started() -> bool:
        competitions_tick()
        t.refresh_from_db()
        return t.state != TournamentState.REGISTRATION

    def over() -> bool:
        if beat:
            competitions_tick()
        t.refresh_from_db()
        return t.state in (TournamentState.FINISHED, TournamentState.CANCELLED)

    wait_for(started, 30, f"the {fmt} tournament to start")
    wait_for(over, timeout, f"the {fmt} tournament to finish", worker.text)
    assert t.state == TournamentState.FINISHED, t.note
    return t


def test_an_eight_entry_swiss_of_three_rounds(worker: Worker, ladders: dict[str, Ladder],
                                              alice: User) -> None:
    check_swiss(run_tournament(worker, alice, "stones", "swiss", 8, rounds=3), rounds=3)


def test_a_six_entry_double_elimination(worker: Worker, ladders: dict[str, Ladder],
                                        alice: User) -> None:
    check_double_elimination(run_tournament(worker, alice, "stones", "double_elimination", 6,
                                            games_per_series=1))


def test_a_five_entry_round_robin_moved_on_by_the_bell_alone(
        worker: Worker, ladders: dict[str, Ladder], alice: User) -> None:
    t = run_tournament(worker, alice, "stones", "round_robin", 5, beat=False)
    check_round_robin(t, 5)
    assert Series.objects.filter(tournament=t).values("round").distinct().count() == 5


def test_a_scored_2048_tournament(worker: Worker, ladders: dict[str, Ladder],
                                  alice: User) -> None:
    t = run_tournament(worker, alice, "g2048", "scored", 3, games_per_series=3)
    check_scored(t, entries=3, runs=3)
    assert not Standing.objects.filter(games__gt=0, version__bot__name__startswith="tg20"
                                       ).exclude(games=1).exists(), "no ladder score added"


def test_a_challenge_of_three_games(worker: Worker, ladders: dict[str, Ladder], alice: User,
                                    bob: User) -> None:
    mine = active(alice, "challenger", source=bots.FIRST)
    theirs = active(bob, "defender", source=bots.RANDOM)
    challenge = challenge_create(user=alice, bot=mine.bot, opponent=theirs.bot, games_count=3)

    def done() -> bool:
        competitions_tick()
        challenge.refresh_from_db()
        return challenge.state == ChallengeState.FINISHED

    wait_for(done, 120, "the challenge to finish", worker.text)
    matches = Match.objects.filter(challenge_game__challenge=challenge).order_by(
        "challenge_game__index")
    assert [m.kind for m in matches] == ["challenge"] * 3
    assert [m.status for m in matches] == ["finished"] * 3
    seats = [m.participants.get(version=mine).seat for m in matches]
    assert seats == [0, 1, 0]
    assert matches[0].seed == matches[1].seed
    assert not matches.filter(participants__mu_after__isnull=False).exists()
    assert Challenge.objects.get(pk=challenge.pk).finished_at is not None
    assert Bot.objects.get(pk=theirs.bot_id).accepts_challenges


def test_a_bot_disabled_mid_tournament_loses_its_unplayed_games_and_holds_nobody_up(
        start_worker, ladders: dict[str, Ladder], alice: User) -> None:
    from django.test.utils import override_settings

    from league.ladders.services import bot_disable

    one_at_a_time = {"LEAGUE_COMPETITION_OPEN": "1"}
    worker = start_worker(env=one_at_a_time)
    versions = field("stones", 4, alice)
    with override_settings(LEAGUE_COMPETITION_OPEN=1):
        t = make_tournament(alice, games_per_series=1, field_limit=4)
        enter(t, versions)
        registration_over(t)
        wait_for(lambda: competitions_tick() and Tournament.objects.get(pk=t.pk).state ==
                 TournamentState.RUNNING, 30, "the start")
        bad = versions[3]
        bot_disable(bot=Bot.objects.get(pk=bad.bot_id), reason="misbehaves")

        def over() -> bool:
            competitions_tick()
            return Tournament.objects.get(pk=t.pk).state == TournamentState.FINISHED

        wait_for(over, 120, "the tournament to finish", worker.text)
    entry = t.entries.get(bot_id=bad.bot_id)
    unplayed = SeriesGame.objects.filter(series__tournament=t, match=None)
    assert unplayed.exists(), "every game was released before the bot was disabled"
    assert all(entry.pk in (g.first_id, g.second_id) for g in unplayed)
    row = next(r for r in tournament_table(t) if r.entry.pk == entry.pk)
    assert row.losses >= unplayed.count()
