"""Wizard Duel properties over random games: invariants, determinism, copies, JSON views,
and the legal-move list agreeing with ``apply``."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from games.errors import IllegalMoveError
from games.rng import Rng
from games.wizard_duel import CAPACITY, WizardDuel, WizardDuelState
from games.wizard_duel.board import CELL_MAX, TOTAL
from tests.games.wizard_support import dumps, random_playout

seeds = st.integers(0, 2**63)


def check_invariants(state: WizardDuelState) -> None:
    for seat in (0, 1):
        held = state.held[seat]
        assert all(n >= 0 for n in held) and sum(held) <= CAPACITY
        assert 0 <= state.damage[seat] <= 3
        assert state.shield[seat] in (0, 1, 2, 3)
        assert 0 <= state.skip[seat] <= 4
        assert state.used[seat] <= state.turns_each
        assert state.obstacles[state.pos[seat]] == 0
    assert state.pos[0] != state.pos[1]
    assert all(d in (0, 1, 2) for d in state.obstacles)
    assert all(0 <= TOTAL[c] <= CELL_MAX for c in state.cells)
    for cell in state.waiting:
        assert state.cells[cell] == 0 and state.refill_at[cell] > state.turn - 1
        assert 1 <= TOTAL[state.pending[cell]] <= CELL_MAX
    for view in state.view_cells:
        assert all(0 <= TOTAL[c] <= CELL_MAX for c in view)
    if state.result is None:
        assert state.damage[0] < 3 and state.damage[1] < 3


@settings(max_examples=25, deadline=None)
@given(seed=seeds, choices=seeds)
def test_invariants_hold_through_random_games(seed, choices):
    state = WizardDuel({"turns_each": 60}).new_state(seed)
    rng = Rng(choices)
    while state.to_move is not None:
        state.apply(rng.choice(state.legal_moves()))
        if state.turn:
            check_invariants(state)
    result = state.result
    assert result.reason in ("defeated", "turn-limit")
    if result.reason == "defeated":
        assert 3 in state.damage
    else:
        assert state.turn == 120 and state.used == [60, 60]


@settings(max_examples=10, deadline=None)
@given(seed=seeds, choices=seeds)
def test_seed_and_moves_reproduce_every_state_and_result(seed, choices):
    game = WizardDuel({"turns_each": 50})
    state = game.new_state(seed)
    frames = []
    for move in random_playout(state.copy(), Rng(choices)):
        state.apply(move)
        frames.append(dumps(state.spectator()))
    again = game.new_state(seed)
    for move, frame in zip(state.history, frames, strict=True):
        again.apply(move)
        assert dumps(again.spectator()) == frame
    assert again.result == state.result
    assert dumps(game.replay(seed, state.history).spectator()) == frames[-1]


@settings(max_examples=10, deadline=None)
@given(seed=seeds, choices=seeds, stop=st.integers(0, 150))
def test_a_copy_is_independent_and_plays_on_identically(seed, choices, stop):
    state = WizardDuel({"turns_each": 50}).new_state(seed)
    random_playout(state, Rng(choices), limit=stop)
    if state.to_move is None:
        return
    before = dumps(state.spectator())
    twin = state.copy()
    rest = random_playout(twin, Rng(choices + 1))
    assert dumps(state.spectator()) == before
    for move in rest:
        state.apply(move)
    assert dumps(state.spectator()) == dumps(twin.spectator())


@settings(max_examples=8, deadline=None)
@given(seed=seeds, choices=seeds)
def test_observations_are_json_that_round_trips(seed, choices):
    state = WizardDuel({"turns_each": 30}).new_state(seed)
    rng = Rng(choices)
    while state.to_move is not None:
        for seat in (0, 1):
            obs = state.observation(seat)
            assert json.loads(json.dumps(obs)) == obs
            assert (obs["legal_moves"] != []) == (seat == state.to_move)
        state.apply(rng.choice(state.legal_moves()))
    assert json.loads(json.dumps(state.spectator())) == state.spectator()


def candidate_texts(state: WizardDuelState) -> set[str]:
    """Legal moves plus many near misses: every kind of action, in and off range."""
    texts = set(state.legal_moves())
    texts |= {f"move {d}" for d in "UDLR"} | {f"look {n}" for n in range(1, 6)}
    texts |= {f"gather {k}{n}" for k in "FWTAE" for n in range(1, 7)}
    texts |= {"gather F1 W1", "gather A2 E1", "gather F1 W1 T1 A1 E1"}
    texts |= {"cast dragon", "cast arrow 0 0", "cast arrow 9 19", "cast arrow 10 0"}
    texts |= {f"cast {s} {p}" for s in ("heal", "shield") for p in (1, 2)}
    texts |= {f"cast {s} {d} {p}" for s in ("scan", "wall") for d in "UDLR" for p in (1, 2)}
    texts |= {f"place {r} {c}" for r in (0, 9) for c in (0, 9, 10, 19)}
    return texts


@settings(max_examples=10, deadline=None)
@given(seed=seeds, choices=seeds, stop=st.integers(0, 120))
def test_the_legal_move_list_is_exactly_what_apply_accepts(seed, choices, stop):
    state = WizardDuel({"turns_each": 50}).new_state(seed)
    rng = Rng(choices)
    random_playout(state, rng, limit=stop)
    if state.to_move is None:
        return
    legal = set(state.legal_moves())
    for text in sorted(candidate_texts(state)):
        twin = state.copy()
        try:
            twin.apply(text)
        except IllegalMoveError as error:
            assert text not in legal, (text, error.reason)
            assert error.reason
        else:
            assert text in legal, text
