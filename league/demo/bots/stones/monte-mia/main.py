"""Monte Mia: flat Monte Carlo, random playouts after each move, 50 ms a move.

A small program around the engine's built-in ``montecarlo`` player: ``setup`` makes the player
once per match and ``play`` hands it this seat's observation.
"""

from botlib import run

from games.players import make_player

player = None


def setup(start):
    global player
    player = make_player(start.game, "montecarlo", start.seat, start.seed,
                         time_limit=start.limits["move_time"])


def play(turn):
    # Built-in players look for the legal moves inside the observation; the protocol sends
    # them beside it.
    observation = {"legal_moves": turn.legal_moves, **turn.observation}
    return player.choose(observation)


run(play, setup)
