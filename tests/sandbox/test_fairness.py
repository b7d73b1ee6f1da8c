"""Fairness: the bot not on move is paused, so a spinning opponent cannot eat the thinker's time.

The thinker burns a fixed amount of work per move. Against a quiet opponent and against one
that leaves three busy processes running after each of its moves, its time per move must be
about the same on a sandbox backend. On the bare backend (no pausing) the spinners do slow
it down, which shows the measurement can see theft when it happens. Both bots pin themselves
to one CPU and, where allowed, raise their priority, so other load on the machine cannot
dilute what the spinners take.
"""

from __future__ import annotations

import statistics

import pytest

from tests.sandbox.conftest import BOTS, FAST, play

pytestmark = pytest.mark.usefixtures("clean_worker")
LIMITS = FAST.with_changes(move_time=5.0)


def thinker_time(opponent: str, backend: str) -> float:
    record = play([str(BOTS / "thinker.py"), str(BOTS / opponent)], backend, limits=LIMITS,
                  options={"size": 9})
    assert record.forfeit is None, record.result
    times = [m.time for m in record.moves if m.seat == 0][1:]  # skip start-up
    return statistics.median(times)


def slowdown(backend: str, rounds: int = 4) -> float:
    """Best of a few runs each way: other jobs on the machine only ever add time. The runs
    alternate, so load that comes and goes during the test falls on both sides alike (three
    quiet runs and then three noisy ones once measured 1.6x in a CI run; 0.8-1.2 otherwise)."""
    quiet, noisy = [], []
    for _ in range(rounds):
        quiet.append(thinker_time("first.py", backend))
        noisy.append(thinker_time("spinner.py", backend))
    return min(noisy) / min(quiet)


def test_the_idle_bot_cannot_steal_the_thinkers_time(backend: str) -> None:
    # Measured 0.93-1.01 here; three spinners on the thinker's CPU would make it ~4 if unpaused.
    assert slowdown(backend) < 1.5


@pytest.mark.slow
def test_without_pausing_the_spinner_does_steal_time() -> None:
    # Measured 4.0 idle or beside six busy processes, once 2.2 in a CI run on a busier
    # machine; an unstolen thinker measures ~1, and the paused backends must stay under 1.5.
    assert slowdown("bare") > 2.0
