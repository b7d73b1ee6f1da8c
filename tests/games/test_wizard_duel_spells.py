"""Wizard Duel: the six spells, their costs and effects, and damage to obstacles."""

from __future__ import annotations

import pytest

from games.errors import IllegalMoveError
from games.wizard_duel.board import index
from tests.games.wizard_support import (
    events,
    fingerprint,
    give,
    placed,
    play,
    wall,
)

ALL_TWO = {"F": 2, "W": 2, "T": 2, "A": 2, "E": 2}


@pytest.mark.parametrize(("spell", "kind", "cost"), [
    ("cast arrow 0 0", "F", 1), ("cast dragon", "F", 2),
    ("cast heal 1", "W", 1), ("cast heal 2", "W", 2),
    ("cast shield 1", "T", 1), ("cast shield 2", "T", 2),
    ("cast scan U 1", "A", 1), ("cast scan U 2", "A", 2),
    ("cast wall U 1", "E", 1), ("cast wall U 2", "E", 2),
])
def test_each_spell_spends_exactly_its_cost(spell, kind, cost):
    state = placed(p0=(4, 4))
    give(state, 0, **ALL_TWO)
    assert spell in state.legal_moves()
    state.apply(spell)
    held = state.observation(0)["you"]["elements"]
    assert held == {k: 2 - cost if k == kind else 2 for k in ALL_TWO}
    assert state.spells == [1, 0]


@pytest.mark.parametrize(("spell", "have", "why"), [
    ("cast arrow 1 1", {}, "arrow needs 1 fire, you hold 0"),
    ("cast dragon", {"F": 1}, "dragon needs 2 fire, you hold 1"),
    ("cast heal 2", {"W": 1}, "heal needs 2 water"),
    ("cast shield 1", {}, "shield needs 1 wood"),
    ("cast scan L 2", {"A": 1}, "scan needs 2 wind"),
    ("cast wall R 1", {"F": 5}, "wall needs 1 earth"),
])
def test_casting_without_the_elements_is_illegal(spell, have, why):
    state = placed()
    give(state, 0, **have)
    assert spell not in state.legal_moves()
    was = fingerprint(state)
    with pytest.raises(IllegalMoveError, match=why):
        state.apply(spell)
    assert fingerprint(state) == was


# -- fire ------------------------------------------------------------------------------------
def test_a_fire_arrow_hurts_the_wizard_in_any_cell_and_the_victim_learns_no_source():
    state = placed(p0=(0, 0), p1=(9, 19))
    give(state, 0, F=1)
    state.apply("cast arrow 9 19")
    assert state.damage == [0, 1]
    assert events(state, 0, "attack") == [{"turn": 1, "kind": "attack", "spell": "arrow",
                                           "cell": [9, 19], "hit": "wizard"}]
    assert events(state, 1, "damaged") == [{"turn": 1, "kind": "damaged", "damage": 1}]
    assert state.observation(1)["you"]["damage"] == 1
    assert state.observation(0)["opponent"] == {"row": 9, "col": 19, "turn": 1,
                                                "how": "attack"}
    assert state.observation(1)["opponent"] is None


def test_an_arrow_reports_nothing_on_an_empty_cell_and_never_hurts_its_caster():
    state = placed(p0=(4, 4), p1=(4, 15))
    give(state, 0, F=2)
    play(state, "cast arrow 4 14", "look 1", "cast arrow 4 4")
    assert [e["hit"] for e in events(state, 0, "attack")] == ["nothing", "nothing"]
    assert state.damage == [0, 0]


def test_dragon_fire_hits_the_four_neighbours_wizards_and_obstacles():
    state = placed(p0=(4, 9), p1=(4, 10))
    wall(state, 3, 9, durability=2)
    give(state, 0, F=2)
    state.apply("cast dragon")
    assert state.damage == [0, 1]
    assert state.obstacles[index(3, 9)] == 1
    hits = {tuple(e["cell"]): e["hit"] for e in events(state, 0, "attack")}
    assert hits == {(3, 9): "obstacle", (5, 9): "nothing", (4, 8): "nothing",
                    (4, 10): "wizard"}


def test_dragon_fire_in_a_corner_hits_only_the_cells_on_the_map():
    state = placed(p0=(0, 0))
    give(state, 0, F=2)
    state.apply("cast dragon")
    assert sorted(tuple(e["cell"]) for e in events(state, 0, "attack")) == [(0, 1), (1, 0)]


def test_damage_wears_an_obstacle_down_and_removes_it_at_zero():
    state = placed(p0=(4, 4), p1=(4, 15))
    wall(state, 2, 2, durability=2)
    give(state, 0, F=2)
    play(state, "cast arrow 2 2", "look 1")
    assert state.obstacles[index(2, 2)] == 1
    play(state, "cast arrow 2 2", "look 1")
    assert state.obstacles[index(2, 2)] == 0
    assert [e["hit"] for e in events(state, 0, "attack")] == ["obstacle", "obstacle"]


# -- water -----------------------------------------------------------------------------------
def test_heal_removes_one_or_two_damage_but_not_below_zero():
    state = placed()
    state.damage[0] = 2
    give(state, 0, W=3)
    play(state, "cast heal 1", "look 1")
    assert state.observation(0)["you"]["damage"] == 1
    play(state, "cast heal 2")
    assert state.observation(0)["you"]["damage"] == 0


