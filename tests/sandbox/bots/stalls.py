# Plays two moves, then says it is stuck and never answers: its last line belongs to the turn
# it timed out in.
import json
import sys
import time

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "turn":
        if message["turn"] >= 4:
            print(f"stuck at turn {message['turn']}", file=sys.stderr, flush=True)
            time.sleep(60)
        print(message["legal_moves"][0], flush=True)
