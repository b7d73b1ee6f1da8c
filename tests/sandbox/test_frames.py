"""Frames for the viewer come from the engine: every frame equals the engine's own view at that
step, ranges start anywhere, and a record that no longer replays is reported, not drawn."""

from __future__ import annotations

import pytest

import games
from games import Result
from replay.frames import CHECKPOINT_EVERY, MAX_RANGE, SPECTATOR, FrameSource, parse_view
from replay.record import MoveRecord


def played(game_id: str, seed: int = 3, options: dict | None = None, limit: int = 10_000
           ) -> tuple[list[MoveRecord], Result | None, list[games.State]]:
    """A game of first-legal-move play, with the engine's state after every step."""
    state = games.make_game(game_id, options).new_state(seed)
    states = [state.copy()]
    moves = []
    while not state.is_over() and len(moves) < limit:
        move = state.legal_moves()[len(moves) % len(state.legal_moves())]
        moves.append(MoveRecord(state.to_move or 0, move, 0.001))
        state.apply(move)
        states.append(state.copy())
    return moves, state.result, states


def view_of(state: games.State, view: str | int) -> dict:
    data = state.spectator() if view == SPECTATOR else state.observation(view)
    for key in ("legal_moves", "players", "events"):
        data.pop(key, None)
    return data


@pytest.mark.parametrize("game_id", games.game_ids())
def test_every_frame_is_the_engines_view_at_that_step(game_id: str) -> None:
    moves, result, states = played(game_id)
    source = FrameSource(game_id, {}, 3, moves, result)
    frames = source.frames(0, source.total)
    assert [f["step"] for f in frames] == list(range(len(moves) + 1))
    for frame, state in zip(frames, states, strict=True):
        assert frame["view"] == view_of(state, SPECTATOR)
        assert frame["to_move"] == state.to_move
    assert frames[-1]["over"] and source.verify() is None
    assert frames[0]["move"] is None
    assert frames[1]["move"] == {"seat": moves[0].seat, "move": moves[0].move, "time": 0.001}


def test_a_range_from_the_middle_equals_the_same_frames_from_the_start() -> None:
    moves, result, _ = played("g2048", options={"rows": 6, "cols": 6})
    assert len(moves) > 3 * CHECKPOINT_EVERY
    whole_source = FrameSource("g2048", {"rows": 6, "cols": 6}, 3, moves, result)
    whole = [f for start in range(0, len(moves) + 1, MAX_RANGE)
             for f in whole_source.frames(start, start + MAX_RANGE)]
    assert len(whole) == len(moves) + 1
    source = FrameSource("g2048", {"rows": 6, "cols": 6}, 3, moves, result)
    late = source.frames(2 * CHECKPOINT_EVERY + 5, 2 * CHECKPOINT_EVERY + 50)
    early = source.frames(3, 9)  # back before the tip: served from a checkpoint
    assert late == whole[2 * CHECKPOINT_EVERY + 5:2 * CHECKPOINT_EVERY + 50]
    assert early == whole[3:9]
    assert source.frames(len(moves) - 2, len(moves) + 10) == whole[-3:]
    assert source.frames(len(moves) + 1, len(moves) + 5) == []


def test_board_games_say_which_cells_changed() -> None:
    moves, result, _ = played("blokus_duo")
    frames = FrameSource("blokus_duo", {}, 3, moves, result).frames(0, 3)
    first_piece = [[r, c] for r, row in enumerate(frames[1]["view"]["board"])
                   for c, ch in enumerate(row) if ch == "0"]
    assert frames[0]["changed"] == [] and frames[1]["changed"] == first_piece


