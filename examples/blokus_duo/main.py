"""Blokus Duo starter bot: play the move that gains the most squares over the opponent, one
ply deep, using the engine to try each legal move.

    python -m sandbox play blokus_duo examples/blokus_duo builtin:greedy
"""

from botlib import run


def play(turn):
    state = turn.state()
    me = turn.seat

    def gain(move):
        child = state.copy()
        child.apply(move)
        scores = child.scores()
        return scores[me] - scores[1 - me]

    return max(turn.legal_moves, key=gain)


run(play)
