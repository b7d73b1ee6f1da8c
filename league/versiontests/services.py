"""Starting and cancelling version tests: the owner's checks, the limits, the first pairs."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

import games
from league.bots.models import Bot, BotVersion
from league.ladders.models import Ladder
from league.rate_limits import rate_hit
from league.versiontests import sprt
from league.versiontests.models import TestState, VersionTest
from league.versiontests.progress import unplayable, versiontest_advance, versiontest_finish


class VersionTestError(Exception):
    """A refusal, in words for the person who asked."""


def version_test_create(*, user: AbstractBaseUser, candidate: BotVersion,
                        baseline: BotVersion | None = None, elo0: float = 0.0,
                        elo1: float = 50.0, alpha: float = 0.05, beta: float = 0.05,
                        max_games: int | None = None, public: bool = False,
                        promotes: bool = False, rated: bool = True) -> VersionTest:
    """A test of ``candidate`` (a validated version of the user's) against ``baseline`` (by
    default its bot's active version; another version of the user's, or any playing bot's
    version), its first pairs queued. Limited by ``LEAGUE_VERSION_TESTS_AT_ONCE`` and the
    ``versiontest`` rate (``rated=False``: an upload with a test, whose upload counted it).
    ``promotes``: the candidate becomes active if it passes (``promotion``)."""
    candidate = BotVersion.objects.select_related("bot").get(pk=candidate.pk)
    bot: Bot = candidate.bot
    if bot.owner_id != user.pk:
        raise VersionTestError(f"{bot.name} is not yours; test one of your own versions")
    if baseline is None:
        if bot.active_version_id is None:
            raise VersionTestError(f"{bot.name} has no active version to test against; "
                                   "name a baseline")
        baseline = BotVersion.objects.select_related("bot").get(pk=bot.active_version_id)
    else:
        baseline = BotVersion.objects.select_related("bot").get(pk=baseline.pk)
    if baseline.pk == candidate.pk:
        raise VersionTestError("the candidate and the baseline are the same version")
    if baseline.bot.game != bot.game:
        raise VersionTestError(f"{baseline.bot.name} plays {baseline.bot.game}, "
                               f"not {bot.game}")
    for version in (candidate, baseline):
        why = unplayable(version)
        if why:
            raise VersionTestError(f"{why}: it cannot play a test")
    if baseline.bot.owner_id != user.pk and (baseline.bot.retired or
                                             baseline.bot.active_version_id is None):
        raise VersionTestError(f"{baseline.bot.name} does not play on the ladder")
    try:
        sprt.Bounds(elo0, elo1, alpha, beta)
    except ValueError as error:
        raise VersionTestError(str(error)) from None
    cap = settings.LEAGUE_VERSION_TEST_MAX_GAMES
    max_games = cap if max_games is None else max_games
    if not 2 <= max_games <= cap:
        raise VersionTestError(f"a test plays 2 to {cap} games, not {max_games}")
    ladder = Ladder.objects.filter(game=bot.game, active=True).first()
    if ladder is None:
        raise VersionTestError(f"{bot.game} has no open ladder to play a test on")
    with transaction.atomic():
        # counted under the user's row lock: two starts at once in two processes would
        # otherwise both count the same tests running and both go in
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        running = VersionTest.objects.filter(owner_id=user.pk,
                                             state=TestState.RUNNING).count()
        if running >= settings.LEAGUE_VERSION_TESTS_AT_ONCE:
            raise VersionTestError(f"you have {running} tests running; at most "
                                   f"{settings.LEAGUE_VERSION_TESTS_AT_ONCE} at once")
        if rated:
            rate_hit("versiontest", user.pk)
        test = VersionTest.objects.create(
            owner=user, bot=bot, candidate=candidate, baseline=baseline, ladder=ladder,
            solo=games.make_game(bot.game).num_players == 1, elo0=elo0, elo1=elo1,
            alpha=alpha, beta=beta, max_games=max_games, seed=secrets.randbelow(2**31),
            public=public, promotes=promotes, counts=[0] * 5)
        versiontest_advance(test_id=test.pk)  # queues the first pairs
    return test


def version_test_cancel(*, user: AbstractBaseUser, test: VersionTest,
                        reason: str = "cancelled by its owner") -> VersionTest:
    if test.owner_id != user.pk and not getattr(user, "is_staff", False):
        raise VersionTestError("only the test's owner (or staff) may cancel it")
    with transaction.atomic():
        test = VersionTest.objects.select_for_update().get(pk=test.pk)
        if test.state == TestState.RUNNING:
            # its owner cancelling it is not told so; staff cancelling it is
            versiontest_finish(test, TestState.CANCELLED, reason=reason,
                               tell=test.owner_id != user.pk)
    return test


def version_test_set_public(*, user: AbstractBaseUser, test: VersionTest,
                            public: bool) -> VersionTest:
    """Whether anyone may see the test and its games (else its owner and staff)."""
    if test.owner_id != user.pk:
        raise VersionTestError("only the test's owner may say who sees it")
    VersionTest.objects.filter(pk=test.pk).update(public=public)
    test.public = public
    return test
