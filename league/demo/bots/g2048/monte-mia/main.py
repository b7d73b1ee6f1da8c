"""Monte Mia: flat Monte Carlo (random playouts after each slide), the engine's built-in
``montecarlo`` player, thinking 1 ms a move.

A small program around the built-in player: ``setup`` makes the player once per match and
``play`` hands it this seat's observation. The player thinks for half its ``time_limit``
(50 ms at most); at 1 ms a game of several hundred moves still takes only seconds.
"""

from botlib import run

from games.players import make_player

player = None


def setup(start):
    global player
    player = make_player(start.game, "montecarlo", start.seat, start.seed, time_limit=0.002)


def play(turn):
    # Built-in players look for the legal moves inside the observation; the protocol sends
    # them beside it.
    observation = {"legal_moves": turn.legal_moves, **turn.observation}
    return player.choose(observation)


run(play, setup)
