"""2048 starter bot: try each slide on a copy of the board (the engine adds a random tile
from a fresh generator, as the real game will) and keep the one that scores most and leaves
the most empty cells.

    python -m sandbox play g2048 examples/g2048 --games 5
"""

from botlib import run


def play(turn):
    state = turn.state()

    def value(move):
        child = state.copy()
        child.apply(move)
        empty = sum(row.count(0) for row in child.observation(0)["grid"])
        return child.scores()[0] + 4 * empty

    return max(turn.legal_moves, key=value)


run(play)
