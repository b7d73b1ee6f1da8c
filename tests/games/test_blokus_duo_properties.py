"""Random legal play never breaks Blokus Duo's invariants; checked against the grid baseline."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from benchmarks import blokus_baseline as baseline
from games.blokus_duo import PASS_CODE, BlokusDuoState, BlokusMove
from games.blokus_duo.pieces import LETTERS, ORIENTATION_SHAPE, SIZE, edge_neighbours

PROFILE = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def squares(mask: int) -> set[tuple[int, int]]:
    return {(i % SIZE, i // SIZE) for i in range(SIZE * SIZE) if mask >> i & 1}


def equivalent_codes(code: str) -> list[str]:
    move = BlokusMove.parse(code)
    assert move.piece is not None
    per_r = ORIENTATION_SHAPE[move.piece]
    return [f"{code[0]}{r}{code[2:]}" for r in range(8) if per_r[r] == per_r[move.orientation]]


def check_placement(before: BlokusDuoState, after: BlokusDuoState, player: int) -> None:
    new = after.own[player] & ~before.own[player]
    assert new and not new & (before.own[0] | before.own[1]), "overlap"
    assert not new & edge_neighbours(before.own[player]), "own edge contact"
    cells = squares(new)
    if before.left[player] == (1 << 21) - 1:
        assert baseline.START[player] in cells
    else:
        touching = {(x + dx, y + dy) for x, y in cells for dx, dy in baseline.CORNERS}
        assert touching & squares(before.own[player]), "no corner contact"


@PROFILE
@given(seed=st.integers(0, 2**32), pass_bias=st.integers(0, 40))
def test_random_play_keeps_every_invariant(seed, pass_bias):
    state: BlokusDuoState = games.new_state("blokus_duo")  # type: ignore[assignment]
    rng = games.Rng(seed)
    while (player := state.to_move) is not None:
        moves = state.legal_moves()
        move = PASS_CODE if rng.below(100) < pass_bias // 20 else rng.choice(moves)
        before = state.copy()
        state.apply(move)
        if move != PASS_CODE:
            check_placement(before, state, player)
        assert state.own[0] & state.own[1] == 0
        for p in (0, 1):
            placed = sum(len(baseline.cells_at(baseline.grid_of(baseline.DRAWINGS[i]), 0, 0))
                         for i in range(21) if not state.left[p] >> i & 1)
            assert placed == state.own[p].bit_count() == state.scores()[p]
    assert state.passed == [True, True]


@PROFILE
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 30))
def test_the_list_matches_the_grid_baseline_and_every_code_is_accepted(seed, plies):
    state: BlokusDuoState = games.new_state("blokus_duo")  # type: ignore[assignment]
    rng = games.Rng(seed)
    for _ in range(plies):
        if state.to_move is None:
            return
        placements = state.legal_placements()
        state.apply(rng.choice(placements) if placements else PASS_CODE)
    if state.to_move is None:
        return
    p = state.to_move
    listed = state.legal_placements()
    board = baseline.board_from_rows(state.board_rows())
    left = [i for i in range(21) if state.left[p] >> i & 1]
    first = len(left) == 21
    expected = {frozenset(squares(BlokusMove.parse(c).shape.mask << BlokusMove.parse(c).anchor))
                for c in baseline.legal_codes(board, p, left, first)}
    got = [frozenset(squares(BlokusMove.parse(c).shape.mask << BlokusMove.parse(c).anchor))
           for c in listed]
    assert len(got) == len(set(got)), "one code per placement"
    assert set(got) == expected
    for code in rng_sample(rng, listed, 15):
        canonical = state.copy()
        canonical.apply(code)
        for alias in equivalent_codes(code):
            twin = state.copy()
            twin.apply(alias.lower() if rng.below(2) else alias)
            assert twin.own == canonical.own and twin.history == canonical.history


def rng_sample(rng: games.Rng, items: list[str], k: int) -> list[str]:
    return [items[rng.below(len(items))] for _ in range(min(k, len(items)))]


def test_no_other_code_is_accepted():
    state: BlokusDuoState = games.new_state("blokus_duo")  # type: ignore[assignment]
    state.apply("U044")
    legal = {frozenset(squares(BlokusMove.parse(c).shape.mask << BlokusMove.parse(c).anchor))
             for c in state.legal_placements()}
    accepted = set()
    for letter in LETTERS:  # player 1 to move, with all 21 pieces
        for r in range(8):
            for x in "123456789ABCDE":
                for y in "123456789ABCDE":
                    code = f"{letter}{r}{x}{y}"
                    if state.is_legal(code):
                        m = BlokusMove.parse(code)
                        accepted.add(frozenset(squares(m.shape.mask << m.anchor)))
    assert accepted == legal
