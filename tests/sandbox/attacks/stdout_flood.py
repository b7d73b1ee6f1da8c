# Prints 1 GiB to stdout without a newline; the referee must stop reading and forfeit it.
import sys

from botlib import run


def play(turn):
    chunk = "x" * (1 << 20)
    for _ in range(1024):
        sys.stdout.write(chunk)
    sys.stdout.flush()
    return "0,0"


run(play)
