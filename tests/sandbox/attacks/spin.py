# Spins forever on its first move: a timeout.
from botlib import run


def play(turn):
    while True:
        pass


run(play)
