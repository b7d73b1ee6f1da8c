# Burns a fixed amount of CPU work on every move (not a fixed time), then plays.
from botlib import run

WORK = 1_500_000


def play(turn):
    x = 0
    for i in range(WORK):
        x ^= i
    return turn.legal_moves[len(turn.legal_moves) // 2 + (x & 0)]


run(play)
