"""Stones starter bot: look one move ahead with the engine, and two where it matters.

Stones is won by making the last move (the player left without a free cell loses), so a
move is judged by what it leaves the opponent. For each legal move, first rule first:

1. a move that leaves the opponent no free cell wins at once;
2. never leave the opponent a reply that would leave *you* no free cell;
3. prefer a move that leaves the stones point-symmetric about the centre: whatever the
   opponent plays next, its mirror image is then still free for you (on an odd board the
   first player takes the centre and mirrors every reply, which always wins);
4. otherwise leave as few free cells as possible.

Measured against the random player (examples/README.md): every game won as the first player
on the empty 5 x 5 board, about four in five as the second; on the ladder's board, 5 x 5 with
4 holes drawn from the seed, mirroring seldom works and about three in four. Where to
improve: search deeper (a 5 x 5 game is short enough to solve to the end with
``state.copy()`` and ``apply``), or cache positions you have already judged.

    python -m sandbox play stones examples/stones builtin:random --games 40
"""

from botlib import run


def after(state, move):
    """The position after ``move``, on a copy (copies are cheap; the original is untouched)."""
    child = state.copy()
    child.apply(move)
    return child


def symmetric(state):
    """Whether the board reads the same turned half a turn about its centre."""
    rows = state.board_rows()  # '#' stone, 'x' blocked, '.' free
    return rows == [row[::-1] for row in reversed(rows)]


def play(turn):
    # turn.observation holds the board as strings and whose turn it is; turn.legal_moves the
    # free cells as "row,col". turn.state() rebuilds the engine's own state from them.
    state = turn.state()

    def value(move):  # smaller is better: tuples compare rule by rule
        child = after(state, move)
        replies = child.legal_moves()
        they_win = any(not after(child, reply).legal_moves() for reply in replies)
        return (len(replies) > 0, they_win, not symmetric(child), len(replies))

    return min(turn.legal_moves, key=value)


run(play)
