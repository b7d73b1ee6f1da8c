"""Two matches of one pair finishing together: their ratings are applied one after the other,
and ``finished_at`` tells that order, so a rating history read by it is one unbroken chain."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection

from league.ladders import finishing
from league.ladders.claiming import Assignment, match_claim
from league.ladders.models import Ladder, Match, Participant, Standing
from league.ladders.services import match_create
from replay import MatchRecord
from sandbox import BotSpec, run_match
from tests.league.pages import active


def played(seed: int) -> MatchRecord:
    return run_match("stones", [BotSpec("builtin:random"), BotSpec("builtin:random")],
                     seed=seed, backend="process")


def test_a_match_held_up_before_the_standings_finishes_after_the_one_that_took_them(
        ladders: dict[str, Ladder], alice: User, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = active(alice, "one"), active(alice, "two")
    matches = [match_create(ladder=ladders["stones"], kind="ladder", seed=seed,
                            seats=[first, second]) for seed in (1, 2)]
    claimed = [match_claim(match_id=m.pk, worker="host:1") for m in matches]
    assert all(claimed)
    records = [played(1), played(2)]

    # The slow match has opened its transaction when the fast one comes and finishes whole;
    # only then does the slow one go on to lock the standings and stamp its row.
    inside, go_on = threading.Event(), threading.Event()
    lock: Callable[..., Any] = finishing._lock_standings

    def held_up(match: Assignment) -> Any:
        if match.claim.match_id == matches[0].pk:
            inside.set()
            assert go_on.wait(30)
        return lock(match)

    monkeypatch.setattr(finishing, "_lock_standings", held_up)
    written: list[bool] = []

    def slow() -> None:
        try:
            written.append(finishing.match_finish(match=claimed[0], record=records[0],
                                                  error=None))
        finally:
            connection.close()

    thread = threading.Thread(target=slow)
    thread.start()
    try:
        assert inside.wait(30)
        assert finishing.match_finish(match=claimed[1], record=records[1], error=None)
    finally:
        go_on.set()
        thread.join(30)
    assert written == [True]

    chain = list(Participant.objects.filter(version=first).order_by("match__finished_at")
                 .values_list("match_id", "mu_before", "mu_after"))
    assert [m for m, _, _ in chain] == [matches[1].pk, matches[0].pk], \
        "finished_at does not tell the order the ratings were applied in"
    assert chain[0][1] == 25.0 and chain[1][1] == chain[0][2]
    assert Match.objects.filter(pk__in=[m.pk for m in matches], status="finished").count() == 2


def test_an_attempt_whose_claim_was_taken_back_writes_nothing_not_even_a_standing(
        ladders: dict[str, Ladder], alice: User) -> None:
    first, second = active(alice, "one"), active(alice, "two")
    match = match_create(ladder=ladders["stones"], kind="ladder", seed=3, seats=[first, second])
    claimed = match_claim(match_id=match.pk, worker="host:1")
    assert claimed is not None
    Standing.objects.filter(version=second).delete()  # it left the board meanwhile
    Match.objects.filter(pk=match.pk).update(claim_token="the reaper's")  # and lost its claim

    assert not finishing.match_finish(match=claimed, record=played(3), error=None)
    assert not Standing.objects.filter(version=second).exists()
    assert Standing.objects.get(version=first).games == 0
    match.refresh_from_db()
    assert (match.status, match.finished_at) == ("running", None)
