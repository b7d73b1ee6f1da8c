"""The information proposal (``benchmarks.information_pairing``, not the league's rule) gives
pairings the league could play: two different bots of the board each, as many as asked, the
bookkeeping kept as the league's ``choose_pairings`` keeps it; and it runs in the ranking
simulation. Cheap: no database, a small board."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from benchmarks.information_pairing import choose_information_pairings
from benchmarks.ranking_sim import OpenSkillBoard, league_ticks, tied_share
from league.ladders.pairing import PLACEMENT_PAIRINGS, Entry
from league.ladders.ratings import Skill, new_version_skill


def _board(placed: int) -> list[Entry]:
    return [Entry(key, Skill(25.0 + key, 8.33 if placed < PLACEMENT_PAIRINGS else 1.0),
                  placed=placed) for key in range(6)]


@pytest.mark.parametrize("placed", [0, PLACEMENT_PAIRINGS])
def test_pairings_are_two_different_bots_of_the_board(placed: int) -> None:
    for seed in range(20):
        entries = _board(placed)
        met: Counter = Counter()
        pairings = choose_information_pairings(entries, 3, random.Random(seed), met)
        assert len(pairings) == 3
        for a, b in pairings:
            assert a != b
            assert {a, b} <= {e.key for e in entries}
        # as the league's rule: two matches and one meeting more a pairing
        played = Counter(key for pair in pairings for key in pair)
        assert {e.key: e.recent for e in entries} == {e.key: 2 * played[e.key]
                                                       for e in entries}
        assert sum(met.values()) == 3


def test_no_pairing_on_a_board_of_one() -> None:
    assert choose_information_pairings([Entry(1, new_version_skill(None))], 2,
                                       random.Random(1)) == []


def test_in_the_simulation_everyone_plays() -> None:
    keys = list(range(5))
    board = OpenSkillBoard(keys)
    schedule = league_ticks(keys, lambda: board.skills, random.Random(1),
                            pairer=choose_information_pairings)
    played: Counter = Counter()
    for _ in range(100):
        a, b = next(schedule)
        assert a != b
        played.update((a, b))
    assert min(played.values()) >= max(played.values()) / 2


def test_tied_share_is_a_share() -> None:
    share, top = tied_share((100.0, 0.0, 0.0), (1, 2), choose_information_pairings,
                            seasons=2, matches=40)
    assert 0 <= share <= top <= 1
