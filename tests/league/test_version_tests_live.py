"""Version tests (issue 33) through real Celery workers on PostgreSQL and Redis: a Stones test
from start to verdict (a clearly stronger version is decided H1), uploads with a test that
promote and that do not (two copies of one bot never end H1), and a worker SIGKILLed mid-test
that loses no game and counts none twice. Every step a worker takes on its own: the upload's
validation, the bell that starts the test, the games, the bells that count them; this test
plays the beat's ticks where a lost worker needs them (the reaper, the tests' tick).
``botleague submit --test`` against the same kind of league: test_submit_test_cli.py."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User

from league.bots.models import Bot, BotVersion, VersionStatus
from league.ladders.models import Ladder, Match, MatchKind, MatchStatus, Replay
from league.ladders.reaper import reaper_tick
from league.versiontests import models as vt
from league.versiontests import sprt
from league.versiontests.progress import POINTS, versiontests_tick
from league.versiontests.services import version_test_create
from league.versiontests.uploads import version_upload_tested
from tests.league import bots
from tests.league.conftest import ROOT, Worker, upload, wait_for, wait_validated

pytestmark = pytest.mark.slow

STRONG = (ROOT / "league" / "demo" / "bots" / "builtin.py.tmpl").read_text().format(
    summary="The perfect player.", player="perfect", time_limit='start.limits["move_time"]')
"""The engine's perfect player: on the ladder's board (5 x 5 with holes drawn from the seed)
it wins nearly every game against a random player from either seat (the starter, which
looks two moves ahead, leaves too many pairs shared for a short test)."""

SLOW_STRONG = STRONG.replace("def play(turn):", "def play(turn):\n    import time\n"
                             "    time.sleep(0.08)  # a game lasts long enough to be cut\n", 1)


def validated(owner: User, name: str, source: str, worker: Worker) -> BotVersion:
    version = upload(owner, "stones", name, source)
    wait_validated(version, worker=worker)
    assert version.status == VersionStatus.ACTIVE, version.reason
    return version


def until_ended(test: vt.VersionTest, timeout: float, worker: Worker,
                ticks: bool = False) -> vt.VersionTest:
    """Wait for the test's verdict (``ticks``: playing the reaper's and the tests' ticks, as
    the beat would, for a worker that was lost)."""
    def ended() -> bool:
        if ticks:
            reaper_tick()
            versiontests_tick()
        return vt.VersionTest.objects.get(pk=test.pk).state != vt.TestState.RUNNING

    wait_for(ended, timeout, f"test {test.pk}'s verdict", worker.text)
    test.refresh_from_db()
    return test


def counted_from_the_games(test: vt.VersionTest) -> list[int]:
    """The pentanomial counts worked out again from the test's counted games' rows."""
    counts = [0] * 5
    games = (vt.TestGame.objects.filter(test=test, counted=True).select_related("match")
             .prefetch_related("match__participants"))
    pairs: dict[int, list[vt.TestGame]] = {}
    for game in games:
        pairs.setdefault(game.pair, []).append(game)
    for both in pairs.values():
        if any(g.match.status != MatchStatus.FINISHED for g in both):
            continue  # a void pair, played again in its place
        points = 0.0
        for g in both:  # the candidate sits in seat ``index``
            mine = next(p for p in g.match.participants.all() if p.seat == g.index)
            points += POINTS[mine.outcome] if mine.outcome else 0.0
        counts[sprt.pair_index(points)] += 1
    return counts


def test_a_clearly_stronger_version_is_decided_h1(ladders: dict[str, Ladder], alice: User,
                                                   worker: Worker) -> None:
    weak = validated(alice, "mine", bots.RANDOM, worker)
    strong = validated(alice, "mine", STRONG, worker)
    began = time.monotonic()
    test = version_test_create(user=alice, candidate=strong, baseline=weak, max_games=80)
    test = until_ended(test, 50, worker)
    took = time.monotonic() - began
    assert test.state == vt.TestState.H1, (test.counts, test.history)
    assert test.llr >= sprt.Bounds(test.elo0, test.elo1, test.alpha, test.beta).upper
    assert sum(test.counts) == test.pairs == len(test.history)
    assert test.counts == counted_from_the_games(test)
    assert test.wins > test.losses
    print(f"H1 after {2 * test.pairs} games in {took:.1f} s: {test.counts}")


def test_an_upload_with_a_test_that_passes_becomes_active(
        ladders: dict[str, Ladder], alice: User, worker: Worker) -> None:
    old = validated(alice, "mine", bots.RANDOM, worker)
    new = version_upload_tested(owner=alice, game="stones", name="mine", filename="main.py",
                                data=STRONG.encode(), max_games=80)
    wait_for(lambda: vt.VersionTest.objects.filter(candidate=new, promotes=True).exists(), 30,
             "the validation's bell to start the test", worker.text)
    new.refresh_from_db()
    assert new.status == VersionStatus.TESTING
    assert Bot.objects.get(pk=old.bot_id).active_version_id == old.pk  # the old one plays
    test = until_ended(vt.VersionTest.objects.get(candidate=new), 50, worker)
    assert test.state == vt.TestState.H1 and test.baseline_id == old.pk
    new.refresh_from_db()
    old.refresh_from_db()
    assert new.status == VersionStatus.ACTIVE and old.status == VersionStatus.RETIRED
    assert Bot.objects.get(pk=new.bot_id).active_version_id == new.pk


def test_an_upload_of_the_same_bot_with_a_test_never_passes(
        ladders: dict[str, Ladder], alice: User, worker: Worker) -> None:
    old = validated(alice, "mine", bots.RANDOM, worker)
    # 6 pairs: too few for H1 even if the copy won them all (17 straight won pairs are
    # needed with the default bounds, docs/version-tests.md), so it can only be H0 or
    # undecided, whatever the dice say
    new = version_upload_tested(owner=alice, game="stones", name="mine", filename="main.py",
                                data=bots.RANDOM.encode(), max_games=12)
    wait_for(lambda: vt.VersionTest.objects.filter(candidate=new, promotes=True).exists(), 30,
             "the validation's bell to start the test", worker.text)
    test = until_ended(vt.VersionTest.objects.get(candidate=new), 50, worker)
    assert test.state in (vt.TestState.H0, vt.TestState.UNDECIDED), test.history
    new.refresh_from_db()
    assert new.status == VersionStatus.RETIRED and new.reason.endswith("it stays inactive")
    assert Bot.objects.get(pk=new.bot_id).active_version_id == old.pk
    assert old.__class__.objects.get(pk=old.pk).status == VersionStatus.ACTIVE


def test_a_worker_killed_mid_test_loses_nothing_and_counts_no_game_twice(
        ladders: dict[str, Ladder], alice: User, start_worker: Callable[..., Worker],
        tmp_path: Path) -> None:
    first = start_worker()
    weak = validated(alice, "mine", bots.RANDOM, first)
    strong = validated(alice, "mine", SLOW_STRONG, first)
    test = version_test_create(user=alice, candidate=strong, baseline=weak, max_games=80)

    def cut_here() -> bool:
        counted = vt.VersionTest.objects.get(pk=test.pk).history
        return len(counted) >= 2 and Match.objects.filter(
            kind=MatchKind.VERSIONTEST, status=MatchStatus.RUNNING).exists()

    wait_for(cut_here, 40, "two pairs counted and a game playing", first.text)
    cut = set(Match.objects.filter(kind=MatchKind.VERSIONTEST, status=MatchStatus.RUNNING)
              .values_list("pk", flat=True))
    assert cut
    first.kill()
    second = start_worker()
    test = until_ended(test, 55, second, ticks=True)
    assert test.state == vt.TestState.H1, (test.state, test.reason, test.history)
    # nothing lost: every counted pair is in the counts, once; nothing counted twice
    assert sum(test.counts) == test.pairs == len(test.history)
    assert test.counts == counted_from_the_games(test)
    assert test.wins + test.draws + test.losses == 2 * test.pairs
    # the games cut short were played again (or voided and replaced), each written once
    replayed = list(Match.objects.filter(pk__in=cut))
    assert all(m.attempts >= 2 or m.status != MatchStatus.FINISHED for m in replayed), \
        [(m.pk, m.status, m.attempts) for m in replayed]
    print(f"cut: {[(m.pk, m.status, m.attempts) for m in replayed]}; H1 after "
          f"{2 * test.pairs} games {test.counts}")
    for match in Match.objects.filter(kind=MatchKind.VERSIONTEST, status=MatchStatus.FINISHED):
        assert Replay.objects.filter(match=match).count() == 1


def test_the_demos_test_is_decided_for_tess_second_version(
        ladders: dict[str, Ladder], worker: Worker) -> None:
    """``./dev up``'s demo test: both of Testy Tess's versions uploaded at once, the second
    (the perfect player) with a public test against the first (random). Whichever
    validation ends first, the test starts (by the bell, or the beat's tick once the first
    is active), is decided H1, and the second version takes her place."""
    from league.demo.version_test import NAME, OWNER, demo_version_test_install
    from league.versiontests.uploads import uploads_tick

    User.objects.create_user(OWNER)
    began = time.monotonic()
    assert demo_version_test_install()
    assert not demo_version_test_install(), "made once"
    weak, strong = BotVersion.objects.filter(bot__name=NAME).order_by("number")

    def started() -> bool:
        uploads_tick()  # the beat's pass, for a bell rung while the first still validated
        return vt.VersionTest.objects.filter(candidate=strong).exists()

    wait_for(started, 60, "the demo's test to start", worker.text)
    test = until_ended(vt.VersionTest.objects.get(candidate=strong), 60, worker)
    took = time.monotonic() - began
    assert test.state == vt.TestState.H1 and test.baseline_id == weak.pk and test.public
    strong.refresh_from_db()
    assert strong.status == VersionStatus.ACTIVE
    print(f"the demo's test: H1 after {2 * test.pairs} games, {took:.1f} s from the upload")
