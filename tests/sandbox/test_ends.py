"""The end of a match: each bot's end is judged on its own.

Once the result is known every live bot is told it and has its input closed at once, then all
are drained and waited for together against one ``end_grace`` deadline. A bot that keeps
running after ``end`` (printing without end, or sleeping) is killed at the deadline and its
record says so; its opponent, which exits when told, records its own normal exit whichever
seat either bot holds. The referee once drained the bots one after another under the shared
deadline, so a flood in seat 0 used up the grace and seat 1, never told in time, was recorded
"killed by SIGKILL".
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.sandbox.conftest import BOTS, FAST, bot_folder, play

pytestmark = pytest.mark.usefixtures("clean_worker")


def after_end(tmp_path: Path, mode: str) -> str:
    return bot_folder(tmp_path, BOTS / "after_end.py", mode.replace(":", "-"),
                      {"after_end.txt": mode})


@pytest.mark.parametrize("mode", ["stdout", "stderr", "both", "sleep"])
@pytest.mark.parametrize("seat", [0, 1])
# The opponent exits as soon as it hears `end`, or takes 0.2 s of its own grace to do so.
@pytest.mark.parametrize("opponent", ["first", "tidy:0.2"])
def test_a_bot_that_lingers_after_end_costs_only_itself(tmp_path: Path, backend: str,
                                                        opponent: str, seat: int,
                                                        mode: str) -> None:
    other = str(BOTS / "first.py") if opponent == "first" else after_end(tmp_path, opponent)
    bots = [other, other]
    bots[seat] = after_end(tmp_path, mode)
    began = time.monotonic()
    record = play(bots, backend)
    took = time.monotonic() - began
    assert record.forfeit is None, record.result
    opponent = record.players[1 - seat]
    assert opponent.exit == "exited with code 0", (opponent.exit, opponent.log)
    # still running at the deadline: killed, and its own record says so
    assert record.players[seat].exit == "killed by SIGKILL", record.players[seat].exit
    assert took < 15 + FAST.end_grace, f"{took:.1f} s"
