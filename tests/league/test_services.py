"""Owners' and staff's switches, matchmaking's choices and the admin's queue, on PostgreSQL."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client

from league.bots.models import Bot, BotVersion
from league.bots.services import UploadError, bot_set_source_public
from league.ladders.matchmaking import ladder_fill, matchmaking_tick
from league.ladders.models import Ladder, Match, MatchKind, MatchStatus, Participant
from league.ladders.reasons import reason_words
from league.ladders.selectors import ladder_board
from league.ladders.services import (
    bot_disable,
    bot_retire,
    match_create,
    match_rerun,
    standing_place,
    version_upload,
)
from tests.league import bots

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ladders_rolled_back")]


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice")


def active(owner: User, name: str, game: str = "stones") -> BotVersion:
    """An uploaded version marked as validated, without playing its smoke match."""
    version = version_upload(owner=owner, game=game, name=name, filename="main.py",
                             data=bots.RANDOM.encode() + f"# {name}\n".encode())
    Match.objects.filter(kind=MatchKind.VALIDATION).delete()
    version.status = "active"
    version.save()
    Bot.objects.filter(pk=version.bot_id).update(active_version=version)
    standing_place(ladder=Ladder.objects.get(game=game), version=version)
    return version


def scheduled_versions() -> set[int]:
    return set(Participant.objects.filter(match__kind=MatchKind.LADDER)
               .values_list("version_id", flat=True))


def test_matchmaking_keeps_each_ladder_near_capacity_and_no_further(alice: User) -> None:
    for i in range(4):
        active(alice, f"bot{i}")
    ladder = Ladder.objects.get(game="stones")
    assert ladder_fill(ladder=ladder, target=4, rng=random.Random(1)) == 4
    assert ladder_fill(ladder=ladder, target=4, rng=random.Random(1)) == 0
    Match.objects.filter(ladder=ladder).update(status=MatchStatus.FINISHED)
    assert ladder_fill(ladder=ladder, target=4, rng=random.Random(1)) == 4
    assert sum(matchmaking_tick(rng=random.Random(2)).values()) == 0  # stones is full


def test_retired_and_disabled_bots_are_never_scheduled(alice: User) -> None:
    keep = [active(alice, "a"), active(alice, "b")]
    retired, disabled = active(alice, "c"), active(alice, "d")
    bot_retire(bot=retired.bot)
    bot_disable(bot=disabled.bot, reason="cheating")
    ladder = Ladder.objects.get(game="stones")
    for seed in range(20):
        ladder_fill(ladder=ladder, target=40, rng=random.Random(seed))
    assert scheduled_versions() == {v.pk for v in keep}
    assert {row.bot for row in ladder_board(ladder)} == {"a", "b"}


def test_a_scored_fill_makes_no_run_for_a_bot_retired_after_it_was_seen_owing(
        alice: User) -> None:
    """The versions owing seeds are read before the ladder's lock (``playing_ladders``); a
    bot retired or disabled in between gets no run: the seeds, read under it, have the say."""
    from league.ladders.matchmaking import owing_look, playing_ladders

    ladder = Ladder.objects.get(game="g2048")
    keep, retired, disabled = (active(alice, name, "g2048") for name in ("k", "r", "d"))
    owing = playing_ladders([ladder])[ladder]
    assert {version for version, _ in owing} == {keep.pk, retired.pk, disabled.pk}
    bot_retire(bot=retired.bot)
    bot_disable(bot=disabled.bot, reason="cheating")
    assert ladder_fill(ladder=ladder, target=owing_look(), rng=random.Random(1),
                       owing=owing) == min(owing_look(), len(ladder.seeds))
    assert scheduled_versions() == {keep.pk}


def test_retiring_or_disabling_cancels_the_bots_queued_matches(alice: User) -> None:
    a, b, c = active(alice, "a"), active(alice, "b"), active(alice, "c")
    ladder = Ladder.objects.get(game="stones")
    ab = match_create(ladder=ladder, kind=MatchKind.LADDER, seed=1, seats=[a, b])
    bc = match_create(ladder=ladder, kind=MatchKind.LADDER, seed=2, seats=[b, c])
    running = match_create(ladder=ladder, kind=MatchKind.LADDER, seed=3, seats=[a, c])
    Match.objects.filter(pk=running.pk).update(status=MatchStatus.RUNNING)
    bot_disable(bot=a.bot, reason="cheating")
    statuses = dict(Match.objects.values_list("pk", "status"))
    assert statuses == {ab.pk: "cancelled", bc.pk: "queued", running.pk: "running"}
    assert "disabled by staff: cheating" in Match.objects.get(pk=ab.pk).detail
    bot_retire(bot=c.bot)
    assert Match.objects.get(pk=bc.pk).status == "cancelled"
    assert BotVersion.objects.get(pk=c.pk).status == "retired"


def test_a_disabled_bot_takes_no_new_version(alice: User) -> None:
    version = active(alice, "a")
    bot_disable(bot=version.bot, reason="spam")
    with pytest.raises(UploadError, match="disabled by staff"):
        version_upload(owner=alice, game="stones", name="a", filename="main.py",
                       data=b"print(1)\n")


def test_an_owner_shares_a_bots_source_and_stops(alice: User) -> None:
    bot = active(alice, "a").bot
    assert bot.source_public is False, "off by default"
    assert bot_set_source_public(bot=bot, source_public=True).source_public is True
    assert Bot.objects.get(pk=bot.pk).source_public is True
    assert bot_set_source_public(bot=bot, source_public=False).source_public is False


def test_a_new_version_starts_at_its_bots_mu_with_sigma_reset(alice: User) -> None:
    first = active(alice, "a")
    ladder = Ladder.objects.get(game="stones")
    first.standings.filter(ladder=ladder).update(mu=31.0, sigma=2.0)
    second = version_upload(owner=alice, game="stones", name="a", filename="main.py",
                            data=b"# v2\n" + bots.RANDOM.encode())
    standing = standing_place(ladder=ladder, version=second)
    assert (standing.mu, standing.sigma) == (31.0, pytest.approx(25 / 3))


def test_staff_see_the_queue_and_re_run_a_failed_match(alice: User) -> None:
    a, b = active(alice, "a"), active(alice, "b")
    ladder = Ladder.objects.get(game="stones")
    match = match_create(ladder=ladder, kind=MatchKind.LADDER, seed=1, seats=[a, b])
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FAILED, attempts=3,
                                             reason="infrastructure", detail="docker down")
    staff = User.objects.create_superuser("root", password="pw")
    client = Client()
    client.force_login(staff)
    queue = client.get("/admin/ladders/match/?status__exact=failed")
    assert queue.status_code == 200 and "infrastructure" in queue.content.decode()
    response = client.post("/admin/ladders/match/", {
        "action": "rerun", "_selected_action": [match.pk]})
    assert response.status_code == 302
    match.refresh_from_db()
    assert (match.status, match.attempts, match.detail) == ("queued", 0, "")
    assert match_rerun(match=match).status == "queued"  # a queued match is left as it is


def test_staff_disable_a_bot_from_the_admin(alice: User) -> None:
    version = active(alice, "a")
    staff = User.objects.create_superuser("root", password="pw")
    client = Client()
    client.force_login(staff)
    response = client.post("/admin/bots/bot/", {"action": "disable",
                                                "_selected_action": [version.bot_id]})
    assert response.status_code == 302
    bot = Bot.objects.get(pk=version.bot_id)
    assert bot.disabled and "root" in bot.disabled_reason


def test_the_home_page_shows_ladders_leaders_and_latest_matches(alice: User) -> None:
    a, b = active(alice, "alpha"), active(alice, "beta")
    ladder = Ladder.objects.get(game="stones")
    match = match_create(ladder=ladder, kind=MatchKind.LADDER, seed=1, seats=[a, b])
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, reason="no-legal-move")
    page = Client().get("/").content.decode()
    for text in ("Blokus Duo", "Stones", "Wizard Duel", "2048", "Robots", "alpha", "beta",
                 reason_words("no-legal-move")):  # how it ended, in the glossary's words
        assert text in page


def test_a_version_validated_after_a_newer_one_does_not_replace_it(alice: User) -> None:
    from league.ladders.claiming import match_claim
    from league.ladders.finishing import _judge_validation

    old = version_upload(owner=alice, game="stones", name="a", filename="main.py",
                         data=b"# v1\n" + bots.RANDOM.encode())
    new = version_upload(owner=alice, game="stones", name="a", filename="main.py",
                         data=b"# v2\n" + bots.RANDOM.encode())
    by_version = {p.version_id: p for p in Participant.objects.filter(
        match__kind=MatchKind.VALIDATION, seat=0)}
    for version in (new, old):  # the newer smoke match ends first
        claimed = match_claim(match_id=by_version[version.pk].match_id, worker="host:1")
        assert claimed is not None
        _judge_validation(claimed, [{"forfeit": "", "log": "", "score": None}
                                    for _ in claimed.seats])
    new.refresh_from_db()
    old.refresh_from_db()
    assert (new.status, old.status) == ("active", "retired")
    assert "after v2" in old.reason
    assert Bot.objects.get(pk=new.bot_id).active_version_id == new.pk
