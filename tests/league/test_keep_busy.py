"""A ladder with pairings to play keeps the workers busy between beats: each written match
tops its ladder's queue up again, so matches keep coming with no tick at all, and the rate
cap holds them back when asked."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from league.ladders.matchmaking import ladder_fill, ladder_target, playing_ladders
from league.ladders.models import Ladder, Match, MatchKind
from tests.league import bots
from tests.league.conftest import Worker, wait_for
from tests.league.pages import active

pytestmark = pytest.mark.slow


def ladder_matches() -> int:
    return Match.objects.filter(kind=MatchKind.LADDER, status="finished").count()


def test_matches_keep_coming_without_a_beat(ladders: dict[str, Ladder], alice: User,
                                            start_worker: Callable[..., Worker]) -> None:
    worker = start_worker(env={"LEAGUE_KEEP_BUSY": "true"})
    for i in range(3):
        active(alice, f"busy{i}", source=bots.RANDOM)
    ladder = ladders["stones"]
    target = ladder_target(ladder, len(playing_ladders(Ladder.objects.all())))
    assert ladder_fill(ladder=ladder, target=target, rng=random.Random(1)) > 0  # one beat
    wait_for(lambda: ladder_matches() >= 4 * target, 60,
             "matches to keep coming with no beat", worker.text)


def test_the_rate_cap_holds_a_laptops_demo_back(ladders: dict[str, Ladder], alice: User,
                                                start_worker: Callable[..., Worker]) -> None:
    start_worker(env={"LEAGUE_KEEP_BUSY": "true", "LEAGUE_MATCHES_PER_MINUTE": "6"})
    for i in range(3):
        active(alice, f"capped{i}", source=bots.RANDOM)
    ladder = ladders["stones"]
    ladder_fill(ladder=ladder, target=4, rng=random.Random(1))
    wait_for(lambda: ladder_matches() >= 4, 60, "the first matches")
    time.sleep(8)
    assert Match.objects.filter(kind=MatchKind.LADDER).count() <= 6
