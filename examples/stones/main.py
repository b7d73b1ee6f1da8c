"""Stones starter bot: take a move that leaves the opponent no free cell, else the move that
leaves the fewest free cells (a greedy one-ply search with the engine's own rules).

    python -m sandbox play stones examples/stones builtin:random --show
"""

from botlib import run


def play(turn):
    state = turn.state()  # the engine's State, rebuilt from what this bot may see

    def free_after(move):
        child = state.copy()
        child.apply(move)
        return len(child.legal_moves())

    return min(turn.legal_moves, key=free_after)


run(play)
