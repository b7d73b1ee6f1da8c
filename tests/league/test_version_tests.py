"""Version tests (issue 33) on the test database without workers: made through the service
with its refusals and limits, their games "played" by finishing the matches here by hand and
ringing the bell the worker rings (the task function, called directly), so the test's own
code counts each pair, decides and queues the next. A real worker's run:
test_version_tests_live.py."""

from __future__ import annotations

import pytest
from django.test import override_settings

from league.bots.models import BotVersion
from league.ladders.models import Match, MatchKind, MatchStatus, Participant
from league.ladders.services import bot_disable
from league.rate_limits import RateLimited
from league.versiontests import models as vt
from league.versiontests import progress
from league.versiontests.services import (
    VersionTestError,
    version_test_cancel,
    version_test_create,
)
from league.versiontests.tasks import match_ended_task
from tests.league.conftest import People
from tests.league.pages import active
from tests.league.versiontest_world import fail, finish, open_games, play_pair, two_versions

# -- Making a test, and its refusals ------------------------------------------------------


def test_a_test_queues_its_first_pairs_with_seats_swapped_on_one_seed(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    old = BotVersion.objects.get(pk=baseline.pk)
    test = version_test_create(user=people.alice, candidate=old)  # the active one: the newer
    assert test.baseline_id == candidate.pk and not test.solo
    games = list(vt.TestGame.objects.filter(test=test).select_related("match"))
    assert [(g.pair, g.index) for g in games] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    for g in games:
        assert g.match.kind == MatchKind.VERSIONTEST and g.match.status == MatchStatus.QUEUED
        seats = dict(Participant.objects.filter(match=g.match).values_list("seat", "version"))
        assert seats[g.index] == old.pk and seats[1 - g.index] == candidate.pk
    assert games[0].match.seed == games[1].match.seed != games[2].match.seed


def test_a_solo_game_plays_both_versions_on_the_same_seeds(people: People) -> None:
    candidate, baseline = two_versions(people.alice, game="g2048")
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    assert test.solo
    a, b = sorted((g for g in open_games(test) if g.pair == 0), key=lambda g: g.index)
    assert a.match.seed == b.match.seed
    assert list(Participant.objects.filter(match=a.match).values_list("version", flat=True)) \
        == [candidate.pk]
    assert list(Participant.objects.filter(match=b.match).values_list("version", flat=True)) \
        == [baseline.pk]
    for scores in ((1000, 800), (1200, 900), (900, 1000)):
        games = open_games(test)
        pair = min(g.pair for g in games)
        x, y = sorted((g for g in games if g.pair == pair), key=lambda g: g.index)
        finish(x, scores[0])
        finish(y, scores[1])
    test.refresh_from_db()
    assert test.sums == [3, 200 + 300 - 100, 200**2 + 300**2 + 100**2]
    assert test.pairs == 3 and test.state == vt.TestState.RUNNING


def test_refusals(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    theirs = active(people.bob, "theirs")
    solo = active(people.alice, "solo", game="g2048")

    def refused(words: str, **kwargs: object) -> None:
        kwargs = {"user": people.alice, "candidate": candidate, "baseline": baseline, **kwargs}
        with pytest.raises(VersionTestError, match=words):
            version_test_create(**kwargs)

    refused("not yours", user=people.bob)
    refused("same version", baseline=candidate)
    refused("plays g2048, not stones", baseline=solo)
    refused("elo0 must be below elo1", elo0=10, elo1=5)
    refused("alpha and beta", alpha=0.6)
    refused("alpha and beta", beta=0)
    refused("2 to 2000 games", max_games=1)
    refused("2 to 2000 games", max_games=5000)
    unvalidated = active(people.alice, "mybot")
    BotVersion.objects.filter(pk=unvalidated.pk).update(status="validating")
    refused("is validating", candidate=unvalidated)
    rejected = active(people.alice, "mybot")
    BotVersion.objects.filter(pk=rejected.pk).update(status="rejected")
    refused("is rejected", baseline=rejected)
    # another's bot that plays is a fine baseline; one of theirs off the ladder is not
    assert version_test_create(user=people.alice, candidate=candidate, baseline=theirs)
    bot_disable(bot=theirs.bot, reason="cheating")
    refused("was disabled", baseline=theirs)
    assert vt.VersionTest.objects.count() == 1


@override_settings(LEAGUE_VERSION_TESTS_AT_ONCE=2)
def test_at_most_two_tests_at_once_and_ten_an_hour(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    first = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    with pytest.raises(VersionTestError, match="2 tests running; at most 2 at once"):
        version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    version_test_cancel(user=people.alice, test=first)
    version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    for test in vt.VersionTest.objects.filter(state=vt.TestState.RUNNING):
        version_test_cancel(user=people.alice, test=test)
    with override_settings(LEAGUE_VERSION_TESTS_AT_ONCE=100):
        for _ in range(7):  # 10 an hour: three made above
            version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
        with pytest.raises(RateLimited, match="too many version tests started"):
            version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    assert vt.VersionTest.objects.count() == 10


# -- Counting, deciding, ending ------------------------------------------------------------


def test_counted_pair_by_pair_to_a_verdict_then_its_queued_games_are_cancelled(
        people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    play_pair(test, "win", "draw")  # 1½ points
    test.refresh_from_db()
    assert test.counts == [0, 0, 0, 1, 0] and (test.wins, test.draws, test.losses) == (1, 1, 0)
    assert len(test.history) == 1
    play_pair(test, "loss", "win")  # 1 point
    test.refresh_from_db()
    assert test.counts == [0, 0, 1, 1, 0] and (test.wins, test.draws, test.losses) == (2, 1, 1)
    pairs = 2
    while test.state == vt.TestState.RUNNING:
        play_pair(test, "win", "win")
        test.refresh_from_db()
        pairs += 1
        assert test.pairs == pairs and len(open_games(test)) <= 4, "more than 2 pairs open"
        assert pairs < 100, "never decided"
    assert test.state == vt.TestState.H1 and test.finished_at is not None
    assert test.llr >= progress.bounds_of(test).upper > test.history[-2]
    assert test.counts == [0, 0, 1, 1, pairs - 2]
    assert not open_games(test), "a queued game of an ended test was left to play"
    leftovers = Match.objects.filter(version_test_game__test=test,
                                     status=MatchStatus.CANCELLED)
    assert leftovers.count() == 2 and all(m.detail for m in leftovers)
    made = vt.TestGame.objects.filter(test=test).count()
    progress.versiontests_tick()
    assert vt.TestGame.objects.filter(test=test).count() == made, "a decided test made games"


def test_two_equal_versions_end_with_h0(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline,
                               elo0=0, elo1=100)
    # an even score with some spread: 2, 1, 0, 1 points a pair, over and over
    results = [("win", "win"), ("win", "loss"), ("loss", "loss"), ("draw", "draw")]
    for n in range(100):
        play_pair(test, *results[n % 4])
        test.refresh_from_db()
        if test.state != vt.TestState.RUNNING:
            break
    assert test.state == vt.TestState.H0 and test.pairs == 39  # as sprt.py says for these counts
    assert test.llr <= progress.bounds_of(test).lower


def test_identical_pairs_give_no_evidence_either_way(people: People) -> None:
    """Two copies of one deterministic bot split every pair 1-1: no spread, so normalised Elo
    cannot tell elo0 from elo1 and the test runs to its cap, undecided (never H1)."""
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline,
                               max_games=20)
    for _ in range(10):
        play_pair(test, "win", "loss")
    test.refresh_from_db()
    assert test.state == vt.TestState.UNDECIDED and abs(test.llr) < 0.5


def test_a_game_told_twice_counts_once(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    play_pair(test, "win", "win")
    [game] = vt.TestGame.objects.filter(test=test, pair=0, index=1)
    for _ in range(3):  # a retried task, a bell rung again after a lost worker
        match_ended_task(game.match_id)
        progress.versiontests_tick()
    test.refresh_from_db()
    assert test.counts == [0, 0, 0, 0, 1] and test.pairs == 1 and test.wins == 2
    assert vt.TestGame.objects.filter(test=test).values("pair").distinct().count() == 3


def test_a_failed_game_voids_its_pair_and_another_is_played(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline,
                               max_games=4)
    a, b = sorted((g for g in open_games(test) if g.pair == 0), key=lambda g: g.index)
    finish(a, "win")
    fail(b)
    test.refresh_from_db()
    assert test.pairs == 0 and test.counts == [0] * 5 and test.wins == 0
    assert sorted({g.pair for g in open_games(test)}) == [1, 2], "the void pair not replaced"
    play_pair(test, "win", "draw")
    play_pair(test, "draw", "draw")
    test.refresh_from_db()
    assert test.state == vt.TestState.UNDECIDED and test.pairs == 2  # its cap: 4 games counted


def test_a_game_its_version_forfeits_before_it_starts_counts_as_lost(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    a, b = sorted((g for g in open_games(test) if g.pair == 0), key=lambda g: g.index)
    finish(a, "win")
    # no outcome (no game was played): the candidate in seat 1 did not build
    Match.objects.filter(pk=b.match_id).update(status=MatchStatus.FINISHED,
                                               reason="build-error")
    Participant.objects.filter(match_id=b.match_id, seat=1).update(forfeit="compile")
    match_ended_task(b.match_id)
    test.refresh_from_db()
    assert test.counts == [0, 0, 1, 0, 0] and (test.wins, test.losses) == (1, 1)


def test_endless_failures_give_the_test_up(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    for _ in range(progress.MAX_VOID_PAIRS + 1):
        games = open_games(test)
        for game in [g for g in games if g.pair == min(o.pair for o in games)]:
            fail(game)
    test.refresh_from_db()
    assert test.state == vt.TestState.CANCELLED and "could not be played" in test.reason
    assert not open_games(test)


def test_a_disabled_bot_cancels_the_test(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    play_pair(test, "win", "win")
    bot_disable(bot=candidate.bot, reason="it attacks the referee")
    progress.versiontests_tick()  # no bell rings for games cancelled with the bot
    test.refresh_from_db()
    assert test.state == vt.TestState.CANCELLED and test.reason == "mybot was disabled"
    assert not open_games(test) and test.pairs == 1


def test_the_owner_or_staff_cancel_a_test_a_stranger_cannot(people: People) -> None:
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    with pytest.raises(VersionTestError, match="only the test's owner"):
        version_test_cancel(user=people.bob, test=test)
    assert len(open_games(test)) == 4
    test = version_test_cancel(user=people.sam, test=test)
    assert test.state == vt.TestState.CANCELLED and not open_games(test)
    [game] = vt.TestGame.objects.filter(test=test, pair=0, index=0)
    finish(game, "win")  # a game that was running plays out: the test is done
    test.refresh_from_db()
    assert test.state == vt.TestState.CANCELLED and test.pairs == 0
