"""Seasons of a ladder (``league.ladders.seasons``): the close writes the board down as the
season's table and the start resets every standing (carrying a stated fraction of mu), in one
transaction that two ticks at once, or a retried one, run once; a match made before a season's
start and finished after it counts for no season; repeating seasons follow on their grid."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from league.ladders import finishing
from league.ladders.claiming import match_claim
from league.ladders.models import (
    Ladder,
    Match,
    Participant,
    Season,
    SeasonPlace,
    SeasonState,
    Standing,
)
from league.ladders.ratings import START_MU, START_SIGMA, Skill, season_skill
from league.ladders.recount import standings_recount
from league.ladders.seasons import (
    SeasonError,
    next_span,
    season_create,
    seasons_tick,
)
from league.ladders.services import match_create
from sandbox import BotSpec, run_match
from tests.league.pages import active

MINUTE = dt.timedelta(minutes=1)


def _board(alice: User, game: str = "stones") -> list:
    """Three bots with standings that differ (best first: gamma, alpha, beta) and one that
    never played."""
    versions = [active(alice, name, game=game) for name in ("alpha", "beta", "gamma", "idle")]
    for version, (mu, sigma, games, wins) in zip(
            versions, [(30.0, 2.0, 20, 12), (22.0, 1.5, 18, 6), (34.0, 1.8, 25, 20),
                       (25.0, START_SIGMA, 0, 0)], strict=True):
        Standing.objects.filter(version=version).update(
            mu=mu, sigma=sigma, games=games, wins=wins, losses=games - wins,
            score_sum=10.0 * games, score_sq_sum=100.0 * games)
    return versions


def _running(ladder: Ladder, now: dt.datetime, **more: object) -> Season:
    """A season that started a minute ago (started by the tick) and ends at ``now``."""
    season = season_create(ladder=ladder, starts_at=now - 2 * MINUTE, ends_at=now,
                           now=now - 2 * MINUTE, **more)
    assert seasons_tick(now - 2 * MINUTE) == {"started": 1, "ended": 0}
    season.refresh_from_db()
    assert season.state == SeasonState.RUNNING
    return season


def test_carry_keeps_a_fraction_of_mu_and_starts_sigma_wide() -> None:
    assert season_skill(Skill(35.0, 1.2), 0.0) == Skill(START_MU, START_SIGMA)
    assert season_skill(Skill(35.0, 1.2), 1.0) == Skill(35.0, START_SIGMA)
    half = season_skill(Skill(START_MU + 10, 1.2), 0.5)
    assert half.mu == pytest.approx(START_MU + 5) and half.sigma == START_SIGMA
    below = season_skill(Skill(START_MU - 8, 3.0), 0.25)
    assert below.mu == pytest.approx(START_MU - 2)


@pytest.mark.django_db
def test_the_end_keeps_the_table_and_the_start_resets_every_standing(people) -> None:
    ladder = Ladder.objects.get(game="stones")
    alpha, beta, gamma, _idle = _board(people.alice)
    now = timezone.now()
    # the start (before the board above was played) reset it; play it "during" the season
    season = season_create(ladder=ladder, starts_at=now - 2 * MINUTE, ends_at=now,
                           now=now - 2 * MINUTE, carry=0.5, repeat=True)
    seasons_tick(now - 2 * MINUTE)
    _board_again(alpha, beta, gamma)
    assert seasons_tick(now) == {"started": 1, "ended": 1}

    season.refresh_from_db()
    assert season.state == SeasonState.ENDED and season.ended_at == now
    places = list(SeasonPlace.objects.filter(season=season).order_by("place")
                  .values_list("place", "bot__name", "games", "wins", "rating"))
    assert places == [(1, "gamma", 25, 20, pytest.approx(34.0 - 3 * 1.8)),
                      (2, "alpha", 20, 12, pytest.approx(30.0 - 3 * 2.0)),
                      (3, "beta", 18, 6, pytest.approx(22.0 - 3 * 1.5))], \
        "the table is the board's order, and a bot with no game in the season has no place"

    following = Season.objects.get(ladder=ladder, number=2)
    assert following.state == SeasonState.RUNNING
    assert (following.starts_at, following.ends_at) == (now, now + 2 * MINUTE)
    assert following.carry == 0.5 and following.repeat_every == 2 * MINUTE
    standings = {s.version_id: s for s in Standing.objects.filter(ladder=ladder)}
    assert standings[gamma.pk].mu == pytest.approx(START_MU + 0.5 * (34.0 - START_MU))
    assert standings[beta.pk].mu == pytest.approx(START_MU + 0.5 * (22.0 - START_MU))
    for standing in standings.values():
        assert standing.sigma == START_SIGMA, "everyone provisional again"
        assert (standing.games, standing.wins, standing.losses, standing.draws) == (0, 0, 0, 0)
        assert standing.since_match == following.after_match
    assert standings_recount() == [], "the recount counts the season's matches only"


def _board_again(*versions) -> None:
    for version, (mu, sigma, games, wins) in zip(
            versions, [(30.0, 2.0, 20, 12), (22.0, 1.5, 18, 6), (34.0, 1.8, 25, 20)],
            strict=True):
        Standing.objects.filter(version=version).update(
            mu=mu, sigma=sigma, games=games, wins=wins, losses=games - wins)


@pytest.mark.django_db
def test_a_scored_ladders_season_keeps_mean_scores_and_starts_the_seeds_again(people) -> None:
    ladder = Ladder.objects.get(game="g2048")
    versions = [active(people.alice, name, game="g2048") for name in ("low", "high")]
    now = timezone.now()
    season = _running(ladder, now, repeat=True)
    for version, score in zip(versions, (100.0, 900.0), strict=True):
        Standing.objects.filter(version=version).update(
            games=4, score_sum=4 * score, score_sq_sum=4 * score * score + 40.0)
    seasons_tick(now)
    rows = list(SeasonPlace.objects.filter(season=season).values_list("bot__name", "mean"))
    assert rows == [("high", 900.0), ("low", 100.0)]
    assert set(Standing.objects.filter(ladder=ladder).values_list("games", "score_sum")) == {
        (0, 0.0)}


@pytest.mark.django_db
def test_a_second_tick_or_a_retried_one_closes_nothing_again(people) -> None:
    ladder = Ladder.objects.get(game="stones")
    _board(people.alice)
    now = timezone.now()
    season = _running(ladder, now, repeat=True)
    Standing.objects.filter(ladder=ladder, version__bot__name="alpha").update(games=3)
    assert seasons_tick(now) == {"started": 1, "ended": 1}
    for _ in range(3):
        assert seasons_tick(now) == {"started": 0, "ended": 0}
        assert seasons_tick(now + dt.timedelta(seconds=30)) == {"started": 0, "ended": 0}
    assert SeasonPlace.objects.filter(season=season).count() == 1
    assert Season.objects.filter(ladder=ladder).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_ticks_at_once_close_a_season_once(ladders: dict[str, Ladder], alice: User
                                               ) -> None:
    ladder = ladders["stones"]
    _board(alice)
    now = timezone.now()
    season = _running(ladder, now, repeat=True)
    Standing.objects.filter(ladder=ladder).update(games=5)
    done: list[dict[str, int]] = []
    barrier = threading.Barrier(2)

    def tick() -> None:
        try:
            barrier.wait()
            done.append(seasons_tick(now))
        finally:
            connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(d["ended"] for d in done) == [0, 1], done
    assert sorted(d["started"] for d in done) == [0, 1], done
    assert SeasonPlace.objects.filter(season=season).count() == 4
    assert Season.objects.filter(ladder=ladder).count() == 2
    assert Season.objects.filter(ladder=ladder, state=SeasonState.RUNNING).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_match_made_before_the_start_and_finished_after_it_counts_for_no_season(
        ladders: dict[str, Ladder], alice: User) -> None:
    ladder = ladders["stones"]
    first, second = active(alice, "one"), active(alice, "two")
    before = match_create(ladder=ladder, kind="ladder", seed=1, seats=[first, second])
    claimed = match_claim(match_id=before.pk, worker="host:1")
    now = timezone.now()
    season_create(ladder=ladder, starts_at=now, length=MINUTE, now=now)
    assert seasons_tick(now)["started"] == 1
    after = match_create(ladder=ladder, kind="ladder", seed=2, seats=[first, second])
    record = run_match("stones", [BotSpec("builtin:random"), BotSpec("builtin:random")],
                       seed=1, backend="process")
    assert finishing.match_finish(match=claimed, record=record, error=None)

    old = Match.objects.get(pk=before.pk)
    assert old.status == "finished", "written as played: result and replay"
    assert Participant.objects.filter(match=old).exclude(outcome="").count() == 2
    assert not Participant.objects.filter(match=old, mu_after__isnull=False).exists()
    assert set(Standing.objects.filter(ladder=ladder).values_list("games", "mu", "sigma")) == {
        (0, START_MU, START_SIGMA)}, "it moved no rating of the new season"

    claimed = match_claim(match_id=after.pk, worker="host:1")
    record = run_match("stones", [BotSpec("builtin:random"), BotSpec("builtin:random")],
                       seed=2, backend="process")
    assert finishing.match_finish(match=claimed, record=record, error=None)
    assert set(Standing.objects.filter(ladder=ladder).values_list("games", flat=True)) == {1}
    assert standings_recount() == []


@pytest.mark.django_db
def test_seasons_missed_while_the_league_was_down_are_skipped(people) -> None:
    ladder = Ladder.objects.get(game="stones")
    now = timezone.now()
    season = _running(ladder, now, repeat=True)  # two minutes long
    later = now + 7 * MINUTE  # down for three and a half seasons
    assert next_span(season, later) == (now + 6 * MINUTE, now + 8 * MINUTE)
    assert seasons_tick(later) == {"started": 1, "ended": 1}
    numbers = list(Season.objects.filter(ladder=ladder).order_by("number").values_list(
        "number", "state", "starts_at"))
    assert numbers == [(1, "ended", now - 2 * MINUTE), (2, "running", now + 6 * MINUTE)]


@pytest.mark.django_db
def test_a_season_whose_whole_span_passed_unseen_ends_with_no_table(people) -> None:
    ladder = Ladder.objects.get(game="stones")
    _board(people.alice)
    now = timezone.now()
    season = season_create(ladder=ladder, starts_at=now, length=MINUTE, now=now)
    assert seasons_tick(now + 5 * MINUTE) == {"started": 0, "ended": 1}
    season.refresh_from_db()
    assert season.state == SeasonState.ENDED and not season.places.exists()
    assert Standing.objects.filter(ladder=ladder, games__gt=0).count() == 3, "untouched"


@pytest.mark.django_db
def test_staff_seasons_follow_each_other_and_say_what_is_wrong(people) -> None:
    ladder = Ladder.objects.get(game="stones")
    now = timezone.now()
    first = season_create(ladder=ladder, starts_at=now, length=dt.timedelta(days=7), now=now)
    with pytest.raises(SeasonError, match="runs until"):
        season_create(ladder=ladder, starts_at=now + dt.timedelta(days=3),
                      length=dt.timedelta(days=7), now=now)
    second = season_create(ladder=ladder, starts_at=first.ends_at,
                           length=dt.timedelta(days=7), now=now, name="Autumn")
    assert (second.number, second.title) == (2, "Autumn")
    for bad, words in (({"length": dt.timedelta(seconds=10)}, "lasts from"),
                       ({"length": MINUTE, "carry": 1.5}, "carry"),
                       ({"length": MINUTE, "starts_at": now - dt.timedelta(hours=1)},
                        "past"),
                       ({}, "an end or a length")):
        with pytest.raises(SeasonError, match=words):
            season_create(ladder=Ladder.objects.get(game="robots"), now=now,
                          **bad)  # type: ignore[arg-type]
