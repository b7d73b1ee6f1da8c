"""The lines ``botleague submit --test`` prints for a test's progress (client/versiontest.py),
from the API's answer: two-player and solo, an interval with and without an upper end, and
the exit status each end of a test gives."""

from __future__ import annotations

from typing import Any

from client.versiontest import EXIT, NOT_PROMOTED, progress_line


def answer(**changed: Any) -> dict[str, Any]:
    return {"games_played": 12, "pairs": 6, "solo": False, "wins": 9, "draws": 1,
            "losses": 2, "llr": 1.4217, "lower": -2.944, "upper": 2.944,
            "elo": {"value": 120.4, "low": 35.2, "high": 260.0}, "games_left": 14, **changed}


def test_a_two_player_tests_line() -> None:
    assert progress_line(answer()) == ("12 games (6 pairs), W/D/L 9/1/2, LLR 1.42 in "
                                       "[-2.94, 2.94], Elo +120 [+35, +260], about 14 games "
                                       "left")


def test_an_interval_without_an_upper_end_says_at_least() -> None:
    line = progress_line(answer(elo={"value": 416, "low": 276, "high": 3600},
                                games_left=None))
    assert line.endswith("Elo +416 (at least +276)")
    line = progress_line(answer(elo={"value": -416, "low": None, "high": -276}))
    assert "Elo -416 (at most -276)" in line


def test_a_solo_tests_line_and_an_empty_one() -> None:
    line = progress_line(answer(solo=True, elo={"value": 3.5, "low": -1.0, "high": 8.0}))
    assert "W/D/L" not in line and "score difference +4 [-1, +8]" in line
    assert progress_line(answer(pairs=0, games_played=0, elo=None, games_left=None)) == \
        "0 games (0 pairs), W/D/L 9/1/2, LLR 1.42 in [-2.94, 2.94]"


def test_exit_statuses_of_a_test_that_did_not_promote() -> None:
    assert EXIT == {"h0": 3, "undecided": 4} and NOT_PROMOTED == 5
