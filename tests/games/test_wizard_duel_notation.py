"""Wizard Duel notation: parsing, canonical text, and readable errors that change nothing."""

from __future__ import annotations

import re

import pytest

from games.errors import IllegalMoveError, MalformedMoveError
from games.rng import Rng
from games.wizard_duel.actions import Action, Cast, Direction, Gather, Look, Move, Place, Spell
from tests.games.wizard_support import fingerprint, give, new, placed, set_cell


@pytest.mark.parametrize(("text", "action", "canonical"), [
    ("place 3 7", Place(3, 7), "place 3 7"),
    ("  PLACE   03 7 ", Place(3, 7), "place 3 7"),
    ("move u", Move(Direction.U), "move U"),
    ("gather a1 F2", Gather((2, 0, 0, 1, 0)), "gather F2 A1"),
    ("Gather E1 T2 W3", Gather((0, 3, 2, 0, 1)), "gather W3 T2 E1"),
    ("look 5", Look(5), "look 5"),
    ("cast ARROW 9 19", Cast(Spell.ARROW, 1, None, 9, 19), "cast arrow 9 19"),
    ("cast dragon", Cast(Spell.DRAGON, 2), "cast dragon"),
    ("cast heal 2", Cast(Spell.HEAL, 2), "cast heal 2"),
    ("cast shield 1", Cast(Spell.SHIELD, 1), "cast shield 1"),
    ("cast scan l 2", Cast(Spell.SCAN, 2, Direction.L), "cast scan L 2"),
    ("cast Wall d 1", Cast(Spell.WALL, 1, Direction.D), "cast wall D 1"),
])
def test_actions_parse_case_insensitively_and_print_canonically(text, action, canonical):
    assert Action.parse(text) == action
    assert str(action) == canonical
    assert Action.parse(canonical) == action


@pytest.mark.parametrize(("text", "why"), [
    ("", "empty move"),
    ("jump", "unknown action 'jump'"),
    ("place 3", "expected 'place R C'"),
    ("place -1 3", "row must be a non-negative number"),
    ("move X", "direction must be U, D, L or R"),
    ("move", "expected 'move U|D|L|R'"),
    ("gather", "counts such as F2 A1"),
    ("gather X2", "not an element count"),
    ("gather F", "not an element count"),
    ("gather F0", "counts start at 1"),
    ("gather F1 F2", "named twice"),
    ("look 0", "look takes N from 1 to 5"),
    ("look 6", "look takes N from 1 to 5"),
    ("cast", "expected 'cast SPELL"),
    ("cast fireball", "unknown spell 'fireball'"),
    ("cast heal 3", "heal power must be 1 or 2"),
    ("cast shield", "expected 'cast shield 1|2'"),
    ("cast scan U", "expected 'cast scan U|D|L|R 1|2'"),
    ("cast scan Q 1", "direction must be"),
    ("cast wall U 0", "wall power must be 1 or 2"),
    ("cast dragon 1", "expected 'cast dragon'"),
    ("cast arrow 1", "expected 'cast arrow R C'"),
    ("cast arrow x 1", "row must be"),
    ("look ５", "look takes N"),
])
def test_text_outside_the_notation_is_malformed_with_a_reason(text, why):
    with pytest.raises(MalformedMoveError, match=re.escape(why)) as caught:
        Action.parse(text)
    assert caught.value.reason and "malformed move" in str(caught.value)


@pytest.mark.parametrize("bad", ["", "jump", "gather F0", "look 9", "cast heal 3", "move"])
def test_a_malformed_line_leaves_the_state_unchanged(bad):
    state = placed()
    was = fingerprint(state)
    with pytest.raises(MalformedMoveError):
        state.apply(bad)
    assert fingerprint(state) == was


@pytest.mark.parametrize(("bad", "why"), [
    ("cast arrow 10 0", "off the 10x20 map"),
    ("cast arrow 0 20", "off the 10x20 map"),
    ("gather F11", "holds 0 fire, not 11"),
    ("gather W1 F1", "holds 0 fire, not 1"),
    ("gather F5", "holds 0 fire, not 5"),
    ("cast dragon", "needs 2 fire"),
])
def test_an_illegal_move_names_its_reason_and_leaves_the_state_unchanged(bad, why):
    state = placed(p0=(4, 4))
    set_cell(state, 4, 4, W=1)
    give(state, 0, F=1)
    was = fingerprint(state)
    with pytest.raises(IllegalMoveError, match=why) as caught:
        state.apply(bad)
    assert not isinstance(caught.value, MalformedMoveError)
    assert fingerprint(state) == was


def test_history_holds_canonical_text():
    state = new()
    for text in ("PLACE 4 4", "place 4 15", "Look 1", "MOVE d"):
        state.apply(text)
    assert state.history == ["place 4 4", "place 4 15", "look 1", "move D"]


def test_every_listed_move_parses_back_to_itself():
    state = new(5)
    rng = Rng(9)
    seen = set()
    while state.to_move is not None:
        moves = state.legal_moves()
        assert len(moves) == len(set(moves))
        for text in moves:
            if text not in seen:
                assert str(Action.parse(text)) == text
                seen.add(text)
        state.apply(rng.choice(moves))
    assert any(m.startswith("cast arrow") for m in seen)
