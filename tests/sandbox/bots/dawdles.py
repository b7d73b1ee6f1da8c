# As chatty.py, but it dawdles after each move before saying it played: by then it is usually
# paused (its opponent is on move), so the line is written, and filed, at its next turn.
import json
import sys
import time

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "turn":
        turn = message["turn"]
        print(f"thinking at turn {turn}", file=sys.stderr, flush=True)
        print(message["legal_moves"][0], flush=True)
        time.sleep(0.1)
        print(f"played at turn {turn}", file=sys.stderr, flush=True)
    elif message["type"] == "end":
        print("game over, bye", file=sys.stderr, flush=True)
        break
