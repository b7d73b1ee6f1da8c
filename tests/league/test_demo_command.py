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
    assert Match.objects.filter(kind="validation").count() == len(DEMO_BOTS)
    shared = {b.name for b in Bot.objects.filter(source_public=True)}
    assert shared == {b.name for b in DEMO_BOTS if b.source_public} == {"squeeze-sam"}
    assert f"Stones: {len(STONES)} created" in out.splitlines()
    assert "password" not in out


def test_a_second_run_uploads_nothing() -> None:
    demo()
    out, err = demo()
    assert BotVersion.objects.count() == len(DEMO_BOTS)
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
    assert BotVersion.objects.count() == len(DEMO_BOTS) - 1


def test_it_makes_the_demo_tournaments_once_and_a_new_swiss_when_the_last_is_over() -> None:
    from league.competitions.models import Tournament

    out, _ = demo()
    assert "demo tournaments: Demo cup (Stones)" in out
    cup, swiss = Tournament.objects.get(name=CUP), Tournament.objects.get(name=SWISS)
    assert (cup.format, swiss.format) == ("single_elimination", "swiss")
    assert cup.official and swiss.official and cup.created_by.username == HOST
    assert sorted(cup.entries.values_list("bot__name", flat=True)) == sorted(
        b.name for b in DEMO_BOTS if b.game == "stones")
    demo()
    assert Tournament.objects.count() == 2
    Tournament.objects.filter(pk=swiss.pk).update(state="finished")
    Tournament.objects.filter(pk=cup.pk).update(state="finished")
    demo()
    assert Tournament.objects.filter(name=SWISS).count() == 2
    assert Tournament.objects.filter(name=CUP).count() == 1
