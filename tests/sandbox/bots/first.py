# Plays the first legal move, quickly.
from botlib import run

run(lambda turn: turn.legal_moves[0])
