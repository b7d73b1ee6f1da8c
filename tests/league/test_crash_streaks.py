"""Crash streaks (``league.ladders.streaks``), counted in this process: a crash adds one, a
game played without one resets only a streak the claim saw, a validation's crash is not
counted, and the N-th crash in a row disables the bot once, telling its owner."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.db import transaction

from league.accounts.models import Profile
from league.bots.models import Bot, DisabledBy
from league.bots.services import UploadError, version_create
from league.ladders.claiming import Assignment, Claim, Seat
from league.ladders.models import Ladder
from league.ladders.services import bot_disable, version_make_active
from league.ladders.streaks import streaks_count
from league.notifications.models import Notice
from tests.league import bots
from tests.league.conftest import People


def match(kind: str, bot: Bot, streak: int, match_id: int = 1) -> Assignment:
    seats = [Seat(builtin="", version_id=1, sha256="", label="x", bot_id=bot.pk,
                  crash_streak=streak), Seat(builtin="random", version_id=None, sha256="",
                                             label="random")]
    return Assignment(claim=Claim(match_id, "t", 1), kind=kind, ladder_id=1, rated=False,
                      seed=0, game="stones", options={}, limits=None,  # type: ignore[arg-type]
                      backend="process", seats=seats)


def streak(bot: Bot) -> int:
    return Bot.objects.get(pk=bot.pk).crash_streak


@pytest.fixture
def bot(people: People) -> Bot:
    people.alice.email = "alice@example.org"
    people.alice.save()
    Profile.objects.create(user=people.alice, verified_email="alice@example.org")
    return Bot.objects.create(owner=people.alice, game="stones", name="wobbly")


CRASH: list[dict[str, Any]] = [{"forfeit": "crash"}, {}]
CLEAN: list[dict[str, Any]] = [{"forfeit": ""}, {"forfeit": "timeout"}]


def test_crashes_count_and_a_clean_game_resets(bot: Bot, settings: Any) -> None:
    settings.LEAGUE_CRASH_STREAK_DISABLE = 5
    streaks_count(match("ladder", bot, 0), CRASH)
    streaks_count(match("challenge", bot, 1), CRASH)
    assert streak(bot) == 2
    streaks_count(match("validation", bot, 2), CRASH)  # the version's verdict, not counted
    assert streak(bot) == 2
    streaks_count(match("ladder", bot, 0), CLEAN)  # the claim saw none: nothing written
    assert streak(bot) == 2
    streaks_count(match("ladder", bot, 2), CLEAN)
    assert streak(bot) == 0


def test_the_nth_crash_in_a_row_disables_the_bot_and_tells_its_owner_once(
        bot: Bot, settings: Any, django_capture_on_commit_callbacks: Any) -> None:
    settings.LEAGUE_CRASH_STREAK_DISABLE = 3
    with django_capture_on_commit_callbacks(execute=False):
        for n in range(4):
            streaks_count(match("ladder", bot, n, match_id=10 + n), CRASH)
    bot.refresh_from_db()
    assert bot.disabled and bot.disabled_reason == (
        "it crashed 3 games in a row (the last: match 12)")
    (notice,) = Notice.objects.all()
    assert notice.kind == "bot.disabled" and notice.title == "wobbly was disabled"
    assert "by the league: it crashed 3 games in a row" in notice.text
    assert mail.outbox == []  # sent by the notify worker, not here


def test_zero_never_disables(bot: Bot, settings: Any) -> None:
    settings.LEAGUE_CRASH_STREAK_DISABLE = 0
    for _ in range(10):
        streaks_count(match("ladder", bot, 0), CRASH)
    assert not Bot.objects.get(pk=bot.pk).disabled


@pytest.mark.usefixtures("ladders_rolled_back")
def test_a_bot_the_league_disabled_comes_back_with_a_version_that_validates(
        bot: Bot, settings: Any, django_capture_on_commit_callbacks: Any) -> None:
    settings.LEAGUE_CRASH_STREAK_DISABLE = 2
    with django_capture_on_commit_callbacks(execute=False):
        for n in range(2):
            streaks_count(match("ladder", bot, n), CRASH)
    bot.refresh_from_db()
    assert bot.disabled and bot.disabled_by == DisabledBy.LEAGUE
    assert "until a new version of it passes validation" in Notice.objects.get().text
    fixed = version_create(owner=bot.owner, game="stones", name="wobbly", filename="main.py",
                           data=bots.RANDOM.encode())  # taken: the league's disabling allows it
    with transaction.atomic():
        locked = Bot.objects.select_for_update().get(pk=bot.pk)
        version_make_active(version=fixed, bot=locked, ladder=Ladder.objects.get(game="stones"))
    bot.refresh_from_db()
    assert (bot.disabled, bot.disabled_by, bot.disabled_reason) == (False, "", "")
    assert bot.plays and bot.active_version_id == fixed.pk


@pytest.mark.usefixtures("ladders_rolled_back")
def test_a_bot_staff_disabled_takes_no_new_version(bot: Bot) -> None:
    bot_disable(bot=bot, reason="cheating")
    assert Bot.objects.get(pk=bot.pk).disabled_by == DisabledBy.STAFF
    with pytest.raises(UploadError, match=r"disabled by staff .cheating.; it takes no new"):
        version_create(owner=bot.owner, game="stones", name="wobbly", filename="main.py",
                       data=bots.RANDOM.encode())
