"""``botleague submit --test`` against a live league and a real worker (issue 33): a stronger
version's test followed to H1, its progress printed as it runs, and the version active
(exit 0); a copy of the active bot not made active (exit 3, not stronger, or 4, undecided);
a bot's first version refused the option with what to do (exit 1)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from league.accounts.services import token_create
from league.bots.models import Bot, BotVersion, VersionStatus
from league.ladders.models import Ladder
from tests.league import bots
from tests.league.conftest import Worker, upload, wait_validated
from tests.league.test_api_submit import submit
from tests.league.test_version_tests_live import STRONG

pytestmark = pytest.mark.slow


@pytest.fixture
def token(alice: User) -> str:
    cache.clear()
    return token_create(user=alice, name="terminal")[1]


def active_random(alice: User, worker: Worker) -> BotVersion:
    version = upload(alice, "stones", "mine", bots.RANDOM)
    wait_validated(version, worker=worker)
    assert version.status == VersionStatus.ACTIVE, version.reason
    return version


def test_submit_test_follows_the_test_to_h1_and_the_version_goes_active(
        ladders: dict[str, Ladder], token: str, live_server, worker: Worker, alice: User,
        tmp_path: Path) -> None:
    old = active_random(alice, worker)
    (tmp_path / "main.py").write_text(STRONG)
    done = submit(str(tmp_path / "main.py"), "--game", "stones", "--name", "mine", "--test",
                  "--max-games", "80", env={"BOTLEAGUE_URL": live_server.url,
                                            "BOTLEAGUE_TOKEN": token})
    assert done.returncode == 0, done.stdout + done.stderr + worker.text()[-2000:]
    out = done.stdout
    print(out)
    assert "uploaded mine v2" in out and "then tested against the active version" in out
    assert re.search(r"test \d+: mine v2 against mine v1, H0 0 / H1 50 normalised Elo, "
                     r"α 0.05, β 0.05, at most 80 games: http", out), out
    progress = [line for line in out.splitlines() if " pairs), W/D/L " in line]
    assert len(progress) >= 2, out  # printed while it ran, not only at the end
    assert "LLR " in progress[-1] and "in [-2.94, 2.94]" in progress[-1]
    # every pair won but a few: the interval has no upper end worth a number
    assert re.search(r"Elo \+\d+ (\[\+\d+, \+\d+\]|\(at least \+\d+\))", progress[-1]), \
        progress[-1]
    assert re.search(r"mine v2 is stronger: \+\d+ .*after \d+ games", out), out
    bot = Bot.objects.get(pk=old.bot_id)
    assert f"mine v2 passed its test and is active on stones: {live_server.url}/bots/" \
           f"{bot.pk}/" in out
    assert bot.active_version.number == 2


def test_submit_test_of_a_copy_ends_not_active_with_its_exit_status(
        ladders: dict[str, Ladder], token: str, live_server, worker: Worker, alice: User,
        tmp_path: Path) -> None:
    old = active_random(alice, worker)
    (tmp_path / "main.py").write_text(bots.RANDOM)
    done = submit(str(tmp_path / "main.py"), "--game", "stones", "--name", "mine", "--test",
                  "--max-games", "12", "--url", live_server.url, "--token", token)
    assert done.returncode in (3, 4), done.stdout + done.stderr + worker.text()[-2000:]
    verdict = "is not stronger" if done.returncode == 3 else "No verdict within the cap of 12"
    assert verdict in done.stdout, done.stdout
    assert "mine v2 stays inactive: " in done.stdout and "it stays inactive" in done.stdout
    assert Bot.objects.get(pk=old.bot_id).active_version_id == old.pk


def test_submit_test_of_a_first_version_is_refused_with_what_to_do(
        ladders: dict[str, Ladder], token: str, live_server, tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text(bots.RANDOM)
    done = submit(str(tmp_path / "main.py"), "--game", "stones", "--name", "fresh", "--test",
                  "--url", live_server.url, "--token", token)
    assert done.returncode == 1
    assert "refused: fresh has no active version to test a new one against: upload it " \
           "without a test" in done.stderr
    assert not BotVersion.objects.exists()
