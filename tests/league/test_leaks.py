"""Nothing private leaks: bots whose source is not shared (the default) that fail to compile,
crash with a traceback, or print to stderr, validated by a real worker; then every page and
API answer about them (replays, frames and the HTML export included), read by an anonymous
visitor and by another user, holds no line of their source and none of their log, and no
answer to anyone (the owner included) holds the data folder's path."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from league.bots.models import BotVersion
from league.ladders.models import Match
from league.ladders.services import version_upload
from tests.league.conftest import Worker, wait_validated

CPP_BROKEN = """#include <cstdio> // SECRET-CPP-1
int main() { int secret_sauce = "SECRET-CPP-2"; return secret_sauce; } // SECRET-CPP-3
"""
PY_CRASH = """import sys  # SECRET-PY-1
raise RuntimeError("SECRET-PY-2: the crash")  # SECRET-PY-3
"""
PY_CHATTY = """import sys  # SECRET-CHAT-1
from botlib import run  # SECRET-CHAT-2

def choose(turn):  # SECRET-CHAT-3
    print("SECRET-LOG: thinking", file=sys.stderr, flush=True)  # SECRET-CHAT-4
    return turn.legal_moves[0]  # SECRET-CHAT-5

run(choose)  # SECRET-CHAT-6
"""


def urls_about(version: BotVersion) -> list[str]:
    bot = version.bot
    match = Match.objects.get(kind="validation", participants__version=version)
    return [
        "/", "/ladders/stones/", f"/u/{bot.owner.username}/", f"/bots/{bot.pk}/",
        f"/versions/{version.pk}/", f"/versions/{version.pk}/status.json",
        f"/versions/{version.pk}/source/", f"/matches/{match.pk}/",
        f"/matches/{match.pk}/replay.html", "/api/bots/", f"/api/bots/{bot.pk}/",
        f"/api/bots/{bot.pk}/versions/", f"/api/bots/{bot.pk}/ratings/",
        f"/api/versions/{version.pk}/", f"/api/versions/{version.pk}/source/",
        "/api/matches/", "/api/matches/?kind=validation", f"/api/matches/{match.pk}/",
        f"/api/matches/{match.pk}/replay/", f"/api/matches/{match.pk}/viewer/",
        f"/api/matches/{match.pk}/frames/", f"/api/matches/{match.pk}/frames/?view=0",
        f"/api/matches/{match.pk}/frames/?view=1", "/api/ladders/stones/rankings/",
        f"/matches/{match.pk}/status.json", "/my/bots/", "/ladders/", "/games/",
        "/games/stones/", "/protocol/", "/api/schema/?format=json",
    ]


def read_all(client: Client, urls: list[str]) -> dict[str, str]:
    return {url: client.get(url).content.decode(errors="replace") for url in urls}


def test_no_source_log_or_server_path_reaches_anyone_it_should_not(
        worker: Worker, ladders, alice: User, bob: User) -> None:
    sources = {"broken": ("main.cpp", CPP_BROKEN), "crasher": ("main.py", PY_CRASH),
               "chatty": ("main.py", PY_CHATTY)}
    versions = []
    for name, (filename, source) in sources.items():
        version = version_upload(owner=alice, game="stones", name=name, filename=filename,
                                 data=source.encode())
        versions.append(version)
    wait_validated(*versions, timeout=120, worker=worker)
    statuses = {v.bot.name: v.status for v in versions}
    assert statuses == {"broken": "rejected", "crasher": "rejected", "chatty": "active"}
    # what anyone reads says what kind of failure it was, and no more
    reasons = {v.bot.name: v.reason for v in versions}
    assert "C++ compilation failed" in reasons["broken"], reasons

    urls = [url for v in versions for url in urls_about(v)]
    owner = Client()
    owner.force_login(alice)
    other = Client()
    other.force_login(bob)
    answers = {"anonymous": read_all(Client(), urls), "bob": read_all(other, urls),
               "alice": read_all(owner, urls)}

    # the owner reads every secret somewhere: the test could see one if it leaked
    everything_alice_reads = "\n".join(answers["alice"].values())
    for marker in ("SECRET-CPP-2", "SECRET-PY-2", "SECRET-LOG"):
        assert marker in everything_alice_reads, marker
    for who in ("anonymous", "bob"):
        for url, body in answers[who].items():
            assert "SECRET" not in body, f"{who} reads a secret at {url}: " + body[
                max(0, body.find("SECRET") - 200):body.find("SECRET") + 100]
    # the source (not shared): no zip for anyone but its owner, through pages or the API
    for v in versions:
        for url in (f"/versions/{v.pk}/source/", f"/api/versions/{v.pk}/source/"):
            for who in ("anonymous", "bob"):
                assert not answers[who][url].startswith("PK"), f"{who} downloads {url}"
            assert answers["alice"][url].startswith("PK"), url
    data_folder = str(settings.DATA_DIR)
    for who, bodies in answers.items():
        for url, body in bodies.items():
            assert data_folder not in body, f"{who} reads the data folder's path at {url}"
            assert str(settings.LEAGUE_VERSION_CACHE) not in body, url
