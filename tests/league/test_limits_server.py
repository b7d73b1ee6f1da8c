"""Floods against a real multi-process server (gunicorn, 3 worker processes, Redis): every
limit holds as configured across the processes, each refusal says how long to wait, once;
bodies without a length are refused with 411; an unknown API path answers a write in JSON."""

from __future__ import annotations

import socket
import subprocess
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from league.accounts.models import ApiToken
from league.accounts.services import token_create
from league.bots.models import Bot, BotVersion
from league.ladders.defaults import ladders_install
from league.ladders.models import Ladder
from league.rate_limits import rates_reset
from league.supervise import web_command
from tests.league.conftest import ROOT, wait_for
from tests.league.conftest import test_database_url as database_url

LIMITS = {"LEAGUE_SIGNUPS_PER_ADDRESS": "5/hour", "LEAGUE_UPLOADS_PER_USER": "6/hour",
          "LEAGUE_TOKENS_PER_USER": "4/hour", "API_THROTTLE_ANON": "20/min",
          "LEAGUE_MAX_VALIDATING": "1000"}
PASSWORD = "a-long-Password-9"


@dataclass
class Server:
    url: str
    log: Path

    def session(self, username: str | None = None) -> requests.Session:
        """A browser-like session (CSRF cookie and header), logged in as ``username``."""
        session = requests.Session()
        session.get(f"{self.url}/account/login/", timeout=10)
        if username:
            response = self.post_form(session, "/account/login/",
                                      {"username": username, "password": PASSWORD})
            assert response.status_code == 302, response.text[:500]
        return session

    def post_form(self, session: requests.Session, path: str, data: dict[str, str],
                  files: dict[str, tuple[str, bytes]] | None = None) -> requests.Response:
        return session.post(f"{self.url}{path}", data=data, files=files, timeout=30,
                            allow_redirects=False,
                            headers={"X-CSRFToken": session.cookies.get("csrftoken", ""),
                                     "Referer": f"{self.url}{path}"})


@pytest.fixture(params=["redis", "embedded"])
def server(request: pytest.FixtureRequest, transactional_db: None, tmp_path: Path
           ) -> Iterator[Server]:
    """The web server (``./dev up``'s) with 3 processes, counting in Redis, or (``embedded``:
    no Redis configured) in the SQLite file of the data folder, as ``./dev up`` does."""
    yield from serve(tmp_path, embedded=request.param == "embedded")


def serve(tmp_path: Path, embedded: bool = False, **limits: str) -> Iterator[Server]:
    ladders_install(Ladder)
    rates_reset()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = tmp_path / "gunicorn.log"
    # the test's own Redis db (else the settings' default: counts shared with other runs)
    env = {"PATH": "/usr/bin:/bin", "DATABASE_URL": database_url(),
           "REDIS_URL": settings.REDIS_URL, "DJANGO_SETTINGS_MODULE": "tests.league_settings",
           "BOTLEAGUE_DATA": str(tmp_path / "data"), **LIMITS, **limits}
    if embedded:
        env["REDIS_URL"] = ""  # the broker and the counts on files of the data folder
    with open(log, "wb") as out:
        process = subprocess.Popen(
            web_command(f"127.0.0.1:{port}", processes=3), cwd=ROOT, env=env, stdout=out,
            stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            try:  # a page that counts against no limit
                return requests.get(f"{url}/favicon.ico", timeout=5,
                                    allow_redirects=False).status_code == 302
            except requests.RequestException:
                return False

        wait_for(up, 60, "gunicorn to answer", log.read_text)
        # three processes answering, or the floods below would not cross processes
        wait_for(lambda: log.read_text().count("Booting worker") >= 3, 30, "3 workers",
                 log.read_text)
        yield Server(url, log)
    finally:
        process.terminate()
        process.wait(30)
        rates_reset()


def flood(calls: list, threads: int = 12) -> list[requests.Response]:
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(lambda call: call(), calls))


def assert_refusal(response: requests.Response) -> None:
    assert response.status_code == 429, (response.status_code, response.text[:300])
    body = response.text
    assert body.count("try again in") == 1 and "Expected available" not in body, body[:500]


def test_sign_ups_are_limited_per_address_across_processes(server: Server) -> None:
    def signup(i: int):
        def call() -> requests.Response:
            session = server.session()
            return server.post_form(session, "/account/signup/", {
                "username": f"flood{i}", "password1": PASSWORD, "password2": PASSWORD})
        return call

    answers = flood([signup(i) for i in range(20)])
    assert Counter(r.status_code for r in answers) == {302: 5, 429: 15}
    assert User.objects.filter(username__startswith="flood").count() == 5
    assert_refusal(next(r for r in answers if r.status_code == 429))


