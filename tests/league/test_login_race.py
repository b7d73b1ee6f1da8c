"""The log-in limit holds exactly under concurrency: 40 simultaneous wrong passwords for one
name from one address have exactly the limit's number of passwords checked, and the rest are
refused with the limit's words, on Redis and on the embedded SQLite store.

An outside probe had 9 passwords checked against a limit of 5: the count was read before the
password was checked and added to after, so attempts in flight together all passed the read.
Each attempt is now counted first, in one atomic step of the store. The check here takes as
long as a real hasher's (PBKDF2, a fraction of a second), so the attempts overlap as they did
on the server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import override_settings

from league import rate_limits
from league.rate_limits import rate_of, rates_reset

ATTEMPTS = 40
HASHER_SECONDS = 0.2


@pytest.fixture(params=["redis", "embedded"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The counts in the tests' Redis, or (``embedded``: no Redis configured) in the SQLite
    file of a fresh data folder, as ``./dev up`` keeps them."""
    changes = {"CACHE_URL": "", "REDIS_URL": "", "DATA_DIR": tmp_path} \
        if request.param == "embedded" else {}
    with override_settings(**changes):
        rate_limits._store.cache_clear()
        rate_limits._limiter.cache_clear()
        rates_reset()
        try:
            yield request.param
        finally:
            rates_reset()
            rate_limits._store.cache_clear()
            rate_limits._limiter.cache_clear()


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every password checked, as long as a real hasher takes to check it."""
    checked: list[str] = []
    lock = threading.Lock()
    original = AbstractBaseUser.check_password

    def check_password(user: AbstractBaseUser, raw: str) -> bool:
        with lock:
            checked.append(raw)
        time.sleep(HASHER_SECONDS)
        return original(user, raw)

    monkeypatch.setattr(AbstractBaseUser, "check_password", check_password)
    return checked


def test_simultaneous_wrong_passwords_check_exactly_the_limit(
        transactional_db: None, store: str, checks: list[str]) -> None:
    User.objects.create_user("alice", password="the-Right-one-9")
    limit = rate_of("login").amount
    start = threading.Barrier(ATTEMPTS)

    def attempt(n: int) -> str:
        try:
            client = Client()
            start.wait(timeout=60)
            page = client.post("/account/login/", {"username": "alice",
                                                   "password": f"wrong-{n}"})
            assert page.status_code == 200
            text = page.content.decode()
            if "Too many failed log-ins for this name from this address" in text:
                return "refused"
            assert "Please enter a correct username" in text, text[:500]
            return "wrong"
        finally:
            connection.close()  # each thread's own connection

    with ThreadPoolExecutor(ATTEMPTS) as pool:
        answers = list(pool.map(attempt, range(ATTEMPTS)))
    assert len(checks) == limit, f"{len(checks)} passwords checked ({store})"
    assert answers.count("wrong") == limit and answers.count("refused") == ATTEMPTS - limit
    # the right password now is refused too, unchecked, until the window ends
    page = Client().post("/account/login/", {"username": "alice",
                                             "password": "the-Right-one-9"})
    assert b"Too many failed log-ins" in page.content and len(checks) == limit


def test_a_right_password_clears_the_count(transactional_db: None, store: str,
                                           checks: list[str]) -> None:
    User.objects.create_user("alice", password="the-Right-one-9")
    limit = rate_of("login").amount
    client = Client()
    for _ in range(2):
        for n in range(limit - 1):
            client.post("/account/login/", {"username": "alice", "password": f"wrong-{n}"})
        assert client.post("/account/login/", {
            "username": "alice", "password": "the-Right-one-9"}).status_code == 302
        client.post("/account/logout/")
    assert len(checks) == 2 * limit
