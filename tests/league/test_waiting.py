"""Waiting costs no thread (league/asgi.py, league/waiting.py): on the league's own web server
(one process of ``LEAGUE_WEB_THREADS`` threads, as ``./dev up`` starts each of its two), two
hundred play pages parked on one game leave the site answering everyone else at once, all of
them wake when the game moves, a person's waits beyond the cap are refused, and a page that
went away gives its place back. On PostgreSQL + Redis (woken by the workers' news) and on the
embedded default (woken by the hub's own reads)."""

from __future__ import annotations

import select
import socket
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests

from tests.league.play_world import PlayLeague, running_play_league

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

WAITERS = 200
CAP = WAITERS  # the test's own cap: one person holds them all, and one more is refused


@pytest.fixture(scope="module", params=["postgres-redis", "embedded"])
def world(request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayLeague]:
    with running_play_league(django_db_blocker, tmp_path_factory,
                             embedded=request.param == "embedded",
                             env={"LEAGUE_WAITS_PER_USER": str(CAP),
                                  "LEAGUE_PLAY_LONG_POLL_SECONDS": "60",
                                  # the games wait on their person's first move throughout
                                  "LEAGUE_PLAY_FIRST_MOVE_SECONDS": "900"}) as league:
        yield league


def _your_turn(world: PlayLeague, session: requests.Session) -> tuple[int, dict[str, Any]]:
    match = world.start(session, opponent=str(world.cast["bots"]["stones-random"]), seat=0)
    # running: a game still queued may show the person's turn (they may move first)
    return match, world.wait_state(
        session, match, lambda s: s["your_turn"] and s["status"] == "running")


def _get(url: str, cookies: dict[str, str], timeout: float = 90) -> requests.Response:
    with requests.Session() as one:  # one connection a waiter, as a tab has
        one.cookies.update(cookies)
        return one.get(url, timeout=timeout)


def test_two_hundred_waiting_pages_leave_the_site_answering_and_all_wake_on_the_move(
        world: PlayLeague) -> None:
    alice = world.login("alice")
    match, state = _your_turn(world, alice)
    url = f"{world.url}/api/play/{match}/?since={state['step']}&status={state['status']}"
    cookies = alice.cookies.get_dict()
    answers: list[requests.Response | BaseException] = []
    lock = threading.Lock()

    def wait() -> None:
        try:
            answer: requests.Response | BaseException = _get(url, cookies)
        except BaseException as error:
            answer = error
        with lock:
            answers.append(answer)

    idle = [_timed(f"{world.url}/") for _ in range(10)]
    threads = [threading.Thread(target=wait, daemon=True) for _ in range(WAITERS + 1)]
    for thread in threads:
        thread.start()
    # all parked but one, which is over the person's cap and refused at once
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not answers:
        time.sleep(0.1)
    time.sleep(2.0)
    assert len(answers) == 1, [_said(a) for a in answers]
    refused = answers[0]
    assert isinstance(refused, requests.Response) and refused.status_code == 429, \
        _said(refused)
    assert "too many requests waiting at once" in refused.json()["detail"]
    # everyone else's pages: answered as if nobody waited (the threads are all free)
    busy = [_timed(f"{world.url}/") for _ in range(20)]
    assert max(busy) < 5.0 and statistics.median(busy) < max(1.0, 4 * statistics.median(idle)), \
        (idle, busy)
    assert len(answers) == 1, "a parked page answered though its game did not move"
    # the move wakes every parked page, each with the game past the step it had
    moved = world.move(alice, match, state["legal_moves"][0], state["step"])
    assert moved.status_code == 200, moved.text
    woke = time.monotonic()
    for thread in threads:
        thread.join(timeout=max(0.1, 30 - (time.monotonic() - woke)))
    assert len(answers) == WAITERS + 1, f"{len(answers)} of {WAITERS + 1} answered"
    assert time.monotonic() - woke < 30
    states = [a for a in answers[1:] if isinstance(a, requests.Response)]
    assert len(states) == WAITERS, [_said(a) for a in answers if not isinstance(
        a, requests.Response)][:3]
    assert all(a.status_code == 200 and a.json()["step"] > state["step"] for a in states), \
        {_said(a) for a in states}


def test_a_page_that_went_away_gives_its_wait_back(world: PlayLeague) -> None:
    bob = world.login("bob")
    match, state = _your_turn(world, bob)
    path = f"/api/play/{match}/?since={state['step']}&status={state['status']}"
    cookie = "; ".join(f"{k}={v}" for k, v in bob.cookies.get_dict().items())
    host, port = world.url.removeprefix("http://").split(":")
    request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nCookie: {cookie}\r\n\r\n".encode()

    def park() -> socket.socket:
        conn = socket.create_connection((host, int(port)), timeout=30)
        conn.sendall(request)
        return conn

    # the cap's worth of waits, on sockets then closed without reading an answer
    sockets = [park() for _ in range(CAP)]
    # once they are all parked (a loaded machine takes a while), one more is refused
    assert _refused_within(f"{world.url}{path}", bob.cookies.get_dict(), sockets, park, 240)
    for conn in sockets:
        conn.close()
    # each went away: the places come back, and a new wait parks
    deadline = time.monotonic() + 60  # a loaded machine notices 200 closed sockets slowly
    while True:
        answer: list[requests.Response] = []
        waiter = threading.Thread(target=lambda into=answer: into.append(
            _get(f"{world.url}{path}", bob.cookies.get_dict(), timeout=60)), daemon=True)
        waiter.start()
        # a refusal comes at once, but a loaded machine may take seconds to send it; a
        # parked wait answers only when the game moves (its long poll is 60 s)
        waiter.join(timeout=10)
        if not answer:
            break  # parked: waiting for the game to move
        assert answer[0].status_code == 429, _said(answer[0])
        assert time.monotonic() < deadline, "the waits of closed pages were not given back"
    world.move(bob, match, state["legal_moves"][0], state["step"])
    waiter.join(timeout=60)
    assert answer and answer[0].status_code == 200 and answer[0].json()["step"] > state["step"]


def _refused_within(url: str, cookies: dict[str, str], sockets: list[socket.socket],
                    park: Callable[[], socket.socket], seconds: float) -> bool:
    """Whether a wait at ``url`` is refused (429) before ``seconds`` pass. On a loaded machine
    the probe may reach the server before the last of ``sockets`` does and take its place: that
    socket is refused instead and would never park. So a probe that parks is abandoned (giving
    its place back), every socket already answered (refused) is parked again, and the probe
    tried once more."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            answer = _get(url, cookies, timeout=3)
        except requests.ReadTimeout:
            answered, _, _ = select.select(sockets, [], [], 0)
            for conn in answered:
                conn.close()
                sockets[sockets.index(conn)] = park()
            time.sleep(2.0 if answered else 0)  # for the server to take them in first
            continue
        assert answer.status_code == 429, _said(answer)
        return True
    return False


def _timed(url: str) -> float:
    began = time.perf_counter()
    answer = requests.get(url, timeout=60)
    assert answer.status_code == 200
    return time.perf_counter() - began


def _said(answer: requests.Response | BaseException) -> str:
    if isinstance(answer, BaseException):
        return repr(answer)
    return f"{answer.status_code} {answer.text[:300]}"
