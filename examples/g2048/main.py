"""2048 starter bot: try each slide on a copy of the board and keep the one that scores most
and leaves the most empty cells (a one-ply search with the engine itself).

What each turn brings (docs/rules/g2048.md has the whole observation):

- ``turn.observation["grid"]``: the tiles as rows of numbers, 0 for an empty cell; ``score``
  (the sum of every tile made by a merge so far), ``turn``, ``max_tile``;
- ``turn.legal_moves``: the directions that change the board, among ``L R U D``;
- ``turn.state()``: the engine's own state rebuilt from the observation. It has a fresh
  random generator, so the tile it adds after a slide is a guess: a bot never sees the real
  spawns coming.

The score is what the ladder ranks (the mean over its seeds). Where to improve: keep the
biggest tile in a corner and the row next to it ordered; search deeper, averaging over where
the new tile can land (``state.slide(move)`` gives the board before the spawn,
``empty_cells()`` and ``place_tile()`` let you try each spawn); the built-in ``expectimax``
player does this.

    python -m sandbox play g2048 examples/g2048 --games 5
"""

from botlib import run


def play(turn):
    state = turn.state()

    def value(move):
        child = state.copy()
        child.apply(move)  # slides, scores, and adds a random tile
        empty = sum(row.count(0) for row in child.observation(0)["grid"])
        return child.scores()[0] + 4 * empty

    return max(turn.legal_moves, key=value)


run(play)