# -- wood ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("power", "blocked_turns"), [(1, 1), (2, 3)])
def test_a_shield_blocks_all_damage_for_the_opponents_next_1_or_3_turns(power, blocked_turns):
    state = placed(p0=(4, 4), p1=(4, 15))
    give(state, 0, T=2)
    give(state, 1, F=5)
    state.apply(f"cast shield {power}")
    assert state.observation(0)["you"]["shield"] == blocked_turns
    outcomes = []
    for _ in range(blocked_turns + 1):
        state.apply("cast arrow 4 4")
        outcomes.append(events(state, 1, "attack")[-1]["hit"])
        state.apply("look 1")
    assert outcomes == ["shield"] * blocked_turns + ["wizard"]
    assert state.damage[0] == 1
    assert [e["kind"] for e in state.observation(0)["events"]
            if e["kind"] in ("shielded", "damaged")] == ["shielded"] * blocked_turns + ["damaged"]


def test_a_shield_wears_down_on_the_opponents_skipped_turns_too():
    state = placed(p0=(4, 4), p1=(4, 15))
    give(state, 0, T=2)
    give(state, 1, F=1)
    play(state, "cast shield 2", "look 3")  # player 1 skips turns 4 and 6
    assert state.observation(0)["you"]["shield"] == 2
    play(state, "look 1", "look 1")
    assert (state.turn, state.to_move, state.shield[0]) == (7, 0, 0)
    play(state, "look 1", "cast arrow 4 4")
    assert state.damage[0] == 1


def test_a_new_shield_never_shortens_one_still_up():
    state = placed()
    give(state, 0, T=3)
    play(state, "cast shield 2", "look 1", "cast shield 1")
    assert state.observation(0)["you"]["shield"] == 2


# -- wind ------------------------------------------------------------------------------------
@pytest.mark.parametrize(("power", "reach"), [(1, 5), (2, 10)])
def test_a_scan_sees_5_or_10_cells_one_way(power, reach):
    state = placed(p0=(4, 2), p1=(4, 12))
    give(state, 0, A=2)
    state.apply(f"cast scan R {power}")
    scan = events(state, 0, "scan")[0]
    assert [(r, c) for r, c, _, _ in scan["cells"]] == [(4, 2 + k) for k in range(1, reach + 1)]
    assert scan["opponent"] == ([4, 12] if power == 2 else None)
    seen = state.observation(0)["map"]["seen"][4]
    assert [seen[c] for c in range(3, 13)] == [1] * reach + [0] * (10 - reach)


def test_a_scan_stops_at_the_first_obstacle_and_at_the_edge():
    state = placed(p0=(4, 2), p1=(4, 12))
    wall(state, 4, 6, durability=1)
    give(state, 0, A=4)
    play(state, "cast scan R 2", "look 1", "cast scan U 2")
    right, up = events(state, 0, "scan")
    assert [(r, c, d) for r, c, _, d in right["cells"]] == [(4, 3, 0), (4, 4, 0), (4, 5, 0),
                                                          (4, 6, 1)]
    assert right["opponent"] is None
    assert [(r, c) for r, c, _, _ in up["cells"]] == [(3, 2), (2, 2), (1, 2), (0, 2)]


# -- earth -----------------------------------------------------------------------------------
@pytest.mark.parametrize("power", [1, 2])
def test_a_wall_puts_an_obstacle_of_durability_1_or_2_next_to_the_caster(power):
    state = placed(p0=(4, 4))
    give(state, 0, E=2)
    state.apply(f"cast wall U {power}")
    assert state.obstacles[index(3, 4)] == power
    assert state.observation(0)["map"]["obstacles"][3][4] == str(power)
    assert events(state, 0, "wall")[0] == {"turn": 1, "kind": "wall", "direction": "U",
                                           "power": power, "cell": [3, 4], "result": "built"}
    state.apply("look 1")
    state.apply("move U")  # its own wall blocks it
    assert events(state, 0, "blocked")[0]["by"] == "obstacle"


@pytest.mark.parametrize(("p0", "p1", "direction", "result"), [
    ((0, 4), (4, 15), "U", "off-map"),
    ((4, 4), (4, 15), "L", "obstacle"),
    ((4, 9), (4, 10), "R", "wizard"),
])
def test_a_wall_fails_off_the_map_on_an_obstacle_or_a_wizard_and_the_caster_learns_why(
        p0, p1, direction, result):
    state = placed(p0=p0, p1=p1)
    wall(state, 4, 3, durability=1)
    give(state, 0, E=2)
    before = list(state.obstacles)
    state.apply(f"cast wall {direction} 2")
    assert state.obstacles == before
    assert state.observation(0)["you"]["elements"]["E"] == 0  # the elements are spent
    event = events(state, 0, "wall")[0]
    assert event["result"] == result
    if result == "off-map":
        assert event["cell"] is None
    if result == "obstacle":
        assert state.observation(0)["map"]["obstacles"][4][3] == "1"
    if result == "wizard":
        assert state.observation(0)["opponent"]["how"] == "wall"
