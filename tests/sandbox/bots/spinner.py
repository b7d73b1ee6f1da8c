# After each move, leaves busy processes behind that would steal the opponent's CPU if this
# bot were not paused while the opponent thinks.
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


started = False


def spin() -> None:
    while True:
        pass


def play(turn):
    global started
    if not started:
        started = True
        for _ in range(3):
            if os.fork() == 0:
                spin()
    return turn.legal_moves[0]


share_one_cpu()  # the spinners inherit it
run(play)
