"""A result in words: seats or names, and what a score counts."""

from __future__ import annotations

from games import Outcome, Result
from games.result import two_player_outcomes


def test_a_result_names_the_players_where_it_would_name_seats() -> None:
    result = Result(reason="both-passed", scores=(61, 56), outcomes=two_player_outcomes(0),
                    detail="both players passed; player 0 placed more squares")
    assert result.summary() == ("player 0 wins (61 : 56) — both players passed; player 0 "
                                "placed more squares")
    assert result.summary({0: "alice-bot v2", 1: "builtin:random"}, unit="squares") == (
        "alice-bot v2 wins (61 : 56 squares) — both players passed; alice-bot v2 placed more "
        "squares")


def test_a_draw_says_what_its_scores_count() -> None:
    result = Result(reason="max-turns", scores=(3, 3), outcomes=(Outcome.DRAW, Outcome.DRAW),
                    detail="after 100 turns each, damage 0:0")
    assert result.summary({0: "a", 1: "b"}, unit="health left") == (
        "draw (3 : 3 health left) — after 100 turns each, damage 0:0")


def test_an_unscored_games_result_shows_no_figures_and_a_solo_score_its_unit() -> None:
    stones = Result(reason="no-legal-move", scores=(4, 3), outcomes=two_player_outcomes(1),
                    detail="player 0 has no free cell", scored=False)
    assert stones.summary({0: "x", 1: "y"}) == "y wins — x has no free cell"
    solo = Result(reason="game-over", scores=(1236,), detail="no tile can move or merge")
    assert solo.summary({0: "slider v1"}) == "score 1236 — no tile can move or merge"
    assert solo.summary({}, unit="points") == "score 1236 points — no tile can move or merge"


def test_a_seat_without_a_name_keeps_its_number() -> None:
    result = Result(reason="forfeit", scores=(0, 0), outcomes=two_player_outcomes(1),
                    detail="player 0 timed out; player 12 is no seat")
    assert result.summary({1: "b"}) == "b wins (0 : 0) — player 0 timed out; player 12 is no seat"
