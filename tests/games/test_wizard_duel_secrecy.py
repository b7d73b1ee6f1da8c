"""Wizard Duel: no hidden information reaches a player's observation.

The main check plays twin games. Both start from the same seed and player 0 makes the same
moves in both; player 1 starts on a different cell and plays different random moves in each
twin. A column ``split`` divides the map: everything player 0 does or perceives (its cells,
look and scan rays, arrow and dragon targets, walls) stays left of it, everything player 1
touches (its cells, gathers, walls, arrow and dragon targets) stays right of it, while player
1 may look and scan anywhere. Player 1's looks are played alike in both twins, because a
skipped turn is public: the other wizard simply moves again. Under those rules player 0
cannot perceive any difference, so its observation must be byte-identical in both twins at
every step, legal moves and final result included.

This catches leaks through the RNG too: if refills drew from one shared stream, player 1's
different gathers would change what player 0's own cells refill with.
``test_the_twin_check_catches_a_shared_refill_stream`` proves that by planting exactly that
flaw.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rng import Rng
from games.wizard_duel import WizardDuel, WizardDuelState
from games.wizard_duel.actions import DIRECTIONS
from games.wizard_duel.board import COLS, RAY, STEP, random_cell
from tests.games.wizard_support import dumps, new, placed


def _ray(cell: int, direction: str, length: int) -> tuple[int, ...]:
    return RAY[DIRECTIONS.index(direction)][cell][:length]


def footprint(state: WizardDuelState, seat: int, move: str) -> tuple[set[int], set[int]]:
    """(cells the move changes or stands on, cells it lets the mover perceive)."""
    here = state.pos[seat]
    words = move.split()
    if words[0] == "move":
        target = STEP[DIRECTIONS.index(words[1])][here]
        return {here, target}, {target}
    if words[0] == "look":
        seen = {c for d in "UDLR" for c in _ray(here, d, int(words[1]))}
        return {here}, seen
    if words[0] == "gather":
        return {here}, set()
    spell = words[1]
    if spell == "arrow":
        target = int(words[2]) * COLS + int(words[3])
        return {here, target}, {target}
    if spell == "dragon":
        hit = {STEP[d][here] for d in range(4)} - {-1}
        return {here} | hit, hit
    if spell == "scan":
        return {here}, set(_ray(here, words[2], 5 * int(words[3])))
    if spell == "wall":
        target = STEP[DIRECTIONS.index(words[2])][here]
        return {here, target} - {-1}, {target} - {-1}
    return {here}, set()  # heal, shield


def allowed(state: WizardDuelState, seat: int, split: int) -> list[str]:
    out = []
    for move in state.legal_moves():
        touched, perceived = footprint(state, seat, move)
        if seat == 0:
            ok = all(c % COLS < split for c in touched | perceived)
        else:
            ok = all(c % COLS >= split for c in touched)
        if ok:
            out.append(move)
    return out


def pick(rng: Rng, moves: list[str]) -> str:
    """A random move, first choosing its kind so gathers and moves are not drowned by the
    200 arrow targets."""
    assert moves
    kinds: dict[str, list[str]] = {}
    for move in moves:
        words = move.split()
        kinds.setdefault(words[0] if words[0] != "cast" else words[1], []).append(move)
    group = kinds[rng.choice(sorted(kinds))]
    return rng.choice(group)


def twin_run(seed: int, split: int, choices: int, turns_each: int = 40) -> str | None:
    """Play the twins; the first observation of player 0 that differs, or None."""
    game = WizardDuel({"turns_each": turns_each})
    twins = (game.new_state(seed), game.new_state(seed))
    rng = Rng(choices)
    p0_cols = min(split, 10)
    p0 = f"place {rng.below(10)} {rng.below(p0_cols)}"
    for state in twins:
        state.apply(p0)
        low = max(split, 10)
        state.apply(f"place {rng.below(10)} {low + rng.below(COLS - low)}")
    a, b = twins
    steps = 0
    while True:
        view_a, view_b = dumps(a.observation(0)), dumps(b.observation(0))
        if view_a != view_b:
            return f"step {steps}, turn {a.turn}: {view_a} != {view_b}"
        assert a.to_move == b.to_move
        if a.to_move is None:
            return None
        if a.to_move == 0:
            move = pick(rng, allowed(a, 0, split))
            a.apply(move)
            b.apply(move)
        else:
            move_a = pick(rng, allowed(a, 1, split))
            if move_a.startswith("look"):
                move_b = move_a
            else:
                move_b = pick(rng, [m for m in allowed(b, 1, split) if not m.startswith("look")])
            a.apply(move_a)
            b.apply(move_b)
        steps += 1


def test_player_0_cannot_tell_apart_games_that_differ_only_out_of_its_sight():
    for game_index in range(24):
        split = 8 + game_index % 9
        assert twin_run(seed=game_index, split=split, choices=1000 + game_index) is None


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**63), split=st.integers(8, 16), choices=st.integers(0, 2**63))
def test_the_twin_check_holds_for_any_seed_and_split(seed, split, choices):
    assert twin_run(seed, split, choices, turns_each=25) is None


def test_the_twins_really_differ_on_player_1s_side():
    game = WizardDuel({"turns_each": 30})
    rng = Rng(3)
    a, b = game.new_state(1), game.new_state(1)
    for state in (a, b):
        state.apply("place 4 2")
        state.apply(f"place {rng.below(10)} {12 + rng.below(8)}")
    while a.to_move is not None:
        if a.to_move == 0:
            move = pick(rng, allowed(a, 0, 12))
            a.apply(move)
            b.apply(move)
        else:
            a.apply(pick(rng, [m for m in allowed(a, 1, 12) if not m.startswith("look")]))
            b.apply(pick(rng, [m for m in allowed(b, 1, 12) if not m.startswith("look")]))
    assert dumps(a.spectator()["wizards"][1]) != dumps(b.spectator()["wizards"][1])
    assert a.cells != b.cells
    assert dumps(a.observation(0)) == dumps(b.observation(0))


def test_the_twin_check_catches_a_shared_refill_stream(monkeypatch):
    """Plant the flaw the per-cell streams avoid: every refill drawn from ``state.rng``."""
    honest = WizardDuelState._gather

    def shared_stream_gather(self: WizardDuelState, seat: int, take: tuple[int, ...]) -> None:
        honest(self, seat, take)
        here = self.pos[seat]
        if self.cells[here] == 0:
            self.refill_at[here] = self.turn + self.rng.between(1, 5)
            self.pending[here] = random_cell(self.rng)

    monkeypatch.setattr(WizardDuelState, "_gather", shared_stream_gather)
    leaks = [twin_run(seed=g, split=8 + g % 9, choices=1000 + g) for g in range(24)]
    assert any(leak is not None for leak in leaks)


# -- placement -------------------------------------------------------------------------------
def test_player_1_places_without_seeing_player_0s_choice():
    views = set()
    for r in range(10):
        for c in range(10):
            state = new(seed=8)
            state.apply(f"place {r} {c}")
            views.add(dumps(state.observation(1)))
    assert len(views) == 1


def test_neither_wizard_learns_the_other_start_cell():
    one, two = placed(p0=(0, 0), p1=(9, 19)), placed(p0=(0, 0), p1=(5, 12))
    assert dumps(one.observation(0)) == dumps(two.observation(0))
    one, two = placed(p0=(3, 3), p1=(9, 19)), placed(p0=(8, 9), p1=(9, 19))
    assert dumps(one.observation(1)) == dumps(two.observation(1))


def test_the_spectator_sees_everything_and_both_observations():
    state = placed(p0=(1, 1), p1=(8, 18))
    view = state.spectator()
    assert [(w["row"], w["col"]) for w in view["wizards"]] == [(1, 1), (8, 18)]
    assert view["players"] == [state.observation(0), state.observation(1)]
    assert "refill_at" in view["map"] and view["legal_moves"] == state.legal_moves()
    assert state.observation(1)["legal_moves"] == [] and state.observation(0)["legal_moves"]
