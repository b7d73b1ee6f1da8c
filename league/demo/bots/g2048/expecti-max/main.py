"""Expecti-Max: the engine's built-in ``expectimax`` 2048 player on a short leash.

A small program around the built-in player: ``setup`` makes the player once per match and
``play`` hands it this seat's observation. The player searches for half its ``time_limit``;
at the default (50 ms) it lives for some 20,000 moves, a game of many minutes. Held to 1 ms a
move it still reaches the 1024 or 2048 tile, in a game of seconds.
"""

from botlib import run

from games.players import make_player

player = None


def setup(start):
    global player
    player = make_player(start.game, "expectimax", start.seat, start.seed, time_limit=0.002)


def play(turn):
    # Built-in players look for the legal moves inside the observation; the protocol sends
    # them beside it.
    observation = {"legal_moves": turn.legal_moves, **turn.observation}
    return player.choose(observation)


run(play, setup)
