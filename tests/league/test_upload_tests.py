"""Uploads with a test (issue 33) on the test database without workers: the upload's
refusals (a first version; parameters; tests running), the test started once by the
validation's bell or the beat's tick, and what its end does — H1 makes the candidate active,
H0, undecided and cancelled leave it off the ladder with the old version playing — through
the service, the API and the upload page. The validation's own verdict (``testing``) and a
real worker's run from upload to promotion: test_upload_tests_live.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from league.bots.models import Bot, BotVersion, VersionStatus
from league.ladders.models import Match, MatchKind, Participant, Standing
from league.versiontests import models as vt
from league.versiontests.services import VersionTestError, version_test_cancel
from league.versiontests.tasks import version_validated_task, versiontests_tick_task
from league.versiontests.uploads import upload_test_start, version_upload_tested
from tests.league import bots
from tests.league.conftest import People
from tests.league.pages import active
from tests.league.versiontest_world import play_pair


def uploaded(owner: User, name: str = "mybot", **test: object) -> BotVersion:
    """An upload with a test, its validation passed as ``ladders.finishing`` leaves it."""
    version = version_upload_tested(owner=owner, game="stones", name=name,
                                    filename="main.py", data=bots.FIRST.encode(), **test)
    assert version.status == VersionStatus.VALIDATING and version.test_request is not None
    BotVersion.objects.filter(pk=version.pk).update(status=VersionStatus.TESTING)
    version.refresh_from_db()
    return version


def the_test(version: BotVersion) -> vt.VersionTest:
    return vt.VersionTest.objects.get(candidate=version, promotes=True)


def validation_of(version: BotVersion) -> Match:
    return Match.objects.get(kind=MatchKind.VALIDATION, participants__version=version)


def play_until_done(test: vt.VersionTest, first: str, second: str) -> vt.VersionTest:
    for _ in range(60):
        play_pair(test, first, second)
        test.refresh_from_db()
        if test.state != vt.TestState.RUNNING:
            break
    return test


def test_a_first_version_with_a_test_is_refused_with_what_to_do(people: People) -> None:
    with pytest.raises(VersionTestError, match="mybot has no active version to test a new "
                                               "one against: upload it without a test"):
        version_upload_tested(owner=people.alice, game="stones", name="mybot",
                              filename="main.py", data=bots.FIRST.encode())
    assert not BotVersion.objects.exists() and not Bot.objects.exists()


def test_bad_parameters_and_too_many_tests_are_refused_before_the_upload(
        people: People) -> None:
    active(people.alice, "mybot")
    with pytest.raises(VersionTestError, match="elo1"):
        uploaded(people.alice, elo0=10, elo1=5)
    with pytest.raises(VersionTestError, match="a test plays 2 to"):
        uploaded(people.alice, max_games=1)
    assert BotVersion.objects.count() == 1


def test_the_bell_starts_the_test_once_against_the_active_version(people: People) -> None:
    old = active(people.alice, "mybot")
    new = uploaded(people.alice, max_games=40, elo1=40)
    match = validation_of(new)
    version_validated_task(match.pk)
    version_validated_task(match.pk)  # rung twice: one test
    versiontests_tick_task()
    test = the_test(new)
    assert vt.VersionTest.objects.count() == 1
    assert test.baseline_id == old.pk and test.max_games == 40 and test.elo1 == 40
    new.refresh_from_db()
    assert new.test_request["test"] == test.pk and new.status == VersionStatus.TESTING
    assert f"becomes active if it passes its test against v{old.number}" in new.reason
    assert Bot.objects.get(pk=old.bot_id).active_version_id == old.pk  # the old one plays on


def test_the_tick_starts_a_test_whose_bell_was_lost(people: People) -> None:
    active(people.alice, "mybot")
    new = uploaded(people.alice)
    versiontests_tick_task()
    assert the_test(new).state == vt.TestState.RUNNING


def test_h1_makes_the_candidate_active_and_retires_the_old_one(people: People) -> None:
    old = active(people.alice, "mybot")
    new = uploaded(people.alice)
    test = play_until_done(upload_test_start(version_id=new.pk), "win", "win")
    assert test.state == vt.TestState.H1
    new.refresh_from_db()
    old.refresh_from_db()
    assert new.status == VersionStatus.ACTIVE and old.status == VersionStatus.RETIRED
    assert Bot.objects.get(pk=new.bot_id).active_version_id == new.pk
    assert Standing.objects.filter(version=new).exists()
    assert new.reason == f"passed its test against v{old.number} (test {test.pk})"


@pytest.mark.parametrize(("first", "second", "cap", "outcome"), [
    ("loss", "loss", 100, "it is not stronger than v1"),
    ("win", "loss", 6, "no verdict within its 6 games"),
])
def test_h0_or_undecided_leaves_it_off_the_ladder(people: People, first: str, second: str,
                                                  cap: int, outcome: str) -> None:
    old = active(people.alice, "mybot")
    new = uploaded(people.alice, max_games=cap)
    test = play_until_done(upload_test_start(version_id=new.pk), first, second)
    assert test.state in (vt.TestState.H0, vt.TestState.UNDECIDED)
    new.refresh_from_db()
    assert new.status == VersionStatus.RETIRED
    assert new.reason == f"{outcome} (test {test.pk}): it stays inactive"
    assert Bot.objects.get(pk=new.bot_id).active_version_id == old.pk
    assert not Standing.objects.filter(version=new).exists()


def test_cancelled_leaves_it_off_the_ladder(people: People) -> None:
    old = active(people.alice, "mybot")
    new = uploaded(people.alice)
    test = upload_test_start(version_id=new.pk)
    version_test_cancel(user=people.alice, test=test)
    new.refresh_from_db()
    assert new.status == VersionStatus.RETIRED and "its test was cancelled" in new.reason
    assert Bot.objects.get(pk=new.bot_id).active_version_id == old.pk


def test_h1_after_another_version_went_active_does_not_promote(people: People) -> None:
    active(people.alice, "mybot")
    new = uploaded(people.alice)
    test = upload_test_start(version_id=new.pk)
    newest = active(people.alice, "mybot")  # an ordinary upload validated meanwhile
    test = play_until_done(test, "win", "win")
    assert test.state == vt.TestState.H1
    new.refresh_from_db()
    assert new.status == VersionStatus.RETIRED
    assert f"v{newest.number} became the active version meanwhile" in new.reason
    assert Bot.objects.get(pk=new.bot_id).active_version_id == newest.pk


def test_a_test_that_cannot_start_leaves_it_inactive_with_why(people: People) -> None:
    old = active(people.alice, "mybot")
    new = uploaded(people.alice)
    Bot.objects.filter(pk=old.bot_id).update(active_version=None)  # nothing left to beat
    assert upload_test_start(version_id=new.pk) is None
    new.refresh_from_db()
    assert new.status == VersionStatus.RETIRED
    assert new.reason.startswith("validated, but its test could not start (mybot has no "
                                 "active version")


def test_the_api_uploads_with_a_test_and_refuses_a_first_version(people: People) -> None:
    api = APIClient()
    api.force_authenticate(people.alice)

    def post(name: str, **fields: object) -> object:
        return api.post("/api/versions/", {
            "game": "stones", "name": name, "test": "true",
            "file": SimpleUploadedFile("main.py", bots.FIRST.encode()), **fields},
            format="multipart")

    first = post("fresh")
    assert first.status_code == 400
    assert "fresh has no active version to test a new one against" in str(first.json())
    active(people.alice, "mybot")
    made = post("mybot", test_max_games=10, test_elo1=30)
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["status"] == "validating" and body["test_first"] is True
    version = BotVersion.objects.get(pk=body["id"])
    assert version.test_request == {"elo0": 0.0, "elo1": 30.0, "alpha": 0.05, "beta": 0.05,
                                    "max_games": 10}
    BotVersion.objects.filter(pk=version.pk).update(status=VersionStatus.TESTING)
    test = upload_test_start(version_id=version.pk)
    read = api.get(f"/api/versions/{version.pk}/").json()
    assert read["status"] == "testing" and read["test"] == test.pk
    assert api.get(f"/api/version-tests/{test.pk}/").json()["promotes"] is True
    stranger = APIClient()
    stranger.force_authenticate(people.bob)
    assert stranger.get(f"/api/versions/{version.pk}/").json()["test"] is None


def test_the_bot_page_offers_the_test_and_the_test_page_says_what_happens(
        people: People) -> None:
    old = active(people.alice, "mybot")
    browser = Client()
    browser.force_login(people.alice)
    page = browser.get(f"/bots/{old.bot_id}/").content.decode()
    assert f"Active only if it passes a test against v{old.number}" in page
    response = browser.post("/my/bots/", {"game": "stones", "name": "mybot", "test": "on",
                                       "file": SimpleUploadedFile("main.py", b"x = 1\n")})
    assert response.status_code == 302, response.content.decode()[-2000:]
    new = BotVersion.objects.get(bot_id=old.bot_id, number=old.number + 1)
    assert new.test_request is not None
    page = browser.get(f"/bots/{old.bot_id}/").content.decode()
    assert "then a test against the active version: becomes active if it passes" in page
    BotVersion.objects.filter(pk=new.pk).update(status=VersionStatus.TESTING)
    test = upload_test_start(version_id=new.pk)
    page = browser.get(f"/bots/{old.bot_id}/").content.decode()
    assert f"becomes active if it passes its test against v{old.number}" in page
    assert f'href="/tests/{test.pk}/">its test</a>' in page
    others = Client()
    others.force_login(people.bob)  # the test is its owner's: no link for anyone else
    assert "its test</a>" not in others.get(f"/bots/{old.bot_id}/").content.decode()
    shown = browser.get(f"/tests/{test.pk}/").content.decode()
    assert "it becomes the bot&#x27;s active version if it passes" in shown or \
        "it becomes the bot's active version if it passes" in shown
    refused = browser.post("/my/bots/", {"game": "stones", "name": "other", "test": "on",
                                      "file": SimpleUploadedFile("main.py", b"x = 1\n")})
    assert refused.status_code == 400
    assert "other has no active version to test a new one against" in refused.content.decode()
    assert Participant.objects.filter(version__bot__name="other").count() == 0
