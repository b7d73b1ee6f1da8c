"""Robots starter bot: prefer moves after which the game is still running (no robot reaches
you), then the higher score; the engine plays the robots' reply on a copy.

    python -m sandbox play robots examples/robots --games 5
"""

from botlib import run


def play(turn):
    state = turn.state()

    def value(move):
        child = state.copy()
        child.apply(move)
        caught = child.result is not None and child.result.reason == "game-over"
        return (not caught, child.scores()[0])

    return max(turn.legal_moves, key=value)


run(play)
