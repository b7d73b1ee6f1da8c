"""The events that reach ``notify`` from the apps that make them (issue 37), on the test
database without workers: a version test decided (and not told when its owner cancels it), a
challenge and a tournament finished, staff disabling a bot. Delivery itself is tested in
test_notifications.py and, end to end, test_notifications_e2e.py."""

from __future__ import annotations

from django.contrib.auth.models import User

from league.accounts.models import Profile
from league.bots.models import Bot
from league.competitions.models import ChallengeGame, ChallengeState
from league.competitions.progress import competitions_tick
from league.competitions.services import challenge_create
from league.ladders.models import Match
from league.ladders.services import bot_disable
from league.notifications.models import Notice
from league.versiontests import models as vt
from league.versiontests.services import version_test_cancel, version_test_create
from tests.league.competition_world import (
    bot_field,
    enter,
    make_tournament,
    play_to_the_end,
    start_now,
)
from tests.league.conftest import People
from tests.league.pages import active
from tests.league.versiontest_world import play_pair, two_versions


def confirmed(*users: User) -> None:
    for user in users:
        user.email = f"{user.username}@example.org"
        user.save()
        Profile.objects.update_or_create(user=user, defaults={"verified_email": user.email})


def told(kind: str) -> list[Notice]:
    return list(Notice.objects.filter(kind=kind).order_by("user__username"))


def test_a_decided_version_test_tells_its_owner_its_verdict(people: People) -> None:
    confirmed(people.alice)
    candidate, baseline = two_versions(people.alice)
    test = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    while test.state == vt.TestState.RUNNING:
        play_pair(test, "win", "win")
        test.refresh_from_db()
    (notice,) = told("versiontest.decided")
    assert notice.user == people.alice and notice.data["test"]["state"] == "h1"
    assert f"v{candidate.number} is stronger than" in notice.text
    assert f"/tests/{test.pk}/" in notice.data["link"]


def test_a_test_its_owner_cancels_is_not_told_one_staff_cancels_is(people: People) -> None:
    confirmed(people.alice)
    candidate, baseline = two_versions(people.alice)
    first = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    version_test_cancel(user=people.alice, test=first)
    assert told("versiontest.decided") == []
    second = version_test_create(user=people.alice, candidate=candidate, baseline=baseline)
    version_test_cancel(user=people.sam, test=second, reason="cancelled by staff")
    (notice,) = told("versiontest.decided")
    assert "Cancelled: cancelled by staff" in notice.text


def test_a_finished_challenge_tells_its_challenger(people: People) -> None:
    confirmed(people.alice, people.bob)
    mine, theirs = active(people.bob, "mine"), active(people.alice, "theirs")
    c = challenge_create(user=people.bob, bot=Bot.objects.get(pk=mine.bot_id),
                         opponent=theirs.bot, games_count=1)
    game = ChallengeGame.objects.get(challenge=c)
    Match.objects.filter(pk=game.match_id).update(status="finished")
    competitions_tick()
    competitions_tick()  # a tick run again tells nobody again
    c.refresh_from_db()
    assert c.state == ChallengeState.FINISHED
    (notice,) = told("challenge.finished")
    assert notice.user == people.bob and "mine against theirs v1" in notice.title


def test_a_finished_tournament_tells_its_creator_and_every_entrant_once(
        people: People) -> None:
    confirmed(people.alice, people.bob, people.sam)
    t = make_tournament(people.sam)
    enter(t, bot_field([people.alice, people.bob], 4))
    start_now(t)
    play_to_the_end(t)
    notices = told("tournament.finished")
    assert [n.user.username for n in notices] == ["alice", "bob", "sam"]
    assert all(n.data["tournament"]["id"] == t.pk for n in notices)


def test_staff_disabling_a_bot_tells_its_owner_once(people: People) -> None:
    confirmed(people.alice)
    bot = Bot.objects.get(pk=active(people.alice, "naughty").bot_id)
    bot_disable(bot=bot, reason="offensive name")
    bot_disable(bot=bot, reason="offensive name, really")  # disabled already: not told again
    (notice,) = told("bot.disabled")
    assert notice.text.startswith("naughty (stones) was disabled by staff: offensive name.")
