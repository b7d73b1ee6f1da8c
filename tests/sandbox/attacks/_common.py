"""Shared by the attack bots: report in the log, then play on as a normal bot.

An attack bot runs its attack on its first move and writes ``BLOCKED: ...`` to its log when
the sandbox stopped it, ``PWNED: ...`` when it got through. ``target.txt`` beside the bot,
written by the test, can name a host path or pid to aim at.
"""

import os

from botlib import log, run

HERE = os.path.dirname(os.path.abspath(__file__))


def target() -> str:
    try:
        with open(os.path.join(HERE, "target.txt")) as f:
            return f.read().strip()
    except OSError:
        return ""


def attack_then_play(attack) -> None:
    done = False

    def play(turn):
        nonlocal done
        if not done:
            done = True
            try:
                verdict = attack()
            except Exception as error:  # the attack itself blew up: that is a block too
                verdict = f"BLOCKED: {type(error).__name__}: {error}"
            log(verdict)
        return turn.legal_moves[0]

    run(play)
