"""Robots starter bot: step where no robot reaches you, preferring the higher score and then
the cell that leaves the most such steps for the next turn; teleport only when every step is
caught (a one-ply search with the engine itself, two plies for the tie-break).

What each turn brings (docs/rules/robots.md has the whole observation):

- ``turn.observation["board"]``: rows as strings, ``@`` you, ``+`` a robot, ``*`` scrap,
  ``.`` empty; ``level``, ``score``, ``turn``, ``robots_left``;
- ``turn.legal_moves``: ``0`` (teleport), then the keypad digits you may play: ``7 8 9`` /
  ``4 5 6`` / ``1 2 3`` step that way from ``5``, which waits;
- ``turn.state()``: the engine's own state rebuilt from the observation. Robots move
  without chance, so trying a step on a copy tells exactly what the real step does. A
  teleport lands at random, and the copy's random generator is not the game's: trying a
  teleport on a copy says nothing about where the real one lands.

The score (a point per robot destroyed, 10 x level for clearing a level) is what the ladder
ranks, as a mean over its seeds. Where to improve: lure robots into each other and onto
scrap on purpose (count the robots a step would destroy two turns ahead), and keep away
from the walls, where fewer steps are left when robots close in.

    python -m sandbox play robots examples/robots --games 5
"""

from botlib import run


def after(state, move):
    child = state.copy()
    child.apply(move)
    return child


def caught(state):
    """Whether the run ended because a robot reached the player."""
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
