# Burns a fixed amount of CPU work on every move (not a fixed time), then plays.
import contextlib
import os

from botlib import run


def share_one_cpu() -> None:
    # Thinker and spinners share one CPU ahead of the rest of the machine, so unpaused theft
    # shows as ~4x however busy the machine is (CI once measured 1.1x without this). Where
    # the sandbox forbids either call the bot just runs as it is.
    for call in (lambda: os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}),
                 lambda: os.nice(-10)):
        with contextlib.suppress(OSError):
            call()


WORK = 1_500_000


def play(turn):
    x = 0
    for i in range(WORK):
        x ^= i
    return turn.legal_moves[len(turn.legal_moves) // 2 + (x & 0)]


share_one_cpu()
run(play)
