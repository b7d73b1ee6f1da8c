"""Blokus Duo starter bot: try every legal placement on a copy of the game and keep the one
that gains the most squares over the opponent (a one-ply search with the engine itself).

What each turn brings (docs/rules/blokus_duo.md has the whole observation):

- ``turn.observation["board"]``: 14 strings, ``.`` empty, ``0`` / ``1`` the owner's square;
  ``pieces_left`` (both players' letters), ``passed``, ``squares`` placed so far;
- ``turn.legal_moves``: every legal placement as a code such as ``U055`` (piece, orientation,
  column and row of the top-left of its box), then ``X000``, the pass (a pass is final);
- ``turn.state()``: the engine's own state rebuilt from the observation, to try moves on.

Since a placement always adds squares, the biggest piece that fits comes first, and the bot
passes only when nothing fits. Where to improve: keep your own corners open and close the
opponent's (count the corner squares each side could still grow from), hold small pieces
for the end, or look two moves ahead within the move time.

    python -m sandbox play blokus_duo examples/blokus_duo builtin:random --games 20
"""

from botlib import run


def play(turn):
    state = turn.state()
    me = turn.seat  # 0 moves first and starts on square (5,5); 1 starts on (A,A)

    def gain(move):
        child = state.copy()  # copies are cheap; the original stays as it was
        child.apply(move)
        scores = child.scores()  # squares each player has placed
        return scores[me] - scores[1 - me]

    return max(turn.legal_moves, key=gain)


run(play)