def test_uploads_share_one_budget_per_user_through_pages_and_api(server: Server) -> None:
    owner = User.objects.create_user("uploader", password=PASSWORD)
    tokens = [token_create(user=owner, name=f"t{i}")[1] for i in range(3)]
    session = server.session("uploader")
    source = b"from botlib import run\nrun(lambda turn: turn.legal_moves[0])\n"

    def by_page(i: int):
        return lambda: server.post_form(session, "/my/bots/", {"game": "stones",
                                                               "name": f"page{i}"},
                                        files={"file": ("main.py", source)})

    def by_api(i: int):
        return lambda: requests.post(
            f"{server.url}/api/versions/", data={"game": "stones", "name": f"api{i}"},
            files={"file": ("main.py", source)}, timeout=30,
            headers={"Authorization": f"Bearer {tokens[i % len(tokens)]}"})

    answers = flood([by_page(i) if i % 2 else by_api(i) for i in range(16)])
    accepted = [r for r in answers if r.status_code in (201, 302)]
    assert len(accepted) == 6, Counter(r.status_code for r in answers)
    assert BotVersion.objects.filter(bot__owner=owner).count() == 6
    assert Bot.objects.filter(owner=owner).count() == 6
    api_refusal = next(r for r in answers if r.status_code == 429 and
                       r.headers["Content-Type"] == "application/json")
    assert_refusal(api_refusal)
    assert int(api_refusal.headers["Retry-After"]) > 3000
    assert "too many uploads" in api_refusal.json()["detail"]
    page_refusal = next(r for r in answers if r.status_code == 429 and
                        "text/html" in r.headers["Content-Type"])
    assert "Too many uploads; try again in" in page_refusal.text


def test_tokens_made_are_limited_per_user_however_many_are_revoked(server: Server) -> None:
    User.objects.create_user("minter", password=PASSWORD)
    session = server.session("minter")
    answers = []
    for i in range(7):
        answers.append(server.post_form(session, "/account/tokens/", {"name": f"token{i}"}))
        ApiToken.objects.filter(user__username="minter").update(revoked_at=timezone.now())
    made = [r for r in answers if 'id="new-token"' in r.text]
    assert len(made) == 4
    assert ApiToken.objects.filter(user__username="minter").count() == 4
    assert "Too many API tokens made; try again in" in answers[-1].text
    assert answers[-1].text.count("try again in") == 1


def test_anonymous_requests_are_limited_per_address_across_processes(server: Server) -> None:
    answers = flood([lambda: requests.get(f"{server.url}/api/games/", timeout=10)
                     for _ in range(50)])
    assert Counter(r.status_code for r in answers) == {200: 20, 429: 30}
    assert_refusal(next(r for r in answers if r.status_code == 429))


def test_a_chunked_upload_is_refused_with_411(server: Server) -> None:
    owner = User.objects.create_user("chunky", password=PASSWORD)
    _, token = token_create(user=owner, name="t")

    def body() -> Iterator[bytes]:  # a generator: requests sends it chunked, no length
        yield b"--x\r\nContent-Disposition: form-data; name=\"game\"\r\n\r\nstones\r\n--x--\r\n"

    response = requests.post(f"{server.url}/api/versions/", data=body(), timeout=10,
                             headers={"Authorization": f"Bearer {token}",
                                      "Content-Type": "multipart/form-data; boundary=x"})
    assert response.status_code == 411
    assert "Content-Length" in response.json()["detail"]
    assert not BotVersion.objects.exists()


def test_a_write_to_an_unknown_api_path_is_a_json_404(server: Server) -> None:
    response = requests.post(f"{server.url}/api/no-such-thing/", data={"a": "b"}, timeout=10)
    assert response.status_code == 404
    assert response.headers["Content-Type"] == "application/json"
    assert "no API endpoint" in response.json()["detail"]


@pytest.fixture
def validating_server(transactional_db: None, tmp_path: Path) -> Iterator[Server]:
    """At most 2 versions a user waiting for validation (and no worker to validate them)."""
    yield from serve(tmp_path, LEAGUE_MAX_VALIDATING="2", LEAGUE_UPLOADS_PER_USER="1000/hour")


def test_versions_waiting_for_validation_are_limited_per_user_across_processes(
        validating_server: Server) -> None:
    """The count and the new version in one transaction under the owner's lock: uploads
    landing together in three processes once all counted the same few waiting."""
    owner = User.objects.create_user("eager", password=PASSWORD)
    _, token = token_create(user=owner, name="t")
    source = b"from botlib import run\nrun(lambda turn: turn.legal_moves[0])\n"

    def upload(i: int):
        return lambda: requests.post(
            f"{validating_server.url}/api/versions/", data={"game": "stones",
                                                            "name": f"eager{i}"},
            files={"file": ("main.py", source)}, timeout=30,
            headers={"Authorization": f"Bearer {token}"})

    for attempt in range(3):  # each round on a clean slate: 12 uploads at once
        BotVersion.objects.filter(bot__owner=owner).delete()
        answers = flood([upload(100 * attempt + i) for i in range(12)])
        assert Counter(r.status_code for r in answers) == {201: 2, 429: 10}, [
            r.text[:200] for r in answers if r.status_code not in (201, 429)]
        assert BotVersion.objects.filter(bot__owner=owner, status="validating").count() == 2
    refusal = next(r for r in answers if r.status_code == 429)
    assert_refusal(refusal)
    assert "2 of your versions are waiting for validation" in refusal.json()["detail"]
