# Misbehaves on purpose, as told by script.json beside it: {"<n>": "<action>", ...} where n is
# this bot's own move count (0 = its first move). Actions: "sleep:S", "illegal", "malformed",
# "exit:N", "segfault", "long-line", "binary", "cpu:S" (busy for S seconds), "two-lines",
# "reply-then-exit" (answers, then exits 0 while the opponent is on move).
import ctypes
import json
import os
import sys
import time

from botlib import log, run

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "script.json")) as f:
    SCRIPT = json.load(f)
if "import-sleep" in SCRIPT:
    time.sleep(float(SCRIPT["import-sleep"]))
count = 0


def play(turn):
    global count
    action = SCRIPT.get(str(count), "")
    count += 1
    log(f"move {count - 1}: {action or 'normal'} (time left {turn.time_left:.3f})")
    kind, _, arg = action.partition(":")
    if kind == "sleep":
        time.sleep(float(arg))
    elif kind == "cpu":
        end = time.perf_counter() + float(arg)
        while time.perf_counter() < end:
            pass
    elif kind == "illegal":
        return "99,99"
    elif kind == "malformed":
        return "not a move"
    elif kind == "exit":
        sys.stdout.flush()
        os._exit(int(arg))
    elif kind == "segfault":
        ctypes.string_at(0)
    elif kind == "long-line":
        return "x" * 100_000
    elif kind == "reply-then-exit":
        sys.stdout.write(f"{turn.legal_moves[0]}\n")
        sys.stdout.flush()
        os._exit(0)
    elif kind == "binary":
        sys.stdout.buffer.write(b"\xff\xfe\n")
        sys.stdout.flush()
        time.sleep(5)
    return turn.legal_moves[0]


run(play)
