# Writes to stderr before and after each move and at the end: the referee must file each line
# under the turn it was written in.
import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "turn":
        turn = message["turn"]
        print(f"thinking at turn {turn}", file=sys.stderr, flush=True)
        print(message["legal_moves"][0], flush=True)
        print(f"played at turn {turn}", file=sys.stderr, flush=True)
    elif message["type"] == "end":
        print("game over, bye", file=sys.stderr, flush=True)
        break