def test_hidden_information_views_hold_only_what_that_player_knew() -> None:
    moves, result, states = played("wizard_duel", limit=60)
    source = FrameSource("wizard_duel", {}, 3, moves, result)
    assert source.views == [SPECTATOR, 0, 1]
    for seat in (0, 1):
        frames = source.frames(0, 61, seat)
        for frame, state in zip(frames, states, strict=True):
            assert frame["view"] == view_of(state, seat)
            assert "wizards" not in frame["view"] and "refill_at" not in frame["view"]["map"]
            assert all(e["seat"] == seat for e in frame["events"])
        seen = [e for f in frames for e in f["events"]]
        assert seen == [{"seat": seat, **e} for e in states[-1].observation(seat)["events"]]


def test_the_spectator_sees_each_steps_new_events_of_both_players() -> None:
    moves, result, states = played("wizard_duel", limit=60)
    frames = FrameSource("wizard_duel", {}, 3, moves, result).frames(20, 61)
    events = [e for f in frames for e in f["events"]]
    for seat in (0, 1):
        before = len(states[19].observation(seat)["events"])
        assert [e for e in events if e["seat"] == seat] == [
            {"seat": seat, **e} for e in states[-1].observation(seat)["events"][before:]]


def test_a_move_that_no_longer_replays_is_reported_and_no_frame_is_drawn_past_it() -> None:
    moves, result, _ = played("stones")
    moves[4] = MoveRecord(moves[4].seat, "0,0", 0.1)  # taken since move 1
    source = FrameSource("stones", {}, 3, moves, result)
    frames = source.frames(0, 100)
    assert len(frames) == 5
    assert source.broken is not None and source.broken.step == 5
    assert source.broken.move == "0,0" and "0,0" in source.broken.message()
    assert source.frames(5, 9) == [] and source.verify() == source.broken


def test_a_record_that_replays_to_a_different_end_is_reported_at_its_end() -> None:
    moves, result, _ = played("g2048")
    assert result is not None
    claimed = Result(reason=result.reason, scores=(result.scores[0] + 4,))
    source = FrameSource("g2048", {}, 3, moves, claimed)
    broken = source.verify()
    assert broken is not None and broken.step == len(moves) and broken.move is None
    assert "end differently" in broken.reason and str(int(claimed.scores[0])) in broken.reason
    assert len(source.frames(0, 10_000)) == len(moves) + 1  # the moves themselves replay


def test_a_forfeit_is_shown_on_the_last_frame() -> None:
    moves, _, states = played("stones", limit=3)
    end = states[-1].copy()
    result = end.forfeit(end.to_move, "timeout", "no move within 1 s")
    frames = FrameSource("stones", {}, 3, moves, result).frames(0, 10)
    assert frames[-1]["over"] and frames[-1]["view"]["result"]["reason"] == "forfeit"


def test_an_unknown_game_or_bad_options_break_the_record_at_its_start() -> None:
    source = FrameSource("chess", {}, 1, [], None)
    assert source.broken is not None and source.broken.step == 0
    assert "chess" in source.broken.reason and source.frames(0, 5) == []
    assert FrameSource("stones", {"size": 99}, 1, [], None).broken is not None


def test_a_live_match_extends_without_replaying_from_the_start() -> None:
    moves, _, states = played("g2048")
    source = FrameSource("g2048", {}, 3, moves[:5], None)
    assert len(source.frames(0, 100)) == 6
    source.extend(moves[5:], first=5)
    source.extend(moves[5:9], first=5)  # a second reader with the same news: no double
    source.extend(moves[20:], first=20)  # a gap: ignored until the moves between come
    assert len(source.moves) == len(moves)
    frames = source.frames(6, 10)
    assert [f["view"] for f in frames] == [view_of(s, SPECTATOR) for s in states[6:10]]


@pytest.mark.parametrize(("text", "view"), [(None, SPECTATOR), ("spectator", SPECTATOR),
                                            ("0", 0), ("1", 1)])
def test_views_are_parsed(text: str | None, view: str | int) -> None:
    assert parse_view(text, 2) == view


def test_an_unknown_view_says_which_there_are() -> None:
    with pytest.raises(ValueError, match="spectator and the seats 0, 1"):
        parse_view("2", 2)
