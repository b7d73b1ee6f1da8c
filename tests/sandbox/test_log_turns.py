"""Logs at the turn: the referee files each line of a bot's stderr under the turn it was
written in (record format 2), and records of format 1 still load and replay.

A line written after the move may land under a later turn, up to the bot's next one: the bot
can be paused as soon as its move arrives, and then writes the line when it is resumed
(docs/protocol.md, "Your log"). Never under an earlier turn, and never lost."""

from __future__ import annotations

import json

import pytest

from replay.frames import FrameSource
from replay.record import RECORD_VERSION, MatchRecord
from sandbox.channel import LogTail
from tests.sandbox.conftest import BOTS, FAST, play

VERSION_1 = {  # a record as the referee wrote it before log turns existed
    "version": 1, "game": "stones", "options": {"size": 5}, "seed": 3, "backend": "process",
    "limits": {"move_time": 1.0}, "started_at": "2026-11-20T10:00:00+00:00", "duration": 0.5,
    "players": [
        {"seat": 0, "name": "first.py", "source": "first.py", "language": "python",
         "digest": "ab", "started": True, "moves": 2, "time_used": 0.2, "max_move_time": 0.1,
         "time_bank_left": 0.0, "exit": "exited with code 0", "log": "hello\nworld\n"},
        {"seat": 1, "name": "builtin:random", "source": "builtin:random", "started": True,
         "moves": 2, "exit": "exited with code 0", "log": ""}],
    "moves": [{"seat": 0, "move": "0,0", "time": 0.1}, {"seat": 1, "move": "4,4", "time": 0.1},
              {"seat": 0, "move": "0,2", "time": 0.1}, {"seat": 1, "move": "2,4", "time": 0.1}],
    "result": None}


def filed_by_the_rule(record: MatchRecord) -> list[tuple[int, str]]:
    """Seat 0's log (a chatty bot's) checked line by line against the rule: a line written
    before the move is filed under its turn; one written after it under its turn or a later
    one up to the bot's next turn (the game's end after its last move); in order, none
    lost. Returns the log, to look further at."""
    lines = record.players[0].log_lines()
    turns = [index for index, move in enumerate(record.moves) if move.seat == 0]
    nexts = [*turns[1:], len(record.moves)]
    texts = [f"{word} at turn {t}" for t in turns for word in ("thinking", "played")]
    assert [text for _, text in lines] == [*texts, "game over, bye"], "lost or out of order"
    for index, (turn, upto) in enumerate(zip(turns, nexts, strict=True)):
        (thought_at, _), (played_at, _) = lines[2 * index], lines[2 * index + 1]
        assert thought_at == turn, f"written before the move of turn {turn}: {lines}"
        assert turn <= played_at <= upto, f"written after the move of turn {turn}: {lines}"
    assert lines[-1][0] == len(record.moves), "written after the game, filed at its end"
    return lines


@pytest.mark.usefixtures("clean_worker")
def test_each_line_is_filed_under_the_turn_it_was_written_in() -> None:
    record = play([str(BOTS / "chatty.py"), "builtin:random"], "process", seed=3)
    assert record.version == RECORD_VERSION == 2
    lines = filed_by_the_rule(record)
    again = MatchRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert again.players[0].log_lines() == lines


@pytest.mark.usefixtures("clean_worker")
def test_a_line_written_after_the_move_by_a_paused_bot_is_filed_no_later_than_its_next_turn(
        ) -> None:
    record = play([str(BOTS / "dawdles.py"), "builtin:random"], "process", seed=3)
    assert record.forfeit is None
    filed_by_the_rule(record)


def test_the_rule_refuses_a_line_filed_too_early_too_late_or_lost() -> None:
    """The check above can fail: a log that breaks the rule each way is refused."""
    good = MatchRecord.from_json(json.loads(json.dumps(VERSION_1)))
    good.moves = good.moves[:2]  # seat 0 moved at turn 0, the game ended after turn 1
    player = good.players[0]
    player.log = "thinking at turn 0\nplayed at turn 0\ngame over, bye\n"
    for turns, broken in [([0, 0, 2], False), ([0, 2, 2], False), ([0, 1, 2], False),
                          ([-1, 0, 2], True), ([0, -1, 2], True), ([0, 3, 2], True),
                          ([0, 0, 1], True)]:
        player.log_turns = turns
        if broken:
            with pytest.raises(AssertionError):
                filed_by_the_rule(good)
        else:
            filed_by_the_rule(good)
    player.log, player.log_turns = "thinking at turn 0\ngame over, bye\n", [0, 2]
    with pytest.raises(AssertionError, match="lost"):
        filed_by_the_rule(good)


@pytest.mark.usefixtures("clean_worker")
def test_the_last_words_of_a_bot_that_times_out_are_at_the_turn_it_failed() -> None:
    record = play([str(BOTS / "stalls.py"), "builtin:random"], "process", seed=3,
                  limits=FAST.with_changes(move_time=0.3))
    assert record.forfeit is not None and record.forfeit.kind == "timeout"
    assert record.players[0].log_lines() == [(4, "stuck at turn 4")]
    assert len(record.moves) == 4


def test_a_version_1_record_still_loads_replays_and_has_its_log_without_turns() -> None:
    record = MatchRecord.from_json(json.loads(json.dumps(VERSION_1)))
    assert record.version == 1 and record.players[0].log_turns == []
    assert record.players[0].log_lines() == [(-1, "hello"), (-1, "world")]
    assert record.replay().history == ["0,0", "4,4", "0,2", "2,4"]
    source = FrameSource.from_record(record)
    assert len(source.frames(0, 10)) == 5 and source.verify() is None


def test_a_newer_record_with_fields_this_code_does_not_know_still_loads() -> None:
    data = {**VERSION_1, "version": 3,
            "players": [{**p, "future": True} for p in VERSION_1["players"]]}
    assert MatchRecord.from_json(data).players[0].log == "hello\nworld\n"


def test_the_log_tail_keeps_the_turn_of_every_line_it_keeps() -> None:
    tail = LogTail(cap=20)
    tail.add(b"one\ntw", 0)
    tail.add(b"o\nthree\n", 1)
    assert tail.text().split("\n")[:-1] == ["one", "two", "three"]
    assert tail.turns() == [0, 0, 1]
    tail.add(b"four\nfive\nsix", 2)  # "one" and "two" fall out of the 20-byte tail
    lines = tail.text().split("\n")
    assert lines[0].startswith("[... 7 earlier") and lines[1:] == ["", "three", "four",
                                                                  "five", "six"]
    assert tail.turns() == [-1, 1, 1, 2, 2, 2]
    assert len(tail.marks) == 2  # the marks before the tail are forgotten
