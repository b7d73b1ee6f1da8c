"""Every forfeit reason, the time bank and the start-up allowance, on every backend."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox import Limits
from tests.sandbox.conftest import BOTS, FAST, forfeit_of, play, scripted

pytestmark = pytest.mark.usefixtures("clean_worker")
OPPONENT = str(BOTS / "first.py")


def test_a_clean_match_has_no_forfeit_and_replays(tmp_path: Path, backend: str) -> None:
    record = play([scripted(tmp_path, {}), OPPONENT], backend, seed=5)
    assert record.forfeit is None
    assert record.replay().result == record.result
    assert [p.exit for p in record.players] == ["exited with code 0"] * 2
    assert "move 0: normal" in record.players[0].log


def test_too_slow_is_a_timeout(tmp_path: Path, backend: str) -> None:
    limits = FAST.with_changes(move_time=0.3)
    record = play([scripted(tmp_path, {"1": "sleep:1.5"}), OPPONENT], backend, limits=limits)
    assert forfeit_of(record) == (0, "timeout")
    assert record.players[0].moves == 1
    assert "no move within 0.3 s" in record.result.forfeit.detail


def test_exit_code_is_a_crash(tmp_path: Path, backend: str) -> None:
    record = play([scripted(tmp_path, {"1": "exit:3"}), OPPONENT], backend)
    assert forfeit_of(record) == (0, "crash")
    assert "exited with code 3" in record.result.forfeit.detail


def test_a_signal_is_a_crash(tmp_path: Path, backend: str) -> None:
    record = play([scripted(tmp_path, {"0": "segfault"}), OPPONENT], backend)
    assert forfeit_of(record) == (0, "crash")
    assert "SIGSEGV" in record.result.forfeit.detail


def test_an_illegal_move_carries_the_engines_reason(tmp_path: Path, backend: str) -> None:
    record = play([OPPONENT, scripted(tmp_path, {"0": "illegal"})], backend)
    assert forfeit_of(record) == (1, "illegal")
    assert "'99,99'" in record.result.forfeit.detail
    assert "off the 5x5 board" in record.result.forfeit.detail


@pytest.mark.parametrize("action", ["malformed", "binary"])
def test_text_that_is_no_move_is_malformed(tmp_path: Path, backend: str, action: str) -> None:
    record = play([scripted(tmp_path, {"0": action}), OPPONENT], backend)
    assert forfeit_of(record) == (0, "malformed")


def test_a_line_over_the_cap_is_an_output_limit(tmp_path: Path, backend: str) -> None:
    record = play([scripted(tmp_path, {"0": "long-line"}), OPPONENT], backend)
    assert forfeit_of(record) == (0, "output-limit")
    assert "4096 bytes" in record.result.forfeit.detail


def test_total_output_over_the_cap_is_an_output_limit(tmp_path: Path, backend: str) -> None:
    limits = FAST.with_changes(max_output=20)  # a few moves' worth
    record = play([scripted(tmp_path, {}), OPPONENT], backend, limits=limits,
                  options={"size": 9})
    assert forfeit_of(record) in {(0, "output-limit"), (1, "output-limit")}


def test_the_time_bank_absorbs_one_overrun_then_runs_out(tmp_path: Path, backend: str) -> None:
    limits = FAST.with_changes(move_time=0.3, time_bank=1.0)
    bot = scripted(tmp_path, {"1": "sleep:0.8", "2": "sleep:1.2"})
    record = play([bot, OPPONENT], backend, limits=limits, options={"size": 9})
    assert forfeit_of(record) == (0, "timeout")
    assert record.players[0].moves == 2  # move 1 overran by ~0.5 s and was paid from the bank
    assert 0.3 < record.players[0].time_bank_left < 0.55
    assert "time left 1.300" in record.players[0].log  # move 1 was offered 0.3 + bank 1.0


def test_without_a_bank_the_same_overrun_is_a_timeout(tmp_path: Path, backend: str) -> None:
    limits = FAST.with_changes(move_time=0.3, time_bank=0.0)
    record = play([scripted(tmp_path, {"1": "sleep:0.8"}), OPPONENT], backend, limits=limits)
    assert forfeit_of(record) == (0, "timeout")
    assert record.players[0].moves == 1


def test_start_up_gets_its_own_allowance(tmp_path: Path, backend: str) -> None:
    slow_start = {"import-sleep": "1.5"}
    ok = play([scripted(tmp_path, slow_start, "a"), OPPONENT], backend,
              limits=FAST.with_changes(move_time=0.3, startup_time=3.0))
    assert ok.forfeit is None
    late = play([scripted(tmp_path, slow_start, "b"), OPPONENT], backend,
                limits=FAST.with_changes(move_time=0.3, startup_time=0.5))
    assert forfeit_of(late) == (0, "timeout")


def test_the_start_up_allowance_is_for_the_first_move_only(tmp_path: Path, backend: str) -> None:
    limits = FAST.with_changes(move_time=0.3, startup_time=3.0)
    record = play([scripted(tmp_path, {"1": "sleep:1.5"}), OPPONENT], backend, limits=limits)
    assert forfeit_of(record) == (0, "timeout")


def test_the_log_keeps_the_tail(tmp_path: Path) -> None:
    limits = Limits(log_bytes=64)
    record = play([scripted(tmp_path, {}), OPPONENT], "process", limits=limits,
                  options={"size": 9})
    log = record.players[0].log
    assert log.startswith("[... ")
    assert "earlier bytes dropped" in log
    assert len(log.split("\n", 1)[1]) <= 64


def test_a_solo_game_forfeit_keeps_the_score(tmp_path: Path) -> None:
    import games

    solo = [g for g in games.game_ids() if games.make_game(g).num_players == 1]
    if not solo:
        pytest.skip("no solo game registered yet")
    record = play([scripted(tmp_path, {"2": "malformed"})], "process", game=solo[0])
    assert forfeit_of(record) == (0, "malformed")
    assert record.result.outcomes is None
    assert record.players[0].moves == 2


def test_a_bot_that_exits_between_moves_is_a_crash(tmp_path: Path, backend: str) -> None:
    # It answers, then exits while the opponent thinks: its next turn's message meets a
    # closed pipe (this once raised BufferError out of the referee), then its closed output.
    bot = scripted(tmp_path, {"0": "reply-then-exit"}, "exits")
    record = play([bot, scripted(tmp_path, {"0": "sleep:0.2"}, "slow")], backend)
    assert forfeit_of(record) == (0, "crash"), record.result
    assert "exited with code 0" in record.result.forfeit.detail
