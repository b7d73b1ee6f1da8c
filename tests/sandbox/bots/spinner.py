# After each move, leaves busy processes behind that would steal the opponent's CPU if this
# bot were not paused while the opponent thinks.
import os

from botlib import run

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


run(play)
