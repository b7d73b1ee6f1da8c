# Prints 64 MiB to stderr on its first move, then plays on: the referee keeps the tail as the
# log, and nothing of it may land on the worker's disk (a container runtime's log file).
import os

from botlib import run

flooded = False


def play(turn):
    global flooded
    if not flooded:
        flooded = True
        chunk = b"e" * (1 << 20)
        for _ in range(64):
            os.write(2, chunk)
    return turn.legal_moves[0]


run(play)
