# Plays a normal match, then prints to stdout as fast as it can once it has heard `end`: the
# match is over, so the output cap is all that keeps the referee's memory bounded.
import os

from botlib import run

run(lambda turn: turn.legal_moves[0])
chunk = b"y" * (1 << 20)
while True:
    os.write(1, chunk)
