"""An upload with a test (issue 33): a new version that becomes the bot's active version only
if it passes a version test against the active one; until then the active one keeps its
place on the ladder.

The upload is checked here before anything is stored (a bot with an active version to test
against, the test's parameters, a test free to run, the ``versiontest`` rate) and goes
through ``ladders.services.version_upload`` with its ``test_request``. Its validation leaves
it ``testing`` instead of active (``ladders.finishing``) and rings the validation's bell
(``tasks.version_validated_task``), which starts its test here; the beat's tick starts any
whose bell was lost. The test's end settles it (``promotion``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from league.bots.models import Bot, BotVersion, VersionStatus
from league.ladders.models import Participant
from league.ladders.services import version_upload
from league.rate_limits import rate_hit
from league.versiontests import sprt
from league.versiontests.models import TestState, VersionTest
from league.versiontests.services import VersionTestError, version_test_create

NO_ACTIVE = ("{name} has no active version to test a new one against: upload it without a "
             "test, and it becomes active once it validates")


def test_request_checked(*, owner: AbstractBaseUser, game: str, name: str,
                         elo0: float = 0.0, elo1: float = 50.0, alpha: float = 0.05,
                         beta: float = 0.05, max_games: int | None = None) -> dict[str, Any]:
    """The test an upload asks for, checked as far as it can be before the upload (its
    bot, parameters, tests running): its ``test_request``; else ``VersionTestError``. A
    first version (or a bot with none active) is refused, not made active: the owner asked
    for a test, and a version with nothing to beat would skip it silently."""
    bot = Bot.objects.filter(game=game, name__iexact=name, owner_id=owner.pk).first()
    if bot is None or bot.active_version_id is None or bot.retired:
        raise VersionTestError(NO_ACTIVE.format(name=bot.name if bot else name))
    try:
        sprt.Bounds(elo0, elo1, alpha, beta)
    except ValueError as error:
        raise VersionTestError(str(error)) from None
    cap = settings.LEAGUE_VERSION_TEST_MAX_GAMES
    max_games = cap if max_games is None else max_games
    if not 2 <= max_games <= cap:
        raise VersionTestError(f"a test plays 2 to {cap} games, not {max_games}")
    running = VersionTest.objects.filter(owner_id=owner.pk, state=TestState.RUNNING).count()
    if running >= settings.LEAGUE_VERSION_TESTS_AT_ONCE:
        raise VersionTestError(f"you have {running} tests running; at most "
                               f"{settings.LEAGUE_VERSION_TESTS_AT_ONCE} at once: upload "
                               "without a test, or later")
    return {"elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta, "max_games": max_games}


def version_upload_tested(*, owner: AbstractBaseUser, game: str, name: str, filename: str,
                          data: bytes, **test: Any) -> BotVersion:
    """Upload a version that becomes active only if it passes its test (``test``: elo0,
    elo1, alpha, beta, max_games). Refusals: ``VersionTestError``, ``UploadError``,
    ``RateLimited`` (the upload's rate or the tests' rate, both counted here)."""
    request = test_request_checked(owner=owner, game=game, name=name, **test)
    rate_hit("versiontest", owner.pk)  # counted now: the test starts on a worker later
    return version_upload(owner=owner, game=game, name=name, filename=filename, data=data,
                          test_request=request)


def upload_test_start(*, version_id: int) -> VersionTest | None:
    """Start the test of a ``testing`` version that has none yet (once: under its row lock,
    so the bell and the tick never both start one); a test that cannot start leaves it
    off the ladder with why. The test, or None if there was nothing to start."""
    with transaction.atomic():
        version = (BotVersion.objects.select_for_update(of=("self",)).defer("archive")
                   .select_related("bot__owner").filter(pk=version_id).first())
        if version is None or version.status != VersionStatus.TESTING:
            return None
        request = dict(version.test_request or {})
        if request.get("test") is not None:
            return None  # started already
        params = {k: request[k] for k in ("elo0", "elo1", "alpha", "beta", "max_games",
                                          "public") if k in request}
        if version.bot.active_version_id is None and BotVersion.objects.filter(
                bot_id=version.bot_id, status=VersionStatus.VALIDATING).exists():
            # the version it is to beat is still in its validation (the demo uploads both at
            # once): the beat's tick starts the test once that one is active
            return None
        try:
            test = version_test_create(user=version.bot.owner, candidate=version,
                                       promotes=True, rated=False, **params)
        except VersionTestError as error:
            version.status = VersionStatus.RETIRED
            version.reason = (f"validated, but its test could not start ({error}): it stays "
                              "inactive")[:2000]
            version.save(update_fields=["status", "reason"])
            return None
        version.test_request = {**request, "test": test.pk}
        version.reason = (f"validated; becomes active if it passes its test against "
                          f"v{test.baseline.number} (test {test.pk})")
        version.save(update_fields=["test_request", "reason"])
        return test


def validation_ended(*, match_id: int) -> None:
    """The validation's bell: its version, if it was an upload with a test, starts it."""
    version_id = (Participant.objects.filter(match_id=match_id, version__isnull=False)
                  .values_list("version_id", flat=True).first())
    if version_id is not None:
        upload_test_start(version_id=version_id)


def uploads_tick() -> int:
    """The beat's pass: start the tests whose bell was lost; how many were started."""
    waiting = (BotVersion.objects.filter(status=VersionStatus.TESTING)
               .filter(test_request__test__isnull=True).values_list("pk", flat=True))
    return sum(upload_test_start(version_id=pk) is not None for pk in list(waiting))
