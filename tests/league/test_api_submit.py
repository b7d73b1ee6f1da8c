"""``botleague submit`` against a live league and a real worker: a good bot ends
active (exit 0), a crashing one rejected with its reason and log (exit 1); an unreachable
league, a missing or wrong token give one clear line (exit 2). No terminal command (submit,
challenge, tournament) imports anything from ``league/``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from league.accounts.services import token_create
from league.bots.models import BotVersion
from league.ladders.models import Ladder
from tests.league import bots
from tests.league.conftest import ROOT, Worker

pytestmark = pytest.mark.slow


def submit(*args: str, env: dict[str, str] | None = None,
           timeout: float = 120) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BOTLEAGUE_")}
    return subprocess.run([sys.executable, "-m", "client", "submit", *args], cwd=ROOT,
                          env={**clean, **(env or {})}, capture_output=True, text=True,
                          timeout=timeout)


@pytest.fixture
def token(alice: User) -> str:
    cache.clear()
    return token_create(user=alice, name="terminal")[1]


def test_submit_uploads_a_folder_and_a_file_and_reports_validation(
        ladders: dict[str, Ladder], token: str, live_server, worker: Worker,
        tmp_path: Path) -> None:
    folder = tmp_path / "steady"
    (folder / "__pycache__").mkdir(parents=True)
    (folder / "main.py").write_text(bots.RANDOM)
    (folder / "__pycache__" / "junk.pyc").write_bytes(b"\0" * 10)
    env = {"BOTLEAGUE_URL": live_server.url, "BOTLEAGUE_TOKEN": token}
    good = submit(str(folder), "--game", "stones", "--name", "steady", env=env)
    assert good.returncode == 0, good.stdout + good.stderr + worker.text()[-2000:]
    assert "uploaded steady v1" in good.stdout and "steady v1 is active on stones" in good.stdout
    # the bot's page on the site, not the API's JSON
    bot_id = BotVersion.objects.get(bot__name="steady", number=1).bot_id
    assert f"steady v1 is active on stones: {live_server.url}/bots/{bot_id}/" in good.stdout
    assert "/api/" not in good.stdout

    crash = tmp_path / "crash.py"
    crash.write_text(bots.CRASH)
    bad = submit(str(crash), "--game", "stones", "--name", "steady", "--url", live_server.url,
                 "--token", token)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "steady v2 was rejected: crash: exited with code 3" in bad.stdout
    assert "its log:" in bad.stdout and "oh no" in bad.stdout


def test_submit_prints_why_the_league_refused_an_upload(ladders: dict[str, Ladder], token: str,
                                                        live_server, tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text(bots.RANDOM)
    result = submit(str(tmp_path / "main.py"), "--game", "chess", "--name", "x", "--url",
                    live_server.url, "--token", token)
    assert result.returncode == 1
    assert "refused: unknown game 'chess'; choose one of" in result.stderr


def test_submit_without_a_token_or_with_a_wrong_one_says_so(live_server, token: str,
                                                            tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text(bots.RANDOM)
    bot = str(tmp_path / "main.py")
    missing = submit(bot, "--game", "stones", "--name", "x", "--url", live_server.url)
    assert missing.returncode == 2
    assert "no API token: pass --token or set BOTLEAGUE_TOKEN" in missing.stderr
    wrong = submit(bot, "--game", "stones", "--name", "x", "--url", live_server.url,
                   "--token", "blt_00000000_nope")
    assert wrong.returncode == 2
    assert "not valid or was revoked" in wrong.stderr and "HTTP 401" in wrong.stderr
    assert len(wrong.stderr.strip().splitlines()) == 1


def test_submit_to_an_unreachable_league_gives_one_line(tmp_path: Path) -> None:
    (tmp_path / "main.py").write_text(bots.RANDOM)
    result = submit(str(tmp_path / "main.py"), "--game", "stones", "--name", "x", "--url",
                    "http://127.0.0.1:9", "--token", "blt_x_y")
    assert result.returncode == 2
    assert result.stderr.startswith("error: cannot reach http://127.0.0.1:9")
    assert len(result.stderr.strip().splitlines()) == 1


def test_the_terminal_commands_import_nothing_from_the_league() -> None:
    """submit, challenge and tournament, and the API client they share."""
    probe = ("import sys, client.cli, client.submit, client.challenge, client.tournament, "
             "client.api; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('league', 'django')))")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_submit_refuses_a_bot_over_the_leagues_cap_before_sending_it(tmp_path: Path) -> None:
    """The cap and its words are the league's own (``sandbox.archive.UPLOAD_LIMITS``): the
    unreachable URL shows that nothing was sent."""
    big = tmp_path / "bot.zip"
    big.write_bytes(b"\0" * (10 * 1024 * 1024 + 1))
    result = submit(str(big), "--game", "stones", "--name", "x", "--url",
                    "http://127.0.0.1:9", "--token", "blt_x_y")
    assert result.returncode == 2, result.stderr
    assert "bot.zip: 10.0 MiB, more than the 10 MiB a bot may be" in result.stderr
    assert "cannot reach" not in result.stderr
