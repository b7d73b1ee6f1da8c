"""Pairing, free of the database: placements first and spread over the board, nobody starved,
no pair hammered, and the seed runs of a scored ladder each owed exactly once."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.ladders.pairing import (
    PLACEMENT_PAIRINGS,
    Entry,
    _placement_opponent,
    choose_pairings,
    choose_seed_runs,
    kendall_tau,
    misorder_chance,
    pair_key,
    worth_a_game,
)
from league.ladders.ratings import Skill


def settled_board(n: int) -> list[Entry]:
    """n placed entries with distinct ratings, best first."""
    return [Entry(key=i, skill=Skill(40 - 2 * i, 2.0), placed=PLACEMENT_PAIRINGS)
            for i in range(n)]


def test_a_new_version_is_placed_first_against_opponents_spread_over_the_board() -> None:
    board = settled_board(12)
    newcomer = Entry(key="new", skill=Skill())
    opponents = []
    for _ in range(PLACEMENT_PAIRINGS):
        (a, b), = choose_pairings([*board, newcomer], 1, random.Random(1))
        assert "new" in (a, b)
        opponents.append(b if a == "new" else a)
    assert len(set(opponents)) == PLACEMENT_PAIRINGS
    assert min(opponents) <= 2 and max(opponents) >= 8, opponents  # top and bottom of it
    (a, b), = choose_pairings([*board, newcomer], 1, random.Random(1))
    assert newcomer.placed == PLACEMENT_PAIRINGS + 1 or "new" not in (a, b)


def test_nobody_is_starved_and_no_pair_is_hammered() -> None:
    board = settled_board(10)
    rng = random.Random(7)
    met: Counter = Counter()
    games: Counter = Counter()
    for _ in range(300):
        for entry in board:  # recent games fade, as the league's window does
            entry.recent = max(0, entry.recent - 1)
        for a, b in choose_pairings(board, 1, rng, met):
            assert a != b
            games[a] += 1
            games[b] += 1
    assert set(games) == set(range(10))
    assert min(games.values()) >= 0.5 * max(games.values()), games
    assert max(met.values()) <= 0.15 * sum(met.values()), met.most_common(3)


def test_a_tie_the_games_cannot_break_counts_for_less_as_sigma_narrows() -> None:
    # two bots of one strength stay a coin flip however often they meet; once their sigmas
    # are narrow another game moves the board little, so the pair stops drawing every pairing
    fresh, settled = Skill(30, 3.0), Skill(30, 0.5)
    assert misorder_chance(fresh, fresh) == misorder_chance(settled, settled) == 0.5
    assert worth_a_game(fresh, fresh) == 0.5
    assert worth_a_game(settled, settled) < 0.2
    assert worth_a_game(Skill(30, 0.5), Skill(35, 0.5)) < worth_a_game(settled, settled)


def test_opponents_are_mostly_near_in_rank() -> None:
    board = settled_board(20)
    rng = random.Random(3)
    distances = [abs(a - b) for _ in range(400)
                 for a, b in choose_pairings(board, 1, rng)]
    near = sum(d <= 4 for d in distances) / len(distances)
    assert near > 0.6, near
    assert max(distances) > 4, "the window sometimes reaches further"


def test_seed_runs_owe_each_seed_once_fewest_played_first() -> None:
    played = {"a": {1, 2}, "b": set(), "c": {1, 2, 3}}
    runs = choose_seed_runs(played, [1, 2, 3], 10)
    assert runs[0] == ("b", 1)
    assert sorted(runs) == [("a", 3), ("b", 1), ("b", 2), ("b", 3)]
    assert choose_seed_runs(played, [1, 2, 3], 2) == [("b", 1), ("b", 2)]


def test_kendall_tau() -> None:
    assert kendall_tau([1, 2, 3, 4], [1, 2, 3, 4]) == 1.0
    assert kendall_tau([4, 3, 2, 1], [1, 2, 3, 4]) == -1.0
    assert kendall_tau([2, 1, 3, 4], [1, 2, 3, 4]) == pytest.approx(4 / 6)  # 1 of 6 pairs swapped


def _placement_by_scan(player: Entry, board: list[Entry], met: Counter,
                       rng: random.Random) -> Entry:
    """The placement rule as a scan of the whole board: the reference the search must match."""
    others = [e for e in board if e is not player]
    target = (player.placed + rng.random()) / PLACEMENT_PAIRINGS * len(others)
    return min(others, key=lambda e: abs(others.index(e) + 0.5 - target)
               + 2 * met[pair_key(player.key, e.key)])


@given(st.integers(2, 60), st.integers(0, 2**32), st.integers(0, 3))
@settings(max_examples=400, deadline=None)
def test_the_placement_search_picks_what_a_scan_of_the_board_picks(
        size: int, seed: int, placed: int) -> None:
    rng = random.Random(seed)
    entries = [Entry(key=i, skill=Skill(rng.uniform(10, 40), rng.uniform(1, 8)),
                     placed=rng.randint(0, 3)) for i in range(size)]
    board = sorted(entries, key=lambda e: e.skill.ordinal, reverse=True)
    met = Counter({pair_key(rng.randrange(size), rng.randrange(size)): rng.randint(0, 3)
                   for _ in range(rng.randint(0, size))})
    player = rng.choice(entries)
    player.placed = placed
    draw = rng.randrange(2**32)
    opponent, at = _placement_opponent(player, board, board.index(player), met,
                                       random.Random(draw))
    assert opponent is _placement_by_scan(player, board, met, random.Random(draw))
    assert board[at] is opponent


def test_placing_a_newcomer_on_a_board_of_100000_takes_under_100_ms() -> None:
    import time

    rng = random.Random(1)
    newcomer = Skill()
    skills = [newcomer, *(Skill(rng.uniform(0, 50), rng.uniform(1, 8)) for _ in range(100_000))]
    skills.sort(key=lambda skill: skill.ordinal, reverse=True)
    # entries in board order, as the league gives them (ladders.boards.Board.entries)
    board = [Entry(key="new" if skill is newcomer else i, skill=skill,
                   placed=0 if skill is newcomer else 9) for i, skill in enumerate(skills)]
    start = time.perf_counter()
    pairings = choose_pairings(board, 4, rng, ranked=True)
    took = time.perf_counter() - start
    assert all("new" in pair for pair in pairings)
    assert took < 0.1 * 4, f"{took * 1000:.0f} ms for 4 placements"
