"""Claiming a match in SQL: once, with what the sandbox needs, on PostgreSQL (the embedded
default's SQLite runs the same statements in ``test_live_embedded``)."""

from __future__ import annotations

from django.contrib.auth.models import User

from league.ladders.claiming import match_claim
from league.ladders.models import Ladder, Match, MatchStatus
from league.ladders.services import match_create
from sandbox import Limits
from tests.league.pages import active


def test_a_queued_match_is_claimed_once_with_its_ladder_and_seats_in_order(
        ladders: dict[str, Ladder], alice: User) -> None:
    ladder = ladders["stones"]
    version = active(alice, "claimer")
    match = match_create(ladder=ladder, kind="challenge", seed=42, seats=["random", version])

    claimed = match_claim(match_id=match.pk, worker="host:1")
    assert claimed is not None
    assert (claimed.game, claimed.seed, claimed.kind, claimed.backend) == (
        "stones", 42, "challenge", ladder.backend)
    assert claimed.options == ladder.options
    assert claimed.limits == Limits.from_json(ladder.limits)
    assert [(s.builtin, s.version_id, s.label) for s in claimed.seats] == [
        ("random", None, "random"), ("", version.pk, str(version))]
    assert claimed.seats[1].sha256 == version.sha256
    assert claimed.claim.attempt == 1

    match.refresh_from_db()
    assert (match.status, match.attempts, match.claimed_by, match.claim_token) == (
        MatchStatus.RUNNING, 1, "host:1", claimed.claim.token)
    assert match.started_at is not None and match.heartbeat_at == match.started_at

    assert match_claim(match_id=match.pk, worker="host:2") is None, "claimed twice"
    assert match_claim(match_id=match.pk + 1000, worker="host:2") is None


def test_a_requeued_match_is_claimed_again_as_its_next_attempt(
        ladders: dict[str, Ladder], alice: User) -> None:
    match = match_create(ladder=ladders["g2048"], kind="challenge", seed=1,
                         seats=[active(alice, "again", game="g2048")])
    first = match_claim(match_id=match.pk, worker="host:1")
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.QUEUED, claim_token="")
    second = match_claim(match_id=match.pk, worker="host:2")
    assert first is not None and second is not None
    assert (first.claim.attempt, second.claim.attempt) == (1, 2)
    assert first.claim.token != second.claim.token
