# Sleeps forever on its first move: a timeout.
import time

from botlib import run


def play(turn):
    while True:
        time.sleep(3600)


run(play)
