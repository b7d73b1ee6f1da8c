"""The frame format documented in docs/viewer.md ("The frame format") against real data: the
header and every frame of every view of each game, as a self-contained file holds them (the
league serves the same, tests/league/test_api_viewer.py), a forfeit and a broken record,
and the example frame, re-made by the recipe the docs give."""

from __future__ import annotations

from typing import Any

import pytest

import games
import viewer
from benchmarks.records import engine_record
from replay import FrameSource, MatchRecord, MoveRecord
from replay.frames import SPECTATOR
from tests import viewer_contract as contract

CHEAP_PLAYERS = {"g2048": "greedy"}
"""The strongest 2048 player searches for a minute; a short run is enough here."""
IN_A_FILE = {"always": True, "site": False, "page": False}


def check_file(record: MatchRecord) -> dict[str, Any]:
    data = contract.file_data(record)
    header = data["header"]
    contract.check(header, contract.fields("header"), IN_A_FILE.__getitem__)
    hidden = games.make_game(record.game, record.options).hidden_information
    assert list(data["frames"]) == [str(view) for view in header["views"]]
    for view, frames in data["frames"].items():
        assert [f["step"] for f in frames] == list(range(len(frames)))
        for frame in frames:
            contract.check_frame(frame, record.game, view, hidden)
    return data


@pytest.mark.parametrize("game", games.game_ids())
def test_each_games_header_and_frames_are_what_the_docs_say(game: str) -> None:
    record = engine_record(game, seed=3, player=CHEAP_PLAYERS.get(game))
    data = check_file(record)
    header = data["header"]
    hidden = games.make_game(game).hidden_information
    assert header["views"] == ([SPECTATOR, 0, 1] if hidden else [SPECTATOR])
    assert header["total"] == len(record.moves) + 1 == len(data["frames"][SPECTATOR])
    last = data["frames"][SPECTATOR][-1]
    assert last["over"] and last["to_move"] is None and last["view"]["result"] is not None
    if hidden:  # the events the documented kinds cover did happen in this match
        kinds = {e["kind"] for f in data["frames"][SPECTATOR] for e in f["events"]}
        assert len(kinds) >= 3, kinds


def test_the_docs_list_every_games_views_and_module() -> None:
    listed = contract.view_fields()
    for game in games.game_ids():
        hidden = games.make_game(game).hidden_information
        assert {v for g, v in listed if g == game} == ({"spectator", "seat"} if hidden
                                                      else {"spectator"}), game
        assert (viewer.STATIC / "games" / f"{game}.js").is_file(), game
    assert {g for g, _ in listed} == set(games.game_ids())


def first_moves(time: float) -> tuple[games.State, list[MoveRecord]]:
    """Stones from seed 3 after each side's first legal move three times, each taking
    ``time``, and their records."""
    state = games.new_state("stones", {}, seed=3)
    moves = []
    for _ in range(3):
        seat, move = state.to_move, state.legal_moves()[0]
        state.apply(move)
        moves.append(MoveRecord(seat, move, time))
    return state, moves


def test_a_forfeit_and_a_broken_record_are_what_the_docs_say() -> None:
    state, moves = first_moves(0.01)
    state.forfeit(1, "timeout", "no move in 2.0 s")
    forfeit = engine_record("stones", seed=3)
    forfeit.moves, forfeit.result = moves, state.result
    data = check_file(forfeit)
    assert data["header"]["result"]["forfeit"] == {"player": 1, "kind": "timeout",
                                                   "detail": "no move in 2.0 s"}
    assert data["frames"][SPECTATOR][-1]["view"]["result"]["reason"] == "forfeit"

    broken = engine_record("stones", seed=3)
    broken.moves[5] = MoveRecord(broken.moves[5].seat, broken.moves[0].move, 0.01)
    data = check_file(broken)
    assert data["header"]["broken"]["step"] == 6
    assert len(data["frames"][SPECTATOR]) == 6


def test_the_example_frame_is_what_the_code_makes() -> None:
    _, moves = first_moves(0.0123)
    frame = FrameSource("stones", {}, 3, moves).frames(3, 4)[0]
    assert contract.example() == frame
    contract.check_frame(frame, "stones", SPECTATOR, hidden=False)
