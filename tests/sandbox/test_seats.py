"""A seat that is not a process: a ``MoveSource`` plays real sandboxed bots through the referee,
on its own clock, and is judged by the same rules (illegal, timeout)."""

from __future__ import annotations

import itertools
import os
import time
from pathlib import Path

import pytest

from games import Result
from replay import MoveRecord
from sandbox import MoveRequest, MoveSource, Resigned, SeatClock
from sandbox.slots import SLOT_COUNT, UID_BASE
from tests.sandbox.conftest import BOTS, FAST, forfeit_of, play, scripted

pytestmark = pytest.mark.usefixtures("clean_worker")


class Scripted(MoveSource):
    """Answers from a function of the request; records what it was asked and told."""

    def __init__(self, choose, clock: SeatClock | None = None, name: str = "person") -> None:
        self.choose = choose
        self.clock = clock or SeatClock()
        self.name = name
        self.requests: list[MoveRequest] = []
        self.started: dict | None = None
        self.ended: list[Result | None] = []

    def start(self, **info: object) -> None:
        self.started = dict(info)

    def ask(self, request: MoveRequest) -> str | None:
        self.requests.append(request)
        return self.choose(request)

    def end(self, result: Result | None) -> None:
        self.ended.append(result)


def first_legal(request: MoveRequest) -> str:
    assert request.legal_moves
    return request.legal_moves[0]


def test_a_source_plays_a_sandboxed_bot_to_the_end_as_a_bot_would(backend: str) -> None:
    person = Scripted(first_legal)
    record = play([person, "builtin:perfect"], backend, seed=3)
    assert record.result is not None and record.forfeit is None
    assert person.started == {"game": "stones", "options": {"size": 5, "holes": 0}, "seat": 0,
                              "players": 2}
    assert person.ended == [record.result]
    mine = [m for m in record.moves if m.seat == 0]
    assert [r.turn for r in person.requests] == [record.moves.index(m) for m in mine]
    first = person.requests[0]
    assert first.seat == 0 and first.observation["legal_moves"] == first.legal_moves
    assert first.time_left == 300.0 and first.game_time_left == 1800.0
    assert record.players[0].name == "person" and record.players[0].moves == len(mine)
    assert record.players[1].exit == "exited with code 0"
    assert record.replay().result == record.result


def test_a_solo_game_is_played_by_a_source_alone(backend: str) -> None:
    person = Scripted(lambda r: r.legal_moves[-1])
    record = play([person], backend, game="g2048", seed=4)
    assert record.result is not None and record.forfeit is None
    assert len(record.moves) == len(person.requests) > 10
    assert record.replay().result == record.result


def test_an_illegal_answer_forfeits_with_the_engines_reason(backend: str) -> None:
    record = play([Scripted(lambda r: "9,9"), "builtin:random"], backend)
    assert forfeit_of(record) == (0, "illegal")
    assert "off the 5x5 board" in record.result.forfeit.detail


def test_a_source_that_resigns_loses_at_once_by_resigned(backend: str) -> None:
    def resign_second(request: MoveRequest) -> str:
        if request.turn >= 2:
            raise Resigned()
        return first_legal(request)

    person = Scripted(resign_second, SeatClock(move_time=60, game_time=60))
    started = time.monotonic()
    record = play([person, "builtin:random"], backend)
    assert time.monotonic() - started < 20  # not by the person's clock
    assert forfeit_of(record) == (0, "resigned") and record.result.forfeit.detail == ""
    assert record.result.outcomes is not None and record.result.outcomes[1] == "win"
    assert person.ended == [record.result] and record.players[0].moves == 1


def test_no_answer_by_the_move_time_is_a_timeout(backend: str) -> None:
    clock = SeatClock(move_time=0.3, game_time=60)

    def slow(request: MoveRequest) -> str:
        assert request.time_left == pytest.approx(0.3)
        time.sleep(0.5)  # answering late is no better than not answering
        return first_legal(request)

    record = play([Scripted(slow, clock), "builtin:random"], backend)
    assert forfeit_of(record) == (0, "timeout")
    assert "no move within 0.3 s" in record.result.forfeit.detail
    assert record.players[0].moves == 0


def test_the_game_time_runs_out_across_moves(backend: str) -> None:
    clock = SeatClock(move_time=10, game_time=0.5)

    def steady(request: MoveRequest) -> str | None:
        if request.time_left < 0.2:
            return None  # the source's own way to say it has nothing by the deadline
        time.sleep(0.2)
        return first_legal(request)

    person = Scripted(steady, clock)
    record = play([person, "builtin:random"], backend, seed=1)
    assert forfeit_of(record) == (0, "timeout")
    lefts = [r.game_time_left for r in person.requests]
    assert lefts[0] == 0.5 and all(a > b for a, b in itertools.pairwise(lefts))
    assert all(r.time_left == pytest.approx(r.game_time_left) for r in person.requests)
    assert record.players[0].time_bank_left < 0.2


