"""Bot sources the league tests upload: each behaves one way, on purpose."""

RANDOM = """\
import random
from botlib import run

run(lambda turn: random.choice(turn.legal_moves))
"""

FIRST = """\
from botlib import run

run(lambda turn: turn.legal_moves[0])
"""

SLOW = """\
import random, time
from botlib import run

def play(turn):
    time.sleep(0.3)
    return random.choice(turn.legal_moves)

run(play)
"""

SLOW_START = """\
import random, time
from botlib import run

played = 0

def play(turn):
    global played
    played += 1
    if played <= 20:  # long enough to be watched, then quick to the end
        time.sleep(0.08)
    return random.choice(turn.legal_moves)

run(play)
"""

CRASH = """\
import sys
sys.stderr.write("loading my model... oh no\\n")
sys.exit(3)
"""

TIMEOUT = """\
import sys, time
from botlib import run

def play(turn):
    print("thinking very hard", file=sys.stderr, flush=True)
    time.sleep(60)

run(play)
"""

ILLEGAL = """\
import sys
from botlib import run

def play(turn):
    print("trying my luck off the board", file=sys.stderr, flush=True)
    return "99,99"

run(play)
"""

STONES_ANSWER = """\
import sys
from botlib import run

def play(turn):
    print("I play Stones", file=sys.stderr, flush=True)
    return "2,2"

run(play)
"""

BROKEN_CPP = """\
#include <iostream>
int main() { this is not C++ }
"""

CHATTY = """\
import random
from botlib import log, run

def play(turn):
    log(f"thinking about turn {turn.number}")
    move = random.choice(turn.legal_moves)
    log(f"chose {move} at turn {turn.number}")
    return move

run(play)
"""
