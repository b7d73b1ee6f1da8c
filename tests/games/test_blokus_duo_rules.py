"""Blokus Duo rules: start squares, legality and its reasons, passes, the end and the result."""

from __future__ import annotations

import json

import pytest

import games
from games.blokus_duo import BlokusDuoState, BlokusMove
from games.blokus_duo.pieces import ORIENTATION_SHAPE

ILLEGAL = games.IllegalMoveError


def new() -> BlokusDuoState:
    return games.new_state("blokus_duo")  # type: ignore[return-value]


def played(*moves: str) -> BlokusDuoState:
    state = new()
    for move in moves:
        state.apply(move)
    return state


def test_player_0_has_414_first_moves_including_the_monomino():
    state = new()
    placements = state.legal_placements()
    assert len(placements) == 414 == len(set(placements))
    assert "A055" in placements
    assert state.legal_moves() == [*placements, "X000"]


def test_player_1_must_cover_a_a_and_has_414_first_moves_too():
    state = played("A055")
    assert len(state.legal_placements()) == 414
    assert "A0AA" in state.legal_placements()
    with pytest.raises(ILLEGAL, match=r"must cover your start square \(A,A\)"):
        state.apply("A099")


def test_the_first_piece_must_cover_the_start_square():
    with pytest.raises(ILLEGAL, match=r"must cover your start square \(5,5\)") as caught:
        new().apply("U055")
    assert caught.value.move == "U055"
    played("U044")  # the X pentomino centred on (5,5)


def test_later_pieces_must_touch_own_corner():
    state = played("A055", "A0AA")
    with pytest.raises(ILLEGAL, match="touches none of your pieces corner to corner"):
        state.apply("B011")
    state.apply("B066")


def test_a_piece_may_not_share_an_edge_with_own_piece():
    state = played("A055", "A0AA")
    with pytest.raises(ILLEGAL, match=r"square \(6,5\) would share an edge"):
        state.apply("B065")


def test_touching_the_opponent_is_allowed():
    from games.blokus_duo.pieces import corner_neighbours, edge_neighbours

    state = new()
    rng = games.Rng(4)
    kinds = set()
    while state.to_move is not None and len(kinds) < 2:
        p = state.to_move
        for code in state.legal_placements():
            m = BlokusMove.parse(code)
            mask = m.shape.mask << m.anchor
            if mask & edge_neighbours(state.own[1 - p]):
                kinds.add("edge")
            elif mask & corner_neighbours(state.own[1 - p]):
                kinds.add("corner")
        placements = state.legal_placements()
        state.apply(rng.choice(placements) if placements else "X000")
    assert kinds == {"edge", "corner"}


def test_a_covered_square_is_refused():
    state = played("A055", "A0AA", "B066")
    with pytest.raises(ILLEGAL, match=r"square \(A,A\) is already covered"):
        state.apply("B0AA")


def test_a_piece_is_placed_once():
    state = played("A055", "A0AA")
    with pytest.raises(ILLEGAL, match="piece A has already been placed"):
        state.apply("A066")


def test_a_piece_may_not_run_off_the_board():
    state = new()
    with pytest.raises(ILLEGAL, match=r"piece J in orientation 0 at \(5,B\) runs off the board"):
        state.apply("J05B")


@pytest.mark.parametrize(("code", "reason"), [
    ("", "4 characters"), ("U04", "4 characters"), ("U0445", "4 characters"),
    ("V055", "piece 'V' is not one of A-U"), ("U855", "orientation '8' is not one of 0-7"),
    ("U005", "x '0' is not a square 1-E"), ("U05F", "y 'F' is not a square 1-E"),
    ("X123", "a pass is written X000"),
])
def test_malformed_codes_say_what_is_wrong(code, reason):
    state = new()
    with pytest.raises(games.MalformedMoveError, match=reason):
        state.apply(code)
    assert state.history == []


