"""The curl examples of ``docs/api.md`` run as written against a live server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from league.accounts.services import token_create
from league.bots.models import Bot
from league.competitions.models import Tournament
from league.ladders.models import Ladder
from tests.league import bots
from tests.league.conftest import ROOT


def examples() -> str:
    text = (ROOT / "docs" / "api.md").read_text()
    section = text.split("## Examples", 1)[1]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


@pytest.mark.slow
def test_the_curl_examples_in_the_docs_work(ladders: dict[str, Ladder], alice: User,
                                            live_server, tmp_path: Path) -> None:
    cache.clear()
    token = token_create(user=alice, name="docs")[1]
    script = examples().replace("export BOTLEAGUE_URL=", "# export BOTLEAGUE_URL=", 1)
    assert script.count("curl ") >= 8
    (tmp_path / "main.py").write_text(bots.RANDOM)
    env = {**os.environ, "BOTLEAGUE_URL": live_server.url, "BOTLEAGUE_TOKEN": token}
    result = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert '"status":"validating"' in result.stdout
    assert (tmp_path / "my-bot.zip").read_bytes()[:2] == b"PK"
    assert Bot.objects.get(name="my-bot").source_public is True
    assert Tournament.objects.get(name="Friday cup").state == "registration"
    assert '"name":"Friday cup"' in result.stdout  # the list of those open for registration


@pytest.mark.slow
def test_the_shell_recipe_for_a_token_prints_only_a_working_token(alice: User) -> None:
    from league.accounts.services import token_authenticate
    from tests.league.conftest import test_database_url

    text = (ROOT / "docs" / "api.md").read_text()
    recipe = re.search(r"From a shell on the server:\n\s*```\n(.*?)```", text, re.S).group(1)
    command = recipe.replace("\\\n", " ").strip()
    env = {**os.environ, "DATABASE_URL": test_database_url(),
           "DJANGO_SETTINGS_MODULE": "tests.league_settings"}
    result = subprocess.run(["bash", "-c", command.replace("python ", f"{sys.executable} ", 1)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("blt_"), result.stdout
    token = token_authenticate(lines[0])
    assert token is not None and token.user == alice
