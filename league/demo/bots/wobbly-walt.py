"""Wobbly Walt: the engine's built-in ``hunter``, except that one turn in three he plays a
random legal action instead: somewhere between the hunter and a random wizard.

The hunter reads only the observation it is given, so skipping it on some turns costs it no
memory.
"""

import random

from botlib import run

from games.players import make_player

hunter = None
dice = random.Random()


def setup(start):
    global hunter
    hunter = make_player(start.game, "hunter", start.seat, start.seed,
                         time_limit=start.limits["move_time"])
    dice.seed(start.seed)  # seeded from the match, so a replay plays out the same


def play(turn):
    if dice.random() < 1 / 3:
        return dice.choice(turn.legal_moves)
    observation = {"legal_moves": turn.legal_moves, **turn.observation}
    return hunter.choose(observation)


run(play, setup)