def test_codes_are_case_insensitive_and_history_is_canonical():
    state = played("u044", "a0aa")
    assert state.history == ["U044", "A0AA"]


def test_every_equivalent_code_is_accepted_and_means_the_same_placement():
    # H (the square) looks the same in all eight orientations
    for r in range(8):
        state = played(f"H{r}44")
        assert state.history == ["H044"]
        assert state.own[0] == played("H044").own[0]


def test_a_pass_is_final_and_the_other_player_goes_on():
    state = played("A055", "X000")
    assert state.passed == [False, True]
    assert state.to_move == 0
    state.apply("B066")
    assert state.to_move == 0  # player 1 has passed for good
    state.apply("X000")
    assert state.is_over()


def test_both_passing_at_once_is_a_draw():
    state = played("X000", "X000")
    result = state.result
    assert result is not None
    assert result.reason == "both-passed" and result.winner is None
    assert [str(o) for o in result.outcomes or ()] == ["draw", "draw"]
    assert result.scores == (0, 0)


def test_more_squares_placed_wins():
    state = played("U044", "A0AA", "X000", "X000")
    result = state.result
    assert result is not None and result.winner == 0 and result.scores == (5, 1)
    assert "player 0 placed more squares" in result.detail
    assert result.extra["squares"] == [5, 1]
    assert result.extra["squares_left"] == [84, 88]
    assert result.extra["pieces_left"] == [20, 20]


def test_the_official_bonus_is_reported_but_does_not_decide():
    state = new()
    state.left = [0, 0]
    state.last_piece = [0, 5]   # player 0 placed the monomino last
    assert state.bonus(0) == 20 and state.bonus(1) == 15
    assert new().bonus(0) == 0


def test_only_a_pass_is_left_when_nothing_fits():
    state = played("A055", "X000")
    state.left[0] = 0  # nothing left to place
    assert state.legal_placements() == []
    assert state.legal_moves() == ["X000"]
    assert not state.has_placement()


def test_the_observation_holds_what_the_sheet_lists():
    state = played("U044")
    obs = state.observation(1)
    assert obs["board"][4] == "...000........" and len(obs["board"]) == 14
    assert obs["pieces_left"][0] == list("ABCDEFGHIJKLMNOPQRST")
    assert obs["passed"] == [False, False] and obs["to_move"] == 1 and obs["player"] == 1
    assert len(obs["legal_moves"]) == 415
    assert state.observation(0)["legal_moves"] == []
    assert json.loads(json.dumps(obs)) == obs


def test_a_state_rebuilt_from_an_observation_plays_on_identically():
    state = played("U044", "U099")
    state.apply(state.legal_placements()[-1])
    state.apply("X000")
    rebuilt = state.game.state_from_observation(state.observation(state.to_move))
    assert rebuilt.legal_moves() == state.legal_moves()
    assert rebuilt.board_rows() == state.board_rows()
    assert rebuilt.to_move == state.to_move and rebuilt.passed == state.passed
    assert rebuilt.turn == 4 and rebuilt.history == []
    assert rebuilt.observation(0)["turn"] == state.observation(0)["turn"]


def test_a_doctored_observation_is_refused():
    obs = played("U044").observation(1)
    obs["pieces_left"][0] = list("ABCDEFGHIJKLMNOPQRSTU")
    with pytest.raises(games.GameError, match="do not match"):
        games.make_game("blokus_duo").state_from_observation(obs)


def test_move_values_parse_and_print():
    move = BlokusMove.parse("f3ab")
    assert (move.piece, move.orientation, move.x, move.y) == (5, 3, 9, 10)
    assert str(move) == "F3AB" and move.canonical() == "F3AB"
    assert BlokusMove.parse("H7AB").canonical() == "H0AB"
    assert BlokusMove.parse("X000").is_pass
    assert ORIENTATION_SHAPE[7][5] == ORIENTATION_SHAPE[7][0]
