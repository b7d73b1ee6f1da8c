"""Run one of the engine's built-in players as an ordinary bot program.

``python3 -I builtin.py NAME`` speaks the same protocol as any uploaded bot, so built-in
players go through exactly the same referee and sandbox path.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from botlib import Start, Turn, run


def main() -> None:
    name = sys.argv[1]
    player = None

    def setup(start: Start) -> None:
        nonlocal player
        from games.players import make_player

        player = make_player(start.game, name, start.seat, start.seed)

    def play(turn: Turn) -> str:
        observation = dict(turn.observation)
        if turn.legal_moves is not None:
            observation.setdefault("legal_moves", turn.legal_moves)
        assert player is not None, "play before setup"
        return player.choose(observation)

    run(play, setup)


if __name__ == "__main__":
    main()
