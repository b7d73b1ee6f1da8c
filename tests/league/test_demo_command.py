"""``./manage.py demo``: demo users and bots through the ordinary upload service, and nothing
new on a second run unless a source changed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from league.bots.models import Bot, BotVersion
from league.demo.catalogue import DEMO_BOTS, DEMO_USERS, DemoBot
from league.demo.competitions import CUP, HOST, SWISS
from league.demo.services import Change, demo_bot_upload, stored_sha256
from league.demo.version_test import NAME as TESS
from league.ladders.models import Match

# The plain (rolled back) database: matches are queued as rows, and with no commit no
# message reaches the broker.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ladders_rolled_back")]

STONES = [bot for bot in DEMO_BOTS if bot.game == "stones"]


def demo(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("demo", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_uploads_every_demo_bot_as_its_owner_with_a_validation_match() -> None:
    out, err = demo()
    assert err == ""
    assert sorted(User.objects.values_list("username", flat=True)) == sorted(
        (*DEMO_USERS, HOST))
    assert not any(user.has_usable_password() for user in User.objects.all())
    for bot in DEMO_BOTS:
        version = BotVersion.objects.get(bot__game=bot.game, bot__name=bot.name)
        assert version.bot.owner.username == bot.owner
        assert version.filename == bot.filename
        assert version.sha256 == stored_sha256(bot.filename, bot.read())
    # and Testy Tess's two versions, the second uploaded with its test (the demo's test)
    assert Match.objects.filter(kind="validation").count() == len(DEMO_BOTS) + 2
    weak, strong = BotVersion.objects.filter(bot__name=TESS).order_by("number")
    assert (weak.test_request, strong.test_request["public"]) == (None, True)
    assert "demo version test: testy-tess v2" in out
    shared = {b.name for b in Bot.objects.filter(source_public=True)}
    assert shared == {b.name for b in DEMO_BOTS if b.source_public} == {"squeeze-sam"}
    assert f"Stones: {len(STONES)} created" in out.splitlines()
    assert "password" not in out


def test_a_second_run_uploads_nothing() -> None:
    demo()
    out, err = demo()
    assert BotVersion.objects.count() == len(DEMO_BOTS) + 2  # Tess's, made once
    assert err == ""
    assert all("all up to date" in line for line in out.splitlines()), out


def test_quiet_prints_nothing() -> None:
    assert demo("--quiet") == ("", "")


def test_a_changed_source_becomes_a_new_version(tmp_path: Path) -> None:
    demo()
    original = next(bot for bot in DEMO_BOTS if bot.filename == "main.py")
    changed = tmp_path / original.filename
    changed.write_bytes(original.read() + b"# a small change\n")
    bot = DemoBot(original.game, original.name, original.owner, original.filename, changed)
    owner = User.objects.get(username=original.owner)
    assert demo_bot_upload(bot=bot, owner=owner) == Change.UPDATED
    assert demo_bot_upload(bot=bot, owner=owner) == Change.UNCHANGED
    numbers = BotVersion.objects.filter(bot__game=bot.game, bot__name=bot.name)
    assert sorted(numbers.values_list("number", flat=True)) == [1, 2]


def test_a_name_taken_by_a_real_user_is_reported_and_the_rest_goes_up() -> None:
    taken = STONES[0]
    Bot.objects.create(owner=User.objects.create_user("mallory"), game=taken.game,
                       name=taken.name)
    out, err = demo()
    assert f"Stones: {len(STONES) - 1} created, 1 not uploaded" in out.splitlines()
    assert f"{taken.name} not uploaded" in err
    assert "is taken" in err
    assert BotVersion.objects.count() == len(DEMO_BOTS) - 1 + 2  # and Tess's two


def test_it_makes_the_demo_tournaments_once_and_the_swiss_comes_back_on_its_own() -> None:
    from datetime import timedelta

    from league.competitions.models import Recurrence, Tournament
    from league.competitions.recurring import recurrences_tick

    out, _ = demo()
    assert "demo tournaments: Demo cup (Stones)" in out
    cup, swiss = Tournament.objects.get(name=CUP), Tournament.objects.get(name=SWISS)
    assert (cup.format, swiss.format) == ("single_elimination", "swiss")
    assert cup.official and swiss.official and cup.created_by.username == HOST
    assert sorted(cup.entries.values_list("bot__name", flat=True)) == sorted(
        b.name for b in DEMO_BOTS if b.game == "stones")
    assert swiss.recurrence is not None and swiss.recurrence.every == timedelta(minutes=15)
    assert swiss.open_to_league_bots and not cup.recurrence
    demo()
    assert Tournament.objects.count() == 2
    Tournament.objects.filter(pk=swiss.pk).update(state="finished")
    Tournament.objects.filter(pk=cup.pk).update(state="finished")
    demo()  # the Swiss comes back by its schedule, not by the demo command
    assert Tournament.objects.filter(name=SWISS).count() == 1
    assert recurrences_tick() == 1
    following = Tournament.objects.filter(name=SWISS).latest("starts_at")
    assert following.starts_at == swiss.starts_at + timedelta(minutes=15)
    assert following.recurrence_id == swiss.recurrence_id and following.open_to_league_bots
    # staff stopped it and the last is over: the demo makes a new Swiss at its next start
    Recurrence.objects.update(active=False)
    Tournament.objects.filter(name=SWISS).update(state="finished")
    demo()
    assert Tournament.objects.filter(name=SWISS).count() == 3
    assert Tournament.objects.filter(name=CUP).count() == 1
