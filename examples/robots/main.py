"""Robots starter bot: step where no robot reaches you, preferring the higher score and then
the cell that leaves the most such steps for the next turn; teleport only when every step is
caught (a teleport lands at random, so trying it on a copy says nothing about the real one).

    python -m sandbox play robots examples/robots --games 5
"""

from botlib import run


def after(state, move):
    child = state.copy()
    child.apply(move)
    return child


def caught(state):
    return state.result is not None and state.result.reason == "game-over"


def escapes(state):
    """Steps from here after which no robot reaches you."""
    if state.is_over():
        return 0
    return sum(1 for move in state.legal_moves() if move != "0" and not caught(after(state, move)))


def play(turn):
    state = turn.state()

    def value(move):
        if move == "0":
            return (1, 0, 0)  # below any safe step, above being caught
        child = after(state, move)
        if caught(child):
            return (0, 0, 0)
        return (2, child.scores()[0], escapes(child))

    return max(turn.legal_moves, key=value)


run(play)
