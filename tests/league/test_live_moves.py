"""A running match's moves reach the database while it plays (the worker publishes them every
``LEAGUE_LIVE_SECONDS``), so its page can follow it; its replay replaces them at the end."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from league.ladders.live import LivePublisher
from league.ladders.models import Ladder, LiveMove, Match, Participant, Replay
from league.ladders.replays import SOURCES, viewer_frames, viewer_header
from league.ladders.running import Claim, Heartbeat, RunOutcome, match_run
from replay import MoveRecord
from tests.league import bots
from tests.league.pages import active

pytestmark = pytest.mark.slow


def test_published_moves_appear_within_the_interval_and_in_order(
        ladders: dict[str, Ladder]) -> None:
    match = Match.objects.create(ladder=ladders["g2048"], seed=1, status="running", attempts=1)
    with LivePublisher(Claim(match.pk, "t", attempt=1), interval=0.05) as live:
        for number, move in enumerate("LRUD"):
            live.on_move(None, MoveRecord(0, move, 0.01))  # type: ignore[arg-type]
            time.sleep(0.02 * number)
        deadline = time.monotonic() + 1.0
        while LiveMove.objects.filter(match=match).count() < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert time.monotonic() < deadline, "the moves did not appear within a second"
        live.on_move(None, MoveRecord(0, "L", 0.01))  # type: ignore[arg-type]
    rows = list(LiveMove.objects.filter(match=match).order_by("number")
                .values_list("attempt", "number", "move"))
    assert live.published
    # the move played just before the end is not written: the replay comes next
    assert rows == [(1, i, m) for i, m in enumerate("LRUD")]


def test_a_match_shorter_than_the_interval_writes_no_live_move(
        ladders: dict[str, Ladder]) -> None:
    match = Match.objects.create(ladder=ladders["g2048"], seed=1, status="running", attempts=1)
    with LivePublisher(Claim(match.pk, "t", attempt=1), interval=60) as live:
        live.on_move(None, MoveRecord(0, "L", 0.01))  # type: ignore[arg-type]
    assert not LiveMove.objects.filter(match=match).exists()
    assert not live.published, "the finish would look for live moves to delete"


def test_a_running_match_is_followed_move_by_move_and_becomes_its_replay(
        ladders: dict[str, Ladder], alice: User) -> None:
    SOURCES.clear()
    # 2048, as a game of Stones can end after four moves, before anything is published
    slow = active(alice, "slowpoke", game="g2048", source=bots.SLOW_START)
    match = Match.objects.create(ladder=ladders["g2048"], kind="challenge", seed=4)
    Participant.objects.create(match=match, seat=0, version=slow)
    outcome: list[RunOutcome] = []

    def run() -> None:
        try:
            outcome.append(match_run(match_id=match.pk, worker="test"))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    seen: list[int] = []  # frames the viewer could show, each time the match was read running
    try:
        while thread.is_alive():
            match.refresh_from_db()
            if match.status == "running":
                seen.append(viewer_frames(match=match, start=0, stop=1000)["total"])
            time.sleep(0.05)
    finally:
        # The match's publisher writes until its block ends: a thread left running would
        # write live moves after this test's database is cleaned (the match ends by its
        # own limits; a join with a deadline could leave it running under load).
        thread.join()
    assert outcome == [RunOutcome.FINISHED]
    grew = sorted(set(seen))
    assert len(grew) >= 3, f"the moves did not show one by one: {grew}"
    match.refresh_from_db()
    assert not LiveMove.objects.filter(match=match).exists() and Replay.objects.filter(
        match=match).exists()
    header = viewer_header(match=match, user=alice)
    assert header["status"] == "finished" and header["result"] is not None
    assert header["total"] == match.moves + 1 >= max(grew)
    assert header["logs"] == {"0": []}  # alice's own bot, which wrote nothing


def test_the_heartbeat_stamps_the_claimed_row_while_the_match_plays(
        ladders: dict[str, Ladder], settings) -> None:
    settings.LEAGUE_HEARTBEAT_SECONDS = 0.05
    long_ago = timezone.now() - timedelta(hours=1)
    match = Match.objects.create(ladder=ladders["stones"], seed=1, status="running", attempts=1,
                                 claim_token="t", heartbeat_at=long_ago)
    other = Match.objects.create(ladder=ladders["stones"], seed=2, status="running",
                                 attempts=1, claim_token="someone else's", heartbeat_at=long_ago)
    with Heartbeat(Claim(match.pk, "t", attempt=1)), Heartbeat(Claim(other.pk, "t", attempt=1)):
        time.sleep(0.3)
    match.refresh_from_db()
    other.refresh_from_db()
    assert match.heartbeat_at > timezone.now() - timedelta(seconds=1)
    assert other.heartbeat_at == long_ago, "a claim taken back is not stamped"
    stamped = match.heartbeat_at
    time.sleep(0.2)
    match.refresh_from_db()
    assert match.heartbeat_at == stamped, "no beat after the block ends"
