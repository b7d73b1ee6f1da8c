# Plays a normal match, then keeps running once it has heard `end`, as after_end.txt beside it
# says: "stdout" or "stderr" (prints to it as fast as it can), "both" (to each in turn),
# "sleep" (sleeps, its streams still open), or "tidy:S" (a well-behaved bot that takes S
# seconds of its end grace to wrap up, then exits 0). Lingering must cost only itself.
import os
import time

from botlib import run

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "after_end.txt")) as f:
    MODE = f.read().strip()

run(lambda turn: turn.legal_moves[0])
if MODE.startswith("tidy:"):
    time.sleep(float(MODE.split(":")[1]))
    raise SystemExit(0)
chunk = b"y" * (1 << 16)
fds = {"stdout": (1,), "stderr": (2,), "both": (1, 2)}.get(MODE, ())
while fds:
    for fd in fds:
        os.write(fd, chunk)
time.sleep(3600)