def test_a_bot_that_crashes_mid_game_forfeits_against_a_source(tmp_path: Path,
                                                                backend: str) -> None:
    record = play([Scripted(first_legal), scripted(tmp_path, {"3": "exit:3"})], backend,
                  seed=2)
    assert forfeit_of(record) == (1, "crash")
    assert "exited with code 3" in record.result.forfeit.detail


def bots_cpu_seconds() -> float:
    """CPU time of this process's descendants that run as a bot slot's uid: this match's
    bots (other referees on the machine have bots of their own)."""
    children: dict[int, list[int]] = {}
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry)] = fields
            children.setdefault(int(fields[1]), []).append(int(entry))
    total, todo = 0, list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        todo += children.get(pid, [])
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        uid = int(next(line for line in status.splitlines()
                       if line.startswith("Uid:")).split()[1])
        if UID_BASE <= uid < UID_BASE + SLOT_COUNT:
            total += int(stats[pid][11]) + int(stats[pid][12])
    return total / os.sysconf("SC_CLK_TCK")


def test_the_bot_is_paused_while_the_source_thinks() -> None:
    """The spinner leaves busy processes behind after each move; while the person thinks
    they must not run (they would steal nothing from a person, but everything from the
    worker's other matches)."""
    used: list[float] = []

    def thinking(request: MoveRequest) -> str:
        if request.turn >= 3:
            before = bots_cpu_seconds()
            time.sleep(0.5)
            used.append(bots_cpu_seconds() - before)
        return first_legal(request)

    record = play([Scripted(thinking), str(BOTS / "spinner.py")], "process", seed=3,
                  limits=FAST.with_changes(move_time=2.0))
    assert record.result is not None
    assert used and max(used) < 0.05, used


def test_a_game_resumed_from_stored_moves_goes_on_from_there(tmp_path: Path) -> None:
    """The stored moves are played again (the bot asked and its answers thrown away, the
    source not asked at all), each seat's clock drawn down by the stored times, then the
    game goes on: the same game as one played straight through."""
    whole = play([Scripted(first_legal), scripted(tmp_path, {})], "process", seed=5)
    assert whole.result is not None and len(whole.moves) >= 6
    stored = [MoveRecord(m.seat, m.move, 0.25 + i) for i, m in enumerate(whole.moves[:6])]
    person = Scripted(first_legal, SeatClock(move_time=300, game_time=1800))
    seen: list[MoveRecord] = []
    resumed = play([person, scripted(tmp_path, {}, name="again")], "process", seed=5,
                   resume_moves=stored, on_move=lambda _state, move: seen.append(move))
    assert [m.move for m in resumed.moves] == [m.move for m in whole.moves]
    assert resumed.result == whole.result
    assert resumed.moves[:6] == stored and seen == resumed.moves  # the stored ones first
    assert person.requests[0].turn == 6  # not asked for the stored moves
    spent = sum(m.time for m in stored if m.seat == 0)
    assert person.requests[0].game_time_left == pytest.approx(1800 - spent)
    # the bot was sent every one of its turns, the replayed ones too: its count went on
    bot_moves = sum(1 for m in whole.moves if m.seat == 1)
    log = resumed.players[1].log
    assert f"move {bot_moves - 1}: normal" in log and f"move {bot_moves}:" not in log


def test_a_bot_that_fails_while_its_game_is_resumed_forfeits(tmp_path: Path) -> None:
    whole = play([Scripted(first_legal), scripted(tmp_path, {})], "process", seed=5)
    stored = whole.moves[:5]  # the bot's moves 0 and 1 among them
    resumed = play([Scripted(first_legal), scripted(tmp_path, {"1": "exit:3"}, name="x")],
                   "process", seed=5, resume_moves=stored)
    assert forfeit_of(resumed) == (1, "crash")
    assert resumed.result.forfeit.detail.startswith("resuming its game: ")
    assert [m.move for m in resumed.moves] == [m.move for m in stored]


def test_the_first_move_has_the_first_move_time_and_the_rest_the_move_time(
        backend: str) -> None:
    quick = Scripted(first_legal, SeatClock(move_time=30, game_time=60, first_move_time=0.5))
    record = play([quick, "builtin:random"], backend, seed=1)
    assert record.forfeit is None
    assert [r.time_left for r in quick.requests[:2]] == [0.5, 30]
    absent = Scripted(lambda r: None, SeatClock(move_time=30, game_time=60,
                                                first_move_time=0.3))
    record = play(["builtin:random", absent], backend, seed=1)
    assert forfeit_of(record) == (1, "timeout")
    assert record.result.forfeit.detail == "no move within 0.3 s"
