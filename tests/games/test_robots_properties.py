"""Robots properties: the bitboard step against a plain reference, scrap and score invariants."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.robots import Command, Robots, RobotsState


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def reference_step(robots: set[tuple[int, int]], scrap: set[tuple[int, int]],
                   player: tuple[int, int]) -> tuple[set, set, int, bool]:
    """The rule sheet's robot step, written plainly: (robots, scrap, destroyed, caught)."""
    pr, pc = player
    landing = Counter((r + sign(pr - r), c + sign(pc - c)) for r, c in robots)
    caught = landing.get(player, 0) > 0
    alive, new_scrap, destroyed = set(), set(scrap), 0
    for cell, n in landing.items():
        if cell == player:
            continue
        if n >= 2:
            new_scrap.add(cell)
            destroyed += n
        elif cell in scrap:
            destroyed += 1
        else:
            alive.add(cell)
    return alive, new_scrap, destroyed, caught


@st.composite
def positions(draw):
    rows = draw(st.integers(5, 14))
    cols = draw(st.sampled_from([5, 6, 9, 13, 60]))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    chosen = draw(st.lists(st.sampled_from(cells), min_size=2, max_size=40, unique=True))
    n_scrap = draw(st.integers(0, len(chosen) - 2))
    player, scrap, robots = chosen[0], chosen[1:1 + n_scrap], chosen[1 + n_scrap:]
    marks = {**{cell: "*" for cell in scrap}, **{cell: "+" for cell in robots}, player: "@"}
    board = ["".join(marks.get((r, c), ".") for c in range(cols)) for r in range(rows)]
    game = games.make_game("robots", {"rows": rows, "cols": cols})
    assert isinstance(game, Robots)
    return game.state_from_observation({"board": board}, seed=draw(st.integers(0, 99)))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.lists(st.integers(1, 9), min_size=1, max_size=12))
def test_every_step_follows_the_sign_rule_and_the_crash_rules(state: RobotsState, keys):
    for key in keys:
        if state.is_over() or str(key) not in state.legal_moves():
            continue
        target = state.step_target(Command(key)) if key != 5 else state.player
        assert target is not None
        player = divmod(target, state.game.cols)
        robots, scrap = set(state.robot_cells()), set(state.scrap_cells())
        level, score = state.level, state.score
        expected = reference_step(robots, scrap, player)
        state.apply(str(key))
        alive, new_scrap, destroyed, caught = expected
        if caught:
            assert state.result is not None and state.result.reason == "game-over"
            assert state.score == score + destroyed
        elif not alive:
            assert state.level == level + 1
            assert state.score == score + destroyed + 10 * level
        else:
            assert set(state.robot_cells()) == alive
            assert set(state.scrap_cells()) == new_scrap
            assert state.score == score + destroyed and state.position == player


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(5, 12), st.integers(5, 12),
       st.lists(st.integers(0, 9), min_size=1, max_size=80))
def test_robots_never_sit_on_scrap_or_on_the_player_while_the_run_goes_on(seed, rows, cols, keys):
    state = games.new_state("robots", {"rows": rows, "cols": cols}, seed)
    assert isinstance(state, RobotsState)
    for key in keys:
        if state.is_over():
            break
        legal = state.legal_moves()
        state.apply(str(key) if str(key) in legal else legal[key % len(legal)])
        assert state.robots & state.scrap == 0
        if not state.is_over():
            assert not state.robots >> state.player & 1
            assert not state.scrap >> state.player & 1
        assert state.score >= state.destroyed  # bonuses only ever add


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_the_score_is_robots_destroyed_plus_level_bonuses(seed):
    state = games.new_state("robots", {"max_turns": 300}, seed)
    assert isinstance(state, RobotsState)
    bonuses = 0
    while not state.is_over():
        level = state.level
        legal = state.legal_moves()
        state.apply(legal[state.turn % len(legal)])
        if state.level > level:
            bonuses += 10 * level
    assert state.score == state.destroyed + bonuses
