"""Wizard Duel starter bot: hidden information, so no engine state to search; play a random
legal action, seeded from the start message so a match can be replayed exactly.

    python -m sandbox play wizard_duel examples/wizard_duel builtin:random --show
"""

import random

from botlib import log, run

rng = random.Random()


def setup(start):
    rng.seed(start.seed)
    log(f"wizard duel, seat {start.seat}, limits {start.limits}")


def play(turn):
    return rng.choice(turn.legal_moves)


run(play, setup)
